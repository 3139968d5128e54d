//! The Matrix Unit's floating-point arithmetic: the multipliers' fidelity-phase operand bit
//! selection and the rounding of every multiply and add, as the functional models of
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ELWMUL.md` (`SrcAFidelityBits`,
//! `SrcBFidelityBits`) and `MVMUL.md` (the `float` sum over `k`) write them.
//!
//! Why a model of our own rather than `f32`: the pages compute in C `float`, but the Matrix Unit
//! reads exponent 255 as an ordinary finite value (`FloatBitPatterns.md`), which `f32` cannot
//! hold, and flushes denormals to zero. So a value here is an `f64` that always carries at most
//! 24 significant bits (FP32 precision), is zero or at least 2^-126 in magnitude, and may exceed
//! FP32's range at the top (exponent 255 inputs, sums of them). Every operation is done exactly
//! in `f64` and then rounded once to 24 bits, ties to even, then flushed to a signed zero when
//! below 2^-126. Products of two 24-bit significands are exact in `f64`; for sums, rounding
//! first to `f64` then to 24 bits equals rounding once because 53 >= 2*24 + 2 (double rounding
//! is innocuous), so the result is the correctly rounded FP32 one. Saturation at the top happens
//! only where a result is written to `Dst` ([`super::formats`]). The rules are restated in
//! `docs/matrix-unit.md`.

/// 2^-126: the smallest normal FP32 magnitude; anything smaller is flushed to zero.
pub const MIN_NORMAL: f64 = 1.1754943508222875e-38;

/// Rounds `x` to `bits` significant bits, ties to even, with an unbounded exponent range.
/// `x` must be zero or a normal `f64` (always true for the values of this model).
pub fn round_sig(x: f64, bits: u32) -> f64 {
    let drop = 53 - bits;
    let b = x.to_bits();
    let lsb = (b >> drop) & 1;
    let half_minus_one = (1u64 << (drop - 1)) - 1;
    let low_mask = (1u64 << drop) - 1;
    f64::from_bits((b + half_minus_one + lsb) & !low_mask)
}

/// Denormal results become a zero of the same sign ("Denormals will be flushed to zero").
pub fn flush(x: f64) -> f64 {
    if x.abs() < MIN_NORMAL {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// The model's `float` addition: exact sum, rounded to FP32 precision, flushed.
pub fn fadd(a: f64, b: f64) -> f64 {
    flush(round_sig(a + b, 24))
}

/// The model's `float` subtraction.
pub fn fsub(a: f64, b: f64) -> f64 {
    flush(round_sig(a - b, 24))
}

/// The model's `float` multiplication.
pub fn fmul(a: f64, b: f64) -> f64 {
    flush(round_sig(a * b, 24))
}

/// `x / 2^k` as `float` division: exact unless the quotient falls below 2^-126.
pub fn fdiv_pow2(x: f64, k: i32) -> f64 {
    flush(x * 2f64.powi(-k))
}

// An FP32 mantissa bit `n` (0..=22) sits at bit `n + 29` of an f64 holding the same value.
const F32_TO_F64_SHIFT: u32 = 29;

/// Clears the f64 bits that hold FP32 mantissa bits `mask32` (a mask over bits 0..=22).
fn clear_f32_man_bits(x: f64, mask32: u64) -> f64 {
    f64::from_bits(x.to_bits() & !(mask32 << F32_TO_F64_SHIFT))
}

/// `SrcAFidelityBits`: even phases keep sign, exponent, the implicit 1 and the top four
/// mantissa bits (FP32 mask `0xfff80000`); odd phases give the next five mantissa bits
/// (`x - (x & 0xfff83fff)`), a `float` subtraction and therefore flushed when tiny.
pub fn src_a_fidelity_bits(x: f64, phase: u8) -> f64 {
    if phase & 1 == 0 {
        clear_f32_man_bits(x, 0x7_ffff)
    } else {
        fsub(x, clear_f32_man_bits(x, 0x7_c000))
    }
}

/// `SrcBFidelityBits`: phases 0 and 1 keep sign, exponent, the implicit 1 and the top six
/// mantissa bits (FP32 mask `0xfffe0000`); phases 2 and 3 give the next four mantissa bits
/// (`x - (x & 0xfffe1fff)`).
pub fn src_b_fidelity_bits(x: f64, phase: u8) -> f64 {
    if phase & 2 == 0 {
        clear_f32_man_bits(x, 0x1_ffff)
    } else {
        fsub(x, clear_f32_man_bits(x, 0x1_e000))
    }
}

/// The integer "8" operand bits a fidelity phase multiplies (`ELWMUL.md`): SrcA keeps the low
/// five magnitude bits on odd phases (`0x41fff`) and the next three on even ones (`0x4e0ff`).
pub fn src_a_int8_fidelity_mask(phase: u8) -> u32 {
    if phase & 1 != 0 {
        0x4_1fff
    } else {
        0x4_e0ff
    }
}

/// SrcB keeps the low four magnitude bits on phases 2 and 3 (`0x40fff`), the high six on
/// phases 0 and 1 (`0x7f0ff`).
pub fn src_b_int8_fidelity_mask(phase: u8) -> u32 {
    if phase & 2 != 0 {
        0x4_0fff
    } else {
        0x7_f0ff
    }
}

/// One output row of MVMUL's multiplier/adder tree: for every column `j`,
/// `x = 0; x += b[k] * a[k][j]` for k = 0..16 in that order, each partial sum a rounded
/// `float` operation. The operands are already reduced to the fidelity phase's bits (at most 7
/// and 5 significant bits), so each product is exact and only needs the flush. The 16 columns'
/// chains are independent, so they advance together (k outer) for instruction-level
/// parallelism; each column's own order is unchanged.
pub fn mac_row(b_row: &[f64; 16], a: &[[f64; 16]; 16]) -> [f64; 16] {
    let mut x = [0.0f64; 16];
    for (bk, a_k) in b_row.iter().zip(a.iter()) {
        for (xj, akj) in x.iter_mut().zip(a_k.iter()) {
            *xj = fadd(*xj, flush(bk * akj));
        }
    }
    x
}

/// `SaturateAddInt32`: the sum clamped at ±(2^31 - 1) (`ELWMUL.md`).
pub fn saturate_add_i32(a: i32, b: i32) -> i32 {
    let s = a as i64 + b as i64;
    s.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_sig_ties_to_even() {
        // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: ties to the even neighbour, 1.
        assert_eq!(round_sig(1.0 + 2f64.powi(-24), 24), 1.0);
        // 1 + 3*2^-24 is halfway between 1+2^-23 (odd) and 1+2^-22 (even).
        assert_eq!(
            round_sig(1.0 + 3.0 * 2f64.powi(-24), 24),
            1.0 + 2f64.powi(-22)
        );
        assert_eq!(
            round_sig(-(1.0 + 3.0 * 2f64.powi(-24)), 24),
            -(1.0 + 2f64.powi(-22))
        );
        // Above half rounds up, carrying into the exponent.
        assert_eq!(round_sig(2.0 - 2f64.powi(-30), 24), 2.0);
        assert_eq!(round_sig(0.0, 24).to_bits(), 0);
        assert_eq!(round_sig(-0.0, 24).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn float_ops_match_f32_in_range() {
        // Inside FP32's normal range the model is IEEE f32 with flush-to-zero.
        let mut s = 0x1234_5678_9abc_def0u64;
        for _ in 0..100_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let a = f32::from_bits((s as u32 & 0x8fff_ffff) | 0x3000_0000);
            let b = f32::from_bits(((s >> 32) as u32 & 0x8fff_ffff) | 0x3000_0000);
            assert_eq!(fadd(a as f64, b as f64), (a + b) as f64, "{a} + {b}");
            assert_eq!(fmul(a as f64, b as f64), (a * b) as f64, "{a} * {b}");
        }
    }

    #[test]
    fn denormal_results_flush_to_signed_zero() {
        let tiny = 2f64.powi(-100);
        assert_eq!(fmul(tiny, -tiny).to_bits(), (-0.0f64).to_bits());
        assert_eq!(fmul(tiny, tiny).to_bits(), 0);
        assert_eq!(fdiv_pow2(MIN_NORMAL, 1), 0.0);
        // Rounding up to the smallest normal keeps it.
        assert_eq!(fadd(MIN_NORMAL, 0.0), MIN_NORMAL);
    }

    #[test]
    fn exponent_255_stays_finite() {
        let big = 2f64.powi(128);
        assert_eq!(fsub(big, big), 0.0);
        assert_eq!(fadd(big, big), 2f64.powi(129));
    }

    #[test]
    fn fidelity_phases_split_srca_into_five_and_five_bits() {
        // 1.mmmm_mmmm_mm (TF32, mantissa 0x3ff): phase 0 keeps 1 + 15/16, phase 1 gets the next
        // five bits 31/2^9, and the tenth bit (2^-10) is never consumed.
        let x = 1.0 + 1023.0 / 1024.0;
        assert_eq!(src_a_fidelity_bits(x, 0), 1.0 + 15.0 / 16.0);
        assert_eq!(src_a_fidelity_bits(x, 2), 1.0 + 15.0 / 16.0);
        assert_eq!(src_a_fidelity_bits(x, 1), 31.0 / 512.0);
        assert_eq!(src_a_fidelity_bits(x, 3), 31.0 / 512.0);
        assert_eq!(src_a_fidelity_bits(-x, 1), -31.0 / 512.0);
    }

    #[test]
    fn fidelity_phases_split_srcb_into_seven_and_four_bits() {
        let x = 1.0 + 1023.0 / 1024.0;
        assert_eq!(src_b_fidelity_bits(x, 0), 1.0 + 63.0 / 64.0);
        assert_eq!(src_b_fidelity_bits(x, 1), 1.0 + 63.0 / 64.0);
        assert_eq!(src_b_fidelity_bits(x, 2), 15.0 / 1024.0);
        assert_eq!(src_b_fidelity_bits(x, 3), 15.0 / 1024.0);
    }

    #[test]
    fn odd_phase_remainder_of_zero_is_positive_zero() {
        assert_eq!(src_a_fidelity_bits(-1.0, 1).to_bits(), 0);
        assert_eq!(src_b_fidelity_bits(-0.0, 2).to_bits(), 0);
        assert_eq!(src_a_fidelity_bits(-0.0, 0).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn fidelity_remainder_below_min_normal_is_flushed() {
        // Exponent 1 with low mantissa bits: the phase-1 remainder is an FP32 denormal.
        let x = MIN_NORMAL * (1.0 + 1.0 / 64.0);
        assert_eq!(src_a_fidelity_bits(x, 1), 0.0);
    }

    #[test]
    fn saturate_add_int32_clamps_symmetrically() {
        assert_eq!(saturate_add_i32(i32::MAX, 1), i32::MAX);
        assert_eq!(saturate_add_i32(-i32::MAX, -5), -i32::MAX);
        assert_eq!(saturate_add_i32(-3, 5), 2);
    }

    #[test]
    fn mac_row_sums_each_column_in_k_order() {
        // Order matters: 2^30 + 1 rounds back to 2^30 before -2^30 cancels it.
        let mut a = [[0.0; 16]; 16];
        let mut b = [0.0; 16];
        for (k, row) in a.iter_mut().enumerate().take(3) {
            row[0] = 1.0;
            row[1] = [1.0, 1.0, 0.0][k];
        }
        b[0] = 2f64.powi(30);
        b[1] = 1.0;
        b[2] = -(2f64.powi(30));
        let x = mac_row(&b, &a);
        assert_eq!(x[0], 0.0);
        // Column 1 only sees k = 0, 1: 2^30 + 1 rounded = 2^30.
        assert_eq!(x[1], 2f64.powi(30));
        b[0] = 1.0;
        b[1] = 2.0;
        b[2] = 1.0;
        assert_eq!(mac_row(&b, &a)[0], 4.0);
    }
}
