//! Time: [`Chip::clock`] and its cycle ([`Chip::tick`]) under either schedule, the fast
//! schedule's jump over quiet cycles, and the run-until helpers built on them (see the
//! module documentation of [`super`] for the order of work within a cycle).
//!
//! Clauses of docs/execution-model.md: EM-1 and EM-2 (the clock and the reference cycle),
//! EM-9 (the fast schedule computes the same), EM-10 (due tiles), EM-11 (the jump over quiet
//! cycles), EM-19 (run-until conditions on L1), EM-20 and EM-23 (whether a cycle is spread),
//! EM-25 (quanta), EM-26 (a traced chip ticks the reference way).
use super::quantum::{QuantumEnd, TileDone};
use super::Chip;
use crate::error::ChipError;
use crate::schedule::Schedule;
use crate::threads::ns_since;

impl Chip {
    /// Advances `n` cycles (see the module documentation). The first error stops the clock at
    /// the cycle it happened in.
    pub fn clock(&mut self, n: u64) -> Result<(), ChipError> {
        let end = self.cycle.saturating_add(n);
        if self.tracer.is_some() {
            while self.cycle < end {
                self.traced_tick()?;
            }
            return self.advance_eth();
        }
        while self.cycle < end {
            let q = self.quantum_len(end);
            if q > 1 {
                self.quantum(q, None)?;
            } else {
                self.tick()?;
            }
            self.skip_quiet(end);
        }
        self.advance_eth()
    }

    /// Fast schedule: after a cycle in which no tile and no coprocessor had anything due and
    /// the NoC is idle, nothing can happen before the earliest cycle a tile is due (a core that
    /// ran ahead, or never while every core is parked or stopped): the clock jumps there, at
    /// most to `end`. The skipped cycles are exactly those the reference schedule spends in
    /// parked loops and private instructions the fast schedule has already accounted for
    /// (docs/execution-model.md EM-11).
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
        self.spread_started = None;
        let mut written = false;
        let mut quiet = true;
        // A cycle with nothing due costs nothing worth timing (tt-umd clocks one such cycle per
        // read of an idle chip).
        let nothing_due = self.earliest > now && !self.any_busy;
        self.stepped_since_warnings |= !nothing_due || self.schedule == Schedule::Reference;
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
        let mut spread = plan.threads;
        // Spreading is measured to pay, unless every wide cycle is to be spread (threshold 0).
        let judged = plan.wide && self.spread_min_ns > 0;
        if judged && !self.payoff.allow(spread > 1) {
            spread = 1;
        }
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
                // Tiles are stepped on the pool's threads, then (the barrier) their requests
                // enter the NoC in tile order (docs/noc-lookahead.md clause 4), also when a
                // tile failed.
                let r = self.spread_from(now, 0, spread);
                self.earliest = self.due.iter().copied().min().unwrap_or(u64::MAX);
                self.any_busy = self.cp_busy.iter().any(|&b| b);
                let done = r.map_err(|e| e.error.at_cycle(now))?;
                written = done.written;
                quiet = done.quiet;
                spread_ns = Some(done.work_ns);
            }
            Schedule::Fast if nothing_due => {}
            Schedule::Fast => {
                let done = self.fast_cycle(now)?;
                written = done.written;
                quiet = done.quiet;
                spread_ns = done.spread_ns;
            }
        }
        if let Some(t0) = timer.filter(|_| !quiet) {
            let ns = spread_ns.unwrap_or_else(|| ns_since(t0));
            self.last_cycle_ns = ns;
        }
        if self.schedule == Schedule::Reference {
            for t in &mut self.tiles {
                let w = t.l1_writes();
                let r = t.step_coprocessor_every_cycle(now);
                written |= t.l1_writes() != w;
                r?;
            }
        }
        self.l1_written = written;
        self.quiet = quiet && self.schedule == Schedule::Fast;
        self.noc_tick(now)?;
        self.cycle += 1;
        let handed_off = spread == 1 && self.spread_started.is_some();
        if let Some(t0) = self.spread_started.take() {
            let ns = ns_since(t0);
            self.spread.tick_ns += ns;
        }
        // A cycle handed off from the middle is neither kind.
        if let Some(t0) = timer.filter(|_| judged && !handed_off) {
            let ns = ns_since(t0);
            self.payoff.record(spread > 1, ns);
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

    /// [`Chip::run_until_l1`] for a condition that holds when `tile_done` holds for every tile
    /// and depends on nothing but each tile's own L1 (the host's "every go message DONE"):
    /// the same result at the same cycle, and under per-hop NoC timing the cycles between
    /// checks run as quanta (docs/noc-lookahead.md).
    pub fn run_until_tiles(
        &mut self,
        max_cycles: u64,
        tile_done: TileDone<'_>,
    ) -> Result<bool, ChipError> {
        let end = self.cycle.saturating_add(max_cycles);
        let all = |c: &Chip| c.tiles.iter().all(tile_done);
        if all(self) {
            return Ok(true);
        }
        if self.tracer.is_some() {
            return self.run_until(end - self.cycle, all);
        }
        while self.cycle < end {
            let q = self.quantum_len(end);
            if q > 1 {
                if let QuantumEnd::Done = self.quantum(q, Some(tile_done))? {
                    return Ok(true);
                }
            } else {
                self.tick()?;
                if self.l1_written && all(self) {
                    return Ok(true);
                }
            }
            self.skip_quiet(end);
        }
        Ok(false)
    }

    /// [`Chip::run_until`] for a `done` that depends on nothing but the contents of L1 (a
    /// host polling mailboxes): `done` is checked before the first cycle and then only after
    /// cycles in which some core, coprocessor or NoC transaction wrote to some L1, so a poll of
    /// 140 tiles costs nothing on the cycles in between. Same result, same cycle
    /// (docs/execution-model.md EM-19).
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
