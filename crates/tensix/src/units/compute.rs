//! The single place where the Matrix Unit's arithmetic (ELWADD/ELWSUB/ELWMUL, MVMUL, DOTPV,
//! pooling, ...) and the Vector Unit's `SFP*` instructions are applied to the data state.
//! Until their units land (`crate::matrix`, `crate::sfpu`) they are timing only, and say so
//! once in the warnings.
use bhemu_isa::tensix::blackhole::Insn;

use super::{Ctx, UnitResult};

/// Matrix Unit (FPU) arithmetic: called at dispatch with the decoded instruction.
pub fn matrix_unit(ctx: &mut Ctx, insn: &Insn) -> UnitResult {
    let name = insn.def().map_or("matrix instruction", |d| d.name);
    ctx.not_modelled(name)
}

/// Vector Unit (SFPU): called at dispatch with the decoded instruction.
pub fn vector_unit(ctx: &mut Ctx, insn: &Insn) -> UnitResult {
    let name = insn.def().map_or("SFPU instruction", |d| d.name);
    ctx.not_modelled(name)
}
