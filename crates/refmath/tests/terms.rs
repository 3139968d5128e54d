//! T1–T6 ("Terms" of docs/matrix-unit.md), expected bits worked out by hand.

use bhemu_refmath::ops::dot16_terms;
use bhemu_refmath::term::{t3_product, t4_align};
use bhemu_refmath::{dot16, elwadd, elwmul, DstKind, Operand};

const FP32: DstKind = DstKind::Fp32;
const BF16: DstKind = DstKind::Bf16;

fn bf(bits: u16) -> Operand {
    Operand::bf16(bits)
}

fn tf(bits: u32) -> Operand {
    Operand::tf32(bits)
}

#[test]
fn t1_elwadd_tie_rounds_away_from_zero_unlike_ieee() {
    // BF16 1.0 + 2^-8 (0x3b80, exponent 119): d = 8, (1024 + 128) >> 8 = 4, sum 1028, term
    // 1028 << 13 at 127. To 8 bits: (1028 << 13 + 2^15) >> 16 = 129 exactly: 0x3f81.
    // IEEE: 1 + 2^-8 is a tie, even gives 0x3f80.
    assert_eq!(elwadd(bf(0x3f80), bf(0x3b80), false, 0, None, BF16), 0x3f81);
    // Negative: the same magnitude, sign 1 (A5 rounds the magnitude half up).
    assert_eq!(elwadd(bf(0xbf80), bf(0xbb80), false, 0, None, BF16), 0xbf81);
}

#[test]
fn t1_smaller_operand_is_aligned_with_round_half_up() {
    // TF32 1.0 + (1 + 1/1024) * 2^-1: d = 1, (1025 + 1) >> 1 = 513, sum 1537: mantissa
    // 513 << 13 = 0x402000. The exact sum 1.50048828125 is 0x3fc0_1000.
    let a = tf(0x3f80_0000);
    let b = tf(0x3f00_0000 | (1 << 13));
    assert_eq!(elwadd(a, b, false, 0, None, FP32), 0x3fc0_2000);
}

#[test]
fn t1_smaller_operand_becomes_0_at_a_difference_of_12() {
    // ELWSUB 1.0 - 1.5 * 2^-11 (exponent 116, d = 11): (1536 + 1024) >> 11 = 1; 1024 - 1 =
    // 1023, term 1023 << 13 at 127: leading one at bit 22, exponent 126, mantissa
    // (1023 - 512) << 14 = 0x7fc000.
    let one = tf(0x3f80_0000);
    assert_eq!(
        elwadd(one, tf(0x3a40_0000), true, 0, None, FP32),
        0x3f7f_c000
    );
    // 2047 at exponent 115 (d = 12) becomes 0: 1.0 exactly.
    assert_eq!(
        elwadd(one, tf(0x39ff_e000), true, 0, None, FP32),
        0x3f80_0000
    );
}

#[test]
fn t1_operands_ordered_by_exponent_then_mantissa_sign_from_the_larger() {
    // 1.0 + (-1.5): same exponent, SrcB's mantissa is larger: sign 1, 1536 - 1024 = 512,
    // 2^22 at 127: -0.5 = 0xbf00_0000.
    assert_eq!(
        elwadd(bf(0x3f80), bf(0xbfc0), false, 0, None, FP32),
        0xbf00_0000
    );
    // ELWSUB flips SrcB's sign: 1.0 - 1.5, the same.
    assert_eq!(
        elwadd(bf(0x3f80), bf(0x3fc0), true, 0, None, FP32),
        0xbf00_0000
    );
}

#[test]
fn t1_zero_operand_has_significand_0_and_exponent_0() {
    // 0 - 1.0: SrcB (exponent 127) is the larger, its flipped sign wins: -1.0.
    assert_eq!(
        elwadd(bf(0x0000), bf(0x3f80), true, 0, None, FP32),
        0xbf80_0000
    );
}

#[test]
fn t2_fidelity_phases_take_5_bits_of_srca_and_7_of_srcb() {
    // TF32 1 + 1023/1024 (significand 2047) times itself into FP32, each phase on its own.
    let x = tf(0x3fff_e000);
    // p = 0: 2047 >> 6 = 31, 2047 >> 4 = 127, 31 * 127 = 3937 (12 bits) at 127 + 127 - 127 =
    // 127. 3937 << 13: leading one at bit 24, exponent 128, (3937 << 13 + 1) >> 1 = 3937 <<
    // 12, mantissa (3937 - 2048) << 12 = 0x761000.
    assert_eq!(elwmul(x, x, 0, 0, FP32), 0x4076_1000);
    // p = 1: SrcA's mantissa bits 5..1 = (2047 >> 1) & 31 = 31, same product, exponent
    // lowered by 5 to 122, written at 123: (123 << 23) | 0x761000.
    assert_eq!(elwmul(x, x, 1, 0, FP32), 0x3df6_1000);
    // p = 2: SrcB's low 4 mantissa bits on top of 7: (1023 & 15) << 3 = 120; 31 * 120 = 3720
    // at 127 - 7 = 120, written at 121, mantissa (3720 - 2048) << 12 = 0x688000.
    assert_eq!(elwmul(x, x, 2, 0, FP32), 0x3ce8_8000);
    // p = 3: 31 * 120 at 127 - 12 = 115, written at 116.
    assert_eq!(elwmul(x, x, 3, 0, FP32), 0x3a68_8000);
    // Only the low two bits of the phase count.
    assert_eq!(elwmul(x, x, 4, 0, FP32), 0x4076_1000);
}

