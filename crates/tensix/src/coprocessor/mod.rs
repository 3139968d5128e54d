//! The Tensix coprocessor of one tile: three frontends (FIFO, MOP expander, Replay Expander,
//! Wait Gate), the Sync Unit, SrcA/SrcB bank ownership and the backend units, stepped one cycle
//! at a time.
//!
//! One cycle (`step`), in a fixed order so that runs are deterministic:
//! 1. Backend: UNPACRs waiting inside an unpacker start once their bank is the Unpackers';
//!    instructions whose latency has elapsed retire (and apply retire-time effects: an UNPACR
//!    with FlipSrc gives its bank to the Matrix Unit).
//! 2. Sync Unit: one queued RISC-V semaphore write is served.
//! 3. Wait Gates: every thread's gate decides against the state as it stood after step 1
//!    (block check, then latch re-evaluation = the one-cycle lag); instructions that pass enter
//!    their unit; their Sync/bank/mutex effects are applied together at the end of the phase,
//!    so no thread sees another's same-cycle dispatch (latency 1, SyncUnit.md). Shared units
//!    take one instruction per cycle; threads are offered them in rotating order starting at
//!    `cycle % 3`.
//! 4. Frontends: each thread moves at most one instruction towards its gate.
//!
//! The tile pushes words (`push`) and writes MopCfg / semaphores between steps.
use bhemu_isa::tensix::Arch;

use crate::backend::{unit_name, Backend};
use crate::error::{ErrorKind, TensixError, ThreadWait};
use crate::fifo::{Fifo, Pushed, FIFO_SLOTS};
use crate::insn::{cond, disasm, Insn, NopWait, Op, Unit};
use crate::mop_expander::MopExpander;
use crate::qstatus;
use crate::replay_expander::ReplayExpander;
use crate::src_banks::{Src, SrcBanks, SrcClient};
use crate::state::TensixState;
use crate::sync_unit::SyncUnit;
use crate::units::exec::Exec;
use crate::units::{Ctx, NoMemory, TensixMemory};
use crate::wait_gate::{Latch, WaitGate};

mod dispatch;
mod phases;
mod report;

/// Number of Tensix threads (T0, T1, T2).
pub const THREADS: usize = 3;

/// Who pushed a word: a TRISC pushes into its thread's FIFO before the MOP expander; BRISC's
/// pushes enter after the MOP expander (a mux between the two
/// expanders). bhemu gives the BRISC path priority at that mux instead of silently dropping
/// the TRISC-side instruction as the hardware does on a same-cycle collision (software must
/// avoid that collision anyway).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushSource {
    Trisc,
    Brisc,
}

/// One instruction leaving a Wait Gate (the dispatch log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    pub cycle: u64,
    pub thread: u8,
    pub word: u32,
}

/// Strict stops at the first undefined behaviour; permissive reports it once (in
/// `warnings`) and carries on as the hardware would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Permissive,
}

#[derive(Clone, Debug)]
struct Thread {
    fifo: Fifo,
    brisc: Fifo,
    mop: MopExpander,
    replay: ReplayExpander,
    gate: WaitGate,
    /// Hung on an invalid mutex index (permissive mode keeps it stuck forever).
    hung: bool,
}

#[derive(Clone, Copy, Debug)]
enum Effect {
    Latch(u8, Latch),
    SemInit(u8, u8, u8),
    SemPost(u8),
    SemGet(u8),
    Acquire(u32, u8),
    Release(u32, u8),
    GiveToMath(Src),
    GiveToUnpackers(Src, bool),
    ResetBanks,
}

