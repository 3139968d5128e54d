//! The SFPU example kernels' references on hand-computed cases: each value worked out here
//! from the instruction pages (SFPSTORE's `ToBF16`, SFPADDI, SFPMAD, SFPSHFT / SFPIADD, SFPLUT,
//! SFPSWAP) and the packer's BF16 conversion.
use bhemu_refmath::pack::pack_to_bf16;
use bhemu_refmath::sfpu::{int_value, packed, to_bf16, value};

fn bits(op: &str, xs: &[f64], i: usize) -> u16 {
    let a = |j: usize| xs[j];
    value(op, &a, xs.len(), i).unwrap_or_else(|| panic!("{op} is not an SFPU op"))
}

/// The reference's value (fine where it is not a NaN).
fn run(op: &str, xs: &[f64], i: usize) -> f64 {
    f64::from(f32::from_bits(u32::from(bits(op, xs, i)) << 16))
}

#[test]
fn sfpstore_to_bf16_truncates_rather_than_rounds() {
    // BF16 keeps 7 mantissa bits: 1 + 2^-7 + 2^-8 truncates to 1 + 2^-7 (round to
    // nearest even would give 1 + 2^-6).
    let x = 1.0 + 2f64.powi(-7) + 2f64.powi(-8);
    assert_eq!(to_bf16((x as f32).to_bits()), 0x3f81, "1 + 2^-7");
    assert_eq!(to_bf16(0x0000_0001), 0x0000, "denormal flushes");
    assert_eq!(to_bf16(0x8000_0001), 0x8000, "to signed zero");
    assert_eq!(
        to_bf16(0x7fa5_8000),
        0x7fa5,
        "a signalling NaN stays signalling"
    );
}

#[test]
fn packer_rounding_turns_nan_into_infinity_and_minus_zero_into_plus_zero() {
    assert_eq!(packed(0x7fa5), 0x7f80, "signalling NaN");
    assert_eq!(packed(0xffc0), 0xff80, "quiet NaN keeps its sign");
    assert_eq!(packed(0xff80), 0xff80, "infinity stays");
    assert_eq!(packed(0x8000), 0x0000, "minus zero");
    assert_eq!(packed(0x0001), 0x0000, "denormal");
    assert_eq!(packed(0xbfc0), 0xbfc0, "a normal value is exact");
}

#[test]
fn add_half_and_square_minus_1_5_on_exact_values() {
    assert_eq!(run("sfpu_add_half", &[-1.25], 0), -0.75);
    assert_eq!(run("sfpu_square_minus_1_5", &[1.5], 0), 0.75);
}

#[test]
fn sqrt_bits_halves_the_exponent_of_four() {
    // 4.0 = 0x40800000; >> 1 = 0x20400000; + 0x1fc00000 = 0x40000000 = 2.0.
    assert_eq!(run("sfpu_sqrt_bits", &[4.0], 0), 2.0);
}

#[test]
fn sqrt_bits_of_a_negative_input_is_a_signalling_nan_kept_bit_for_bit() {
    // -1.5859375 = 0xbfcb0000; logical >> 1 = 0x5fe58000; + 0x1fc00000 = 0x7fa58000: a NaN
    // with the quiet bit (22) clear, which must not come back as 0x7fe5.
    assert_eq!(bits("sfpu_sqrt_bits", &[-1.5859375], 0), 0x7fa5);
}

#[test]
fn lut3_picks_the_segment_by_abs_x_and_keeps_the_sign() {
    // |x| = 0.5 < 1: 0.5 * 0.5 + 0.25 = 0.5, negated.
    assert_eq!(run("sfpu_lut3", &[-0.5], 0), -0.5);
    // |x| = 1.5: 0.265625 * 1.5 + 0.1328125 = 0.53125.
    assert_eq!(run("sfpu_lut3", &[1.5], 0), 0.53125);
    // |x| = 2: 0.1484375 * 2 + 0.0703125 = 0.3671875.
    assert_eq!(run("sfpu_lut3", &[2.0], 0), 0.3671875);
}

#[test]
fn minmax_pairs_orders_adjacent_columns_sign_magnitude() {
    let xs = [1.0, -2.0, 0.0, -0.0];
    assert_eq!(run("sfpu_minmax_pairs", &xs, 0), -2.0);
    assert_eq!(run("sfpu_minmax_pairs", &xs, 1), 1.0);
    // -0 < +0 in sign-magnitude order.
    assert!(run("sfpu_minmax_pairs", &xs, 2).is_sign_negative());
    assert!(run("sfpu_minmax_pairs", &xs, 3).is_sign_positive());
    // A last element without a partner is left as it is.
    assert_eq!(run("sfpu_minmax_pairs", &[3.0], 0), 3.0);
}

#[test]
fn int_shift_add_wraps_and_shifts_right_arithmetically() {
    let f = |x: i32| int_value("sfpu_int_shift_add", x as u32).map(|y| y as i32);
    assert_eq!(f(0), Some(1234));
    assert_eq!(f(100), Some(800 + 25 + 1234));
    // -1 << 3 = -8; -1 >> 2 (arithmetic) = -1.
    assert_eq!(f(-1), Some(-8 - 1 + 1234));
    // -7 >> 2 = -2 (towards minus infinity).
    assert_eq!(f(-7), Some(-56 - 2 + 1234));
    // i32::MIN << 3 wraps to 0; i32::MIN >> 2 = -2^29.
    assert_eq!(f(i32::MIN), Some(-(1 << 29) + 1234));
    // 0x7fffffff << 3 = 0xfffffff8 (-8); >> 2 = 0x1fffffff.
    assert_eq!(f(i32::MAX), Some(-8 + 0x1fff_ffff + 1234));
    assert_eq!(int_value("sfpu_add_half", 0), None);
}

/// The packer rounds FP32 ties away from zero and turns minus zero into plus zero.
#[test]
fn pack_to_bf16_rounds_ties_away_and_drops_minus_zero() {
    assert_eq!(pack_to_bf16(0x3F80_8000), 0x3F81);
    assert_eq!(pack_to_bf16(0xBF80_8000), 0xBF81);
    assert_eq!(pack_to_bf16(0x3F80_7FFF), 0x3F80);
    assert_eq!(pack_to_bf16(0x8000_0000), 0);
}
