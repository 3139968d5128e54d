//! The Tensix Vector Unit (SFPU): 32 lanes of 32 bits, `LReg[17]`, lane predication and its
//! flag stack, every `SFP*` instruction of the Blackhole table bit-exact, and `SFPLOADMACRO`'s
//! per-sub-unit scheduling.
//!
//! Source: tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/VectorUnit.md and
//! the `SFP*.md` page of each instruction (named in each function's doc comment).
//!
//! # How the coprocessor drives it
//! The coprocessor owns one unit in [`crate::state::TensixState::sfpu`] and drives it with
//! [`VectorUnit::cycle_in_state`]: from `crate::units::compute::vector_unit` when a thread
//! dispatches an `SFP*` instruction, and from its per-cycle step on other cycles while the
//! unit is not [`VectorUnit::quiescent`]; its Wait Gate asks [`VectorUnit::stalls`]
//! (docs/tensix-datapath.md). For a unit outside a coprocessor, with a
//! [`crate::state::TensixState`], call
//! [`VectorUnit::cycle_on_state`]`(Some((thread, insn)), state)` / `(None, state)` once per
//! cycle: it derives the context below from the thread's configuration and RWCs and applies
//! the RWC updates ([`dispatch`]). At the lower level, without that state:
//! the unit is cycle-driven. Once per coprocessor cycle, call **exactly one** of
//! [`VectorUnit::cycle`]`(Some(word), ctx)` (a thread issues `word` to the Vector Unit this
//! cycle; [`VectorUnit::cycle_insn`] takes it as operands built from the table's fields) or [`VectorUnit::cycle`]`(None, ctx)` (no Vector Unit instruction this cycle;
//! instructions scheduled by `SFPLOADMACRO` still run and count down).
//! Before issuing, ask [`VectorUnit::stalls`]`(word)`: `true` means the hardware's automatic
//! stalling holds the thread for this cycle (SFPMAD result hazard, the cycle after SFPSWAP /
//! lane-shuffling SFPSHFT2); call `cycle(None, ..)` then and retry next cycle.
//!
//! The [`SfpuContext`] carries what lives outside the unit:
//! - `dst`: the `Dst` register file and its `DEST_ACCESS_CFG` bits;
//! - `addr`: for `SFPLOAD` / `SFPSTORE` / `SFPLOADMACRO`, the 10-bit `Addr` of the page's
//!   functional model (Imm10 + thread's `DEST_TARGET_REG_CFG_MATH_Offset` + RWC Dst/Sp and
//!   their bases; see [`load_store::DstAddrInputs`]). The dispatcher computes it, updates
//!   `RWCs.Sp` for `MOD0_FMT_INT32_ALL`, and applies `ApplyPartialAddrMod(AddrMod)` after a
//!   regular SFPLOAD / SFPSTORE / SFPLOADMACRO (instructions scheduled by SFPLOADMACRO do not
//!   touch RWCs; their stores reuse the SFPLOADMACRO's `addr`, which the unit remembers);
//! - `srcb_format`: what `MOD0_FMT_SRCB` resolves to for the issuing thread's configuration.
//!
//! Undefined behaviour (e.g. SFPPOPC on an empty stack, SFPLOADI with an unassigned `Mod0`)
//! comes back as an [`SfpuError`] naming the instruction and word; turn it into the
//! coprocessor's error with [`SfpuError::into_tensix`].
//!
//! # Modelling choices where the pages leave room
//! - Results are written when the instruction executes; the MAD sub-unit's second cycle is
//!   modelled by the automatic stall ([`VectorUnit::stalls`]), which makes the difference
//!   invisible to programs the hardware runs correctly.
//! - Instructions due from SFPLOADMACRO run before the instruction issued in the same cycle,
//!   in sub-unit order simple, MAD, round, store.
//! - The backdoor template load applies to every instruction with a `VD` field and
//!   `VD >= 12` (SFPCONFIG.md's `LaneConfig` table states it for "instructions"), and to an
//!   SFPNOP word with 12..15 in bits 4..7, per lane; instructions that move data across lanes
//!   run when any lane is not diverted.
//! - SFPCONFIG takes effect at once (SFPCONFIG.md allows the next instruction to see either
//!   the old or the new `DISABLE_BACKDOOR_LOAD`).
//! - Power-on values not given by the pages (`LReg[0..8]`, `LReg[11..15]`, `LReg[16]`,
//!   the PRNG state, configuration) are zero.
//! - This is the Blackhole unit; Wormhole B0 differs (SFPMAD rounding, SFPSHFT2 bug, ...) and
//!   is not modelled here.
mod arith;
pub mod bench;
mod bitwise;
mod cc;
mod convert;
pub mod decode;
pub mod dispatch;
pub mod fma;
pub mod load_store;
mod loadmacro;
mod lut;
pub mod state;
mod swap_transp;
pub mod timing;

