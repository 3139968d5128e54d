//! MVMUL, DOTPV and GAPOOL against the reference: MVMUL.md's loop over rows and columns
//! (DOTPV.md and GAPOOL.md change only the row count) rewritten below as `reference_matmul`,
//! each datum's dot product from `bhemu-refmath` (docs/matrix-unit.md T2, T4, A1-A6).
mod matrix_common;

use bhemu_isa::tensix::blackhole::Insn;
use bhemu_tensix::matrix::MathFormat;
use bhemu_tensix::ErrorKind;
use matrix_common::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Mvmul,
    MvmulBroadcast,
    Dotpv,
    Gapool,
}

fn word(kind: Kind, clear_dvalid: u8, dst: u16) -> u32 {
    match kind {
        Kind::Mvmul | Kind::MvmulBroadcast => Insn::Mvmul {
            clear_dvalid,
            instr_mod19: (kind == Kind::MvmulBroadcast) as u8,
            addr_mode: 0,
            dst,
        },
        Kind::Dotpv => Insn::Dotpv {
            clear_dvalid,
            dest_accum_en: 0,
            instr_mod19: 0,
            addr_mode: 0,
            dst,
        },
        Kind::Gapool => Insn::Gapool {
            clear_dvalid,
            instr_mod19: 1, // tt-llk's DIM_16X16
            pool_addr_mode: 0,
            max_pool_index_en: 0,
            dst,
        },
    }
    .encode()
}

/// MVMUL.md's loop; the arithmetic is docs/matrix-unit.md's.
fn reference_matmul(
    m: &mut Machine,
    kind: Kind,
    style: Style,
    dst32: bool,
    rwc: (u32, u32, u32, u32),
    dst_field: u32,
) {
    let (rwc_a, rwc_b, dst_base, phase) = rwc;
    let bcast = kind == Kind::MvmulBroadcast;
    let num_rows: u32 = match kind {
        Kind::MvmulBroadcast => 7,
        Kind::Gapool => 4,
        _ => 8,
    };
    let src_a_row = rwc_a & 0x38;
    let src_b_row = rwc_b & if bcast { 0x3f } else { 0x38 };
    let dst_row = (dst_field + dst_base) & (0x400 - num_rows);
    let phase = phase & 3;
    let b_at = |m: &Machine, i: u32, k: usize| {
        m.src_b
            .read(0, (src_b_row + if bcast { 0 } else { i }) as usize, k)
    };
    let a_at = |m: &Machine, k: usize, j: usize| m.src_a.read(0, src_a_row as usize + k, j);
    let mut i = 0;
    while i < num_rows {
        for j in 0..16 {
            if style == Style::Int8 {
                let bm = if phase & 2 != 0 { 0x40fff } else { 0x7f0ff };
                let am = if phase & 1 != 0 { 0x41fff } else { 0x4e0ff };
                let mut x = 0i32;
                for k in 0..16 {
                    x += ref_read_int8(b_at(m, i, k) & bm) * ref_read_int8(a_at(m, k, j) & am);
                }
                m.reference.store_int(dst_row + i, j, x, true);
            } else {
                let a_col: [_; 16] = std::array::from_fn(|k| src_operand(style, a_at(m, k, j)));
                let b_row: [_; 16] = std::array::from_fn(|k| src_operand(style, b_at(m, i, k)));
                let old = m.reference.read_ieee(style, dst32, dst_row + i, j);
                let kind = dst_kind(style, dst32);
                let new = bhemu_refmath::dot16(&a_col, &b_row, phase, old, kind);
                m.reference.write_ieee(style, dst32, dst_row + i, j, new);
            }
        }
        i += if bcast { 2 } else { 1 };
    }
}

