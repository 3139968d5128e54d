//! The packer's conversions that the ISA pages leave open or state loosely, as Blackhole
//! computes them (checked against Tenstorrent's reference simulator by the kit campaign of
//! `docs/tensix-datapath.md` "Packer conversions"): the early conversions of a `Dst` datum to a
//! BF16/BFP8 or FP16/BFP8a intermediate, and the late conversions between FP32, FP16 and BF16.
//! Every function is on raw bits.

/// Early conversion FP32 (`Dst32b`) → BF16: NaN saturates to infinity of its sign, then the
/// magnitude is rounded at bit 15, ties away from zero; a result whose exponent is 0 is +0.
/// The flush comes after the rounding, so the largest FP32 denormals round up to the smallest
/// BF16 normal.
pub fn early_fp32_to_bf16(x: u32) -> u16 {
    let r = (saturate_nan32(x) + 0x8000) >> 16;
    flush_bf16(r as u16)
}

/// Early conversion FP32 (`Dst32b`) → the BFP8 intermediate: NaN saturates to infinity, the
/// value is truncated to BF16, then its 7-bit mantissa is rounded to 6 bits (an odd mantissa
/// steps up by one ulp, which may carry into the exponent); a result whose exponent is 0 is +0.
pub fn early_fp32_to_bfp8(x: u32) -> u16 {
    let t = (saturate_nan32(x) >> 16) as u16;
    flush_bf16((t + 1) & !1)
}

/// Early conversion of a BF16 `Dst16b` datum to the BF16 (`bfp8 == false`) or BFP8
/// intermediate: NaN saturates to infinity of its sign, exponent 0 is +0, and for BFP8 the
/// mantissa is rounded to 6 bits as in [`early_fp32_to_bfp8`].
pub fn early_bf16(h: u16, bfp8: bool) -> u16 {
    let v = if h & 0x7fff > 0x7f80 {
        (h & 0x8000) | 0x7f80
    } else {
        flush_bf16(h)
    };
    if bfp8 {
        (v + 1) & !1
    } else {
        v
    }
}

/// Early conversion of an FP16 `Dst16b` datum to the BFP8a intermediate: magnitudes above
/// `0x7ff7` saturate to `0x7ff0` of their sign, the 10-bit mantissa is rounded to 6 bits at
/// bit 3 (half up in magnitude), and exponent 0 is +0.
pub fn early_fp16_to_bfp8a(h: u16) -> u16 {
    let v = if h & 0x7fff > 0x7ff7 {
        (h & 0x8000) | 0x7ff0
    } else {
        h
    };
    let v = (v + 8) & !15;
    if v & 0x7fff < 0x400 {
        0
    } else {
        v
    }
}

/// Late conversion FP16 → FP32: a nonzero exponent is re-biased from 15 to 127; exponent 0
/// keeps its mantissa unscaled, as an FP32 zero or denormal of the same sign.
pub fn late_fp16_to_fp32(h: u16) -> u32 {
    let sign = u32::from(h & 0x8000) << 16;
    if h & 0x7c00 != 0 {
        sign | ((u32::from(h & 0x7fff) + (112 << 10)) << 13)
    } else {
        sign | (u32::from(h & 0x3ff) << 13)
    }
}

/// Late conversion FP16 → BF16 (and of the BFP8a intermediate to a BFP8 block): exponent 0
/// is +0; otherwise the exponent is re-biased and the mantissa truncated to 7 bits.
pub fn late_fp16_to_bf16(h: u16) -> u16 {
    let e = (h >> 10) & 0x1f;
    if e == 0 {
        return 0;
    }
    (h & 0x8000) | ((e + 112) << 7) | ((h & 0x3ff) >> 3)
}

/// Late conversion FP32 → FP16: the exponent re-biased to 15; below exponent 0 a zero of the
/// sign (FP16 exponent 0 itself is kept with the truncated mantissa, not flushed), above 31
/// `0x7fff` of the sign (NaN and infinity included), else the mantissa truncated to 10 bits.
pub fn late_fp32_to_fp16(x: u32) -> u16 {
    let sign = ((x >> 16) & 0x8000) as u16;
    let e = ((x >> 23) & 0xff) as i32 - 112;
    if e < 0 {
        sign
    } else if e > 31 {
        sign | 0x7fff
    } else {
        sign | ((e as u16) << 10) | ((x & 0x7f_ffff) >> 13) as u16
    }
}

