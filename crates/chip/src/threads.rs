//! Host threads: the fast schedule's cycle with its tiles spread over several host threads.
//!
//! Within one cycle a tile's cores and coprocessor touch only that tile and its own two NIUs
//! ([`bhemu_noc::TileNoc`]); the requests they issue wait in the tile's outbox. Nothing one
//! tile does in a cycle is visible to another before the NoC's tick at the end of the cycle
//! (docs/noc-lookahead.md clauses 1-3: the lookahead of functional timing is one cycle), so the
//! tiles of a cycle can be stepped in any order, on any thread, with the same result. After the
//! threads join, the chip submits every outbox to the NoC in tile (slot) order — requests of
//! one tile are already in core, then program order — which is exactly the order the one-thread
//! loop issues them in (clause 4). The NoC tick, host MMIO and ABI accesses run on the calling
//! thread between cycles (the barrier).
//!
//! Thread count: [`THREADS_ENV`] or `--threads`; default the machine's cores (see
//! [`default_threads`]). Results and cycle counts do not depend on it (docs/execution-model.md
//! EM-9: the `schedule_digest` tests compare 1, 2 and 4 threads with the reference schedule). How
//! many threads a cycle is spread over is a host-time decision that changes nothing else
//! (`plan_spread`): a cycle with at least `2 * MIN_TILES_PER_THREAD` tiles with work goes to as
//! many threads as give each at least [`SPREAD_MIN_NS`] of the last such cycle's host time and
//! [`MIN_TILES_PER_THREAD`] tiles with work, at most the thread count; one means the calling thread
//! alone. The threads are a [`Pool`] that lives with the chip: handing a cycle to it costs a few
//! microseconds, which a 140-tile firmware cycle (≈ 10 µs of work) does not repay but a cycle of
//! 140 busy Matrix Units (≈ 60 µs) does. Within a spread cycle each thread starts on its own run of
//! tiles, the same every cycle (`Run`). A cycle the plan keeps on the calling thread can still hand
//! its remaining tiles to the pool once it turns out heavy (`handoff`, `chip/fast_cycle.rs`).
//!
//! The rules, each with its tests: docs/execution-model.md EM-20 (the plan), EM-21 (the pool
//! and the runs of tiles), EM-22 (hand-off from the middle), EM-23 (the measured payoff),
//! EM-24 (the barrier and errors).
//!
//! Hooks (trace events, breakpoints) that observe a core's step belong in
//! [`Tile::step_cores_on`] (per tile, on whichever thread runs it) and must only touch the
//! tile; anything chip-wide belongs after the join, in `Chip::tick`.
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use bhemu_noc::TileNoc;

use crate::error::{ChipError, ErrorKind};
use crate::pool::Pool;
use crate::tile::Tile;

/// The environment variable that sets the host thread count when the caller does not.
pub const THREADS_ENV: &str = "BHEMU_THREADS";

/// Fewest tiles with work per thread before a cycle is spread over threads.
pub const MIN_TILES_PER_THREAD: usize = 8;

/// Least host time (ns) of the last wide cycle, as one thread spent it, per thread a cycle is
/// spread over: with a quantum of one cycle (functional timing, docs/noc-lookahead.md) every spread
/// cycle is handed to the pool and joined, which costs some microseconds, more with more threads.
/// Measured on a 16-core host (docs/performance.md, rows "host threads"): 10 µs keeps boot and
/// multicast (≈ 10–15 µs cycles) on one thread and spreads compute (≈ 60 µs) over six.
pub const SPREAD_MIN_NS: u64 = 10_000;

/// The environment variable that sets the spread threshold ([`SPREAD_MIN_NS`]) in host
/// nanoseconds per thread (0: spread every wide cycle over every thread): a host whose threads
/// take up and finish a job sooner may want less.
pub const SPREAD_ENV: &str = "BHEMU_SPREAD_NS";

/// [`SPREAD_ENV`] when set (a non-negative integer; anything else is an error), else
/// [`SPREAD_MIN_NS`].
pub fn spread_from_env() -> Result<u64, ChipError> {
    match std::env::var(SPREAD_ENV) {
        Ok(v) => v.trim().parse::<u64>().map_err(|_| {
            ChipError::new(
                ErrorKind::InvalidInput,
                format!("{SPREAD_ENV}: bad threshold `{v}` (expected nanoseconds, an integer ≥ 0)"),
            )
        }),
        Err(_) => Ok(SPREAD_MIN_NS),
    }
}

