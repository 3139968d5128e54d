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

mod plan;
pub use plan::SpreadTotals;
pub(crate) use plan::*;

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
mod tests;