/// The coprocessor. See the module documentation for the cycle structure.
#[derive(Clone, Debug)]
pub struct Coprocessor {
    arch: Arch,
    mode: Mode,
    threads: [Thread; THREADS],
    backend: Backend,
    sync: SyncUnit,
    banks: SrcBanks,
    /// Register files and configuration: what the data path computes on.
    state: TensixState,
    trisc_cfg_pending: [bool; THREADS],
    log: Option<Vec<Dispatch>>,
    /// Instructions each thread has dispatched past its Wait Gate, for status reports.
    dispatched: [u64; THREADS],
    warnings: Vec<TensixError>,
    effects: Vec<Effect>,
    /// Per unpacker (SrcA, SrcB): the Src datums of UNPACRs that computed their addresses and
    /// read L1 at dispatch but wait inside the unpacker for their bank, oldest first
    /// (`phases.rs`, `docs/tensix-datapath.md`).
    deferred_src: [std::collections::VecDeque<DeferredSrc>; 2],
    /// Where a waiting UNPACR's Src writes land at dispatch, in place of the live `SrcA` or
    /// `SrcB`: unwritten between instructions (`SrcData::take_written`).
    held_src: crate::state::SrcData,
    progressed: bool,
    pushed: bool,
    /// The last step's only changes were units counting down (`backend_phase`).
    ticking: bool,
    /// After a step that changed nothing but counters, the first cycle whose step may differ
    /// from it (`quiet_until`); 0 when the next step must run. Cleared by every input.
    quiet_until: u64,
    /// The last cycle a thread issued an instruction to the Vector Unit (its data effect
    /// drove the unit's cycle); other cycles drive it idle while it has work of its own.
    sfpu_issued_at: Option<u64>,
    /// The next cycle `step` expects (for idle checks between steps).
    now: u64,
}

impl Coprocessor {
    pub fn new(arch: Arch) -> Self {
        let th = || Thread {
            fifo: Fifo::new(FIFO_SLOTS),
            brisc: Fifo::new(FIFO_SLOTS),
            mop: MopExpander::new(arch),
            replay: ReplayExpander::new(arch),
            gate: WaitGate::default(),
            hung: false,
        };
        Coprocessor {
            arch,
            mode: Mode::Strict,
            threads: [th(), th(), th()],
            backend: Backend::default(),
            sync: SyncUnit::new(arch),
            banks: SrcBanks::default(),
            state: TensixState::new(),
            trisc_cfg_pending: [false; THREADS],
            log: None,
            dispatched: [0; THREADS],
            warnings: Vec::new(),
            effects: Vec::with_capacity(8),
            deferred_src: Default::default(),
            held_src: crate::state::SrcData::unwritten(),
            progressed: false,
            pushed: false,
            ticking: false,
            quiet_until: 0,
            sfpu_issued_at: None,
            now: 0,
        }
    }

    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// The data state (register files, configuration, GPRs, counters).
    pub fn state(&self) -> &TensixState {
        &self.state
    }

    /// The data state, writable: for preloading from a test or a program, and for the
    /// RISC-V windows onto `Dst`, configuration and GPRs.
    pub fn state_mut(&mut self) -> &mut TensixState {
        self.disturb();
        &mut self.state
    }

    pub fn set_mode(&mut self, mode: Mode) {
        self.disturb();
        self.mode = mode;
    }

    /// Start (or stop) recording every instruction that leaves a Wait Gate.
    pub fn set_dispatch_log(&mut self, on: bool) {
        self.log = if on {
            Some(self.log.take().unwrap_or_default())
        } else {
            None
        };
    }

    /// The dispatches recorded since the last call (empty if logging is off).
    pub fn take_dispatch_log(&mut self) -> Vec<Dispatch> {
        match self.log.as_mut() {
            Some(l) => std::mem::take(l),
            None => Vec::new(),
        }
    }

    /// Turn the Dst read-after-write checker on or off (`crate::matrix::hazard`).
    pub fn set_check_hazards(&mut self, on: bool) {
        self.state.matrix.hazards.set_enabled(on);
    }

    /// Dst reads the checker reported since the last [`Coprocessor::take_hazards`].
    pub fn hazards(&self) -> &[crate::matrix::hazard::DstHazard] {
        self.state.matrix.hazards.reports()
    }

