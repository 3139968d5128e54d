//! One test per documented behaviour of the instructions whose data effects bhemu models,
//! named after the rule. Each runs real instruction words through the coprocessor (so the
//! generated visitor, the Wait Gate and the unit function are all on the path) and checks the
//! resulting state against values worked out here from the instruction's page.
use bhemu_isa::tensix::assemble;
use bhemu_tensix::state::cfg_fields as f;
use bhemu_tensix::state::{DestAccessCfg, TensixState};
use bhemu_tensix::{Arch, Coprocessor, ErrorKind, FlatL1, PushSource, Pushed, TensixError};

const PLAIN: DestAccessCfg = DestAccessCfg {
    remap_addrs: false,
    swizzle_32b: false,
};

fn w(line: &str) -> u32 {
    assemble(Arch::Blackhole, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Runs `lines` on thread `t` (in order) after `setup`, until everything is idle.
fn run_on(
    t: usize,
    setup: impl FnOnce(&mut TensixState),
    lines: &[&str],
) -> Result<Coprocessor, TensixError> {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    setup(cp.state_mut());
    let mut l1 = FlatL1::blackhole();
    let words: Vec<u32> = lines.iter().map(|l| w(l)).collect();
    let mut next = 0;
    for cycle in 0..10_000u64 {
        if next < words.len() {
            if let Pushed::Accepted = cp.push(t, PushSource::Trisc, words[next])? {
                next += 1;
            }
        } else if cp.all_idle() {
            return Ok(cp);
        }
        cp.step_with(cycle, &mut l1)?;
    }
    panic!("did not finish");
}

fn ok(t: usize, setup: impl FnOnce(&mut TensixState), lines: &[&str]) -> TensixState {
    match run_on(t, setup, lines) {
        Ok(cp) => cp.state().clone(),
        Err(e) => panic!("{e}"),
    }
}

fn undefined(t: usize, setup: impl FnOnce(&mut TensixState), lines: &[&str]) -> TensixError {
    match run_on(t, setup, lines) {
        Ok(_) => panic!("expected undefined behaviour"),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::Undefined, "{e}");
            e
        }
    }
}

// ---- Configuration Unit (SETC16.md, WRCFG.md, RDCFG.md, RMWCIB.md) ----

#[test]
fn setc16_writes_thread_config_of_the_issuing_thread() {
    let s = ok(1, |_| {}, &["ttsetc16 5, 0x1234"]);
    assert_eq!(s.cfg.thread_word(1, 5), Some(0x1234));
    assert_eq!(s.cfg.thread_word(0, 5), Some(0));
}

#[test]
fn setc16_index_at_or_above_thd_state_size_is_undefined() {
    let e = undefined(0, |_| {}, &["ttsetc16 68, 1"]);
    assert_eq!(e.thread, Some(0));
    assert_eq!(e.word, Some(w("ttsetc16 68, 1")));
}

#[test]
fn wrcfg_copies_a_gpr_into_the_threads_config_state() {
    let s = ok(
        2,
        |s| {
            s.gprs[2][7] = 0xdead_beef;
            s.cfg.write_thread_word(2, 0, 1); // CFG_STATE_ID_StateID = 1
        },
        &["ttwrcfg 7, 0, 20"],
    );
    assert_eq!(s.cfg.word(1, 20), Some(0xdead_beef));
    assert_eq!(s.cfg.word(0, 20), Some(0));
}

#[test]
fn wrcfg_128_bit_copies_four_aligned_gprs_to_four_aligned_words() {
    let s = ok(
        0,
        |s| {
            for k in 0..4 {
                s.gprs[0][8 + k] = 0x100 + k as u32;
            }
        },
        &["ttwrcfg 9, 1, 22"],
    );
    for k in 0..4 {
        assert_eq!(s.cfg.word(0, 20 + k), Some(0x100 + k as u32));
    }
}

#[test]
fn wrcfg_to_a_global_word_writes_both_states() {
    let s = ok(0, |s| s.gprs[0][1] = 42, &["ttwrcfg 1, 0, 200"]);
    assert_eq!(s.cfg.word(0, 200), Some(42));
    assert_eq!(s.cfg.word(1, 200), Some(42));
}

