//! The data-movement instructions (MOVA2D, MOVB2D, MOVD2A / MOVD2B, ZEROSRC, ZEROACC,
//! TRNSPSRCB, SHIFTXB) and Vector Unit instructions through the coprocessor, one test per
//! documented behaviour, against values worked out from each instruction's page.
mod units_common;
use bhemu_tensix::state::cfg_fields as f;
use bhemu_tensix::state::TensixState;
use units_common::*;

#[test]
fn mova2d_moves_eight_rows_of_srca_to_dst_at_rwc_offsets() {
    // The Matrix Unit needs the SrcA bank: SETDVALID hands it over.
    let s = ok(
        1,
        |s| {
            math_banks(s);
            for r in 0..16 {
                for c in 0..16 {
                    s.src_a
                        .write(0, r, c, src_bf16(0x3f80 + (r * 16 + c) as u16));
                }
            }
            s.rwcs[1].src_a = 8;
            s.rwcs[1].dst = 32;
        },
        &["ttsetdvalid 1", "ttmova2d 0, 0, 0, 2, 0"],
    );
    for r in 0..8u32 {
        for c in 0..16 {
            let b = 0x3f80 + ((8 + r) * 16 + c as u32) as u16;
            assert_eq!(
                s.dst.read16(32 + r, c, PLAIN),
                dst_bf16(b),
                "row {r} col {c}"
            );
        }
    }
    assert_eq!(s.dst.read16(31, 0, PLAIN), 0);
    assert_eq!(s.dst.read16(40, 0, PLAIN), 0);
}

#[test]
fn mova2d_flushes_src_values_with_zero_exponent() {
    let s = ok(
        1,
        |s| {
            math_banks(s);
            s.src_a.write(0, 0, 0, src_bf16(0x0001)); // BF16 denormal
            s.src_a.write(0, 0, 1, src_bf16(0x8000 | 0x0040));
            s.src_a.write(0, 0, 2, src_bf16(0x0080)); // smallest normal
        },
        &["ttsetdvalid 1", "ttmova2d 0, 0, 0, 0, 0"],
    );
    assert_eq!(s.dst.read16(0, 0, PLAIN), 0);
    assert_eq!(s.dst.read16(0, 1, PLAIN), 0, "sign dropped too");
    assert_eq!(s.dst.read16(0, 2, PLAIN), dst_bf16(0x0080));
}

/// One MOVA2D of SrcA bank 0 (configured BF16, unpacked as FP16) holding the FP16 datum
/// 0x3c07 in row 0 column 0 (Src FP16 layout: sign 18, mantissa 17..8, exponent 4..0).
fn mova2d_of_an_fp16_bank(disable_implied: bool) -> u16 {
    let s = ok(
        1,
        |s| {
            math_banks(s);
            if disable_implied {
                s.cfg.set(1, f::DISABLE_IMPLIED_SRCA_FMT_Base, 1);
            }
            s.src_a.write(0, 0, 0, (7 << 8) | 15);
            s.src_a.set_format(0, 1); // FP16
        },
        &["ttsetdvalid 1", "ttmova2d 0, 0, 0, 0, 0"],
    );
    s.dst.read16(0, 0, PLAIN)
}

#[test]
fn mova2d_uses_the_format_the_bank_was_unpacked_with() {
    // FP16 layout in Dst16b: sign 15, mantissa 14..5, exponent 4..0: (7 << 5) | 15.
    assert_eq!(mova2d_of_an_fp16_bank(false), 0x00ef);
    // With the implied format disabled the configured BF16 applies: the Src BF16 mantissa
    // (bits 17..11) is 0 and the exponent byte 0x0f is kept.
    assert_eq!(mova2d_of_an_fp16_bank(true), 0x000f);
}

#[test]
fn movb2d_broadcasts_one_row_to_eight_and_column_0_to_all() {
    let s = run_math(
        |s| {
            math_banks(s);
            for c in 0..16 {
                s.src_b.write(0, 3, c, src_bf16(0x4000 + c as u16));
            }
        },
        // instr_mod 3: Broadcast1RowTo8 | BroadcastCol0; SrcRow 3.
        &["ttmovb2d 0, 3, 0, 3, 0"],
    );
    for r in 0..8 {
        for c in 0..16 {
            assert_eq!(
                s.dst.read16(r, c, PLAIN),
                dst_bf16(0x4000),
                "row {r} col {c}"
            );
        }
    }
}

