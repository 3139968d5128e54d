//! SFPLOADMACRO (an SFPLOAD, then up to four instructions scheduled onto the simple, MAD,
//! round and store sub-units) and SFPCONFIG, which writes the `LoadMacroConfig` it uses, the
//! programmable `LReg[11..15]` and `LaneConfig`.
//!
//! Source: tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPLOADMACRO.md and
//! SFPCONFIG.md.
use super::decode::{Insn, Op};
use super::state::{lanes_of, LANES};
use super::{SfpuContext, SfpuError, SubUnit, VectorUnit};

/// One instruction waiting for its sub-unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Scheduled {
    pub unit: SubUnit,
    /// Delay counter: runs on the cycle after it is 0.
    pub remaining: u8,
    /// `UnitDelayKind` = `WaitForElapsedInstructions` (else elapsed cycles).
    pub by_instructions: bool,
    pub insn: Insn,
    /// The lanes it applies to (lanes whose `LoadMacroConfig` scheduled exactly this).
    pub lanes: u32,
    /// `Dst` address of the SFPLOADMACRO, for a scheduled SFPSTORE.
    pub addr: u32,
}

/// The table at the top of SFPLOADMACRO.md: which opcodes each sub-unit can execute.
fn can_execute(unit: SubUnit, op: Op) -> bool {
    match unit {
        SubUnit::Simple => matches!(
            op,
            Op::Sfpabs
                | Op::Sfpand
                | Op::Sfparecip
                | Op::Sfpcast
                | Op::Sfpcompc
                | Op::Sfpconfig
                | Op::Sfpdivp2
                | Op::Sfpencc
                | Op::Sfpexexp
                | Op::Sfpexman
                | Op::Sfpgt
                | Op::Sfpiadd
                | Op::Sfple
                | Op::Sfplz
                | Op::Sfpmov
                | Op::Sfpnop
                | Op::Sfpnot
                | Op::Sfpor
                | Op::Sfppopc
                | Op::Sfppushc
                | Op::Sfpsetcc
                | Op::Sfpsetexp
                | Op::Sfpsetman
                | Op::Sfpsetsgn
                | Op::Sfpshft
                | Op::Sfpswap
                | Op::Sfptransp
                | Op::Sfpxor
        ),
        SubUnit::Mad => super::decode::is_mad_unit(op) || op == Op::Sfpnop,
        SubUnit::Round => matches!(op, Op::Sfpnop | Op::Sfpshft2 | Op::SfpStochRnd),
        SubUnit::Store => op == Op::Sfpstore,
        SubUnit::Load => false,
    }
}

const UNITS: [SubUnit; 4] = [
    SubUnit::Simple,
    SubUnit::Mad,
    SubUnit::Round,
    SubUnit::Store,
];
const NOP_WORD: u32 = 0x8f << 24;
const STORE_WORD: u32 = 0x72 << 24;

impl VectorUnit {
    /// SFPLOADMACRO: the SFPLOAD part with `VD = VDHi:VDLo` and `Imm10 = Imm9:VDHi`, then for
    /// each sub-unit the `Sequence[MacroIndex]` byte picks nothing, SFPNOP, SFPSTORE or an
    /// `InstructionTemplate`, with `VB`/`VC`/`VD` (or the store's `VD`, `Mod0`) overridden,
    /// and schedules it `Delay` cycles (or issued instructions) ahead, replacing what that
    /// sub-unit had scheduled for the same moment (SFPLOADMACRO.md).
    pub(super) fn sfploadmacro(
        &mut self,
        insn: &Insn,
        ctx: &mut SfpuContext<'_>,
    ) -> Result<(), SfpuError> {
        let load = Insn {
            op: Op::Sfpload,
            ..*insn
        };
        let addr = ctx.addr;
        self.sfpload(&load, u32::MAX, ctx, addr)?;
        let macro_index = insn.macro_index as usize;
        // "If any lane invokes ScheduleInstructionForFutureExecution on StoreSubUnit, then
        // all lanes must do so."
        let stores = (0..LANES)
            .filter(|&l| (self.state.load_macro[l].sequence[macro_index] >> 24) & 7 != 0)
            .count();
        if stores != 0 && stores != LANES {
            return Err(SfpuError::new(
                insn,
                format!(
                    "Sequence[{macro_index}] schedules a store in {stores} of 32 lanes;                      all lanes must (undefined)"
                ),
            ));
        }
        for (i, unit) in UNITS.into_iter().enumerate() {
            // Lanes may in principle hold different configurations: schedule per distinct one.
            let mut todo = u32::MAX;
            while todo != 0 {
                let first = todo.trailing_zeros() as usize;
                let key = self.macro_key(first, macro_index, i);
                let group = lanes_of(todo)
                    .filter(|&l| self.macro_key(l, macro_index, i) == key)
                    .fold(0u32, |m, l| m | 1 << l);
                todo &= !group;
                self.schedule(insn, unit, i, key, group, addr)?;
            }
        }
        Ok(())
    }