pub use decode::{Insn, Op};
pub use load_store::{DstAddrInputs, SrcbFormat};
pub use state::{FlagEntry, LoadMacroConfig, SfpuState, LANES, LREGS};

use crate::error::{ErrorKind, TensixError};
use crate::state::{DestAccessCfg, Dst};
use loadmacro::Scheduled;

/// Undefined behaviour (or a word that is not a Vector Unit instruction), naming the
/// instruction.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{insn} (word {word:#010x}): {reason}")]
pub struct SfpuError {
    /// Mnemonic, e.g. `SFPPOPC`.
    pub insn: &'static str,
    pub word: u32,
    pub reason: String,
}

impl SfpuError {
    pub(crate) fn new(insn: &Insn, reason: impl Into<String>) -> Self {
        SfpuError {
            insn: insn.op.name(),
            word: insn.word,
            reason: reason.into(),
        }
    }

    /// The coprocessor's error for this, located at `thread` and `cycle`.
    pub fn into_tensix(self, thread: u8, cycle: u64) -> TensixError {
        let kind = if self.insn == "?" {
            ErrorKind::Invalid
        } else {
            ErrorKind::Undefined
        };
        TensixError::new(kind, cycle, self.to_string()).at(thread, Some(self.word))
    }
}

/// What the unit needs from outside for one cycle.
pub struct SfpuContext<'a> {
    pub dst: &'a mut Dst,
    pub dst_cfg: DestAccessCfg,
    /// 10-bit `Addr` for an issued SFPLOAD / SFPSTORE / SFPLOADMACRO (ignored otherwise).
    pub addr: u32,
    pub srcb_format: SrcbFormat,
}

/// The four sub-units SFPLOADMACRO can schedule onto, plus the load sub-unit that regular
/// SFPLOAD / SFPLOADI / SFPLOADMACRO / SFPNOP use (VectorUnit.md, "Sub-units").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubUnit {
    Simple = 0,
    Mad = 1,
    Round = 2,
    Store = 3,
    Load = 4,
}

/// What happened to the issued instruction in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Issued {
    /// No instruction was issued.
    None,
    Executed,
    /// An SFPLOADMACRO-scheduled instruction used the same sub-unit this cycle; the
    /// hardware silently drops the issued one (SFPLOADMACRO.md).
    Discarded,
}

/// The Vector Unit of one Tensix coprocessor.
#[derive(Clone, Debug, Default)]
pub struct VectorUnit {
    pub state: SfpuState,
    /// Instructions scheduled by SFPLOADMACRO, waiting for their time.
    pending: Vec<Scheduled>,
    /// Hazards for the automatic stalling of the next cycle.
    hazard: timing::Hazard,
    /// Instructions executed (issued and scheduled), for benchmarks.
    executed: u64,
    /// `RWCs[thread].Sp` (see [`VectorUnit::cycle_on_state`]).
    pub rwc_sp: [u32; 3],
}

impl VectorUnit {
    pub fn new() -> Self {
        VectorUnit::default()
    }

    /// Instructions executed so far (issued ones plus SFPLOADMACRO-scheduled ones).
    pub fn executed(&self) -> u64 {
        self.executed
    }

    /// Whether instructions scheduled by SFPLOADMACRO are still waiting.
    pub fn macro_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Whether a cycle without an issued instruction changes nothing: no SFPLOADMACRO
    /// schedule is waiting and no automatic-stall hazard is left from the last issue. The
    /// coprocessor drives `cycle(None, ..)` on idle-issue cycles only while this is false.
    pub fn quiescent(&self) -> bool {
        self.pending.is_empty() && self.hazard == timing::Hazard::default()
    }

