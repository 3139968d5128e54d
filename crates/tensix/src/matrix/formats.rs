//! How the Matrix Unit reads and writes the bit layouts of `SrcA`/`SrcB` (19-bit datums) and
//! `Dst` (16-bit and 32-bit views): the `ReadBF16`, `ReadFP16`, `ReadTF32`, `ReadSrcInt8`,
//! `ReadDst*`, `RoundTo*` and `WriteDst*` helpers the functional models of
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ELWMUL.md` and `MVMUL.md`
//! name. Layouts: `SrcASrcB.md`, `BlackholeA0/TensixTile/TensixCoprocessor/Dst.md`, and the
//! comments of `GMPOOL.md`'s `ReadAndScaleSrc`/`ReadDst`; value interpretations:
//! `FloatBitPatterns.md` (exponent 0 is zero, exponent 255 / FP16 exponent 31 are finite).
//! Real values are the [`super::arith`] model's `f64`s.
//!
//! Src layouts (bit 18 is the sign in all): TF32 and BF16 `Sign,Man(10b),Exp(8b)` (BF16 has the
//! low three mantissa bits zero or ignored); FP16 `Sign,Man(10b),Zero(3b),Exp(5b)`; integer "8"
//! `Sign,Mag(10b),Zero(3b),Exp(5b)`.
//!
//! Dst layouts: BF16 `Sign,Man(7b),Exp(8b)`; FP16 `Sign,Man(10b),Exp(5b)`; FP32
//! `Sign,ManHi(7b),Exp(8b),ManLo(16b)`; integer "32" `Sign,MagMid(7b),MagHi(8b),MagLo(16b)`
//! (sign-magnitude).

use super::arith::{flush, round_sig};

/// 2^128: the smallest magnitude the FPU writes as "too large" (exponent 255, mantissa 0).
const TOO_LARGE_F32: f64 = 3.402823669209385e38;
/// The largest FP16 magnitude, exponent 31 mantissa 1023 = 131008, also what the FPU writes
/// for FP16 values too large to represent.
const FP16_MAX: f64 = 131008.0;
/// 2^-14: the smallest normal FP16 magnitude.
const FP16_MIN_NORMAL: f64 = 6.103515625e-5;

fn signed(sign: u32, magnitude: f64) -> f64 {
    if sign != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// `(1 + man / 2^man_bits) * 2^(exp - bias)`, or a signed zero for exponent 0 (denormals are
/// flushed).
fn from_fields(sign: u32, exp: u32, man: u32, man_bits: i32, bias: i32) -> f64 {
    if exp == 0 {
        return signed(sign, 0.0);
    }
    let significand = ((1u32 << man_bits) | man) as f64;
    signed(sign, significand * 2f64.powi(exp as i32 - bias - man_bits))
}

/// `ReadTF32`: a 19-bit Src datum as TF32.
pub fn read_src_tf32(v: u32) -> f64 {
    from_fields((v >> 18) & 1, v & 0xff, (v >> 8) & 0x3ff, 10, 127)
}

/// `ReadBF16`: as TF32 with the three least significant mantissa bits ignored (BF16 is
/// overlaid onto TF32 with those bits zero; `GMPOOL.md` masks them with `0x3f8`).
pub fn read_src_bf16(v: u32) -> f64 {
    from_fields((v >> 18) & 1, v & 0xff, (v >> 8) & 0x3f8, 10, 127)
}

/// `ReadFP16`: a 19-bit Src datum as FP16 (the three bits above the exponent are ignored).
pub fn read_src_fp16(v: u32) -> f64 {
    from_fields((v >> 18) & 1, v & 0x1f, (v >> 8) & 0x3ff, 10, 15)
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
    let v = v as u32;
    from_fields(v >> 15, v & 0xff, (v >> 8) & 0x7f, 7, 127)
}

/// `ReadDstFP16`.
pub fn read_dst_fp16(v: u16) -> f64 {
    let v = v as u32;
    from_fields(v >> 15, v & 0x1f, (v >> 5) & 0x3ff, 10, 15)
}

/// Dst32b layout to IEEE FP32 layout (the inverse of [`ieee_to_dst32`]).
pub fn dst32_to_ieee(v: u32) -> u32 {
    (v & 0x8000_ffff) | ((v & 0x7f00_0000) >> 8) | ((v & 0x00ff_0000) << 7)
}

/// IEEE FP32 layout (or sign + 31-bit magnitude) to the Dst32b layout.
pub fn ieee_to_dst32(v: u32) -> u32 {
    (v & 0x8000_ffff) | ((v & 0x7f80_0000) >> 7) | ((v & 0x007f_0000) << 8)
}

/// `ReadDstFP32`.
pub fn read_dst_fp32(v: u32) -> f64 {
    let i = dst32_to_ieee(v);
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
    ieee_to_dst32(ieee)
}

/// `RoundToBF16` then `WriteDstBF16`: round to 8 significant bits, ties to even; flush below
/// 2^-126; 2^128 or more becomes exponent 255 mantissa 0.
pub fn round_write_dst_bf16(x: f64) -> u16 {
    let r = flush(round_sig(x, 8));
    let sign: u16 = if r.is_sign_negative() { 0x8000 } else { 0 };
    if r.abs() >= TOO_LARGE_F32 {
        return sign | 0x00ff;
    }
    let i = (r as f32).to_bits();
    let exp = ((i >> 23) & 0xff) as u16;
    let man = ((i >> 16) & 0x7f) as u16;
    sign | (man << 8) | exp
}

/// `RoundToFP16` then `WriteDstFP16`: round to 11 significant bits, ties to even; flush below
/// 2^-14; beyond 131008 saturate to exponent 31 mantissa 1023 (`FloatBitPatterns.md`, FP16 ‡).
pub fn round_write_dst_fp16(x: f64) -> u16 {
    let r = round_sig(x, 11);
    let sign: u16 = if r.is_sign_negative() { 0x8000 } else { 0 };
    let a = r.abs();
    if a < FP16_MIN_NORMAL {
        return sign;
    }
    if a > FP16_MAX {
        return sign | (0x3ff << 5) | 31;
    }
    let b = a.to_bits();
    let exp = (((b >> 52) & 0x7ff) as i32 - 1023 + 15) as u16;
    let man = ((b >> 42) & 0x3ff) as u16;
    sign | (man << 5) | exp
}

/// `ReadDstInt32`: sign-magnitude integer "32" (minus zero reads as zero).
pub fn read_dst_int32(v: u32) -> i32 {
    let i = dst32_to_ieee(v);
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
    ieee_to_dst32(sign | x.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dst32_swizzle_round_trips() {
        for v in [0u32, 0x3f80_0000, 0xc123_4567, 0x7fff_ffff, 0x8000_0001] {
            assert_eq!(dst32_to_ieee(ieee_to_dst32(v)), v);
        }
        // 1.0f: exponent 127 lands in bits 23:16.
        assert_eq!(ieee_to_dst32(0x3f80_0000), 0x007f_0000);
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
        assert_eq!(dst32_to_ieee(write_dst_int32(-5)), 0x8000_0005);
        assert_eq!(read_dst_int32(ieee_to_dst32(0x8000_0000)), 0);
        assert_eq!(read_dst_int32(write_dst_int32(i32::MAX)), i32::MAX);
    }
}
