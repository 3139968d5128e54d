//! The gdbstub target: threads are harts, memory is what the thread's core addresses.
//!
//! [`ChipTarget`] reaches the chip through `H: BorrowMut<Chip>`: `bhemu --gdb` lends it the
//! chip for the whole session (`&mut Chip`), libttsim's stub ([`crate::clocked`]) hands it the
//! chip by value for the length of each `libttsim_clock` call.
use std::borrow::BorrowMut;
use std::num::NonZeroUsize;

use bhemu_chip::debug::{self, DebugStop, Debugger, HartRef, Resume, WatchKind};
use bhemu_chip::{Chip, CoreState};
use gdbstub::common::{Signal, Tid};
use gdbstub::stub::MultiThreadStopReason;
use gdbstub::target::ext::base::multithread::{
    MultiThreadBase, MultiThreadResume, MultiThreadResumeOps, MultiThreadSchedulerLocking,
    MultiThreadSchedulerLockingOps, MultiThreadSingleStep, MultiThreadSingleStepOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    self as bp, Breakpoints, BreakpointsOps, HwBreakpoint, HwBreakpointOps, HwWatchpoint,
    HwWatchpointOps, SwBreakpoint, SwBreakpointOps,
};
use gdbstub::target::ext::thread_extra_info::{ThreadExtraInfo, ThreadExtraInfoOps};
use gdbstub::target::{Target, TargetError, TargetResult};

use crate::arch::{Rv32Baby, Rv32Regs};

pub struct ChipTarget<H: BorrowMut<Chip>> {
    chip: H,
    dbg: Debugger,
    max_cycles: u64,
    done: fn(&Chip) -> bool,
    /// What the next resume does (gdb's `vCont`).
    resume: Option<Resume>,
    /// Cycles run since the resume.
    ran: u64,
    current: Tid,
    /// The program reached `done` under the debugger.
    pub finished: bool,
    /// The emulation error that ended execution, reported again on every resume.
    failed: Option<Tid>,
}

fn tid_of(i: usize) -> Tid {
    NonZeroUsize::new(i + 1).unwrap_or(NonZeroUsize::MIN)
}

impl<H: BorrowMut<Chip>> ChipTarget<H> {
    pub fn new(chip: H, dbg: Debugger, max_cycles: u64, done: fn(&Chip) -> bool) -> Self {
        ChipTarget {
            chip,
            dbg,
            max_cycles,
            done,
            resume: None,
            ran: 0,
            current: NonZeroUsize::MIN,
            finished: false,
            failed: None,
        }
    }

    pub fn into_parts(self) -> (H, Debugger) {
        (self.chip, self.dbg)
    }

    /// The chip the target holds.
    pub fn chip_mut(&mut self) -> &mut Chip {
        self.chip.borrow_mut()
    }

    /// Exchanges the chip the target holds with `other` (libttsim lends it per clock call).
    pub fn swap_chip(&mut self, other: &mut H) {
        std::mem::swap(&mut self.chip, other);
    }

    /// Lifts the per-resume cycle bound of the next resume (libttsim bounds cycles itself).
    pub fn reset_resume_budget(&mut self) {
        self.ran = 0;
    }

    pub fn current_tid(&self) -> Tid {
        self.current
    }

    fn hart(&self, tid: Tid) -> Option<HartRef> {
        self.dbg.harts().get(tid.get() - 1).copied()
    }

    fn tid_of_hart(&self, h: HartRef) -> Tid {
        tid_of(self.dbg.harts().iter().position(|&x| x == h).unwrap_or(0))
    }

