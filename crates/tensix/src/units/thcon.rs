//! Scalar Unit (ThCon) GPR arithmetic on `GPRs[CurrentThread]`. Effects at dispatch (the unit
//! then stays busy for the instruction's latency, ScalarUnit.md). Pages:
//! tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/{SETDMAREG_Immediate,
//! ADDDMAREG,SUBDMAREG,MULDMAREG,BITWOPDMAREG,SHIFTDMAREG,CMPDMAREG}.md.
use crate::state::GPRS;

use super::{Ctx, UnitResult};

/// `SETDMAREG` immediate form: 16 bits into half-register `ResultHalfReg` (0..127, low half
/// of GPR n is half-register 2n). The special form (`SetSignalsMode`) is not modelled.
pub fn setdmareg(
    ctx: &mut Ctx,
    payload_sig_sel_size: u8,
    payload_sig_sel: u16,
    set_signals_mode: u8,
    reg_index16b: u8,
) -> UnitResult {
    if set_signals_mode != 0 {
        return ctx.not_modelled("SETDMAREG special form (SetSignalsMode = 1)");
    }
    let value = ((payload_sig_sel_size as u32) << 14) | payload_sig_sel as u32;
    let g = (reg_index16b / 2) as usize;
    let shift = 16 * (reg_index16b as u32 & 1);
    let t = ctx.thread;
    let r = &mut ctx.state.gprs[t][g];
    *r = (*r & !(0xffff << shift)) | (value << shift);
    Ok(())
}

/// The operands of the two-operand ThCon instructions: `LeftVal`, `RightVal` (register or
/// 6-bit immediate) and the result register; `None` if an index is out of range.
fn operands(
    ctx: &mut Ctx,
    name: &str,
    b_is_const: u8,
    result: u16,
    b: u8,
    a: u8,
    right_mask: u32,
) -> Result<Option<(u32, u32, usize)>, crate::TensixError> {
    if result as usize >= GPRS || a as usize >= GPRS || (b_is_const == 0 && b as usize >= GPRS) {
        ctx.undefined(format!(
            "{name}: GPR index out of range (result {result}, left {a}, right {b}); ignored"
        ))?;
        return Ok(None);
    }
    let t = ctx.thread;
    let left = ctx.state.gprs[t][a as usize];
    let right = if b_is_const != 0 {
        b as u32
    } else {
        ctx.state.gprs[t][b as usize] & right_mask
    };
    Ok(Some((left, right, result as usize)))
}

fn store(ctx: &mut Ctx, r: usize, v: u32) {
    let t = ctx.thread;
    ctx.state.gprs[t][r] = v;
}

/// `ADDDMAREG`: `Result = Left + Right` (wrapping).
pub fn adddmareg(ctx: &mut Ctx, op_bis_const: u8, result: u16, op_b: u8, op_a: u8) -> UnitResult {
    if let Some((l, r, d)) = operands(ctx, "ADDDMAREG", op_bis_const, result, op_b, op_a, !0)? {
        store(ctx, d, l.wrapping_add(r));
    }
    Ok(())
}

/// `SUBDMAREG`: `Result = Left - Right` (wrapping).
pub fn subdmareg(ctx: &mut Ctx, op_bis_const: u8, result: u16, op_b: u8, op_a: u8) -> UnitResult {
    if let Some((l, r, d)) = operands(ctx, "SUBDMAREG", op_bis_const, result, op_b, op_a, !0)? {
        store(ctx, d, l.wrapping_sub(r));
    }
    Ok(())
}

/// `MULDMAREG`: `Result = (Left & 0xFFFF) * (Right & 0xFFFF)`.
pub fn muldmareg(ctx: &mut Ctx, op_bis_const: u8, result: u16, op_b: u8, op_a: u8) -> UnitResult {
    if let Some((l, r, d)) = operands(ctx, "MULDMAREG", op_bis_const, result, op_b, op_a, !0)? {
        store(ctx, d, (l & 0xffff).wrapping_mul(r & 0xffff));
    }
    Ok(())
}

/// `BITWOPDMAREG`: mode 0 AND, 1 OR, 2 XOR; other modes are undefined.
pub fn bitwopdmareg(
    ctx: &mut Ctx,
    op_bis_const: u8,
    op_sel: u8,
    result: u8,
    op_b: u8,
    op_a: u8,
) -> UnitResult {
    let Some((l, r, d)) = operands(
        ctx,
        "BITWOPDMAREG",
        op_bis_const,
        result as u16,
        op_b,
        op_a,
        !0,
    )?
    else {
        return Ok(());
    };
    let v = match op_sel {
        0 => l & r,
        1 => l | r,
        2 => l ^ r,
        m => return ctx.undefined(format!("BITWOPDMAREG mode {m} is undefined; ignored")),
    };
    store(ctx, d, v);
    Ok(())
}

/// `SHIFTDMAREG`: mode 0 left, 1 right (logical); a register amount uses its low 5 bits.
pub fn shiftdmareg(
    ctx: &mut Ctx,
    op_bis_const: u8,
    op_sel: u8,
    result: u8,
    op_b: u8,
    op_a: u8,
) -> UnitResult {
    let Some((l, r, d)) = operands(
        ctx,
        "SHIFTDMAREG",
        op_bis_const,
        result as u16,
        op_b,
        op_a,
        0x1f,
    )?
    else {
        return Ok(());
    };
    if r >= 32 {
        // The immediate form is a u5 in the syntax; bit 5 of the 6-bit field is reserved.
        return ctx.undefined(format!(
            "SHIFTDMAREG immediate amount {r} exceeds 5 bits; ignored"
        ));
    }
    let v = match op_sel {
        0 => l << r,
        1 => l >> r,
        m => return ctx.undefined(format!("SHIFTDMAREG mode {m} is undefined; ignored")),
    };
    store(ctx, d, v);
    Ok(())
}

/// `CMPDMAREG`: mode 0 GT, 1 LT, 2 EQ (unsigned); result 1 or 0.
pub fn cmpdmareg(
    ctx: &mut Ctx,
    op_bis_const: u8,
    op_sel: u8,
    result: u8,
    op_b: u8,
    op_a: u8,
) -> UnitResult {
    let Some((l, r, d)) = operands(
        ctx,
        "CMPDMAREG",
        op_bis_const,
        result as u16,
        op_b,
        op_a,
        !0,
    )?
    else {
        return Ok(());
    };
    let v = match op_sel {
        0 => l > r,
        1 => l < r,
        2 => l == r,
        m => return ctx.undefined(format!("CMPDMAREG mode {m} is undefined; ignored")),
    };
    store(ctx, d, v as u32);
    Ok(())
}
