//! The Tensix coprocessor of one tile: three frontends (FIFO, MOP expander, Replay Expander,
//! Wait Gate), the Sync Unit, SrcA/SrcB bank ownership and the backend units, stepped one cycle
//! at a time.
//!
//! One cycle (`step`), in a fixed order so that runs are deterministic (DESIGN.md "Time"):
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
//! 4. Frontends: each thread moves at most one instruction towards its gate (seed 004 §7).
//!
//! The tile pushes words (`push`) and writes MopCfg / semaphores between steps.
use bhemu_isa::tensix::Arch;

use crate::backend::{unit_name, Backend};
use crate::error::{ErrorKind, TensixError, ThreadWait};
use crate::fifo::{Fifo, Pushed, FIFO_SLOTS};
use crate::insn::{cond, disasm, predecode, Insn, Op, Unit};
use crate::mop_expander::MopExpander;
use crate::qstatus;
use crate::replay_expander::ReplayExpander;
use crate::src_banks::{Src, SrcBanks, SrcClient};
use crate::state::TensixState;
use crate::sync_unit::SyncUnit;
use crate::units::exec::Exec;
use crate::units::{Ctx, NoMemory, TensixMemory};
use crate::wait_gate::{Latch, WaitGate};

/// Number of Tensix threads (T0, T1, T2).
pub const THREADS: usize = 3;