/// Late conversion FP32 → a BFP block datum: truncated to BF16, exponent 0 is +0 (NaN and
/// infinity pass as exponent 255).
pub fn late_fp32_to_bfp(x: u32) -> u16 {
    flush_bf16((x >> 16) as u16)
}

/// Blackhole early conversion FP32 (`Dst32b`) → FP16 with `Round_10b_mant`: NaN saturates to
/// infinity of its sign, the mantissa is rounded at bit 12 (half up in magnitude) to a 19-bit
/// value that keeps FP32's 8-bit exponent (sign at bit 18, exponent 17..10, mantissa 9..0),
/// and exponent 0 is +0. ReLU acts on this wide value; [`wide_fp16_to_fp16`] narrows it.
pub fn early_fp32_to_wide_fp16(x: u32) -> u32 {
    let v = (saturate_nan32(x) + 0x1000) >> 13;
    if v & 0x3ffff < 0x400 {
        0
    } else {
        v
    }
}

/// The wide FP16 value of [`early_fp32_to_wide_fp16`] narrowed to FP16: the exponent re-biased
/// from 127 to 15; below 0 a zero of the sign, above 31 `0x7fff` of the sign.
pub fn wide_fp16_to_fp16(v: u32) -> u16 {
    let sign = ((v >> 18) & 1) as u16;
    let e = ((v >> 10) & 0xff) as i32 - 112;
    let m = (v & 0x3ff) as u16;
    if e < 0 {
        sign << 15
    } else if e > 31 {
        (sign << 15) | 0x7fff
    } else {
        (sign << 15) | ((e as u16) << 10) | m
    }
}

/// Blackhole early conversion of a BF16 `Dst16b` datum to FP16 with `Round_10b_mant`: the
/// exponent re-biased from 127 to 15 (below 0 a zero of the sign, above 31 `0x7fff` of the
/// sign), the 7-bit mantissa widened to 10 bits.
pub fn early_bf16_to_fp16(h: u16) -> u16 {
    let sign = h & 0x8000;
    let e = ((h >> 7) & 0xff) as i32 - 112;
    if e < 0 {
        sign
    } else if e > 31 {
        sign | 0x7fff
    } else {
        sign | ((e as u16) << 10) | ((h & 0x7f) << 3)
    }
}

/// Early conversion INT32 (`Dst32b`, sign-magnitude) → INT8. Signed: the sign kept in bit 7,
/// the magnitude clamped to 127. Unsigned (`Read_unsigned`): negative values clamp to 0,
/// others to 255.
pub fn early_int32_to_int8(x: u32, unsigned: bool) -> u8 {
    let negative = x & 0x8000_0000 != 0;
    let magnitude = x & 0x7fff_ffff;
    if unsigned {
        if negative {
            0
        } else {
            magnitude.min(255) as u8
        }
    } else {
        ((u8::from(negative)) << 7) | magnitude.min(127) as u8
    }
}

/// Blackhole late conversion FP16 → FP8 E4M3 (`Pac_LF8_4b_exp`): the exponent re-biased from
/// 15 to 7 and the mantissa truncated to 3 bits; FP16 exponents up to 8 give a zero of the
/// sign, 24 and above saturate to `0x7f` of the sign.
pub fn late_fp16_to_fp8_e4m3(h: u16) -> u8 {
    let sign = ((h >> 15) as u8) << 7;
    let e = (h >> 10) & 0x1f;
    if e <= 8 {
        sign
    } else if e >= 24 {
        sign | 0x7f
    } else {
        sign | (((e - 8) as u8) << 3) | ((h & 0x3ff) >> 7) as u8
    }
}

/// Late conversion FP16 → FP8 E5M2: the same 5-bit exponent, so the upper byte of the FP16
/// value (mantissa truncated to 2 bits), as the ISA page's FormatConversion describes.
pub fn late_fp16_to_fp8_e5m2(h: u16) -> u8 {
    (h >> 8) as u8
}

