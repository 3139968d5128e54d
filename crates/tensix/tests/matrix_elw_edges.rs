//! The edge cases of ELWMUL and ELWSUB that the ELWADD tests of matrix_elw.rs do not already
//! pin down, worked out by hand from docs/matrix-unit.md (O3: exponent 255 is a finite value
//! and exponent 0 reads as zero; T2: a product with a zero operand or an exponent <= 0 is the
//! zero term; A6: results too large become exponent 255 mantissa 0, results below exponent 1
//! become +0; A4: a zero sum is +0; T6: fidelity phases divide ELWSUB by 32 and 128).
mod matrix_common;

use matrix_common::*;

const ELWSUB: u8 = 0x30;
const ELWMUL: u8 = 0x27;

/// One ELW of SrcA[0][0] and SrcB[0][0] into Dst32b[0][0] (BF16 SrcA, FP32 Dst) holding
/// `dst` (IEEE bits) before; returns Dst32b[0][0] after, IEEE bits.
fn elw(op: u8, a: u32, b: u32, dst: u32, phase: u32) -> u32 {
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, a);
    m.src_b.write(0, 0, 0, b);
    m.reference.w32(0, 0, ieee_to_dst32(dst));
    m.sync_dst_from_reference();
    // ELWMUL's AddDst is fixed to true by its syntax; ELWSUB here overwrites Dst.
    let word = elw_word(op, 0, op == ELWMUL, false, false, 0);
    if let Err(e) = m.run(word, regs(configs()[1].2, 0, 0, 0, phase)) {
        panic!("{e:?}");
    }
    let r = RefDst::adj32(0);
    dst32_to_ieee(((m.dst.bits()[r][0] as u32) << 16) | m.dst.bits()[r + 8][0] as u32)
}

const ONE: f32 = 1.0;

#[test]
fn elwmul_exponent_255_inputs_are_finite_numbers() {
    // (1 + 0.5) * 2^128 * 2^-1 = 1.5 * 2^127, and the "NaN" pattern times 0 is 0.
    let half = src_fp(0, 0, 126);
    assert_eq!(elw(ELWMUL, src_fp(0, 0x200, 255), half, 0, 0), 0x7f40_0000);
    assert_eq!(elw(ELWMUL, src_fp(0, 0x3f8, 255), 0, 0, 0), 0);
}

#[test]
fn elwmul_results_too_large_become_exponent_255_mantissa_0() {
    let big = src_fp(0, 0, 227); // 2^100
    assert_eq!(elw(ELWMUL, big, big, 0, 0), 0x7f80_0000);
    assert_eq!(elw(ELWMUL, src_fp(1, 0, 227), big, 0, 0), 0xff80_0000);
}

#[test]
fn elwmul_denormal_inputs_read_as_zero() {
    // A denormal times 2^120 would be about 2^-7 if read as a value; Dst's 1.0 stays 1.0.
    let (denormal, huge) = (src_fp(0, 0x3f8, 0), src_fp(0, 0, 247));
    assert_eq!(elw(ELWMUL, denormal, huge, ONE.to_bits(), 0), ONE.to_bits());
    assert_eq!(elw(ELWMUL, huge, denormal, ONE.to_bits(), 0), ONE.to_bits());
}

#[test]
fn elwmul_tiny_products_are_the_zero_term_and_zero_sums_plus_zero() {
    // 2^-64 * 2^-63: exponent 63 + 64 - 127 = 0, the zero term (T2): +0 onto Dst +0.
    let (a, b) = (src_fp(0, 0, 127 - 64), src_fp(0, 0, 127 - 63));
    assert_eq!(elw(ELWMUL, a, b, 0, 0), 0);
    // Negative, onto Dst -0 (exponent 0, so its term is 0): A1's exponent is 0, the result
    // +0 (the IEEE page model kept -0).
    let na = src_fp(1, 0, 127 - 64);
    assert_eq!(elw(ELWMUL, na, b, 0x8000_0000, 0), 0);
    assert_eq!(elw(ELWMUL, na, b, 0, 0), 0);
    // One exponent higher, 64 + 64 - 127 = 1: 2^-126 (16 x 64 = 1024 at exponent 1).
    assert_eq!(elw(ELWMUL, src_fp(0, 0, 127 - 63), b, 0, 0), 0x0080_0000);
}

#[test]
fn elwmul_zero_product_onto_minus_zero_dst_is_plus_zero() {
    let nz = src_fp(1, 0, 0);
    let one = src_fp(0, 0, 127);
    assert_eq!(elw(ELWMUL, nz, one, 0x8000_0000, 0), 0);
    assert_eq!(elw(ELWMUL, nz, one, 0, 0), 0);
}

#[test]
fn elwmul_onto_dst_aligns_the_product_with_round_half_up() {
    // Dst 1 + 2^-23 (0x3f80_0001) + 1.0 x 1.0 (2^23 at 127): sum 2^24 + 1, exponent 128,
    // rounded half up to 24 bits: 2^23 + 1, mantissa 1 = 0x4000_0001 (A5; IEEE: 0x4000_0000).
    let one = src_fp(0, 0, 127);
    assert_eq!(elw(ELWMUL, one, one, 0x3f80_0001, 0), 0x4000_0001);
}

#[test]
fn elwsub_results_too_large_become_exponent_255_mantissa_0() {
    // 1.5*2^127 - (-1.5*2^127) = 3*2^127 >= 2^128.
    let x = src_fp(0, 0x200, 254);
    let nx = src_fp(1, 0x200, 254);
    assert_eq!(elw(ELWSUB, x, nx, 0, 0), 0x7f80_0000);
    assert_eq!(elw(ELWSUB, nx, x, 0, 0), 0xff80_0000);
}

#[test]
fn elwsub_denormal_inputs_read_as_zero() {
    let one = src_fp(0, 0, 127);
    assert_eq!(elw(ELWSUB, one, src_fp(1, 0x3ff, 0), 0, 0), ONE.to_bits());
    assert_eq!(
        elw(ELWSUB, src_fp(0, 0x3ff, 0), one, 0, 0),
        (-ONE).to_bits()
    );
}

#[test]
fn elwsub_of_equal_values_is_plus_zero_and_fidelity_phases_divide() {
    let three = src_fp(0, 0x200, 128);
    let one = src_fp(0, 0, 127);
    assert_eq!(elw(ELWSUB, three, three, 0x8000_0000, 0), 0);
    // 3 - 1 = 2; phase 1 divides by 32, phase 2 by 128, phase 3 by both (ELWSUB.md).
    for (phase, want) in [
        (0, 2.0f32),
        (1, 2.0 / 32.0),
        (2, 2.0 / 128.0),
        (3, 2.0 / 4096.0),
    ] {
        assert_eq!(
            elw(ELWSUB, three, one, 0, phase),
            want.to_bits(),
            "phase {phase}"
        );
    }
}
