//! The edge cases of the Matrix Unit's multiply-accumulate path, for each of MVMUL, DOTPV
//! and GAPOOL (MVMUL.md; DOTPV.md and GAPOOL.md change only the row count), worked out by hand
//! from docs/matrix-unit.md: exponent 255 is finite (O3), results too large are written as
//! exponent 255 mantissa 0 (A6), exponent-0 inputs read as zero (O3), products at exponent
//! <= 0 are the zero term (T2), a zero sum is +0 (A4), and the fidelity phases select SrcA's
//! and SrcB's mantissa bits (T2). Dst[0][0] is SrcB row 0 times SrcA column 0 for all three.
mod matrix_common;

use bhemu_isa::tensix::blackhole::Insn;
use bhemu_tensix::matrix::MathFormat;
use matrix_common::*;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Mvmul,
    Dotpv,
    Gapool,
}

const KINDS: [Kind; 3] = [Kind::Mvmul, Kind::Dotpv, Kind::Gapool];

fn word(kind: Kind) -> u32 {
    match kind {
        Kind::Mvmul => Insn::Mvmul {
            clear_dvalid: 0,
            instr_mod19: 0,
            addr_mode: 0,
            dst: 0,
        },
        Kind::Dotpv => Insn::Dotpv {
            clear_dvalid: 0,
            dest_accum_en: 0,
            instr_mod19: 0,
            addr_mode: 0,
            dst: 0,
        },
        Kind::Gapool => Insn::Gapool {
            clear_dvalid: 0,
            instr_mod19: 1,
            pool_addr_mode: 0,
            max_pool_index_en: 0,
            dst: 0,
        },
    }
    .encode()
}

/// BF16 SrcA with an FP32 Dst, and with a BF16 Dst.
fn bf16_fp32() -> MathFormat {
    configs()[1].2
}
fn bf16_bf16() -> MathFormat {
    configs()[0].2
}

/// A machine with SrcB row 0 = `b` and SrcA column 0 = `a` (the rest zero), Dst32b[0][0] =
/// `dst` (IEEE bits) when `dst` is given.
fn machine(b: &[u32], a: &[u32], dst: Option<u32>) -> Machine {
    let mut m = Machine::new();
    for (k, &v) in b.iter().enumerate() {
        m.src_b.write(0, 0, k, v);
    }
    for (k, &v) in a.iter().enumerate() {
        m.src_a.write(0, k, 0, v);
    }
    if let Some(d) = dst {
        m.reference.w32(0, 0, ieee_to_dst32(d));
        m.sync_dst_from_reference();
    }
    m
}

fn run(m: &mut Machine, kind: Kind, format: MathFormat, phase: u32) {
    if let Err(e) = m.run(word(kind), regs(format, 0, 0, 0, phase)) {
        panic!("{kind:?}: {e:?}");
    }
}

/// Dst32b[0][0] as IEEE bits.
fn fp32_bits(m: &Machine) -> u32 {
    let a = RefDst::adj32(0);
    dst32_to_ieee(((m.dst.bits()[a][0] as u32) << 16) | m.dst.bits()[a + 8][0] as u32)
}

#[test]
fn exponent_255_products_stay_finite_inside_the_adder_chain() {
    // 1.5*2^128 * 2 - 1.5*2^128 * 2 = 0 (FloatBitPatterns.md: exponent 255 is finite).
    let two = src_fp(0, 0, 128);
    for kind in KINDS {
        let mut m = machine(
            &[src_fp(0, 0x200, 255), src_fp(1, 0x200, 255)],
            &[two, two],
            None,
        );
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), 0, "{kind:?}");
        // "NaN" pattern (exponent 255, mantissa all ones) times 0 is 0, not NaN.
        let mut m = machine(&[src_fp(0, 0x3f8, 255)], &[0], None);
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), 0, "{kind:?}");
    }
}

#[test]
fn results_too_large_are_written_as_exponent_255_mantissa_0() {
    // 2^100 * 2^100 = 2^200, far past FP32: sign kept, exponent 255, mantissa 0.
    let big = src_fp(0, 0, 227);
    for kind in KINDS {
        let mut m = machine(&[big], &[big], None);
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), 0x7f80_0000, "{kind:?}");
        let mut m = machine(&[src_fp(1, 0, 227)], &[big], None);
        run(&mut m, kind, bf16_bf16(), 0);
        // Dst16b BF16 layout: sign 15, mantissa 14..8, exponent 7..0.
        assert_eq!(m.dst.bits()[0][0], 0x80ff, "{kind:?}");
    }
}

#[test]
fn denormal_srca_and_srcb_read_as_zero() {
    // Exponent 0 with a non-zero mantissa is zero to the FPU: denormal * 2^120 would be about
    // 2^-7 if it were read as a value; Dst's 1.0 stays exactly 1.0.
    let huge = src_fp(0, 0, 247);
    let denormal = src_fp(0, 0x3f8, 0);
    for kind in KINDS {
        for (b, a) in [(denormal, huge), (huge, denormal)] {
            let mut m = machine(&[b], &[a], Some(1.0f32.to_bits()));
            run(&mut m, kind, bf16_fp32(), 0);
            assert_eq!(f32::from_bits(fp32_bits(&m)), 1.0, "{kind:?}");
        }
    }
}

