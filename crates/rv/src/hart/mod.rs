//! The hart: architectural state, one-cycle [`Hart::step`] and the batched [`Hart::run`].
//!
//! Timing (docs/execution-model.md EM-2): every cycle the hart retires at most one instruction; a cycle in which the
//! bus stalls advances `cycles` but not `instret`. Nothing here depends on wall-clock time or
//! host state, so runs are deterministic.
use std::sync::Arc;

use crate::bus::{Access, Bus};
use crate::cache::DecodeCache;
use crate::code_library::CodeLibrary;
use crate::error::{HaltReason, HartError, HartErrorKind, RunExit, StepOutcome};
use crate::exec::Core;
use crate::op::{lower, Op, EMPTY};
use crate::timing::{CoreTiming, Pipeline};

mod pipelined;
mod run_ahead;
mod traced;
mod undo_log;
pub use run_ahead::{
    Checkpoint, ClockRead, CycleClock, PrivateRam, Shared, UndoLog, MAX_SHARED_LOADS,
};
pub use traced::{TraceHook, TraceRecord};

/// What the hart does with a misaligned load or store.
///
/// The Blackhole BabyRISCV pages (BlackholeA0/TensixTile/BabyRISCV/README.md, InstructionSet.md)
/// say nothing about misaligned data accesses; the Wormhole page
/// (WormholeB0/TensixTile/BabyRISCV/README.md, "Faults / exceptions") says they are "silently
/// rounded down to the nearest aligned address". bhemu traps by default, because a misaligned
/// access in emulated firmware is almost always a bug worth reporting; `RoundDown` models the
/// documented Wormhole behaviour. AMOs always trap when misaligned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MisalignedAccess {
    #[default]
    Trap,
    RoundDown,
}

#[derive(Clone, Debug, Default)]
pub struct HartConfig {
    /// Identity used in errors and traces (e.g. 0..=4 for B, NC, T0, T1, T2 in a tile).
    pub hart_id: u32,
    pub reset_pc: u32,
    /// What `mhartid` reads: always 0 on the babies (CSRs.md), hence separate from `hart_id`.
    pub mhartid: u32,
    pub misaligned: MisalignedAccess,
    /// One instruction per cycle (the default) or the documented pipeline (docs/core-timing.md).
    pub timing: CoreTiming,
    /// Decoded code shared with the other harts of the chip (see [`CodeLibrary`]); `None`:
    /// the hart decodes on its own.
    pub code: Option<Arc<CodeLibrary>>,
}

/// What one cycle did, small so that the hot loop keeps it in registers; the details of an
/// error wait in `Hart::pending_error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tick {
    Retired,
    Stalled,
    /// A pipeline wait (docs/core-timing.md): ends by itself.
    Waited,
    Trapped(u32),
    Halted,
    Stop,
    Error,
}

/// The result of executing one op: the next pc, or why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Next(u32),
    Stall,
    Exception(HartErrorKind, u32),
    /// Retired; then the bus asked to stop.
    Stop(u32),
    /// `ebreak` retired; the core pauses.
    Ebreak(u32),
    /// Needs `Core::exec_slow` with the counters synchronised.
    Slow,
    /// The op was an empty cache slot: fetch and decode first.
    Miss,
}

/// The field order is the host memory layout (`repr(C)`, aligned to a cache line): a chip
/// steps hundreds of harts a cycle, so each step finds its hart out of the host's caches, and
/// what every step reads or writes (pc, the halt, trace and pipeline checks, the cycle and
/// retire counts) shares one cache line, followed directly by the registers.
#[repr(C, align(64))]
pub struct Hart {
    pc: u32,
    halted: Option<HaltReason>,
    /// Cycles that took the out-of-line path (CSR access, exception, pause, stall, stop).
    events: u64,
    /// The scoreboard of [`CoreTiming::Pipeline`]; `None` for one instruction per cycle.
    pipeline: Option<Box<Pipeline>>,
    trace: Option<TraceHook>,
    core: Core,
    cache: DecodeCache,
    pending_error: Option<HartError>,
}

/// What one [`Hart::step_fast`] did: one byte, where [`StepOutcome`] carries a whole error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Retired,
    Stalled,
    /// The pipeline timing held the instruction in EX1 this cycle (docs/core-timing.md).
    Waited,
    /// An exception went to the software handler.
    Trapped,
    Halted,
    /// Retired, then the bus asked to stop.
    Stop,
    /// The details wait in [`Hart::take_error`].
    Error,
}

