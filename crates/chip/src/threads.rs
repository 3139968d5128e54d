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
//! [`default_threads`]). Results and cycle counts do not depend on it (the `schedule_digest`
//! test compares 1, 2 and 4 threads with the reference schedule). How many threads a cycle is
//! spread over is a host-time decision that changes nothing else ([`spread_threads`]): as many
//! as give each at least [`SPREAD_MIN_NS`] of the previous busy cycle's host time and
//! [`MIN_TILES_PER_THREAD`] tiles with work, at most the thread count; one means the calling
//! thread alone. Spawning and joining a thread costs about ten microseconds, more than a
//! whole 140-tile cycle of firmware (≈ 10 µs), but little against a cycle of 140 busy Matrix
//! Units (hundreds of µs) — and on a many-core machine a cycle is not cut finer than pays.
//!
//! Hooks (trace events, breakpoints) that observe a core's step belong in
//! [`Tile::step_cores_on`] (per tile, on whichever thread runs it) and must only touch the
//! tile; anything chip-wide belongs after the join, in `Chip::tick`.
use bhemu_noc::TileNoc;

use crate::error::{ChipError, ErrorKind};
use crate::tile::Tile;

/// The environment variable that sets the host thread count when the caller does not.
pub const THREADS_ENV: &str = "BHEMU_THREADS";

/// Fewest tiles with work per thread before a cycle is spread over threads.
pub const MIN_TILES_PER_THREAD: usize = 8;

/// Least host time (ns) of the previous busy cycle, as one thread spent it, per thread a cycle
/// is spread over: with a quantum of one cycle (functional timing, docs/noc-lookahead.md)
/// every spread cycle spawns and joins scoped threads (≈ 10 µs each), so only heavy cycles
/// gain, and only from as many threads as they can keep busy.
pub const SPREAD_MIN_NS: u64 = 100_000;

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

/// What one tile did in a cycle.
#[derive(Default)]
struct TileCycle {
    written: bool,
    visited: bool,
    core_err: Option<ChipError>,
    cp_err: Option<ChipError>,
}

/// One tile's fast-schedule cycle: its cores if due, then its coprocessor if busy (the same
/// per-tile steps as the one-thread loop in `Chip::tick`).
fn tile_cycle(
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
            out.core_err = Some(e);
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
        out.cp_err = r.err();
    }
    out
}

/// How many of `threads` threads to spread cycle `now` over (1: the calling thread alone):
/// as many as get `min_ns` each of the previous busy cycle's host time (`last_ns`, as one
/// thread spent it; every thread when `min_ns` is 0) and [`MIN_TILES_PER_THREAD`] tiles with
/// work each.
pub(crate) fn spread_threads(
    threads: usize,
    last_ns: u64,
    min_ns: u64,
    due: &[u64],
    busy: &[bool],
    now: u64,
) -> usize {
    let by_cost = match min_ns {
        0 => threads,
        m => usize::try_from(last_ns / m).unwrap_or(usize::MAX),
    };
    let n = threads.min(by_cost);
    if n < 2 {
        return 1;
    }
    // Tiles with work this cycle, counted no further than `n` threads could use.
    let need = n.saturating_mul(MIN_TILES_PER_THREAD);
    let mut with_work = 0;
    for (d, b) in due.iter().zip(busy) {
        if *d <= now || *b {
            with_work += 1;
            if with_work >= need {
                break;
            }
        }
    }
    (with_work / MIN_TILES_PER_THREAD).clamp(1, n)
}

/// What a spread cycle did: some L1 was written, no tile had work, and the host time the
/// threads spent stepping tiles, summed (what one thread would have spent, without the cost of
/// spawning and joining: the estimate [`spread_threads`] divides).
pub(crate) struct Spread {
    pub written: bool,
    pub quiet: bool,
    pub work_ns: u64,
}

