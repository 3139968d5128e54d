//! The datapath's rules over a whole Dst row at once: sixteen columns side by side, every step
//! a select instead of a branch, so that the compiler runs the columns in vector lanes
//! (with AVX2 when the CPU has it: [`in_lanes`]). The rules themselves, and their scalar form
//! that these are proven equal to, are [`super::datapath`]'s.

#[cfg(test)]
use super::datapath::{accumulate, add_term, product_adj, product_term, Operand, Term};
use super::datapath::{AccMode, Precision};

/// Sixteen terms side by side, one per Dst column (the lanes MVMUL and the element-wise
/// instructions compute a row in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TermLanes {
    pub negative: [bool; 16],
    pub exp: [i32; 16],
    pub sig: [u32; 16],
}

/// [`super::datapath::accumulate`] for the 16 columns of a row at once, without branches so that the columns run
/// in vector lanes: the same rules A1–A6, each step a select instead of a jump (proven equal by
/// `accumulate_lanes_equal_accumulate`).
#[allow(clippy::needless_range_loop)] // one index across several arrays is what vectorises
#[inline(always)]
pub fn accumulate_lanes<const N: usize>(
    terms: &[TermLanes; N],
    old: &[u32; 16],
    mode: AccMode,
) -> [u32; 16] {
    let keep = mode.dropped_bits();
    let pre_round = !mode.wide;
    let saturate8 = mode.wide || mode.e8;
    let mut out = [0u32; 16];
    for j in 0..16 {
        let w = old[j];
        let d_exp = ((w >> 23) & 0xff) as i32;
        let d_sig = if d_exp == 0 {
            0
        } else {
            (w & 0x7f_ffff) | 0x80_0000
        };
        // A1
        let mut top = d_exp;
        for t in terms {
            top = top.max(t.exp[j]);
        }
        // A2, A3: Dst never biased; terms half down in magnitude when negative.
        let shifted = |m: u32, e: i32, bias: u32| -> u32 {
            let d = (top - e).clamp(0, 31) as u32;
            let b = bias & u32::from(d > 0);
            let mut m = (m + ((1u32 << d) >> 1) - b) >> d;
            if pre_round {
                m = (m + (1 << 12) - bias) & !0x1fff;
            }
            m
        };
        let md = shifted(d_sig, d_exp, 0) as i32;
        let mut sum = if w >> 31 != 0 { -md } else { md };
        for t in terms {
            let neg = t.negative[j];
            let m = shifted(t.sig[j], t.exp[j], u32::from(neg)) as i32;
            sum = sum.wrapping_add(if neg { -m } else { m });
        }
        // A4, A5
        let sign = u32::from(sum < 0) << 31;
        let mag = sum.unsigned_abs();
        let shift = mag.leading_zeros() as i32 - 8;
        let mut exp = top - shift;
        let s = shift - keep;
        let (r, l) = ((-s).max(0) as u32, s.max(0) as u32);
        let mut m = ((mag + ((1u32 << r) >> 1)) >> r) << l;
        m <<= keep;
        exp += i32::from(m & 0x100_0000 != 0);
        let m = m & 0x7f_ffff;
        // A6
        let normal = sign | ((exp.clamp(0, 255) as u32) << 23) | m;
        let big = if saturate8 {
            sign | (255 << 23)
        } else {
            sign | (31 << 23) | (0x3ff << 13)
        };
        let limit = if saturate8 { 255 } else { 32 };
        out[j] = if top <= 0 || mag == 0 || exp <= 0 {
            0
        } else if exp >= limit {
            big
        } else {
            normal
        };
    }
    out
}

