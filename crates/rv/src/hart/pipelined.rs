//! A hart's cycle under [`crate::CoreTiming::Pipeline`] (docs/core-timing.md): the
//! instruction at pc enters EX1 only when the scoreboard lets it; otherwise the cycle is a
//! wait that changes nothing but `cycle`.
use super::{Hart, Tick};
use crate::bus::Bus;
use crate::op::Op;
use crate::timing::{access_of, MemAccess};

impl Hart {
    /// One cycle of a pipelined hart whose next op is `op` at `pc`.
    #[inline(never)]
    pub(super) fn tick_pipelined<B: Bus>(&mut self, bus: &mut B, op: Op, pc: u32) -> Tick {
        let Some(mut p) = self.pipeline.take() else {
            return self.execute(bus, op, pc);
        };
        let now = self.core.cycles;
        let mem = access_of(op, &self.core.x).map(|(addr, bytes)| MemAccess {
            addr,
            bytes,
            region: bus.region(addr),
        });
        if !p.may_enter(op, mem, now) {
            self.pipeline = Some(p);
            self.core.cycles = self.core.cycles.wrapping_add(1);
            return Tick::Waited;
        }
        let operands = (
            self.core.x[usize::from(op.rs1)],
            self.core.x[usize::from(op.rs2) & 31],
        );
        let instret = self.core.instret;
        let tick = self.execute(bus, op, pc);
        match tick {
            Tick::Trapped(_) => p.redirected(now),
            _ if self.core.instret != instret => {
                p.entered(op, pc, self.pc, operands, mem, now);
            }
            _ => {}
        }
        self.pipeline = Some(p);
        tick
    }
}
