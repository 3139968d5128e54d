//! Fast paths of the [`super::arith`] model in IEEE `f32`, for the cases where `f32` computes
//! the very same bits. Every function here either gives exactly what the general model
//! ([`super::arith`], [`super::formats`]) gives or declines (`None`, or `false` for the `Dst`
//! row writers, which then write nothing), and the caller then takes the general path;
//! nothing here changes a result.
//!
//! Why they agree: inside FP32's normal range the model *is* IEEE `f32` with flush-to-zero
//! (`docs/matrix-unit.md`; the model rounds every operation once to 24 bits, ties to even, as
//! `f32` does). The differences are confined to the two ends of the range, which these
//! functions detect instead of modelling:
//! - exponent 255 operands (2^128 and up, finite for the Matrix Unit, `tt-isa-documentation:
//!   WormholeB0/TensixTile/TensixCoprocessor/FloatBitPatterns.md`)
//!   cannot be held in `f32`: `None`;
//! - a result of 2^128 or more is `inf` (or NaN) in `f32` but finite in the model: every
//!   non-finite `f32` result gives `None` (once infinite, a chain of `+` and `*` stays
//!   non-finite, so checking the end of a chain is enough);
//! - results below 2^-126 are `f32` denormals (or zero) but signed zeros in the model. For one
//!   addition or subtraction of FP32 values (multiples of 2^-149) the exact result below
//!   2^-126 is representable as a denormal, so the `f32` result is denormal exactly when the
//!   model flushes, and the fix is to keep its sign only ([`ftz`]); the same holds for a
//!   product of fidelity-reduced operands ([`fmul`]). For MVMUL's chains
//!   [`mac_row`] instead proves that no product and no partial sum can fall below 2^-126.
//!
//! The equivalence is tested against the general path on random operands with every special
//! pattern (exponent 0 with any mantissa, exponent 255, both zero signs, denormal and overflowing
//! results), for every Src format, fidelity phase and Dst format, in this file's tests.

use super::SrcAStyle;
use crate::formats::layout;

/// f32 bit pattern of the exponent field.
const EXP_BITS: u32 = 0x7f80_0000;
/// f32 sign bit.
const SIGN_BIT: u32 = 0x8000_0000;

/// Flush-to-zero: an `f32` with exponent field 0 (zero or denormal) becomes the zero of its
/// sign ("Denormals will be flushed to zero", `FloatBitPatterns.md`).
#[inline(always)]
pub fn ftz(x: f32) -> f32 {
    let b = x.to_bits();
    if b & EXP_BITS == 0 {
        f32::from_bits(b & SIGN_BIT)
    } else {
        x
    }
}

/// Biased exponent field of `x`.
#[inline(always)]
fn exp_field(x: f32) -> u32 {
    (x.to_bits() >> 23) & 0xff
}

/// How one Src format's fields map onto `f32` ([`read_src`]): decoded with the same
/// branch-free expression for every format so that whole rows vectorise.
#[derive(Clone, Copy, Debug)]
pub struct SrcFormat {
    exp_mask: u32,
    exp_add: u32,
    man_mask: u32,
}

impl SrcFormat {
    /// `None` for the integer style (not a float).
    pub fn of(style: SrcAStyle) -> Option<SrcFormat> {
        let (exp_mask, exp_add, man_mask) = match style {
            SrcAStyle::Tf32 => (0xff, 0, 0x3ff),
            // BF16 is overlaid onto TF32 with the three low mantissa bits ignored.
            SrcAStyle::Bf16 => (0xff, 0, 0x3f8),
            // FP16: the three bits above the 5-bit exponent are ignored; bias 15 → 127.
            SrcAStyle::Fp16 => (0x1f, 127 - 15, 0x3ff),
            SrcAStyle::Int8 => return None,
        };
        Some(SrcFormat {
            exp_mask,
            exp_add,
            man_mask,
        })
    }