#[test]
fn products_below_the_smallest_normal_are_flushed() {
    // 2^-64 * 2^-63 = 2^-127, below FP32's smallest normal 2^-126: each product is flushed to
    // zero, so the sum of two is 0 (kept, they would add up to the normal 2^-126).
    let (a, b) = (src_fp(0, 0, 127 - 64), src_fp(0, 0, 127 - 63));
    for kind in KINDS {
        let mut m = machine(&[b, b], &[a, a], None);
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), 0, "{kind:?}");
        // 2^-63 * 2^-63 = 2^-126 is normal and kept: twice is 2^-125.
        let mut m = machine(&[b, b], &[b, b], None);
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(f32::from_bits(fp32_bits(&m)), 2f32.powi(-125), "{kind:?}");
    }
}

#[test]
fn a_dot_product_keeps_products_at_exponent_0_aligned_to_the_group_top() {
    // T4: 2^-63 (exponent 64) x 2^-63 is at 64 + 64 - 127 = 1: 16 x 64 = 1024. 2^-64
    // (exponent 63) x 2^-63 is at 0 and, unlike ELWMUL's product, is kept: it aligns one place
    // to (2 x 1024 + 2) >> 2 = 512. The group: 1536 at exponent 1, FP32 1.5 x 2^-126 =
    // 0x00c0_0000 (as ELWMUL's zero term it would have been 0x0080_0000).
    let (a, b) = (src_fp(0, 0, 64), src_fp(0, 0, 63));
    for kind in KINDS {
        let mut m = machine(&[a, b], &[a, a], None);
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), 0x00c0_0000, "{kind:?}");
    }
    // FP16 operands into an FP16 Dst (adj -15): 2^-7 x 2^-7 (exponents 8) is at 1, 2^-8 x 2^-7
    // (7 and 8) at 0 and kept: 1536 at 1, FP16 exponent 1 mantissa 0x200, Dst16b FP16 (sign
    // 15, mantissa 14..5, exponent 4..0) 0x4001.
    let fp16 = configs()[2].2;
    let (a, b) = (src_fp(0, 0, 8), src_fp(0, 0, 7));
    for kind in KINDS {
        let mut m = machine(&[a, b], &[a, a], None);
        run(&mut m, kind, fp16, 0);
        assert_eq!(m.dst.bits()[0][0], 0x4001, "{kind:?}");
    }
}

#[test]
fn the_sum_starts_at_plus_zero_so_zero_sums_are_positive() {
    // x = 0; x += -1*1; x += 1*1 gives +0; then +0 + Dst(-0) = +0 (round to nearest even).
    let one = src_fp(0, 0, 127);
    let minus_one = src_fp(1, 0, 127);
    for kind in KINDS {
        let mut m = machine(&[minus_one, one], &[one, one], Some(0x8000_0000));
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), 0, "{kind:?}");
        // All-zero operands (negative zeros) onto -0: +0 + -0 + ... = +0, + -0 = +0.
        let nz = src_fp(1, 0, 0);
        let mut m = machine(&[nz; 16], &[nz; 16], Some(0x8000_0000));
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), 0, "{kind:?}");
        // A negative product sum stays negative: -1 onto -0 is -1.
        let mut m = machine(&[minus_one], &[one], Some(0x8000_0000));
        run(&mut m, kind, bf16_fp32(), 0);
        assert_eq!(fp32_bits(&m), (-1.0f32).to_bits(), "{kind:?}");
    }
}

#[test]
fn fidelity_phases_take_five_then_three_srca_bits_and_seven_then_one_srcb_bits() {
    // BF16 1.9921875 (seven mantissa bits set) squared. Phase 0: SrcA's hidden bit and top
    // four, SrcB's hidden bit and top six; phase 1: SrcA's last three; phases 2/3: SrcB's last
    // bit (ELWMUL.md SrcAFidelityBits / SrcBFidelityBits). Phase 5 is phase 1 (& 3).
    let x = src_fp(0, 0x3f8, 127);
    let a0 = 1.0 + 15.0 / 16.0;
    let a1 = 7.0 / 128.0;
    let b01 = 1.0 + 63.0 / 64.0;
    let b23 = 1.0 / 128.0;
    for kind in KINDS {
        let mut m = machine(&[x], &[x], None);
        let mut want = 0.0f64;
        for (phase, add) in [(0, a0 * b01), (1, a1 * b01), (2, a0 * b23), (3, a1 * b23)] {
            run(&mut m, kind, bf16_fp32(), phase);
            want += add;
            assert_eq!(
                f32::from_bits(fp32_bits(&m)) as f64,
                want,
                "{kind:?} phase {phase}"
            );
        }
        assert_eq!(want, (1.0 + 127.0 / 128.0) * (1.0 + 127.0 / 128.0));
        let mut m = machine(&[x], &[x], None);
        run(&mut m, kind, bf16_fp32(), 5);
        assert_eq!(
            f32::from_bits(fp32_bits(&m)) as f64,
            a1 * b01,
            "{kind:?} phase 5"
        );
    }
}