fn saturate_nan32(x: u32) -> u32 {
    if x & 0x7fff_ffff > 0x7f80_0000 {
        (x & 0x8000_0000) | 0x7f80_0000
    } else {
        x
    }
}

fn flush_bf16(h: u16) -> u16 {
    if h & 0x7fff < 0x80 {
        0
    } else {
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn early_fp32_to_bf16_flushes_after_rounding() {
        // Largest FP32 denormal 0x007fffff + 0x8000 carries into exponent 1: 0x0080.
        assert_eq!(early_fp32_to_bf16(0x007f_ffff), 0x0080);
        assert_eq!(early_fp32_to_bf16(0x007f_7fff), 0x0000);
        assert_eq!(early_fp32_to_bf16(0x807f_ffff), 0x8080);
        assert_eq!(early_fp32_to_bf16(0x8000_0000), 0x0000);
        // Ties away from zero, NaN to infinity of its sign.
        assert_eq!(early_fp32_to_bf16(0x3f80_8000), 0x3f81);
        assert_eq!(early_fp32_to_bf16(0xffc0_0001), 0xff80);
        assert_eq!(early_fp32_to_bf16(0x7f7f_ffff), 0x7f80);
    }

    #[test]
    fn early_bfp8_rounds_the_mantissa_to_six_bits() {
        // 0x3f81 (odd mantissa) steps up to 0x3f82; 0x3f82 stays.
        assert_eq!(early_bf16(0x3f81, true), 0x3f82);
        assert_eq!(early_bf16(0x3f82, true), 0x3f82);
        // Mantissa 0x7f carries into the exponent: 0x3fff -> 0x4000.
        assert_eq!(early_bf16(0x3fff, true), 0x4000);
        assert_eq!(early_bf16(0x7fc1, true), 0x7f80);
        assert_eq!(early_bf16(0x807f, true), 0x0000);
        assert_eq!(early_bf16(0x807f, false), 0x0000);
        // From FP32: truncated first (0x3f81ffff -> 0x3f81), then rounded to 0x3f82.
        assert_eq!(early_fp32_to_bfp8(0x3f81_ffff), 0x3f82);
        assert_eq!(early_fp32_to_bfp8(0x3f80_ffff), 0x3f80);
        // The largest denormal's odd mantissa 0x7f steps into exponent 1 before the flush.
        assert_eq!(early_fp32_to_bfp8(0x007f_ffff), 0x0080);
        assert_eq!(early_fp32_to_bfp8(0x007e_ffff), 0x0000);
    }

    #[test]
    fn early_fp16_to_bfp8a_saturates_and_rounds_at_bit_three() {
        assert_eq!(early_fp16_to_bfp8a(0x3c08), 0x3c10);
        assert_eq!(early_fp16_to_bfp8a(0x3c07), 0x3c00);
        assert_eq!(early_fp16_to_bfp8a(0xfff8), 0xfff0);
        assert_eq!(early_fp16_to_bfp8a(0xfc01), 0xfc00);
        assert_eq!(early_fp16_to_bfp8a(0x03ff), 0x0400);
        assert_eq!(early_fp16_to_bfp8a(0x03f7), 0x0000);
    }

    #[test]
    fn late_fp16_to_fp32_rebiases_or_widens_denormals() {
        assert_eq!(late_fp16_to_fp32(0x3c00), 0x3f80_0000);
        assert_eq!(late_fp16_to_fp32(0xc001), 0xc000_2000);
        assert_eq!(late_fp16_to_fp32(0x0001), 0x0000_2000);
        assert_eq!(late_fp16_to_fp32(0x8200), 0x8040_0000);
        assert_eq!(late_fp16_to_fp32(0x7c00), 0x4780_0000);
    }

    #[test]
    fn late_fp16_to_bf16_flushes_exponent_zero_and_truncates() {
        assert_eq!(late_fp16_to_bf16(0x3c07), 0x3f80);
        assert_eq!(late_fp16_to_bf16(0xbc0f), 0xbf81);
        assert_eq!(late_fp16_to_bf16(0x83ff), 0x0000);
        assert_eq!(late_fp16_to_bf16(0x7fff), 0x47ff);
    }

    #[test]
    fn late_fp32_to_fp16_saturates_to_7fff_and_keeps_exponent_zero() {
        assert_eq!(late_fp32_to_fp16(0x3f80_0000), 0x3c00);
        assert_eq!(late_fp32_to_fp16(0x3f80_1fff), 0x3c00);
        assert_eq!(late_fp32_to_fp16(0x3800_4000), 0x0002);
        assert_eq!(late_fp32_to_fp16(0xb7ff_ffff), 0x8000);
        assert_eq!(late_fp32_to_fp16(0x4780_0000), 0x7c00);
        assert_eq!(late_fp32_to_fp16(0x4800_0000), 0x7fff);
        assert_eq!(late_fp32_to_fp16(0xff80_0001), 0xffff);
    }

    #[test]
    fn late_fp32_to_bfp_truncates_and_flushes() {
        assert_eq!(late_fp32_to_bfp(0x3f81_ffff), 0x3f81);
        assert_eq!(late_fp32_to_bfp(0x807f_ffff), 0x0000);
        assert_eq!(late_fp32_to_bfp(0x7fc0_0000), 0x7fc0);
    }

    #[test]
    fn early_fp32_to_fp16_rounds_at_bit_twelve_and_narrows() {
        for (fp32, fp16, why) in [
            (
                0x3f80_1000,
                0x3c01,
                "1.0 + 2^-11, a tie at FP16's last place, rounds up",
            ),
            (0x3f80_0fff, 0x3c00, "below the tie rounds down"),
            (
                0xbf80_1000,
                0xbc01,
                "ties round up in magnitude for negatives too",
            ),
            (
                0x7fc0_0000,
                0x7fff,
                "NaN saturates to infinity, then FP16 to 0x7fff",
            ),
            (
                0xb000_0000,
                0x8000,
                "below FP16's range: a zero of the sign",
            ),
            (0x8000_0001, 0x0000, "FP32 denormals flush to +0 first"),
            (0x3880_0000, 0x0400, "2^-14: FP16 exponent 1"),
            (
                0x3800_0000,
                0x0000,
                "2^-15: exponent 0, kept as a zero of the sign",
            ),
        ] {
            assert_eq!(
                wide_fp16_to_fp16(early_fp32_to_wide_fp16(fp32)),
                fp16,
                "{fp32:#010x}: {why}"
            );
        }
    }

    #[test]
    fn early_bf16_to_fp16_rebiases_and_saturates() {
        assert_eq!(early_bf16_to_fp16(0x3f80), 0x3c00);
        assert_eq!(early_bf16_to_fp16(0xbfc1), 0xbe08);
        assert_eq!(early_bf16_to_fp16(0x4780), 0x7c00);
        assert_eq!(early_bf16_to_fp16(0x4800), 0x7fff);
        assert_eq!(early_bf16_to_fp16(0x3780), 0x0000);
        assert_eq!(early_bf16_to_fp16(0xb780), 0x8000);
    }

    #[test]
    fn early_int32_to_int8_clamps_signed_and_unsigned() {
        assert_eq!(early_int32_to_int8(5, false), 5);
        assert_eq!(early_int32_to_int8(0x8000_0005, false), 0x85);
        assert_eq!(early_int32_to_int8(1000, false), 127);
        assert_eq!(early_int32_to_int8(0x8000_1000, false), 0xff);
        assert_eq!(early_int32_to_int8(1000, true), 255);
        assert_eq!(early_int32_to_int8(0x8000_0005, true), 0);
    }

    #[test]
    fn late_fp16_to_fp8_e4m3_flushes_saturates_and_truncates() {
        // 1.0 = FP16 exponent 15 -> E4M3 exponent 7.
        assert_eq!(late_fp16_to_fp8_e4m3(0x3c00), 0x38);
        assert_eq!(late_fp16_to_fp8_e4m3(0xbe7f), 0xbc);
        assert_eq!(late_fp16_to_fp8_e4m3(0x2400), 0x08);
        assert_eq!(late_fp16_to_fp8_e4m3(0x23ff), 0x00);
        assert_eq!(late_fp16_to_fp8_e4m3(0xa000), 0x80);
        assert_eq!(late_fp16_to_fp8_e4m3(0x6000), 0x7f);
        assert_eq!(late_fp16_to_fp8_e4m3(0xdbff), 0xf7);
    }
}