    /// Runs at most `n` cycles of the current resume; `Some` when the chip stopped.
    pub fn run_chunk(&mut self, n: u64) -> Option<MultiThreadStopReason<u32>> {
        if let Some(tid) = self.failed {
            return Some(MultiThreadStopReason::SignalWithThread {
                tid,
                signal: Signal::SIGSEGV,
            });
        }
        let resume = self.resume.unwrap_or(Resume::Continue);
        let left = self.max_cycles.saturating_sub(self.ran);
        if left == 0 {
            return Some(MultiThreadStopReason::SignalWithThread {
                tid: self.current,
                signal: Signal::SIGXCPU,
            });
        }
        let start = self.chip.borrow().cycle();
        let done = self.done;
        let stop = self
            .dbg
            .run(self.chip.borrow_mut(), resume, n.min(left), &mut |c| {
                done(c)
            });
        self.ran += self.chip.borrow().cycle() - start;
        let (tid, reason) = match stop {
            DebugStop::CycleLimit => return None,
            DebugStop::Done => {
                self.finished = true;
                return Some(MultiThreadStopReason::Exited(0));
            }
            DebugStop::Breakpoint { hart, .. } => {
                let t = self.tid_of_hart(hart);
                (t, MultiThreadStopReason::SwBreak(t))
            }
            DebugStop::Watchpoint { hart, addr, kind } => {
                let t = self.tid_of_hart(hart);
                let kind = match kind {
                    WatchKind::Read => bp::WatchKind::Read,
                    WatchKind::Write => bp::WatchKind::Write,
                    WatchKind::Access => bp::WatchKind::ReadWrite,
                };
                (t, MultiThreadStopReason::Watch { tid: t, kind, addr })
            }
            DebugStop::Stepped { hart } => {
                let t = self.tid_of_hart(hart);
                (t, MultiThreadStopReason::DoneStep)
            }
            DebugStop::Halted { hart } => {
                let t = self.tid_of_hart(hart);
                (
                    t,
                    MultiThreadStopReason::SignalWithThread {
                        tid: t,
                        signal: Signal::SIGTRAP,
                    },
                )
            }
            DebugStop::Error(e) => {
                eprintln!("bhemu: {e}");
                let hart = self
                    .dbg
                    .harts()
                    .iter()
                    .position(|h| e.loc.tile == Some((h.x, h.y)) && e.loc.core == Some(h.core));
                let t = tid_of(hart.unwrap_or(self.current.get() - 1));
                self.failed = Some(t);
                (
                    t,
                    MultiThreadStopReason::SignalWithThread {
                        tid: t,
                        signal: Signal::SIGSEGV,
                    },
                )
            }
        };
        self.current = tid;
        Some(reason)
    }
}

impl<H: BorrowMut<Chip>> Target for ChipTarget<H> {
    type Arch = Rv32Baby;
    type Error = String;

    fn base_ops(&mut self) -> BaseOps<'_, Rv32Baby, String> {
        BaseOps::MultiThread(self)
    }
    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }
}

impl<H: BorrowMut<Chip>> MultiThreadBase for ChipTarget<H> {
    fn read_registers(&mut self, regs: &mut Rv32Regs, tid: Tid) -> TargetResult<(), Self> {
        let h = self.hart(tid).ok_or(TargetError::NonFatal)?;
        let t = self
            .chip
            .borrow()
            .tile(h.x, h.y)
            .ok_or(TargetError::NonFatal)?;
        let hart = t.hart(h.core);
        for (i, r) in regs.x.iter_mut().enumerate() {
            *r = hart.reg(i);
        }
        regs.pc = hart.pc();
        Ok(())
    }

    fn write_registers(&mut self, regs: &Rv32Regs, tid: Tid) -> TargetResult<(), Self> {
        let h = self.hart(tid).ok_or(TargetError::NonFatal)?;
        let t = self
            .chip
            .borrow_mut()
            .tile_mut(h.x, h.y)
            .ok_or(TargetError::NonFatal)?;
        for (i, &v) in regs.x.iter().enumerate().skip(1) {
            debug::write_register(t, h.core, i, v);
        }
        debug::write_register(t, h.core, 32, regs.pc);
        Ok(())
    }

    fn read_addrs(&mut self, start: u32, data: &mut [u8], tid: Tid) -> TargetResult<usize, Self> {
        let h = self.hart(tid).ok_or(TargetError::NonFatal)?;
        let t = self
            .chip
            .borrow()
            .tile(h.x, h.y)
            .ok_or(TargetError::NonFatal)?;
        match debug::read_memory(t, h.core, start, data) {
            Ok(()) => Ok(data.len()),
            // Byte by byte, so a read that runs into MMIO returns the readable part.
            Err(_) => {
                let mut n = 0;
                for (i, b) in data.iter_mut().enumerate() {
                    let mut one = [0u8];
                    let a = start.wrapping_add(i as u32);
                    if debug::read_memory(t, h.core, a, &mut one).is_err() {
                        break;
                    }
                    *b = one[0];
                    n += 1;
                }
                if n == 0 {
                    Err(TargetError::NonFatal)
                } else {
                    Ok(n)
                }
            }
        }
    }

    fn write_addrs(&mut self, start: u32, data: &[u8], tid: Tid) -> TargetResult<(), Self> {
        let h = self.hart(tid).ok_or(TargetError::NonFatal)?;
        let t = self
            .chip
            .borrow_mut()
            .tile_mut(h.x, h.y)
            .ok_or(TargetError::NonFatal)?;
        debug::write_memory(t, h.core, start, data).map_err(|_| TargetError::NonFatal)
    }