impl Hart {
    pub fn new(cfg: HartConfig) -> Hart {
        Hart {
            pipeline: Pipeline::for_timing(cfg.timing),
            pc: cfg.reset_pc,
            core: Core {
                cfg,
                ..Core::default()
            },
            cache: DecodeCache::new(),
            halted: None,
            pending_error: None,
            trace: None,
            events: 0,
        }
    }

    pub fn config(&self) -> &HartConfig {
        &self.core.cfg
    }
    /// How the hart's instructions are timed.
    pub fn timing(&self) -> CoreTiming {
        self.core.cfg.timing
    }
    /// Shares decoded code with the other harts holding `library` (`None`: decodes on its own);
    /// what it decoded so far stays.
    pub fn set_code_library(&mut self, library: Option<Arc<CodeLibrary>>) {
        self.core.cfg.code = library;
    }
    /// Changes the timing between cycles; a new pipeline starts empty.
    pub fn set_timing(&mut self, t: CoreTiming) {
        self.core.cfg.timing = t;
        self.pipeline = Pipeline::for_timing(t);
    }
    pub fn pc(&self) -> u32 {
        self.pc
    }
    pub fn set_pc(&mut self, pc: u32) {
        self.pc = pc;
    }
    /// Register `x<i>`; 0 for `i == 0` or out of range.
    pub fn reg(&self, i: usize) -> u32 {
        match i {
            1..=31 => self.core.x.get(i).copied().unwrap_or(0),
            _ => 0,
        }
    }
    /// Sets `x<i>`; writes to `x0` or out-of-range indices are ignored.
    pub fn set_reg(&mut self, i: usize, v: u32) {
        if (1..32).contains(&i) {
            if let Some(r) = self.core.x.get_mut(i) {
                *r = v;
            }
        }
    }
    pub fn instret(&self) -> u64 {
        self.core.instret
    }
    pub fn cycles(&self) -> u64 {
        self.core.cycles
    }
    pub fn halted(&self) -> Option<HaltReason> {
        self.halted
    }
    /// Continues after a pause, as a debugger's resume does.
    pub fn resume(&mut self) {
        self.halted = None;
    }
    /// Reads a CSR the hart models (not custom ones), without side effects; for debuggers/tests.
    pub fn csr(&self, csr: u16) -> Option<u32> {
        self.core.read_own_csr(csr)
    }

    /// Every architectural value of the hart — pc, `x1..x31`, `cycle`, `instret`, the CSRs it
    /// models, the pause state — folded into `fold`, in a fixed order. Two harts that give the
    /// same sequence are indistinguishable to software; schedule-equivalence tests compare it.
    pub fn fold_arch_state(&self, fold: &mut dyn FnMut(u64)) {
        fold(u64::from(self.pc));
        for i in 1..32 {
            fold(u64::from(self.core.x[i]));
        }
        fold(self.core.cycles);
        fold(self.core.instret);
        let c = &self.core.csr;
        for v in [
            c.mstatus_bits,
            c.mie,
            c.mtvec,
            c.mscratch,
            c.mepc,
            c.mcause,
            c.mtval,
            c.mcountinhibit,
            c.mhpmevent[0],
            c.mhpmevent[1],
        ] {
            fold(u64::from(v));
        }
        fold(c.mhpmcounter[0]);
        fold(c.mhpmcounter[1]);
        fold(match self.halted {
            None => 0,
            Some(HaltReason::Ebreak { pc }) => 1 << 32 | u64::from(pc),
        });
    }

    /// Whether the hart's decoded code reaches `addr..addr+len`: if not, a change there cannot
    /// change anything it executes from its cache ([`Hart::run_private`] among it), and
    /// [`Hart::invalidate_code`] of the range leaves it as it is.
    pub fn code_overlaps(&self, addr: u32, len: u32) -> bool {
        self.cache.overlaps(addr, len)
    }

    /// Code at `addr..addr+len` changed behind the hart's back (host, NoC, another core).
    pub fn invalidate_code(&mut self, addr: u32, len: u32) {
        self.cache.invalidate(addr, len);
    }

    /// `x0..x31` (x0 reads 0).
    pub fn regs(&self) -> &[u32] {
        &self.core.x[..32]
    }

