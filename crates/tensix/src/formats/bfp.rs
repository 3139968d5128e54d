//! Block-float (BFP) formats: 16 datums share one exponent byte; each datum is a sign bit and
//! a 7-, 3- or 1-bit magnitude without implicit leading one (FloatBitPatterns.md "BFP").

/// Datum width of a BFP format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BfpWidth {
    /// BFP8 / BFP8a: sign + 7-bit magnitude.
    B8,
    /// BFP4 / BFP4a: sign + 3-bit magnitude.
    B4,
    /// BFP2 / BFP2a: sign + 1-bit magnitude.
    B2,
}

impl BfpWidth {
    /// Bits per datum.
    pub fn bits(self) -> u32 {
        match self {
            BfpWidth::B8 => 8,
            BfpWidth::B4 => 4,
            BfpWidth::B2 => 2,
        }
    }

    /// A datum of this width moved to the BFP8 position (`DatumBits << 4` / `<< 6`), as the
    /// unpackers do before `BFP8ToBF16`.
    pub fn widen_to_8(self, datum: u8) -> u8 {
        match self {
            BfpWidth::B8 => datum,
            BfpWidth::B4 => datum << 4,
            BfpWidth::B2 => datum << 6,
        }
    }
}

/// `BFP8ToBF16` (FloatBitPatterns.md "Conversion routines"): one BFP8 datum and its shared
/// exponent → IEEE BF16, normalising the magnitude. Sign with zero magnitude gives `0xff80`.
pub fn bfp8_to_bf16(datum: u8, exp: u8) -> u16 {
    let sign = (datum >> 7) as u16;
    let mag = datum << 1;
    if mag == 0 {
        return if sign != 0 { 0xff80 } else { 0 };
    }
    let lz = mag.leading_zeros();
    let mag = mag << lz;
    let e = exp.wrapping_sub(lz as u8);
    (sign << 15) | ((e as u16) << 7) | (mag & 0x7e) as u16
}

/// `BFP8aToFP16`: one BFP8a datum and its shared 5-bit exponent → IEEE-layout FP16. `None`
/// when the normalised exponent leaves 5 bits (the page's `UndefinedBehaviour()`).
pub fn bfp8a_to_fp16(datum: u8, exp: u8) -> Option<u16> {
    let sign = (datum >> 7) as u16;
    let mag = datum << 1;
    if mag == 0 {
        return Some(if sign != 0 { 0xfc00 } else { 0 });
    }
    let lz = mag.leading_zeros();
    let mag = mag << lz;
    let e = exp.wrapping_sub(lz as u8);
    if e & 0xe0 != 0 {
        return None;
    }
    Some((sign << 15) | ((e as u16) << 10) | (((mag & 0x7e) as u16) << 3))
}

/// Packs 16 IEEE BF16 values into one BFP block (the packers' late conversion "To BFP8":
/// round to BFP8 with one shared exponent, then truncate to BFP4 / BFP2). Returns the shared
/// exponent and each datum in the low `width.bits()` bits.
///
/// Rules (Packers/FormatConversion.md, with the open cases restated in
/// docs/tensix-formats.md): the shared exponent is the largest exponent of the block; the
/// 8-bit significand `1.mmmmmmm` is shifted right to the shared exponent keeping 6 fraction
/// bits, rounding to nearest with ties away from zero; a datum with exponent 0 has no implied
/// one (`0.mmmmmmm`, shifted by the full shared exponent); a rounding carry out of 7 bits
/// saturates at 127; BFP4/BFP2 keep the top 3 / 1 bits of that magnitude; a zero magnitude
/// never carries a sign (sign + zero magnitude means -2^128 in BFP).
pub fn bf16_block_to_bfp(vals: &[u16; 16], width: BfpWidth) -> (u8, [u8; 16]) {
    let exps = vals.map(|v| ((v >> 7) & 0xff) as u8);
    let mans = vals.map(|v| (v & 0x7f) as u8);
    let signs = vals.map(|v| v & 0x8000 != 0);
    block_to_bfp(&exps, &mans, &signs, width)
}