/// The thread count when none is given: the machine's cores ([`machine_threads`]). Cheap
/// cycles stay on the calling thread ([`SPREAD_MIN_NS`]), so light workloads (boot, idle
/// loops, polling through tt-umd) run as with one thread, and heavy ones (many busy
/// coprocessors) use the cores.
pub fn default_threads() -> usize {
    machine_threads()
}

/// The machine's cores (`std::thread::available_parallelism`), 1 if unknown.
pub fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `n` as a thread count: a positive integer, or `cores` for [`machine_threads`].
pub fn parse_threads(s: &str) -> Result<usize, ChipError> {
    if s.trim() == "cores" {
        return Ok(machine_threads());
    }
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ChipError::new(
            ErrorKind::InvalidInput,
            format!("bad thread count `{s}` (expected a positive integer or `cores`)"),
        )),
    }
}

/// [`THREADS_ENV`] when set (a bad value is an error), else [`default_threads`].
pub fn threads_from_env() -> Result<usize, ChipError> {
    match std::env::var(THREADS_ENV) {
        Ok(v) => parse_threads(&v).map_err(|e| {
            ChipError::new(
                ErrorKind::InvalidInput,
                format!("{THREADS_ENV}: {}", e.message),
            )
        }),
        Err(_) => Ok(default_threads()),
    }
}

/// What one tile did in a cycle (errors boxed: 140 of these are made and read every spread
/// cycle, and errors are rare).
#[derive(Default)]
struct TileCycle {
    written: bool,
    visited: bool,
    core_err: Option<Box<ChipError>>,
    cp_err: Option<Box<ChipError>>,
    /// Its outbox holds requests for the NoC.
    requests: bool,
}

/// One tile's fast-schedule cycle: its cores if due, then its coprocessor if busy (the same
/// per-tile steps as the one-thread loop in `Chip::tick`), and whether it left requests.
fn tile_cycle(
    t: &mut Tile,
    face: &mut TileNoc<'_>,
    due: &mut u64,
    busy: &mut bool,
    now: u64,
) -> TileCycle {
    let mut out = steps(t, face, due, busy, now);
    out.requests = t.has_requests();
    out
}

fn steps(
    t: &mut Tile,
    face: &mut TileNoc<'_>,
    due: &mut u64,
    busy: &mut bool,
    now: u64,
) -> TileCycle {
    let mut out = TileCycle::default();
    if *due <= now {
        out.visited = true;
        let w = t.l1_writes();
        let r = t.step_cores_on(now, face);
        out.written |= t.l1_writes() != w;
        *due = t.next_due(now);
        *busy |= t.coprocessor_busy();
        if let Err(e) = r {
            out.core_err = Some(Box::new(e));
            return out;
        }
    }
    if *busy {
        out.visited = true;
        let w = t.l1_writes();
        let r = t.step_coprocessor(now);
        out.written |= t.l1_writes() != w;
        *busy = t.coprocessor_busy();
        *due = (*due).min(now + 1);
        out.cp_err = r.err().map(Box::new);
    }
    out
}

/// What one tile did in a quantum ([`tile_quantum`]).
#[derive(Default)]
pub(crate) struct TileQuantum {
    /// The last cycle the tile completed (cores and coprocessor), `None` if it ran none.
    pub last: Option<u64>,
    pub written: bool,
    pub visited: bool,
    /// Its first error: the cycle, whether a core's (else the coprocessor's), the error.
    pub err: Option<(u64, bool, Box<ChipError>)>,
}

