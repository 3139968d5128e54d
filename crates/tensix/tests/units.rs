//! One test per documented behaviour of the instructions whose data effects bhemu models,
//! named after the rule: the Configuration Unit, the Scalar Unit's register arithmetic, the
//! ADCs and RWCs. Each runs real instruction words through the coprocessor (so the generated
//! visitor, the Wait Gate and the unit function are all on the path) and checks the resulting
//! state against values worked out here from the instruction's page. Moves and the Vector
//! Unit are in `units_moves.rs`, the Scalar Unit's L1 accesses in `units_l1.rs`.
mod units_common;
use bhemu_tensix::{Arch, Coprocessor, FlatL1, PushSource, Pushed};
use units_common::*;

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