#[test]
fn t2_zero_term_takes_exponent_max_adj_0() {
    // FP16 operands into an FP32 Dst: adj = +97, so a product with a zero operand is the term
    // (0, 97). Dst 0x3000_0001 (exponent 96, significand 2^23 + 1) is aligned 1 place down:
    // (2^23 + 2) >> 1 = 2^22 + 1, then normalised back: (2^22 + 1) << 1, mantissa 2.
    let zero = Operand::fp16(0);
    let one = Operand::fp16(0x3c00);
    assert_eq!(t3_product(zero, one, 0, FP32).exp, 97);
    assert_eq!(elwmul(zero, one, 0, 0x3000_0001, FP32), 0x3000_0002);
    // Phase 3 lowers adj by 12: exponent 85, below Dst's 96, which stays as it is.
    assert_eq!(elwmul(zero, one, 3, 0x3000_0001, FP32), 0x3000_0001);
    // 8-bit exponents: adj = -127, the zero term is at 0 and Dst is untouched.
    assert_eq!(elwmul(bf(0), bf(0x3f80), 0, 0x3000_0001, FP32), 0x3000_0001);
}

#[test]
fn t3_elwmul_product_exponent_at_or_below_0_is_the_zero_term() {
    // 2^-63 (exponent 64) x 2^-64 (exponent 63): 64 + 63 - 127 = 0: the zero term, +0.
    assert_eq!(elwmul(bf(0x2000), bf(0x1f80), 0, 0, FP32), 0);
    // 2^-62 x 2^-64: exponent 1, 16 * 64 = 1024 (1.0): 2^-126 = 0x0080_0000.
    assert_eq!(elwmul(bf(0x2080), bf(0x1f80), 0, 0, FP32), 0x0080_0000);
}

#[test]
fn t3_elwmul_adds_the_product_to_the_old_dst() {
    // Dst 2.0 (exponent 128) + 1.0 x 1.0 (2^23 at 127, one place down: 2^22): 2^23 + 2^22 at
    // 128: 3.0.
    let one = bf(0x3f80);
    assert_eq!(elwmul(one, one, 0, 0x4000_0000, FP32), 0x4040_0000);
}

/// A column of SrcA with `x` at the given rows and zeros elsewhere; a SrcB row of 1.0.
fn column(at: &[(usize, u16)]) -> ([Operand; 16], [Operand; 16]) {
    let mut a = [bf(0); 16];
    for &(k, x) in at {
        a[k] = bf(x);
    }
    (a, [bf(0x3f80); 16])
}

#[test]
fn t4_groups_of_eight_align_separately() {
    // 1.0 and 2^-11 (0x3a00, exponent 116) in the same group (k = 0, 1): the small product
    // 1024 at 11 places: (2048 + 2048) >> 12 = 1; the group sums 1025: term 1025 << 13 at
    // 127, mantissa 2^13: 0x3f80_2000.
    let (a, b) = column(&[(0, 0x3f80), (1, 0x3a00)]);
    assert_eq!(dot16(&a, &b, 0, 0, FP32), 0x3f80_2000);
    // In different groups (k = 0, 8) each group is a term; the accumulator aligns 2^23 at
    // 116 by 11 places exactly: 2^12. Sum 2^23 + 2^12: 0x3f80_1000 (exact).
    let (a, b) = column(&[(0, 0x3f80), (8, 0x3a00)]);
    assert_eq!(dot16(&a, &b, 0, 0, FP32), 0x3f80_1000);
}

#[test]
fn t4_products_round_half_up_in_magnitude_whatever_their_sign() {
    // 1.0 and -2^-11 in one group: the small product still becomes 1 (half up in magnitude),
    // so 1024 - 1 = 1023: leading one at bit 22 after the shift by 13, exponent 126,
    // mantissa (1023 - 512) << 14 = 0x7fc000 (exact: 1 - 2^-11 = 0x3f7f_e000).
    let (a, b) = column(&[(0, 0x3f80), (1, 0xba00)]);
    assert_eq!(dot16(&a, &b, 0, 0, FP32), 0x3f7f_c000);
}

