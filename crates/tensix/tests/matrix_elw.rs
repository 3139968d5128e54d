//! ELWADD, ELWSUB and ELWMUL against the reference: the pages' loops over rows, columns and
//! broadcasts (tt-isa-documentation ELWADD.md, ELWSUB.md, ELWMUL.md) rewritten below
//! (`reference_elw`), each datum's arithmetic from `bhemu-refmath` (docs/matrix-unit.md).
mod matrix_common;

use matrix_common::*;

const ELWADD: u8 = 0x28;
const ELWSUB: u8 = 0x30;
const ELWMUL: u8 = 0x27;

#[derive(Clone, Copy, Debug)]
struct Mode {
    add_dst: bool,
    bcast_row: bool,
    bcast_col0: bool,
    rwc_a: u32,
    rwc_b: u32,
    dst_base: u32,
    dst_field: u32,
    phase: u32,
}

/// The pages' loop, for one instruction; the arithmetic is docs/matrix-unit.md's.
fn reference_elw(m: &mut Machine, op: u8, style: Style, dst32: bool, md: Mode) {
    let src_a_row = md.rwc_a & 0x38;
    let src_b_row = md.rwc_b & if md.bcast_row { 0x3f } else { 0x38 };
    let dst_row = (md.dst_field + md.dst_base) & 0x3f8;
    let phase = md.phase & 3;
    // ELWMUL always accumulates (its syntax fixes the AddDst bit to true).
    let add = md.add_dst || op == ELWMUL;
    for i in 0..8u32 {
        for j in 0..16usize {
            let a = m.src_a.read(0, (src_a_row + i) as usize, j);
            let b_row = src_b_row + if md.bcast_row { 0 } else { i };
            let b = m
                .src_b
                .read(0, b_row as usize, if md.bcast_col0 { 0 } else { j });
            if style == Style::Int8 {
                let r = match op {
                    ELWADD => ref_read_int8(a) + ref_read_int8(b),
                    ELWSUB => ref_read_int8(a) - ref_read_int8(b),
                    _ => {
                        let am = if phase & 1 != 0 { 0x41fff } else { 0x4e0ff };
                        let bm = if phase & 2 != 0 { 0x40fff } else { 0x7f0ff };
                        ref_read_int8(a & am) * ref_read_int8(b & bm)
                    }
                };
                m.reference.store_int(dst_row + i, j, r, add);
            } else {
                let (fa, fb) = (src_operand(style, a), src_operand(style, b));
                let kind = dst_kind(style, dst32);
                let old = m.reference.read_ieee(style, dst32, dst_row + i, j);
                let new = match op {
                    // T3: ELWMUL always accumulates.
                    ELWMUL => bhemu_refmath::elwmul(fa, fb, phase, old, kind),
                    _ => {
                        bhemu_refmath::elwadd(fa, fb, op == ELWSUB, phase, add.then_some(old), kind)
                    }
                };
                m.reference.write_ieee(style, dst32, dst_row + i, j, new);
            }
        }
    }
}

fn random_mode(r: &mut Rng) -> Mode {
    Mode {
        add_dst: r.bit(),
        bcast_row: r.below(4) == 0,
        bcast_col0: r.below(4) == 0,
        rwc_a: r.below(64) as u32,
        rwc_b: r.below(64) as u32,
        dst_base: r.below(1024) as u32,
        dst_field: r.below(0x4000) as u32,
        phase: r.below(8) as u32,
    }
}

fn random_rounds(op: u8, seed: u64) {
    let mut r = Rng(seed);
    let mut results = 0usize;
    for (style, dst32, format) in configs() {
        let mut m = Machine::new();
        for round in 0..ROUNDS {
            if round % 100 == 0 {
                m.fill_src(&mut r, style);
                m.fill_dst(&mut r, style, dst32);
            }
            let mut md = random_mode(&mut r);
            if op != ELWMUL && style != Style::Int8 && r.below(4) != 0 {
                md.phase = 0; // ELWADD's phase division is rare in practice; mostly test phase 0.
            }
            let word = elw_word(
                op,
                0,
                md.add_dst,
                md.bcast_row,
                md.bcast_col0,
                md.dst_field as u16,
            );
            let regs = regs(format, md.rwc_a, md.rwc_b, md.dst_base, md.phase);
            if let Err(e) = m.run(word, regs) {
                panic!("{style:?} dst32={dst32} {md:?}: {e:?}");
            }
            reference_elw(&mut m, op, style, dst32, md);
            m.assert_dst_matches(&format!(
                "op {op:#x} {style:?} dst32={dst32} round {round} {md:?}"
            ));
            results += 128;
        }
    }
    assert!(results >= 7 * ROUNDS * 128);
}