/// One tile's part of a quantum (docs/noc-lookahead.md; docs/execution-model.md EM-25): cycles
/// `from..to` of the fast schedule, skipping those with nothing due, on the tile's own NIU pair. It
/// stops after the cycle in which its cores issued a NoC request (the NoC must accept it in that
/// cycle's tick), after an error, or — with `done` — after a cycle that wrote L1 and left `done`
/// true (the host may have to stop there).
pub(crate) fn tile_quantum(
    t: &mut Tile,
    face: &mut TileNoc<'_>,
    due: &mut u64,
    busy: &mut bool,
    from: u64,
    to: u64,
    done: Option<&(dyn Fn(&Tile) -> bool + Sync)>,
) -> TileQuantum {
    let mut out = TileQuantum::default();
    let mut c = from;
    while c < to {
        if *due > c && !*busy {
            // Nothing happens in this tile before its cores are due.
            if *due >= to {
                break;
            }
            c = *due;
        }
        let r = steps(t, face, due, busy, c);
        out.written |= r.written;
        out.visited |= r.visited;
        out.last = Some(c);
        if let Some(e) = r.core_err {
            out.err = Some((c, true, e));
            return out;
        }
        if let Some(e) = r.cp_err {
            out.err = Some((c, false, e));
            return out;
        }
        if t.has_requests() || (r.written && done.is_some_and(|d| d(t))) {
            return out;
        }
        c += 1;
    }
    out.last = Some(to - 1);
    out
}

/// How many of `threads` threads work of `ns` host nanoseconds pays for at `min_ns` each (all of
/// them when `min_ns` is 0).
fn worth_threads(ns: u64, min_ns: u64, threads: usize) -> usize {
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
    wide: u64,
    /// No spreading before this count of wide cycles.
    off_until: u64,
    /// The next back-off, in wide cycles (0: [`Payoff::MIN_BACKOFF`]).
    backoff: u64,
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

/// A spread cycle's first error in the one-thread order, and whether it is a core's (every core
/// error, by tile, comes before every coprocessor error).
pub(crate) struct SpreadError {
    pub error: ChipError,
    pub core: bool,
}

/// Whether to hand the rest of a cycle begun on the calling thread to the pool, and on how
/// many threads: `visited` tiles took `elapsed_ns`, `rest` tiles are still due. At that rate
/// the rest is worth `elapsed_ns / visited * rest`; it goes to as many threads as get `min_ns`
/// of that each (every thread when `min_ns` is 0), at most `rest` and `threads`, and only when
/// that is at least two (docs/execution-model.md EM-22).
pub(crate) fn handoff(
    elapsed_ns: u64,
    visited: usize,
    rest: usize,
    threads: usize,
    min_ns: u64,
) -> Option<usize> {
    let (Ok(v), Ok(r)) = (u64::try_from(visited), u64::try_from(rest)) else {
        return None;
    };
    if v == 0 {
        return None;
    }
    let worth = (elapsed_ns / v).saturating_mul(r);
    let w = worth_threads(worth, min_ns, threads).min(rest);
    (w >= 2).then_some(w)
}

/// What a spread cycle did: some L1 was written, no tile had work, the host time the threads
/// spent stepping tiles, summed (what one thread would have spent, without the cost of handing
/// out and joining: the estimate [`plan_spread`] divides), and the time in the pool.
pub(crate) struct Spread {
    pub written: bool,
    pub quiet: bool,
    pub work_ns: u64,
    pub pool_ns: u64,
}

/// Tiles a thread takes at a time.
const BLOCK: usize = 4;

/// One thread's own run of blocks, taken from the front by its owner and, once the owner's
/// own are done, by any thread that has finished its own (so a thread that comes late, or got
/// the busier tiles, holds no one up). Owners keep their tiles from cycle to cycle — a tile's
/// harts, decode cache and hot L1 lines stay in one core's cache — which on a 16-core host
/// made the difference between spreading a firmware cycle being a loss and a gain.
#[repr(align(64))]
struct Run {
    next: AtomicUsize,
    end: usize,
}

/// One tile's part of a spread job: what it is stepped with and what the job made of it.
type Item<'t, 'n, R> = (&'t mut Tile, TileNoc<'n>, &'t mut u64, &'t mut bool, R);

/// A run of the chip's tiles with what a spread cycle steps them with: tile `i`'s NIU pair
/// (`faces[i]`), when its cores are next due and whether its coprocessor is busy.
pub(crate) struct TileRun<'t, 'n> {
    pub tiles: &'t mut [Tile],
    pub faces: Vec<TileNoc<'n>>,
    pub due: &'t mut [u64],
    pub busy: &'t mut [bool],
}

/// What one tile did, per tile in tile order, with the threads' own time stepping tiles,
/// summed, and the time from handing the job to the pool to the join.
pub(crate) struct Spreaded<R> {
    pub each: Vec<R>,
    pub work_ns: u64,
    pub pool_ns: u64,
}

/// A step of one tile on its own NIU pair, due cycle and coprocessor flag.
pub(crate) type TileJob<'f, R> =
    &'f (dyn Fn(&mut Tile, &mut TileNoc<'_>, &mut u64, &mut bool) -> R + Sync);

