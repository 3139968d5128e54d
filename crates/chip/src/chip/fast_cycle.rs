//! The fast schedule's cycle on the calling thread, and the hand-off of tiles to the pool's
//! threads ([`crate::threads`]).
//!
//! A cycle the plan keeps on the calling thread steps the tiles' cores in slot order, then
//! their coprocessors. Some such cycles turn out heavy only once they run: a core alone in its
//! tile runs its private instructions ahead of the clock (the 140-tile spin: every BRISC runs
//! its whole 700,000-instruction loop in one cycle), which nothing before the cycle predicts.
//! With more than one thread, the loop therefore looks at the host clock after the 1st, 4th,
//! 16th and 64th tile it steps and, once the tiles still due promise enough work at the rate
//! so far ([`crate::threads::handoff`]), hands the rest of the tiles to the pool. That is exact
//! for the same reason spreading is (docs/noc-lookahead.md): within a cycle tiles touch only
//! themselves, the tiles already stepped have put their requests into the NoC in tile order,
//! and the rest put theirs in after them, in tile order, at the barrier. Errors keep the
//! one-thread order: every core error by tile, then every coprocessor error by tile.
//!
//! Clauses of docs/execution-model.md: EM-10 (only tiles that are due are stepped; a
//! coprocessor step makes its tile due next cycle), EM-22 (the hand-off), EM-24 (the barrier
//! and errors).
use std::time::Instant;

use super::Chip;
use crate::error::{ChipError, ErrorKind};
use crate::threads::{ns_since, Spread, SpreadError, TileRun};

/// What a fast-schedule cycle did: some L1 was written, no tile had work, and for a cycle
/// partly spread the host time as one thread would have spent it.
pub(super) struct FastCycle {
    pub written: bool,
    pub quiet: bool,
    pub spread_ns: Option<u64>,
}

/// Tile `i` with its due cycle and coprocessor flag.
fn tile_at<'a>(
    tiles: &'a mut [crate::tile::Tile],
    due: &'a mut [u64],
    busy: &'a mut [bool],
    i: usize,
) -> Option<(&'a mut crate::tile::Tile, &'a mut u64, &'a mut bool)> {
    Some((tiles.get_mut(i)?, due.get_mut(i)?, busy.get_mut(i)?))
}

impl Chip {
    /// Steps tiles `from..` of cycle `now` on `width` threads of the pool, then submits the
    /// requests they left to the NoC in tile order (also after an error).
    pub(super) fn spread_from(
        &mut self,
        now: u64,
        from: usize,
        width: usize,
    ) -> Result<Spread, SpreadError> {
        self.spread_started = Some(Instant::now());
        let pool = crate::pool::pool_for(&mut self.pool, self.threads);
        let mut faces = self.noc.tile_faces();
        let mut submit = std::mem::take(&mut self.submit);
        submit.clear();
        let tiles = self.tiles.get_mut(from..);
        let due = self.due.get_mut(from..);
        let busy = self.cp_busy.get_mut(from..);
        let r = match (tiles, due, busy) {
            (Some(tiles), Some(due), Some(busy)) if faces.len() == tiles.len() + from => {
                let run = TileRun {
                    tiles,
                    faces: faces.split_off(from),
                    due,
                    busy,
                };
                crate::threads::spread_cycle(pool, run, now, width, &mut submit)
            }
            _ => Err(SpreadError {
                error: ChipError::new(
                    ErrorKind::Internal,
                    "the NoC's Tensix nodes are not the chip's tiles",
                ),
                core: true,
            }),
        };
        drop(faces);
        for &j in &submit {
            if let Some(t) = self.tiles.get_mut(from + j) {
                t.submit_requests(&mut self.noc);
            }
        }
        self.submit = submit;
        if let Ok(d) = &r {
            self.spread.cycles += 1;
            self.spread.threads += width as u64;
            self.spread.pool_ns += d.pool_ns;
            self.spread.work_ns += d.work_ns;
        }
        r
    }

