//! The packers' early-conversion rounding (Packers/FormatConversion.md "Early format
//! conversion"): deterministic round to nearest with ties away from zero; denormals flushed
//! to zero; minus zero becomes plus zero; with an 8-bit exponent, NaN becomes infinity.

/// Rounds an IEEE FP32 to IEEE BF16.
pub fn fp32_to_bf16_round(x: u32) -> u16 {
    round_fp32(x, 16) as u16
}

/// Rounds an IEEE FP32 to TF32 (10-bit mantissa), returned as FP32 bits with the low 13
/// bits zero.
pub fn fp32_to_tf32_round(x: u32) -> u32 {
    round_fp32(x, 13) << 13
}

/// Drops `drop` low mantissa bits with the early conversion's rules; the result is the kept
/// high bits.
fn round_fp32(x: u32, drop: u32) -> u32 {
    let sign = x & 0x8000_0000;
    let exp = (x >> 23) & 0xff;
    if exp == 0 {
        return 0; // denormals and -0 become +0
    }
    if exp == 0xff {
        return (sign | 0x7f80_0000) >> drop; // infinity stays, NaN becomes infinity
    }
    let mag = x & 0x7fff_ffff;
    let rounded = (mag + (1 << (drop - 1))) >> drop; // a carry into exp 255 gives infinity
    (sign >> drop) | rounded
}

/// INT32 (sign-magnitude) → INT8 by the early conversion's "shift then round then saturate"
/// path: the magnitude is shifted right by `shift` (0..=31), rounded to nearest with ties
/// away from zero using the shifted-out bits, and saturated to 127; the sign is kept (and
/// dropped when the result is zero, as sign-magnitude zero).
pub fn int32_sm_to_int8_sat(v: u32, shift: u32) -> u8 {
    let sign = v >> 31;
    let mag = (v & 0x7fff_ffff) as u64;
    let r = if shift == 0 {
        mag
    } else {
        (mag + (1u64 << (shift - 1))) >> shift
    };
    let r = r.min(127) as u8;
    if r == 0 {
        0
    } else {
        ((sign as u8) << 7) | r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Independent reference from real arithmetic: nearest representable BF16, ties away.
    fn bf16_ref(f: f32) -> u16 {
        let x = f.to_bits();
        let e = (x >> 23) & 0xff;
        if e == 0 {
            return 0;
        }
        if e == 0xff {
            return (((x >> 31) << 15) | 0x7f80) as u16;
        }
        let lo = f32::from_bits(x & 0xffff_0000);
        let hi_bits = (x & 0xffff_0000) + 0x1_0000;
        let hi = f32::from_bits(hi_bits);
        let (dl, dh) = ((f as f64 - lo as f64).abs(), (hi as f64 - f as f64).abs());
        if dh <= dl {
            (hi_bits >> 16) as u16
        } else {
            (x >> 16) as u16
        }
    }

    #[test]
    fn fp32_to_bf16_rounds_to_nearest_ties_away_from_zero() {
        let cases = [
            1.0f32,
            1.003_906_3,
            1.007_812_5,
            1.011_718_8,
            -1.003_906_3,
            3.25159,
            -2.61828,
            1e30,
            6.5e-38,
        ];
        for f in cases {
            assert_eq!(fp32_to_bf16_round(f.to_bits()), bf16_ref(f), "{f}");
        }
        // Exactly half way between 1.0 and 1.0078125 goes up (away from zero).
        assert_eq!(fp32_to_bf16_round(0x3f80_8000), 0x3f81);
        assert_eq!(fp32_to_bf16_round(0xbf80_8000), 0xbf81);
        // Just below half way goes down.
        assert_eq!(fp32_to_bf16_round(0x3f80_7fff), 0x3f80);
    }

    #[test]
    fn fp32_to_bf16_sweep_matches_nearest() {
        let mut x: u32 = 0x0080_0001;
        while x < 0x7f7f_0000 {
            let f = f32::from_bits(x);
            assert_eq!(fp32_to_bf16_round(x), bf16_ref(f), "{x:#010x}");
            assert_eq!(
                fp32_to_bf16_round(x | 0x8000_0000),
                bf16_ref(-f),
                "-{x:#010x}"
            );
            x = x.wrapping_add(0x0001_2345);
        }
    }

    #[test]
    fn rounding_flushes_denormals_and_minus_zero_to_plus_zero() {
        assert_eq!(fp32_to_bf16_round(0x0000_0001), 0);
        assert_eq!(fp32_to_bf16_round(0x807f_ffff), 0);
        assert_eq!(fp32_to_bf16_round(0x8000_0000), 0);
        assert_eq!(fp32_to_tf32_round(0x8000_0000), 0);
    }

    #[test]
    fn rounding_turns_nan_into_infinity_and_overflow_into_infinity() {
        assert_eq!(fp32_to_bf16_round(0x7fc0_0000), 0x7f80);
        assert_eq!(fp32_to_bf16_round(0xff80_0001), 0xff80);
        assert_eq!(fp32_to_bf16_round(0x7f80_0000), 0x7f80);
        assert_eq!(
            fp32_to_bf16_round(0x7f7f_ffff),
            0x7f80,
            "max finite rounds up to inf"
        );
        assert_eq!(fp32_to_tf32_round(0x7fc0_0000), 0x7f80_0000);
    }

    #[test]
    fn fp32_to_tf32_keeps_10_mantissa_bits_rounded() {
        assert_eq!(fp32_to_tf32_round(0x3f80_1000), 0x3f80_2000, "tie away");
        assert_eq!(fp32_to_tf32_round(0x3f80_0fff), 0x3f80_0000);
        assert_eq!(fp32_to_tf32_round(0x3f80_3000), 0x3f80_4000);
    }

    #[test]
    fn int32_to_int8_shifts_rounds_and_saturates() {
        assert_eq!(int32_sm_to_int8_sat(100, 0), 100);
        assert_eq!(int32_sm_to_int8_sat(1000, 0), 127);
        assert_eq!(int32_sm_to_int8_sat(0x8000_0000 | 1000, 0), 0xff);
        assert_eq!(int32_sm_to_int8_sat(6, 2), 2, "1.5 ties away to 2");
        assert_eq!(int32_sm_to_int8_sat(5, 2), 1);
        assert_eq!(
            int32_sm_to_int8_sat(0x8000_0001, 2),
            0,
            "-0.25 rounds to unsigned zero"
        );
    }
}
