//! ELWADD, ELWSUB and ELWMUL: 8x16 element-wise operations of SrcA with SrcB (optionally
//! broadcasting one SrcB row and/or SrcB column 0), assigned or accumulated onto Dst.
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ELWADD.md`, `ELWSUB.md`,
//! `ELWMUL.md`.

use super::datapath;
use super::lanes;
use super::{
    formats, read_words, store_int, write_words, DstRows, Elw, MatrixCtx, Retired, SrcAStyle,
};

/// The rows an element-wise instruction uses: `SrcARow`, `SrcBRow`, `DstRow`.
fn rows(ctx: &MatrixCtx<'_>, f: &Elw) -> (usize, usize, u32) {
    let a = (ctx.regs.rwc_src_a & 0x38) as usize;
    let b = (ctx.regs.rwc_src_b & if f.broadcast_row { 0x3f } else { 0x38 }) as usize;
    let d = (f.dst + ctx.regs.dst_row_base) & 0x3f8;
    (a, b, d)
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

/// ELWSUB: `Dst (+)= SrcA - SrcB` (ELWADD with SrcB's sign flipped, T1).
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
    let format = ctx.regs.format;
    let (pa, pb, mode) = format.datapath(style, dst32);
    let flush_b = !format.zero_flag_disabled_src;
    for i in 0..8 {
        let a_raw = *ctx.src_a.row(ctx.regs.src_a_bank, a_row + i);
        let b_raw = src_b_row(ctx, f, b_row, i);
        let row = dst_row + i as u32;
        if style == SrcAStyle::Int8 {
            for j in 0..16 {
                let b = if sub { b_raw[j] ^ (1 << 18) } else { b_raw[j] };
                let ai = formats::read_src_int8(a_raw[j], true);
                let bi = formats::read_src_int8(b, flush_b);
                store_int(ctx, row, j, ai + bi, f.add_dst);
            }
            continue;
        }
        let b_in = if sub {
            b_raw.map(|b| b ^ (1 << 18))
        } else {
            b_raw
        };
        let new = if f.add_dst {
            let old = read_words(ctx, mode, row);
            lanes::in_lanes(
                #[inline(always)]
                || {
                    let t = lanes::add_terms(&a_raw, &b_in, (pa, pb), flush_b, mode, phase);
                    lanes::accumulate_lanes(&[t], &old, mode)
                },
            )
        } else {
            // The same rules on Dst words of zero, which the compiler then knows: their half
            // of the alignment and sum folds away (the common ELWADD, tt-llk's eltwise add).
            lanes::in_lanes(
                #[inline(always)]
                || {
                    let t = lanes::add_terms(&a_raw, &b_in, (pa, pb), flush_b, mode, phase);
                    lanes::accumulate_lanes(&[t], &[0; 16], mode)
                },
            )
        };
        write_words(ctx, mode, row, &new);
    }
    retired(f, dst_row, f.add_dst, dst32)
}

/// ELWMUL: `Dst += SrcA * SrcB`, one fidelity phase's slices of the operands (T2, T3).
pub(super) fn elwmul(
    ctx: &mut MatrixCtx<'_>,
    (style, dst32): (SrcAStyle, bool),
    f: &Elw,
) -> Retired {
    let (a_row, b_row, dst_row) = rows(ctx, f);
    let phase = ctx.regs.fidelity_phase & 3;
    let format = ctx.regs.format;
    let (pa, pb, mode) = format.datapath(style, dst32);
    let flush_b = !format.zero_flag_disabled_src;
    let adj = datapath::product_adj(mode, phase);
    for i in 0..8 {
        let a_raw = *ctx.src_a.row(ctx.regs.src_a_bank, a_row + i);
        let b_raw = src_b_row(ctx, f, b_row, i);
        let row = dst_row + i as u32;
        if style == SrcAStyle::Int8 {
            for j in 0..16 {
                let ai = formats::read_src_int8(
                    a_raw[j] & formats::src_a_int8_fidelity_mask(phase),
                    true,
                );
                let bi = formats::read_src_int8(
                    b_raw[j] & formats::src_b_int8_fidelity_mask(phase),
                    flush_b,
                );
                store_int(ctx, row, j, ai * bi, true);
            }
            continue;
        }
        let old = read_words(ctx, mode, row);
        let new = lanes::in_lanes(
            #[inline(always)]
            || {
                let t = lanes::product_terms(&a_raw, &b_raw, (pa, pb), flush_b, phase, adj);
                lanes::accumulate_lanes(&[t], &old, mode)
            },
        );
        write_words(ctx, mode, row, &new);
    }
    retired(f, dst_row, true, dst32)
}
