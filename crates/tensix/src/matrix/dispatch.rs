//! The Matrix Unit inside the coprocessor's unit framework ([`crate::units`]): what
//! `units::compute::matrix_unit` calls at dispatch. It resolves the registers from the state,
//! applies the instruction, then `ApplyAddrMod` (every Matrix Unit page ends with it). Bank
//! hand-overs stay the frontend's. Undefined behaviour follows the framework's strict /
//! permissive mode: strict stops, permissive records a warning and leaves the data untouched.
use super::{MathRegs, MatrixCtx, MatrixOp, MatrixUnit};
use crate::error::ErrorKind;
use crate::units::{Ctx, UnitResult};

impl MatrixUnit {
    /// Applies one dispatched Matrix Unit computation (`ctx.word`, decoded by the dispatcher
    /// into `op` from its typed fields) to `ctx.state`, with the unit's own state (which lives
    /// in `ctx.state`) borrowed beside the registers it reads and `Dst`, field by field.
    pub fn execute_in(ctx: &mut Ctx<'_>, op: MatrixOp) -> UnitResult {
        let regs = MathRegs::resolve(ctx.state, ctx.thread, ctx.banks);
        let state = &mut *ctx.state;
        let mut mctx = MatrixCtx {
            src_a: &state.src_a,
            src_b: &state.src_b,
            dst: &mut state.dst,
            regs,
            thread: ctx.thread as u8,
            cycle: ctx.cycle,
        };
        match state.matrix.execute_op(op, ctx.word, &mut mctx) {
            Ok(r) => {
                if let Some(m) = r.addr_mode {
                    ctx.state.apply_addr_mod(ctx.thread, m as usize, true);
                }
                if r.clear_exp_hist {
                    ctx.not_modelled("CLREXPHIST (packer exponent histograms)")?;
                }
                Ok(())
            }
            Err(e) if e.kind == ErrorKind::Undefined => ctx.undefined(e.message),
            Err(e) => Err(e),
        }
    }
}
