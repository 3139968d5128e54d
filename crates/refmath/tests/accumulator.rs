//! A1–A6 ("The accumulator" of docs/matrix-unit.md), expected bits worked out by hand. Most
//! cases use ELWADD or ELWMUL to make one term, whose significand is given in each comment.

use bhemu_refmath::accumulator::{a2_align, a5_normalise};
use bhemu_refmath::{accumulate, elwadd, elwmul, DstKind, Operand, Term};

const FP32: DstKind = DstKind::Fp32;
const BF16: DstKind = DstKind::Bf16;

fn bf(bits: u16) -> Operand {
    Operand::bf16(bits)
}

fn tf(bits: u32) -> Operand {
    Operand::tf32(bits)
}

#[test]
fn a1_common_exponent_at_or_below_0_gives_plus_0() {
    // A term at exponent 0 with a non-zero significand, Dst all zeros: E = 0, result +0.
    let t = Term {
        neg: true,
        exp: 0,
        sig: 1 << 23,
    };
    assert_eq!(accumulate(&[t], None, FP32), 0);
    // 2^-126 (0x0080, exponent 1) + 0 at fidelity phase 1: T6 lowers the term to -4; the
    // Dst term's exponent 0 is the largest: +0.
    assert_eq!(elwadd(bf(0x0080), bf(0), false, 1, None, FP32), 0);
}

#[test]
fn a1_dst_takes_part_in_the_common_exponent() {
    // Dst 2^24 (0x4b80_0000: exponent 151, significand 2^23) + ELWADD(1.0 + 0) (term 2^23
    // at exponent 127): E = 151, the term is 24 places below: (2^23 + 2^23) >> 24 = 1.
    // Sum 2^23 + 1: mantissa 1.
    let one = bf(0x3f80);
    assert_eq!(
        elwadd(one, bf(0), false, 0, Some(0x4b80_0000), FP32),
        0x4b80_0001
    );
}

#[test]
fn a2_positive_terms_round_half_up() {
    // The case above: 2^24 + 1.0 is a tie between 2^24 and 2^24 + 2; IEEE's even choice is
    // 2^24 (0x4b80_0000), the aligned term rounds half up to 1 (0x4b80_0001).
    assert_eq!(
        elwadd(bf(0x3f80), bf(0), false, 0, Some(0x4b80_0000), FP32),
        0x4b80_0001
    );
    assert_eq!(a2_align(3 << 4, 5, false), 2); // 1.5 -> 2
}

#[test]
fn a2_negative_terms_round_half_down_in_magnitude() {
    // Dst 2^24 + ELWADD(-1.0 + 0): the term is negative, 2^23 24 places down:
    // (2^23 + 2^23 - 1) >> 24 = 0. The sum stays 2^23 at exponent 151: 0x4b80_0000 (IEEE:
    // 2^24 - 1 is exact, 0x4b7f_ffff).
    assert_eq!(
        elwadd(bf(0xbf80), bf(0), false, 0, Some(0x4b80_0000), FP32),
        0x4b80_0000
    );
    assert_eq!(a2_align(3 << 4, 5, true), 1); // 1.5 -> 1
    assert_eq!(a2_align(7 << 4, 5, true), 3); // 3.5 -> 3
}

#[test]
fn a2_dst_term_always_rounds_half_up() {
    // Dst -(1 + 2^-23) (0xbf80_0001: exponent 127, significand 2^23 + 1), ELWADD(2.0 + 0)
    // (term 2^23 at 128). E = 128; Dst is 1 place below: (2^23 + 1 + 1) >> 1 = 2^22 + 1
    // (half up although Dst is negative). Sum 2^23 - 2^22 - 1 = 2^22 - 1: leading one at
    // bit 21, exponent 126, significand (2^22 - 1) << 2 = 2^24 - 4, mantissa 2^23 - 4.
    // Exact would be 0x3f7f_fffe; half down would give 2^22, 0x3f00_0000.
    assert_eq!(
        elwadd(bf(0x4000), bf(0), false, 0, Some(0xbf80_0001), FP32),
        0x3f7f_fffc
    );
}