/// Packs 16 IEEE-layout FP16 values into one BFP*a block (the late conversion "To BFP8a":
/// truncate to E5M7, then round to BFP8a with one shared 5-bit exponent; BFP4a/BFP2a
/// truncate that). Same rules as [`bf16_block_to_bfp`]; the exponent byte holds the 5-bit
/// exponent zero-extended.
pub fn fp16_block_to_bfpa(vals: &[u16; 16], width: BfpWidth) -> (u8, [u8; 16]) {
    let exps = vals.map(|v| ((v >> 10) & 0x1f) as u8);
    let mans = vals.map(|v| ((v >> 3) & 0x7f) as u8);
    let signs = vals.map(|v| v & 0x8000 != 0);
    block_to_bfp(&exps, &mans, &signs, width)
}

/// The shared-exponent rounding both BFP families use, on (exponent, 7-bit mantissa, sign).
/// The early conversions flush exponent-0 datums to zero, but a ReLU clamp to a threshold
/// whose exponent field is 0 brings one back after them: its mantissa then goes through the
/// same shift without the implied one, as the block logic has no case for it
/// (docs/tensix-formats.md "BFP packing", confirmed against the reference simulator in
/// docs/datapath-reference.md).
fn block_to_bfp(
    exps: &[u8; 16],
    mans: &[u8; 16],
    signs: &[bool; 16],
    width: BfpWidth,
) -> (u8, [u8; 16]) {
    let shared = exps.iter().copied().max().unwrap_or(0);
    let mut out = [0u8; 16];
    for i in 0..16 {
        let e = exps[i];
        let hidden = if e == 0 { 0 } else { 0x80 };
        let mant = hidden | mans[i] as u32;
        let shift = 1 + (shared - e) as u32;
        let mag7 = if shift >= 32 {
            0
        } else {
            ((mant + (1 << (shift - 1))) >> shift).min(127)
        };
        let mag = match width {
            BfpWidth::B8 => mag7,
            BfpWidth::B4 => mag7 >> 4,
            BfpWidth::B2 => mag7 >> 6,
        };
        if mag != 0 {
            let sign = (signs[i] as u32) << (width.bits() - 1);
            out[i] = (sign | mag) as u8;
        }
    }
    (shared, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Independent reference: the real value of a BFP8 datum (FloatBitPatterns.md table:
    // Mag/2^6 * 2^(Exp-127)) and of a BF16 (truncated FP32).
    fn bfp8_value(datum: u8, exp: u8) -> f64 {
        let mag = (datum & 0x7f) as f64;
        let v = mag / 64.0 * 2f64.powi(exp as i32 - 127);
        if datum & 0x80 != 0 {
            -v
        } else {
            v
        }
    }
    fn bf16_value(b: u16) -> f64 {
        f32::from_bits((b as u32) << 16) as f64
    }

    #[test]
    fn bfp8_to_bf16_is_lossless_for_every_datum_at_normal_exponents() {
        for exp in 7u8..=254 {
            for d in 0..=255u8 {
                let b = bfp8_to_bf16(d, exp);
                if d == 0x80 {
                    assert_eq!(b, 0xff80, "sign with zero magnitude");
                    continue;
                }
                assert_eq!(
                    bf16_value(b),
                    bfp8_value(d, exp),
                    "datum {d:#04x} exp {exp}"
                );
            }
        }
    }

    #[test]
    fn bfp4_and_bfp2_widen_to_bfp8_positions() {
        // BFP4 0b0_101 (5/4) at exp 127 = 1.25; BFP2 0b11 = -1 at exp 127.
        assert_eq!(
            bf16_value(bfp8_to_bf16(BfpWidth::B4.widen_to_8(0b0101), 127)),
            1.25
        );
        assert_eq!(
            bf16_value(bfp8_to_bf16(BfpWidth::B2.widen_to_8(0b11), 127)),
            -1.0
        );
        assert_eq!(bfp8_to_bf16(BfpWidth::B2.widen_to_8(0b10), 127), 0xff80);
    }

    #[test]
    fn bfp8a_exponent_outside_5_bits_is_undefined() {
        // Mag 1 needs LZ=6: exp 3 - 6 wraps past zero.
        assert_eq!(bfp8a_to_fp16(0x01, 3), None);
        // 0x40 (Mag 64 -> 1.0) at exp 15 = 1.0 in FP16 = 0x3c00.
        assert_eq!(bfp8a_to_fp16(0x40, 15), Some(0x3c00));
        assert_eq!(bfp8a_to_fp16(0x80, 15), Some(0xfc00));
        assert_eq!(bfp8a_to_fp16(0x00, 31), Some(0));
    }

    #[test]
    fn bfp8_block_shares_the_largest_exponent() {
        let mut vals = [0u16; 16];
        vals[0] = 0x4040; // 3.0
        vals[1] = 0x3f80; // 1.0
        vals[2] = 0xbf00; // -0.5
        vals[3] = 0x3e00; // 0.125
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 128);
        for i in 0..4 {
            assert_eq!(bfp8_value(d[i], e), bf16_value(vals[i]), "datum {i}");
        }
        assert!(d[4..].iter().all(|&x| x == 0));
    }

    #[test]
    fn bfp8_block_rounds_to_nearest_ties_away_from_zero() {
        let mut vals = [0u16; 16];
        vals[0] = 0x4000; // 2.0 sets the exponent (128): quantum 2^-6 * 2 = 1/32
        vals[1] = 0x3c04; // 2^-7 * (1 + 4/128) = 0.0080566..: 0.2578 quanta -> 0
        vals[2] = 0x3c80; // 2^-6 = 0.5 quanta exactly -> ties away -> 1
        vals[3] = 0xbc80; // -2^-6 -> -1 quantum
        vals[4] = 0x3fff; // 1.9921875 = 63.75 quanta -> 64
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 128);
        assert_eq!(d[1], 0);
        assert_eq!(d[2], 1);
        assert_eq!(d[3], 0x81);
        assert_eq!(d[4], 64);
    }

    #[test]
    fn bfp8_block_rounding_carry_saturates_at_127() {
        let mut vals = [0u16; 16];
        vals[0] = 0x3fff; // 1.9921875: significand 0xff, shift 1 -> 128 -> saturates
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 127);
        assert_eq!(d[0], 127);
    }

    #[test]
    fn bfp_block_zero_packs_as_unsigned_zero() {
        let mut vals = [0u16; 16];
        vals[0] = 0x8000; // -0
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 0);
        assert_eq!(d, [0; 16]);
        // A value far below the shared exponent also becomes +0, not -0.
        vals[3] = 0x4f00;
        vals[4] = 0xbf80;
        let (_, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(d[4], 0);
    }

    #[test]
    fn bfp_block_exponent_zero_datum_shifts_without_the_implied_one() {
        // Exponent field 0: the magnitude is 0.mmmmmmm (no implied one), shifted right by
        // 1 + shared - 0 with ties away from zero, like every other datum.
        let mut vals = [0u16; 16];
        vals[0] = 0x0013; // 0.0010011: shared exponent 0, shift 1: (19 + 1) / 2 = 10
        vals[1] = 0x8013; // the same with its sign
        vals[2] = 0x0001; // (1 + 1) / 2 = 1
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 0);
        assert_eq!(&d[..4], &[10, 0x8a, 1, 0]);
        // Under shared exponent 3 (1.0 * 2^-124): shift 4: (127 + 8) / 16 = 8; 1 -> (1 + 8) / 16 = 0.
        vals[3] = 0x0180;
        vals[0] = 0x007f;
        vals[1] = 0x807f;
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 3);
        assert_eq!(&d[..4], &[8, 0x88, 0, 64]);
        // BFP4 keeps the top 3 bits of the 7-bit magnitude: 8 -> 0, which carries no sign.
        let (_, d) = bf16_block_to_bfp(&vals, BfpWidth::B4);
        assert_eq!(&d[..4], &[0, 0, 0, 4]);
    }

    #[test]
    fn bfp8_block_keeps_datums_up_to_7_exponents_below_the_shared_one() {
        // Shared exponent 127 (1.0): quantum 2^-6. 2^-7 is half a quantum (a tie: away from
        // zero, magnitude 1); 2^-8 is a quarter (0); 1.5 * 2^-7 is 0.75 quanta (1).
        let mut vals = [0u16; 16];
        vals[0] = 0x3f80; // 1.0
        vals[1] = 0x3c00; // 2^-7
        vals[2] = 0xbc00; // -2^-7
        vals[3] = 0x3b80; // 2^-8
        vals[4] = 0x3c40; // 1.5 * 2^-7
        vals[5] = 0x0080; // smallest normal: far below
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 127);
        assert_eq!(&d[..6], &[64, 1, 0x81, 0, 1, 0]);
    }

    #[test]
    fn bfp8_block_with_infinity_or_nan_shares_exponent_255() {
        // The largest exponent wins even when it is 255 (Inf/NaN in BF16); the BFP datum
        // keeps the significand like any other, so 1.mmmmmmm at exponent 255 reads back as
        // Mag/2^6 * 2^128 (FloatBitPatterns.md: the BFP8 table has no Inf/NaN encoding).
        let mut vals = [0u16; 16];
        vals[0] = 0x7f80; // +Inf
        vals[1] = 0xffc0; // -NaN (quiet)
        vals[2] = 0x7f00; // 2^127: one exponent below
        vals[3] = 0x3f80; // 1.0: 128 exponents below
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 255);
        assert_eq!(d[0], 64, "Inf: significand 1.0");
        assert_eq!(d[1], 0x80 | 96, "-NaN: significand 1.5, sign kept");
        assert_eq!(d[2], 32, "2^127 = 32 quanta of 2^122");
        assert_eq!(d[3], 0);
        assert_eq!(bfp8_value(d[2], e), bf16_value(vals[2]));
    }

    #[test]
    fn bfp8_block_at_the_largest_finite_exponent_saturates_not_overflows() {
        // 254 shared, the largest BF16 (0x7f7f: 1.9921875 * 2^127) rounds to 128 quanta and
        // saturates at 127 = 1.984375 * 2^127, still finite; its negative likewise.
        let mut vals = [0u16; 16];
        vals[0] = 0x7f7f;
        vals[1] = 0xff7f;
        let (e, d) = bf16_block_to_bfp(&vals, BfpWidth::B8);
        assert_eq!(e, 254);
        assert_eq!((d[0], d[1]), (127, 0xff));
        assert_eq!(bfp8_value(d[0], e), 1.984375 * 2f64.powi(127));
    }

    #[test]
    fn bfp8_to_bf16_exponent_below_the_leading_zeros_wraps_as_a_uint8() {
        // BFP8ToBF16 subtracts the leading-zero count from a uint8_t exponent: at exponent 3,
        // magnitude 1 (LZ 6) gives exponent 3 - 6 = 253 (mod 256), not a denormal.
        assert_eq!(bfp8_to_bf16(0x01, 3), (253 << 7) as u16);
        // Magnitude 64 has LZ 0: exponent 0 stays 0 and the result is +0 (mantissa 0).
        assert_eq!(bfp8_to_bf16(0x40, 0), 0);
        assert_eq!(bfp8_to_bf16(0xc0, 0), 0x8000);
        // Magnitude 127 at exponent 1: LZ 0, mantissa bits 0x7e.
        assert_eq!(bfp8_to_bf16(0x7f, 1), (1 << 7) | 0x7e);
    }

    #[test]
    fn bfp8a_block_shares_the_largest_5_bit_exponent() {
        // FP16 1.5 (0x3e00), -0.25 (0xb400), 3.0 (0x4200): shared exponent 16.
        let mut vals = [0u16; 16];
        vals[0] = 0x3e00;
        vals[1] = 0xb400;
        vals[2] = 0x4200;
        let (e, d) = fp16_block_to_bfpa(&vals, BfpWidth::B8);
        assert_eq!(e, 16);
        // BFP8a meaning: Mag/2^6 * 2^(Exp-15) -> quantum 2^-5 at exponent 16.
        assert_eq!(d[0], 48); // 1.5 / 2^-5
        assert_eq!(d[1], 0x80 | 8); // -0.25
        assert_eq!(d[2], 96); // 3.0
                              // And back through the unpacker's BFP8aToFP16.
        assert_eq!(bfp8a_to_fp16(d[0], e), Some(0x3e00));
        assert_eq!(bfp8a_to_fp16(d[1], e), Some(0xb400));
    }

    #[test]
    fn bfp4_and_bfp2_truncate_the_bfp8_magnitude() {
        let mut vals = [0u16; 16];
        vals[0] = 0x3fe0; // 1.75 -> BFP8 mag 112 = 0b1110000
        vals[1] = 0xbf00; // -0.5 -> mag 32 = 0b0100000
        let (_, d4) = bf16_block_to_bfp(&vals, BfpWidth::B4);
        assert_eq!(d4[0], 0b0111);
        assert_eq!(d4[1], 0b1010);
        let (_, d2) = bf16_block_to_bfp(&vals, BfpWidth::B2);
        assert_eq!(d2[0], 0b01);
        assert_eq!(
            d2[1], 0b00,
            "0.5 truncates to magnitude 0 and loses its sign"
        );
    }
}