#[test]
fn wrcfg_index_at_or_above_cfg_state_size_times_4_is_undefined() {
    undefined(0, |_| {}, &["ttwrcfg 1, 0, 224"]);
}

#[test]
fn rdcfg_reads_a_config_word_into_a_gpr() {
    let s = ok(
        1,
        |s| {
            s.cfg.write_word(0, 180, 0x5a5a);
        },
        &["ttrdcfg 7, 180"],
    );
    assert_eq!(s.gprs[1][7], 0x5a5a);
}

#[test]
fn rmwcib_replaces_the_masked_bits_of_one_byte() {
    // RMWCIB1 on word 20: byte 1; (0xab & 0xf0) | (0x34 & 0x0f) = 0xa4.
    let s = ok(
        0,
        |s| {
            s.cfg.write_word(0, 20, 0x1234_3456);
        },
        &["ttrmwcib1 0xf0, 0xab, 20"],
    );
    assert_eq!(s.cfg.word(0, 20), Some(0x1234_a456));
}

// ---- Scalar Unit (SETDMAREG_Immediate.md, ADDDMAREG.md ...) ----

#[test]
fn setdmareg_writes_one_16_bit_half_of_a_gpr() {
    // Half-register 9 is the high half of GPR 4; NewValue 0xbeef is split by the encoding
    // into its top two bits (Payload_SigSelSize) and low 14 (Payload_SigSel).
    let s = ok(
        0,
        |s| s.gprs[0][4] = 0x1111_2222,
        &["ttsetdmareg 2, 0x3eef, 0, 9"],
    );
    assert_eq!(s.gprs[0][4], 0xbeef_2222);
}

#[test]
fn adddmareg_adds_a_register_or_a_6_bit_immediate() {
    let s = ok(
        0,
        |s| {
            s.gprs[0][2] = 0xffff_fffe;
            s.gprs[0][5] = 3;
        },
        &["ttadddmareg 0, 3, 5, 2", "ttadddmareg 1, 4, 63, 2"],
    );
    assert_eq!(s.gprs[0][3], 1, "wraps");
    assert_eq!(s.gprs[0][4], 0x3d);
}

#[test]
fn subdmareg_subtracts_and_wraps() {
    let s = ok(0, |s| s.gprs[0][2] = 1, &["ttsubdmareg 1, 3, 2, 2"]);
    assert_eq!(s.gprs[0][3], 0xffff_ffff);
}

#[test]
fn muldmareg_multiplies_the_low_16_bits() {
    let s = ok(
        0,
        |s| {
            s.gprs[0][2] = 0x1_0003;
            s.gprs[0][5] = 0x2_0004;
        },
        &["ttmuldmareg 0, 3, 5, 2"],
    );
    assert_eq!(s.gprs[0][3], 12);
}

#[test]
fn bitwopdmareg_and_or_xor_and_undefined_modes() {
    let s = ok(
        0,
        |s| {
            s.gprs[0][2] = 0b1100;
            s.gprs[0][5] = 0b1010;
        },
        &[
            "ttbitwopdmareg 0, 0, 3, 5, 2",
            "ttbitwopdmareg 0, 1, 4, 5, 2",
            "ttbitwopdmareg 0, 2, 6, 5, 2",
        ],
    );
    assert_eq!(
        (s.gprs[0][3], s.gprs[0][4], s.gprs[0][6]),
        (0b1000, 0b1110, 0b0110)
    );
    undefined(0, |_| {}, &["ttbitwopdmareg 0, 3, 3, 5, 2"]);
}

#[test]
fn shiftdmareg_uses_the_low_5_bits_of_a_register_amount() {
    let s = ok(
        0,
        |s| {
            s.gprs[0][2] = 0x8000_0001;
            s.gprs[0][5] = 33; // low 5 bits: 1
        },
        &["ttshiftdmareg 0, 0, 3, 5, 2", "ttshiftdmareg 1, 1, 4, 4, 2"],
    );
    assert_eq!(s.gprs[0][3], 2);
    assert_eq!(s.gprs[0][4], 0x0800_0000);
}

