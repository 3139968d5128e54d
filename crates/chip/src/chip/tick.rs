//! Time: [`Chip::clock`] and its cycle ([`Chip::tick`]) under either schedule, the fast
//! schedule's jump over quiet cycles, and the run-until helpers built on them (see the
//! module documentation of [`super`] for the order of work within a cycle).
use super::endpoints::Ends;
use super::Chip;
use crate::error::{ChipError, ErrorKind};
use crate::schedule::Schedule;

impl Chip {
    /// Advances `n` cycles (see the module documentation). The first error stops the clock at
    /// the cycle it happened in.
    pub fn clock(&mut self, n: u64) -> Result<(), ChipError> {
        let end = self.cycle.saturating_add(n);
        if self.tracer.is_some() {
            while self.cycle < end {
                self.traced_tick()?;
            }
            return Ok(());
        }
        while self.cycle < end {
            self.tick()?;
            self.skip_quiet(end);
        }
        Ok(())
    }

    /// Fast schedule: after a cycle in which no tile and no coprocessor had anything due and
    /// the NoC is idle, nothing can happen before the earliest cycle a tile is due (a core that
    /// ran ahead, or never while every core is parked or stopped): the clock jumps there, at
    /// most to `end`. The skipped cycles are exactly those the reference schedule spends in
    /// parked loops and private instructions the fast schedule has already accounted for.
    fn skip_quiet(&mut self, end: u64) {
        if !self.quiet || !self.noc.idle() || self.any_busy {
            return;
        }
        let to = self.earliest.min(end);
        if to > self.cycle {
            self.cycle = to;
        }
    }

