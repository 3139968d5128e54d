//! Quanta: several cycles with one barrier, under per-hop NoC timing (docs/noc-lookahead.md,
//! "The quantum under hop timing"; docs/execution-model.md EM-25).
//!
//! With [`bhemu_noc::Timing::Hops`] nothing a tile does reaches another node before the NoC's
//! lookahead (20 cycles on Blackhole: one hop, `Noc::lookahead`). From a barrier at cycle `T`
//! the fast schedule may therefore run every tile alone through cycles `T .. T + Q` when `Q`
//! is at most the lookahead and no step in flight is due before the quantum's last tick. Each
//! tile runs until the quantum ends, or stops after the cycle in which its cores issued a NoC
//! request (the NoC must accept it — clear `NOC_CMD_CTRL`, move the counters, read the data from
//! that tile's L1 — in that cycle's tick), after an error, or, when the host waits for every
//! tile to be done, after the cycle in which its part of that became true. Then the calling
//! thread brings the tiles that stopped early up to the quantum's end one cycle at a time in
//! slot order, handing their requests to the NoC and ticking it every cycle: for those tiles
//! and the NoC that is the one-thread order, and no other node has anything due before the
//! last tick. The result is the per-cycle schedule's, cycle for cycle.
//!
//! A host waiting for every tile (`Chip::run_until_tiles`) stops at the first cycle at which
//! all are done. Tiles done at the quantum's start do not run ahead (they are brought along
//! cycle by cycle), and the others stop when they become done, so no tile is ahead of a cycle
//! at which all could be done: the check at each caught-up cycle finds the same first cycle as
//! the per-cycle loop.
use super::endpoints::Ends;
use super::Chip;
use crate::error::{ChipError, ErrorKind};
use crate::schedule::Schedule;
use crate::threads::{spread_each, tile_quantum, TileQuantum, TileRun, MIN_TILES_PER_THREAD};
use crate::tile::Tile;

/// A per-tile condition the host waits for (every tile's go message DONE, say).
pub type TileDone<'a> = &'a (dyn Fn(&Tile) -> bool + Sync);

/// How a quantum ended.
pub(super) enum QuantumEnd {
    /// Every cycle of it ran.
    Ran,
    /// Every tile's condition held at this cycle, where the chip stopped.
    Done,
}

impl Chip {
    /// How many cycles from now may run as one quantum, at most to `end`: 1 unless the fast
    /// schedule runs untraced under a NoC lookahead of more than one cycle; else the lookahead,
    /// cut to end with the tick of the NoC's next due step.
    pub(super) fn quantum_len(&self, end: u64) -> u64 {
        if self.schedule != Schedule::Fast || self.tracer.is_some() {
            return 1;
        }
        let look = self.noc.lookahead();
        if look < 2 {
            return 1;
        }
        let mut q = look.min(end.saturating_sub(self.cycle));
        if let Some(due) = self.noc.next_due() {
            q = q.min(due.saturating_sub(self.cycle).saturating_add(1));
        }
        q.max(1)
    }

    /// Runs the `q` cycles from now as one quantum (see the module documentation); with
    /// `done`, stops at the first cycle at which it holds for every tile (it must not hold
    /// for all of them now). Errors are the per-cycle schedule's first, at its cycle.
    pub(super) fn quantum(
        &mut self,
        q: u64,
        done: Option<TileDone<'_>>,
    ) -> Result<QuantumEnd, ChipError> {
        self.stepped_since_warnings = true;
        let from = self.cycle;
        let to = from + q;
        let n = self.tiles.len();
        // Tiles already done wait for the catch-up.
        let held: Vec<bool> = match done {
            Some(d) => self.tiles.iter().map(d).collect(),
            None => vec![false; n],
        };
        self.l1_written = false;
        let mut ran = self.run_ahead_tiles(from, to, done, &held)?;
        // The catch-up: the first error in the one-thread order stops it at its cycle.
        let mut last: Vec<Option<u64>> = ran.iter().map(|r| r.last).collect();
        let first_err = ran
            .iter_mut()
            .enumerate()
            .filter_map(|(i, r)| r.err.take().map(|(c, core, e)| (c, !core, i, e)))
            .min_by_key(|&(c, cp, i, _)| (c, cp, i));
        let stop = first_err.as_ref().map_or(to, |e| e.0 + 1);
        let mut first_err = first_err.map(|(c, cp, i, e)| (c, cp, i, *e));
        let mut visited = ran.iter().any(|r| r.visited);
        let mut written = ran.iter().any(|r| r.written);
        // The first cycle with catch-up work: a tile that stopped early (its requests' cycle,
        // then the cycles it lags) or left requests in the last cycle. Before it the NoC has
        // nothing to accept and nothing due (the quantum ends at its next due step).
        let begin = self
            .tiles
            .iter()
            .zip(&last)
            .filter_map(|(t, l)| match *l {
                None => Some(from),
                Some(l) if l + 1 < to || t.has_requests() => Some(l),
                Some(_) => None,
            })
            .min()
            .unwrap_or(to - 1);
        for c in begin..stop {
            for i in 0..n {
                let lagging = last.get(i).is_some_and(|l| l.is_none_or(|l| l < c));
                let Some(t) = self.tiles.get_mut(i) else {
                    break;
                };
                if lagging {
                    let (Some(due), Some(busy)) = (self.due.get_mut(i), self.cp_busy.get_mut(i))
                    else {
                        break;
                    };
                    let mut face = self.noc.tile_face(t.node()).map_err(|e| {
                        ChipError::new(ErrorKind::Internal, format!("tile has no NoC node: {e}"))
                    })?;
                    let r = tile_quantum(t, &mut face, due, busy, c, c + 1, None);
                    visited |= r.visited;
                    written |= r.written;
                    if let Some(l) = last.get_mut(i) {
                        *l = Some(c);
                    }
                    if let Some((ec, core, e)) = r.err {
                        let key = (ec, !core, i);
                        if first_err.as_ref().is_none_or(|f| key < (f.0, f.1, f.2)) {
                            first_err = Some((ec, !core, i, *e));
                        }
                    }
                }
                if last.get(i).copied().flatten() == Some(c) && t.has_requests() {
                    t.submit_requests(&mut self.noc);
                }
            }
            if let Some((ec, _, _, e)) = first_err.take_if(|f| f.0 == c) {
                self.cycle = ec;
                self.earliest = 0;
                self.any_busy = true;
                return Err(e.at_cycle(ec));
            }
            self.cycle = c;
            if let Err(e) = self.noc_tick(c) {
                self.earliest = 0;
                self.any_busy = true;
                return Err(e);
            }
            self.cycle = c + 1;
            // Every tile at this cycle's end: a tile still ahead has not become done by
            // then (it stops in the cycle it does), so the condition cannot hold yet.
            let caught_up = last.iter().all(|l| *l == Some(c));
            if let Some(d) = done.filter(|_| caught_up) {
                if self.tiles.iter().all(d) {
                    self.settle(visited, written);
                    self.quanta.0 += 1;
                    self.quanta.1 += c + 1 - from;
                    return Ok(QuantumEnd::Done);
                }
            }
        }
        self.cycle = to;
        self.settle(visited, written);
        self.quanta.0 += 1;
        self.quanta.1 += q;
        Ok(QuantumEnd::Ran)
    }

