//! The packer's L1 accumulation (`Pack_L1_Acc`): instead of overwriting L1, a PACR adds each
//! converted datum to the one already in L1 and writes the sum. Blackhole adds FP32, BF16 and
//! FP16 outputs, each with its own treatment of denormals, NaN and overflow; the rules below
//! are restated in `docs/tensix-datapath.md` ("Packer L1 accumulation") and were confirmed
//! against Tenstorrent's reference simulator. Every function is on raw bits: `l1` is the datum
//! found in L1, `new` the datum the packer produced.

/// FP32: both operands' denormals read as zeros of their sign, the sum is the IEEE
/// round-to-nearest-even single-precision sum, any NaN becomes `0x7fc00000`, and a denormal
/// sum becomes a zero of its sign.
pub fn acc_fp32(l1: u32, new: u32) -> u32 {
    let sum = (f32::from_bits(daz32(l1)) + f32::from_bits(daz32(new))).to_bits();
    if sum & 0x7fff_ffff > 0x7f80_0000 {
        0x7fc0_0000
    } else {
        daz32(sum)
    }
}

/// BF16: infinity plus infinity of the other sign is `0x7fc0`; denormals read as zeros of their
/// sign; a NaN in L1 reads as the largest finite magnitude there is (of its sign), a NaN from
/// the packer as a finite number with exponent 255 and its mantissa. The exact sum is rounded
/// to nearest even at BF16's precision; an exponent of 0 or below gives a zero of the sign,
/// 255 or above an infinity of the sign.
pub fn acc_bf16(l1: u16, new: u16) -> u16 {
    if (l1 == 0x7f80 && new == 0xff80) || (l1 == 0xff80 && new == 0x7f80) {
        return 0x7fc0;
    }
    let a = bf16_operand(daz16(l1), true);
    let b = bf16_operand(daz16(new), false);
    let sum = a + b;
    let bits = sum.to_bits();
    let sign = ((bits >> 63) as u16) << 15;
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023 + 127;
    if e <= 0 {
        return sign;
    }
    if e >= 255 {
        return sign | 0x7f80;
    }
    // Keep 7 of the 52 mantissa bits, nearest even.
    let m = bits & ((1u64 << 52) - 1);
    let shift = 52 - 7;
    let half = 1u64 << (shift - 1);
    let odd = (m >> shift) & 1;
    let rounded = (m + half - 1 + odd) >> shift;
    sign | ((e as u64) << 7).wrapping_add(rounded) as u16
}

/// FP16 (Blackhole's packer FP16 has no infinity or NaN): every nonzero exponent is a normal
/// number, exponent 0 is zero. The sum is formed in single precision; an exact cancellation
/// gives a zero of the sum's sign, or `0x7fff` of that sign when the L1 operand's exponent is
/// 30 or 31; a sum below FP16's exponent range saturates to `0x7fff` of its sign, exponent 0 is
/// a zero of its sign; the mantissa is rounded to nearest even and an overflow saturates to
/// `0x7fff` of the sign.
pub fn acc_fp16(l1: u16, new: u16) -> u16 {
    let sum = (f32::from_bits(fp16_operand(l1)) + f32::from_bits(fp16_operand(new))).to_bits();
    let sign = ((sum >> 16) & 0x8000) as u16;
    if sum & 0x7fff_ffff == 0 {
        let l1_exp = (l1 >> 10) & 31;
        return sign | if l1_exp >= 30 { 0x7fff } else { 0 };
    }
    let e = ((sum >> 23) & 0xff) as i32 - 112;
    if e < 0 {
        return sign | 0x7fff;
    }
    if e == 0 {
        return sign;
    }
    let m = sum & 0x7f_ffff;
    let shift = 23 - 10;
    let half = 1u32 << (shift - 1);
    let odd = (m >> shift) & 1;
    let packed = ((e as u32) << 10) + ((m + half - 1 + odd) >> shift);
    sign | if packed < 0x8000 {
        packed as u16
    } else {
        0x7fff
    }
}

fn daz32(x: u32) -> u32 {
    if x & 0x7fff_ffff < 0x80_0000 {
        x & 0x8000_0000
    } else {
        x
    }
}

fn daz16(h: u16) -> u16 {
    if h & 0x7fff < 0x80 {
        h & 0x8000
    } else {
        h
    }
}