    /// How many cycles so far took the out-of-line path: a CSR access, an exception, a pause,
    /// a stall or a stop request. Between two equal readings the hart only ran ALU, branch,
    /// jump, fence and memory instructions that retired at once.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Accounts `n` cycles in each of which one instruction retired, without executing them:
    /// for a scheduler that has proved those instructions leave every other architectural value
    /// as it found it (a loop that comes back to the same pc and registers, see the chip's
    /// idle-core parking).
    pub fn skip_retired(&mut self, n: u64) {
        self.core.cycles = self.core.cycles.wrapping_add(n);
        self.core.instret = self.core.instret.wrapping_add(n);
    }

    /// Accounts `n` cycles in each of which the bus stalled the instruction at pc, without
    /// retrying it: `cycle` advances, `instret` and everything else stay (EM-2), and each such
    /// cycle counts as one that took the out-of-line path twice, as a stalled [`Hart::step`]
    /// does ([`Hart::events`]). For a scheduler that has proved every retry would stall again
    /// and change nothing (the chip's stall sleeping, docs/execution-model.md EM-2).
    pub fn skip_stalled(&mut self, n: u64) {
        self.core.cycles = self.core.cycles.wrapping_add(n);
        self.events = self.events.wrapping_add(n.wrapping_mul(2));
    }

    /// Exactly one cycle, reported compactly (see [`Step`]); the tile's hot loop.
    #[inline]
    pub fn step_fast<B: Bus>(&mut self, bus: &mut B) -> Step {
        let tick = if self.trace.is_some() {
            self.traced_tick(bus)
        } else {
            self.tick(bus)
        };
        match tick {
            Tick::Retired => Step::Retired,
            Tick::Stop => Step::Stop,
            Tick::Trapped(_) => Step::Trapped,
            Tick::Stalled => Step::Stalled,
            Tick::Waited => Step::Waited,
            Tick::Halted => match self.halted {
                Some(_) => Step::Halted,
                None => Step::Retired,
            },
            Tick::Error => Step::Error,
        }
    }

    /// Exactly one cycle.
    pub fn step<B: Bus>(&mut self, bus: &mut B) -> StepOutcome {
        let tick = if self.trace.is_some() {
            self.traced_tick(bus)
        } else {
            self.tick(bus)
        };
        match tick {
            Tick::Retired => StepOutcome::Retired,
            Tick::Stop => StepOutcome::Stop,
            Tick::Trapped(cause) => StepOutcome::Trapped { cause },
            Tick::Stalled => StepOutcome::Stalled,
            Tick::Waited => StepOutcome::Waited,
            Tick::Halted => match self.halted {
                Some(h) => StepOutcome::Halted(h),
                None => StepOutcome::Retired,
            },
            Tick::Error => StepOutcome::Error(self.take_error()),
        }
    }

    /// Runs until `max_insns` cycles have passed (= instructions when the bus never stalls),
    /// the hart pauses, the bus asks to stop, or an exception has no handler.
    pub fn run<B: Bus>(&mut self, bus: &mut B, max_insns: u64) -> RunExit {
        if self.trace.is_some() || self.pipeline.is_some() {
            return self.run_cycle_by_cycle(bus, max_insns);
        }
        if let Some(h) = self.halted {
            return RunExit::Halted(h);
        }
        // Hot loop: pc and the retire count live in locals; `self` is synchronised before
        // anything that can observe it (CSR access, exceptions, misses, exits).
        let mut pc = self.pc;
        let mut left = max_insns;
        // Instructions retired on the fast path since the last sync are `mark - left`.
        let mut mark = left;
        // The decode cache and the architectural state live in locals while the loop runs:
        // LLVM then keeps them apart from the memory the bus reaches, which cuts about a tenth
        // of the host instructions per emulated one (measured with cachegrind on the bench).
        let mut cache = std::mem::take(&mut self.cache);
        let mut core = std::mem::take(&mut self.core);
        let exit = loop {
            if left == 0 {
                break RunExit::MaxInsns;
            }
            left -= 1;
            let idx = (pc.wrapping_sub(cache.base) >> 2) as usize;
            // Outside the window reads as an empty slot, which `exec` reports as a miss.
            let op = *cache.ops.get(idx).unwrap_or(&EMPTY);
            let flow = match core.exec(&mut cache, bus, op, pc) {
                Flow::Next(next) => {
                    pc = next;
                    continue;
                }
                Flow::Miss => None,
                flow => Some(flow),
            };
            // This iteration's cycle is accounted by the slow path itself.
            let mut fast = mark - left - 1;
            mark = left;
            if let Some(exit) = self.run_slow(&mut core, &mut cache, bus, flow, &mut pc, &mut fast)
            {
                break exit;
            }
        };
        self.cache = cache;
        self.core = core;
        let mut fast = mark - left;
        self.sync(pc, &mut fast);
        exit
    }

