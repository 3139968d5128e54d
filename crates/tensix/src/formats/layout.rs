//! Bit layouts: where sign, exponent and mantissa sit in L1 (IEEE-like), in `SrcA`/`SrcB`
//! (19 bits: Sign(1) Man(10) Exp(8), narrower types overlaid) and in `Dst`
//! (16 bits: Sign Man Exp; 32 bits: Sign ManHi(7) Exp(8) ManLo(16)). Every function here is
//! a pure rearrangement named after the documentation's own helper.

/// `WriteDstBF16` (UNPACR_Regular.md): IEEE BF16 → `Dst16b` BF16 (Sign, Man(7), Exp(8)).
pub fn write_dst_bf16(x: u16) -> u16 {
    let sign = x & 0x8000;
    let exp = x & 0x7f80;
    let man = x & 0x007f;
    sign | (man << 8) | (exp >> 7)
}

/// Inverse of [`write_dst_bf16`]: `Dst16b` BF16 → IEEE BF16 (Dst.md `Load16`, fmt 3).
pub fn read_dst_bf16(v: u16) -> u16 {
    (v & 0x8000) | ((v & 0x7f00) >> 8) | ((v & 0x00ff) << 7)
}

/// `WriteDstFP16`: IEEE-layout FP16 → `Dst16b` FP16 (Sign, Man(10), Exp(5)).
pub fn write_dst_fp16(x: u16) -> u16 {
    let sign = x & 0x8000;
    let exp = x & 0x7c00;
    let man = x & 0x03ff;
    sign | (man << 5) | (exp >> 10)
}

/// Inverse of [`write_dst_fp16`] (Dst.md `Load16`, fmt 2).
pub fn read_dst_fp16(v: u16) -> u16 {
    (v & 0x8000) | ((v & 0x7fe0) >> 5) | ((v & 0x001f) << 10)
}

/// `WriteDstFP32`: IEEE FP32 → `Dst32b` FP32 (the high half rearranged as BF16).
pub fn write_dst_fp32(x: u32) -> u32 {
    ((write_dst_bf16((x >> 16) as u16) as u32) << 16) | (x & 0xffff)
}

/// Inverse of [`write_dst_fp32`] (Dst.md `Load32` with `no_swizzle` clear).
pub fn read_dst_fp32(v: u32) -> u32 {
    ((read_dst_bf16((v >> 16) as u16) as u32) << 16) | (v & 0xffff)
}

/// `WriteSrcTF32`: the top 19 bits of an IEEE FP32 (Sign, Exp(8), Man(10)) → `Src` TF32
/// (Sign, Man(10), Exp(8)).
pub fn write_src_tf32(x: u32) -> u32 {
    let sign = x & 0x40000;
    let exp = x & 0x3fc00;
    let man = x & 0x003ff;
    sign | (man << 8) | (exp >> 10)
}

/// `WriteSrcBF16`: IEEE BF16 → `Src` (TF32 layout, low 3 mantissa bits zero).
pub fn write_src_bf16(x: u16) -> u32 {
    write_src_tf32((x as u32) << 3)
}

/// `WriteSrcFP16`: IEEE-layout FP16 → `Src` FP16 (Sign, Man(10), 000, Exp(5)).
pub fn write_src_fp16(x: u16) -> u32 {
    write_src_tf32((((x as u32) & 0x8000) << 3) | ((x as u32) & 0x7fff))
}

/// `Src` TF32 → the top 19 bits of IEEE FP32 (inverse of [`write_src_tf32`]).
pub fn read_src_tf32(s: u32) -> u32 {
    (s & 0x40000) | ((s & 0xff) << 10) | ((s >> 8) & 0x3ff)
}

/// `Src` BF16 → IEEE BF16 (drops the low 3 mantissa bits of TF32).
pub fn read_src_bf16(s: u32) -> u16 {
    (read_src_tf32(s) >> 3) as u16
}

