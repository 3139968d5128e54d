//! MVMUL, DOTPV and GAPOOL: `Dst += SrcB @ SrcA` with an 8x16 (7x16 broadcast, 4x16 GAPOOL)
//! SrcB block, a 16x16 SrcA block and one fidelity phase per instruction.
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/MVMUL.md` (DOTPV.md and
//! GAPOOL.md are MVMUL's model with the row count changed).

#[cfg(test)]
use super::datapath::Operand;
use super::datapath::{self, AccMode, Precision};
use super::lanes::{self, TermLanes};
use super::{
    formats, read_words, store_int, write_words, DstRows, Matmul, MatrixCtx, Retired, SrcAStyle,
};
use crate::state::SrcData;

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
        let block = SrcABlock::read_rows(ctx.src_a, a_bank, a_row, pa, phase);
        for i in (0..num_rows as usize).step_by(step) {
            let b_raw = *ctx.src_b.row(b_bank, b_src_row(i));
            let b = SrcBRow::read(&b_raw, pb, phase, adj);
            let row = dst_row + i as u32;
            let old = read_words(ctx, mode, row);
            let new = block.row(&b, adj, &old, mode);
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

/// One SrcB row as the multipliers see it for one phase (T2): per k the exponent with the
/// phase's adjustment added, the signed 7-bit slice (0 for a zero operand) and whether the
/// operand is zero.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct SrcBRow {
    exp: [i32; 16],
    slice: [i32; 16],
    zero: [bool; 16],
}

impl SrcBRow {
    /// The row from its operands, rule by rule (`Operand::read`, T2's `b_slice`).
    #[cfg(test)]
    fn of(b: &[Operand; 16], phase: u32, adj: i32) -> Self {
        SrcBRow {
            exp: b.map(|o| o.exp + adj),
            slice: b.map(|o| {
                let m = datapath::b_slice(o.man | 0x400, phase) as i32;
                match (o.zero, o.sign != 0) {
                    (true, _) => 0,
                    (false, true) => -m,
                    (false, false) => m,
                }
            }),
            zero: b.map(|o| o.zero),
        }
    }

    /// [`SrcBRow::of`] the operands `Operand::read(raw[k], p, true)`, the 16 datums side by
    /// side in vector lanes (proven equal by `the_srcb_row_read_in_lanes_is_the_row_of_its_operands`).
    #[inline(always)]
    fn read(raw: &[u32; 16], p: Precision, phase: u32, adj: i32) -> Self {
        let (exp_mask, man_mask) = p.masks();
        let slice_of = datapath::Slice::b(phase);
        let exp = raw.map(|v| (v & exp_mask) as i32);
        let zero = exp.map(|e| e == 0);
        let slice = std::array::from_fn(|k| {
            let v = raw[k];
            let m = slice_of.of(((v >> 8) & man_mask) | 0x400) as i32;
            let signed = if (v >> 18) & 1 != 0 { -m } else { m };
            if zero[k] {
                0
            } else {
                signed
            }
        });
        SrcBRow {
            // A zero operand's exponent is 0 already.
            exp: exp.map(|e| e + adj),
            slice,
            zero,
        }
    }
}

/// SrcA's 16x16 block as the multipliers see it for one phase (T2): per row k and column j the
/// exponent and the signed 5-bit slice (0 for a zero operand), and a zero mask. Read once per
/// instruction, used for every SrcB row. Column-major inner arrays let the compiler run the 16
/// columns of T4 in vector lanes.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct SrcABlock {
    exp: [[i32; 16]; 16],
    slice: [[i32; 16]; 16],
    /// All ones for a zero operand, else 0: a lane mask, so that the selects of T4 run in
    /// vector lanes (a `bool` per lane would be widened one lane at a time).
    zero: [[i32; 16]; 16],
}

impl SrcABlock {
    /// The block of SrcA rows `first..first + 16` of `bank` read at `p` for `phase`: what
    /// [`SrcABlock::new`] gives for `Operand::read(datum, p, true)`, each row's 16 datums side
    /// by side in vector lanes (selects instead of branches; proven equal by
    /// `the_block_read_in_lanes_is_the_block_of_its_operands`).
    #[allow(clippy::needless_range_loop)] // one index across several arrays is what vectorises
    fn read_rows(src: &SrcData, bank: usize, first: usize, p: Precision, phase: u32) -> Self {
        let (exp_mask, man_mask) = p.masks();
        let slice_of = datapath::Slice::a(phase);
        let rows: [[u32; 16]; 16] = std::array::from_fn(|k| *src.row(bank, first + k));
        lanes::in_lanes(
            #[inline(always)]
            || {
                // O3: a datum of exponent 0 is zero (SrcA always flushes); all ones then.
                let zero: [[i32; 16]; 16] = rows.map(|r| r.map(|v| -i32::from(v & exp_mask == 0)));
                let mut exp = [[0i32; 16]; 16];
                let mut slice = [[0i32; 16]; 16];
                for k in 0..16 {
                    for j in 0..16 {
                        let v = rows[k][j];
                        let m = slice_of.of(((v >> 8) & man_mask) | 0x400) as i32;
                        let signed = if (v >> 18) & 1 != 0 { -m } else { m };
                        exp[k][j] = (v & exp_mask) as i32 & !zero[k][j];
                        slice[k][j] = signed & !zero[k][j];
                    }
                }
                SrcABlock { exp, slice, zero }
            },
        )
    }

    /// The block of operands `op(k, j)` for `phase`.
    #[cfg(test)]
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
    fn group_terms(&self, b: &SrcBRow, adj: i32) -> [TermLanes; 2] {
        self.group_terms_lanes(b, adj)
    }

    /// One Dst row: T4's two group terms of every column added to the old words `old` (A1–A6).
    /// On a CPU with AVX2 the same code runs compiled for 8-lane vectors with per-lane shifts.
    fn row(&self, b: &SrcBRow, adj: i32, old: &[u32; 16], mode: AccMode) -> [u32; 16] {
        lanes::in_lanes(
            #[inline(always)]
            || self.row_lanes(b, adj, old, mode),
        )
    }

    #[inline(always)]
    fn row_lanes(&self, b: &SrcBRow, adj: i32, old: &[u32; 16], mode: AccMode) -> [u32; 16] {
        lanes::accumulate_lanes(&self.group_terms_lanes(b, adj), old, mode)
    }

    // Lane loops index several arrays with one column index on purpose: that is what vectorises.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn group_terms_lanes(&self, b: &SrcBRow, adj: i32) -> [TermLanes; 2] {
        let mut out = [TermLanes::default(); 2];
        let zero_exp = adj.max(0);
        for g in 0..2 {
            let mut exps = [[0i32; 16]; 8];
            let mut vals = [[0i32; 16]; 8];
            for kk in 0..8 {
                let k = 8 * g + kk;
                let (b_exp, b_slice) = (b.exp[k], b.slice[k]);
                let (ae, asl, az) = (&self.exp[k], &self.slice[k], &self.zero[k]);
                if b.zero[k] {
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

    /// SrcA with every datum drawn by [`datum`] around `base`.
    fn random_src(r: &mut Rng, base: u32, emax: u32) -> SrcData {
        let mut src = SrcData::new();
        for bank in 0..2 {
            for row in 0..64 {
                for col in 0..16 {
                    src.write(bank, row, col, datum(r, base, emax));
                }
            }
        }
        src
    }

    /// The block as [`SrcABlock::new`] states it from the scalar operand rules.
    fn block_of_operands(
        src: &SrcData,
        bank: usize,
        first: usize,
        p: Precision,
        phase: u32,
    ) -> SrcABlock {
        SrcABlock::new(
            |k, j| Operand::read(src.row(bank, first + k)[j], p, true),
            phase,
        )
    }

    /// Round `round`'s precision, its largest exponent and the phase: every combination in
    /// each 12 rounds.
    fn operand_case(round: usize) -> (Precision, u32, u32) {
        let (p, emax) = [
            (Precision::Tf32, 255),
            (Precision::Fp16, 31),
            (Precision::Bf16, 255),
        ][round % 3];
        (p, emax, (round / 3 % 4) as u32)
    }

    /// The lane-wise read of a block equals the block built from `Operand::read` and T2's
    /// slice, datum by datum, for every precision, phase, bank and aligned first row.
    #[test]
    fn the_block_read_in_lanes_is_the_block_of_its_operands() {
        let mut r = Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..120 {
            let (p, emax, phase) = operand_case(round);
            let base = r.next() % (emax + 1);
            let src = random_src(&mut r, base, emax);
            let (bank, first) = (round % 2, 8 * (r.next() as usize % 7));
            assert_eq!(
                SrcABlock::read_rows(&src, bank, first, p, phase),
                block_of_operands(&src, bank, first, p, phase),
                "round {round}: {p:?} phase {phase} bank {bank} rows {first}.."
            );
        }
    }

    /// The lane-wise read of a SrcB row equals the row built from `Operand::read` and T2's
    /// slice, for every precision, phase and the adjustments of every accumulator mode.
    #[test]
    fn the_srcb_row_read_in_lanes_is_the_row_of_its_operands() {
        let mut r = Rng(0x5851_f42d_4c95_7f2d);
        for round in 0..480 {
            let (p, emax, phase) = operand_case(round);
            let mode = AccMode {
                wide: round / 12 % 2 == 0,
                e8: round / 24 % 2 == 0,
            };
            let adj = product_adj(mode, phase);
            let base = r.next() % (emax + 1);
            let raw: [u32; 16] = std::array::from_fn(|_| datum(&mut r, base, emax));
            let b = raw.map(|v| Operand::read(v, p, true));
            assert_eq!(
                SrcBRow::read(&raw, p, phase, adj),
                SrcBRow::of(&b, phase, adj),
                "round {round}: {p:?} phase {phase} adj {adj}"
            );
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
            let brow = SrcBRow::of(&b, phase, adj);
            let got = block.group_terms(&brow, adj);
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
            let row = block.row(&brow, adj, &old, mode);
            assert_eq!(
                row,
                block.row_lanes(&brow, adj, &old, mode),
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