#[test]
fn elwadd_matches_reference_in_every_format_broadcast_and_accumulate_mode() {
    random_rounds(ELWADD, 0x0e1a_add0_0001);
}

#[test]
fn elwsub_matches_reference_in_every_format_broadcast_and_accumulate_mode() {
    random_rounds(ELWSUB, 0x0e1a_50b0_0002);
}

#[test]
fn elwmul_matches_reference_in_every_format_broadcast_and_fidelity_phase() {
    random_rounds(ELWMUL, 0x0e1a_0a11_0003);
}

// ---- documented rules and edge cases, values computed by hand ----

fn fp32_of(m: &Machine, row: u32, col: usize) -> u32 {
    let a = RefDst::adj32(row);
    let d = ((m.dst.bits()[a][col] as u32) << 16) | m.dst.bits()[a + 8][col] as u32;
    dst32_to_ieee(d)
}

fn bf16_format(fp32: bool) -> bhemu_tensix::matrix::MathFormat {
    configs()[if fp32 { 1 } else { 0 }].2
}

/// One ELW on SrcA[0][0] and SrcB[0][0] into Dst row 0, column 0; returns the Dst32b IEEE bits.
fn elw_one_fp32(op: u8, a: u32, b: u32, dst_init: u32, add: bool, phase: u32) -> u32 {
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, a);
    m.src_b.write(0, 0, 0, b);
    m.reference.w32(0, 0, ieee_to_dst32(dst_init));
    m.sync_dst_from_reference();
    let word = elw_word(op, 0, add, false, false, 0);
    if let Err(e) = m.run(word, regs(bf16_format(true), 0, 0, 0, phase)) {
        panic!("{e:?}");
    }
    fp32_of(&m, 0, 0)
}

#[test]
fn exponent_255_inputs_are_finite_numbers() {
    // FloatBitPatterns.md: exponent 255 with any mantissa is (1 + Mant/2^10) * 2^128 to the FPU.
    // 1.5 * 2^128 - 2^128 = 2^127.
    let r = elw_one_fp32(
        ELWSUB,
        src_fp(0, 0x200, 255),
        src_fp(0, 0, 255),
        0,
        false,
        0,
    );
    assert_eq!(r, 0x7f00_0000);
    // A "NaN" pattern minus itself is zero, not NaN.
    let nan = src_fp(0, 0x3ff, 255);
    assert_eq!(elw_one_fp32(ELWSUB, nan, nan, 0, false, 0), 0);
}

#[test]
fn results_too_large_become_exponent_255_mantissa_0() {
    // 1.5*2^127 + 1.5*2^127 = 3*2^127 >= 2^128: written as exponent 255, mantissa 0 (FloatBitPatterns.md ‡).
    let x = src_fp(0, 0x200, 254);
    assert_eq!(elw_one_fp32(ELWADD, x, x, 0, false, 0), 0x7f80_0000);
    let nx = src_fp(1, 0x200, 254);
    assert_eq!(elw_one_fp32(ELWADD, nx, nx, 0, false, 0), 0xff80_0000);
    // Same into BF16 Dst.
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, x);
    m.src_b.write(0, 0, 0, x);
    m.run(
        elw_word(ELWADD, 0, false, false, false, 0),
        regs(bf16_format(false), 0, 0, 0, 0),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.dst.bits()[0][0], 0x00ff); // sign 0, mantissa 0, exponent 255
}