    /// Whether automatic stalling holds `word` back this cycle (see [`timing`]). Asked by the
    /// Wait Gate before the instruction is dispatched, so from the word (through the
    /// generated table's decode).
    pub fn stalls(&self, word: u32) -> bool {
        Insn::decode(word).is_some_and(|i| self.hazard.stalls(&i))
    }

    /// One cycle: SFPLOADMACRO-scheduled instructions whose delay reached 0 run first (simple,
    /// MAD, round, store), the other delays count down, then the issued instruction executes
    /// (unless its sub-unit was taken). So an instruction scheduled with delay `d` runs `d + 1`
    /// cycles after its SFPLOADMACRO, and an SFPLOADMACRO replaces what a sub-unit already
    /// had scheduled for the same cycle.
    ///
    /// `issued` is a word here (decoded by the generated table): for tools and tests that
    /// drive the unit with words; a dispatcher with typed fields calls
    /// [`VectorUnit::cycle_insn`].
    pub fn cycle(
        &mut self,
        issued: Option<u32>,
        ctx: &mut SfpuContext<'_>,
    ) -> Result<Issued, SfpuError> {
        let insn = match issued {
            None => None,
            Some(word) => Some(Insn::decode(word).ok_or_else(|| SfpuError {
                insn: "?",
                word,
                reason: "not a Vector Unit (SFPU) instruction".into(),
            })?),
        };
        self.cycle_insn(insn, ctx)
    }

    /// [`VectorUnit::cycle`] for an instruction whose operands the dispatcher built from the
    /// instruction table's typed fields.
    pub fn cycle_insn(
        &mut self,
        issued: Option<Insn>,
        ctx: &mut SfpuContext<'_>,
    ) -> Result<Issued, SfpuError> {
        let busy = self.run_due(ctx)?;
        self.count_down(issued.is_some());
        let mut outcome = Issued::None;
        let mut next_hazard = timing::Hazard::default();
        if let Some(insn) = issued {
            if busy & (1 << timing::sub_unit(&insn) as u32) != 0 {
                outcome = Issued::Discarded;
            } else {
                next_hazard = timing::Hazard::after(&insn);
                self.run(&insn, u32::MAX, ctx, ctx.addr)?;
                outcome = Issued::Executed;
            }
        }
        self.hazard = next_hazard;
        Ok(outcome)
    }

    /// Convenience for tests and tools: issue `word` in a cycle of its own.
    pub fn execute(&mut self, word: u32, ctx: &mut SfpuContext<'_>) -> Result<(), SfpuError> {
        self.cycle(Some(word), ctx).map(|_| ())
    }