    /// The hot loop's way out: everything but a plain retire from the cache.
    #[cold]
    #[inline(never)]
    fn run_slow<B: Bus>(
        &mut self,
        core: &mut Core,
        cache: &mut DecodeCache,
        bus: &mut B,
        flow: Option<Flow>,
        pc: &mut u32,
        done: &mut u64,
    ) -> Option<RunExit> {
        std::mem::swap(&mut self.cache, cache);
        std::mem::swap(&mut self.core, core);
        self.sync(*pc, done);
        let tick = match flow {
            Some(flow) => self.finish(flow, *pc, bus),
            None => self.tick(bus),
        };
        std::mem::swap(&mut self.cache, cache);
        std::mem::swap(&mut self.core, core);
        *pc = self.pc;
        match tick {
            Tick::Retired | Tick::Stalled | Tick::Waited | Tick::Trapped(_) => None,
            Tick::Halted => self.halted.map(RunExit::Halted),
            Tick::Stop => Some(RunExit::Stop),
            Tick::Error => Some(RunExit::Error(self.take_error())),
        }
    }

    #[inline(always)]
    fn sync(&mut self, pc: u32, done: &mut u64) {
        self.pc = pc;
        self.core.cycles = self.core.cycles.wrapping_add(*done);
        self.core.instret = self.core.instret.wrapping_add(*done);
        *done = 0;
    }

    /// The error of the last cycle that reported one (see [`Step::Error`]).
    pub fn take_error(&mut self) -> HartError {
        self.pending_error.take().unwrap_or_else(|| HartError {
            kind: HartErrorKind::IllegalInstruction,
            hart_id: self.core.cfg.hart_id,
            pc: self.pc,
            insn: 0,
            tval: 0,
            cycle: self.core.cycles,
            instret: self.core.instret,
            message: "internal: error without details".into(),
        })
    }

    fn refetch<B: Bus>(&mut self, bus: &mut B, pc: u32) -> u32 {
        match bus.fetch(pc) {
            Access::Done(w) => w,
            _ => 0,
        }
    }

    /// One cycle: fetch (from the decode cache when possible), execute, account.
    #[inline(always)]
    pub(crate) fn tick<B: Bus>(&mut self, bus: &mut B) -> Tick {
        if self.halted.is_some() {
            return Tick::Halted;
        }
        let pc = self.pc;
        let op = match self.cache.get(pc) {
            Some(op) => op,
            None => match self.fill(bus, pc) {
                Ok(op) => op,
                Err(flow) => return self.finish_fetch(flow, pc),
            },
        };
        if self.pipeline.is_some() {
            return self.tick_pipelined(bus, op, pc);
        }
        self.execute(bus, op, pc)
    }

    /// Executes `op` at `pc` in this cycle and accounts it.
    #[inline(always)]
    fn execute<B: Bus>(&mut self, bus: &mut B, op: Op, pc: u32) -> Tick {
        let flow = self.core.exec(&mut self.cache, bus, op, pc);
        match flow {
            Flow::Next(next) => {
                self.pc = next;
                self.core.cycles = self.core.cycles.wrapping_add(1);
                self.core.instret = self.core.instret.wrapping_add(1);
                Tick::Retired
            }
            flow => self.finish(flow, pc, bus),
        }
    }

    /// Fetches and decodes the word at `pc` into the cache.
    #[inline(never)]
    fn fill<B: Bus>(&mut self, bus: &mut B, pc: u32) -> Result<Op, Flow> {
        if pc & 3 != 0 {
            return Err(Flow::Exception(HartErrorKind::MisalignedFetch, pc));
        }
        if !self.cache.covers(pc) {
            if let Some(library) = &self.core.cfg.code {
                if self.cache.adopt(pc, library, bus) {
                    if let Some(op) = self.cache.get(pc) {
                        return Ok(op);
                    }
                }
            }
        }
        match bus.fetch(pc) {
            Access::Done(word) => {
                let op = lower(word, pc);
                self.cache.insert(pc, op, word);
                Ok(op)
            }
            Access::Stall => Err(Flow::Stall),
            Access::Fault(f) => {
                self.core.fault_reason = Some(f.reason);
                Err(Flow::Exception(HartErrorKind::FetchFault, pc))
            }
        }
    }