#[test]
fn cmpdmareg_writes_one_or_zero() {
    let s = ok(
        0,
        |s| {
            s.gprs[0][2] = 7;
            s.gprs[0][5] = 9;
        },
        &[
            "ttcmpdmareg 0, 0, 10, 5, 2",
            "ttcmpdmareg 0, 1, 11, 5, 2",
            "ttcmpdmareg 1, 2, 12, 7, 2",
        ],
    );
    assert_eq!((s.gprs[0][10], s.gprs[0][11], s.gprs[0][12]), (0, 1, 1));
}

// ---- ADCs (SETADC.md, SETADCXX.md, SETADCXY.md, INCADCXY.md, ADDRCRXY.md, ...ZW) ----

#[test]
fn setadc_sets_counter_and_carriage_return_with_thread_override() {
    // CntSetMask 4 (packers), channel 1, Z (2), value 0x30005: ThreadOverride 3 -> thread 2.
    let s = ok(0, |_| {}, &["ttsetadc 4, 1, 2, 0x30005"]);
    let ch = s.adcs[2].packers[1];
    assert_eq!((ch.z, ch.z_cr), (0x05 & 0xff, 0x05 & 0xff));
    assert_eq!(s.adcs[0].packers[1].z, 0);
}

#[test]
fn setadcxx_sets_x_of_both_channels() {
    let s = ok(1, |_| {}, &["ttsetadcxx 3, 1023, 16"]);
    for u in 0..2 {
        assert_eq!(
            (s.adcs[1].unpacker[u][0].x, s.adcs[1].unpacker[u][0].x_cr),
            (16, 16)
        );
        assert_eq!(
            (s.adcs[1].unpacker[u][1].x, s.adcs[1].unpacker[u][1].x_cr),
            (1023, 1023)
        );
    }
    assert_eq!(s.adcs[1].packers[1].x, 0);
}

#[test]
fn setadcxy_sets_only_the_selected_counters() {
    // Y1=3 X1=2 Y0=5 X0=7, bit mask 0b0101: X0 and X1 only.
    let s = ok(0, |_| {}, &["ttsetadcxy 1, 3, 2, 5, 7, 5"]);
    let u = s.adcs[0].unpacker[0];
    assert_eq!((u[0].x, u[0].y, u[1].x, u[1].y), (7, 0, 2, 0));
}

#[test]
fn setadczw_sets_z_and_w() {
    let s = ok(0, |_| {}, &["ttsetadczw 2, 3, 2, 5, 7, 15"]);
    let u = s.adcs[0].unpacker[1];
    assert_eq!((u[0].z, u[0].w, u[1].z, u[1].w), (7, 5, 2, 3));
    assert_eq!((u[0].z_cr, u[1].w_cr), (7, 3));
}

#[test]
fn incadcxy_adds_without_touching_carriage_return() {
    let s = ok(
        0,
        |_| {},
        &["ttsetadcxy 1, 1, 1, 1, 1, 15", "ttincadcxy 1, 3, 2, 5, 7"],
    );
    let u = s.adcs[0].unpacker[0];
    assert_eq!((u[0].x, u[0].y, u[1].x, u[1].y), (8, 6, 3, 4));
    assert_eq!((u[0].x_cr, u[1].y_cr), (1, 1));
}

#[test]
fn addrcrxy_adds_to_carriage_return_and_copies_it() {
    let s = ok(
        0,
        |_| {},
        &[
            "ttsetadcxy 1, 1, 1, 1, 1, 15",
            "ttincadcxy 1, 7, 7, 7, 7",
            "ttaddrcrxy 1, 0, 0, 2, 3, 3",
        ],
    );
    let u = s.adcs[0].unpacker[0];
    // X0: Cr 1 + 3 = 4; Y0: Cr 1 + 2 = 3; channel 1 not selected: keeps 8.
    assert_eq!((u[0].x, u[0].x_cr, u[0].y, u[0].y_cr), (4, 4, 3, 3));
    assert_eq!((u[1].x, u[1].x_cr), (8, 1));
}

#[test]
fn incadczw_and_addrcrzw_work_on_z_and_w() {
    let s = ok(
        0,
        |_| {},
        &[
            "ttsetadczw 4, 1, 1, 1, 1, 15",
            "ttincadczw 4, 1, 1, 1, 1",
            "ttaddrcrzw 4, 0, 0, 0, 2, 1",
        ],
    );
    let p = s.adcs[0].packers;
    assert_eq!((p[0].z, p[0].z_cr, p[0].w, p[1].z), (3, 3, 2, 2));
}

