//! How a cycle is spread over host threads: the plan of each cycle, its measured payoff and
//! the totals reported at the end (docs/execution-model.md EM-20, EM-23).
use super::*;

/// How many of `threads` threads work of `ns` host nanoseconds pays for at `min_ns` each (all of
/// them when `min_ns` is 0).
pub(crate) fn worth_threads(ns: u64, min_ns: u64, threads: usize) -> usize {
    match min_ns {
        0 => threads,
        m => threads.min(usize::try_from(ns / m).unwrap_or(usize::MAX)),
    }
}

/// Host nanoseconds since `t0` (saturating).
pub(crate) fn ns_since(t0: std::time::Instant) -> u64 {
    u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// How a cycle is stepped: on how many threads, and whether it is *wide* — has at least
/// `2 * MIN_TILES_PER_THREAD` tiles with work, so it could be spread. Only wide cycles are
/// timed and make the estimate: a narrow cycle (a few cores stepping) says nothing of what the
/// next wide one costs. A wide cycle that is heavy only as it runs is caught by [`handoff`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    pub threads: usize,
    pub wide: bool,
}

impl Plan {
    pub const ONE: Plan = Plan {
        threads: 1,
        wide: false,
    };
}

/// The plan for cycle `now` on up to `threads` threads: a wide cycle is spread over as many
/// threads as get `min_ns` each of its estimate — the host time of the last wide cycle,
/// `last_ns`, as one thread spent it (every thread when `min_ns` is 0) — and have
/// [`MIN_TILES_PER_THREAD`] tiles with work each; fewer than two means the calling thread
/// alone. A spread cycle costs some microseconds more than its share of work (publishing the
/// job, the threads taking it up, the join, the slowest thread), more with more threads, so
/// only heavy cycles gain, and only from as many threads as they keep busy (measured on a
/// 16-core host: docs/performance.md). docs/execution-model.md EM-20.
pub(crate) fn plan_spread(
    threads: usize,
    last_ns: u64,
    min_ns: u64,
    due: &[u64],
    busy: &[bool],
    now: u64,
) -> Plan {
    if threads < 2 {
        return Plan::ONE;
    }
    let n = worth_threads(last_ns, min_ns, threads);
    // Tiles with work this cycle: enough to call it wide, and no more than `n` threads use.
    let wide_at = 2 * MIN_TILES_PER_THREAD;
    let need = n.saturating_mul(MIN_TILES_PER_THREAD).max(wide_at);
    let mut with_work = 0;
    for (d, b) in due.iter().zip(busy) {
        if *d <= now || *b {
            with_work += 1;
            if with_work >= need {
                break;
            }
        }
    }
    let wide = with_work >= wide_at;
    Plan {
        threads: if wide && n >= 2 {
            (with_work / MIN_TILES_PER_THREAD).clamp(2, n)
        } else {
            1
        },
        wide,
    }
}

/// Where the host time of the spread cycles went, summed over them ([`crate::Chip::spread`]):
/// what a user tuning `--threads` / `BHEMU_SPREAD_NS` on a given host needs to see whether
/// the threads work or wait.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpreadTotals {
    /// Cycles spread over more than one thread.
    pub cycles: u64,
    /// Of those, cycles begun on the calling thread whose rest was handed to the pool once
    /// they turned out heavy (`handoff`).
    pub handed_off: u64,
    /// Threads asked for, summed over those cycles (over `cycles`: the mean width).
    pub threads: u64,
    /// Host time of those cycles from handing tiles to the pool on: the serial parts after it
    /// (the outboxes entering the NoC, the NoC's tick) included.
    pub tick_ns: u64,
    /// The part of `tick_ns` from handing the cycle to the pool to the join.
    pub pool_ns: u64,
    /// The threads' own time stepping tiles, summed: what one thread would have spent.
    pub work_ns: u64,
}