#[test]
fn t4_group_whose_largest_exponent_is_0_contributes_nothing() {
    // 8-bit exponents: a zero column gives zero terms at max(-127, 0) = 0: no term at all,
    // and Dst 0x3000_0001 is written back unchanged.
    let (a, b) = column(&[]);
    assert!(dot16_terms(&a, &b, 0, FP32).is_empty());
    assert_eq!(dot16(&a, &b, 0, 0x3000_0001, FP32), 0x3000_0001);
    // FP16 into FP32: zero terms sit at 97, each group is a term (0, 97), and Dst at 96 is
    // aligned one place: 0x3000_0002, as in T2.
    let (h, hb) = ([Operand::fp16(0); 16], [Operand::fp16(0x3c00); 16]);
    assert_eq!(dot16_terms(&h, &hb, 0, FP32).len(), 2);
    assert_eq!(dot16(&h, &hb, 0, 0x3000_0001, FP32), 0x3000_0002);
}

#[test]
fn t4_keeps_products_at_exponent_0_unlike_elwmul() {
    // 2^-63 (0x2000, exponent 64) squared is at 64 + 64 - 127 = 1: 16 x 64 = 1024. 2^-64
    // (0x1f80, exponent 63) x 2^-63 is at 0 and stays a product: aligned one place,
    // (2048 + 2) >> 2 = 512. The group: 1536 at exponent 1, FP32 0x00c0_0000.
    let a = column(&[(0, 0x2000), (1, 0x1f80)]).0;
    let b = [bf(0x2000); 16];
    assert_eq!(dot16(&a, &b, 0, 0, FP32), 0x00c0_0000);
    // ELWMUL's single product at exponent 0 is the zero term instead: Dst stays 0.
    assert_eq!(elwmul(bf(0x1f80), bf(0x2000), 0, 0, FP32), 0);
}

#[test]
fn t4_shifts_are_capped_at_30_places() {
    // (2m + 2^d) >> (d + 1): 2047 at 11 places is (4094 + 2048) >> 12 = 1; a (hypothetical)
    // 2^40 at 30 places is 0, where an uncapped shift would leave (2^41 + 2^30) >> 31 = 1024.
    assert_eq!(t4_align(2047, 11), 1);
    assert_eq!(t4_align(1 << 40, 29), 2048);
    assert_eq!(t4_align(1 << 40, 30), 0);
}

#[test]
fn t4_sixteen_products_of_one_and_a_half() {
    // 16 x (1.0 x 0.5): each 1024 at 126; each group 8192, term 2^26 at 126. E = 126, sum
    // 2^27: exponent 126 + 4 = 130, 8.0.
    let a = [bf(0x3f00); 16];
    let b = [bf(0x3f80); 16];
    assert_eq!(dot16(&a, &b, 0, 0, FP32), 0x4100_0000);
    assert_eq!(dot16(&a, &b, 0, 0, BF16), 0x4100);
}

#[test]
fn t5_fp16_elwadd_into_a_32bit_dst_rebiases_by_112() {
    // FP16 1.0 + 1.0: 2048 << 13 at 15, re-biased to 127: leading one at bit 24, exponent
    // 128: 2.0.
    let one = Operand::fp16(0x3c00);
    assert_eq!(elwadd(one, one, false, 0, None, FP32), 0x4000_0000);
    // Into an FP16 Dst there is no re-bias: exponent 16, 11 bits: (2^24 + 2^13) >> 14 =
    // 1024, mantissa 0: 0x4000.
    assert_eq!(elwadd(one, one, false, 0, None, DstKind::Fp16), 0x4000);
}

#[test]
fn t5_fp16_zero_term_into_a_32bit_dst_takes_exponent_97() {
    // 0 + 0 (FP16) with AddDst onto 0x3000_0001 (exponent 96): the term (0, 97) aligns Dst
    // one place, 0x3000_0002 (see T2). With BF16 operands the zero term sits at 0.
    let z = Operand::fp16(0);
    assert_eq!(elwadd(z, z, false, 0, Some(0x3000_0001), FP32), 0x3000_0002);
    assert_eq!(
        elwadd(bf(0), bf(0), false, 0, Some(0x3000_0001), FP32),
        0x3000_0001
    );
}

#[test]
fn t6_elwadd_fidelity_phase_lowers_the_exponent_by_5_and_7() {
    // 2.0 + 1.0: d = 1, (1024 + 1) >> 1 = 512, 1536 << 13 at 128: 3.0 (0x4040_0000).
    let (two, one) = (bf(0x4000), bf(0x3f80));
    assert_eq!(elwadd(two, one, false, 0, None, FP32), 0x4040_0000);
    // Phase 1: exponent 123, 3/32 = 0x3dc0_0000; phase 2: 121, 3/128 = 0x3cc0_0000;
    // phase 3: 116, 3/4096 = 0x3a40_0000; phase 4 reads as 0.
    assert_eq!(elwadd(two, one, false, 1, None, FP32), 0x3dc0_0000);
    assert_eq!(elwadd(two, one, false, 2, None, FP32), 0x3cc0_0000);
    assert_eq!(elwadd(two, one, false, 3, None, FP32), 0x3a40_0000);
    assert_eq!(elwadd(two, one, false, 4, None, FP32), 0x4040_0000);
}