    /// What lane `lane` schedules for sub-unit `i`: (sequence byte, template word, delay kind,
    /// store Mod0 choice bits).
    fn macro_key(&self, lane: usize, macro_index: usize, i: usize) -> (u32, u32, bool, u32) {
        let lm = &self.state.load_macro[lane];
        let bits = (lm.sequence[macro_index] >> (i * 8)) & 0xff;
        let sel = bits & 7;
        let template = if sel >= 4 {
            lm.template[(sel - 4) as usize]
        } else {
            0
        };
        let by_instr = (lm.misc >> (8 + i)) & 1 != 0;
        let store_mod0 = if i == 3 {
            (lm.misc & 0xf) | (((lm.misc >> (4 + macro_index)) & 1) << 4)
        } else {
            0
        };
        (bits, template, by_instr, store_mod0)
    }

    fn schedule(
        &mut self,
        mac: &Insn,
        unit: SubUnit,
        i: usize,
        (bits, template, by_instructions, store_mod0): (u32, u32, bool, u32),
        lanes: u32,
        addr: u32,
    ) -> Result<(), SfpuError> {
        let delay = ((bits >> 3) & 7) as u8;
        if delay != 7 {
            for p in self.pending.iter_mut() {
                if p.unit == unit && p.remaining == delay {
                    p.lanes &= !lanes;
                }
            }
            self.pending.retain(|p| p.lanes != 0);
        }
        let mut insn = match bits & 7 {
            0 => return Ok(()),
            1 => {
                return Err(SfpuError::new(
                    mac,
                    format!("Sequence selects template kind 1 for sub-unit {unit:?} (undefined)"),
                ))
            }
            2 => Some(Insn::nop(NOP_WORD)),
            3 => Some(Insn::dst_access(Op::Sfpstore, STORE_WORD, 0, 0, 0, 0)),
            // A template is a word the unit holds as data: decoded by the generated table.
            _ => Insn::decode(template),
        }
        .filter(|t| can_execute(unit, t.op))
        .or_else(|| Some(Insn::nop(NOP_WORD)).filter(|t| can_execute(unit, t.op)))
        .ok_or_else(|| {
            SfpuError::new(
                mac,
                format!(
                    "the store sub-unit was given a non-SFPSTORE template {template:#010x} \
                     (undefined)"
                ),
            )
        })?;
        insn.from_macro = true;
        if i != 3 {
            if bits & 0x80 != 0 {
                insn.vb = mac.vd;
            } else {
                insn.vc = mac.vd;
            }
            insn.vd = if bits & 0x40 != 0 { 16 } else { mac.vd };
        } else {
            if bits & 0x40 != 0 {
                insn.vd = 16;
            } else if bits & 0x80 == 0 {
                insn.vd = mac.vd;
            }
            insn.modifier = if store_mod0 & 0x10 != 0 {
                mac.modifier
            } else {
                (store_mod0 & 0xf) as u8
            };
        }
        self.pending.push(Scheduled {
            unit,
            remaining: delay,
            by_instructions,
            insn,
            lanes,
            addr,
        });
        Ok(())
    }