/// At least 102,400 results per (instruction, format) in release builds.
fn random_rounds(kinds: &[Kind], seed: u64) {
    let target = ROUNDS * 128;
    let mut r = Rng(seed);
    for (style, dst32, format) in configs() {
        let mut m = Machine::new();
        let mut results = 0;
        let mut round = 0;
        while results < target {
            if round % 100 == 0 {
                m.fill_src(&mut r, style);
                m.fill_dst(&mut r, style, dst32);
            }
            let kind = kinds[r.below(kinds.len() as u64) as usize];
            let rwc = (
                r.below(49) as u32,
                r.below(64) as u32,
                r.below(1024) as u32,
                r.below(8) as u32,
            );
            let dst_field = r.below(0x4000) as u32;
            let w = word(kind, 0, dst_field as u16);
            if let Err(e) = m.run(w, regs(format, rwc.0, rwc.1, rwc.2, rwc.3)) {
                panic!("{kind:?} {style:?}: {e:?}");
            }
            reference_matmul(&mut m, kind, style, dst32, rwc, dst_field);
            m.assert_dst_matches(&format!(
                "{kind:?} {style:?} dst32={dst32} round {round} rwc {rwc:?} dst {dst_field:#x}"
            ));
            results += match kind {
                Kind::MvmulBroadcast => 64,
                Kind::Gapool => 64,
                _ => 128,
            };
            round += 1;
        }
    }
}

#[test]
fn mvmul_matches_reference_in_every_format_and_fidelity_phase() {
    random_rounds(&[Kind::Mvmul], 0x003a_73a7_0001);
}

#[test]
fn mvmul_broadcast_matches_reference() {
    random_rounds(&[Kind::MvmulBroadcast], 0x003a_73a7_0002);
}

#[test]
fn dotpv_matches_reference() {
    random_rounds(&[Kind::Dotpv], 0x003a_73a7_0003);
}

#[test]
fn gapool_matches_reference() {
    random_rounds(&[Kind::Gapool], 0x003a_73a7_0004);
}

// ---- documented rules and edge cases ----

fn fp32_at(m: &Machine, row: u32, col: usize) -> f32 {
    let a = RefDst::adj32(row);
    f32::from_bits(dst32_to_ieee(
        ((m.dst.bits()[a][col] as u32) << 16) | m.dst.bits()[a + 8][col] as u32,
    ))
}

fn bf16_fp32() -> MathFormat {
    configs()[1].2
}

fn run(m: &mut Machine, w: u32, format: MathFormat, rwc_a: u32, rwc_b: u32, phase: u32) {
    if let Err(e) = m.run(w, regs(format, rwc_a, rwc_b, 0, phase)) {
        panic!("{e:?}");
    }
}

#[test]
fn mvmul_sums_two_groups_of_eight_each_aligned_to_its_own_top() {
    // SrcB row 0 = [2^24, 1, 1, ..., 1], SrcA column 0 = all 1 (T4). Group k = 0..7: 2^24 is
    // 1024 at 151, the seven 1.0 are 24 places below: (2048 + 2^24) >> 25 = 0; the group is
    // 1024 << 13 at 151. Group k = 8..15: 8 x 1024 = 2^13, term 2^26 at 127. A2: 24 places
    // below 151, (2^26 + 2^23) >> 24 = 4. Sum 2^23 + 4: mantissa 4, 2^24 + 8.
    let mut m = Machine::new();
    m.src_b.write(0, 0, 0, src_fp(0, 0, 127 + 24));
    for k in 1..16 {
        m.src_b.write(0, 0, k, src_fp(0, 0, 127));
    }
    for k in 0..16 {
        m.src_a.write(0, k, 0, src_fp(0, 0, 127));
    }
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 0);
    assert_eq!(fp32_at(&m, 0, 0), 16_777_224.0);
    // Column 1 of SrcA is zero: 0 products.
    assert_eq!(fp32_at(&m, 0, 1).to_bits(), 0);
}

