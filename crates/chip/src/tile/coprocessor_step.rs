//! The tile's clock driving its Tensix coprocessor: one step with the tile's L1, NoC overlay
//! and TDMA-RISC registers attached, the coprocessor's warnings passed on as the tile's, and its
//! errors located at the tile.
use bhemu_tensix::TensixError;

use super::{tensix_port, Tile};
use crate::error::{ChipError, ErrorKind};

impl Tile {
    /// One cycle of the coprocessor, skipped while it has nothing to do; a cycle of a quiet
    /// stretch (docs/execution-model.md EM-31) is only counted.
    pub fn step_coprocessor(&mut self, now: u64) -> Result<(), ChipError> {
        self.step_coprocessor_as(now, false)
    }

    /// One cycle of the coprocessor computed in full (the reference schedule, EM-2).
    pub fn step_coprocessor_every_cycle(&mut self, now: u64) -> Result<(), ChipError> {
        self.step_coprocessor_as(now, true)
    }

    fn step_coprocessor_as(&mut self, now: u64, every_cycle: bool) -> Result<(), ChipError> {
        if !self.p.cp_active {
            return Ok(());
        }
        let p = &mut self.p;
        let mut port = tensix_port::TensixPort {
            l1: &mut p.l1,
            overlay: &mut p.overlay,
            tdma: &mut p.tdma,
        };
        let r = if every_cycle {
            p.cp.step_every_cycle_with(now, &mut port)
        } else {
            p.cp.step_with(now, &mut port)
        };
        // A `STOREREG` to the overlay wakes the cores polling it; they have run cycle `now`.
        p.wake_overlay_pollers();
        self.forward_coprocessor_warnings();
        r.map_err(|e| self.tensix_error(e))?;
        if self.p.cfg_pending != 0 {
            // The writes took effect at once; the coprocessor has now seen them, so C10 clears
            // after the one cycle in which it was raised.
            for t in 0..3 {
                self.p.cp.set_trisc_cfg_pending(t, false);
            }
            self.p.cfg_pending = 0;
        }
        if self.p.cp.all_idle() {
            self.p.cp_active = false;
        }
        Ok(())
    }

    /// Copies the coprocessor's new warnings (permissive-mode undefined behaviour, effects not
    /// modelled; each reported once by the coprocessor) into the tile's, located at the tile.
    fn forward_coprocessor_warnings(&mut self) {
        let n = self.p.cp.warnings().len();
        if n > self.p.cp_warned {
            let new: Vec<ChipError> = self.p.cp.warnings()[self.p.cp_warned..]
                .iter()
                .map(|w| self.tensix_error(w.clone()))
                .collect();
            self.p.warnings.extend(new);
            self.p.cp_warned = n;
        }
    }

    pub(crate) fn tensix_error(&self, e: TensixError) -> ChipError {
        let mut c = ChipError::new(ErrorKind::Tensix, e.to_string());
        c.loc.tile = Some((self.p.node.x, self.p.node.y));
        c.loc.thread = e.thread;
        c.loc.insn = e.word;
        c.loc.pc = e.pc;
        c.loc.cycle = Some(e.cycle);
        c
    }
}