#[test]
fn movd2a_and_movd2b_bring_dst16_bf16_back_into_src() {
    let s = run_math(
        |s| {
            math_banks(s);
            for r in 0..4u32 {
                for c in 0..16 {
                    s.dst
                        .write16(r, c, dst_bf16(0xc000 | (r * 16 + c as u32) as u16), PLAIN);
                }
            }
        },
        &["ttmovd2a 0, 4, 0, 2, 0", "ttmovd2b 0, 8, 0, 2, 0"],
    );
    for r in 0..4usize {
        for c in 0..16 {
            let b = 0xc000 | (r * 16 + c) as u16;
            assert_eq!(s.src_a.read(0, 4 + r, c), src_bf16(b));
            assert_eq!(s.src_b.read(0, 8 + r, c), src_bf16(b));
        }
    }
}

#[test]
fn movd2a_from_dst32_as_tf32_keeps_ten_mantissa_bits() {
    // 1 + 2^-1 + 2^-10 + 2^-11: the 2^-11 bit is beyond TF32 and is dropped.
    let x: u32 = 0x3fc0_0000 | (1 << 13) | (1 << 12);
    let s = run_math(
        |s| {
            s.cfg.set(0, f::ALU_FORMAT_SPEC_REG0_SrcA, 4); // TF32
            s.cfg.set(0, f::ALU_ACC_CTRL_Fp32_enabled, 1);
            // Dst32b FP32 layout: Sign 31, ManHi 30..24, Exp 23..16, ManLo 15..0.
            let d = (((x >> 16) & 0x7f) << 24) | (((x >> 23) & 0xff) << 16) | (x & 0xffff);
            s.dst.write32(0, 0, d, PLAIN);
        },
        &["ttmovd2a 0, 0, 0, 0, 0"],
    );
    // Src TF32: Sign 18, Man(10) 17..8, Exp 7..0; mantissa = top 10 bits of x's 23.
    let man10 = (x >> 13) & 0x3ff;
    assert_eq!(s.src_a.read(0, 0, 0), (man10 << 8) | 127);
}

/// One MOVD2B of Dst32 row 0 into SrcB bank 0, which the unpacker filled as TF32 while the
/// configured SrcA format is BF16 (tt-llk's reduce of Float32 data configures it so).
fn movd2b_into_a_tf32_bank(disable_implied: bool, x: u32) -> u32 {
    let s = run_math(
        |s| {
            math_banks(s);
            s.cfg.set(0, f::ALU_FORMAT_SPEC_REG0_SrcA, 5); // BF16
            s.cfg.set(0, f::ALU_ACC_CTRL_Fp32_enabled, 1);
            if disable_implied {
                s.cfg.set(1, f::DISABLE_IMPLIED_SRCA_FMT_Base, 1);
            }
            s.src_b.set_format(0, 4); // TF32
            let d = (((x >> 16) & 0x7f) << 24) | (((x >> 23) & 0xff) << 16) | (x & 0xffff);
            s.dst.write32(0, 0, d, PLAIN);
        },
        &["ttmovd2b 0, 0, 0, 0, 0"],
    );
    s.src_b.read(0, 0, 0)
}

#[test]
fn movd2b_uses_the_format_the_srcb_bank_was_unpacked_with() {
    // 1.0546875 + 2^-9: the 2^-9 bit (mantissa bit 14) is kept by TF32, dropped by BF16.
    let x: u32 = 0x3f87_0000 | (1 << 14);
    let man10 = (x >> 13) & 0x3ff;
    assert_eq!(movd2b_into_a_tf32_bank(false, x), (man10 << 8) | 127);
    // Disabled: the configured BF16: Src BF16 layout, mantissa 17..11, exponent 7..0.
    let man7 = (x >> 16) & 0x7f;
    assert_eq!(movd2b_into_a_tf32_bank(true, x), (man7 << 11) | 127);
}

