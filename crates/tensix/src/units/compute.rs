//! The single place where the Matrix Unit's arithmetic (ELWADD/ELWSUB/ELWMUL, MVMUL, DOTPV,
//! pooling, ...) and the Vector Unit's `SFP*` instructions are applied to the data state.
//! The Matrix Unit computes in `crate::matrix`, the Vector Unit in `crate::sfpu`; both own
//! their state inside `TensixState` and reach `Dst` through it.
use super::{Ctx, UnitResult};
use crate::coprocessor::Mode;
use crate::error::ErrorKind;
use crate::matrix::hazard::DstAccess;
use crate::matrix::MatrixOp;
use crate::sfpu::{Insn as SfpuInsn, VectorUnit};

/// Matrix Unit (FPU) arithmetic: called at dispatch with the operation the dispatcher built
/// from the instruction's typed fields ([`MatrixOp`]'s constructors hold each instruction's
/// field meanings).
pub fn matrix_unit(ctx: &mut Ctx, op: MatrixOp) -> UnitResult {
    crate::matrix::MatrixUnit::execute_in(ctx, op)
}

/// Matrix Unit instructions bhemu routes to the unit but does not compute (SETASHRM*,
/// SETPKEDGOF, TRNSPSRCA, RAREB, MOVDBGB2D): the run stops with an error at the instruction
/// rather than going on with Dst untouched.
pub fn not_a_matrix_computation(ctx: &mut Ctx) -> UnitResult {
    Err(ctx.error(
        ErrorKind::Invalid,
        "not a Matrix Unit computation instruction",
    ))
}

/// Vector Unit (SFPU): called at dispatch with `insn`, the operands the dispatcher built
/// from the instruction's typed fields, this cycle's issue to the unit (the Wait Gate has
/// checked [`crate::sfpu::VectorUnit::stalls`]). The unit's `run` hands it to the one
/// function that holds the instruction's semantics; SFPLOADMACRO-scheduled instructions
/// due this cycle run first. Cycles without an issue are driven by the coprocessor's step.
pub fn vector_unit(ctx: &mut Ctx, insn: SfpuInsn) -> UnitResult {
    // The SFPU is not stalled on Dst's write shadow (Dst.md): the optional checker looks.
    let read = if ctx.state.matrix.hazards.enabled() {
        crate::sfpu::dispatch::dst_rows_read(ctx.state, ctx.thread, &insn)
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
    match VectorUnit::cycle_in_state(Some((ctx.thread, insn)), ctx.state) {
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
