//! Matrix Unit data movement between `SrcA`/`SrcB` and `Dst`, and clearing. Effects at
//! dispatch, with the bank the Matrix Unit holds at that moment. Pages (tt-isa-documentation
//! WormholeB0/TensixTile/TensixCoprocessor/): MOVA2D.md, MOVB2D.md, MOVD2A.md, MOVD2B.md,
//! ZEROSRC.md, ZEROACC.md; Blackhole field positions from the instruction table (MOVB2D's
//! `instr_mod` bit 0 BroadcastCol0, bit 1 Broadcast1RowTo8, bit 2 Move4Rows; MOVA2D's and
//! MOVD2x's bit 1 Move8Rows / Move4Rows).
//!
//! The Vector Unit's `LaneConfig[].BLOCK_DEST_MOV` column mask belongs to the SFPU state; it
//! is taken as clear (every column moves), its reset value.
use crate::formats::{
    remove_high_exponent, remove_low_mantissa, shuffle_bf16, shuffle_fp16, shuffle_tf32, DataFormat,
};
use crate::state::cfg_fields as f;
use crate::state::{SrcData, DST_COLS};

use super::{Ctx, UnitResult};

/// `SrcAFmt`: `ALU_FORMAT_SPEC_REG_SrcA_val` when overridden, else `ALU_FORMAT_SPEC_REG0_SrcA`.
fn src_a_fmt(ctx: &Ctx) -> u32 {
    if ctx.cfg(f::ALU_FORMAT_SPEC_REG_SrcA_override) != 0 {
        ctx.cfg(f::ALU_FORMAT_SPEC_REG_SrcA_val)
    } else {
        ctx.cfg(f::ALU_FORMAT_SPEC_REG0_SrcA)
    }
}

/// The SrcA format the moves between Src and Dst convert with. On Blackhole it is the format
/// the Src bank they read (MOVA2D, MOVB2D) or write (MOVD2A, MOVD2B) was last unpacked with (for
/// MOVB2D and MOVD2B the SrcB bank's), unless `DISABLE_IMPLIED_SRCA_FMT` is set; then, as on
/// Wormhole, the configured SrcA format. A bank no unpacker has written since
/// reset falls back to the configured format. Rule restated in `docs/tensix-datapath.md`
/// ("Moves between Src and Dst").
fn move_src_fmt(ctx: &Ctx, from: FromSrc) -> u32 {
    let configured = src_a_fmt(ctx);
    if ctx.cfg(f::DISABLE_IMPLIED_SRCA_FMT_Base) != 0 {
        return configured;
    }
    let implied = match from {
        FromSrc::A => ctx.state.src_a.format(ctx.banks.math_a),
        FromSrc::B { .. } => ctx.state.src_b.format(ctx.banks.math_b),
    };
    implied.unwrap_or(configured)
}

/// `DstRow + DEST_TARGET_REG_CFG_MATH_Offset + RWCs.Dst + DEST_REGW_BASE_Base`.
fn dst_base(ctx: &Ctx, dst: u16) -> u32 {
    let t = ctx.thread;
    dst as u32
        + ctx.cfg(f::DEST_TARGET_REG_CFG_MATH_Offset)
        + ctx.state.rwcs[t].dst as u32
        + ctx.cfg(f::DEST_REGW_BASE_Base)
}

/// Which register a Src→Dst move reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FromSrc {
    A,
    B {
        broadcast_col0: bool,
        broadcast_row: bool,
    },
}