/// Runs `job` on every tile of `run` on up to `width` threads of `pool` (the calling thread
/// among them). Which thread steps which tile varies; each thread starts on its own run of
/// blocks, the same from call to call, and takes other runs' blocks once its own are done
/// (docs/execution-model.md EM-21). `None` if a thread panicked.
pub(crate) fn spread_each<R: Default + Send>(
    pool: &Pool,
    run: TileRun<'_, '_>,
    width: usize,
    job: TileJob<'_, R>,
) -> Option<Spreaded<R>> {
    let mut work: Vec<Item<'_, '_, R>> = run
        .tiles
        .iter_mut()
        .zip(run.faces)
        .zip(run.due.iter_mut().zip(run.busy.iter_mut()))
        .map(|((t, f), (d, b))| (t, f, d, b, R::default()))
        .collect();
    let work_ns = AtomicU64::new(0);
    let pool_ns;
    {
        let blocks: Vec<Mutex<&mut [Item<'_, '_, R>]>> =
            work.chunks_mut(BLOCK).map(Mutex::new).collect();
        let n = blocks.len();
        let width = width.clamp(1, n.max(1));
        let runs: Vec<Run> = (0..width)
            .map(|r| Run {
                next: AtomicUsize::new(r * n / width),
                end: (r + 1) * n / width,
            })
            .collect();
        let share = |thread: usize| {
            let t0 = std::time::Instant::now();
            for k in 0..width {
                let Some(run) = runs.get((thread + k) % width) else {
                    break;
                };
                loop {
                    let at = run.next.fetch_add(1, Ordering::Relaxed);
                    let Some(block) = blocks.get(at).filter(|_| at < run.end) else {
                        break;
                    };
                    let mut block = block.lock().unwrap_or_else(PoisonError::into_inner);
                    for (t, f, d, b, out) in block.iter_mut() {
                        *out = job(t, f, d, b);
                    }
                }
            }
            let ns = ns_since(t0);
            work_ns.fetch_add(ns, Ordering::Relaxed);
        };
        let t0 = std::time::Instant::now();
        let r = pool.broadcast(width, &share);
        pool_ns = ns_since(t0);
        r.ok()?;
    }
    Some(Spreaded {
        each: work.into_iter().map(|(_, _, _, _, r)| r).collect(),
        work_ns: work_ns.into_inner(),
        pool_ns,
    })
}