    /// The checker's reports so far, leaving none.
    pub fn take_hazards(&mut self) -> Vec<crate::matrix::hazard::DstHazard> {
        self.state.matrix.hazards.take_reports()
    }

    /// Hazards found past the checker's report limit since the last call, leaving 0.
    pub fn take_hazards_not_kept(&mut self) -> u64 {
        self.state.matrix.hazards.take_not_kept()
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// How many instructions each thread (T0-T2) has dispatched past its Wait Gate since
    /// the coprocessor was made: the instructions it executed.
    pub fn dispatched(&self) -> [u64; THREADS] {
        self.dispatched
    }

    /// Undefined behaviour seen in permissive mode, each reported once.
    pub fn warnings(&self) -> &[TensixError] {
        &self.warnings
    }

    fn check_thread(&self, thread: usize) -> Result<(), TensixError> {
        if thread < THREADS {
            Ok(())
        } else {
            Err(TensixError::new(
                ErrorKind::Invalid,
                self.now,
                format!("there is no Tensix thread {thread} (T0-T2 only)"),
            ))
        }
    }

    /// Push one instruction word for `thread`. `Full` means the pushing core stalls and retries
    /// next cycle.
    pub fn push(
        &mut self,
        thread: usize,
        source: PushSource,
        word: u32,
    ) -> Result<Pushed, TensixError> {
        self.push_from(thread, source, word, None)
    }

    /// [`Coprocessor::push`] by the RISC-V store at `pc`, which reports about the instruction
    /// then name.
    pub fn push_from(
        &mut self,
        thread: usize,
        source: PushSource,
        word: u32,
        pc: Option<u32>,
    ) -> Result<Pushed, TensixError> {
        self.check_thread(thread)?;
        let mut insn = crate::insn::decode_memoized(self.arch, word);
        insn.from_brisc = source == PushSource::Brisc;
        insn.pc = pc;
        self.disturb();
        let th = &mut self.threads[thread];
        let r = match source {
            PushSource::Trisc => th.fifo.push(insn),
            PushSource::Brisc => th.brisc.push(insn),
        };
        if r == Pushed::Accepted {
            self.pushed = true;
        }
        Ok(r)
    }

    /// A push from `source` for `thread` would be refused as [`Pushed::Full`] (the queue it
    /// enters has no free slot): the pushing core stalls until the frontend takes an
    /// instruction. False for an unknown thread (the push reports that error itself).
    pub fn push_blocked(&self, thread: usize, source: PushSource) -> bool {
        self.threads.get(thread).is_some_and(|th| match source {
            PushSource::Trisc => th.fifo.is_full(),
            PushSource::Brisc => th.brisc.is_full(),
        })
    }

    /// RISCV T`thread` entered soft reset: the Tensix instructions in its MOP expander and in
    /// the FIFO preceding it are discarded (SoftReset.md "RISCV soft reset"). The page names
    /// only those two, so instructions BRISC pushed for the thread (which bypass the MOP
    /// expander), the replay expander and the Wait Gate are left alone. An out-of-range thread
    /// is ignored.
    pub fn reset_thread_frontend(&mut self, thread: usize) {
        self.disturb();
        if let Some(th) = self.threads.get_mut(thread) {
            th.fifo.clear();
            th.mop.abort();
        }
    }

    /// Write `MopCfg[i]` of `thread` (MMIO 0xFFB80000 + 4i, routed by the writing TRISC).
    pub fn write_mop_cfg(
        &mut self,
        thread: usize,
        i: usize,
        value: u32,
    ) -> Result<(), TensixError> {
        self.check_thread(thread)?;
        self.disturb();
        if self.threads[thread].mop.write_cfg(i, value) {
            Ok(())
        } else {
            Err(TensixError::new(
                ErrorKind::Invalid,
                self.now,
                format!("MopCfg has 9 registers; index {i} does not exist"),
            )
            .at(thread as u8, None))
        }
    }

    /// mop_sync / MOPExpanderDoneCheck (ManualTTSync.md): true once no MOP is queued before
    /// the thread's MOP expander and it is not expanding one. A store to PC-buffer + 8
    /// completes only when this holds.
    pub fn mop_idle(&self, thread: usize) -> bool {
        match self.threads.get(thread) {
            Some(th) => {
                !th.mop.expanding() && !th.fifo.iter().any(|i| matches!(i.op, Op::Mop { .. }))
            }
            None => true,
        }
    }

    /// CoprocessorDoneCheck (ManualTTSync.md): no in-flight instruction from `thread` anywhere.
    pub fn thread_idle(&self, thread: usize) -> bool {
        match self.threads.get(thread) {
            Some(th) => {
                th.fifo.is_empty()
                    && th.brisc.is_empty()
                    && !th.mop.expanding()
                    && !th.replay.playing()
                    && th.gate.slot.is_none()
                    && self.backend.thread_idle(thread as u8, self.now)
                    && !self.state.sfpu.macro_pending()
            }
            None => true,
        }
    }

    /// Every thread drained, every unit idle, nothing queued for the Sync Unit.
    pub fn all_idle(&self) -> bool {
        (0..THREADS).all(|t| self.thread_idle(t))
            && self.backend.idle(self.now)
            && !self.sync.window_writes_pending()
            && !self.state.sfpu.macro_pending()
    }

    /// A RISC-V load from the PC-buffer semaphore window: `Semaphores[i].Value` (SyncUnit.md).
    pub fn sem_window_read(&self, index: usize) -> Result<u32, TensixError> {
        match self.sync.sems.sems.get(index) {
            Some(s) => Ok(s.value as u32),
            None => Err(TensixError::new(
                ErrorKind::Invalid,
                self.now,
                format!("semaphore window index {index} out of range (0-7)"),
            )),
        }
    }

    /// A RISC-V store to the semaphore window: odd value = SEMGET-like decrement, even =
    /// SEMPOST-like increment (SyncUnit.md); processed by the Sync Unit in the next step.
    pub fn sem_window_write(&mut self, index: usize, value: u32) -> Result<(), TensixError> {
        if index >= 8 {
            return Err(TensixError::new(
                ErrorKind::Invalid,
                self.now,
                format!("semaphore window index {index} out of range (0-7)"),
            ));
        }
        self.sync.queue_window_write(index, value);
        self.pushed = true;
        self.disturb();
        Ok(())
    }

    /// Set a semaphore directly (program set-up before cycle 0, debuggers).
    pub fn set_semaphore(&mut self, index: usize, value: u8, max: u8) -> Result<(), TensixError> {
        if index >= 8 {
            return Err(TensixError::new(
                ErrorKind::Invalid,
                self.now,
                format!("semaphore index {index} out of range (0-7)"),
            ));
        }
        self.sync.sems.init(1 << index, value, max);
        self.disturb();
        Ok(())
    }

    /// (value, max) of all eight semaphores.
    pub fn semaphores(&self) -> [(u8, u8); 8] {
        std::array::from_fn(|i| (self.sync.sems.sems[i].value, self.sync.sems.sems[i].max))
    }

    /// (index, holder) of every valid mutex of this architecture.
    pub fn mutexes(&self) -> Vec<(u32, Option<u8>)> {
        self.sync
            .mutexes
            .indices()
            .into_iter()
            .map(|i| (i, self.sync.mutexes.holder(i)))
            .collect()
    }

    /// SrcA/SrcB ownership (for tests and debuggers).
    pub fn src_banks(&self) -> &SrcBanks {
        &self.banks
    }

    /// C10: the TRISC of `thread` has a config/GPR/TDMA-RISC request emitted but not yet
    /// processed (STALLWAIT.md). Driven by the tile.
    pub fn set_trisc_cfg_pending(&mut self, thread: usize, pending: bool) {
        self.disturb();
        if let Some(p) = self.trisc_cfg_pending.get_mut(thread) {
            *p = pending;
        }
    }

    /// The current latch of a thread's Wait Gate.
    pub fn latch(&self, thread: usize) -> Option<Latch> {
        self.threads.get(thread).and_then(|t| t.gate.latch)
    }

    /// Instructions queued in the thread's FIFO (TRISC side).
    pub fn fifo_len(&self, thread: usize) -> usize {
        self.threads.get(thread).map_or(0, |t| t.fifo.len())
    }

    /// Read-only view of a thread's MOP expander (tests).
    pub fn mop_expander(&self, thread: usize) -> Option<&MopExpander> {
        self.threads.get(thread).map(|t| &t.mop)
    }

    /// Read-only view of a thread's Replay Expander (tests).
    pub fn replay_expander(&self, thread: usize) -> Option<&ReplayExpander> {
        self.threads.get(thread).map(|t| &t.replay)
    }

    /// STALLWAIT conditions C0-C12 that are true for `thread` right now ("keep waiting").
    pub fn conditions(&self, thread: usize) -> u16 {
        let t = thread as u8;
        let b = &self.backend;
        let mut c = 0;
        let mut set = |bit: u16, v: bool| {
            if v {
                c |= bit;
            }
        };
        set(cond::THCON, b.thcon_outstanding(t, self.now));
        set(cond::UNPACK0, b.thread_in(Unit::Unpack0, t));
        set(cond::UNPACK1, b.thread_in(Unit::Unpack1, t));
        set(cond::PACK, b.thread_in(Unit::Pack, t));
        set(cond::MATH, b.thread_in(Unit::Matrix, t));
        set(cond::SRCA_CLR, self.banks.unpack_blocked(Src::A));
        set(cond::SRCB_CLR, self.banks.unpack_blocked(Src::B));
        set(cond::SRCA_VLD, self.banks.math_blocked(Src::A));
        set(cond::SRCB_VLD, self.banks.math_blocked(Src::B));
        set(cond::XMOV, b.any_in(Unit::Mover));
        set(
            cond::TRISC_CFG,
            self.trisc_cfg_pending.get(thread).copied().unwrap_or(false),
        );
        // Instructions SFPLOADMACRO scheduled keep the Vector Unit busy for every thread
        // (the unit does not record which thread's SFPLOADMACRO scheduled them).
        set(
            cond::SFPU,
            b.thread_in(Unit::Vector, t) || self.state.sfpu.macro_pending(),
        );
        set(cond::CFGEXU, b.any_in(Unit::Config));
        c
    }

    /// `tt_cfg_qstatus` as read by TRISC `thread` (see `qstatus` module for the layout).
    pub fn qstatus(&self, thread: usize) -> u32 {
        let own = |t: usize| -> u32 {
            let th = &self.threads[t];
            let mut m = 0;
            for i in th.fifo.iter().chain(th.brisc.iter()) {
                m |= qstatus::type_bits(i);
            }
            if let Some(i) = &th.gate.slot {
                m |= qstatus::type_bits(i);
            }
            if th.replay.busy() {
                m |= qstatus::REPLAY;
            }
            if th.mop.expanding() {
                m |= qstatus::MOP;
            }
            m
        };
        let all = (0..THREADS).fold(0, |a, t| a | own(t));
        let mine = if thread < THREADS { own(thread) } else { 0 };
        mine | (all << qstatus::GLOBAL_SHIFT)
    }

    /// Did the last `step` change anything (or did input arrive before it)?
    pub fn progressed(&self) -> bool {
        self.progressed
    }

    fn undefined(
        &mut self,
        cycle: u64,
        thread: u8,
        word: u32,
        msg: String,
    ) -> Result<(), TensixError> {
        let e = TensixError::new(ErrorKind::Undefined, cycle, msg).at(thread, Some(word));
        match self.mode {
            Mode::Strict => Err(e),
            Mode::Permissive => {
                if !self
                    .warnings
                    .iter()
                    .any(|w| w.thread == e.thread && w.word == e.word && w.message == e.message)
                {
                    self.warnings.push(e);
                }
                Ok(())
            }
        }
    }

    /// Advance one cycle. Errors: undefined behaviour (strict mode), an unknown opcode
    /// reaching a gate, or an ATGETM/ATRELM hang (strict mode).
    pub fn step(&mut self, cycle: u64) -> Result<(), TensixError> {
        self.step_with(cycle, &mut NoMemory)
    }

    /// Advance one cycle with `mem` as the tile's L1, which unpackers read and packers
    /// write (see `crate::units` for when each unit applies its effects).
    ///
    /// A cycle inside a quiet stretch (see [`Coprocessor::quiet_at`]) is accounted without
    /// being computed: its step would change nothing. [`Coprocessor::step_every_cycle_with`]
    /// computes every cycle (the chip's reference schedule).
    pub fn step_with(&mut self, cycle: u64, mem: &mut dyn TensixMemory) -> Result<(), TensixError> {
        if self.quiet_at(cycle) {
            self.progressed = self.ticking;
            self.now = cycle + 1;
            return Ok(());
        }
        self.step_every_cycle_with(cycle, mem)
    }

    /// [`Coprocessor::step_with`] computing the cycle whatever the last step did.
    pub fn step_every_cycle_with(
        &mut self,
        cycle: u64,
        mem: &mut dyn TensixMemory,
    ) -> Result<(), TensixError> {
        self.now = cycle;
        self.progressed = std::mem::take(&mut self.pushed);
        self.ticking = false;
        self.quiet_until = 0;
        self.backend_phase(cycle)?;
        if self.sync.serve_window_write(cycle) {
            self.progressed = true;
        }
        self.gate_phase(cycle, mem)?;
        self.vector_unit_idle_cycle(cycle)?;
        for t in 0..THREADS {
            self.frontend_phase(t, cycle);
        }
        if !self.progressed {
            // Time alone changes a decision only at the units' times (EM-31).
            self.quiet_until = self.backend.next_timed_change(cycle);
        }
        self.progressed |= self.ticking;
        self.now = cycle + 1;
        Ok(())
    }

    /// Whether the step of `cycle` would change nothing: the last step, at most `cycle - 1`,
    /// changed nothing but its units' countdowns (no instruction moved, dispatched, started or
    /// retired; no latch released; no semaphore write served; the Vector Unit at rest), no
    /// input came since (every method that changes what a step decides clears the stretch:
    /// pushes, MopCfg, semaphores, `state_mut`, C10, soft reset, the mode; the dispatch log's
    /// and hazard list's switches and takers change nothing a step decides), and
    /// `cycle` is before the first cycle at which time alone changes a decision
    /// ([`Backend::next_timed_change`]). Every decision of a step is a function of the
    /// state and of the cycle only through those times, so the steps between are the same
    /// step: docs/execution-model.md EM-31.
    pub fn quiet_at(&self, cycle: u64) -> bool {
        cycle < self.quiet_until
    }

    /// An input arrived: the next step is computed.
    fn disturb(&mut self) {
        self.quiet_until = 0;
    }

    /// Who owns SrcX bank `bank` (tests).
    pub fn bank_owner(&self, s: Src, bank: usize) -> SrcClient {
        match s {
            Src::A => self.banks.a[bank & 1],
            Src::B => self.banks.b[bank & 1],
        }
    }
}

pub(crate) fn valid_mutex_text(arch: Arch) -> &'static str {
    match arch {
        Arch::Blackhole => "mutexes 0, 2, 3, 4",
        Arch::WormholeB0 => "mutexes 0, 2-7",
    }
}

/// An unpacker instruction's Src effects held back while it waits for its bank: the datums
/// it produced as (row, column, value), and the implied format it recorded, if any; both go
/// to the unpacker's bank of the moment it starts.
#[derive(Clone, Debug, Default)]
pub(crate) struct DeferredSrc {
    pub cells: Vec<(usize, usize, u32)>,
    pub format: Option<u32>,
}
