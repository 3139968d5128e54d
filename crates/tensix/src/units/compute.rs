//! The single place where the Matrix Unit's arithmetic (ELWADD/ELWSUB/ELWMUL, MVMUL, DOTPV,
//! pooling, ...) and the Vector Unit's `SFP*` instructions are applied to the data state.
//! The Matrix Unit computes (`crate::matrix`); the Vector Unit (`crate::sfpu`) is not yet
//! driven from here, so SFP* instructions stay timing only and say so once in the warnings.
use bhemu_isa::tensix::blackhole::Insn;

use super::{Ctx, UnitResult};

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
pub fn vector_unit(ctx: &mut Ctx, insn: &Insn) -> UnitResult {
    let name = insn.def().map_or("SFPU instruction", |d| d.name);
    ctx.not_modelled(name)
}
