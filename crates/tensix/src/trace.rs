//! Timeline trace of one coprocessor (see `bhemu_trace`): sampled after every `step`, it
//! writes into a [`Trace`] the caller passes in, so the coprocessor itself carries no tracing
//! state and costs nothing when no one traces.
//!
//! Tracks of the coprocessor's process:
//! - `T0`..`T2` (tid 1..3): each dispatched instruction as a one-cycle slice named by its
//!   disassembly, and each Wait Gate stall as a slice from the first cycle the instruction was
//!   offered to the gate and held back (the cycle after it arrived) to its dispatch cycle, named
//!   `stall: <instruction> — <why>` with the latched condition in words as the gate first saw
//!   it (the state at the end of the arrival cycle)
//!   ([`Coprocessor::gate_wait`]: STALLWAIT conditions, SEMWAIT semaphore values, mutex holder).
//! - `T0 MOP/replay`..(tid 4..6): spans during which the MOP expander or the Replay Expander
//!   feed the thread.
//! - one track per backend unit (tid 10 + unit index): each instruction from dispatch to
//!   retirement, disassembly as the slice name.
//! - counters: each semaphore's value, each thread's FIFO depth.
use bhemu_trace::{Include, Trace};
use serde_json::json;

use bhemu_isa::tensix::Arch;

use crate::backend::{unit_name, UNITS};
use crate::coprocessor::{Coprocessor, Dispatch, THREADS};
use crate::insn::disasm;

/// Track of thread `t`'s dispatches and stalls.
pub fn thread_tid(t: usize) -> u32 {
    1 + t as u32
}
/// Track of thread `t`'s MOP / replay expansion.
pub fn expander_tid(t: usize) -> u32 {
    4 + t as u32
}
/// Track of backend unit `u` (index into the backend's unit list).
pub fn unit_tid(u: usize) -> u32 {
    10 + u as u32
}

#[derive(Clone, Debug)]
struct Stall {
    word: u32,
    start: u64,
    why: String,
}

/// The per-coprocessor tracing state (the Trace itself is the caller's).
#[derive(Clone, Debug)]
pub struct CoprocessorTracer {
    pid: u32,
    arch: Arch,
    include: Include,
    /// Per thread: the word at the gate, the cycle it arrived and why it would wait as the
    /// gate will first see it (the state at the end of its arrival cycle).
    gate: [Option<(u32, u64, String)>; THREADS],
    stall: [Option<Stall>; THREADS],
    /// Per thread: since when the MOP expander / Replay Expander expand.
    mop: [Option<u64>; THREADS],
    replay: [Option<u64>; THREADS],
    /// Instructions inside units: (unit index, thread, word, dispatch cycle).
    units: Vec<(usize, u8, u32, u64)>,
    sems: [Option<u8>; 8],
    fifo: [Option<usize>; THREADS],
}

impl CoprocessorTracer {
    /// Names process `pid` (`label`) and its tracks in `trace`.
    pub fn new(
        trace: &mut Trace,
        pid: u32,
        label: &str,
        arch: Arch,
        include: Include,
    ) -> CoprocessorTracer {
        trace.name_process(pid, label, pid);
        for t in 0..THREADS {
            if include.tensix {
                trace.name_track(pid, thread_tid(t), &format!("T{t}"));
                trace.name_track(pid, expander_tid(t), &format!("T{t} MOP/replay"));
            }
        }
        if include.units {
            for (u, unit) in UNITS.iter().enumerate() {
                trace.name_track(pid, unit_tid(u), unit_name(*unit));
            }
        }
        CoprocessorTracer {
            pid,
            arch,
            include,
            gate: Default::default(),
            stall: Default::default(),
            mop: [None; THREADS],
            replay: [None; THREADS],
            units: Vec::new(),
            sems: [None; 8],
            fifo: [None; THREADS],
        }
    }