/// `Src` FP16 → IEEE-layout FP16 (drops the high 3 exponent bits).
pub fn read_src_fp16(s: u32) -> u16 {
    let t = read_src_tf32(s);
    (((t >> 3) & 0x8000) | (t & 0x7fff)) as u16
}

/// INT16 (opaque) → `Src` (UNPACR_Regular.md `FormatConversion`, INT16 to Src).
pub fn write_src_int16(x: u16) -> u32 {
    (((x as u32) & 0xff00) << 3) | ((x as u32) & 0xff)
}

/// Inverse of [`write_src_int16`].
pub fn read_src_int16(s: u32) -> u16 {
    (((s >> 3) & 0xff00) | (s & 0xff)) as u16
}

/// INT8 or UINT8 in L1 → "Integer 8" overlaid on IEEE-layout FP16 (UNPACR_Regular.md
/// `FormatConversion`, case INT8): magnitude in the mantissa, raw exponent 16 unless the
/// magnitude is zero, sign from bit 7 unless `unsigned`.
pub fn int8_to_fp16_overlay(b: u8, unsigned: bool) -> u16 {
    let mut d = b as u16;
    let sign = if unsigned { 0 } else { d & 0x80 };
    d -= sign;
    if d != 0 {
        d |= 16 << 10;
    }
    d | (sign << 8)
}

/// `RemoveLowMantissa` (MOVA2D.md): `Src` BF16/TF32 → `Dst16b` BF16.
pub fn remove_low_mantissa(x: u32) -> u16 {
    let sign = x & (1 << 18);
    let man_hi = x & (0x7f << 11);
    let exp = x & 0xff;
    ((sign >> 3) | (man_hi >> 3) | exp) as u16
}

/// `RemoveHighExponent` (MOVA2D.md): `Src` FP16 → `Dst16b` FP16.
pub fn remove_high_exponent(x: u32) -> u16 {
    let sign = x & (1 << 18);
    let man = x & (0x3ff << 8);
    let exp_lo = x & 0x1f;
    ((sign >> 3) | (man >> 3) | exp_lo) as u16
}

/// `ShuffleBF16` (MOVD2A.md): `Dst16b` BF16 → `Src` BF16.
pub fn shuffle_bf16(x: u16) -> u32 {
    (((x as u32) & 0xff00) << 3) | ((x as u32) & 0xff)
}

/// `ShuffleFP16` (MOVD2A.md): `Dst16b` FP16 → `Src` FP16.
pub fn shuffle_fp16(x: u16) -> u32 {
    (((x as u32) & 0xffe0) << 3) | ((x as u32) & 0x1f)
}