    fn list_active_threads(&mut self, f: &mut dyn FnMut(Tid)) -> Result<(), String> {
        for i in 0..self.dbg.harts().len() {
            f(tid_of(i));
        }
        Ok(())
    }

    fn support_resume(&mut self) -> Option<MultiThreadResumeOps<'_, Self>> {
        Some(self)
    }
    fn support_thread_extra_info(&mut self) -> Option<ThreadExtraInfoOps<'_, Self>> {
        Some(self)
    }
}

impl<H: BorrowMut<Chip>> ThreadExtraInfo for ChipTarget<H> {
    fn thread_extra_info(&self, tid: Tid, buf: &mut [u8]) -> Result<usize, String> {
        let Some(h) = self.hart(tid) else {
            return Ok(0);
        };
        let state = self
            .chip
            .borrow()
            .tile(h.x, h.y)
            .map(|t| t.core_state(h.core))
            .unwrap_or(CoreState::Reset);
        let s = format!("tile ({},{}) {} {}", h.x, h.y, h.core.name(), state.name());
        let n = s.len().min(buf.len());
        buf[..n].copy_from_slice(&s.as_bytes()[..n]);
        Ok(n)
    }
}

impl<H: BorrowMut<Chip>> MultiThreadResume for ChipTarget<H> {
    fn resume(&mut self) -> Result<(), String> {
        self.ran = 0;
        Ok(())
    }
    fn clear_resume_actions(&mut self) -> Result<(), String> {
        self.resume = None;
        Ok(())
    }
    /// The chip has one clock: continuing any thread runs them all.
    fn set_resume_action_continue(
        &mut self,
        _tid: Tid,
        _signal: Option<Signal>,
    ) -> Result<(), String> {
        if self.resume.is_none() {
            self.resume = Some(Resume::Continue);
        }
        Ok(())
    }
    fn support_single_step(&mut self) -> Option<MultiThreadSingleStepOps<'_, Self>> {
        Some(self)
    }
    fn support_scheduler_locking(&mut self) -> Option<MultiThreadSchedulerLockingOps<'_, Self>> {
        Some(self)
    }
}

/// gdb steps one thread with the others "locked" (`vCont;s:N` alone). The chip has one
/// clock, so the other harts still run the cycles the step takes: locking is accepted and
/// has no further effect (docs/gdb.md).
impl<H: BorrowMut<Chip>> MultiThreadSchedulerLocking for ChipTarget<H> {
    fn set_resume_action_scheduler_lock(&mut self) -> Result<(), String> {
        Ok(())
    }
}

impl<H: BorrowMut<Chip>> MultiThreadSingleStep for ChipTarget<H> {
    /// Runs the chip until `tid`'s hart retires one instruction.
    fn set_resume_action_step(&mut self, tid: Tid, _signal: Option<Signal>) -> Result<(), String> {
        if let Some(h) = self.hart(tid) {
            self.resume = Some(Resume::Step(h));
            self.current = tid;
        }
        Ok(())
    }
}

impl<H: BorrowMut<Chip>> Breakpoints for ChipTarget<H> {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }
    fn support_hw_breakpoint(&mut self) -> Option<HwBreakpointOps<'_, Self>> {
        Some(self)
    }
    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

/// Software breakpoints are kept by the debugger rather than written into L1 as `ebreak`
/// (an `ebreak` is a debug pause on Blackhole), so they behave like hardware ones.
impl<H: BorrowMut<Chip>> SwBreakpoint for ChipTarget<H> {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        self.dbg.add_breakpoint(addr);
        Ok(true)
    }
    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.dbg.remove_breakpoint(addr))
    }
}

impl<H: BorrowMut<Chip>> HwBreakpoint for ChipTarget<H> {
    fn add_hw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        self.dbg.add_breakpoint(addr);
        Ok(true)
    }
    fn remove_hw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.dbg.remove_breakpoint(addr))
    }
}

fn watch_kind(k: bp::WatchKind) -> WatchKind {
    match k {
        bp::WatchKind::Read => WatchKind::Read,
        bp::WatchKind::Write => WatchKind::Write,
        bp::WatchKind::ReadWrite => WatchKind::Access,
    }
}

impl<H: BorrowMut<Chip>> HwWatchpoint for ChipTarget<H> {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: bp::WatchKind,
    ) -> TargetResult<bool, Self> {
        self.dbg.add_watchpoint(addr, len, watch_kind(kind));
        Ok(true)
    }
    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: bp::WatchKind,
    ) -> TargetResult<bool, Self> {
        Ok(self.dbg.remove_watchpoint(addr, len, watch_kind(kind)))
    }
}