    /// One cycle.
    #[inline]
    pub fn tick(&mut self) -> Result<(), ChipError> {
        let now = self.cycle;
        let mut written = false;
        let mut quiet = true;
        // A cycle with nothing due costs nothing worth timing (tt-umd clocks one such cycle per
        // read of an idle chip).
        let nothing_due = self.earliest > now && !self.any_busy;
        let plan = if self.threads > 1 && self.schedule == Schedule::Fast && !nothing_due {
            crate::threads::plan_spread(
                self.threads,
                self.last_cycle_ns,
                self.spread_min_ns,
                &self.due,
                &self.cp_busy,
                now,
            )
        } else {
            crate::threads::Plan::ONE
        };
        let spread = plan.threads;
        // Only cycles wide enough to spread are timed: they alone make the estimate.
        let timer = plan.wide.then(std::time::Instant::now);
        let mut spread_ns = None;
        match self.schedule {
            Schedule::Reference => {
                for t in &mut self.tiles {
                    if t.has_runnable_core() {
                        let w = t.l1_writes();
                        let r = t.step_cores_reference(now, &mut self.noc);
                        written |= t.l1_writes() != w;
                        r?;
                    }
                }
            }
            Schedule::Fast if spread > 1 => {
                let threads = self.threads;
                if self.pool.as_ref().is_some_and(|(w, _)| *w != threads) {
                    self.pool = None;
                }
                let (_, pool) = self
                    .pool
                    .get_or_insert_with(|| (threads, crate::pool::Pool::new(threads)));
                let faces = self.noc.tile_faces();
                let mut submit = std::mem::take(&mut self.submit);
                submit.clear();
                let r = if faces.len() == self.tiles.len() {
                    crate::threads::spread_cycle(
                        pool,
                        &mut self.tiles,
                        faces,
                        &mut self.due,
                        &mut self.cp_busy,
                        now,
                        spread,
                        &mut submit,
                    )
                } else {
                    Err(ChipError::new(
                        ErrorKind::Internal,
                        "the NoC's Tensix nodes are not the chip's tiles",
                    ))
                };
                // The barrier: requests enter the NoC in tile order (docs/noc-lookahead.md
                // clause 4), also when a tile failed; only the tiles that left some are
                // touched (after a spread cycle the others' state is in other cores' caches).
                for &i in &submit {
                    if let Some(t) = self.tiles.get_mut(i) {
                        t.submit_requests(&mut self.noc);
                    }
                }
                self.submit = submit;
                self.earliest = self.due.iter().copied().min().unwrap_or(u64::MAX);
                self.any_busy = self.cp_busy.iter().any(|&b| b);
                let done = r.map_err(|e| e.at_cycle(now))?;
                written = done.written;
                quiet = done.quiet;
                spread_ns = Some(done.work_ns);
                self.spread.cycles += 1;
                self.spread.threads += spread as u64;
                self.spread.pool_ns += done.pool_ns;
                self.spread.work_ns += done.work_ns;
            }
            Schedule::Fast if nothing_due => {}
            Schedule::Fast => {
                // Tiles whose cores are all parked, ahead of the clock or stopped are skipped
                // with one compare each. Until the loops end, the bounds say "look at
                // everything" (what an error leaves them at).
                self.earliest = 0;
                self.any_busy = true;
                let mut earliest = u64::MAX;
                let tiles = self
                    .tiles
                    .iter_mut()
                    .zip(&mut self.due)
                    .zip(&mut self.cp_busy);
                for ((t, due), busy) in tiles {
                    if *due <= now {
                        quiet = false;
                        let w = t.l1_writes();
                        let r = t.step_cores(now, &mut self.noc);
                        written |= t.l1_writes() != w;
                        *due = t.next_due(now);
                        *busy |= t.coprocessor_busy();
                        r?;
                    }
                    earliest = earliest.min(*due);
                }
                let mut any_busy = false;
                let tiles = self
                    .tiles
                    .iter_mut()
                    .zip(&mut self.due)
                    .zip(&mut self.cp_busy);
                for ((t, due), busy) in tiles {
                    if *busy {
                        quiet = false;
                        let w = t.l1_writes();
                        let r = t.step_coprocessor(now);
                        written |= t.l1_writes() != w;
                        *busy = t.coprocessor_busy();
                        any_busy |= *busy;
                        // The coprocessor's effects (a freed FIFO slot, an L1 write) may
                        // concern cores: look at the tile next cycle.
                        *due = (*due).min(now + 1);
                        earliest = earliest.min(*due);
                        r?;
                    }
                }
                self.earliest = earliest;
                self.any_busy = any_busy;
            }
        }
        if let Some(t0) = timer.filter(|_| !quiet) {
            let ns = spread_ns
                .unwrap_or_else(|| u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX));
            self.last_cycle_ns = ns;
        }
        if self.schedule == Schedule::Reference {
            for t in &mut self.tiles {
                let w = t.l1_writes();
                let r = t.step_coprocessor(now);
                written |= t.l1_writes() != w;
                r?;
            }
        }
        self.l1_written = written;
        self.quiet = quiet && self.schedule == Schedule::Fast;
        if !self.noc.idle() {
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
                self.cycle += 1;
                return Err(e);
            }
        }
        self.cycle += 1;
        if spread > 1 {
            if let Some(t0) = timer {
                let ns = u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
                self.spread.tick_ns += ns;
            }
        }
        Ok(())
    }

    /// True when nothing can change any more: no hart can execute (every core is in reset,
    /// halted, faulted or stalled — a stall waits on state only another agent changes), no
    /// coprocessor has work and the NoC is idle. Spinning harts are running, so this never
    /// fires on a busy-wait.
    pub fn quiescent(&self) -> bool {
        self.noc.idle() && self.tiles.iter().all(|t| t.quiescent())
    }

    /// Runs until `done(self)` holds (checked before every cycle) or `max_cycles` more cycles
    /// have passed. Returns whether `done` held.
    pub fn run_until(
        &mut self,
        max_cycles: u64,
        mut done: impl FnMut(&Chip) -> bool,
    ) -> Result<bool, ChipError> {
        let end = self.cycle.saturating_add(max_cycles);
        let traced = self.tracer.is_some();
        loop {
            if done(self) {
                return Ok(true);
            }
            if self.cycle >= end {
                return Ok(false);
            }
            if traced {
                self.traced_tick()?;
            } else {
                self.tick()?;
            }
        }
    }

    /// [`Chip::run_until`] for a `done` that depends on nothing but the contents of L1 (a
    /// host polling mailboxes): `done` is checked before the first cycle and then only after
    /// cycles in which some core, coprocessor or NoC transaction wrote to some L1, so a poll of
    /// 140 tiles costs nothing on the cycles in between. Same result, same cycle.
    pub fn run_until_l1(
        &mut self,
        max_cycles: u64,
        mut done: impl FnMut(&Chip) -> bool,
    ) -> Result<bool, ChipError> {
        let end = self.cycle.saturating_add(max_cycles);
        if done(self) {
            return Ok(true);
        }
        if self.tracer.is_some() {
            return self.run_until(end - self.cycle, done);
        }
        while self.cycle < end {
            self.tick()?;
            if self.l1_written && done(self) {
                return Ok(true);
            }
            self.skip_quiet(end);
        }
        Ok(false)
    }
}
