//! MVMUL, DOTPV and GAPOOL: `Dst += SrcB @ SrcA` with an 8x16 (7x16 broadcast, 4x16 GAPOOL)
//! SrcB block, a 16x16 SrcA block and one fidelity phase per instruction.
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/MVMUL.md` (DOTPV.md and
//! GAPOOL.md are MVMUL's model with the row count changed).

use super::datapath::{self, Operand, Precision, Product, Term};
use super::{
    formats, read_word, store_int, write_word, DstRows, Matmul, MatrixCtx, Retired, SrcAStyle,
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
    let phase = ctx.regs.fidelity_phase & 3;
    let (a_bank, b_bank) = (ctx.regs.src_a_bank, ctx.regs.src_b_bank);
    let b_src_row = |i: usize| b_row + if bcast { 0 } else { i };
    let step = if bcast { 2 } else { 1 };

    if style == SrcAStyle::Int8 {
        let (ma, mb) = (
            formats::src_a_int8_fidelity_mask(phase),
            formats::src_b_int8_fidelity_mask(phase),
        );
        // SrcA[k][j] reduced to the phase's bits, read once for all rows.
        let a: [[i32; 16]; 16] = std::array::from_fn(|k| {
            let row = ctx.src_a.row(a_bank, a_row + k);
            std::array::from_fn(|j| formats::read_src_int8(row[j] & ma, true))
        });
        for i in (0..num_rows as usize).step_by(step) {
            let b_raw = ctx.src_b.row(b_bank, b_src_row(i));
            let b: [i32; 16] = std::array::from_fn(|k| formats::read_src_int8(b_raw[k] & mb, true));
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
        let (pa, pb, mode) = ctx.regs.format.datapath(style, dst32);
        let adj = datapath::product_adj(mode, phase);
        let block = SrcABlock::read(ctx, a_bank, a_row, pa, phase);
        for i in (0..num_rows as usize).step_by(step) {
            let b_raw = *ctx.src_b.row(b_bank, b_src_row(i));
            let b: [Operand; 16] = std::array::from_fn(|k| Operand::read(b_raw[k], pb, true));
            let row = dst_row + i as u32;
            let groups = block.group_terms(&b, phase, adj);
            for (j, [g0, g1]) in groups.into_iter().enumerate() {
                let old = read_word(ctx, mode, row, j);
                write_word(
                    ctx,
                    mode,
                    row,
                    j,
                    datapath::accumulate(&[g0, g1], old, mode),
                );
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

/// SrcA's 16x16 block as the multipliers see it for one phase (T2): per row k and column j the
/// exponent, the signed 5-bit slice, and whether the operand is zero. Read once per
/// instruction, used for every SrcB row.
struct SrcABlock {
    exp: [[i32; 16]; 16],
    slice: [[i32; 16]; 16],
    zero: [[bool; 16]; 16],
}

impl SrcABlock {
    fn read(ctx: &MatrixCtx<'_>, bank: usize, first: usize, p: Precision, phase: u32) -> Self {
        let mut b = SrcABlock {
            exp: [[0; 16]; 16],
            slice: [[0; 16]; 16],
            zero: [[true; 16]; 16],
        };
        for k in 0..16 {
            let row = ctx.src_a.row(bank, first + k);
            for j in 0..16 {
                let o = Operand::read(row[j], p, true);
                if !o.zero {
                    let m = datapath::a_slice(o.man | 0x400, phase) as i32;
                    b.exp[k][j] = o.exp;
                    b.slice[k][j] = if o.sign != 0 { -m } else { m };
                    b.zero[k][j] = false;
                }
            }
        }
        b
    }

    /// T4 for every column j: the two group terms of `Σ_k b[k] · A[k][j]`.
    fn group_terms(&self, b: &[Operand; 16], phase: u32, adj: i32) -> [[Term; 2]; 16] {
        let mut out = [[Term::default(); 2]; 16];
        let zero_exp = adj.max(0);
        for (g, ks) in [0..8usize, 8..16].into_iter().enumerate() {
            for (j, o) in out.iter_mut().enumerate() {
                let mut products = [Product::default(); 8];
                for (p, k) in products.iter_mut().zip(ks.clone()) {
                    *p = if self.zero[k][j] || b[k].zero {
                        Product {
                            exp: zero_exp,
                            value: 0,
                        }
                    } else {
                        let mb = datapath::b_slice(b[k].man | 0x400, phase) as i32;
                        let v = self.slice[k][j] * mb;
                        Product {
                            exp: self.exp[k][j] + b[k].exp + adj,
                            value: if b[k].sign != 0 { -v } else { v },
                        }
                    };
                }
                o[g] = datapath::group_term(&products);
            }
        }
        out
    }
}
