//! The single place where the Matrix Unit's arithmetic (ELWADD/ELWSUB/ELWMUL, MVMUL, DOTPV,
//! pooling, ...) and the Vector Unit's `SFP*` instructions are applied to the data state.
//! The Matrix Unit computes in `crate::matrix`, the Vector Unit in `crate::sfpu`; both own
//! their state inside `TensixState` and reach `Dst` through it.
use bhemu_isa::tensix::blackhole::Insn;

use super::{Ctx, UnitResult};
use crate::coprocessor::Mode;
use crate::error::ErrorKind;
use crate::matrix::hazard::DstAccess;
use crate::sfpu::VectorUnit;

/// Matrix Unit (FPU) arithmetic: called at dispatch with the decoded instruction.
pub fn matrix_unit(ctx: &mut Ctx, insn: &Insn) -> UnitResult {
    // The unit's own state lives in `TensixState`, which the context borrows as a whole:
    // take it out for the call and put it back whatever the result.
    let mut unit = std::mem::take(&mut ctx.state.matrix);
    let result = unit.execute_in(ctx, insn);
    ctx.state.matrix = unit;
    result
}

/// Vector Unit (SFPU): called at dispatch with the decoded instruction.
/// The instruction is this cycle's issue to the unit (the Wait Gate has checked
/// [`crate::sfpu::VectorUnit::stalls`]); SFPLOADMACRO-scheduled instructions due this cycle
/// run first. Cycles without an issue are driven by the coprocessor's step.
pub fn vector_unit(ctx: &mut Ctx, _insn: &Insn) -> UnitResult {
    // The SFPU is not stalled on Dst's write shadow (Dst.md): the optional checker looks.
    let read = if ctx.state.matrix.hazards.enabled() {
        crate::sfpu::dispatch::dst_rows_read(ctx.state, ctx.thread, ctx.word)
    } else {
        None
    };
    if let Some(rows) = read {
        let cfg = ctx.state.dest_access_cfg(ctx.thread);
        let reader = DstAccess {
            word: ctx.word,
            thread: ctx.thread as u8,
            cycle: ctx.cycle,
        };
        ctx.state.matrix.hazards.check_read(rows, cfg, reader);
    }
    match VectorUnit::cycle_in_state(Some((ctx.thread, ctx.word)), ctx.state) {
        Ok(_) => Ok(()),
        Err(e) => {
            let e = e.into_tensix(ctx.thread as u8, ctx.cycle);
            match (e.kind, ctx.mode) {
                // Permissive mode records undefined behaviour and carries on; the unit has
                // applied what the instruction did before the undefined part.
                (ErrorKind::Undefined, Mode::Permissive) => {
                    ctx.warn(e);
                    Ok(())
                }
                _ => Err(e),
            }
        }
    }
}