/// Who pushed a word: a TRISC pushes into its thread's FIFO before the MOP expander; BRISC's
/// pushes enter after the MOP expander (seed 002; README.md "a mux between the two
/// expanders"). bhemu gives the BRISC path priority at that mux instead of silently dropping
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
/// `warnings`) and carries on as the hardware would (DESIGN.md "Errors").
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
    warnings: Vec<TensixError>,
    effects: Vec<Effect>,
    progressed: bool,
    pushed: bool,
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
            warnings: Vec::new(),
            effects: Vec::with_capacity(8),
            progressed: false,
            pushed: false,
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
        &mut self.state
    }

    pub fn set_mode(&mut self, mode: Mode) {
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
    /// next cycle (seed 004 §8).
    pub fn push(
        &mut self,
        thread: usize,
        source: PushSource,
        word: u32,
    ) -> Result<Pushed, TensixError> {
        self.check_thread(thread)?;
        let mut insn = predecode(self.arch, word);
        insn.from_brisc = source == PushSource::Brisc;
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

    /// RISCV T`thread` entered soft reset: the Tensix instructions in its MOP expander and in
    /// the FIFO preceding it are discarded (SoftReset.md "RISCV soft reset"). The page names
    /// only those two, so instructions BRISC pushed for the thread (which bypass the MOP
    /// expander), the replay expander and the Wait Gate are left alone. An out-of-range thread
    /// is ignored.
    pub fn reset_thread_frontend(&mut self, thread: usize) {
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
    /// completes only when this holds (seed 002 edge case 8).
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
            }
            None => true,
        }
    }

    /// Every thread drained, every unit idle, nothing queued for the Sync Unit.
    pub fn all_idle(&self) -> bool {
        (0..THREADS).all(|t| self.thread_idle(t))
            && self.backend.idle(self.now)
            && !self.sync.window_writes_pending()
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
        set(cond::SFPU, b.thread_in(Unit::Vector, t));
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
    pub fn step_with(&mut self, cycle: u64, mem: &mut dyn TensixMemory) -> Result<(), TensixError> {
        self.now = cycle;
        self.progressed = std::mem::take(&mut self.pushed);
        self.backend_phase(cycle, mem)?;
        if self.sync.serve_window_write(cycle) {
            self.progressed = true;
        }
        self.gate_phase(cycle, mem)?;
        for t in 0..THREADS {
            self.frontend_phase(t, cycle);
        }
        self.now = cycle + 1;
        Ok(())
    }

    fn backend_phase(&mut self, cycle: u64, mem: &mut dyn TensixMemory) -> Result<(), TensixError> {
        let banks = &mut self.banks;
        let mut progressed = false;
        for (ui, pipe) in self.backend.pipes.iter_mut().enumerate() {
            let unit = crate::backend::UNITS[ui];
            // UNPACR waits inside its unpacker until its bank belongs to the Unpackers
            // (UNPACR_Regular.md: `while (SrcA[Bank].AllowedClient != Unpackers) wait;`).
            // In-order: only the oldest waiting entry may start.
            if let Some(e) = pipe.entries.iter_mut().find(|e| e.done_at.is_none()) {
                let src = if unit == Unit::Unpack1 {
                    Src::B
                } else {
                    Src::A
                };
                if !banks.unpack_blocked(src) {
                    e.done_at = Some(cycle + e.insn.latency.max(1) as u64);
                    progressed = true;
                    // A waiting UNPACR reads its configuration and counters, and moves its
                    // data, when it starts.
                    execute_data(
                        DataCtx {
                            arch: self.arch,
                            mode: self.mode,
                            state: &mut self.state,
                            banks,
                            warnings: &mut self.warnings,
                        },
                        e.thread as usize,
                        e.insn.word,
                        cycle,
                        mem,
                    )?;
                }
            }
            let mut i = 0;
            while i < pipe.entries.len() {
                let e = pipe.entries[i];
                match e.done_at {
                    Some(d) if d <= cycle => {
                        pipe.entries.remove(i);
                        progressed = true;

                        match e.insn.op {
                            Op::Unpacr { flip: true } | Op::UnpacrNop { set_dvalid: true } => {
                                banks.give_to_math(if unit == Unit::Unpack1 {
                                    Src::B
                                } else {
                                    Src::A
                                });
                            }
                            Op::ThCon { mem_tail } if mem_tail > 0 => {
                                let slot =
                                    &mut self.backend.thcon_mem_until[e.thread as usize % THREADS];
                                *slot = (*slot).max(cycle + mem_tail as u64);
                            }
                            _ => {}
                        }
                    }
                    Some(_) => {
                        // Counting down: time alone will change the state.
                        progressed = true;
                        i += 1;
                    }
                    None => i += 1,
                }
            }
        }
        if self.backend.thcon_mem_until.iter().any(|&u| u > cycle) {
            progressed = true;
        }
        if progressed {
            self.progressed = true;
        }
        Ok(())
    }

    fn gate_phase(&mut self, cycle: u64, mem: &mut dyn TensixMemory) -> Result<(), TensixError> {
        let active: [u16; THREADS] = std::array::from_fn(|t| self.conditions(t));
        let mut candidate = [false; THREADS];
        let mut release = [false; THREADS];
        for t in 0..THREADS {
            let th = &self.threads[t];
            let blocked = match (th.gate.latch, th.gate.slot) {
                (Some(l), Some(i)) => l.blocks(&i),
                _ => false,
            };
            if let Some(l) = th.gate.latch {
                // Re-evaluated after the block check: the release is seen next cycle.
                if !l.keep_waiting(active[t], &self.sync.sems) {
                    release[t] = true;
                }
            }
            candidate[t] = th.gate.slot.is_some()
                && !blocked
                && !th.hung
                && !self.backend.thcon_holds(t as u8);
        }

        // Mutex arbitration among threads presenting ATGETM for a free mutex.
        let mut atgetm_ok = [false; THREADS];
        for t in 0..THREADS {
            if let (
                true,
                Some(Insn {
                    op: Op::AtGetM { index },
                    ..
                }),
            ) = (candidate[t], self.threads[t].gate.slot)
            {
                if !self.sync.mutexes.valid(index) {
                    continue;
                }
                match self.sync.mutexes.holder(index) {
                    Some(h) if h == t as u8 => atgetm_ok[t] = true,
                    Some(_) => {}
                    None => {
                        let contenders: Vec<u8> = (0..THREADS)
                            .filter(|&u| candidate[u] && matches!(self.threads[u].gate.slot, Some(Insn { op: Op::AtGetM { index: j }, .. }) if j == index))
                            .map(|u| u as u8)
                            .collect();
                        atgetm_ok[t] =
                            self.sync.mutexes.pick_winner(index, &contenders) == Some(t as u8);
                    }
                }
            }
        }

        self.effects.clear();
        for k in 0..THREADS as u64 {
            let t = ((cycle + k) % THREADS as u64) as usize;
            if !candidate[t] {
                continue;
            }
            let Some(insn) = self.threads[t].gate.slot else {
                continue;
            };
            if self.try_dispatch(t, insn, cycle, atgetm_ok[t], mem)? {
                self.threads[t].gate.slot = None;
                self.progressed = true;
                if let Some(log) = self.log.as_mut() {
                    log.push(Dispatch {
                        cycle,
                        thread: t as u8,
                        word: insn.word,
                    });
                }
            }
        }

        for (t, r) in release.iter().enumerate() {
            if *r {
                self.threads[t].gate.latch = None;
                self.progressed = true;
            }
        }
        let effects = std::mem::take(&mut self.effects);
        for e in &effects {
            match *e {
                Effect::Latch(t, l) => self.threads[t as usize].gate.latch = Some(l),
                Effect::SemInit(m, v, x) => self.sync.sems.init(m, v, x),
                Effect::SemPost(m) => self.sync.sems.post(m),
                Effect::SemGet(m) => self.sync.sems.get(m),
                Effect::Acquire(i, t) => self.sync.mutexes.acquire(i, t),
                Effect::Release(i, t) => self.sync.mutexes.release(i, t),
                Effect::GiveToMath(s) => self.banks.give_to_math(s),
                Effect::GiveToUnpackers(s, keep) => self.banks.give_to_unpackers(s, keep),
                Effect::ResetBanks => self.banks.reset(),
            }
        }
        self.effects = effects;
        Ok(())
    }

    /// Decide whether `insn` passes thread `t`'s gate this cycle; if so, send it on and queue
    /// its effects. Ok(false) = it waits.
    fn try_dispatch(
        &mut self,
        t: usize,
        insn: Insn,
        cycle: u64,
        atgetm_ok: bool,
        mem: &mut dyn TensixMemory,
    ) -> Result<bool, TensixError> {
        let tt = t as u8;
        match insn.op {
            Op::Unknown => {
                return Err(TensixError::new(
                    ErrorKind::Invalid,
                    cycle,
                    format!(
                        "unknown {} opcode {:#04x} reached the Wait Gate",
                        self.arch.name(),
                        insn.opcode
                    ),
                )
                .at(tt, Some(insn.word)));
            }
            Op::Mop { .. } | Op::MopCfg { .. } | Op::Replay { .. } => {
                // Only possible via BRISC pushes or replayed words: these instructions "should
                // never reach Tensix itself" (YAML; MOP.md: RISCV B cannot use MOP).
                self.undefined(cycle, tt, insn.word, format!("{} reached the Wait Gate without its expander (pushed by BRISC, or recorded into the replay buffer); dropped", disasm(self.arch, insn.word)))?;
                return Ok(true);
            }
            Op::AtGetM { index } | Op::AtRelM { index } if !self.sync.mutexes.valid(index) => {
                let name = if matches!(insn.op, Op::AtGetM { .. }) {
                    "ATGETM"
                } else {
                    "ATRELM"
                };
                let e = TensixError::new(
                    ErrorKind::Hang,
                    cycle,
                    format!("{name} with invalid mutex index {index} ({} has {}): thread T{t} waits forever (seed 001, {name}.md)", self.arch.name(), valid_mutex_text(self.arch)),
                )
                .at(tt, Some(insn.word));
                self.threads[t].hung = true;
                match self.mode {
                    Mode::Strict => {
                        let mut e = e;
                        e.threads = vec![ThreadWait {
                            thread: tt,
                            word: Some(insn.word),
                            waiting_on: format!(
                                "{} — invalid mutex index {index}",
                                disasm(self.arch, insn.word)
                            ),
                        }];
                        return Err(e);
                    }
                    Mode::Permissive => {
                        if !self.warnings.contains(&e) {
                            self.warnings.push(e);
                        }
                        return Ok(false);
                    }
                }
            }
            Op::AtGetM { .. } | Op::AtRelM { .. } if insn.from_brisc => {
                // Seed 001 "Per-Core Access": BRISC cannot push ATGETM/ATRELM.
                self.undefined(
                    cycle,
                    tt,
                    insn.word,
                    format!(
                        "{} pushed by BRISC: only TRISCs can use mutexes (seed 001); dropped",
                        disasm(self.arch, insn.word)
                    ),
                )?;
                return Ok(true);
            }
            Op::AtGetM { .. } if !atgetm_ok => return Ok(false),
            _ => {}
        }
        // The Sync Unit's one-per-cycle group (SyncUnit.md).
        let sync_group = matches!(
            insn.op,
            Op::StallWait { .. }
                | Op::SemWait { .. }
                | Op::SemInit { .. }
                | Op::SemPost { .. }
                | Op::SemGet { .. }
        ) || (insn.unit == Unit::Sync && matches!(insn.op, Op::Other));
        if sync_group && !self.sync.group_free(cycle) {
            return Ok(false);
        }
        // Matrix Unit instructions that read SrcA/SrcB wait at the gate for their bank
        // (MVMUL.md etc.; not MOVD2A/MOVD2B, MOVD2A.md).
        if let Op::Math { wait_a, wait_b, .. } = insn.op {
            if (wait_a && self.banks.math_blocked(Src::A))
                || (wait_b && self.banks.math_blocked(Src::B))
            {
                return Ok(false);
            }
        }
        if !self.backend.can_accept(insn.unit, &insn, cycle) {
            return Ok(false);
        }
        if matches!(insn.op, Op::SemWait { cond: 0, .. }) {
            // Seed 000: wait_sem_cond == 0 is undefined behaviour. Permissive: SEMWAIT.md's
            // functional model latches a STALLWAIT with condition mask 0x0F.
            self.undefined(
                cycle,
                tt,
                insn.word,
                "SEMWAIT with wait_sem_cond == 0 is undefined behaviour (seed 000)".to_string(),
            )?;
        }
        // It passes.
        if sync_group {
            self.sync.take_group(cycle);
        }
        match insn.op {
            Op::StallWait { block, conds } => self
                .effects
                .push(Effect::Latch(tt, Latch::StallWait { block, conds })),
            Op::SemWait { block, sems, cond } => {
                let l = if cond == 0 {
                    Latch::StallWait { block, conds: 0x0f }
                } else {
                    Latch::SemWait { block, sems, cond }
                };
                self.effects.push(Effect::Latch(tt, l));
            }
            Op::SemInit { sems, value, max } => {
                self.effects.push(Effect::SemInit(sems, value, max))
            }
            Op::SemPost { sems } => self.effects.push(Effect::SemPost(sems)),
            Op::SemGet { sems } => self.effects.push(Effect::SemGet(sems)),
            Op::AtGetM { index } => self.effects.push(Effect::Acquire(index, tt)),
            Op::AtRelM { index } => self.effects.push(Effect::Release(index, tt)),
            Op::SetDvalid { a, b } => {
                if a {
                    self.effects.push(Effect::GiveToMath(Src::A));
                }
                if b {
                    self.effects.push(Effect::GiveToMath(Src::B));
                }
            }
            Op::ClearDvalid { a, b, keep, reset } => {
                if reset {
                    self.effects.push(Effect::ResetBanks);
                } else {
                    if a {
                        self.effects.push(Effect::GiveToUnpackers(Src::A, keep));
                    }
                    if b {
                        self.effects.push(Effect::GiveToUnpackers(Src::B, keep));
                    }
                }
            }
            Op::Math { flip_a, flip_b, .. } => {
                // Applied at the end of the dispatch cycle, so that the next Matrix Unit
                // instruction's automatic wait sees the new MatrixUnit.SrcXBank.
                if flip_a {
                    self.effects.push(Effect::GiveToUnpackers(Src::A, false));
                }
                if flip_b {
                    self.effects.push(Effect::GiveToUnpackers(Src::B, false));
                }
            }
            _ => {}
        }
        // UNPACR enters its unpacker even if the bank is not yet the Unpackers' and waits
        // there (WaitGate.md †).
        let waits = matches!(insn.op, Op::Unpacr { .. })
            && self.banks.unpack_blocked(if insn.unit == Unit::Unpack1 {
                Src::B
            } else {
                Src::A
            });
        if insn.unit != Unit::None {
            self.backend.accept(insn.unit, tt, insn, cycle, waits);
        }
        // Data effects at dispatch; an UNPACR that must wait inside its unpacker for its
        // bank applies them when it starts (backend phase).
        if !waits {
            execute_data(
                DataCtx {
                    arch: self.arch,
                    mode: self.mode,
                    state: &mut self.state,
                    banks: &self.banks,
                    warnings: &mut self.warnings,
                },
                t,
                insn.word,
                cycle,
                mem,
            )?;
        }
        Ok(true)
    }

    fn frontend_phase(&mut self, t: usize, cycle: u64) {
        let th = &mut self.threads[t];
        let mut moved = false;
        if th.gate.slot.is_none() || th.replay.record_only() {
            if th.replay.playing() {
                if th.gate.slot.is_none() {
                    th.gate.slot = th.replay.play();
                    moved = true;
                }
            } else {
                let incoming = if let Some(i) = th.brisc.pop() {
                    moved = true;
                    Some(i)
                } else {
                    let (o, changed) = th.mop.pull(cycle, &mut th.fifo);
                    moved |= changed;
                    o
                };
                if let Some(i) = incoming {
                    moved = true;
                    if let Some(out) = th.replay.ingest(i) {
                        th.gate.slot = Some(out);
                    }
                }
            }
            // RESOURCEDECL is consumed before the Wait Gate (seed 000: never blocked; the YAML
            // table notes it is for Auto TTSync), so it never reaches the gate or the log.
            if matches!(
                th.gate.slot,
                Some(Insn {
                    op: Op::ResourceDecl,
                    ..
                })
            ) {
                th.gate.slot = None;
            }
        }
        if moved {
            self.progressed = true;
        }
    }

    /// If the last step changed nothing and something is still pending, nothing ever will
    /// (the model is deterministic and only input can change it): the deadlock report.
    /// Callers with external input still to come (harts, pushes) should not ask.
    pub fn deadlock(&self, cycle: u64) -> Option<TensixError> {
        if self.progressed || self.all_idle() {
            return None;
        }
        let threads = self.blocked_threads();
        let mut e = TensixError::new(
            ErrorKind::Deadlock,
            cycle,
            format!("no Tensix thread can progress ({} stuck)", threads.len()),
        );
        e.threads = threads;
        Some(e)
    }

    /// Every non-idle thread, with the instruction it is stuck on and why.
    pub fn blocked_threads(&self) -> Vec<ThreadWait> {
        let mut out = Vec::new();
        for t in 0..THREADS {
            if self.thread_idle(t) {
                continue;
            }
            let tt = t as u8;
            let th = &self.threads[t];
            let active = self.conditions(t);
            if let Some(i) = th.gate.slot {
                let why = self.why_waiting(t, &i, active);
                out.push(ThreadWait {
                    thread: tt,
                    word: Some(i.word),
                    waiting_on: format!("{} — {why}", disasm(self.arch, i.word)),
                });
                continue;
            }
            if let Some(e) = self
                .backend
                .pipes
                .iter()
                .flat_map(|p| p.entries.iter())
                .find(|e| e.thread == tt && e.done_at.is_none())
            {
                let bank = if e.insn.unit == Unit::Unpack1 {
                    "SrcB"
                } else {
                    "SrcA"
                };
                out.push(ThreadWait {
                    thread: tt,
                    word: Some(e.insn.word),
                    waiting_on: format!("{} — in {}, waiting for its {bank} bank to be given back to the Unpackers (C5/C6)", disasm(self.arch, e.insn.word), unit_name(e.insn.unit)),
                });
                continue;
            }
            out.push(ThreadWait {
                thread: tt,
                word: None,
                waiting_on: "instructions queued in the frontend".to_string(),
            });
        }
        out
    }

    fn why_waiting(&self, t: usize, i: &Insn, active: u16) -> String {
        let th = &self.threads[t];
        if let Some(l) = th.gate.latch {
            if l.blocks(i) {
                return format!("blocked by {}", l.describe(active, &self.sync.sems));
            }
        }
        if self.backend.thcon_holds(t as u8) {
            return "waiting for its Scalar Unit (ThCon) instruction to complete".to_string();
        }
        match i.op {
            Op::AtGetM { index } if !self.sync.mutexes.valid(index) => {
                return format!("invalid mutex index {index}: waits forever")
            }
            Op::AtRelM { index } if !self.sync.mutexes.valid(index) => {
                return format!("invalid mutex index {index}: waits forever")
            }
            Op::AtGetM { index } => {
                if let Some(h) = self.sync.mutexes.holder(index) {
                    return format!("mutex {index} held by T{h}");
                }
            }
            Op::Math { wait_a, wait_b, .. } => {
                let mut v = Vec::new();
                if wait_a && self.banks.math_blocked(Src::A) {
                    v.push(format!(
                        "SrcA bank {} owned by {:?} (C7)",
                        self.banks.math_a, self.banks.a[self.banks.math_a]
                    ));
                }
                if wait_b && self.banks.math_blocked(Src::B) {
                    v.push(format!(
                        "SrcB bank {} owned by {:?} (C8)",
                        self.banks.math_b, self.banks.b[self.banks.math_b]
                    ));
                }
                if !v.is_empty() {
                    return format!("automatic wait: {}", v.join(", "));
                }
            }
            _ => {}
        }
        if i.unit != Unit::None {
            return format!("{} busy", unit_name(i.unit));
        }
        "waiting".to_string()
    }

    /// Who owns SrcX bank `bank` (tests).
    pub fn bank_owner(&self, s: Src, bank: usize) -> SrcClient {
        match s {
            Src::A => self.banks.a[bank & 1],
            Src::B => self.banks.b[bank & 1],
        }
    }
}