/// [`super::datapath::add_term`] (T1 with T5 and T6) for the 16 columns of a row at once:
/// SrcA datum `a[j]` plus SrcB datum `b[j]` (each read by O1–O3 as
/// [`super::datapath::Operand::read`] reads it), every step a select so that the columns run
/// in vector lanes. Proven equal by `add_terms_lanes_equal_add_term`.
///
/// Why: the scalar form's operand ordering and alignment branch per column, and ELWADD spent
/// most of its host time there (callgrind, the add stream: ≈ 110 of ≈ 155 host instructions per
/// datum).
#[allow(clippy::needless_range_loop)] // one index across several arrays is what vectorises
#[inline(always)]
pub fn add_terms(
    a: &[u32; 16],
    b: &[u32; 16],
    (pa, pb): (Precision, Precision),
    flush_b: bool,
    mode: AccMode,
    phase: u32,
) -> TermLanes {
    let (ea, ma) = precision_masks(pa);
    let (eb, mb) = precision_masks(pb);
    let rebias = mode.wide && !mode.e8;
    let phase_adj = if phase & 1 != 0 { 5 } else { 0 } + if phase & 2 != 0 { 7 } else { 0 };
    let mut t = TermLanes::default();
    for j in 0..16 {
        // O1–O3: (sign, exponent, mantissa), all zero when the operand reads as zero.
        let read = |v: u32, em: u32, mm: u32, flush: bool| -> (u32, u32, u32) {
            let exp = v & em;
            let keep = if flush && exp == 0 { 0 } else { u32::MAX };
            ((v >> 18) & 1 & keep, exp & keep, (v >> 8) & mm & keep)
        };
        let (sa, xa, na) = read(a[j], ea, ma, true);
        let (sb, xb, nb) = read(b[j], eb, mb, flush_b);
        // T1's significand: 0 for all zero bits, else 1.m.
        let sig = |s: u32, x: u32, n: u32| if s | x | n == 0 { 0 } else { n | 0x400 };
        let (ga, gb) = (sig(sa, xa, na), sig(sb, xb, nb));
        let b_big = (xa << 10 | na) < (xb << 10 | nb);
        let (big_s, big_x, big_g) = if b_big { (sb, xb, gb) } else { (sa, xa, ga) };
        let (small_s, small_x, small_g) = if b_big { (sa, xa, ga) } else { (sb, xb, gb) };
        let diff = big_x - small_x;
        let d = diff.min(31);
        let aligned = (small_g + ((1u32 << d) >> 1)) >> d;
        let small_g = if diff >= 12 { 0 } else { aligned };
        let sum = if big_s == small_s {
            big_g + small_g
        } else {
            big_g.wrapping_sub(small_g)
        };
        let x = big_x as i32;
        let x = if rebias {
            if x != 0 {
                x + 112
            } else {
                97
            }
        } else {
            x
        };
        t.negative[j] = big_s != 0;
        t.exp[j] = x - phase_adj;
        t.sig[j] = sum << 13;
    }
    t
}

/// [`super::datapath::product_term`] (T2, T3) for the 16 columns of a row at once: SrcA datum
/// `a[j]` times SrcB datum `b[j]`, one fidelity phase's slices, exponent re-biased by `adj`
/// ([`super::datapath::product_adj`]); every step a select, as [`add_terms`]. Proven equal
/// by `product_terms_lanes_equal_product_term`.
#[allow(clippy::needless_range_loop)] // one index across several arrays is what vectorises
#[inline(always)]
pub fn product_terms(
    a: &[u32; 16],
    b: &[u32; 16],
    (pa, pb): (Precision, Precision),
    flush_b: bool,
    phase: u32,
    adj: i32,
) -> TermLanes {
    let (ea, ma) = precision_masks(pa);
    let (eb, mb) = precision_masks(pb);
    let zero_exp = adj.max(0);
    let mut t = TermLanes::default();
    for j in 0..16 {
        let (xa, xb) = (a[j] & ea, b[j] & eb);
        let zero = xa == 0 || (flush_b && xb == 0);
        // T2: SrcA's 5 and SrcB's 7 significand bits of `1.m` for the phase.
        let (ga, gb) = (((a[j] >> 8) & ma) | 0x400, ((b[j] >> 8) & mb) | 0x400);
        let sa = if phase & 1 != 0 {
            (ga >> 1) & 31
        } else {
            ga >> 6
        };
        let sb = if phase & 2 != 0 {
            (gb & 15) << 3
        } else {
            gb >> 4
        };
        let exp = xa as i32 + xb as i32 + adj;
        let nothing = zero || exp <= 0;
        t.negative[j] = !nothing && ((a[j] ^ b[j]) >> 18) & 1 != 0;
        t.exp[j] = if nothing { zero_exp } else { exp };
        t.sig[j] = if nothing { 0 } else { (sa * sb) << 13 };
    }
    t
}

/// O1's exponent and mantissa masks (of the exponent field, and of the mantissa field once
/// shifted down by 8) for a precision.
#[inline(always)]
fn precision_masks(p: Precision) -> (u32, u32) {
    match p {
        Precision::Tf32 => (0xff, 0x3ff),
        Precision::Fp16 => (0x1f, 0x3ff),
        Precision::Bf16 => (0xff, 0x3f8),
    }
}