/// The shared body of MOVA2D / MOVB2D: rows of Src (Matrix Unit bank) to Dst.
fn src_to_dst(
    ctx: &mut Ctx,
    from: FromSrc,
    dest_32b_lo: u8,
    src: u8,
    addr_mode: u8,
    num_rows: u32,
    dst: u16,
) -> UnitResult {
    let t = ctx.thread;
    let fmt = move_src_fmt(ctx, from);
    let use_8b_exp = ctx.cfg(f::FP16A_FORCE_Enable) == 0
        && DataFormat::from_code(fmt).is_some_and(|d| d.has_8b_exponent());
    let is_tf32 = fmt == DataFormat::Tf32.code();
    let flush = ctx.cfg(f::ALU_ACC_CTRL_Zero_Flag_disabled_src) == 0;
    let dcfg = ctx.state.dest_access_cfg(t);
    let (mut drow, mut srow) = (dst_base(ctx, dst), src as u32);
    let (bank, rwc_src) = match from {
        FromSrc::A => (ctx.banks.math_a, ctx.state.rwcs[t].src_a),
        FromSrc::B { .. } => (ctx.banks.math_b, ctx.state.rwcs[t].src_b),
    };
    srow += rwc_src as u32;
    let broadcast_row = matches!(
        from,
        FromSrc::B {
            broadcast_row: true,
            ..
        }
    );
    match num_rows {
        8 if broadcast_row => {
            drow &= 0x3f8;
            srow &= 0x3f;
        }
        8 => {
            drow &= 0x3f8;
            srow &= 0x38;
        }
        4 => {
            drow &= 0x3fc;
            srow &= 0x3c;
        }
        _ => {
            drow &= 0x3ff;
            srow &= 0x3f;
        }
    }
    // Dst.md, Instruction scheduling: the write shadows its blocks for the hazard checker.
    let written = crate::matrix::DstRows {
        first: drow,
        count: num_rows,
        wide: is_tf32 || dest_32b_lo != 0,
    };
    let at = crate::matrix::hazard::DstAccess {
        word: ctx.word,
        thread: t as u8,
        cycle: ctx.cycle,
    };
    ctx.state.matrix.hazards.note_write(written, dcfg, at);
    // ZEROACC.md: any write to a Dst row makes it defined again; the move is a Matrix Unit
    // write, so GMPOOL afterwards reads the moved data, not minus infinity.
    ctx.state.matrix.dst_rows_defined(written, dcfg);
    for _ in 0..num_rows {
        for col in 0..DST_COLS {
            let scol = match from {
                FromSrc::B {
                    broadcast_col0: true,
                    ..
                } => 0,
                _ => col,
            };
            let data = match from {
                FromSrc::A => &ctx.state.src_a,
                FromSrc::B { .. } => &ctx.state.src_b,
            };
            let mut v = data.read(bank, SrcData::row_index(srow), scol);
            if flush && v & 0xff == 0 {
                v = 0;
            }
            let v16 = if use_8b_exp {
                remove_low_mantissa(v)
            } else {
                remove_high_exponent(v)
            };
            if is_tf32 {
                let mut low = (((v >> 8) & 7) << 13) as u16;
                if dest_32b_lo != 0 {
                    low |= v16;
                }
                ctx.state
                    .dst
                    .write32(drow, col, ((v16 as u32) << 16) | low as u32, dcfg);
            } else if dest_32b_lo != 0 {
                let old = ctx.state.dst.read32(drow, col, dcfg);
                ctx.state
                    .dst
                    .write32(drow, col, (old & 0xffff_0000) | v16 as u32, dcfg);
            } else {
                ctx.state.dst.write16(drow, col, v16, dcfg);
            }
        }
        drow += 1;
        if !broadcast_row {
            srow += 1;
        }
    }
    ctx.state.apply_addr_mod(t, addr_mode as usize, true);
    Ok(())
}

/// `MOVA2D`: one row, or 8 rows (`instr_mod` bit 1), of `SrcA` to `Dst`.
pub fn mova2d(
    ctx: &mut Ctx,
    dest_32b_lo: u8,
    src: u8,
    addr_mode: u8,
    instr_mod: u8,
    dst: u16,
) -> UnitResult {
    let rows = if instr_mod & 2 != 0 { 8 } else { 1 };
    src_to_dst(ctx, FromSrc::A, dest_32b_lo, src, addr_mode, rows, dst)
}

/// `MOVDBGA2D`: the debug variant of MOVA2D; bhemu gives it MOVA2D's data movement.
pub fn movdbga2d(
    ctx: &mut Ctx,
    dest_32b_lo: u8,
    src: u8,
    addr_mode: u8,
    instr_mod: u8,
    dst: u16,
) -> UnitResult {
    ctx.not_modelled("MOVDBGA2D (moved as MOVA2D)")?;
    mova2d(ctx, dest_32b_lo, src, addr_mode, instr_mod, dst)
}

/// `MOVB2D`: one row, 4 rows, or one row broadcast to 8 (optionally column 0 broadcast to
/// all 16) of `SrcB` to `Dst`.
pub fn movb2d(
    ctx: &mut Ctx,
    dest_32b_lo: u8,
    src: u8,
    addr_mode: u8,
    instr_mod: u8,
    dst: u16,
) -> UnitResult {
    let broadcast_col0 = instr_mod & 1 != 0;
    let broadcast_row = instr_mod & 2 != 0;
    let rows = if broadcast_row {
        8
    } else if instr_mod & 4 != 0 {
        4
    } else {
        1
    };
    let from = FromSrc::B {
        broadcast_col0,
        broadcast_row,
    };
    src_to_dst(ctx, from, dest_32b_lo, src, addr_mode, rows, dst)
}

/// `SrcAStyle` / `SrcBStyle` of MOVD2A / MOVD2B.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Bf16,
    Fp16,
    Tf32,
}