    /// Execute one instruction on the lanes in `lanes` (all lanes for an issued instruction;
    /// a subset when lanes' `LoadMacroConfig` differ). `store_addr` is the Dst `Addr` for
    /// SFPLOAD / SFPSTORE.
    fn run(
        &mut self,
        insn: &Insn,
        lanes: u32,
        ctx: &mut SfpuContext<'_>,
        store_addr: u32,
    ) -> Result<(), SfpuError> {
        self.executed += 1;
        let lanes = self.backdoor(insn, lanes);
        let s = self;
        match insn.op {
            Op::Sfpload => return s.sfpload(insn, lanes, ctx, store_addr),
            Op::Sfploadi => return s.sfploadi(insn, lanes),
            Op::Sfpstore => return s.sfpstore(insn, lanes, ctx, store_addr),
            Op::Sfppushc => return s.sfppushc(insn, lanes),
            Op::Sfppopc => return s.sfppopc(insn, lanes),
            Op::Sfploadmacro => return s.sfploadmacro(insn, ctx),
            Op::Sfplut => s.sfplut(insn, lanes),
            Op::Sfplutfp32 => s.sfplutfp32(insn, lanes),
            Op::Sfpmad | Op::Sfpadd | Op::Sfpmul => s.sfpmad(insn, lanes),
            Op::Sfpmuli => s.sfpmuli(insn, lanes),
            Op::Sfpaddi => s.sfpaddi(insn, lanes),
            Op::Sfpmul24 => s.sfpmul24(insn, lanes),
            Op::Sfpiadd => s.sfpiadd(insn, lanes),
            Op::Sfpabs => s.sfpabs(insn, lanes),
            Op::Sfparecip => s.sfparecip(insn, lanes),
            Op::Sfpdivp2 => s.sfpdivp2(insn, lanes),
            Op::Sfpexexp => s.sfpexexp(insn, lanes),
            Op::Sfpexman => s.sfpexman(insn, lanes),
            Op::Sfpsetexp => s.sfpsetexp(insn, lanes),
            Op::Sfpsetman => s.sfpsetman(insn, lanes),
            Op::Sfpsetsgn => s.sfpsetsgn(insn, lanes),
            Op::Sfpand => s.sfpand(insn, lanes),
            Op::Sfpor => s.sfpor(insn, lanes),
            Op::Sfpxor => s.sfpxor(insn, lanes),
            Op::Sfpnot => s.sfpnot(insn, lanes),
            Op::Sfplz => s.sfplz(insn, lanes),
            Op::Sfpshft => s.sfpshft(insn, lanes),
            Op::Sfpshft2 => s.sfpshft2(insn, lanes),
            Op::Sfpsetcc => s.sfpsetcc(insn, lanes),
            Op::Sfpencc => s.sfpencc(insn, lanes),
            Op::Sfpcompc => s.sfpcompc(lanes),
            Op::Sfpgt => s.sfpgt(insn, lanes),
            Op::Sfple => s.sfple(insn, lanes),
            Op::Sfpcast => s.sfpcast(insn, lanes),
            Op::SfpStochRnd => s.sfpstochrnd(insn, lanes),
            Op::Sfpmov => s.sfpmov(insn, lanes),
            Op::Sfpswap => s.sfpswap(insn, lanes),
            Op::Sfptransp => s.sfptransp(lanes),
            Op::Sfpconfig => s.sfpconfig(insn),
            // SFPNOP.md: no effect.
            Op::Sfpnop => {}
        }
        Ok(())
    }

    /// The "backdoor load": an instruction with `VD >= 12` in a lane whose
    /// `LaneConfig.DISABLE_BACKDOOR_LOAD` is clear writes its own word to
    /// `LoadMacroConfig.InstructionTemplate[VD - 12]` of that lane instead of executing there
    /// (SFPCONFIG.md, `LaneConfig` table and the VD 0..3 comment; each page's
    /// `VD < 12 || DISABLE_BACKDOOR_LOAD` guard). Not for SFPCONFIG (its VD names a
    /// configuration target) or SFPLOADMACRO-scheduled instructions (SFPLOADMACRO.md: the bit
    /// reads as true for them). SFPNOP takes part with bits 4..7 of its word ([`Insn::nop`]).
    /// Returns the lanes that execute.
    fn backdoor(&mut self, insn: &Insn, lanes: u32) -> u32 {
        if insn.from_macro || insn.vd < 12 || insn.op == Op::Sfpconfig {
            return lanes;
        }
        let disabled = self
            .state
            .lanes_with(state::lane_config::DISABLE_BACKDOOR_LOAD);
        let idx = (insn.vd - 12) as usize;
        for lane in state::lanes_of(lanes & !disabled) {
            self.state.load_macro[lane].template[idx] = insn.word;
        }
        lanes & disabled
    }

    /// The common lanewise shape: for each enabled lane in `lanes`, `LReg[vd] = f(lane)`,
    /// provided `vd` is writable (`VD < 8 || VD == 16`).
    #[inline(always)]
    fn lanewise(&mut self, vd: u8, lanes: u32, f: impl Fn(&[[u32; LANES]; LREGS], usize) -> u32) {
        if !state::writable(vd) {
            return;
        }
        let en = self.state.enabled_mask() & lanes;
        let vd = vd as usize;
        for lane in 0..LANES {
            if (en >> lane) & 1 != 0 {
                let v = f(&self.state.lreg, lane);
                self.state.lreg[vd][lane] = v;
            }
        }
    }
}