/// The cores-and-coprocessors part of fast-schedule cycle `now` for every tile, on up to `threads`
/// host threads. `faces[i]` must be tile `i`'s NIU pair. On failure: the first error in the
/// one-thread order (every core error, by tile, before every coprocessor error) — the state of the
/// other tiles then may be a cycle ahead of where the one-thread loop stops.
pub(crate) fn spread_cycle(
    tiles: &mut [Tile],
    faces: Vec<TileNoc<'_>>,
    due: &mut [u64],
    busy: &mut [bool],
    now: u64,
    threads: usize,
) -> Result<Spread, ChipError> {
    let mut work: Vec<_> = tiles
        .iter_mut()
        .zip(faces)
        .zip(due.iter_mut().zip(busy.iter_mut()))
        .map(|((t, f), (d, b))| (t, f, d, b))
        .collect();
    let chunk = work.len().div_ceil(threads.max(1)).max(1);
    let run = |part: &mut [(&mut Tile, TileNoc<'_>, &mut u64, &mut bool)]| {
        let t0 = std::time::Instant::now();
        let r: Vec<TileCycle> = part
            .iter_mut()
            .map(|(t, f, d, b)| tile_cycle(t, f, d, b, now))
            .collect();
        (
            r,
            u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX),
        )
    };
    let mut work_ns = 0u64;
    let results: Vec<TileCycle> = std::thread::scope(|s| {
        let mut parts = work.chunks_mut(chunk);
        let first = parts.next();
        let handles: Vec<_> = parts.map(|p| s.spawn(move || run(p))).collect();
        let (mut all, ns) = first.map(run).unwrap_or_default();
        work_ns = ns;
        for h in handles {
            match h.join() {
                Ok((r, ns)) => {
                    all.extend(r);
                    work_ns = work_ns.saturating_add(ns);
                }
                Err(_) => all.push(TileCycle {
                    core_err: Some(ChipError::new(
                        ErrorKind::Internal,
                        "a host thread stepping tiles panicked",
                    )),
                    ..TileCycle::default()
                }),
            }
        }
        all
    });
    let mut written = false;
    let mut quiet = true;
    let mut cp_err = None;
    for r in results {
        written |= r.written;
        quiet &= !r.visited;
        if let Some(e) = r.core_err {
            return Err(e);
        }
        if cp_err.is_none() {
            cp_err = r.cp_err;
        }
    }
    match cp_err {
        Some(e) => Err(e),
        None => Ok(Spread {
            written,
            quiet,
            work_ns,
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
    fn cycles_spread_over_as_many_threads_as_their_cost_pays_for() {
        let due = vec![0u64; 4 * MIN_TILES_PER_THREAD];
        let busy = vec![false; 4 * MIN_TILES_PER_THREAD];
        let s = |threads, last| spread_threads(threads, last, SPREAD_MIN_NS, &due, &busy, 5);
        assert_eq!(s(2, 2 * SPREAD_MIN_NS - 1), 1, "a cheap previous cycle");
        assert_eq!(s(2, 2 * SPREAD_MIN_NS), 2, "a heavy previous cycle");
        assert_eq!(s(16, 3 * SPREAD_MIN_NS + 5), 3, "no finer than pays");
        assert_eq!(s(16, u64::MAX), 4, "at most tiles / MIN_TILES_PER_THREAD");
        assert_eq!(s(1, u64::MAX), 1, "one thread");
        assert_eq!(spread_threads(2, 0, 0, &due, &busy, 5), 2, "threshold 0");
        assert_eq!(
            spread_threads(2, u64::MAX, 0, &due[..3], &busy[..3], 5),
            1,
            "too few tiles with work"
        );
    }

    #[test]
    fn few_busy_tiles_stay_on_one_thread() {
        let due = vec![0u64; 2 * MIN_TILES_PER_THREAD];
        let idle = vec![u64::MAX; 2 * MIN_TILES_PER_THREAD];
        let busy = vec![false; 2 * MIN_TILES_PER_THREAD];
        assert_eq!(spread_threads(2, 0, 0, &due, &busy, 5), 2);
        assert_eq!(spread_threads(1, 0, 0, &due, &busy, 5), 1);
        assert_eq!(spread_threads(2, 0, 0, &due[1..], &busy[1..], 5), 1);
        assert_eq!(spread_threads(2, 0, 0, &idle, &busy, 5), 1);
    }
}
