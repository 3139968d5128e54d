//! The cycle model of a cluster.
//!
//! Each core has a scalar unit (SU) that issues its program in order, at most one op per cycle,
//! into an in-order queue per pipe; the pipes run concurrently and an op occupies its pipe for its
//! cycle count (crates/pto/README.md: "The scalar unit issues in program order into per-pipe queues that
//! run asynchronously; only events, barriers and buffer tokens order them").
//!
//! What "blocks a pipe" means here — every sync op is an entry in exactly one place:
//! - On a pipe's queue: `set_flag` on its source pipe, `wait_flag` on its destination pipe,
//!   `pipe_barrier P` on P, `get_buf`/`rls_buf` on the named pipe, `set_intra_block`,
//!   `wait_intra_core` and `set_cross_core` on the named pipe, `mem_bar` on PIPE_V. An entry takes
//!   no time; it completes when it reaches the head of its queue and its condition holds, and until
//!   then it holds everything queued behind it on that pipe — but no other pipe, and not the SU,
//!   which keeps issuing (wait-flag.md: "Stalls the destination pipeline … Other pipelines may
//!   continue"; wait-intra-core.md: "Only the named pipeline is blocked. All other pipelines
//!   continue"). So `set_flag` fires when the work issued before it on its source pipe has
//!   retired (set-flag.md: "marks the named event as produced by the source pipeline").
//! - In the SU itself: `wait_flag_dev` (wait-flag-dev.md: "Blocks the entire SU (all pipelines)"
//!   — the SU stops issuing, so later ops on every pipe are not even issued, while ops already
//!   queued drain), `pipe_barrier PIPE_ALL` (the SU waits until every pipe of the core has drained;
//!   pipe-barrier.md "forces completion of the named pipeline's outstanding work", for all pipes),
//!   and any op on `PIPE_S`: the scalar pipe is the SU, so `op PIPE_S n` holds issue for n cycles
//!   and `wait_flag …, PIPE_S, …` stops issue.
//! - On the CPU profile every op executes in the SU: ops run one at a time in program order
//!   (execution-agents.md "CPU Simulator"; crates/pto/README.md "ops run synchronously"). Sync ops take
//!   no time; the event and buffer protocol is still kept ("CPU simulation preserves the visible
//!   event protocol", set-flag.md), so a wait whose signal was not produced earlier in program
//!   order can never be satisfied and is reported as a deadlock.
//!
//! One cycle `t`: (A) ops ending at `t` retire; (B) each core's SU, in order aic, aiv0, aiv1,
//! retries its blocking op or issues its next op; (C) every pipe head that can complete or start
//! does so, repeated until nothing changes (zero-time signals reach their waiters within the same
//! cycle). If nothing changed and nothing is in flight, the run is deadlocked. The fixed orders
//! make runs deterministic.
use crate::buffers::BufferTable;
use crate::cross_core::Semaphores;
use crate::error::{ErrorKind, PtoError, Stuck};
use crate::events::EventTable;
use crate::pipes::{CoreId, Pipe, PipeQueue, Running, PIPE_COUNT};
use crate::profile::Profile;
use crate::timeline::{Report, Span, Timeline, Unbalanced};
use crate::trace::Trace;
use crate::verifier::{self, Entry, Instr, Program};