#[test]
fn fp16_results_too_large_saturate_to_exponent_31_mantissa_1023() {
    let mut m = Machine::new();
    let big = src_fp(0, 0x3ff, 31); // 131008, FP16's largest
    m.src_a.write(0, 0, 0, big);
    m.src_b.write(0, 0, 0, big);
    m.run(
        elw_word(ELWADD, 0, false, false, false, 0),
        regs(configs()[2].2, 0, 0, 0, 0),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.dst.bits()[0][0], (0x3ff << 5) | 31);
}

#[test]
fn denormal_inputs_read_as_zero() {
    // Exponent 0 with a non-zero mantissa is zero to the FPU: denormal + 1.0 = 1.0.
    let one = src_fp(0, 0, 127);
    assert_eq!(
        elw_one_fp32(ELWADD, src_fp(0, 0x3ff, 0), one, 0, false, 0),
        0x3f80_0000
    );
    // A denormal in Dst is zero too.
    assert_eq!(
        elw_one_fp32(ELWADD, one, src_fp(0, 0, 0), 0x0000_0001, true, 0),
        0x3f80_0000
    );
}

#[test]
fn tiny_results_are_written_as_plus_zero() {
    // docs/matrix-unit.md A6: 1.5 * 2^-126 - 2^-126: 1536 - 1024 = 512, the term 512 << 13
    // at exponent 1 normalises to exponent 0, which is written as +0, whatever the sign
    // (the IEEE page model flushed to a zero of the result's sign).
    let r = elw_one_fp32(ELWSUB, src_fp(0, 0x200, 1), src_fp(0, 0, 1), 0, false, 0);
    assert_eq!(r, 0);
    let r = elw_one_fp32(ELWSUB, src_fp(1, 0x200, 1), src_fp(1, 0, 1), 0, false, 0);
    assert_eq!(r, 0);
}

#[test]
fn zero_sums_are_plus_zero_whatever_the_signs() {
    // A4: an exact zero sum is +0. -0 + -0 written over Dst, or accumulated onto +0 or -0,
    // is +0 (IEEE gives -0 in the first and last case).
    let nz = src_fp(1, 0, 0);
    assert_eq!(elw_one_fp32(ELWADD, nz, nz, 0x1234_5678, false, 0), 0);
    assert_eq!(elw_one_fp32(ELWADD, nz, nz, 0, true, 0), 0);
    assert_eq!(elw_one_fp32(ELWADD, nz, nz, 0x8000_0000, true, 0), 0);
    // -1.0 + 1.0 = +0.
    let one = src_fp(0, 0, 127);
    assert_eq!(elw_one_fp32(ELWADD, src_fp(1, 0, 127), one, 0, false, 0), 0);
}