#[test]
fn mvmul_lofi_uses_five_bits_of_srca_and_seven_of_srcb() {
    // BF16 1.9921875 (all seven mantissa bits set) squared, phase 0 only.
    let x = src_fp(0, 0x3f8, 127);
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, x);
    m.src_b.write(0, 0, 0, x);
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 0);
    assert_eq!(
        fp32_at(&m, 0, 0) as f64,
        (1.0 + 15.0 / 16.0) * (1.0 + 63.0 / 64.0)
    );
    // HiFi2 adds phase 1: SrcA's remaining three bits.
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 1);
    assert_eq!(
        fp32_at(&m, 0, 0) as f64,
        (1.0 + 127.0 / 128.0) * (1.0 + 63.0 / 64.0)
    );
    // HiFi4: phases 2 and 3 add SrcB's last bit; the product is then exact.
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 2);
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 3);
    assert_eq!(
        fp32_at(&m, 0, 0) as f64,
        (1.0 + 127.0 / 128.0) * (1.0 + 127.0 / 128.0)
    );
}

#[test]
fn mvmul_fidelity_phase_is_rwc_plus_base_modulo_4() {
    let x = src_fp(0, 0x3f8, 127);
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, x);
    m.src_b.write(0, 0, 0, x);
    // 5 & 3 = 1: SrcA's low three bits times SrcB's top seven.
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 5);
    assert_eq!(
        fp32_at(&m, 0, 0) as f64,
        (7.0 / 128.0) * (1.0 + 63.0 / 64.0)
    );
}

#[test]
fn bf16_dst_rounds_each_accumulation_while_fp32_dst_keeps_it() {
    // 1 + 2^-9 accumulated: BF16 Dst (7 mantissa bits) loses it, FP32 Dst keeps it.
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, src_fp(0, 0, 127)); // 1.0
    m.src_b.write(0, 0, 0, src_fp(0, 0, 127 - 9)); // 2^-9
    m.reference.w16(0, 0, 127); // Dst16b BF16 1.0
    m.sync_dst_from_reference();
    run(&mut m, word(Kind::Mvmul, 0, 0), configs()[0].2, 0, 0, 0);
    assert_eq!(m.dst.bits()[0][0], 127);
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, src_fp(0, 0, 127));
    m.src_b.write(0, 0, 0, src_fp(0, 0, 127 - 9));
    m.reference.w32(0, 0, ieee_to_dst32(1.0f32.to_bits()));
    m.sync_dst_from_reference();
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 0);
    assert_eq!(fp32_at(&m, 0, 0), 1.0 + 1.0 / 512.0);
}

#[test]
fn mvmul_broadcast_writes_rows_0_2_4_6_of_a_7_row_block() {
    let mut m = Machine::new();
    let fmt = bf16_fp32();
    for k in 0..16 {
        m.src_a.write(0, k, 3, src_fp(0, 0, 127));
        m.src_b.write(0, 13, k, src_fp(0, 0, 127)); // the broadcast row: RWC SrcB 13, not rounded
    }
    // DstRow 15 & (0x400 - 7) = 9: rows 9, 11, 13, 15 get 16.0; rows 10, 12, 14 untouched.
    run(&mut m, word(Kind::MvmulBroadcast, 0, 15), fmt, 0, 13, 0);
    for row in 8..17 {
        let want = if [9, 11, 13, 15].contains(&row) {
            16.0
        } else {
            0.0
        };
        assert_eq!(fp32_at(&m, row, 3), want, "row {row}");
    }
}

#[test]
fn gapool_writes_four_rows_aligned_to_four_from_the_top_of_an_8_row_srcb_block() {
    let mut m = Machine::new();
    for k in 0..16 {
        m.src_a.write(0, k, 0, src_fp(0, 0, 127));
        for i in 0..8 {
            m.src_b.write(0, 8 + i, k, src_fp(0, 0, 127 + i as u32));
        }
    }
    // DstRow 14 & 0x3fc = 12; SrcB rows 8..11 (RWC 13 & 0x38 = 8).
    run(&mut m, word(Kind::Gapool, 0, 14), bf16_fp32(), 0, 13, 0);
    for i in 0..4u32 {
        assert_eq!(fp32_at(&m, 12 + i, 0), 16.0 * (1u32 << i) as f32);
    }
    assert_eq!(fp32_at(&m, 16, 0), 0.0);
    assert_eq!(fp32_at(&m, 11, 0), 0.0);
}