    /// The datum's value and whether it is out of `f32`'s reach (exponent 255).
    #[inline(always)]
    fn decode(self, v: u32) -> (f32, bool) {
        // Sign(18), Man(17:8), Exp(7:0) (`tt-isa-documentation: BlackholeA0/TensixTile/
        // TensixCoprocessor/SrcASrcB.md`; [`layout::read_src_tf32`] moves the same fields).
        let sign = (v & 0x4_0000) << 13;
        let exp = v & self.exp_mask;
        let man = (v >> 8) & self.man_mask;
        let bits = sign | ((exp + self.exp_add) << 23) | (man << 13);
        let bits = if exp == 0 { sign } else { bits };
        (f32::from_bits(bits), exp == 0xff)
    }
}

#[cfg(test)]
/// `ReadBF16` / `ReadFP16` / `ReadTF32` of a 19-bit Src datum ([`super::formats`]) as `f32`:
/// exponent 0 reads as a signed zero whatever the mantissa. `None` for BF16/TF32 exponent 255,
/// which `f32` cannot hold, and for the integer style (not a float).
pub fn read_src(style: SrcAStyle, v: u32) -> Option<f32> {
    let (x, out) = SrcFormat::of(style)?.decode(v);
    (!out).then_some(x)
}

/// A fidelity phase's operand reduction ([`super::arith::src_a_fidelity_bits`],
/// [`super::arith::src_b_fidelity_bits`]) on `f32` bits: the high part keeps sign, exponent
/// and the mantissa bits outside `high_clear`; the low part is the exact `f32` difference
/// `x - (x & !low_keep)`, flushed by [`ftz`].
#[derive(Clone, Copy, Debug)]
pub struct Fidelity {
    high: bool,
    high_clear: u32,
    low_keep: u32,
}

impl Fidelity {
    /// SrcA's split (`SrcAFidelityBits`): even phases the top four mantissa bits, odd phases
    /// the next five.
    pub fn src_a(phase: u8) -> Fidelity {
        Fidelity {
            high: phase & 1 == 0,
            high_clear: 0x7_ffff,
            low_keep: 0x7_c000,
        }
    }

    /// SrcB's split (`SrcBFidelityBits`): phases 0 and 1 the top six mantissa bits, phases 2
    /// and 3 the next four.
    pub fn src_b(phase: u8) -> Fidelity {
        Fidelity {
            high: phase & 2 == 0,
            high_clear: 0x1_ffff,
            low_keep: 0x1_e000,
        }
    }

    #[inline(always)]
    fn apply(self, x: f32) -> f32 {
        let b = x.to_bits();
        if self.high {
            f32::from_bits(b & !self.high_clear)
        } else {
            ftz(x - f32::from_bits(b & !self.low_keep))
        }
    }
}

#[cfg(test)]
/// [`super::arith::src_a_fidelity_bits`] of a value [`read_src`] gave.
pub fn src_a_fidelity_bits(x: f32, phase: u8) -> f32 {
    Fidelity::src_a(phase).apply(x)
}

#[cfg(test)]
/// [`super::arith::src_b_fidelity_bits`] of a value [`read_src`] gave.
pub fn src_b_fidelity_bits(x: f32, phase: u8) -> f32 {
    Fidelity::src_b(phase).apply(x)
}

/// One Src row read and reduced: the values, the smallest exponent field among the non-zero
/// ones (255 when all are zero), and whether any datum was out of `f32`'s reach.
#[inline(always)]
fn reduce_row(fmt: SrcFormat, fid: Fidelity, raw: &[u32; 16], out: &mut [f32; 16]) -> (u32, bool) {
    let mut min_exp = 0xff;
    let mut bad = false;
    for (o, &v) in out.iter_mut().zip(raw.iter()) {
        let (x, out_of_reach) = fmt.decode(v);
        let x = fid.apply(x);
        let e = exp_field(x);
        min_exp = min_exp.min(if e == 0 { 0xff } else { e });
        bad |= out_of_reach;
        *o = x;
    }
    (min_exp, bad)
}

/// SrcA's 16x16 block for one MVMUL/DOTPV/GAPOOL, read and reduced to the fidelity phase's
/// bits, with the smallest exponent field among its non-zero values (255 when all are zero).
pub struct SrcABlock {
    pub a: [[f32; 16]; 16],
    pub min_exp: u32,
}

