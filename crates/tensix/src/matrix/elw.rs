//! ELWADD, ELWSUB and ELWMUL: 8x16 element-wise operations of SrcA with SrcB (optionally
//! broadcasting one SrcB row and/or SrcB column 0), assigned or accumulated onto Dst.
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ELWADD.md`, `ELWSUB.md`,
//! `ELWMUL.md`.

use super::{
    arith, fast, formats, read_src_fp, store_fp, store_int, store_row_f32, DstRows, Elw, MatrixCtx,
    Retired, SrcAStyle,
};

/// The rows an element-wise instruction uses: `SrcARow`, `SrcBRow`, `DstRow`.
fn rows(ctx: &MatrixCtx<'_>, f: &Elw) -> (usize, usize, u32) {
    let a = (ctx.regs.rwc_src_a & 0x38) as usize;
    let b = (ctx.regs.rwc_src_b & if f.broadcast_row { 0x3f } else { 0x38 }) as usize;
    let d = (f.dst + ctx.regs.dst_row_base) & 0x3f8;
    (a, b, d)
}

/// The SrcB datum element (i, j) uses, after the broadcasts.
fn src_b_at(ctx: &MatrixCtx<'_>, f: &Elw, b_row: usize, i: usize, j: usize) -> u32 {
    let r = b_row + if f.broadcast_row { 0 } else { i };
    let c = if f.broadcast_col0 { 0 } else { j };
    ctx.src_b.read(ctx.regs.src_b_bank, r, c)
}

/// SrcB's 16 data for output row `i`, after the broadcasts ([`src_b_at`] for every column).
fn src_b_row(ctx: &MatrixCtx<'_>, f: &Elw, b_row: usize, i: usize) -> [u32; 16] {
    let r = b_row + if f.broadcast_row { 0 } else { i };
    let row = ctx.src_b.row(ctx.regs.src_b_bank, r);
    if f.broadcast_col0 {
        [row[0]; 16]
    } else {
        *row
    }
}

fn retired(f: &Elw, dst_row: u32, reads_dst: bool, wide: bool) -> Retired {
    let rows = DstRows {
        first: dst_row,
        count: 8,
        wide,
    };
    Retired {
        flip_src_a: f.flip_a,
        flip_src_b: f.flip_b,
        addr_mode: Some(f.addr_mode),
        clear_exp_hist: false,
        dst_read: reads_dst.then_some(rows),
        dst_written: Some(rows),
    }
}

/// ELWADD: `Dst (+)= SrcA + SrcB`.
pub(super) fn elwadd(ctx: &mut MatrixCtx<'_>, style: (SrcAStyle, bool), f: &Elw) -> Retired {
    add_or_sub(ctx, style, f, false)
}

/// ELWSUB: `Dst (+)= SrcA - SrcB` (ELWADD's model with `-` for `+`).
pub(super) fn elwsub(ctx: &mut MatrixCtx<'_>, style: (SrcAStyle, bool), f: &Elw) -> Retired {
    add_or_sub(ctx, style, f, true)
}

fn add_or_sub(
    ctx: &mut MatrixCtx<'_>,
    (style, dst32): (SrcAStyle, bool),
    f: &Elw,
    sub: bool,
) -> Retired {
    let (a_row, b_row, dst_row) = rows(ctx, f);
    let phase = ctx.regs.fidelity_phase & 3;
    for i in 0..8 {
        // The fast path in `f32` where it provably gives the model's bits ([`fast`]).
        let a_raw = *ctx.src_a.row(ctx.regs.src_a_bank, a_row + i);
        let b_raw = src_b_row(ctx, f, b_row, i);
        if let Some(x) = fast::add_row(style, &a_raw, &b_raw, sub, phase) {
            store_row_f32(ctx, style, dst32, dst_row + i as u32, &x, f.add_dst);
            continue;
        }
        for j in 0..16 {
            let a = ctx.src_a.read(ctx.regs.src_a_bank, a_row + i, j);
            let b = src_b_at(ctx, f, b_row, i, j);
            let row = dst_row + i as u32;
            if style == SrcAStyle::Int8 {
                let (ai, bi) = (formats::read_src_int8(a), formats::read_src_int8(b));
                let r = if sub { ai - bi } else { ai + bi };
                store_int(ctx, row, j, r, f.add_dst);
            } else {
                let (af, bf) = (read_src_fp(style, a), read_src_fp(style, b));
                let mut r = if sub {
                    arith::fsub(af, bf)
                } else {
                    arith::fadd(af, bf)
                };
                // "These divisions are rarely desirable": a non-zero phase scales the sum down.
                if phase & 1 != 0 {
                    r = arith::fdiv_pow2(r, 5);
                }
                if phase & 2 != 0 {
                    r = arith::fdiv_pow2(r, 7);
                }
                store_fp(ctx, style, dst32, row, j, r, f.add_dst);
            }
        }
    }
    retired(f, dst_row, f.add_dst, dst32)
}

/// ELWMUL: `Dst += SrcA * SrcB`, the operands reduced to the fidelity phase's bits.
pub(super) fn elwmul(
    ctx: &mut MatrixCtx<'_>,
    (style, dst32): (SrcAStyle, bool),
    f: &Elw,
) -> Retired {
    let (a_row, b_row, dst_row) = rows(ctx, f);
    let phase = (ctx.regs.fidelity_phase & 3) as u8;
    for i in 0..8 {
        let a_raw = *ctx.src_a.row(ctx.regs.src_a_bank, a_row + i);
        let b_raw = src_b_row(ctx, f, b_row, i);
        if let Some(x) = fast::mul_row(style, &a_raw, &b_raw, phase) {
            store_row_f32(ctx, style, dst32, dst_row + i as u32, &x, true);
            continue;
        }
        for j in 0..16 {
            let a = ctx.src_a.read(ctx.regs.src_a_bank, a_row + i, j);
            let b = src_b_at(ctx, f, b_row, i, j);
            let row = dst_row + i as u32;
            if style == SrcAStyle::Int8 {
                let ai = formats::read_src_int8(a & arith::src_a_int8_fidelity_mask(phase));
                let bi = formats::read_src_int8(b & arith::src_b_int8_fidelity_mask(phase));
                store_int(ctx, row, j, ai * bi, true);
            } else {
                let af = arith::src_a_fidelity_bits(read_src_fp(style, a), phase);
                let bf = arith::src_b_fidelity_bits(read_src_fp(style, b), phase);
                store_fp(ctx, style, dst32, row, j, arith::fmul(af, bf), true);
            }
        }
    }
    retired(f, dst_row, true, dst32)
}
