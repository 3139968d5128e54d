//! The integer side of the Matrix Unit (`docs/matrix-unit.md` "Integers"): Src data read as
//! sign and 10-bit magnitude, the fidelity phases' operand masks, and Dst's sign-magnitude
//! "integer 32" with saturating accumulation. The floating-point side is [`super::datapath`].

use crate::formats::layout;

/// `ReadSrcInt8`: sign and ten bits of magnitude; an exponent field of 0 reads as 0 (O3 applies
/// to integers too) unless `flush` is off.
pub fn read_src_int8(v: u32, flush: bool) -> i32 {
    if flush && v & 0xff == 0 {
        return 0;
    }
    let mag = ((v >> 8) & 0x3ff) as i32;
    if (v >> 18) & 1 != 0 {
        -mag
    } else {
        mag
    }
}

/// The integer "8" operand bits a fidelity phase multiplies (`ELWMUL.md`): SrcA keeps the low
/// five magnitude bits on odd phases (`0x41fff`) and the next three on even ones (`0x4e0ff`).
pub fn src_a_int8_fidelity_mask(phase: u32) -> u32 {
    if phase & 1 != 0 {
        0x4_1fff
    } else {
        0x4_e0ff
    }
}

/// SrcB keeps the low four magnitude bits on phases 2 and 3 (`0x40fff`), the high six on
/// phases 0 and 1 (`0x7f0ff`).
pub fn src_b_int8_fidelity_mask(phase: u32) -> u32 {
    if phase & 2 != 0 {
        0x4_0fff
    } else {
        0x7_f0ff
    }
}

/// `SaturateAddInt32`: the sum clamped at ±(2^31 - 1) (`ELWMUL.md`).
pub fn saturate_add_i32(a: i32, b: i32) -> i32 {
    let s = a as i64 + b as i64;
    s.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32
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
    fn int32_is_sign_magnitude() {
        assert_eq!(read_dst_int32(write_dst_int32(-5)), -5);
        assert_eq!(write_dst_int32(-5), 0x8000_0005);
        assert_eq!(read_dst_int32(0x8000_0000), 0);
        assert_eq!(read_dst_int32(write_dst_int32(i32::MAX)), i32::MAX);
    }

    #[test]
    fn int8_with_exponent_zero_reads_as_zero() {
        // Magnitude 5, negative, exponent 16 (the unpacker's overlay) and exponent 0.
        assert_eq!(read_src_int8((1 << 18) | (5 << 8) | 16, true), -5);
        assert_eq!(read_src_int8((1 << 18) | (5 << 8), true), 0);
        assert_eq!(read_src_int8((1 << 18) | (5 << 8), false), -5);
    }

    #[test]
    fn saturation_is_symmetric() {
        assert_eq!(saturate_add_i32(i32::MAX, 1), i32::MAX);
        assert_eq!(saturate_add_i32(-i32::MAX, -5), -i32::MAX);
    }
}