    /// A fast-schedule cycle the plan keeps on the calling thread (see the module
    /// documentation): tiles whose cores are all parked, ahead of the clock or stopped are
    /// skipped with one compare each (docs/execution-model.md EM-10).
    pub(super) fn fast_cycle(&mut self, now: u64) -> Result<FastCycle, ChipError> {
        let mut written = false;
        let mut quiet = true;
        // Until the loops end, the bounds say "look at everything" (what an error leaves).
        self.earliest = 0;
        self.any_busy = true;
        let mut earliest = u64::MAX;
        let watch = (self.threads > 1).then(Instant::now);
        let mut visited = 0usize;
        let mut look_at = 1usize;
        let mut handoff = None;
        let n = self.tiles.len();
        for i in 0..n {
            let Some((t, due, busy)) =
                tile_at(&mut self.tiles, &mut self.due, &mut self.cp_busy, i)
            else {
                break;
            };
            let stepped = *due <= now;
            if stepped {
                quiet = false;
                let w = t.l1_writes();
                let r = t.step_cores(now, &mut self.noc);
                written |= t.l1_writes() != w;
                *due = t.next_due(now);
                *busy |= t.coprocessor_busy();
                r?;
                visited += 1;
            }
            earliest = earliest.min(*due);
            if let Some(t0) = watch.filter(|_| stepped && visited == look_at) {
                look_at *= 4;
                let ns = ns_since(t0);
                let worth = |rest| {
                    crate::threads::handoff(ns, visited, rest, self.threads, self.spread_min_ns)
                };
                // Every tile left as a bound first; the tiles still due only if that bound
                // would hand off (a light cycle costs no count).
                let w = worth(n - i - 1).and_then(|_| {
                    let rest = self.due.get(i + 1..).unwrap_or_default();
                    worth(rest.iter().filter(|d| **d <= now).count())
                });
                if let Some(w) = w {
                    handoff = Some((i + 1, w, ns));
                    break;
                }
            }
        }
        let head = handoff.map_or(n, |(k, _, _)| k);
        // The rest of the tiles, cores and coprocessors, on the pool's threads.
        let mut tail_cp_err = None;
        let mut spread_ns = None;
        if let Some((k, w, head_ns)) = handoff {
            match self.spread_from(now, k, w) {
                Ok(d) => {
                    self.spread.handed_off += 1;
                    written |= d.written;
                    quiet &= d.quiet;
                    spread_ns = Some(head_ns.saturating_add(d.work_ns));
                }
                Err(e) if e.core => return Err(e.error),
                Err(e) => tail_cp_err = Some(e.error),
            }
        }
        let mut any_busy = false;
        for i in 0..head {
            let Some((t, due, busy)) =
                tile_at(&mut self.tiles, &mut self.due, &mut self.cp_busy, i)
            else {
                break;
            };
            if *busy {
                quiet = false;
                let w = t.l1_writes();
                let r = t.step_coprocessor(now);
                written |= t.l1_writes() != w;
                *busy = t.coprocessor_busy();
                any_busy |= *busy;
                // The coprocessor's effects (a freed FIFO slot, an L1 write) may concern
                // cores: look at the tile next cycle.
                *due = (*due).min(now + 1);
                earliest = earliest.min(*due);
                r?;
            }
        }
        if let Some(e) = tail_cp_err {
            return Err(e);
        }
        if head < n {
            let tail_due = self.due.get(head..).unwrap_or_default();
            earliest = earliest.min(tail_due.iter().copied().min().unwrap_or(u64::MAX));
            any_busy |= self
                .cp_busy
                .get(head..)
                .unwrap_or_default()
                .iter()
                .any(|&b| b);
        }
        self.earliest = earliest;
        self.any_busy = any_busy;
        Ok(FastCycle {
            written,
            quiet,
            spread_ns,
        })
    }
}