    /// Records what happened in `cp`'s step of `cycle`; `dispatched` is that step's dispatch
    /// log.
    pub fn sample(
        &mut self,
        trace: &mut Trace,
        cp: &Coprocessor,
        cycle: u64,
        dispatched: &[Dispatch],
    ) {
        let arch = self.arch;
        let pid = self.pid;
        let mut left = [false; THREADS];
        for d in dispatched {
            let t = usize::from(d.thread) % THREADS;
            left[t] = true;
            if let Some(s) = self.stall[t].take() {
                self.end_stall(trace, t, s, d.cycle);
            }
            self.gate[t] = None;
            if self.include.tensix {
                let name = disasm(arch, d.word);
                trace.slice(
                    pid,
                    thread_tid(t),
                    &name,
                    d.cycle,
                    d.cycle + 1,
                    json!({"word": format!("{:#010x}", d.word)}),
                );
            }
        }
        // `t` names the thread in the coprocessor's queries and indexes four per-thread arrays.
        #[allow(clippy::needless_range_loop)]
        for t in 0..THREADS {
            match cp.gate_wait(t) {
                Some((w, why)) => match &self.gate[t] {
                    Some((g, arrived, first)) if *g == w && !left[t] => {
                        if self.stall[t].is_none() {
                            let why = first.clone();
                            self.stall[t] = Some(Stall {
                                word: w,
                                start: arrived + 1,
                                why,
                            });
                        }
                    }
                    _ => self.gate[t] = Some((w, cycle, why)),
                },
                None => {
                    self.gate[t] = None;
                    if let Some(s) = self.stall[t].take() {
                        self.end_stall(trace, t, s, cycle);
                    }
                }
            }
            if self.include.tensix {
                let (mop, replay) = cp.expanding(t);
                span(
                    trace,
                    pid,
                    expander_tid(t),
                    "MOP expansion",
                    &mut self.mop[t],
                    mop,
                    cycle,
                );
                span(
                    trace,
                    pid,
                    expander_tid(t),
                    "replay",
                    &mut self.replay[t],
                    replay,
                    cycle,
                );
            }
        }
        if self.include.units {
            let now: Vec<(usize, u8, u32, u64)> = cp
                .unit_occupancy()
                .into_iter()
                .map(|(u, _, t, w, d)| (u, t, w, d))
                .collect();
            for e in &self.units {
                if !now.contains(e) {
                    let (u, t, w, d) = *e;
                    let name = disasm(arch, w);
                    trace.slice(
                        pid,
                        unit_tid(u),
                        &name,
                        d,
                        cycle.max(d + 1),
                        json!({"thread": t}),
                    );
                }
            }
            self.units = now;
        }
        if self.include.counters {
            for (i, (v, _max)) in cp.semaphores().iter().enumerate() {
                if self.sems[i] != Some(*v) {
                    self.sems[i] = Some(*v);
                    trace.counter(
                        pid,
                        &format!("semaphore {i}"),
                        cycle,
                        &[("value", f64::from(*v))],
                    );
                }
            }
            for t in 0..THREADS {
                let n = cp.fifo_len(t);
                if self.fifo[t] != Some(n) {
                    self.fifo[t] = Some(n);
                    trace.counter(
                        pid,
                        &format!("T{t} FIFO depth"),
                        cycle,
                        &[("instructions", n as f64)],
                    );
                }
            }
        }
    }

    fn end_stall(&self, trace: &mut Trace, t: usize, s: Stall, end: u64) {
        if !self.include.tensix || end <= s.start {
            return;
        }
        let insn = disasm(self.arch, s.word);
        trace.slice(
            self.pid,
            thread_tid(t),
            &format!("stall: {insn} — {}", s.why),
            s.start,
            end,
            json!({"instruction": insn, "waits_on": s.why, "cycles": end - s.start}),
        );
    }

    /// Closes every open slice at `cycle` (end of the run, or of a hang).
    pub fn finish(&mut self, trace: &mut Trace, cycle: u64) {
        for t in 0..THREADS {
            if let Some(s) = self.stall[t].take() {
                self.end_stall(trace, t, s, cycle);
            }
            span(
                trace,
                self.pid,
                expander_tid(t),
                "MOP expansion",
                &mut self.mop[t],
                false,
                cycle,
            );
            span(
                trace,
                self.pid,
                expander_tid(t),
                "replay",
                &mut self.replay[t],
                false,
                cycle,
            );
        }
    }
}

/// Opens a span when `on` turns true, records it when it turns false.
fn span(
    trace: &mut Trace,
    pid: u32,
    tid: u32,
    name: &str,
    open: &mut Option<u64>,
    on: bool,
    cycle: u64,
) {
    match (*open, on) {
        (None, true) => *open = Some(cycle),
        (Some(s), false) => {
            trace.slice(pid, tid, name, s, cycle, serde_json::Value::Null);
            *open = None;
        }
        _ => {}
    }
}

/// Runs `program` like `runner::run` and records its timeline (process 1, "Tensix").
pub fn run_traced(
    program: &crate::program::Program,
    opts: crate::runner::RunOptions,
    options: &bhemu_trace::TraceOptions,
) -> (crate::runner::RunResult, Trace) {
    let mut trace = Trace::new(options.window);
    let mut tracer = CoprocessorTracer::new(&mut trace, 1, "Tensix", opts.arch, options.include);
    let mut last = 0;
    let r = crate::runner::run_observed(
        program,
        opts,
        Some(&mut |cycle, cp, log| {
            tracer.sample(&mut trace, cp, cycle, log);
            last = cycle + 1;
        }),
    );
    tracer.finish(&mut trace, last);
    (r, trace)
}