#[test]
fn zerosrc_clears_both_banks_or_fills_srca_with_ones() {
    let s = ok(
        0,
        |s| {
            s.src_a.write(0, 5, 5, 0x1234);
            s.src_a.write(1, 5, 5, 0x1234);
            s.src_b.write(1, 6, 6, 0x4321);
        },
        &["ttzerosrc 0, 0, 1, 3"],
    );
    assert_eq!(s.src_a.read(0, 5, 5), 0);
    assert_eq!(s.src_a.read(1, 5, 5), 0);
    assert_eq!(s.src_b.read(1, 6, 6), 0);
    let s = ok(0, |_| {}, &["ttzerosrc 1, 0, 0, 1"]);
    // Unpacker bank 0 of SrcA set to all ones (negative infinity); bank 1 untouched.
    assert_eq!(s.src_a.read(0, 63, 15), 0x7ffff);
    assert_eq!(s.src_a.read(1, 0, 0), 0);
}

#[test]
fn zeroacc_clears_one_row_sixteen_rows_half_or_all() {
    let fill = |s: &mut TensixState| {
        for r in s.dst.bits_mut().iter_mut() {
            *r = [0xffff; 16];
        }
    };
    // One row: row 5 + RWC Dst 2 = 7.
    let s = ok(
        1,
        |s| {
            fill(s);
            s.rwcs[1].dst = 2;
        },
        &["ttzeroacc 0, 0, 0, 0, 5"],
    );
    assert_eq!(s.dst.bits()[7], [0; 16]);
    assert_eq!(s.dst.bits()[6], [0xffff; 16]);
    // Sixteen rows: block 2 = rows 32..47.
    let s = ok(1, fill, &["ttzeroacc 1, 0, 0, 0, 2"]);
    assert!(s.dst.bits()[32..48].iter().all(|r| *r == [0; 16]));
    assert_eq!(s.dst.bits()[31], [0xffff; 16]);
    assert_eq!(s.dst.bits()[48], [0xffff; 16]);
    // High half.
    let s = ok(1, fill, &["ttzeroacc 2, 0, 0, 0, 1"]);
    assert!(s.dst.bits()[512..].iter().all(|r| *r == [0; 16]));
    assert_eq!(s.dst.bits()[511], [0xffff; 16]);
    // All.
    let s = ok(1, fill, &["ttzeroacc 3, 0, 0, 0, 0"]);
    assert!(s.dst.bits().iter().all(|r| *r == [0; 16]));
}

#[test]
fn vector_unit_instructions_compute_into_lregs_and_dst() {
    // SFPLOADI.md: MOD0_FLOATB puts BF16 0x4040 (3.0) in LReg1 as FP32 0x40400000;
    // SFPMUL.md: LReg2 = LReg1 * LReg1 + 0 (LReg9 is 0.0) = 9.0; SFPSTORE.md with
    // MOD0_FMT_FP32 at Addr 4 writes the even columns of Dst32b rows 4..7, the high half in
    // Dst's arrangement (sign, mantissa, exponent; Dst.md) and the low half as is.
    let cp = match run_on(
        0,
        |_| {},
        &[
            "ttsfploadi 1, 0, 0x4040",
            "ttsfpmul 1, 1, 9, 2, 0",
            "ttsfpstore 2, 3, 0, 4",
        ],
    ) {
        Ok(cp) => cp,
        Err(e) => panic!("{e}"),
    };
    assert!(cp.warnings().is_empty(), "{:?}", cp.warnings());
    let s = cp.state();
    assert_eq!(s.sfpu.state.lreg[1], [0x4040_0000; 32]);
    assert_eq!(s.sfpu.state.lreg[2], [0x4110_0000; 32]); // 9.0
    let nine = 0x4110_0000u32;
    let hi = nine >> 16; // 0x4110: sign 0, exponent 0x82, mantissa 0x10
    let dst_hi = (hi & 0x8000) | ((hi & 0x7f) << 8) | ((hi >> 7) & 0xff);
    for row in 4..8 {
        for col in 0..16 {
            let want = if col % 2 == 0 { dst_hi << 16 } else { 0 };
            assert_eq!(s.dst.read32(row, col, PLAIN), want, "row {row} col {col}");
        }
    }
    assert_eq!(s.dst.read32(0, 0, PLAIN), 0);
}