    /// Run the scheduled instructions due this cycle; returns the sub-units they occupied
    /// (bit per [`SubUnit`]).
    pub(super) fn run_due(&mut self, ctx: &mut SfpuContext<'_>) -> Result<u32, SfpuError> {
        if self.pending.is_empty() {
            return Ok(0);
        }
        let mut due: Vec<Scheduled> = Vec::new();
        self.pending.retain(|p| {
            let now = p.remaining == 0;
            if now {
                due.push(*p);
            }
            !now
        });
        due.sort_by_key(|p| p.unit as u8);
        // SFPLOADMACRO.md (†): a Simple and a Round instruction on the same cycle must have
        // one VD == 16 and one VD != 16 (they share the result path).
        let vd16 = |u: SubUnit| {
            due.iter()
                .find(|p| p.unit == u && p.insn.op != Op::Sfpnop)
                .map(|p| (p.insn.vd == 16, p.insn))
        };
        if let (Some((s16, s)), Some((r16, _))) = (vd16(SubUnit::Simple), vd16(SubUnit::Round)) {
            if s16 == r16 {
                return Err(SfpuError {
                    insn: "SFPLOADMACRO",
                    word: s.word,
                    reason: format!(
                        "scheduled simple ({}) and round instructions in the same cycle both                          write {} (undefined)",
                        s.op.name(),
                        if s16 { "LReg[16]" } else { "LReg[0..8]" }
                    ),
                });
            }
        }
        let mut busy = 0;
        for p in due {
            busy |= 1 << p.unit as u32;
            self.run(&p.insn, p.lanes, ctx, p.addr)?;
        }
        Ok(busy)
    }

    /// Start of a cycle, after the due instructions ran: delays count down, per cycle, or per
    /// issued instruction while any waiting instruction uses `WaitForElapsedInstructions`.
    pub(super) fn count_down(&mut self, issued: bool) {
        let by_instr = self.pending.iter().any(|p| p.by_instructions);
        if by_instr && !issued {
            return;
        }
        for p in self.pending.iter_mut() {
            p.remaining = p.remaining.saturating_sub(1);
        }
    }

    /// SFPCONFIG: broadcast the first 8 lanes of `LReg[0]` (or `Imm16`) into
    /// `LoadMacroConfig.InstructionTemplate` (VD 0..3), `.Sequence` (4..7), `.Misc` (8, also
    /// OR/AND/XOR), `LReg[11..15]` (11..14; with `IMM16_IS_VALUE` their fixed defaults) or
    /// `LaneConfig` (15, also OR/AND/XOR, high bits kept for immediates); lanes filtered by
    /// the `Imm16` lane mask and by the flags of lane `Lane & 7` (SFPCONFIG.md).
    pub(super) fn sfpconfig(&mut self, insn: &Insn) {
        const IMM16_IS_VALUE: u8 = 1;
        const IMM16_IS_LANE_MASK: u8 = 8;
        let (m, imm16) = (insn.modifier, insn.imm16_math());
        let imm_val = m & IMM16_IS_VALUE != 0;
        let combine = |old: u32, v: u32| match m & 6 {
            0 => v,
            2 => old | v,
            4 => old & v,
            _ => old ^ v,
        };
        let src = self.state.lreg[0];
        for lane in 0..LANES {
            let l8 = lane & 7;
            if m & IMM16_IS_LANE_MASK != 0 && (imm16 >> (l8 * 2)) & 1 == 0 {
                continue;
            }
            if self.state.use_flag(l8) && !self.state.flag(l8) {
                continue;
            }
            let value = if imm_val { imm16 } else { src[l8] };
            let lm = &mut self.state.load_macro[lane];
            match insn.vd {
                0..=3 => lm.template[insn.vd as usize] = src[l8],
                4..=7 => lm.sequence[insn.vd as usize - 4] = value,
                8 => lm.misc = combine(lm.misc, value & 0xfff) & 0xfff,
                9 | 10 => {}
                11..=14 => {
                    self.state.lreg[insn.vd as usize][lane] = if imm_val {
                        match insn.vd {
                            11 => 0xbf80_0000, // -1.0
                            12 => 0x3780_0000, // 1/65536
                            13 => 0xbf2c_c4c7, // -0.67487759
                            _ => 0xbeb0_8ff9,  // -0.34484843
                        }
                    } else {
                        src[l8]
                    };
                }
                15 => {
                    let original = self.state.lane_config[lane];
                    let mut v = combine(original, value & 0x3_ffff) & 0x3_ffff;
                    if imm_val {
                        v |= original & !0xffff;
                    }
                    self.state.lane_config[lane] = v;
                }
                // VD = 16 (an SFPLOADMACRO override) names no configuration target.
                _ => {}
            }
        }
    }
}