/// The shared body of MOVD2A / MOVD2B: rows of `Dst` to Src (Matrix Unit bank).
fn dst_to_src(
    ctx: &mut Ctx,
    to_a: bool,
    dest_32b_lo: u8,
    src: u8,
    addr_mode: u8,
    four: bool,
    dst: u16,
) -> UnitResult {
    let t = ctx.thread;
    let (use32, style) = if ctx.cfg(f::FP16A_FORCE_Enable) != 0 {
        (false, Style::Fp16)
    } else {
        // Blackhole: the format the bank being written was last unpacked with, as for the
        // Src-to-Dst moves (`move_src_fmt`).
        let into = if to_a {
            FromSrc::A
        } else {
            FromSrc::B {
                broadcast_col0: false,
                broadcast_row: false,
            }
        };
        let fmt = move_src_fmt(ctx, into);
        let use32 = ctx.cfg(f::ALU_ACC_CTRL_Fp32_enabled) != 0
            || ctx.cfg(f::ALU_ACC_CTRL_INT8_math_enabled) != 0;
        use DataFormat::*;
        let style = match DataFormat::from_code(fmt) {
            Some(Fp32 | Bf16 | Bfp8 | Bfp4 | Bfp2 | Int32 | Int16) => Style::Bf16,
            Some(Fp16 | Fp8 | Bfp8a | Bfp4a | Bfp2a | Int8) => Style::Fp16,
            Some(Tf32) => Style::Tf32,
            None => {
                return ctx.undefined(format!(
                    "MOVD2x with SrcA format code {fmt}, which names no format; ignored"
                ));
            }
        };
        (use32, style)
    };
    let dcfg = ctx.state.dest_access_cfg(t);
    let rwc_src = if to_a {
        ctx.state.rwcs[t].src_a
    } else {
        ctx.state.rwcs[t].src_b
    };
    let mut drow = dst_base(ctx, dst);
    let mut srow = src as u32 + rwc_src as u32;
    let rows = if four {
        drow &= 0x3fc;
        srow &= 0x3c;
        4
    } else {
        drow &= 0x3ff;
        srow &= 0x3f;
        1
    };
    let bank = if to_a {
        ctx.banks.math_a
    } else {
        ctx.banks.math_b
    };
    for _ in 0..rows {
        for col in 0..DST_COLS {
            let v = if use32 {
                let mut d = ctx.state.dst.read32(drow, col, dcfg);
                if dest_32b_lo != 0 {
                    d = (d << 16) | (d & 0xffff);
                }
                match style {
                    Style::Bf16 => shuffle_bf16((d >> 16) as u16),
                    Style::Fp16 => shuffle_fp16((d >> 16) as u16),
                    Style::Tf32 if dest_32b_lo == 0 => shuffle_tf32(d >> 13),
                    Style::Tf32 => d & 0x1fff,
                }
            } else {
                let d = ctx.state.dst.read16(drow, col, dcfg);
                if dest_32b_lo != 0 || style == Style::Tf32 {
                    return ctx.undefined(
                        "MOVD2x reading 32-bit data (UseDst32bLo or TF32) from 16-bit Dst; rest of the move skipped",
                    );
                }
                if style == Style::Bf16 {
                    shuffle_bf16(d)
                } else {
                    shuffle_fp16(d)
                }
            };
            let reg = if to_a {
                &mut ctx.state.src_a
            } else {
                &mut ctx.state.src_b
            };
            reg.write(bank, SrcData::row_index(srow), col, v);
        }
        drow += 1;
        srow += 1;
    }
    ctx.state.apply_addr_mod(t, addr_mode as usize, true);
    Ok(())
}

/// `MOVD2A`: one row, or 4 rows (`instr_mod` bit 1), of `Dst` to `SrcA`.
pub fn movd2a(
    ctx: &mut Ctx,
    dest_32b_lo: u8,
    src: u8,
    addr_mode: u8,
    instr_mod: u8,
    dst: u16,
) -> UnitResult {
    dst_to_src(
        ctx,
        true,
        dest_32b_lo,
        src,
        addr_mode,
        instr_mod & 2 != 0,
        dst,
    )
}

/// `MOVD2B`: one row, or 4 rows (`instr_mod` bit 1), of `Dst` to `SrcB`.
pub fn movd2b(
    ctx: &mut Ctx,
    dest_32b_lo: u8,
    src: u8,
    addr_mode: u8,
    instr_mod: u8,
    dst: u16,
) -> UnitResult {
    dst_to_src(
        ctx,
        false,
        dest_32b_lo,
        src,
        addr_mode,
        instr_mod & 2 != 0,
        dst,
    )
}