#[test]
fn adc_thread_override_3_addresses_thread_2() {
    // SETADCXY with Ch1_Y field 0b11_000: ThreadOverride 3 (raw encoding).
    let word = w("ttsetadcxy 1, 24, 0, 0, 5, 1");
    let mut cp = Coprocessor::new(Arch::Blackhole);
    let mut l1 = FlatL1::blackhole();
    assert!(matches!(
        cp.push(0, PushSource::Trisc, word),
        Ok(Pushed::Accepted)
    ));
    for c in 0..20 {
        if let Err(e) = cp.step_with(c, &mut l1) {
            panic!("{e}");
        }
    }
    assert_eq!(cp.state().adcs[2].unpacker[0][0].x, 5);
    assert_eq!(cp.state().adcs[0].unpacker[0][0].x, 0);
}

// ---- RWCs (SETRWC.md, INCRWC.md) ----

#[test]
fn setrwc_sets_selected_counters_and_cr_adds() {
    let s = ok(
        1,
        |s| {
            s.rwcs[1].src_a_cr = 10;
            s.rwcs[1].dst = 100;
            s.rwcs[1].fidelity_phase = 3;
        },
        &[
            // rwc_cr = SrcACr | DstCtoCr (0b1001), d=4, b=3, a=2, mask SrcA|SrcB|Fidelity.
            "ttsetrwc 0, 9, 4, 3, 2, 11",
        ],
    );
    let r = s.rwcs[1];
    assert_eq!((r.src_a, r.src_a_cr), (12, 12));
    assert_eq!((r.src_b, r.src_b_cr), (3, 3));
    assert_eq!((r.dst, r.dst_cr), (104, 104));
    assert_eq!(r.fidelity_phase, 0);
}

#[test]
fn incrwc_increments_or_carriage_returns() {
    let s = ok(
        0,
        |s| {
            s.rwcs[0].src_a = 5;
            s.rwcs[0].dst_cr = 16;
            s.rwcs[0].dst = 20;
        },
        &["ttincrwc 4, 8, 1, 2"],
    );
    let r = s.rwcs[0];
    assert_eq!((r.src_a, r.src_b), (7, 1));
    assert_eq!((r.dst, r.dst_cr), (24, 24));
}

// ---- Moves and clears (MOVA2D.md, MOVB2D.md, MOVD2A.md, MOVD2B.md, ZEROSRC.md, ZEROACC.md)

/// A Src BF16 datum (Sign 18, Man 17..11, Exp 7..0) for the BF16 bits `b`.
fn src_bf16(b: u16) -> u32 {
    (((b >> 15) as u32) << 18) | (((b & 0x7f) as u32) << 11) | ((b >> 7) & 0xff) as u32
}

/// A Dst16b BF16 datum (Sign 15, Man 14..8, Exp 7..0).
fn dst_bf16(b: u16) -> u16 {
    (b & 0x8000) | ((b & 0x7f) << 8) | ((b >> 7) & 0xff)
}

fn math_banks(s: &mut TensixState) {
    s.cfg.set(0, f::ALU_FORMAT_SPEC_REG0_SrcA, 5); // BF16
}

