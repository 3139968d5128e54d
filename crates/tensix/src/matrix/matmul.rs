//! MVMUL, DOTPV and GAPOOL: `Dst += SrcB @ SrcA` with an 8x16 (7x16 broadcast, 4x16 GAPOOL)
//! SrcB block, a 16x16 SrcA block and one fidelity phase per instruction.
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/MVMUL.md` (DOTPV.md and
//! GAPOOL.md are MVMUL's model with the row count changed).

use super::datapath::{self, AccMode, Operand, Precision};
use super::lanes::{self, TermLanes};
use super::{
    formats, read_words, store_int, write_words, DstRows, Matmul, MatrixCtx, Retired, SrcAStyle,
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
            let old = read_words(ctx, mode, row);
            let new = block.row(&b, phase, adj, &old, mode);
            write_words(ctx, mode, row, &new);
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
/// exponent and the signed 5-bit slice (0 for a zero operand), and a zero mask. Read once per
/// instruction, used for every SrcB row. Column-major inner arrays let the compiler run the 16
/// columns of T4 in vector lanes.
struct SrcABlock {
    exp: [[i32; 16]; 16],
    slice: [[i32; 16]; 16],
    /// All ones for a zero operand, else 0: a lane mask, so that the selects of T4 run in
    /// vector lanes (a `bool` per lane would be widened one lane at a time).
    zero: [[i32; 16]; 16],
}

impl SrcABlock {
    fn read(ctx: &MatrixCtx<'_>, bank: usize, first: usize, p: Precision, phase: u32) -> Self {
        SrcABlock::new(
            |k, j| Operand::read(ctx.src_a.row(bank, first + k)[j], p, true),
            phase,
        )
    }

    /// The block of operands `op(k, j)` for `phase`.
    fn new(op: impl Fn(usize, usize) -> Operand, phase: u32) -> Self {
        let mut b = SrcABlock {
            exp: [[0; 16]; 16],
            slice: [[0; 16]; 16],
            zero: [[-1; 16]; 16],
        };
        for k in 0..16 {
            for j in 0..16 {
                let o = op(k, j);
                if !o.zero {
                    let m = datapath::a_slice(o.man | 0x400, phase) as i32;
                    b.exp[k][j] = o.exp;
                    b.slice[k][j] = if o.sign != 0 { -m } else { m };
                    b.zero[k][j] = 0;
                }
            }
        }
        b
    }

    /// T4 for every column j: the two group terms of `Σ_k b[k] · A[k][j]`, in lanes: each
    /// column is one lane of the same integer steps (with AVX2, 8 lanes at once with per-lane
    /// shifts).
    #[cfg(test)]
    fn group_terms(&self, b: &[Operand; 16], phase: u32, adj: i32) -> [TermLanes; 2] {
        self.group_terms_lanes(b, phase, adj)
    }

    /// One Dst row: T4's two group terms of every column added to the old words `old` (A1–A6).
    /// On a CPU with AVX2 the same code runs compiled for 8-lane vectors with per-lane shifts.
    fn row(
        &self,
        b: &[Operand; 16],
        phase: u32,
        adj: i32,
        old: &[u32; 16],
        mode: AccMode,
    ) -> [u32; 16] {
        lanes::in_lanes(
            #[inline(always)]
            || self.row_lanes(b, phase, adj, old, mode),
        )
    }

    #[inline(always)]
    fn row_lanes(
        &self,
        b: &[Operand; 16],
        phase: u32,
        adj: i32,
        old: &[u32; 16],
        mode: AccMode,
    ) -> [u32; 16] {
        lanes::accumulate_lanes(&self.group_terms_lanes(b, phase, adj), old, mode)
    }

    // Lane loops index several arrays with one column index on purpose: that is what vectorises.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn group_terms_lanes(&self, b: &[Operand; 16], phase: u32, adj: i32) -> [TermLanes; 2] {
        let mut out = [TermLanes::default(); 2];
        let zero_exp = adj.max(0);
        for g in 0..2 {
            let mut exps = [[0i32; 16]; 8];
            let mut vals = [[0i32; 16]; 8];
            for kk in 0..8 {
                let k = 8 * g + kk;
                let bk = b[k];
                let b_exp = bk.exp + adj;
                let b_slice = if bk.zero {
                    0
                } else {
                    let m = datapath::b_slice(bk.man | 0x400, phase) as i32;
                    if bk.sign != 0 {
                        -m
                    } else {
                        m
                    }
                };
                let (ae, asl, az) = (&self.exp[k], &self.slice[k], &self.zero[k]);
                if bk.zero {
                    // Every product is zero: its exponent is the zero term's, its value 0.
                    exps[kk] = [zero_exp; 16];
                    vals[kk] = [0; 16];
                } else {
                    for j in 0..16 {
                        let z = az[j];
                        exps[kk][j] = (z & zero_exp) | (!z & (ae[j] + b_exp));
                        vals[kk][j] = asl[j] * b_slice;
                    }
                }
            }
            let mut top = exps[0];
            for e in &exps[1..] {
                for j in 0..16 {
                    top[j] = top[j].max(e[j]);
                }
            }
            let mut sum = [0i32; 16];
            for kk in 0..8 {
                for j in 0..16 {
                    let d = (top[j] - exps[kk][j]).min(30) as u32;
                    let v = vals[kk][j];
                    let m = v.unsigned_abs();
                    let aligned = (((m << 1) + (1 << d)) >> (d + 1)) as i32;
                    sum[j] += if v < 0 { -aligned } else { aligned };
                }
            }
            let o = &mut out[g];
            for j in 0..16 {
                let live = top[j] > 0;
                o.negative[j] = live && sum[j] < 0;
                o.exp[j] = if live { top[j] } else { 0 };
                o.sig[j] = if live { sum[j].unsigned_abs() << 13 } else { 0 };
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::datapath::{product_adj, Product, Term};

    /// xorshift64: a fixed stream of operands.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 16) as u32
        }
    }

    /// A Src datum near exponent `base` (or anywhere, or 0, or the maximum), any mantissa.
    fn datum(r: &mut Rng, base: u32, emax: u32) -> u32 {
        let exp = match r.next() % 16 {
            0 => 0,
            1 => emax,
            2 | 3 => r.next() % (emax + 1),
            _ => (base + r.next() % 25).saturating_sub(12).min(emax),
        };
        ((r.next() & 1) << 18) | ((r.next() & 0x3ff) << 8) | exp
    }

    /// T4's vectorised form (`SrcABlock::group_terms`, integer lanes) gives exactly the terms of the
    /// rule as `datapath::group_term` states it, over every precision, phase and accumulator
    /// mode, with exponents spread so that every alignment distance 0..=30 and the cap occur.
    #[test]
    fn t4_vector_lanes_equal_the_integer_rule() {
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let modes = [(true, true), (false, true), (true, false), (false, false)];
        for round in 0..400 {
            let (wide, e8) = modes[round % 4];
            let mode = AccMode { wide, e8 };
            let (p, emax) = if e8 {
                ([Precision::Tf32, Precision::Bf16][round / 4 % 2], 255)
            } else {
                (Precision::Fp16, 31)
            };
            let phase = (round / 8 % 4) as u32;
            let adj = product_adj(mode, phase);
            let base = r.next() % (emax + 1);
            let a: Vec<Operand> = (0..256)
                .map(|_| Operand::read(datum(&mut r, base, emax), p, true))
                .collect();
            let b: [Operand; 16] =
                std::array::from_fn(|_| Operand::read(datum(&mut r, base, emax), p, true));
            let block = SrcABlock::new(|k, j| a[k * 16 + j], phase);
            let got = block.group_terms(&b, phase, adj);
            for j in 0..16 {
                let products: Vec<Product> = (0..16)
                    .map(|k| Product::of(a[k * 16 + j], b[k], phase, adj))
                    .collect();
                let want = [
                    datapath::group_term(&products[..8]),
                    datapath::group_term(&products[8..]),
                ];
                let lanes = got.map(|g| Term {
                    negative: g.negative[j],
                    exp: g.exp[j],
                    sig: g.sig[j],
                });
                assert_eq!(lanes, want, "round {round} column {j}");
            }
            // The whole row, as dispatched (AVX2 where present) and as the portable build of the
            // same code, against the scalar accumulator.
            let old: [u32; 16] = std::array::from_fn(|j| {
                let w = (r.next() << 8) ^ (j as u32);
                if wide {
                    w
                } else {
                    w & 0xffff_e000
                }
            });
            let row = block.row(&b, phase, adj, &old, mode);
            assert_eq!(
                row,
                block.row_lanes(&b, phase, adj, &old, mode),
                "round {round}"
            );
            for j in 0..16 {
                let terms = got.map(|g| Term {
                    negative: g.negative[j],
                    exp: g.exp[j],
                    sig: g.sig[j],
                });
                assert_eq!(
                    row[j],
                    datapath::accumulate(terms, old[j], mode),
                    "round {round} column {j}"
                );
            }
        }
    }
}