#[test]
fn trnspsrcb_transposes_rows_16_to_31() {
    let s = run_math(
        |s| {
            for r in 0..64usize {
                for c in 0..16 {
                    s.src_b.write(0, r, c, (r * 16 + c) as u32);
                }
            }
        },
        &["tttrnspsrcb"],
    );
    for i in 0..16usize {
        for j in 0..16 {
            assert_eq!(s.src_b.read(0, 16 + i, j), ((16 + j) * 16 + i) as u32);
        }
    }
    assert_eq!(
        s.src_b.read(0, 15, 3),
        15 * 16 + 3,
        "rows outside 16..31 untouched"
    );
}

#[test]
fn shiftxb_rotates_a_srcb_row_left_shifting_in_zero_or_column_0() {
    let fill = |s: &mut TensixState| {
        for c in 0..16 {
            s.src_b.write(0, 3, c, 100 + c as u32);
        }
    };
    let s = run_math(fill, &["ttshiftxb 0, 1, 3"]);
    let row: Vec<u32> = (0..16).map(|c| s.src_b.read(0, 3, c)).collect();
    let want: Vec<u32> = (1..16).map(|c| 100 + c).chain([0]).collect();
    assert_eq!(row, want);
    let s = run_math(fill, &["ttshiftxb 0, 0, 3"]);
    assert_eq!(s.src_b.read(0, 3, 15), 100);
}

#[test]
fn sfppopc_on_an_empty_flag_stack_is_undefined_naming_thread_word_and_cycle() {
    // SFPPOPC.md: popping an empty stack is undefined behaviour.
    let e = undefined(2, |_| {}, &["ttsfppopc 0, 0, 0, 0"]);
    assert_eq!(e.thread, Some(2));
    assert_eq!(e.word, Some(w("ttsfppopc 0, 0, 0, 0")));
    assert!(
        e.message.contains("SFPPOPC") && e.message.contains("empty flag stack"),
        "{e}"
    );
    assert!(e.cycle > 0, "{e}");
}

#[test]
fn sfpnop_executes_in_the_vector_unit_and_changes_no_lreg() {
    // SFPNOP.md: no effect; the unit still counts it as executed.
    let s = ok(0, |_| {}, &["ttsfpnop", "ttsfpnop"]);
    assert_eq!(s.sfpu.state.lreg[0], [0; 32]);
    assert_eq!(s.sfpu.executed(), 2);
}

#[test]
fn src_to_dst_moves_make_the_rows_they_write_defined() {
    // ZEROACC.md: ZEROACC leaves rows undefined (GMPOOL reads them as minus infinity) until
    // something writes them. MOVA2D's eight rows (Dst 0..7) and MOVB2D's four (Dst 16..19) are
    // such writes; the rows around them stay undefined.
    let s = ok(
        1,
        |s| {
            math_banks(s);
            s.src_a.write(0, 0, 0, src_bf16(0x3f80));
            s.src_b.write(0, 0, 0, src_bf16(0x4000));
        },
        &[
            "ttsetdvalid 3",
            "ttzeroacc 3, 0, 0, 0, 0",
            "ttmova2d 0, 0, 0, 2, 0",
            "ttmovb2d 0, 0, 0, 4, 16",
        ],
    );
    let und = &s.matrix.undefined;
    for r in (0..8).chain(16..20) {
        assert!(!und.is_undefined(r), "row {r} was written");
    }
    for r in [8, 15, 20, 100] {
        assert!(und.is_undefined(r), "row {r} was not written");
    }
    assert_eq!(s.dst.read16(0, 0, PLAIN), dst_bf16(0x3f80));
    assert_eq!(s.dst.read16(16, 0, PLAIN), dst_bf16(0x4000));
}