#[test]
fn mova2d_moves_eight_rows_of_srca_to_dst_at_rwc_offsets() {
    let cp = {
        let mut cp = Coprocessor::new(Arch::Blackhole);
        math_banks(cp.state_mut());
        for r in 0..16 {
            for c in 0..16 {
                cp.state_mut()
                    .src_a
                    .write(0, r, c, src_bf16(0x3f80 + (r * 16 + c) as u16));
            }
        }
        cp.state_mut().rwcs[1].src_a = 8;
        cp.state_mut().rwcs[1].dst = 32;
        let mut l1 = FlatL1::blackhole();
        // The Matrix Unit needs the SrcA bank: SETDVALID hands it over.
        for (i, line) in ["ttsetdvalid 1", "ttmova2d 0, 0, 0, 2, 0"]
            .iter()
            .enumerate()
        {
            assert!(
                matches!(cp.push(1, PushSource::Trisc, w(line)), Ok(Pushed::Accepted)),
                "{i}"
            );
        }
        for c in 0..30 {
            if let Err(e) = cp.step_with(c, &mut l1) {
                panic!("{e}");
            }
        }
        cp
    };
    let s = cp.state();
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
    let cp = {
        let mut cp = Coprocessor::new(Arch::Blackhole);
        math_banks(cp.state_mut());
        cp.state_mut().src_a.write(0, 0, 0, src_bf16(0x0001)); // BF16 denormal
        cp.state_mut()
            .src_a
            .write(0, 0, 1, src_bf16(0x8000 | 0x0040));
        cp.state_mut().src_a.write(0, 0, 2, src_bf16(0x0080)); // smallest normal
        let mut l1 = FlatL1::blackhole();
        for line in ["ttsetdvalid 1", "ttmova2d 0, 0, 0, 0, 0"] {
            assert!(matches!(
                cp.push(1, PushSource::Trisc, w(line)),
                Ok(Pushed::Accepted)
            ));
        }
        for c in 0..30 {
            if let Err(e) = cp.step_with(c, &mut l1) {
                panic!("{e}");
            }
        }
        cp
    };
    let s = cp.state();
    assert_eq!(s.dst.read16(0, 0, PLAIN), 0);
    assert_eq!(s.dst.read16(0, 1, PLAIN), 0, "sign dropped too");
    assert_eq!(s.dst.read16(0, 2, PLAIN), dst_bf16(0x0080));
}

/// One MOVA2D of SrcA bank 0 (configured BF16, unpacked as FP16) holding the FP16 datum
/// 0x3c07 in row 0 column 0 (Src FP16 layout: sign 18, mantissa 17..8, exponent 4..0).
fn mova2d_of_an_fp16_bank(disable_implied: bool) -> u16 {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    math_banks(cp.state_mut());
    if disable_implied {
        cp.state_mut()
            .cfg
            .set(1, f::DISABLE_IMPLIED_SRCA_FMT_Base, 1);
    }
    cp.state_mut().src_a.write(0, 0, 0, (7 << 8) | 15);
    cp.state_mut().src_a.set_format(0, 1); // FP16
    let mut l1 = FlatL1::blackhole();
    for line in ["ttsetdvalid 1", "ttmova2d 0, 0, 0, 0, 0"] {
        assert!(matches!(
            cp.push(1, PushSource::Trisc, w(line)),
            Ok(Pushed::Accepted)
        ));
    }
    for c in 0..30 {
        if let Err(e) = cp.step_with(c, &mut l1) {
            panic!("{e}");
        }
    }
    cp.state().dst.read16(0, 0, PLAIN)
}

#[test]
fn mova2d_uses_the_format_the_bank_was_unpacked_with() {
    // FP16 layout in Dst16b: sign 15, mantissa 14..5, exponent 4..0: (7 << 5) | 15.
    assert_eq!(mova2d_of_an_fp16_bank(false), 0x00ef);
    // With the implied format disabled the configured BF16 applies: the Src BF16 mantissa
    // (bits 17..11) is 0 and the exponent byte 0x0f is kept.
    assert_eq!(mova2d_of_an_fp16_bank(true), 0x000f);
}