/// `ZEROSRC`: clear one or both banks of `SrcA` and/or `SrcB` (SrcA optionally to all ones,
/// `NegativeInfSrcA`). Blackhole's `zero_val` field is the page's `NegativeInfSrcA` bit and
/// reserved bits; `write_mode` is `SingleBankMatrixUnit`, `bank_mask` is `BothBanks`.
pub fn zerosrc(
    ctx: &mut Ctx,
    zero_val: u32,
    write_mode: u8,
    bank_mask: u8,
    src_mask: u8,
) -> UnitResult {
    if zero_val > 1 {
        return ctx.undefined(format!(
            "ZEROSRC zero_val {zero_val:#x} sets reserved bits; ignored"
        ));
    }
    let a_val = if zero_val != 0 {
        crate::state::SRC_DATUM_MASK
    } else {
        0
    };
    let pick = |matrix: usize, unpack: usize| -> Vec<usize> {
        if bank_mask != 0 {
            vec![0, 1]
        } else if write_mode != 0 {
            vec![matrix]
        } else {
            vec![unpack]
        }
    };
    if src_mask & 1 != 0 {
        for b in pick(ctx.banks.math_a, ctx.banks.unpack_a) {
            ctx.state.src_a.fill_bank(b, a_val);
        }
    }
    if src_mask & 2 != 0 {
        for b in pick(ctx.banks.math_b, ctx.banks.unpack_b) {
            ctx.state.src_b.fill_bank(b, 0);
        }
    }
    Ok(())
}

/// `MOVB2A`: one row, or 4 rows (`instr_mod` bit 1), of `SrcB` to `SrcA` (both the Matrix
/// Unit's banks), flushing zero-exponent data like MOVA2D.
pub fn movb2a(ctx: &mut Ctx, srca: u8, addr_mode: u8, instr_mod: u8, srcb: u16) -> UnitResult {
    if srca > 0x3f || srcb > 0x3f {
        return ctx.undefined(format!(
            "MOVB2A row operands {srca}/{srcb} exceed 6 bits; ignored"
        ));
    }
    let t = ctx.thread;
    let flush = ctx.cfg(f::ALU_ACC_CTRL_Zero_Flag_disabled_src) == 0;
    let mut a = srca as u32 + ctx.state.rwcs[t].src_a as u32;
    let mut b = srcb as u32 + ctx.state.rwcs[t].src_b as u32;
    let rows = if instr_mod & 2 != 0 {
        a &= 0x3c;
        b &= 0x3c;
        4
    } else {
        a &= 0x3f;
        b &= 0x3f;
        1
    };
    let (ba, bb) = (ctx.banks.math_a, ctx.banks.math_b);
    for k in 0..rows {
        for col in 0..DST_COLS {
            let mut v = ctx.state.src_b.read(bb, SrcData::row_index(b + k), col);
            if flush && v & 0xff == 0 {
                v = 0;
            }
            ctx.state.src_a.write(ba, SrcData::row_index(a + k), col, v);
        }
    }
    ctx.state.apply_addr_mod(t, addr_mode as usize, true);
    Ok(())
}

/// `TRNSPSRCB`: transposes the 16x16 block at rows 16..31 of the Matrix Unit's `SrcB` bank.
pub fn trnspsrcb(ctx: &mut Ctx) -> UnitResult {
    let b = ctx.banks.math_b;
    for i in 0..16 {
        for j in 0..i {
            let ij = ctx.state.src_b.read(b, 16 + i, j);
            let ji = ctx.state.src_b.read(b, 16 + j, i);
            ctx.state.src_b.write(b, 16 + i, j, ji);
            ctx.state.src_b.write(b, 16 + j, i, ij);
        }
    }
    Ok(())
}

/// `SHIFTXB`: rotates one row of the Matrix Unit's `SrcB` bank left by one column, shifting
/// in zero when `rot_shift` bit 0 (the page's `ShiftInZero`) is set.
pub fn shiftxb(ctx: &mut Ctx, addr_mode: u16, rot_shift: u8, shift_row: u16) -> UnitResult {
    if addr_mode > 7 || rot_shift > 1 || shift_row > 0x3f {
        return ctx.undefined("SHIFTXB with reserved bits set; ignored");
    }
    let t = ctx.thread;
    let b = ctx.banks.math_b;
    let row = ((shift_row as u32 + ctx.state.rwcs[t].src_b as u32) & 0x3f) as usize;
    let r = ctx.state.src_b.row_mut(b, row);
    let c0 = r[0];
    r.copy_within(1..16, 0);
    r[15] = if rot_shift != 0 { 0 } else { c0 };
    ctx.state.apply_addr_mod(t, addr_mode as usize, true);
    Ok(())
}
