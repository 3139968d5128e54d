//! O1–O3 ("Operands" of docs/matrix-unit.md), expected bits worked out by hand.

use bhemu_refmath::{elwadd, elwmul, DstKind, Operand, SrcFormat};

const FP32: DstKind = DstKind::Fp32;

#[test]
fn o1_fp32_and_bf16_keep_the_top_7_mantissa_bits() {
    // FP32 0x3fff_ffff: exponent 127, mantissa all ones; the 10-bit field is 0x3ff, cut to
    // 0x3f8 (7 bits). As TF32 the same bits keep 0x3ff.
    assert_eq!(Operand::fp32(0x3fff_ffff).man, 0x3f8);
    assert_eq!(Operand::bf16(0x3fff).man, 0x3f8);
    assert_eq!(Operand::tf32(0x3fff_ffff).man, 0x3ff);
    // End to end, x + 0 into an FP32 Dst: significand 1024 + 1016 = 2040, term 2040 << 13 at
    // exponent 127, leading one at bit 23, mantissa (2040 - 1024) << 13 = 0x7f0000.
    let zero = Operand::fp32(0);
    assert_eq!(
        elwadd(Operand::fp32(0x3fff_ffff), zero, false, 0, None, FP32),
        0x3fff_0000
    );
    // TF32: 2047, mantissa 1023 << 13 = 0x7fe000.
    assert_eq!(
        elwadd(Operand::tf32(0x3fff_ffff), zero, false, 0, None, FP32),
        0x3fff_e000
    );
}

#[test]
fn o1_fp16_keeps_10_mantissa_bits_and_5_exponent_bits() {
    // 0x3fff: sign 0, exponent field 0b01111 = 15, mantissa 0x3ff.
    let x = Operand::fp16(0x3fff);
    assert_eq!((x.neg, x.exp, x.man), (false, 15, 0x3ff));
    assert_eq!(x.significand(), 2047);
    assert_eq!(Operand::new(SrcFormat::Fp16, 0xfc00).exp, 31);
}

#[test]
fn o2_exponent_width_is_decided_by_srca_alone() {
    // SrcA FP16 1.0 (0x3c00, exponent 15), SrcB BF16 1.0 (exponent 127), 5-bit exponents
    // into an FP16 Dst: adj = -15, product exponent 15 + 127 - 15 = 127; 16 x 64 = 1024 is
    // 1.0, so the sum's exponent is 127 >= 32: FP16 saturates to (31 << 10) | 1023.
    let (h, b) = (Operand::fp16(0x3c00), Operand::bf16(0x3f80));
    assert!(!h.e8() && b.e8());
    assert_eq!(elwmul(h, b, 0, 0, DstKind::Fp16), 0x7fff);
    // Swapped, SrcA is BF16 (e8): adj = -127, exponent 127 + 15 - 127 = 15, i.e. 2^-112 into
    // a BF16 Dst: exponent field 15, mantissa 0 = 15 << 7 = 0x0780.
    assert_eq!(elwmul(b, h, 0, 0, DstKind::Bf16), 0x0780);
}

#[test]
fn o3_exponent_zero_is_zero_whatever_its_mantissa_and_sign() {
    // 0x807f: sign 1, exponent 0, mantissa 127: zero, so -0.x + 1.0 = 1.0 exactly.
    let denormal = Operand::bf16(0x807f);
    assert!(denormal.is_zero());
    assert_eq!(denormal.significand(), 0);
    let one = Operand::bf16(0x3f80);
    assert_eq!(elwadd(denormal, one, false, 0, None, FP32), 0x3f80_0000);
    // A zero operand makes the product the zero term (exponent max(-127, 0) = 0): Dst 0
    // stays +0.
    assert_eq!(elwmul(Operand::bf16(0x007f), one, 0, 0, FP32), 0);
}

#[test]
fn o3_exponent_255_is_an_ordinary_finite_exponent() {
    // 0x7fc0 is 1.5 * 2^128 (not NaN), 0x7f80 is 1.0 * 2^128 (not infinity). ELWSUB:
    // significands 1536 and 1024 at the same exponent 255, difference 512, term 512 << 13 =
    // 2^22 at exponent 255; the leading one moves to bit 23: exponent 254, mantissa 0.
    let (a, b) = (Operand::bf16(0x7fc0), Operand::bf16(0x7f80));
    assert_eq!(elwadd(a, b, true, 0, None, FP32), 0x7f00_0000);
    // A "NaN" pattern minus itself is +0.
    let nan = Operand::bf16(0x7fff);
    assert_eq!(elwadd(nan, nan, true, 0, None, FP32), 0);
    // FP16 exponent 31 is finite too: 0x7c00 is 2^16; plus 0 it stays exponent 31 in FP16.
    let big = Operand::fp16(0x7c00);
    assert_eq!(
        elwadd(big, Operand::fp16(0), false, 0, None, DstKind::Fp16),
        0x7c00
    );
}

#[test]
fn o3_zero_flag_disabled_makes_a_srcb_exponent_0_one_point_m() {
    // SrcA 2^127 (0x7f00, exponent 254), SrcB exponent 0 mantissa 0. With the flag the SrcB
    // datum is 1.0 x 2^0: product exponent 254 + 0 - 127 = 127, 16 x 64 = 1024 (1.0): the
    // FP32 Dst becomes 1.0.
    let a = Operand::bf16(0x7f00);
    let b = Operand::bf16(0x0000);
    assert_eq!(
        elwmul(a, b.with_zero_flag_disabled(), 0, 0, FP32),
        0x3f80_0000
    );
    // Without it, SrcB is zero: the zero term, Dst stays +0.
    assert_eq!(elwmul(a, b, 0, 0, FP32), 0);
    // ELWADD: 1.0 (exponent 127) + 1.m x 2^0 with m = 0: difference 127 >= 12, the smaller
    // becomes 0; 1.0 either way, but the operand is no longer zero.
    assert_eq!(b.with_zero_flag_disabled().significand(), 1024);
}