/// `ShuffleTF32` (MOVD2A.md): the top 19 bits of a `Dst32b` FP32 (Sign, ManHi(7), Exp(8),
/// LoMan(3)) → `Src` TF32. The page masks Sign+ManHi with `0x3fc000`, which selects bits
/// outside a 19-bit input; its own comment (Sign and HiMan are the top 8 of the 19 bits) gives
/// `0x7f800`, used here (restated in docs/tensix-formats.md).
pub fn shuffle_tf32(x: u32) -> u32 {
    let sign_hi_man = x & 0x7f800;
    let exp = x & 0x0007f8;
    let lo_man = x & 0x000007;
    sign_hi_man | (lo_man << 8) | (exp >> 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference written from the pages' layout diagrams: field positions only.
    fn fields_bf16(x: u16) -> (u32, u32, u32) {
        (
            (x >> 15) as u32,
            ((x >> 7) & 0xff) as u32,
            (x & 0x7f) as u32,
        )
    }
    fn fields_fp16(x: u16) -> (u32, u32, u32) {
        (
            (x >> 15) as u32,
            ((x >> 10) & 0x1f) as u32,
            (x & 0x3ff) as u32,
        )
    }

    #[test]
    fn every_bf16_pattern_round_trips_through_src_and_dst() {
        for x in 0..=u16::MAX {
            let (s, e, m) = fields_bf16(x);
            let src = write_src_bf16(x);
            // Src BF16: Sign bit 18, Man bits 17..11, zeros 10..8, Exp 7..0 (SrcASrcB.md).
            assert_eq!(src, (s << 18) | (m << 11) | e, "{x:#06x}");
            assert_eq!(read_src_bf16(src), x);
            let dst = write_dst_bf16(x);
            // Dst16b BF16: Sign 15, Man 14..8, Exp 7..0 (Dst.md).
            assert_eq!(dst as u32, (s << 15) | (m << 8) | e, "{x:#06x}");
            assert_eq!(read_dst_bf16(dst), x);
            // MOVA2D then MOVD2A carry the same value between Src and Dst.
            assert_eq!(remove_low_mantissa(src), dst);
            assert_eq!(shuffle_bf16(dst), src);
        }
    }

    #[test]
    fn every_fp16_pattern_round_trips_through_src_and_dst() {
        for x in 0..=u16::MAX {
            let (s, e, m) = fields_fp16(x);
            let src = write_src_fp16(x);
            // Src FP16: Sign 18, Man 17..8, zeros 7..5, Exp 4..0.
            assert_eq!(src, (s << 18) | (m << 8) | e, "{x:#06x}");
            assert_eq!(read_src_fp16(src), x);
            let dst = write_dst_fp16(x);
            // Dst16b FP16: Sign 15, Man 14..5, Exp 4..0.
            assert_eq!(dst as u32, (s << 15) | (m << 5) | e, "{x:#06x}");
            assert_eq!(read_dst_fp16(dst), x);
            assert_eq!(remove_high_exponent(src), dst);
            assert_eq!(shuffle_fp16(dst), src);
        }
    }

    #[test]
    fn every_int16_pattern_round_trips_through_src() {
        for x in 0..=u16::MAX {
            let src = write_src_int16(x);
            // Src INT16: Sign 18, Magnitude high 17..11, zeros 10..8, low 7..0.
            let expect =
                (((x >> 15) as u32) << 18) | ((((x >> 8) & 0x7f) as u32) << 11) | (x & 0xff) as u32;
            assert_eq!(src, expect);
            assert_eq!(read_src_int16(src), x);
        }
    }

    #[test]
    fn fp32_dst_layout_keeps_the_value_and_tf32_shuffle_recovers_its_top_bits() {
        for &f in &[1.0f32, -2.5, 2.7182817, 1e-30, -6.5e37, 0.0, -0.0] {
            let x = f.to_bits();
            let d = write_dst_fp32(x);
            // Dst32b FP32: Sign 31, ManHi 30..24, Exp 23..16, ManLo 15..0.
            let expect = (x & 0x8000_0000)
                | (((x >> 16) & 0x7f) << 24)
                | (((x >> 23) & 0xff) << 16)
                | (x & 0xffff);
            assert_eq!(d, expect);
            assert_eq!(read_dst_fp32(d), x);
            // MOVD2A from Dst32b as TF32: the 10-bit mantissa truncation of the value.
            let src = shuffle_tf32(d >> 13);
            assert_eq!(read_src_tf32(src), x >> 13, "{f}");
        }
    }

    #[test]
    fn int8_overlay_uses_exponent_16_or_0() {
        assert_eq!(int8_to_fp16_overlay(0, false), 0);
        assert_eq!(int8_to_fp16_overlay(0x80, false), 0x8000);
        assert_eq!(int8_to_fp16_overlay(0x05, false), (16 << 10) | 5);
        assert_eq!(int8_to_fp16_overlay(0x85, false), 0x8000 | (16 << 10) | 5);
        assert_eq!(int8_to_fp16_overlay(0x85, true), (16 << 10) | 0x85);
        assert_eq!(int8_to_fp16_overlay(0xff, true), (16 << 10) | 0xff);
    }
}