/// The pieces of the coprocessor a data effect touches (borrowed field by field, so the
/// backend loop can call it while it holds its pipes).
struct DataCtx<'a> {
    arch: Arch,
    mode: Mode,
    state: &'a mut TensixState,
    banks: &'a SrcBanks,
    warnings: &'a mut Vec<TensixError>,
}

/// Applies one instruction's data effects through the generated visitor (Blackhole only;
/// Wormhole B0 stays frontend-only).
fn execute_data(
    d: DataCtx,
    thread: usize,
    word: u32,
    cycle: u64,
    mem: &mut dyn TensixMemory,
) -> Result<(), TensixError> {
    if d.arch != Arch::Blackhole {
        return Ok(());
    }
    let insn = bhemu_isa::tensix::blackhole::Insn::decode(word);
    let mut ctx = Ctx {
        state: d.state,
        banks: d.banks,
        mem,
        thread,
        cycle,
        word,
        mode: d.mode,
        warnings: d.warnings,
    };
    let mut ex = Exec {
        ctx: &mut ctx,
        insn,
    };
    bhemu_isa::tensix::blackhole::visit(&insn, &mut ex)
}

fn valid_mutex_text(arch: Arch) -> &'static str {
    match arch {
        Arch::Blackhole => "mutexes 0, 2, 3, 4",
        Arch::WormholeB0 => "mutexes 0, 2-7",
    }
}