#[test]
fn a2_difference_of_31_or_more_gives_0() {
    // 2^40 at 30 places: (2^40 + 2^29) >> 30 = 1024; at 31 places nothing is left, though a
    // plain shift would leave 512.
    assert_eq!(a2_align(1 << 40, 30, false), 1024);
    assert_eq!(a2_align(1 << 40, 31, false), 0);
    assert_eq!(a2_align(1 << 40, 40, false), 0);
}

#[test]
fn a3_16bit_dst_pre_rounds_each_significand_to_a_multiple_of_2_pow_13() {
    // TF32 operands (e8) into a BF16 Dst holding 1.0 (exponent 127, significand 2^23),
    // AddDst. ELWADD (1 + 15/1024) * 2^-2 - 2^-2: significands 1039 and 1024 at exponent
    // 125, difference 15, term 15 << 13 at 125. E = 127, d = 2: (15 << 13 + 2) >> 2 =
    // 30720 (3.75 * 2^13). A3: (30720 + 4096) >> 13 = 4, so 32768. Sum 2^23 + 2^15; to 8
    // bits: (2^23 + 2^15 + 2^15) >> 16 = 129: 0x3f81. Without A3, (2^23 + 30720 + 2^15) >>
    // 16 = 128: 0x3f80, which IEEE gives too (1 + 15 * 2^-12 is nearer 1.0).
    let a = tf(0x3e80_0000 | (15 << 13));
    let b = tf(0xbe80_0000);
    assert_eq!(elwadd(a, b, false, 0, Some(0x3f80), BF16), 0x3f81);
    // A 32-bit Dst skips A3 and is exact: mantissa 30720 = 0x7800.
    assert_eq!(elwadd(a, b, false, 0, Some(0x3f80_0000), FP32), 0x3f80_7800);
}

#[test]
fn a3_negative_term_pre_rounds_half_down_in_magnitude() {
    // BF16 Dst 1.0; ELWADD -(1 + 10/1024) * 2^-2 + 2^-2: the larger is SrcA (mantissa 10 >
    // 0), negative, difference 10: term -(10 << 13) at 125. d = 2, negative:
    // (81920 + 2 - 1) >> 2 = 20480 = 2.5 * 2^13. A3 half down: (20480 + 4095) >> 13 = 2,
    // 16384. Sum 2^23 - 16384: leading one at bit 22, exponent 126, 8 bits:
    // (8372224 + 2^14) >> 15 = 256, a carry: exponent 127, mantissa 0 = 0x3f80. Half up
    // would give 3 * 2^13 and (8363520 + 2^14) >> 15 = 255: 0x3f7f (IEEE's answer too).
    let a = tf(0xbe80_0000 | (10 << 13));
    let b = tf(0x3e80_0000);
    assert_eq!(elwadd(a, b, false, 0, Some(0x3f80), BF16), 0x3f80);
}

#[test]
fn a4_exact_zero_is_plus_zero() {
    // -1.0 + 1.0: equal magnitudes, SrcA first (negative), difference 0: +0, not -0.
    assert_eq!(elwadd(bf(0xbf80), bf(0x3f80), false, 0, None, FP32), 0);
    // -0 + -0 written over Dst is +0 (IEEE: -0).
    assert_eq!(elwadd(bf(0x8000), bf(0x8000), false, 0, None, FP32), 0);
    // Dst 1.0 + (-1.0 x 1.0) = +0.
    assert_eq!(elwmul(bf(0xbf80), bf(0x3f80), 0, 0x3f80_0000, FP32), 0);
}

#[test]
fn a4_negative_sum_flips_the_sign() {
    // Dst 1.0 + (-1.0 x 2.0): product 16 x 64 = 1024 at 127 + 128 - 127 = 128, negative,
    // term 2^23 at 128; Dst 1 place down: 2^22. Sum 2^22 - 2^23 = -2^22: sign 1, leading
    // one at bit 22, exponent 127, mantissa 0: -1.0.
    assert_eq!(
        elwmul(bf(0xbf80), bf(0x4000), 0, 0x3f80_0000, FP32),
        0xbf80_0000
    );
}

