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
        let mad_writes = if insn.op.is_mad_unit() {
            let indirect_vd = match insn.op {
                // The stall logic reads Mod1Mirror (bits 16..19) for SFPLUTFP32.
                Op::LutFp32 => (insn.word >> 16) & 8 != 0,
                Op::Lut => insn.modifier & 8 != 0,
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
            insn.op == Op::Swap || (insn.op == Op::Shft2 && matches!(insn.modifier, 2..=4));
        Hazard {
            mad_writes,
            only_nop,
        }
    }

    /// Whether `insn` is held back this cycle.
    pub fn stalls(&self, insn: &Insn) -> bool {
        if self.only_nop && insn.op != Op::Nop {
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
        Op::Mad | Op::Add | Op::Mul | Op::Mul24 => {
            let a = if m & 4 != 0 { ALL_LREGS } else { bit(va) };
            a | bit(vb) | bit(vc)
        }
        Op::AddI | Op::MulI => bit(vc),
        Op::Lut => 0b1111 | if m & 8 != 0 { bit(7) } else { 0 },
        Op::LutFp32 => {
            if (insn.word >> 16) & 8 != 0 {
                ALL_LREGS
            } else {
                ALL_LREGS & !bit(7)
            }
        }
        Op::And | Op::Or | Op::Xor | Op::SetExp | Op::SetMan | Op::SetSgn | Op::Gt | Op::Le => {
            bit(vc) | bit(vd)
        }
        Op::IAdd | Op::Shft => bit(vc),
        Op::Config | Op::Nop | Op::EnCc | Op::CompC | Op::PushC | Op::PopC | Op::LoadMacro => 0,
        Op::Swap => {
            if m == 0 {
                bit(vc) | bit(vd)
            } else {
                0
            }
        }
        Op::Shft2 => match m {
            0 => 0b1110,
            1 => 0b1111,
            5 | 6 => bit(vd),
            _ => 0,
        },
        Op::Transp => 0xff,
        Op::Store => bit(vd),
        Op::Load => {
            if matches!(m, 14 | 15) {
                bit(vd)
            } else {
                0
            }
        }
        Op::LoadI => {
            if matches!(m, 8 | 10) {
                bit(vd)
            } else {
                0
            }
        }
        Op::StochRnd | Op::ARecip => bit(vb) | bit(vc),
        Op::Mov => {
            if m & 8 != 0 {
                0
            } else {
                bit(vc)
            }
        }
        Op::Abs | Op::Cast | Op::DivP2 | Op::ExExp | Op::ExMan | Op::Lz | Op::Not | Op::SetCc => {
            bit(vc)
        }
    }
}

/// The sub-unit an issued instruction occupies (VectorUnit.md "Sub-units"; each page's
/// "Backend execution unit"). SFPSWAP and SFPCONFIG name the whole unit; they are placed on
/// the simple sub-unit, where SFPLOADMACRO can schedule them.
pub fn sub_unit(insn: &Insn) -> SubUnit {
    match insn.op {
        Op::Load | Op::LoadI | Op::LoadMacro | Op::Nop => SubUnit::Load,
        Op::Store => SubUnit::Store,
        Op::Shft2 | Op::StochRnd => SubUnit::Round,
        op if op.is_mad_unit() => SubUnit::Mad,
        _ => SubUnit::Simple,
    }
}