#[test]
fn elwadd_ties_round_away_from_zero_into_bf16_dst() {
    // T1 + A5: 1.0 + 2^-8 (exponent 119): (1024 + 128) >> 8 = 4, sum 1028, term 1028 << 13
    // at 127; to 8 bits (1028 << 13 + 2^15) >> 16 = 129: BF16 1 + 2^-7, Dst16b sign 0,
    // mantissa 1, exponent 127 = 0x017f (IEEE round-to-even: 1.0, 0x007f). Negative:
    // 0x817f.
    for (sign, want) in [(0u32, 0x017fu16), (1, 0x817f)] {
        let mut m = Machine::new();
        m.src_a.write(0, 0, 0, src_fp(sign, 0, 127));
        m.src_b.write(0, 0, 0, src_fp(sign, 0, 119));
        m.run(
            elw_word(ELWADD, 0, false, false, false, 0),
            regs(bf16_format(false), 0, 0, 0, 0),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(m.dst.bits()[0][0], want);
    }
}

#[test]
fn accumulating_onto_dst_rounds_a_positive_term_half_up_and_a_negative_half_down() {
    // A2: Dst 2^24 (0x4b80_0000) + (1.0 + 0): the term 2^23 at 127 is 24 places below 151:
    // (2^23 + 2^23) >> 24 = 1, so 2^24 + 2 (0x4b80_0001; IEEE: a tie, even: 2^24).
    // (-1.0 + 0): (2^23 + 2^23 - 1) >> 24 = 0, Dst stays 0x4b80_0000 (IEEE: 2^24 - 1).
    let zero = src_fp(0, 0, 0);
    assert_eq!(
        elw_one_fp32(ELWADD, src_fp(0, 0, 127), zero, 0x4b80_0000, true, 0),
        0x4b80_0001
    );
    assert_eq!(
        elw_one_fp32(ELWADD, src_fp(1, 0, 127), zero, 0x4b80_0000, true, 0),
        0x4b80_0000
    );
}

#[test]
fn elwadd_with_non_zero_fidelity_phase_divides_by_32_and_128() {
    let two = src_fp(0, 0, 128);
    let one = src_fp(0, 0, 127);
    // 3/32, 3/128, 3/4096.
    assert_eq!(
        f32::from_bits(elw_one_fp32(ELWADD, two, one, 0, false, 1)),
        3.0 / 32.0
    );
    assert_eq!(
        f32::from_bits(elw_one_fp32(ELWADD, two, one, 0, false, 2)),
        3.0 / 128.0
    );
    assert_eq!(
        f32::from_bits(elw_one_fp32(ELWADD, two, one, 0, false, 3)),
        3.0 / 4096.0
    );
    // Only the low two bits of the phase count.
    assert_eq!(
        f32::from_bits(elw_one_fp32(ELWADD, two, one, 0, false, 4)),
        3.0
    );
}

#[test]
fn elwmul_fidelity_phases_consume_five_and_seven_mantissa_bits() {
    // TF32 mantissas all ones: A = 1 + 1023/1024, B = 1 + 1023/1024.
    let x = src_fp(0, 0x3ff, 127);
    let a0 = 1.0 + 15.0 / 16.0; // implicit 1 + 4 bits
    let a1 = 31.0 / 512.0; // next five bits; the last bit is never consumed
    let b0 = 1.0 + 63.0 / 64.0; // implicit 1 + 6 bits
    let b1 = 15.0 / 1024.0; // remaining four bits
    let expect = [a0 * b0, a1 * b0, a0 * b1, a1 * b1];
    let tf32_fp32 = configs()[5].2;
    let mut total = 0f64;
    for phase in 0..4u32 {
        let mut m = Machine::new();
        m.src_a.write(0, 0, 0, x);
        m.src_b.write(0, 0, 0, x);
        m.run(
            elw_word(ELWMUL, 0, true, false, false, 0),
            regs(tf32_fp32, 0, 0, 0, phase),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let got = f32::from_bits(fp32_of(&m, 0, 0)) as f64;
        assert_eq!(got, expect[phase as usize], "phase {phase}");
        total += got;
    }
    // HiFi4 (all four phases) = the exact product with SrcA's last mantissa bit dropped.
    assert_eq!(total, (1.0 + 1022.0 / 1024.0) * (1.0 + 1023.0 / 1024.0));
}

#[test]
fn elwmul_hifi4_accumulates_phases_onto_dst() {
    // The usual HiFi4 sequence: ZEROACC'd Dst, then phases 0..3 each accumulating.
    let x = src_fp(0, 0x3ff, 127);
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, x);
    m.src_b.write(0, 0, 0, x);
    for phase in 0..4 {
        m.run(
            elw_word(ELWMUL, 0, true, false, false, 0),
            regs(configs()[5].2, 0, 0, 0, phase),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
    }
    let got = f32::from_bits(fp32_of(&m, 0, 0)) as f64;
    assert_eq!(got, (1.0 + 1022.0 / 1024.0) * (1.0 + 1023.0 / 1024.0));
}

#[test]
fn elwmul_always_accumulates_even_with_add_dst_clear() {
    let one = src_fp(0, 0, 127);
    // Dst 2.0 += 1 * 1 = 3.0, although the instruction's dest_accum_en bit is 0.
    assert_eq!(
        elw_one_fp32(ELWMUL, one, one, 0x4000_0000, false, 0),
        0x4040_0000
    );
}

fn int8(v: i32) -> u32 {
    let mag = v.unsigned_abs();
    (((v < 0) as u32) << 18) | (mag << 8) | if mag != 0 { 16 } else { 0 }
}

#[test]
fn int8_elwmul_phases_select_magnitude_bits() {
    // SrcASrcB.md integer phases: all four phases sum to a*b for |a| <= 255, |b| <= 1023.
    let int8_fmt = configs()[6].2;
    for (a, b) in [(255, 1023), (-200, 77), (31, -15), (1023, 5)] {
        let mut m = Machine::new();
        m.src_a.write(0, 0, 0, int8(a));
        m.src_b.write(0, 0, 0, int8(b));
        for phase in 0..4 {
            m.run(
                elw_word(ELWMUL, 0, true, false, false, 0),
                regs(int8_fmt, 0, 0, 0, phase),
            )
            .unwrap_or_else(|e| panic!("{e:?}"));
        }
        let d = ((m.dst.bits()[0][0] as u32) << 16) | m.dst.bits()[8][0] as u32;
        // SrcA's two most significant magnitude bits are never consumed: 1023 acts as 255.
        let a_eff = a.signum() * (a.abs() & 0xff);
        assert_eq!(ref_read_dst_int32(d), a_eff * b, "{a} * {b}");
    }
}

#[test]
fn int32_accumulation_saturates_at_plus_minus_2_pow_31_minus_1() {
    let int8_fmt = configs()[6].2;
    for (start, add, want) in [
        (i32::MAX - 1, 100, i32::MAX),
        (-i32::MAX + 3, -1000, -i32::MAX),
    ] {
        let mut m = Machine::new();
        m.src_a.write(0, 0, 0, int8(add));
        m.src_b.write(0, 0, 0, int8(0));
        m.reference.w32(0, 0, ref_write_dst_int32(start));
        m.sync_dst_from_reference();
        m.run(
            elw_word(ELWADD, 0, true, false, false, 0),
            regs(int8_fmt, 0, 0, 0, 0),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let d = ((m.dst.bits()[0][0] as u32) << 16) | m.dst.bits()[8][0] as u32;
        assert_eq!(ref_read_dst_int32(d), want);
    }
}

#[test]
fn broadcasts_take_one_srcb_row_and_or_column_0() {
    let fmt = bf16_format(true);
    let mut m = Machine::new();
    for row in 0..64 {
        for col in 0..16 {
            m.src_b
                .write(0, row, col, src_fp(0, 0, 100 + col as u32 + row as u32));
        }
    }
    // Row broadcast from SrcB row 13 (RWC SrcB 13 is not rounded down to 8 when broadcasting).
    m.run(
        elw_word(ELWADD, 0, false, true, false, 0),
        regs(fmt, 0, 13, 0, 0),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    for i in 0..8 {
        assert_eq!((fp32_of(&m, i, 5) >> 23) & 0xff, 100 + 5 + 13, "row {i}");
    }
    // Column-0 broadcast: every column of row i gets SrcB[8 + i][0] (RWC 13 & 0x38 = 8).
    m.run(
        elw_word(ELWADD, 0, false, false, true, 0),
        regs(fmt, 0, 13, 0, 0),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    for i in 0..8 {
        assert_eq!((fp32_of(&m, i, 9) >> 23) & 0xff, 100 + 8 + i, "row {i}");
    }
}

#[test]
fn retired_reports_flips_addr_mode_and_rows() {
    let mut m = Machine::new();
    let word = bhemu_isa::tensix::blackhole::Insn::Elwadd {
        clear_dvalid: 3,
        dest_accum_en: 1,
        instr_mod19: 0,
        addr_mode: 5,
        dst: 0x13,
    }
    .encode();
    let r = m
        .run(word, regs(bf16_format(false), 0, 0, 0x20, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(r.flip_src_a && r.flip_src_b);
    assert_eq!(r.addr_mode, Some(5));
    let rows = bhemu_tensix::matrix::DstRows {
        first: 0x30,
        count: 8,
        wide: false,
    };
    assert_eq!((r.dst_read, r.dst_written), (Some(rows), Some(rows)));
}
