//! Issue timing of the Vector Unit: which sub-unit an issued instruction occupies, and the
//! hardware's automatic stalling of the next instruction.
//!
//! Rules (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPMAD.md,
//! "Instruction scheduling"; SFPSWAP.md and SFPSHFT2.md, same section):
//! - a MAD sub-unit instruction needs two cycles; on the next cycle an instruction that reads
//!   an `LReg` it writes is stalled one cycle (`INDIRECT_VA` / `INDIRECT_VD` make the logic
//!   assume every register is read / written). The detection has documented blind spots,
//!   reproduced in [`stall_reads`];
//! - after SFPSWAP, or SFPSHFT2 in a lane-shuffling mode (2, 3, 4), only SFPNOP is accepted on
//!   the next cycle; anything else is stalled one cycle;
//! - none of this applies to instructions scheduled by SFPLOADMACRO (software spaces those).
use super::decode::{Insn, Op};
use super::SubUnit;

/// What the instruction issued last cycle imposes on this cycle's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hazard {
    /// `LReg`s (bit per index 0..=16) a MAD-sub-unit instruction is still writing.
    mad_writes: u32,
    /// Only SFPNOP may issue.
    only_nop: bool,
}

const ALL_LREGS: u32 = (1 << 17) - 1;

impl Hazard {
    /// The hazard left by `insn`, issued (not scheduled) this cycle.
    pub fn after(insn: &Insn) -> Hazard {
        let mad_writes = if super::decode::is_mad_unit(insn.op) {
            let indirect_vd = match insn.op {
                // The stall logic reads Mod1Mirror (bits 16..19, `va`) for SFPLUTFP32.
                Op::Sfplutfp32 => insn.va & 8 != 0,
                Op::Sfplut => insn.modifier & 8 != 0,
                _ => insn.modifier & 8 != 0,
            };
            if indirect_vd {
                ALL_LREGS
            } else {
                1 << insn.vd
            }
        } else {
            0
        };
        let only_nop =
            insn.op == Op::Sfpswap || (insn.op == Op::Sfpshft2 && matches!(insn.modifier, 2..=4));
        Hazard {
            mad_writes,
            only_nop,
        }
    }

    /// Whether `insn` is held back this cycle.
    pub fn stalls(&self, insn: &Insn) -> bool {
        if self.only_nop && insn.op != Op::Sfpnop {
            return true;
        }
        self.mad_writes & stall_reads(insn) != 0
    }
}

/// The `LReg`s the stalling logic believes `insn` reads (bit per index), including the
/// blind spots SFPMAD.md lists: SFPAND/SFPOR are seen reading `VD` not `VB`; SFPIADD and
/// SFPSHFT are not seen reading `VD`; SFPCONFIG is not seen reading `LReg[0]`; SFPSWAP's
/// first-cycle compare is not seen; SFPSHFT2's shuffles 2..4 are not seen reading anything
/// and its shifts (5, 6) are seen reading `VD` rather than `VB`.
pub fn stall_reads(insn: &Insn) -> u32 {
    let bit = |r: u8| 1u32 << r;
    let (va, vb, vc, vd) = (insn.va, insn.vb, insn.vc, insn.vd);
    let m = insn.modifier;
    match insn.op {
        Op::Sfpmad | Op::Sfpadd | Op::Sfpmul | Op::Sfpmul24 => {
            let a = if m & 4 != 0 { ALL_LREGS } else { bit(va) };
            a | bit(vb) | bit(vc)
        }
        Op::Sfpaddi | Op::Sfpmuli => bit(vc),
        Op::Sfplut => 0b1111 | if m & 8 != 0 { bit(7) } else { 0 },
        Op::Sfplutfp32 => {
            if insn.va & 8 != 0 {
                ALL_LREGS
            } else {
                ALL_LREGS & !bit(7)
            }
        }
        Op::Sfpand
        | Op::Sfpor
        | Op::Sfpxor
        | Op::Sfpsetexp
        | Op::Sfpsetman
        | Op::Sfpsetsgn
        | Op::Sfpgt
        | Op::Sfple => bit(vc) | bit(vd),
        Op::Sfpiadd | Op::Sfpshft => bit(vc),
        Op::Sfpconfig
        | Op::Sfpnop
        | Op::Sfpencc
        | Op::Sfpcompc
        | Op::Sfppushc
        | Op::Sfppopc
        | Op::Sfploadmacro => 0,
        Op::Sfpswap => {
            if m == 0 {
                bit(vc) | bit(vd)
            } else {
                0
            }
        }
        Op::Sfpshft2 => match m {
            0 => 0b1110,
            1 => 0b1111,
            5 | 6 => bit(vd),
            _ => 0,
        },
        Op::Sfptransp => 0xff,
        Op::Sfpstore => bit(vd),
        Op::Sfpload => {
            if matches!(m, 14 | 15) {
                bit(vd)
            } else {
                0
            }
        }
        Op::Sfploadi => {
            if matches!(m, 8 | 10) {
                bit(vd)
            } else {
                0
            }
        }
        Op::SfpStochRnd | Op::Sfparecip => bit(vb) | bit(vc),
        Op::Sfpmov => {
            if m & 8 != 0 {
                0
            } else {
                bit(vc)
            }
        }
        Op::Sfpabs
        | Op::Sfpcast
        | Op::Sfpdivp2
        | Op::Sfpexexp
        | Op::Sfpexman
        | Op::Sfplz
        | Op::Sfpnot
        | Op::Sfpsetcc => bit(vc),
    }
}

/// The sub-unit an issued instruction occupies (VectorUnit.md "Sub-units"; each page's
/// "Backend execution unit"). SFPSWAP and SFPCONFIG name the whole unit; they are placed on
/// the simple sub-unit, where SFPLOADMACRO can schedule them.
pub fn sub_unit(insn: &Insn) -> SubUnit {
    match insn.op {
        Op::Sfpload | Op::Sfploadi | Op::Sfploadmacro | Op::Sfpnop => SubUnit::Load,
        Op::Sfpstore => SubUnit::Store,
        Op::Sfpshft2 | Op::SfpStochRnd => SubUnit::Round,
        op if super::decode::is_mad_unit(op) => SubUnit::Mad,
        _ => SubUnit::Simple,
    }
}
