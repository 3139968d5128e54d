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

/// `REG2FLOP`: a GPR to THCON configuration (`TargetSel` 0; 32 bits, or 128 bits from four
/// aligned GPRs) or to one ADC counter (`TargetSel` 2 or 3, 3 = `OverrideThread`), with
/// `SizeSel` / `ByteOffset` selecting which part of the GPR. Pages: tt-isa-documentation
/// WormholeB0/TensixTile/TensixCoprocessor/REG2FLOP_Configuration.md, REG2FLOP_ADC.md.
#[allow(clippy::too_many_arguments)]
pub fn reg2flop(
    ctx: &mut Ctx,
    size_sel: u8,
    target_sel: u8,
    byte_offset: u8,
    context_id_2: u8,
    flop_index: u16,
    reg_index: u8,
) -> UnitResult {
    use crate::state::cfg_fields::{GLOBAL_CFGREG_BASE_ADDR32, THCON_CFGREG_BASE_ADDR32};
    use crate::state::{AdcUnit, Coord};
    let t = ctx.thread;
    match target_sel {
        0 => {
            let idx = flop_index as usize;
            if idx >= GLOBAL_CFGREG_BASE_ADDR32 - THCON_CFGREG_BASE_ADDR32 {
                return ctx.undefined(format!(
                    "REG2FLOP configuration index {idx} is beyond the THCON registers; ignored"
                ));
            }
            let sid = ctx.state.cfg.state_id(t);
            let base = THCON_CFGREG_BASE_ADDR32;
            if size_sel == 0 {
                for k in 0..4 {
                    let v = ctx.state.gprs[t][(reg_index as usize & !3) + k];
                    let _ = ctx.state.cfg.write_word(sid, base + (idx & !3) + k, v);
                }
            } else {
                let v = ctx.state.gprs[t][reg_index as usize];
                let _ = ctx.state.cfg.write_word(sid, base + idx, v);
            }
            Ok(())
        }
        2 | 3 => {
            let mut v = ctx.state.gprs[t][reg_index as usize];
            v = match size_sel {
                0 => 0,
                1 if byte_offset != 0 => 0,
                1 => v,
                2 if byte_offset == 0 => v & 0xffff,
                2 if byte_offset == 2 => v >> 16,
                2 => 0,
                _ => (v >> (8 * byte_offset as u32)) & 0xff,
            };
            let which = if target_sel == 3 {
                context_id_2 as usize
            } else {
                t
            };
            if which >= 3 {
                return Ok(()); // the page: an override naming no thread does nothing
            }
            let unit = match (flop_index >> 3) & 3 {
                0 => AdcUnit::Unpacker0,
                1 => AdcUnit::Unpacker1,
                2 => AdcUnit::Packers,
                _ => return Ok(()),
            };
            let coord = [Coord::X, Coord::Y, Coord::Z, Coord::W][(flop_index & 3) as usize];
            let ch = &mut ctx.state.adcs[which].unit_mut(unit)[((flop_index >> 5) & 1) as usize];
            if flop_index & 4 != 0 {
                ch.set_cr(coord, v);
            } else {
                ch.set(coord, v);
            }
            Ok(())
        }
        _ => ctx.undefined("REG2FLOP with TargetSel 1 is undefined; ignored"),
    }
}