/// The cores-and-coprocessors part of fast-schedule cycle `now` for every tile of `run`, on up
/// to `threads` threads of `pool` ([`spread_each`]). What each tile did is read back in tile
/// order, and the tiles that left requests in their outboxes are added to `submit` in that
/// order (also on failure: the barrier submits them). On failure: the first error in the
/// one-thread order (every core error, by tile, before every coprocessor error) — the state of
/// the other tiles then may be a cycle ahead of where the one-thread loop stops
/// (docs/execution-model.md EM-24).
pub(crate) fn spread_cycle(
    pool: &Pool,
    run: TileRun<'_, '_>,
    now: u64,
    threads: usize,
    submit: &mut Vec<usize>,
) -> Result<Spread, SpreadError> {
    let job =
        |t: &mut Tile, f: &mut TileNoc<'_>, d: &mut u64, b: &mut bool| tile_cycle(t, f, d, b, now);
    let Some(done) = spread_each(pool, run, threads, &job) else {
        return Err(SpreadError {
            error: ChipError::new(ErrorKind::Internal, "a host thread stepping tiles panicked"),
            core: true,
        });
    };
    let mut written = false;
    let mut quiet = true;
    let mut core_err = None;
    let mut cp_err = None;
    for (i, r) in done.each.into_iter().enumerate() {
        written |= r.written;
        quiet &= !r.visited;
        if r.requests {
            submit.push(i);
        }
        if core_err.is_none() {
            core_err = r.core_err;
        }
        if cp_err.is_none() {
            cp_err = r.cp_err;
        }
    }
    let err = match (core_err, cp_err) {
        (Some(e), _) => Some(SpreadError {
            error: *e,
            core: true,
        }),
        (None, Some(e)) => Some(SpreadError {
            error: *e,
            core: false,
        }),
        (None, None) => None,
    };
    match err {
        Some(e) => Err(e),
        None => Ok(Spread {
            written,
            quiet,
            work_ns: done.work_ns,
            pool_ns: done.pool_ns,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_parse_as_positive_integers() {
        assert_eq!(parse_threads("4").ok(), Some(4));
        assert_eq!(parse_threads(" 1 ").ok(), Some(1));
        assert_eq!(parse_threads("cores").ok(), Some(machine_threads()));
        for bad in ["0", "-1", "two", ""] {
            let e = parse_threads(bad).expect_err("not a thread count");
            assert_eq!(e.kind, ErrorKind::InvalidInput);
            assert!(e.message.contains(&format!("`{bad}`")), "{}", e.message);
        }
    }

    /// Tiles move to the threads that step them, and libttsim may hold the chip on any
    /// thread: both must be `Send` (a compile-time check).
    #[test]
    fn chip_and_tiles_are_send() {
        fn send<T: Send>() {}
        send::<Tile>();
        send::<crate::Chip>();
        send::<TileNoc<'static>>();
    }

    #[test]
    fn em20_wide_cycles_spread_over_as_many_threads_as_their_cost_pays_for() {
        let due = vec![0u64; 4 * MIN_TILES_PER_THREAD];
        let busy = vec![false; 4 * MIN_TILES_PER_THREAD];
        let p = |threads, last| plan_spread(threads, last, SPREAD_MIN_NS, &due, &busy, 5);
        let wide = |threads| Plan {
            threads,
            wide: true,
        };
        assert_eq!(
            p(2, 2 * SPREAD_MIN_NS - 1),
            wide(1),
            "a light estimate: one thread"
        );
        assert_eq!(p(2, 2 * SPREAD_MIN_NS), wide(2), "a heavy estimate");
        assert_eq!(p(16, 3 * SPREAD_MIN_NS + 5), wide(3), "no finer than pays");
        assert_eq!(
            p(16, u64::MAX),
            wide(4),
            "at most tiles / MIN_TILES_PER_THREAD"
        );
        assert_eq!(p(1, u64::MAX), Plan::ONE, "one thread");
        assert_eq!(plan_spread(2, 0, 0, &due, &busy, 5), wide(2), "threshold 0");
    }

    #[test]
    fn em22_the_rest_of_a_cycle_goes_to_as_many_threads_as_its_promised_work_pays_for() {
        // One tile took 1 ms: 139 more are worth 139 ms.
        assert_eq!(handoff(1_000_000, 1, 139, 16, SPREAD_MIN_NS), Some(16));
        // 100 ns each: 139 more are worth 13.9 µs, one thread's worth.
        assert_eq!(handoff(100, 1, 139, 16, SPREAD_MIN_NS), None);
        // 40 µs over 4 tiles, 3 more: 30 µs, three threads' worth, and three tiles.
        assert_eq!(handoff(40_000, 4, 3, 16, SPREAD_MIN_NS), Some(3));
        assert_eq!(
            handoff(40_000, 4, 1, 16, SPREAD_MIN_NS),
            None,
            "one tile left"
        );
        assert_eq!(
            handoff(u64::MAX, 1, 139, 1, SPREAD_MIN_NS),
            None,
            "one thread"
        );
        assert_eq!(handoff(u64::MAX, 0, 139, 16, SPREAD_MIN_NS), None);
        assert_eq!(handoff(0, 1, 5, 4, 0), Some(4), "threshold 0: every thread");
    }

    /// Feeds `n` wide cycles the plan would spread, spread ones taking `spread_ns` and the
    /// others `single_ns`; returns how many were spread.
    fn feed(p: &mut Payoff, n: u64, single_ns: u64, spread_ns: u64) -> u64 {
        let mut spread = 0;
        for _ in 0..n {
            let s = p.allow(true);
            spread += u64::from(s);
            p.record(s, if s { spread_ns } else { single_ns });
        }
        spread
    }

    #[test]
    fn em23_spreading_that_pays_goes_on_with_one_probe_in_sixteen() {
        let mut p = Payoff::default();
        for _ in 0..Payoff::MIN_SAMPLES {
            p.record(false, 60_000);
        }
        assert_eq!(
            feed(&mut p, 160, 60_000, 25_000),
            150,
            "every 16th on one thread"
        );
        assert!(
            !p.allow(false),
            "a cycle the plan keeps on one thread stays there"
        );
    }

    #[test]
    fn em23_spreading_slower_than_one_thread_backs_off_longer_each_time() {
        let mut p = Payoff::default();
        for _ in 0..Payoff::MIN_SAMPLES {
            p.record(false, 10_000);
        }
        // Four spread cycles at 20 µs against 10 µs on one thread: off for 64 wide cycles.
        assert_eq!(feed(&mut p, 4, 10_000, 20_000), 4);
        assert_eq!(feed(&mut p, 63, 10_000, 20_000), 0, "backing off");
        // Spread again (less the probes) until four spread samples show it still loses ...
        let again = feed(&mut p, 5, 10_000, 20_000);
        assert_eq!(again, 4);
        // ... then off for 128 (the back-off counts from the cycle that judged it, the 4th).
        assert_eq!(feed(&mut p, 126, 10_000, 20_000), 0);
        assert!(feed(&mut p, 8, 10_000, 20_000) > 0);
        // Once spreading pays again, the back-off starts from 64 next time.
        let mut q = Payoff::default();
        for _ in 0..Payoff::MIN_SAMPLES {
            q.record(false, 10_000);
        }
        feed(&mut q, 4, 10_000, 20_000);
        feed(&mut q, 63, 10_000, 20_000);
        feed(&mut q, 40, 10_000, 5_000);
        assert_eq!(q.backoff, 0);
    }

    #[test]
    fn spread_summary_divides_by_cycles_and_threads() {
        assert_eq!(SpreadTotals::default().summary(), "no cycle spread");
        let t = SpreadTotals {
            cycles: 10,
            handed_off: 3,
            threads: 40,
            tick_ns: 300_000,
            pool_ns: 200_000,
            work_ns: 600_000,
        };
        // 30 µs per cycle, 20 in the pool; 4 threads x 20 µs = 80 µs of thread-time, 60 work.
        assert_eq!(
            t.summary(),
            "10 cycles spread (3 of them from the middle) over 4.0 threads on average: 30.0 µs \
             each, 20.0 µs of it in the pool, whose threads worked 75 % of that time (60.0 µs of \
             work)"
        );
    }

    #[test]
    fn em20_narrow_cycles_stay_on_one_thread_and_are_not_timed() {
        let due = vec![0u64; 2 * MIN_TILES_PER_THREAD];
        let idle = vec![u64::MAX; 2 * MIN_TILES_PER_THREAD];
        let busy = vec![false; 2 * MIN_TILES_PER_THREAD];
        let cp = vec![true; 2 * MIN_TILES_PER_THREAD];
        let wide2 = Plan {
            threads: 2,
            wide: true,
        };
        assert_eq!(plan_spread(2, 0, 0, &due, &busy, 5), wide2);
        assert_eq!(
            plan_spread(2, 0, 0, &idle, &cp, 5),
            wide2,
            "busy coprocessors count"
        );
        assert_eq!(plan_spread(2, 0, 0, &due[1..], &busy[1..], 5), Plan::ONE);
        assert_eq!(plan_spread(2, 0, 0, &idle, &busy, 5), Plan::ONE);
        assert_eq!(plan_spread(2, 0, 0, &due, &busy, 6 + u64::MAX / 2), wide2);
        assert_eq!(plan_spread(2, 0, 0, &idle, &busy, u64::MAX - 1), Plan::ONE);
    }
}