/// Runs `f` compiled for AVX2 (8-lane vectors, per-lane shifts) when the CPU has it, else as
/// built for the baseline. `f` must be an `#[inline(always)]` closure over lane code, so that it
/// is compiled inside the AVX2 function; either way the results are the same code's.
#[inline(always)]
pub fn in_lanes<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        unsafe fn avx2<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the running CPU has AVX2, checked just above.
            return unsafe { avx2(f) };
        }
    }
    f()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;

    /// Round `round` of a sweep of the operand precisions, accumulator modes, fidelity phases
    /// and SrcB zero rules: `(pa, pb, mode, phase, flush_b)`.
    fn sweep(round: u32) -> ((Precision, Precision), AccMode, u32, bool) {
        let precisions = [Precision::Tf32, Precision::Fp16, Precision::Bf16];
        let mode = AccMode {
            wide: round & 16 != 0,
            e8: round & 32 == 0,
        };
        (
            (
                precisions[(round % 3) as usize],
                precisions[(round / 3 % 3) as usize],
            ),
            mode,
            round / 64 % 4,
            round & 256 == 0,
        )
    }

    /// Lane `j` of `t` as a scalar term.
    fn lane(t: &TermLanes, j: usize) -> Term {
        Term {
            negative: t.negative[j],
            exp: t.exp[j],
            sig: t.sig[j],
        }
    }

    /// The branch-free lanes give [`accumulate`]'s words for every mode on random terms and Dst
    /// values (exponents near each other and anywhere, zero and negative terms).
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn accumulate_lanes_equal_accumulate() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for round in 0..4000 {
            let mode = AccMode {
                wide: round & 1 != 0,
                e8: round & 2 == 0,
            };
            let base = (next() % 260) as i32 - 2;
            let mut lanes = [TermLanes::default(); 2];
            let mut old = [0u32; 16];
            for j in 0..16 {
                for t in lanes.iter_mut() {
                    t.negative[j] = next() & 1 != 0;
                    t.exp[j] = match next() % 8 {
                        0 => (next() % 300) as i32 - 20,
                        _ => base + (next() % 40) as i32 - 20,
                    };
                    t.sig[j] = match next() % 6 {
                        0 => 0,
                        1 => (next() & 0x7fff) << 13,
                        _ => next() & 0x3ff_ffff,
                    };
                }
                let e = (base + (next() % 40) as i32 - 20).clamp(0, 255) as u32;
                old[j] = match next() % 8 {
                    0 => next() & 0x8000_0000,
                    _ => (next() & 0x807f_ffff) | (e << 23),
                };
                if !mode.wide {
                    old[j] &= 0xffff_e000;
                }
            }
            let got = accumulate_lanes(&lanes, &old, mode);
            for j in 0..16 {
                let terms = [0, 1].map(|t| Term {
                    negative: lanes[t].negative[j],
                    exp: lanes[t].exp[j],
                    sig: lanes[t].sig[j],
                });
                assert_eq!(
                    got[j],
                    accumulate(terms, old[j], mode),
                    "round {round} lane {j}: {terms:?} onto {:#x}",
                    old[j]
                );
            }
        }
    }

    /// The lanes' T1 gives [`add_term`]'s term for every precision pair, accumulator mode,
    /// fidelity phase and SrcB zero rule, on random Src data (exponents near each other and
    /// anywhere, zero exponents, all-zero datums, signs flipped as ELWSUB flips them).
    #[test]
    fn add_terms_lanes_equal_add_term() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..6000u32 {
            let ((pa, pb), mode, phase, flush_b) = sweep(round);
            let base = next() % 256;
            let mut datum = || -> u32 {
                let v = next() & 0x7_ffff;
                match next() % 8 {
                    0 => 0,
                    1 => v & !0xff,
                    2 => v & 0x4_0000,
                    3 | 4 => v,
                    _ => (v & !0xff) | ((base + next() % 24).saturating_sub(12) & 0xff),
                }
            };
            let a: [u32; 16] = std::array::from_fn(|_| datum());
            let b: [u32; 16] = std::array::from_fn(|_| datum());
            let got = add_terms(&a, &b, (pa, pb), flush_b, mode, phase);
            for j in 0..16 {
                let want = add_term(
                    Operand::read(a[j], pa, true),
                    Operand::read(b[j], pb, flush_b),
                    mode,
                    phase,
                );
                assert_eq!(
                    lane(&got, j),
                    want,
                    "round {round} lane {j}: {:#07x} + {:#07x}, {pa:?} {pb:?} {mode:?} phase {phase}",
                    a[j], b[j]
                );
            }
        }
    }

    /// The lanes' T2/T3 give [`product_term`]'s term for every precision pair, accumulator
    /// mode (its re-bias), fidelity phase and SrcB zero rule, on random Src data (zero
    /// exponents, exponents whose sum re-biases to ≤ 0, all-zero datums).
    #[test]
    fn product_terms_lanes_equal_product_term() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d ^ 0x5555);
        for round in 0..6000u32 {
            let ((pa, pb), mode, phase, flush_b) = sweep(round);
            let adj = product_adj(mode, phase);
            let mut datum = || -> u32 {
                let v = next() & 0x7_ffff;
                match next() % 6 {
                    0 => 0,
                    1 => v & !0xff,
                    2 => (v & !0xff) | (next() % 140),
                    _ => v,
                }
            };
            let a: [u32; 16] = std::array::from_fn(|_| datum());
            let b: [u32; 16] = std::array::from_fn(|_| datum());
            let got = product_terms(&a, &b, (pa, pb), flush_b, phase, adj);
            for j in 0..16 {
                let want = product_term(
                    Operand::read(a[j], pa, true),
                    Operand::read(b[j], pb, flush_b),
                    phase,
                    adj,
                );
                assert_eq!(
                    lane(&got, j),
                    want,
                    "round {round} lane {j}: {:#07x} * {:#07x}, {pa:?} {pb:?} {mode:?} phase {phase}",
                    a[j], b[j]
                );
            }
        }
    }
}
