//! MVMUL, DOTPV and GAPOOL: `Dst += SrcB @ SrcA` with an 8x16 (7x16 broadcast, 4x16 GAPOOL)
//! SrcB block, a 16x16 SrcA block and one fidelity phase per instruction.
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/MVMUL.md` (DOTPV.md and
//! GAPOOL.md are MVMUL's model with the row count changed).

use super::{
    arith, fast, formats, read_src_fp, store_fp, store_int, store_row_f32, DstRows, Matmul,
    MatrixCtx, Retired, SrcAStyle,
};

/// Which of the three row shapes the instruction has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// MVMUL and DOTPV: 8 rows.
    Full,
    /// MVMUL with `BroadcastSrcBRow`: one SrcB row times SrcA onto Dst rows 0, 2, 4, 6 of a
    /// 7-row block.
    BroadcastRow,
    /// GAPOOL: 4 rows, SrcB still taken from an 8-row-aligned block.
    Gapool,
}

/// The one function for MVMUL, DOTPV and GAPOOL. `Err` is the sentence for an undefined
/// access.
pub(super) fn mvmul(
    ctx: &mut MatrixCtx<'_>,
    style: SrcAStyle,
    dst32: bool,
    shape: Shape,
    f: &Matmul,
) -> Result<Retired, String> {
    let (num_rows, bcast) = match shape {
        Shape::Full => (8u32, false),
        Shape::BroadcastRow => (7, true),
        Shape::Gapool => (4, false),
    };
    let a_row = (ctx.regs.rwc_src_a & 0x38) as usize;
    if a_row + 16 > 64 {
        return Err(format!(
            "SrcA rows {a_row}..={} run past row 63 (RWC SrcA = {})",
            a_row + 15,
            ctx.regs.rwc_src_a
        ));
    }
    let b_row = (ctx.regs.rwc_src_b & if bcast { 0x3f } else { 0x38 }) as usize;
    let dst_row = (f.dst + ctx.regs.dst_row_base) & (0x400 - num_rows);
    let phase = (ctx.regs.fidelity_phase & 3) as u8;
    let (a_bank, b_bank) = (ctx.regs.src_a_bank, ctx.regs.src_b_bank);
    let b_src_row = |i: usize| b_row + if bcast { 0 } else { i };
    let step = if bcast { 2 } else { 1 };

    if style == SrcAStyle::Int8 {
        let (ma, mb) = (
            arith::src_a_int8_fidelity_mask(phase),
            arith::src_b_int8_fidelity_mask(phase),
        );
        // SrcA[k][j] reduced to the phase's bits, read once for all rows.
        let a: [[i32; 16]; 16] = std::array::from_fn(|k| {
            let row = ctx.src_a.row(a_bank, a_row + k);
            std::array::from_fn(|j| formats::read_src_int8(row[j] & ma))
        });
        for i in (0..num_rows as usize).step_by(step) {
            let b_raw = ctx.src_b.row(b_bank, b_src_row(i));
            let b: [i32; 16] = std::array::from_fn(|k| formats::read_src_int8(b_raw[k] & mb));
            // Every column's `x += b[k] * a[k][j]` (k = 0..16); at most 16 * 1023^2, exact.
            let mut x = [0i32; 16];
            for (bk, a_k) in b.iter().zip(a.iter()) {
                for (xj, akj) in x.iter_mut().zip(a_k.iter()) {
                    *xj += bk * akj;
                }
            }
            for (j, &xj) in x.iter().enumerate() {
                store_int(ctx, dst_row + i as u32, j, xj, true);
            }
        }
    } else {
        // The fast path in `f32` where it provably gives the model's bits ([`fast`]); the
        // general model for the rows (or the block) where it declines.
        let block = {
            let mut raw = [[0u32; 16]; 16];
            for (k, r) in raw.iter_mut().enumerate() {
                *r = *ctx.src_a.row(a_bank, a_row + k);
            }
            fast::SrcABlock::load(style, phase, &raw)
        };
        let mut general_a: Option<[[f64; 16]; 16]> = None;
        for i in (0..num_rows as usize).step_by(step) {
            let b_raw = *ctx.src_b.row(b_bank, b_src_row(i));
            let row = dst_row + i as u32;
            if let Some(x) = block
                .as_ref()
                .and_then(|a| fast::mac_row(style, phase, &b_raw, a))
            {
                store_row_f32(ctx, style, dst32, row, &x, true);
                continue;
            }
            // SrcA[k][j] reduced to the phase's bits.
            let a = general_a.get_or_insert_with(|| {
                let mut a = [[0.0f64; 16]; 16];
                for (k, a_k) in a.iter_mut().enumerate() {
                    for (j, akj) in a_k.iter_mut().enumerate() {
                        let v = read_src_fp(style, ctx.src_a.read(a_bank, a_row + k, j));
                        *akj = arith::src_a_fidelity_bits(v, phase);
                    }
                }
                a
            });
            let mut b = [0.0f64; 16];
            for (bk, &v) in b.iter_mut().zip(b_raw.iter()) {
                *bk = arith::src_b_fidelity_bits(read_src_fp(style, v), phase);
            }
            for (j, x) in arith::mac_row(&b, a).into_iter().enumerate() {
                store_fp(ctx, style, dst32, row, j, x, true);
            }
        }
    }
    let rows = DstRows {
        first: dst_row,
        count: num_rows,
        wide: dst32,
    };
    Ok(Retired {
        flip_src_a: f.flip_a,
        flip_src_b: f.flip_b,
        addr_mode: Some(f.addr_mode),
        clear_exp_hist: false,
        dst_read: Some(rows),
        dst_written: Some(rows),
    })
}