fn run_math(setup: impl FnOnce(&mut TensixState), lines: &[&str]) -> TensixState {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    setup(cp.state_mut());
    let mut l1 = FlatL1::blackhole();
    let mut words: Vec<u32> = vec![w("ttsetdvalid 3")];
    words.extend(lines.iter().map(|l| w(l)));
    let mut next = 0;
    for c in 0..200 {
        if next < words.len() {
            if let Ok(Pushed::Accepted) = cp.push(1, PushSource::Trisc, words[next]) {
                next += 1;
            }
        }
        if let Err(e) = cp.step_with(c, &mut l1) {
            panic!("{e}");
        }
    }
    cp.state().clone()
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

// ---- Scalar Unit L1 accesses (LOADIND.md, STOREIND_L1.md, ATINCGET.md, ATSWAP.md, ATCAS.md)

/// Runs `lines` on thread 0 with an L1 the test can look at afterwards.
fn run_l1(
    setup: impl FnOnce(&mut TensixState, &mut FlatL1),
    lines: &[&str],
) -> (Result<TensixState, TensixError>, FlatL1) {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    let mut l1 = FlatL1::blackhole();
    setup(cp.state_mut(), &mut l1);
    let words: Vec<u32> = lines.iter().map(|l| w(l)).collect();
    let mut next = 0;
    for cycle in 0..500u64 {
        if next < words.len() {
            match cp.push(0, PushSource::Trisc, words[next]) {
                Ok(Pushed::Accepted) => next += 1,
                Ok(Pushed::Full) => {}
                Err(e) => return (Err(e), l1),
            }
        }
        if let Err(e) = cp.step_with(cycle, &mut l1) {
            return (Err(e), l1);
        }
    }
    (Ok(cp.state().clone()), l1)
}

#[test]
fn storeind_and_loadind_address_l1_by_gpr_times_16_plus_offset_with_post_increment() {
    let (s, l1) = run_l1(
        |s, _| {
            s.gprs[0][1] = 0x100; // L1 0x1000
            s.gprs[0][2] = 8; // half-register 4: offset 8
            s.gprs[0][5] = 0xdead_beef;
        },
        // Store 32 bits at 0x1008 (offset += 2), load 32 bits from (0x100a & ~3).
        &["ttstoreind 1, 0, 1, 4, 1, 5, 1", "ttloadind 1, 4, 0, 6, 1"],
    );
    let s = s.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&l1.bytes[0x1008..0x100c], &0xdead_beefu32.to_le_bytes());
    assert_eq!(s.gprs[0][2] & 0xffff, 10, "offset post-incremented by 2");
    assert_eq!(s.gprs[0][6], 0xdead_beef);
}

#[test]
fn loadind_16_bytes_fills_four_aligned_gprs() {
    let (s, _) = run_l1(
        |s, l1| {
            s.gprs[0][1] = 0x200;
            for i in 0..16 {
                l1.bytes[0x2000 + i] = i as u8;
            }
        },
        &["ttloadind 0, 0, 0, 9, 1"],
    );
    let s = s.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.gprs[0][8], 0x0302_0100);
    assert_eq!(s.gprs[0][11], 0x0f0e_0d0c);
}

#[test]
fn atincget_adds_within_int_width_and_returns_the_old_word() {
    let (s, l1) = run_l1(
        |s, l1| {
            s.gprs[0][1] = 0x300; // 0x3000, Ofs 1 -> 0x3004
            s.gprs[0][3] = 1;
            l1.bytes[0x3004..0x3008].copy_from_slice(&0xabcd_00ffu32.to_le_bytes());
        },
        // IntWidth 7: the low 8 bits wrap (0xff + 1 -> 0x00), the rest is kept.
        &["ttatincget 0, 7, 1, 3, 1"],
    );
    let s = s.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&l1.bytes[0x3004..0x3008], &0xabcd_0000u32.to_le_bytes());
    assert_eq!(s.gprs[0][3], 0xabcd_00ff);
}

#[test]
fn atswap_writes_the_masked_halfwords_of_four_gprs() {
    let (s, l1) = run_l1(
        |s, _| {
            s.gprs[0][1] = 0x400;
            s.gprs[0][8] = 0x2222_1111;
            s.gprs[0][9] = 0x4444_3333;
        },
        // Mask 0b101: halfwords 0 and 2.
        &["ttatswap 0, 5, 8, 1"],
    );
    if let Err(e) = s {
        panic!("{e}");
    }
    assert_eq!(
        &l1.bytes[0x4000..0x4008],
        &[0x11, 0x11, 0, 0, 0x33, 0x33, 0, 0]
    );
}

#[test]
fn atcas_sets_on_match_and_reports_the_endless_retry_otherwise() {
    let (s, l1) = run_l1(|s, _| s.gprs[0][1] = 0x500, &["ttatcas 0, 9, 0, 2, 0, 1"]);
    if let Err(e) = s {
        panic!("{e}");
    }
    assert_eq!(&l1.bytes[0x5008..0x500c], &9u32.to_le_bytes());
    let (s, _) = run_l1(|s, _| s.gprs[0][1] = 0x500, &["ttatcas 0, 9, 3, 2, 0, 1"]);
    match s {
        Err(e) => assert_eq!(e.kind, ErrorKind::Hang, "{e}"),
        Ok(_) => panic!("a failing ATCAS never completes"),
    }
}