    /// Phase one of a quantum: every tile not `held` runs `from..to` on its own
    /// ([`tile_quantum`]), spread over the pool's threads when enough tiles have work.
    fn run_ahead_tiles(
        &mut self,
        from: u64,
        to: u64,
        done: Option<TileDone<'_>>,
        held: &[bool],
    ) -> Result<Vec<TileQuantum>, ChipError> {
        let with_work = self
            .due
            .iter()
            .zip(&self.cp_busy)
            .zip(held)
            .filter(|((d, b), h)| !**h && (**d < to || **b))
            .count();
        let width = (with_work / MIN_TILES_PER_THREAD).min(self.threads);
        // A held tile is one whose condition holds now (nothing has changed it since `held`).
        let job = |t: &mut Tile, f: &mut bhemu_noc::TileNoc<'_>, d: &mut u64, b: &mut bool| {
            if done.is_some_and(|c| c(t)) {
                return TileQuantum::default();
            }
            tile_quantum(t, f, d, b, from, to, done)
        };
        let faces = self.noc.tile_faces();
        if faces.len() != self.tiles.len() {
            return Err(ChipError::new(
                ErrorKind::Internal,
                "the NoC's Tensix nodes are not the chip's tiles",
            ));
        }
        if width >= 2 {
            let pool = crate::pool::pool_for(&mut self.pool, self.threads);
            let run = TileRun {
                tiles: &mut self.tiles,
                faces,
                due: &mut self.due,
                busy: &mut self.cp_busy,
            };
            let done = spread_each(pool, run, width, &job).ok_or_else(|| {
                ChipError::new(ErrorKind::Internal, "a host thread stepping tiles panicked")
            })?;
            self.spread.cycles += 1;
            self.spread.threads += width as u64;
            self.spread.pool_ns += done.pool_ns;
            self.spread.work_ns += done.work_ns;
            return Ok(done.each);
        }
        let mut out = Vec::with_capacity(self.tiles.len());
        for (((t, mut f), d), b) in self
            .tiles
            .iter_mut()
            .zip(faces)
            .zip(self.due.iter_mut())
            .zip(self.cp_busy.iter_mut())
        {
            out.push(job(t, &mut f, d, b));
        }
        Ok(out)
    }

    /// The NoC's tick at the end of cycle `now`, as in `Chip::tick`.
    pub(super) fn noc_tick(&mut self, now: u64) -> Result<(), ChipError> {
        if self.noc.idle() {
            return Ok(());
        }
        let mut ends = Ends {
            tiles: &mut self.tiles,
            due: &mut self.due,
            earliest: &mut self.earliest,
            l1_written: &mut self.l1_written,
            endpoints: &self.endpoints,
            dram: &mut self.dram,
            now,
        };
        let faults = self.noc.tick(now, &mut ends);
        if let Some(f) = faults.into_iter().next() {
            let mut e = ChipError::new(ErrorKind::Noc, f.to_string()).at_cycle(now);
            e.loc.tile = Some((f.origin.x, f.origin.y));
            e.loc.chip = self.id;
            self.cycle = now + 1;
            return Err(e);
        }
        Ok(())
    }

    /// The fast schedule's bounds after a quantum.
    fn settle(&mut self, visited: bool, written: bool) {
        self.earliest = self.due.iter().copied().min().unwrap_or(u64::MAX);
        self.any_busy = self.cp_busy.iter().any(|&b| b);
        self.quiet = !visited;
        self.l1_written |= written;
    }
}