    /// Everything but a plain retire: ops executed out of line (CSRs, which read the
    /// counters), stalls, exceptions, pauses, stop requests.
    #[inline(never)]
    fn finish<B: Bus>(&mut self, flow: Flow, pc: u32, bus: &mut B) -> Tick {
        self.events = self.events.wrapping_add(1);
        let flow = match flow {
            Flow::Slow => {
                // Beyond the cache window the op is not cached: lower it again.
                let op = match self.cache.get(pc) {
                    Some(op) => op,
                    None => lower(self.refetch(bus, pc), pc),
                };
                self.core.exec_slow(bus, op, pc)
            }
            f => f,
        };
        self.finish_fetch(flow, pc)
    }

    #[cold]
    #[inline(never)]
    fn finish_fetch(&mut self, flow: Flow, pc: u32) -> Tick {
        self.events = self.events.wrapping_add(1);
        self.core.cycles = self.core.cycles.wrapping_add(1);
        match flow {
            Flow::Slow | Flow::Miss => self.exception(HartErrorKind::IllegalInstruction, 0, pc),
            Flow::Next(next) => {
                self.pc = next;
                self.core.instret = self.core.instret.wrapping_add(1);
                Tick::Retired
            }
            Flow::Stall => Tick::Stalled,
            Flow::Stop(next) => {
                self.pc = next;
                self.core.instret = self.core.instret.wrapping_add(1);
                Tick::Stop
            }
            Flow::Ebreak(next) => {
                self.pc = next;
                self.core.instret = self.core.instret.wrapping_add(1);
                self.halted = Some(HaltReason::Ebreak { pc });
                Tick::Halted
            }
            Flow::Exception(kind, tval) => self.exception(kind, tval, pc),
        }
    }

    /// A precise exception: to the handler when software installed one (`mtvec` base ≠ 0; the
    /// babies boot with `mtvec` = 0 and L1 address 0 holds the reset code, never a handler),
    /// otherwise a [`HartError`]. Only direct mode: exceptions use the base in vectored mode too
    /// (riscv-privileged, `mtvec`).
    fn exception(&mut self, kind: HartErrorKind, tval: u32, pc: u32) -> Tick {
        let reason = self.core.fault_reason.take();
        let handler = self.core.csr.mtvec & !3;
        if handler != 0 {
            let c = &mut self.core.csr;
            c.mepc = pc;
            c.mcause = kind.mcause();
            c.mtval = tval;
            let mie = c.mstatus_bits & crate::csr::MSTATUS_MIE != 0;
            c.mstatus_bits &= !(crate::csr::MSTATUS_MIE | crate::csr::MSTATUS_MPIE);
            if mie {
                c.mstatus_bits |= crate::csr::MSTATUS_MPIE;
            }
            self.pc = handler;
            return Tick::Trapped(kind.mcause());
        }
        let insn = match kind {
            HartErrorKind::MisalignedFetch | HartErrorKind::FetchFault => 0,
            _ => self
                .cache
                .word(pc)
                .unwrap_or(if kind == HartErrorKind::IllegalInstruction {
                    tval
                } else {
                    0
                }),
        };
        let mut message = match kind {
            HartErrorKind::IllegalInstruction => format!("illegal instruction 0x{tval:08x}"),
            HartErrorKind::EnvironmentCall => "ecall with no trap handler (mtvec = 0)".to_string(),
            HartErrorKind::MisalignedFetch => {
                format!("misaligned instruction address 0x{tval:08x}")
            }
            k => format!("{} at 0x{tval:08x}", k.describe()),
        };
        if let Some(r) = reason {
            message.push_str(": ");
            message.push_str(&r);
        }
        self.pending_error = Some(HartError {
            kind,
            hart_id: self.core.cfg.hart_id,
            pc,
            insn,
            tval,
            cycle: self.core.cycles.wrapping_sub(1),
            instret: self.core.instret,
            message,
        });
        Tick::Error
    }
}