impl SrcABlock {
    /// `rows[k][j]` is SrcA row `k` of the block, column `j`. `None` when a datum is out of
    /// `f32`'s reach ([`read_src`]).
    pub fn load(style: SrcAStyle, phase: u8, rows: &[[u32; 16]; 16]) -> Option<SrcABlock> {
        let (fmt, fid) = (SrcFormat::of(style)?, Fidelity::src_a(phase));
        let mut a = [[0.0f32; 16]; 16];
        let mut min_exp = 0xff;
        let mut bad = false;
        for (a_k, raw_k) in a.iter_mut().zip(rows.iter()) {
            let (e, b) = reduce_row(fmt, fid, raw_k, a_k);
            min_exp = min_exp.min(e);
            bad |= b;
        }
        (!bad).then_some(SrcABlock { a, min_exp })
    }
}

/// [`super::arith::mac_row`] of SrcB row `b_raw` (raw Src data) with `a`, in `f32`: for every
/// column `j`, `x = 0; x += b[k] * a[k][j]` for k = 0..16 in that order.
///
/// `None` unless the `f32` computation provably matches the model:
/// - every operand is a normal FP32 value or zero, so a value with exponent field `e` is a
///   multiple of 2^(e - 150), and every product a multiple of 2^(min_a + min_b - 300) over the
///   smallest exponent fields of each side; when that quantum is at least 2^-126
///   (`min_a + min_b >= 174`) no non-zero product or partial sum (sums of multiples of the
///   quantum, rounded to a grid no finer) can fall below 2^-126, so nothing is flushed;
/// - the reduced operands have at most 5 and 7 significant bits, so products are exact;
/// - an overflow shows as a non-finite output, checked at the end.
pub fn mac_row(style: SrcAStyle, phase: u8, b_raw: &[u32; 16], a: &SrcABlock) -> Option<[f32; 16]> {
    let mut b = [0.0f32; 16];
    let (min_exp, bad) = reduce_row(SrcFormat::of(style)?, Fidelity::src_b(phase), b_raw, &mut b);
    if bad || a.min_exp + min_exp < 174 {
        return None;
    }
    let mut x = [0.0f32; 16];
    for (bk, a_k) in b.iter().zip(a.a.iter()) {
        for (xj, akj) in x.iter_mut().zip(a_k.iter()) {
            // Separate multiply and add (never fused): two roundings as the model's.
            *xj += bk * akj;
        }
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
/// The model's `float` addition of two FP32 values (normal or zero) in `f32`, `None` when it
/// leaves `f32`'s range.
pub fn fadd(a: f32, b: f32) -> Option<f32> {
    let r = a + b;
    r.is_finite().then(|| ftz(r))
}

#[cfg(test)]
/// The model's `float` subtraction, as [`fadd`].
pub fn fsub(a: f32, b: f32) -> Option<f32> {
    let r = a - b;
    r.is_finite().then(|| ftz(r))
}

#[cfg(test)]
/// The model's `float` multiplication of fidelity-reduced operands: their product has at most
/// 12 significant bits, so it is exact when normal, and when below 2^-126 its `f32` rounding
/// (to a multiple of 2^-149) cannot reach 2^-126, so [`ftz`] flushes exactly what the model
/// flushes.
pub fn fmul(a: f32, b: f32) -> Option<f32> {
    let r = a * b;
    r.is_finite().then(|| ftz(r))
}

/// [`super::arith::fdiv_pow2`] for `k` in 1..=126 in `f32` bits: the quotient is exact
/// unless it falls below 2^-126 (exponent field `k` or less), where it is flushed. (An `f32`
/// multiplication could round such a quotient up to 2^-126 instead.)
#[inline(always)]
pub fn fdiv_pow2(x: f32, k: u32) -> f32 {
    let b = x.to_bits();
    if exp_field(x) > k {
        f32::from_bits(b - (k << 23))
    } else {
        f32::from_bits(b & SIGN_BIT)
    }
}

/// `ReadDstFP32` / `ReadDstBF16` of IEEE-layout FP32 bits `i` as `f32` (exponent 0 reads
/// as a signed zero), and whether it is out of `f32`'s reach (exponent 255).
#[inline(always)]
fn dst_value(i: u32) -> (f32, bool) {
    let e = i & EXP_BITS;
    let x = f32::from_bits(if e == 0 { i & SIGN_BIT } else { i });
    (x, e == EXP_BITS)
}

/// `x + old` (or `x` when not accumulating) as the model's `float` addition, and whether the
/// sum left `f32`'s range. `-0.0` is the additive identity that keeps `x`'s sign.
#[inline(always)]
fn accumulate(x: f32, old: (f32, bool), add: bool) -> (f32, bool) {
    let (d, out) = old;
    let r = x + if add { d } else { -0.0 };
    (ftz(r), (add && out) | !r.is_finite())
}

/// The FP32 `Dst` tail of [`super::store_fp`] for the datum `old`: its new bits and whether the
/// general path must decide instead ([`dst_row_fp32`] computes the same a row at a time).
#[cfg(test)]
fn fp32_tail(x: f32, old: u32, add: bool) -> (u32, bool) {
    let (r, bad) = accumulate(x, dst_value(layout::read_dst_fp32(old)), add);
    (layout::write_dst_fp32(r.to_bits()), bad)
}

/// The BF16 `Dst` tail (`ReadDstBF16`, `RoundToBF16`, `WriteDstBF16`).
#[inline(always)]
fn bf16_tail(x: f32, old: u16, add: bool) -> (u16, bool) {
    let (r, bad) = accumulate(x, dst_value((layout::read_dst_bf16(old) as u32) << 16), add);
    // Round to 8 significant bits, ties to even; a carry out of exponent 254 gives exponent
    // 255 mantissa 0, the model's "too large" pattern. `r` is normal or zero, so the rounded
    // value is too (nothing left to flush).
    let u = r.to_bits();
    let rounded = u.wrapping_add(0x7fff + ((u >> 16) & 1)) >> 16;
    (layout::write_dst_bf16(rounded as u16), bad)
}

/// 2^-14 and 131008 as `f32` bits: the FP16 range the model writes without flushing or
/// saturating.
const FP16_MIN_NORMAL_BITS: u32 = 0x3880_0000;
const FP16_MAX_BITS: u32 = 0x47ff_e000;

/// The FP16 `Dst` tail (`ReadDstFP16`, `RoundToFP16`, `WriteDstFP16`).
#[inline(always)]
fn fp16_tail(x: f32, old: u16, add: bool) -> (u16, bool) {
    let h = layout::read_dst_fp16(old) as u32;
    let sign = (h & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let d = sign | ((exp + 127 - 15) << 23) | ((h & 0x3ff) << 13);
    let d = f32::from_bits(if exp == 0 { sign } else { d });
    let (r, bad) = accumulate(x, (d, false), add);
    // Round to 11 significant bits, ties to even, then flush below 2^-14 and saturate above
    // 131008 as the model does after its rounding.
    let u = r.to_bits();
    let sign = ((u >> 16) & 0x8000) as u16;
    let a = ((u & !SIGN_BIT) + 0xfff + ((u >> 13) & 1)) & !0x1fff;
    let exp = (a >> 23).wrapping_sub(127 - 15) as u16;
    let normal = sign | (exp << 10) | ((a >> 13) & 0x3ff) as u16;
    let ieee = if a < FP16_MIN_NORMAL_BITS {
        sign
    } else if a > FP16_MAX_BITS {
        sign | 0x7fff
    } else {
        normal
    };
    (layout::write_dst_fp16(ieee), bad)
}

#[cfg(test)]
/// The FP32 `Dst` tail of [`super::store_fp`]: `x` (an FP32 model value in `f32`), plus the old
/// datum `old` when accumulating, written as `WriteDstFP32`. `None`: take the general path.
pub fn dst_fp32(x: f32, old: Option<u32>) -> Option<u32> {
    let (v, bad) = fp32_tail(x, old.unwrap_or(0), old.is_some());
    (!bad).then_some(v)
}

#[cfg(test)]
/// The BF16 `Dst` tail of [`super::store_fp`].
pub fn dst_bf16(x: f32, old: Option<u16>) -> Option<u16> {
    let (v, bad) = bf16_tail(x, old.unwrap_or(0), old.is_some());
    (!bad).then_some(v)
}

#[cfg(test)]
/// The FP16 `Dst` tail of [`super::store_fp`].
pub fn dst_fp16(x: f32, old: Option<u16>) -> Option<u16> {
    let (v, bad) = fp16_tail(x, old.unwrap_or(0), old.is_some());
    (!bad).then_some(v)
}

/// [`dst_fp32`] for a whole `Dst32b` row, whose halves are the `DstBits` rows `hi` and `lo`.
/// Writes nothing and returns `false` when any datum needs the general path.
pub fn dst_row_fp32(x: &[f32; 16], add: bool, hi: &mut [u16; 16], lo: &mut [u16; 16]) -> bool {
    // [`fp32_tail`] with the layout change (which only moves bits of the high half) done on
    // the 16-bit halves, so that it vectorises eight data at a time.
    let ieee_hi: [u16; 16] = std::array::from_fn(|j| layout::read_dst_bf16(hi[j]));
    let (mut out_hi, mut out_lo) = ([0u16; 16], [0u16; 16]);
    let mut bad = false;
    for j in 0..16 {
        let old = ((ieee_hi[j] as u32) << 16) | lo[j] as u32;
        let (r, b) = accumulate(x[j], dst_value(old), add);
        let u = r.to_bits();
        out_hi[j] = (u >> 16) as u16;
        out_lo[j] = u as u16;
        bad |= b;
    }
    if bad {
        return false;
    }
    for j in 0..16 {
        hi[j] = layout::write_dst_bf16(out_hi[j]);
    }
    *lo = out_lo;
    true
}

/// [`dst_fp16`] (`fp16`) or [`dst_bf16`] for a whole `Dst16b` row, as [`dst_row_fp32`].
pub fn dst_row_16(x: &[f32; 16], add: bool, fp16: bool, row: &mut [u16; 16]) -> bool {
    let mut out = [0u16; 16];
    let mut bad = false;
    for j in 0..16 {
        let (v, b) = if fp16 {
            fp16_tail(x[j], row[j], add)
        } else {
            bf16_tail(x[j], row[j], add)
        };
        out[j] = v;
        bad |= b;
    }
    if !bad {
        *row = out;
    }
    !bad
}

/// ELWADD's / ELWSUB's value for one row in `f32` ([`fadd`], [`fsub`], [`fdiv_pow2`]), or
/// `None` where only the general model can say.
pub fn add_row(
    style: SrcAStyle,
    a: &[u32; 16],
    b: &[u32; 16],
    sub: bool,
    phase: u32,
) -> Option<[f32; 16]> {
    let fmt = SrcFormat::of(style)?;
    let mut x = [0.0f32; 16];
    let mut bad = false;
    for j in 0..16 {
        let ((av, ab), (bv, bb)) = (fmt.decode(a[j]), fmt.decode(b[j]));
        let r = if sub { av - bv } else { av + bv };
        bad |= ab | bb | !r.is_finite();
        let mut r = ftz(r);
        if phase & 1 != 0 {
            r = fdiv_pow2(r, 5);
        }
        if phase & 2 != 0 {
            r = fdiv_pow2(r, 7);
        }
        x[j] = r;
    }
    (!bad).then_some(x)
}

/// ELWMUL's product for one row in `f32` ([`fmul`] of the fidelity-reduced operands).
pub fn mul_row(style: SrcAStyle, a: &[u32; 16], b: &[u32; 16], phase: u8) -> Option<[f32; 16]> {
    let fmt = SrcFormat::of(style)?;
    let (fa, fb) = (Fidelity::src_a(phase), Fidelity::src_b(phase));
    let mut x = [0.0f32; 16];
    let mut bad = false;
    for j in 0..16 {
        let ((av, ab), (bv, bb)) = (fmt.decode(a[j]), fmt.decode(b[j]));
        let r = fa.apply(av) * fb.apply(bv);
        bad |= ab | bb | !r.is_finite();
        x[j] = ftz(r);
    }
    (!bad).then_some(x)
}

#[cfg(test)]
#[path = "fast_tests.rs"]
mod tests;
