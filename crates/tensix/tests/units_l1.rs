//! The Scalar Unit's L1 and register-window accesses (LOADIND, STOREIND, ATINCGET,
//! ATINCGETPTR, ATSWAP, ATCAS, REG2FLOP) through the coprocessor, one test per documented
//! behaviour, against values worked out from each instruction's page.
mod units_common;
use bhemu_tensix::state::cfg_fields as f;
use bhemu_tensix::state::TensixState;
use bhemu_tensix::{Arch, Coprocessor, ErrorKind, FlatL1, PushSource, Pushed, TensixError};
use units_common::*;

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
