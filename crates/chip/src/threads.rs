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
//! test compares 1, 2 and 4 threads with the reference schedule). Whether a cycle is spread is
//! a host-time decision that changes nothing else: a cycle runs on the calling thread when
//! fewer than [`MIN_TILES_PER_THREAD`] tiles per thread have work, or when the previous busy
//! cycle cost less than [`SPREAD_MIN_NS`] of host time — spawning and joining the threads
//! costs tens of microseconds, more than a whole 140-tile cycle of firmware (≈ 10 µs), but
//! little against a cycle of 140 busy Matrix Units (hundreds of µs).
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

/// Least host time (ns) the previous busy cycle must have cost, on one thread, before the next
/// is spread: with a quantum of one cycle (functional timing, docs/noc-lookahead.md) every
/// spread cycle spawns and joins scoped threads (tens of µs), so only heavy cycles gain.
pub const SPREAD_MIN_NS: u64 = 200_000;

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

/// Whether to spread cycle `now` over `threads` threads: more than one thread, the previous
/// busy cycle cost at least `min_ns` of host time (`last_ns`, as one thread would spend it),
/// and enough tiles have work ([`worth_spreading`]).
pub(crate) fn should_spread(
    threads: usize,
    last_ns: u64,
    min_ns: u64,
    due: &[u64],
    busy: &[bool],
    now: u64,
) -> bool {
    threads > 1 && last_ns >= min_ns && worth_spreading(due, busy, now, threads)
}

/// Whether cycle `now` has enough tiles with work to be worth `threads` threads.
pub(crate) fn worth_spreading(due: &[u64], busy: &[bool], now: u64, threads: usize) -> bool {
    if threads < 2 {
        return false;
    }
    let need = threads * MIN_TILES_PER_THREAD;
    let mut n = 0;
    for (d, b) in due.iter().zip(busy) {
        if *d <= now || *b {
            n += 1;
            if n >= need {
                return true;
            }
        }
    }
    false
}

/// What a spread cycle did: some L1 was written, no tile had work, and the host time the
/// threads spent stepping tiles, summed (what one thread would have spent, without the cost of
/// spawning and joining: the estimate [`should_spread`] compares).
pub(crate) struct Spread {
    pub written: bool,
    pub quiet: bool,
    pub work_ns: u64,
}

/// The cores-and-coprocessors part of fast-schedule cycle `now` for every tile, on up to
/// `threads` host threads. `faces[i]` must be tile `i`'s NIU pair. On failure: the first error in the one-thread order (every
/// core error, by tile, before every coprocessor error) — the state of the other tiles then
/// may be a cycle ahead of where the one-thread loop stops.
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
    fn cheap_cycles_stay_on_one_thread() {
        let due = vec![0u64; 4 * MIN_TILES_PER_THREAD];
        let busy = vec![false; 4 * MIN_TILES_PER_THREAD];
        let s = |threads, last| should_spread(threads, last, SPREAD_MIN_NS, &due, &busy, 5);
        assert!(!s(2, SPREAD_MIN_NS - 1), "a cheap previous cycle");
        assert!(s(2, SPREAD_MIN_NS), "a heavy previous cycle");
        assert!(s(4, u64::MAX));
        assert!(!s(1, u64::MAX), "one thread");
        assert!(should_spread(2, 0, 0, &due, &busy, 5), "threshold 0");
        assert!(
            !should_spread(2, u64::MAX, 0, &due[..3], &busy[..3], 5),
            "too few tiles with work"
        );
    }

    #[test]
    fn few_busy_tiles_stay_on_one_thread() {
        let due = vec![0u64; 2 * MIN_TILES_PER_THREAD];
        let idle = vec![u64::MAX; 2 * MIN_TILES_PER_THREAD];
        let busy = vec![false; 2 * MIN_TILES_PER_THREAD];
        assert!(worth_spreading(&due, &busy, 5, 2));
        assert!(!worth_spreading(&due, &busy, 5, 1));
        assert!(!worth_spreading(&due[1..], &busy[1..], 5, 2));
        assert!(!worth_spreading(&idle, &busy, 5, 2));
    }
}