#[test]
fn int8_mvmul_all_four_phases_give_the_exact_dot_product() {
    let fmt = configs()[6].2;
    let mut m = Machine::new();
    let int8 = |v: i32| {
        let mag = v.unsigned_abs();
        (((v < 0) as u32) << 18) | (mag << 8) | if mag != 0 { 16 } else { 0 }
    };
    let mut want = 0i64;
    for k in 0..16 {
        let (a, b) = (
            255 - 17 * k as i32,
            if k % 2 == 0 {
                1023 - k as i32
            } else {
                -(k as i32) * 60
            },
        );
        m.src_a.write(0, k, 0, int8(a));
        m.src_b.write(0, 0, k, int8(b));
        want += a as i64 * b as i64;
    }
    for phase in 0..4 {
        run(&mut m, word(Kind::Mvmul, 0, 0), fmt, 0, 0, phase);
    }
    let d = ((m.dst.bits()[0][0] as u32) << 16) | m.dst.bits()[8][0] as u32;
    assert_eq!(ref_read_dst_int32(d) as i64, want);
}

fn expect_error(m: &mut Machine, w: u32, format: MathFormat, rwc_a: u32, kind: ErrorKind) {
    match m.run(w, regs(format, rwc_a, 0, 0, 0)) {
        Ok(r) => panic!("expected {kind:?}, got {r:?}"),
        Err(e) => {
            assert_eq!(e.kind, kind, "{e:?}");
            assert_eq!(
                (e.thread, e.word, e.cycle),
                (Some(1), Some(w), 100),
                "{e:?}"
            );
        }
    }
}

#[test]
fn srca_rows_past_63_are_undefined() {
    // RWC SrcA 56: rows 56..71 do not exist.
    expect_error(
        &mut Machine::new(),
        word(Kind::Mvmul, 0, 0),
        bf16_fp32(),
        56,
        ErrorKind::Undefined,
    );
}

#[test]
fn undocumented_modifier_bits_are_undefined() {
    let w = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 2,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    expect_error(&mut Machine::new(), w, bf16_fp32(), 0, ErrorKind::Undefined);
    let w = Insn::Gapool {
        clear_dvalid: 0,
        instr_mod19: 0,
        pool_addr_mode: 0,
        max_pool_index_en: 1,
        dst: 0,
    }
    .encode();
    expect_error(&mut Machine::new(), w, bf16_fp32(), 0, ErrorKind::Undefined);
}

#[test]
fn unassigned_srca_format_codes_12_and_13_are_undefined() {
    let f = MathFormat {
        src_a_format: 12,
        ..MathFormat::default()
    };
    expect_error(
        &mut Machine::new(),
        word(Kind::Mvmul, 0, 0),
        f,
        0,
        ErrorKind::Undefined,
    );
}

#[test]
fn mpool3s1_is_reported_not_guessed() {
    let w = Insn::Mpool3s1 {
        clear_dvalid: 0,
        pool_addr_mode: 0,
        index_en: 0,
        dst: 0,
    }
    .encode();
    expect_error(&mut Machine::new(), w, bf16_fp32(), 0, ErrorKind::Undefined);
}

#[test]
fn non_matrix_instruction_is_invalid() {
    let w = Insn::Nop.encode();
    expect_error(&mut Machine::new(), w, bf16_fp32(), 0, ErrorKind::Invalid);
}