/// Run `trace` on `profile`.
pub fn run(trace: &Trace, profile: Profile) -> Report {
    match verifier::verify(trace, profile) {
        Ok(prog) => Engine::new(prog, profile).run(),
        Err(e) => Report {
            profile,
            cycles: 0,
            timeline: Timeline::default(),
            unbalanced: Vec::new(),
            error: Some(e),
        },
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Su {
    /// May issue the next op this cycle.
    Ready,
    /// Executing scalar work until this cycle.
    Busy { until: u64 },
    /// Held by the op at this program index.
    Blocked { idx: usize },
}

struct Core {
    id: CoreId,
    prog: Vec<Entry>,
    pc: usize,
    su: Su,
    pipes: [PipeQueue; PIPE_COUNT],
}

impl Core {
    fn drained(&self) -> bool {
        self.pipes.iter().all(PipeQueue::is_drained)
    }

    fn done(&self) -> bool {
        self.pc >= self.prog.len() && self.su == Su::Ready && self.drained()
    }
}

#[derive(Default)]
struct Sync {
    events: [EventTable; 3],
    buffers: [BufferTable; 3],
    sems: Semaphores,
}

enum Step {
    Done,
    Started(u64),
    Blocked(String),
}

struct Engine {
    profile: Profile,
    cores: Vec<Core>,
    sync: Sync,
    timeline: Timeline,
    t: u64,
    /// Cycle after the last issue slot used or the last op ended.
    end: u64,
}

/// Where an op executes: `None` in the SU, `Some(p)` on pipe p's queue.
fn site(profile: Profile, instr: &Instr) -> Option<Pipe> {
    if profile.is_synchronous() {
        return None;
    }
    let p = match instr {
        Instr::Work { pipe, .. }
        | Instr::Barrier { pipe }
        | Instr::GetBuf { pipe, .. }
        | Instr::RlsBuf { pipe, .. }
        | Instr::SetIntraBlock { pipe, .. }
        | Instr::WaitIntraCore { pipe, .. }
        | Instr::SetCrossCore { pipe, .. } => *pipe,
        Instr::SetFlag(k) => k.src,
        Instr::WaitFlag(k) => k.dst,
        Instr::MemBar => Pipe::V,
        Instr::BarrierAll | Instr::WaitFlagDev { .. } => return None,
    };
    (p != Pipe::S).then_some(p)
}

/// Try to complete (or start) `entry`, program index `idx` of `core`, at cycle `t`.
fn execute(
    sync: &mut Sync,
    core: CoreId,
    entry: &Entry,
    idx: usize,
    t: u64,
) -> Result<Step, PtoError> {
    let c = core.index();
    let fail =
        |kind: ErrorKind, m: String| PtoError::new(kind, Some(core), entry.line, &entry.text, m);
    let done_or = |r: Result<(), String>| match r {
        Ok(()) => Step::Done,
        Err(why) => Step::Blocked(why),
    };
    Ok(match &entry.instr {
        Instr::Work { cycles, .. } => Step::Started(t.saturating_add(*cycles)),
        Instr::SetFlag(k) => {
            sync.events[c]
                .set(*k, entry.line)
                .map_err(|m| fail(ErrorKind::Overflow, m))?;
            Step::Done
        }
        Instr::WaitFlag(k) => {
            if sync.events[c].try_wait(*k) {
                Step::Done
            } else {
                Step::Blocked(format!("event {k} of {core} has count 0"))
            }
        }
        // In an in-order pipe, reaching the head means all earlier work on it has retired.
        Instr::Barrier { .. } | Instr::MemBar => Step::Done,
        // Handled by the SU (needs the core's pipes).
        Instr::BarrierAll => Step::Done,
        Instr::GetBuf { id, .. } => done_or(sync.buffers[c].try_acquire(*id, idx)),
        Instr::RlsBuf { id, pipe } => {
            sync.buffers[c]
                .release(*id, *pipe)
                .map_err(|m| fail(ErrorKind::Invalid, m))?;
            Step::Done
        }
        Instr::SetIntraBlock { id, .. } => {
            sync.sems
                .set_intra_block(core, *id, entry.line)
                .map_err(|m| fail(ErrorKind::Overflow, m))?;
            Step::Done
        }
        Instr::WaitIntraCore { id, .. } => done_or(sync.sems.try_wait_intra_core(core, *id)),
        Instr::SetCrossCore { id, .. } => {
            sync.sems
                .set_cross_core(core, *id, entry.line)
                .map_err(|m| fail(ErrorKind::Overflow, m))?;
            Step::Done
        }
        Instr::WaitFlagDev { id } => done_or(sync.sems.try_wait_flag_dev(core, *id)),
    })
}

impl Engine {
    fn new(prog: Program, profile: Profile) -> Self {
        let Program { cores: [a, b, c] } = prog;
        let cores = [(CoreId::Aic, a), (CoreId::Aiv0, b), (CoreId::Aiv1, c)]
            .into_iter()
            .map(|(id, prog)| Core {
                id,
                prog,
                pc: 0,
                su: Su::Ready,
                pipes: Default::default(),
            })
            .collect();
        Engine {
            profile,
            cores,
            sync: Sync {
                sems: Semaphores::for_profile(profile),
                ..Sync::default()
            },
            timeline: Timeline::default(),
            t: 0,
            end: 0,
        }
    }

    fn run(mut self) -> Report {
        loop {
            let t = self.t;
            self.retire(t);
            let mut progress = false;
            for ci in 0..self.cores.len() {
                match self.su_step(ci, t) {
                    Ok(p) => progress |= p,
                    Err(e) => return self.fail(e),
                }
            }
            match self.pipes_step(t) {
                Ok(p) => progress |= p,
                Err(e) => return self.fail(e),
            }
            if self.cores.iter().all(Core::done) {
                return self.finish();
            }
            if progress {
                self.t = t + 1;
                continue;
            }
            match self.next_wakeup() {
                Some(n) if n > t => self.t = n,
                _ => return self.deadlock(),
            }
        }
    }

    fn retire(&mut self, t: u64) {
        for core in &mut self.cores {
            for q in &mut core.pipes {
                if q.running.is_some_and(|r| r.end <= t) {
                    q.running = None;
                }
            }
            if let Su::Busy { until } = core.su {
                if until <= t {
                    core.su = Su::Ready;
                }
            }
        }
    }

    fn next_wakeup(&self) -> Option<u64> {
        let mut n: Option<u64> = None;
        for core in &self.cores {
            let ends = core.pipes.iter().filter_map(|q| q.running.map(|r| r.end));
            let su = match core.su {
                Su::Busy { until } => Some(until),
                _ => None,
            };
            for e in ends.chain(su) {
                n = Some(n.map_or(e, |m: u64| m.min(e)));
            }
        }
        n
    }

    /// Execute program index `idx` in core `ci`'s SU.
    fn su_execute(&mut self, ci: usize, idx: usize, t: u64) -> Result<Step, PtoError> {
        let core = &self.cores[ci];
        let Some(entry) = core.prog.get(idx) else {
            return Ok(Step::Done);
        };
        if entry.instr == Instr::BarrierAll {
            let busy: Vec<&str> = core
                .id
                .pipes()
                .iter()
                .filter(|p| !core.pipes[p.index()].is_drained())
                .map(|p| p.name())
                .collect();
            return Ok(if busy.is_empty() {
                Step::Done
            } else {
                Step::Blocked(format!(
                    "pipe_barrier(PIPE_ALL) waits for {} of {} to drain",
                    busy.join(", "),
                    core.id
                ))
            });
        }
        let step = execute(&mut self.sync, core.id, entry, idx, t)?;
        if let (Step::Started(end), Instr::Work { pipe, label, .. }) = (&step, &entry.instr) {
            // Scalar work on PIPE_S (or any work on the CPU profile) runs in the SU.
            self.timeline.push(
                core.id,
                *pipe,
                Span {
                    label: label.clone(),
                    start: t,
                    end: *end,
                    line: entry.line,
                },
            );
            self.end = self.end.max(*end);
        }
        Ok(step)
    }

    /// Phase B for one core. Returns whether anything changed.
    fn su_step(&mut self, ci: usize, t: u64) -> Result<bool, PtoError> {
        match self.cores[ci].su {
            Su::Busy { .. } => Ok(false),
            Su::Blocked { idx } => match self.su_execute(ci, idx, t)? {
                Step::Done => {
                    self.cores[ci].su = Su::Ready;
                    self.end = self.end.max(t + 1);
                    Ok(true)
                }
                Step::Started(until) => {
                    self.cores[ci].su = Su::Busy { until };
                    Ok(true)
                }
                Step::Blocked(_) => Ok(false),
            },
            Su::Ready => {
                let core = &mut self.cores[ci];
                let idx = core.pc;
                let Some(entry) = core.prog.get(idx) else {
                    return Ok(false);
                };
                core.pc += 1;
                self.end = self.end.max(t + 1);
                if let Instr::GetBuf { id, pipe } = entry.instr {
                    self.sync.buffers[core.id.index()].enqueue(id, pipe, idx, entry.line);
                }
                match site(self.profile, &entry.instr) {
                    Some(p) => core.pipes[p.index()].queue.push_back(idx),
                    None => {
                        self.cores[ci].su = match self.su_execute(ci, idx, t)? {
                            Step::Done => Su::Ready,
                            Step::Started(until) => Su::Busy { until },
                            Step::Blocked(_) => Su::Blocked { idx },
                        }
                    }
                }
                Ok(true)
            }
        }
    }

    /// Phase C: start or complete pipe heads until nothing changes.
    fn pipes_step(&mut self, t: u64) -> Result<bool, PtoError> {
        let Engine {
            cores,
            sync,
            timeline,
            end,
            ..
        } = self;
        let mut any = false;
        loop {
            let mut changed = false;
            for core in cores.iter_mut() {
                let id = core.id;
                for &p in id.pipes() {
                    let Core { pipes, prog, .. } = &mut *core;
                    let q = &mut pipes[p.index()];
                    while q.running.is_none() {
                        let Some(&idx) = q.queue.front() else { break };
                        let Some(entry) = prog.get(idx) else {
                            q.queue.pop_front();
                            continue;
                        };
                        match execute(sync, id, entry, idx, t)? {
                            Step::Done => {
                                q.queue.pop_front();
                                changed = true;
                            }
                            Step::Started(e) => {
                                q.queue.pop_front();
                                q.running = Some(Running { idx, end: e });
                                if let Instr::Work { label, .. } = &entry.instr {
                                    timeline.push(
                                        id,
                                        p,
                                        Span {
                                            label: label.clone(),
                                            start: t,
                                            end: e,
                                            line: entry.line,
                                        },
                                    );
                                }
                                *end = (*end).max(e);
                                changed = true;
                            }
                            Step::Blocked(_) => break,
                        }
                    }
                }
            }
            if !changed {
                return Ok(any);
            }
            any = true;
        }
    }

    fn report(self, cycles: u64, unbalanced: Vec<Unbalanced>, error: Option<PtoError>) -> Report {
        Report {
            profile: self.profile,
            cycles,
            timeline: self.timeline,
            unbalanced,
            error,
        }
    }

    fn fail(self, e: PtoError) -> Report {
        let t = self.t;
        self.report(t, Vec::new(), Some(e))
    }

    /// The core and op text of trace line `line`.
    fn op_at(&self, line: usize) -> Option<(CoreId, &str)> {
        self.cores.iter().find_map(|c| {
            c.prog
                .iter()
                .find(|e| e.line == line)
                .map(|e| (c.id, e.text.as_str()))
        })
    }

    fn finish(self) -> Report {
        let mut unbalanced = Vec::new();
        for core in CoreId::ALL {
            for (key, c) in self.sync.events[core.index()].leftovers() {
                unbalanced.push(Unbalanced {
                    core,
                    line: c.last_set_line,
                    message: format!(
                        "event {key} of {core} is still set (count {}); every set_flag needs a matching wait_flag",
                        c.count
                    ),
                });
            }
            for (id, pipe, line) in self.sync.buffers[core.index()].held() {
                unbalanced.push(Unbalanced {
                    core,
                    line,
                    message: format!("buffer {id} of {core} is still held by {pipe}; every get_buf needs a matching rls_buf"),
                });
            }
        }
        for (_, slot, c) in self.sync.sems.leftovers() {
            let core = self.op_at(c.last_set_line).map_or(CoreId::Aic, |(c, _)| c);
            unbalanced.push(Unbalanced {
                core,
                line: c.last_set_line,
                message: format!(
                    "{slot} still counts {} signal(s) that no wait consumed",
                    c.count
                ),
            });
        }
        let error = unbalanced.first().map(|u| {
            let op = self.op_at(u.line).map_or("", |(_, t)| t);
            PtoError::new(
                ErrorKind::Unbalanced,
                Some(u.core),
                u.line,
                op,
                format!("{} synchronisation object(s) left set or held at the end of the run; first: {}", unbalanced.len(), u.message),
            )
        });
        let cycles = self.end;
        self.report(cycles, unbalanced, error)
    }

    fn deadlock(mut self) -> Report {
        let t = self.t;
        let mut stuck: Vec<(Stuck, CoreId, usize, String)> = Vec::new();
        for ci in 0..self.cores.len() {
            let (id, su) = (self.cores[ci].id, self.cores[ci].su);
            if let Su::Blocked { idx } = su {
                let why = match self.su_execute(ci, idx, t) {
                    Ok(Step::Blocked(w)) => w,
                    _ => "an op that cannot complete".to_string(),
                };
                let core = &self.cores[ci];
                if let Some(e) = core.prog.get(idx) {
                    let later = core.prog.len().saturating_sub(core.pc);
                    let pipe = Timeline::lane_name(id, Pipe::S);
                    let waiting_on = format!(
                        "`{}` (line {}): {why}; the scalar unit is stalled, {later} later op(s) not issued",
                        e.text, e.line
                    );
                    stuck.push((Stuck { pipe, waiting_on }, id, e.line, e.text.clone()));
                }
            }
            for &p in id.pipes() {
                let (idx, queued) = {
                    let q = &self.cores[ci].pipes[p.index()];
                    match (q.running, q.queue.front()) {
                        (None, Some(&idx)) => (idx, q.queue.len()),
                        _ => continue,
                    }
                };
                let Some(e) = self.cores[ci].prog.get(idx).cloned() else {
                    continue;
                };
                let why = match execute(&mut self.sync, id, &e, idx, t) {
                    Ok(Step::Blocked(w)) => w,
                    _ => "an op that cannot complete".to_string(),
                };
                let behind = if queued > 1 {
                    format!("; {} op(s) queued behind it", queued - 1)
                } else {
                    String::new()
                };
                let waiting_on = format!("`{}` (line {}): {why}{behind}", e.text, e.line);
                stuck.push((
                    Stuck {
                        pipe: Timeline::lane_name(id, p),
                        waiting_on,
                    },
                    id,
                    e.line,
                    e.text,
                ));
            }
        }
        let (core, line, op) = stuck
            .first()
            .map_or((None, 0, String::new()), |(_, c, l, o)| {
                (Some(*c), *l, o.clone())
            });
        let mut e = PtoError::new(
            ErrorKind::Deadlock,
            core,
            line,
            &op,
            format!(
                "at cycle {t} no pipe can progress and nothing is in flight; {} stuck",
                stuck.len()
            ),
        );
        e.stuck = stuck.into_iter().map(|(s, ..)| s).collect();
        self.report(t, Vec::new(), Some(e))
    }
}