impl SpreadTotals {
    /// One line for `bhemu bench chip`: mean width, µs per spread cycle whole and in the
    /// pool, and how much of the pool's thread-time was work.
    pub fn summary(&self) -> String {
        if self.cycles == 0 {
            return "no cycle spread".to_string();
        }
        let per = |ns: u64| ns as f64 / 1e3 / self.cycles as f64;
        let width = self.threads as f64 / self.cycles as f64;
        let busy = if self.pool_ns > 0 {
            100.0 * self.work_ns as f64 / (self.pool_ns as f64 * width)
        } else {
            0.0
        };
        format!(
            "{} cycles spread ({} of them from the middle) over {width:.1} threads on average: \
             {:.1} µs each, {:.1} µs of it in the pool, whose threads worked {busy:.0} % of that \
             time ({:.1} µs of work)",
            self.cycles,
            self.handed_off,
            per(self.tick_ns),
            per(self.pool_ns),
            per(self.work_ns),
        )
    }
}

/// Whether spreading has been paying on this host, measured: the wall time of wide cycles run on
/// one thread and of spread ones, each as a running average (an eighth of each new cycle). On a
/// host whose second core is busy with something else (a loaded VM: seen here, a 2-core VM whose
/// spread firmware cycles for some minutes took 2.3× their one-thread time), spread cycles come out
/// slower than one thread; then no wide cycle is spread for the next [`Payoff::MIN_BACKOFF`] wide
/// cycles, twice as many each time it is still so (at most [`Payoff::MAX_BACKOFF`];
/// docs/execution-model.md EM-23). While spreading pays, one wide cycle in [`Payoff::PROBE_EVERY`]
/// runs on one thread to keep the one-thread average current. With the threshold at 0
/// (`BHEMU_SPREAD_NS=0`) every wide cycle is spread and this is not consulted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Payoff {
    single: Average,
    spread: Average,
    /// Wide cycles seen.
    pub(super) wide: u64,
    /// No spreading before this count of wide cycles.
    pub(super) off_until: u64,
    /// The next back-off, in wide cycles (0: [`Payoff::MIN_BACKOFF`]).
    pub(super) backoff: u64,
}

/// A running average of host nanoseconds, and how many cycles it has seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Average {
    ns: u64,
    samples: u32,
}

impl Average {
    fn add(&mut self, ns: u64) {
        self.ns = match self.samples {
            0 => ns,
            _ => self.ns - self.ns / 8 + ns / 8,
        };
        self.samples = self.samples.saturating_add(1);
    }
}

impl Payoff {
    /// One wide cycle in this many runs on one thread while spreading pays.
    pub const PROBE_EVERY: u64 = 16;
    /// Samples of each kind before the two are compared.
    pub const MIN_SAMPLES: u32 = 4;
    pub const MIN_BACKOFF: u64 = 64;
    pub const MAX_BACKOFF: u64 = 4096;

    /// A wide cycle begins that the plan would spread (`planned`) or not: may it be spread?
    pub fn allow(&mut self, planned: bool) -> bool {
        self.wide += 1;
        planned && self.wide >= self.off_until && !self.wide.is_multiple_of(Self::PROBE_EVERY)
    }

    /// A wide cycle took `ns` of wall time, spread or on one thread.
    pub fn record(&mut self, spread: bool, ns: u64) {
        if !spread {
            self.single.add(ns);
            return;
        }
        self.spread.add(ns);
        if self.single.samples < Self::MIN_SAMPLES || self.spread.samples < Self::MIN_SAMPLES {
            return;
        }
        if self.spread.ns >= self.single.ns {
            let b = self.backoff.max(Self::MIN_BACKOFF);
            self.off_until = self.wide + b;
            self.backoff = (2 * b).min(Self::MAX_BACKOFF);
            // Judge the next spell of spreading on its own cycles.
            self.spread = Average::default();
        } else {
            self.backoff = 0;
        }
    }
}
