//! How the Matrix Unit reads and writes values in `SrcA`/`SrcB` (19-bit datums) and `Dst`
//! (16-bit and 32-bit views): the `ReadBF16`, `ReadFP16`, `ReadTF32`, `ReadSrcInt8`,
//! `ReadDst*`, `RoundTo*` and `WriteDst*` helpers the functional models of
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ELWMUL.md` and `MVMUL.md`
//! name but do not spell out. The bit rearrangements are [`crate::formats::layout`]'s; this
//! file adds what the values mean to the Matrix Unit (`FloatBitPatterns.md`): exponent 0 is a
//! (signed) zero whatever the mantissa, exponent 255 (FP16: 31) is an ordinary finite value,
//! and results too large to represent become exponent 255 with mantissa 0 (FP16: exponent 31,
//! mantissa 1023). Values are the [`super::arith`] model's `f64`s.

use super::arith::{flush, round_sig};
use crate::formats::layout;

/// 2^128: the smallest magnitude the FPU writes as "too large" (exponent 255, mantissa 0).
const TOO_LARGE_F32: f64 = 3.402823669209385e38;
/// The largest FP16 magnitude, exponent 31 mantissa 1023 = 131008, also what the FPU writes
/// for FP16 values too large to represent.
const FP16_MAX: f64 = 131008.0;
/// 2^-14: the smallest normal FP16 magnitude.
const FP16_MIN_NORMAL: f64 = 6.103515625e-5;

/// `(1 + man / 2^man_bits) * 2^(exp - bias)`, or a signed zero for exponent 0 (denormals are
/// flushed). Built directly as `f64` bits: every such value is a normal `f64`.
fn from_fields(sign: u32, exp: u32, man: u32, man_bits: i32, bias: i32) -> f64 {
    let sign_bit = (sign as u64) << 63;
    if exp == 0 {
        return f64::from_bits(sign_bit);
    }
    let e = (exp as i32 - bias + 1023) as u64;
    f64::from_bits(sign_bit | (e << 52) | ((man as u64) << (52 - man_bits)))
}

/// An IEEE-layout BF16 / FP16 bit pattern's value, the Matrix Unit's way.
fn bf16_value(x: u16) -> f64 {
    let x = x as u32;
    from_fields(x >> 15, (x >> 7) & 0xff, x & 0x7f, 7, 127)
}

fn fp16_value(x: u16) -> f64 {
    let x = x as u32;
    from_fields(x >> 15, (x >> 10) & 0x1f, x & 0x3ff, 10, 15)
}

/// `ReadTF32`: a 19-bit Src datum as TF32.
pub fn read_src_tf32(v: u32) -> f64 {
    let i = layout::read_src_tf32(v);
    from_fields(i >> 18, (i >> 10) & 0xff, i & 0x3ff, 10, 127)
}

/// `ReadBF16`: as TF32 with the three least significant mantissa bits ignored (BF16 is
/// overlaid onto TF32 with those bits zero; `GMPOOL.md` masks them with `0x3f8`).
pub fn read_src_bf16(v: u32) -> f64 {
    bf16_value(layout::read_src_bf16(v))
}

/// `ReadFP16`: a 19-bit Src datum as FP16 (the three bits above the exponent are ignored).
pub fn read_src_fp16(v: u32) -> f64 {
    fp16_value(layout::read_src_fp16(v))
}

/// `ReadSrcInt8`: sign and ten bits of magnitude.
pub fn read_src_int8(v: u32) -> i32 {
    let mag = ((v >> 8) & 0x3ff) as i32;
    if (v >> 18) & 1 != 0 {
        -mag
    } else {
        mag
    }
}

/// `ReadDstBF16`.
pub fn read_dst_bf16(v: u16) -> f64 {
    bf16_value(layout::read_dst_bf16(v))
}

/// `ReadDstFP16`.
pub fn read_dst_fp16(v: u16) -> f64 {
    fp16_value(layout::read_dst_fp16(v))
}

/// `ReadDstFP32`.
pub fn read_dst_fp32(v: u32) -> f64 {
    let i = layout::read_dst_fp32(v);
    from_fields(i >> 31, (i >> 23) & 0xff, i & 0x7f_ffff, 23, 127)
}

/// `WriteDstFP32` of a model value (already FP32 precision and flushed): magnitudes of 2^128 or
/// more become exponent 255 with mantissa 0, the FPU's "too large" pattern.
pub fn write_dst_fp32(x: f64) -> u32 {
    let sign = if x.is_sign_negative() { 0x8000_0000 } else { 0 };
    let ieee = if x.abs() >= TOO_LARGE_F32 {
        sign | 0x7f80_0000
    } else {
        (x as f32).to_bits()
    };
    layout::write_dst_fp32(ieee)
}

/// `RoundToBF16` then `WriteDstBF16`: round to 8 significant bits, ties to even; flush below
/// 2^-126; 2^128 or more becomes exponent 255 mantissa 0.
pub fn round_write_dst_bf16(x: f64) -> u16 {
    let r = flush(round_sig(x, 8));
    let sign: u16 = if r.is_sign_negative() { 0x8000 } else { 0 };
    let ieee = if r.abs() >= TOO_LARGE_F32 {
        sign | 0x7f80
    } else {
        ((r as f32).to_bits() >> 16) as u16
    };
    layout::write_dst_bf16(ieee)
}

/// `RoundToFP16` then `WriteDstFP16`: round to 11 significant bits, ties to even; flush below
/// 2^-14; beyond 131008 saturate to exponent 31 mantissa 1023 (`FloatBitPatterns.md`, FP16 ‡).
pub fn round_write_dst_fp16(x: f64) -> u16 {
    let r = round_sig(x, 11);
    let sign: u16 = if r.is_sign_negative() { 0x8000 } else { 0 };
    let a = r.abs();
    let ieee = if a < FP16_MIN_NORMAL {
        sign
    } else if a > FP16_MAX {
        sign | 0x7fff
    } else {
        let b = a.to_bits();
        let exp = (((b >> 52) & 0x7ff) as i32 - 1023 + 15) as u16;
        let man = ((b >> 42) & 0x3ff) as u16;
        sign | (exp << 10) | man
    };
    layout::write_dst_fp16(ieee)
}

/// `ReadDstInt32`: sign-magnitude integer "32", stored with FP32's rearrangement (minus zero
/// reads as zero).
pub fn read_dst_int32(v: u32) -> i32 {
    let i = layout::read_dst_fp32(v);
    let mag = (i & 0x7fff_ffff) as i32;
    if i >> 31 != 0 {
        -mag
    } else {
        mag
    }
}

/// `WriteDstInt32`: `x` must lie within ±(2^31 - 1), which `SaturateAddInt32` guarantees.
pub fn write_dst_int32(x: i32) -> u32 {
    let sign = if x < 0 { 0x8000_0000 } else { 0 };
    layout::write_dst_fp32(sign | x.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp32_one_has_its_exponent_in_bits_23_to_16() {
        assert_eq!(write_dst_fp32(1.0), 0x007f_0000);
        assert_eq!(read_dst_fp32(0x007f_0000), 1.0);
    }

    #[test]
    fn src_exponent_zero_reads_as_signed_zero() {
        assert_eq!(
            read_src_tf32(0x4_0000 | (5 << 8)).to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(read_src_fp16(0x3ff << 8).to_bits(), 0);
    }

    #[test]
    fn src_exponent_255_is_finite() {
        assert_eq!(read_src_tf32(0xff), 2f64.powi(128));
        assert_eq!(read_src_fp16(0x1f | (0x3ff << 8)), FP16_MAX);
    }

    #[test]
    fn bf16_ignores_low_three_mantissa_bits() {
        let v = 127 | (0x7 << 8);
        assert_eq!(read_src_bf16(v), 1.0);
        assert_eq!(read_src_tf32(v), 1.0 + 7.0 / 1024.0);
    }

    #[test]
    fn bf16_rounding_ties_to_even_and_overflows_to_exponent_255() {
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
        assert_eq!(round_write_dst_bf16(1.0 + 2f64.powi(-8)), 127);
        assert_eq!(
            round_write_dst_bf16(1.0 + 3.0 * 2f64.powi(-8)),
            (2 << 8) | 127
        );
        assert_eq!(round_write_dst_bf16(-(2f64.powi(128))), 0x80ff);
        assert_eq!(
            round_write_dst_bf16(2f64.powi(128) * (1.0 - 2f64.powi(-9))),
            0x00ff
        );
        assert_eq!(round_write_dst_bf16(-1e-39), 0x8000);
    }

    #[test]
    fn fp16_saturates_and_flushes() {
        assert_eq!(round_write_dst_fp16(1e9), (0x3ff << 5) | 31);
        assert_eq!(round_write_dst_fp16(-1e9), 0x8000 | (0x3ff << 5) | 31);
        assert_eq!(round_write_dst_fp16(1.0), 15);
        assert_eq!(round_write_dst_fp16(-3e-5), 0x8000);
        assert_eq!(read_dst_fp16(round_write_dst_fp16(65504.0)), 65504.0);
    }

    #[test]
    fn int32_is_sign_magnitude() {
        assert_eq!(read_dst_int32(write_dst_int32(-5)), -5);
        assert_eq!(write_dst_int32(-5), 0x8000_0005);
        assert_eq!(read_dst_int32(0x8000_0000), 0);
        assert_eq!(read_dst_int32(write_dst_int32(i32::MAX)), i32::MAX);
    }
}
