//! The reference schedule's side of a tile ([`crate::Schedule::Reference`]): every runnable
//! hart steps once per cycle, BRISC first — the definition the fast schedule (`fast`) is
//! checked against — and the errors a core's step turns into.
use super::*;

impl Tile {
    /// Steps every runnable hart once, in the order BRISC, NCRISC, TRISC0-2: the reference
    /// schedule ([`crate::Schedule::Reference`]), kept as the definition the fast one is
    /// checked against.
    pub fn step_cores_reference(&mut self, now: u64, noc: &mut Noc) -> Result<(), ChipError> {
        let r = match noc.tile_face(self.p.node) {
            Ok(mut face) => self.step_cores_reference_on(now, &mut face),
            Err(e) => Err(self.no_face(e)),
        };
        noc.submit(&mut self.p.outbox);
        r
    }

    /// The tile has no NIUs in the NoC it was handed (a tile built for another topology).
    pub(super) fn no_face(&self, e: bhemu_noc::NocError) -> ChipError {
        let mut c = ChipError::new(ErrorKind::Internal, format!("tile's NIUs: {e}"));
        c.loc.tile = Some((self.p.node.x, self.p.node.y));
        c
    }

    /// [`Tile::step_cores_reference`] on this tile's own NIU face; issued requests stay in
    /// the tile's outbox until [`Tile::submit_requests`].
    pub fn step_cores_reference_on(
        &mut self,
        now: u64,
        noc: &mut TileNoc<'_>,
    ) -> Result<(), ChipError> {
        self.invalidate_dirty_code();
        for i in 0..5 {
            if !matches!(self.cores[i].state, CoreState::Running | CoreState::Stalled) {
                continue;
            }
            // A core the fast schedule left asleep on a stall (see `stall`).
            self.end_sleep(i, now);
            let core = Core::ALL[i];
            let slot = &mut self.cores[i];
            let pc = slot.hart.pc();
            let outcome = {
                let mut bus = bus::CoreBus {
                    core,
                    pc,
                    now,
                    p: &mut self.p,
                    noc: &mut *noc,
                };
                slot.hart.step(&mut bus)
            };
            self.p.pcs[i] = slot.hart.pc();
            match outcome {
                // A pipeline wait ends by itself (docs/core-timing.md): the core is running.
                StepOutcome::Retired
                | StepOutcome::Stop
                | StepOutcome::Waited
                | StepOutcome::Trapped { .. } => slot.state = CoreState::Running,
                StepOutcome::Stalled => slot.state = CoreState::Stalled,
                StepOutcome::Halted(_) => slot.state = CoreState::Halted,
                StepOutcome::Error(e) => {
                    slot.state = CoreState::Faulted;
                    self.awake &= !(1 << i);
                    let fault = self.p.fault.take();
                    self.core_stopped_by(core, e, fault, now)?;
                    continue;
                }
            }
            self.awake = match slot.state {
                CoreState::Running | CoreState::Stalled => self.awake | 1 << i,
                _ => self.awake & !(1 << i),
            };
            if let Some(old) = self.p.soft_reset_old.take() {
                self.apply_soft_reset(old, [now; 5])?;
            }
            self.invalidate_dirty_code();
        }
        Ok(())
    }

    /// A core's step ended in an error. An illegal instruction — a word that is no
    /// instruction — is undefined behaviour of the core, so the undefined-behaviour setting
    /// decides (the coprocessor's mode, `BHEMU_STRICT` through libttsim; docs/execution-model.md
    /// EM-7): strict, the chip stops with it; permissive, that core alone stops, reported once
    /// as a warning, and the chip goes on, as silicon's other cores do. Every other error stops
    /// the chip.
    pub(super) fn core_stopped_by(
        &mut self,
        core: Core,
        e: HartError,
        fault: Option<ChipError>,
        now: u64,
    ) -> Result<(), ChipError> {
        let illegal = e.kind == HartErrorKind::IllegalInstruction;
        let mut err = self.hart_error(core, e, fault, now);
        if !illegal || self.p.cp.mode() == bhemu_tensix::Mode::Strict {
            return Err(err);
        }
        err.message = format!(
            "{}; permissive mode: this core stops, the others go on",
            err.message
        );
        self.p.warnings.push(err);
        Ok(())
    }

    pub(super) fn hart_error(
        &self,
        core: Core,
        e: HartError,
        fault: Option<ChipError>,
        now: u64,
    ) -> ChipError {
        let memory = matches!(
            e.kind,
            HartErrorKind::LoadFault | HartErrorKind::StoreFault | HartErrorKind::FetchFault
        );
        let mut err = match fault {
            Some(f) if memory => f,
            _ => {
                let mut c = ChipError::new(ErrorKind::Exception, e.message.clone());
                if memory {
                    c.loc.addr = Some(e.tval);
                }
                c
            }
        };
        err.loc.tile = Some((self.p.node.x, self.p.node.y));
        err.loc.core = Some(core);
        err.loc.pc = Some(e.pc);
        if e.insn != 0 {
            err.loc.insn = Some(e.insn);
        }
        err.loc.cycle = Some(now);
        err
    }
}