#[test]
fn reg2flop_writes_thcon_config_or_an_adc_counter() {
    let s = ok(
        0,
        |s| s.gprs[0][7] = 0xcafe,
        &["ttreg2flop 1, 0, 0, 0, 5, 7"],
    );
    // THCON_CFGREG_BASE_ADDR32 (64) + 5.
    assert_eq!(s.cfg.word(0, 69), Some(0xcafe));
    // ADC form: 16 bits from the high half (ByteOffset 2) into Unpacker 1, channel 1, Y
    // (FlopIndex 0b1_01_0_01).
    let s = ok(
        0,
        |s| s.gprs[0][7] = 0x1234_5678,
        &["ttreg2flop 2, 2, 2, 0, 41, 7"],
    );
    assert_eq!(s.adcs[0].unpacker[1][1].y, 0x1234);
    assert_eq!(s.adcs[0].unpacker[1][1].y_cr, 0);
}

#[test]
fn reg2flop_beyond_the_thcon_registers_is_undefined() {
    undefined(0, |_| {}, &["ttreg2flop 1, 0, 0, 0, 116, 7"]);
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
fn atincgetptr_pushes_or_pops_a_fifo_pointer_and_reports_a_blocked_retry() {
    let block = |rd: u32, wr: u32| {
        move |s: &mut TensixState, l1: &mut FlatL1| {
            s.gprs[0][1] = 0x60; // control block at 0x600
            l1.bytes[0x600..0x604].copy_from_slice(&rd.to_le_bytes());
            l1.bytes[0x604..0x608].copy_from_slice(&wr.to_le_bytes());
        }
    };
    // Push (Ofs 1) by 1 << 1 within 4 bits: Wr 5 -> 7, old value to GPR 3.
    let (s, l1) = run_l1(block(2, 5), &["ttatincgetptr 0, 0, 1, 4, 1, 3, 1"]);
    let s = s.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&l1.bytes[0x604..0x608], &7u32.to_le_bytes());
    assert_eq!(s.gprs[0][3], 5);
    // Pop (Ofs 0) from an empty FIFO never completes.
    let (s, _) = run_l1(block(4, 4), &["ttatincgetptr 0, 0, 0, 4, 0, 3, 1"]);
    match s {
        Err(e) => assert_eq!(e.kind, ErrorKind::Hang, "{e}"),
        Ok(_) => panic!("a pop from an empty FIFO never completes"),
    }
}

#[test]
fn storeind_to_src_writes_four_bf16_datums_into_one_row() {
    // Addr 2 (+ offset 0 >> 4): SrcB row 0, columns 8..11. GPR 8 low half is a Dst-layout
    // BF16 1.5 (0x407f), high half an IEEE BF16 1.0 (0x3f80); GPR 9 is zero.
    let s = ok(
        0,
        |s| {
            s.gprs[0][1] = 2;
            s.gprs[0][8] = 0x3f80_407f;
        },
        &["ttstoreind 0, 0, 1, 4, 0, 8, 1"],
    );
    // Src BF16: Sign 18, Man 17..11, Exp 7..0.
    assert_eq!(s.src_b.read(0, 0, 8), (0x40 << 11) | 0x7f);
    assert_eq!(s.src_b.read(0, 0, 9), 0x7f);
    assert_eq!(s.src_b.read(0, 0, 10), 0);
    // To SrcA: row (Addr >> 2) - 4, so Addr 16..19 is SrcA row 0 (SetOvrdWithAddr).
    let s = ok(
        0,
        |s| {
            s.cfg.set(0, f::SRCA_SET_SetOvrdWithAddr, 1);
            s.gprs[0][1] = 17;
            s.gprs[0][8] = 0x3f80_407f;
        },
        &["ttstoreind 0, 0, 0, 4, 0, 8, 1"],
    );
    assert_eq!(s.src_a.read(0, 0, 4), (0x40 << 11) | 0x7f);
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