#[test]
fn a5_fp32_tie_rounds_half_up_unlike_ieee() {
    // Dst 1 + 2^-23 (0x3f80_0001) + 1.0 x 1.0 (term 2^23 at 127): sum 2^24 + 1, leading one
    // at bit 24, exponent 128, one bit dropped: (2^24 + 1 + 1) >> 1 = 2^23 + 1, mantissa 1.
    // IEEE: 2 + 2^-23 is a tie, even gives 0x4000_0000.
    let one = bf(0x3f80);
    assert_eq!(elwmul(one, one, 0, 0x3f80_0001, FP32), 0x4000_0001);
}

#[test]
fn a5_rounding_carry_raises_the_exponent() {
    // TF32 1 + 1023/1024 + 0 into BF16: term 2047 << 13 at 127; 8 bits: (2047 << 13 + 2^15)
    // >> 16 = 256 = 2^8, a carry: exponent 128, mantissa 0 = 0x4000 (2.0).
    assert_eq!(elwadd(tf(0x3fff_e000), tf(0), false, 0, None, BF16), 0x4000);
    assert_eq!(a5_normalise(0x1ff << 15, 127, 8), (128, 128));
}

#[test]
fn a5_fp16_dst_keeps_11_bits_and_ties_round_up() {
    // FP16 1.0 + 2^-11 (0x1000: exponent 4, 11 below 15): (1024 + 1024) >> 11 = 1, sum
    // 1025, term 1025 << 13 at 15; 11 bits: (1025 << 13 + 2^12) >> 13 = 1025, mantissa 1:
    // 0x3c01. IEEE: 1 + 2^-11 is a tie, even gives 0x3c00.
    let r = elwadd(
        Operand::fp16(0x3c00),
        Operand::fp16(0x1000),
        false,
        0,
        None,
        DstKind::Fp16,
    );
    assert_eq!(r, 0x3c01);
}

#[test]
fn a5_a_short_sum_is_exact() {
    // A sum with fewer significant bits than the Dst keeps is shifted up, not rounded:
    // 5 (3 bits) at exponent 127 puts its leading one at bit 23 with exponent 127 - 21.
    assert_eq!(a5_normalise(5, 127, 24), (106, 5 << 21));
}

#[test]
fn a6_exponent_255_or_more_is_written_with_mantissa_zero() {
    // 1.5 * 2^127 + 1.5 * 2^127: 1536 + 1536 = 3072, term 3072 << 13 at 254, leading one at
    // bit 24: exponent 255, written with mantissa 0, the sign kept.
    let x = bf(0x7f40);
    assert_eq!(elwadd(x, x, false, 0, None, FP32), 0x7f80_0000);
    let nx = bf(0xff40);
    assert_eq!(elwadd(nx, nx, false, 0, None, FP32), 0xff80_0000);
    assert_eq!(elwadd(x, x, false, 0, None, BF16), 0x7f80);
    // Exactly exponent 255 with a mantissa (1.5 * 2^128 + 0) loses the mantissa too.
    assert_eq!(elwadd(bf(0x7fc0), bf(0), false, 0, None, FP32), 0x7f80_0000);
    // A product far past: 2^128 x 2^128 at 255 + 255 - 127 = 383.
    assert_eq!(elwmul(bf(0x7f80), bf(0x7f80), 0, 0, FP32), 0x7f80_0000);
}

#[test]
fn a6_exponent_at_or_below_0_is_plus_zero() {
    // 1.5 * 2^-126 - 2^-126: 1536 - 1024 = 512, term 2^22 at exponent 1, leading one at bit
    // 22: exponent 0, so +0 (a denormal is never written); the negative one too.
    assert_eq!(elwadd(bf(0x00c0), bf(0x0080), true, 0, None, FP32), 0);
    assert_eq!(elwadd(bf(0x80c0), bf(0x8080), true, 0, None, FP32), 0);
}

#[test]
fn a6_fp16_dst_saturates_to_exponent_31_mantissa_1023() {
    // FP16 exponent 31 mantissa 1023 twice: 2047 + 2047 = 4094, term at 31, leading one at
    // bit 24: exponent 32 >= 32, written as (31 << 10) | 1023, sign kept.
    let h = Operand::fp16(0x7fff);
    assert_eq!(elwadd(h, h, false, 0, None, DstKind::Fp16), 0x7fff);
    let nh = Operand::fp16(0xffff);
    assert_eq!(elwadd(nh, nh, false, 0, None, DstKind::Fp16), 0xffff);
}