/// A BF16 operand as f64. Infinity stays infinite; a NaN is read as a finite number: from L1
/// the largest f64 magnitude, from the packer exponent 255 with the NaN's mantissa.
fn bf16_operand(h: u16, from_l1: bool) -> f64 {
    let sign = u64::from(h & 0x8000) << 48;
    if h & 0x7fff > 0x7f80 {
        return if from_l1 {
            f64::from_bits(sign | ((0x7ffu64 << 52) - 1))
        } else {
            let exp = (255 - 127 + 1023) as u64;
            f64::from_bits(sign | (exp << 52) | (u64::from(h & 0x7f) << 45))
        };
    }
    f64::from(f32::from_bits(u32::from(h) << 16))
}

/// An FP16 operand as FP32 bits: a nonzero exponent re-biased (31 is an ordinary exponent),
/// exponent 0 a zero of the sign.
fn fp16_operand(h: u16) -> u32 {
    let sign = u32::from(h & 0x8000) << 16;
    if h & 0x7fff >= 0x400 {
        sign | ((u32::from(h & 0x7fff) << 13) + (112 << 23))
    } else {
        sign
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l1_acc_fp32_reads_denormals_as_zero_and_canonicalises_nan() {
        assert_eq!(acc_fp32(0x3f80_0000, 0x3f80_0000), 0x4000_0000);
        // 1 + 2^-24 is a tie: to even (1.0).
        assert_eq!(acc_fp32(0x3f80_0000, 0x3380_0000), 0x3f80_0000);
        assert_eq!(acc_fp32(0x0000_0001, 0x0000_0001), 0x0000_0000);
        assert_eq!(acc_fp32(0x7f80_0000, 0xff80_0000), 0x7fc0_0000);
        assert_eq!(acc_fp32(0xffc0_0001, 0x3f80_0000), 0x7fc0_0000);
        // A normal difference that is denormal flushes to a zero of its sign.
        assert_eq!(acc_fp32(0x0080_0001, 0x8080_0000), 0x0000_0000);
    }

    #[test]
    fn l1_acc_bf16_rounds_to_even_and_reads_nan_as_finite() {
        assert_eq!(acc_bf16(0x3f80, 0x3f80), 0x4000);
        // 1 + 2^-8 is half an ulp of BF16's 1.0: a tie, to even.
        assert_eq!(acc_bf16(0x3f80, 0x3b80), 0x3f80);
        // 1.0078125 + 2^-8: a tie above an odd mantissa, rounds up.
        assert_eq!(acc_bf16(0x3f81, 0x3b80), 0x3f82);
        assert_eq!(acc_bf16(0x7f80, 0xff80), 0x7fc0);
        assert_eq!(acc_bf16(0x7f80, 0x3f80), 0x7f80);
        // NaN in L1: the largest f64 magnitude, beyond BF16: infinity.
        assert_eq!(acc_bf16(0x7fc0, 0x3f80), 0x7f80);
        // NaN from the packer: 2^128 x 1.5, also beyond BF16's range.
        assert_eq!(acc_bf16(0x3f80, 0xffc0), 0xff80);
        // Denormals read as zero.
        assert_eq!(acc_bf16(0x0001, 0x8001), 0x0000);
        assert_eq!(acc_bf16(0x0080, 0x8080), 0x0000);
    }

    #[test]
    fn l1_acc_fp16_has_no_infinity_and_saturates() {
        assert_eq!(acc_fp16(0x3c00, 0x3c00), 0x4000);
        // Exponent 31 is an ordinary exponent: 0x7c00 is 65536.
        assert_eq!(acc_fp16(0x7c00, 0x0000), 0x7c00);
        assert_eq!(acc_fp16(0x7bff, 0x7bff), 0x7fff);
        assert_eq!(acc_fp16(0x7fff, 0x7fff), 0x7fff);
        // Exact cancellation: zero, or 0x7fff when L1's exponent is 30 or 31.
        assert_eq!(acc_fp16(0x3c00, 0xbc00), 0x0000);
        assert_eq!(acc_fp16(0x7800, 0xf800), 0x7fff);
        // A difference below exponent 1 saturates; one at exponent 0 is zero.
        assert_eq!(acc_fp16(0x0401, 0x8400), 0x7fff);
        // FP16 exponent 0 reads as zero.
        assert_eq!(acc_fp16(0x03ff, 0x3c00), 0x3c00);
        // Ties to even at 10 bits: 1 + 2^-11.
        assert_eq!(acc_fp16(0x3c00, 0x1000), 0x3c00);
        assert_eq!(acc_fp16(0x3c01, 0x1000), 0x3c02);
    }
}