#[test]
fn legacy_conv3s1_computes_dst_plus_zero() {
    let mut m = Machine::new();
    let mut r = Rng(7);
    m.fill_dst(&mut r, Style::Bf16, false);
    let w = Insn::Conv3s1 {
        clear_dvalid: 1,
        rotate_weights: 0,
        addr_mode: 2,
        dst: 0,
    }
    .encode();
    let ret = m
        .run(w, regs(bf16_fp32(), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.assert_dst_matches("CONV3S1");
    assert!(ret.flip_src_a && !ret.flip_src_b);
    assert_eq!(ret.addr_mode, Some(2));
}

#[test]
fn clrexphist_asks_the_dispatcher_to_reset_the_packer_histograms() {
    let ret = Machine::new()
        .run(Insn::Clrexphist.encode(), regs(bf16_fp32(), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(ret.clear_exp_hist);
    assert_eq!(ret.dst_written, None);
}

#[test]
fn mvmul_exponent_255_products_stay_finite_inside_the_adder_chain() {
    // FloatBitPatterns.md: exponent 255 is a finite 2^128-ish value to the FPU. SrcB row 0 =
    // [2^128, -2^128], SrcA column 0 = [3, 3]: 3*2^128 - 3*2^128 = 0, no NaN.
    let mut m = Machine::new();
    m.src_b.write(0, 0, 0, src_fp(0, 0, 255));
    m.src_b.write(0, 0, 1, src_fp(1, 0, 255));
    for k in 0..2 {
        m.src_a.write(0, k, 0, src_fp(0, 0x200, 128));
    }
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 0);
    assert_eq!(fp32_at(&m, 0, 0).to_bits(), 0);
}

#[test]
fn mvmul_results_too_large_are_written_as_exponent_255_mantissa_0() {
    let mut m = Machine::new();
    m.src_b.write(0, 0, 0, src_fp(1, 0, 200));
    m.src_a.write(0, 0, 0, src_fp(0, 0, 200)); // -(2^73 * 2^73) = -2^146
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 0);
    assert_eq!(fp32_at(&m, 0, 0).to_bits(), 0xff80_0000);
    // In BF16 Dst too: sign, mantissa 0, exponent 255.
    let mut m = Machine::new();
    m.src_b.write(0, 0, 0, src_fp(1, 0, 200));
    m.src_a.write(0, 0, 0, src_fp(0, 0, 200));
    run(&mut m, word(Kind::Mvmul, 0, 0), configs()[0].2, 0, 0, 0);
    assert_eq!(m.dst.bits()[0][0], 0x80ff);
}

#[test]
fn mvmul_products_at_exponent_0_or_below_add_nothing() {
    // 2^-70 * 2^-70 is at 57 + 57 - 127 = -13: the zero term (T2), so 1.0 in Dst stays 1.0.
    let mut m = Machine::new();
    m.src_b.write(0, 0, 0, src_fp(0, 0, 127 - 70));
    m.src_a.write(0, 0, 0, src_fp(0, 0, 127 - 70));
    m.reference.w32(0, 0, ieee_to_dst32(1.0f32.to_bits()));
    m.sync_dst_from_reference();
    run(&mut m, word(Kind::Mvmul, 0, 0), bf16_fp32(), 0, 0, 0);
    assert_eq!(fp32_at(&m, 0, 0), 1.0);
}

#[test]
fn wormhole_words_decode_to_the_same_operations() {
    use bhemu_isa::tensix::wormhole::Insn as W;
    use bhemu_isa::tensix::Arch;
    use bhemu_tensix::matrix::MatrixOp;
    let w = W::Elwadd {
        clear_dvalid: 2,
        dest_accum_en: 1,
        instr_mod19: 3,
        addr_mode: 1,
        dst: 24,
    }
    .encode();
    match MatrixOp::decode(Arch::WormholeB0, w) {
        Some(MatrixOp::Elwadd(e)) => {
            assert!(!e.flip_a && e.flip_b && e.add_dst && e.broadcast_row && e.broadcast_col0);
            assert_eq!((e.addr_mode, e.dst), (1, 24));
        }
        other => panic!("{other:?}"),
    }
    let w = W::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 1,
        addr_mode: 0,
        dst: 8,
    }
    .encode();
    assert!(
        matches!(MatrixOp::decode(Arch::WormholeB0, w), Some(MatrixOp::Mvmul(m)) if m.broadcast_row && m.dst == 8)
    );
}
