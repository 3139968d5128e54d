//! SFPLOADMACRO scheduling and timing and the automatic stalling rules
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPLOADMACRO.md,
//! SFPMAD.md / SFPSWAP.md / SFPSHFT2.md "Instruction scheduling"). SFPCONFIG and the
//! backdoor template load are in `sfpu_config.rs`.
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
#![allow(clippy::excessive_precision)] // the pages' decimal constants, kept as written
mod sfpu_common;
use bhemu_tensix::sfpu::Issued;
use sfpu_common::*;

/// SFPLOADMACRO word (encoding diagram): MacroIndex 22..23, VDLo 20..21, Mod0 16..19,
/// AddrMod 13..15, Imm9 1..9, VDHi 0.
fn loadmacro(index: u32, vd: u32, mod0: u32, imm10: u32) -> u32 {
    assert_eq!(imm10 & 1, vd >> 2, "Imm10 bit 0 is VDHi");
    (SFPLOADMACRO << 24) | (index << 22) | ((vd & 3) << 20) | (mod0 << 16) | (imm10 & 0x3ff)
}

/// Sequence byte: template select 0..2, delay 3..5, VD=16 bit 6, VB-override bit 7.
fn seq(sel: u32, delay: u32, to16: bool, vb: bool) -> u32 {
    sel | (delay << 3) | ((to16 as u32) << 6) | ((vb as u32) << 7)
}

/// Set up `LoadMacroConfig` directly through SFPCONFIG: templates from LReg[0].
fn set_template(b: &mut Bench, i: u32, word: u32) {
    b.set(0, [word; 32]);
    b.run(config(0, i, 0));
}

fn set_sequence(b: &mut Bench, macro_index: u32, simple: u32, mad: u32, round: u32, store: u32) {
    b.set(0, [simple | (mad << 8) | (round << 16) | (store << 24); 32]);
    b.run(config(0, 4 + macro_index, 0));
}

fn fp32_in_dst(b: &mut Bench, row0: u32, value: impl Fn(usize) -> u32) {
    // Store via SFPSTORE INT32 so that Dst holds the shuffled form the unit expects.
    let v: [u32; 32] = std::array::from_fn(value);
    b.set(7, v);
    b.run_at(enc_mem(SFPSTORE, 7, 4, row0), row0);
}

#[test]
fn loadmacro_schedules_simple_and_store_with_delays() {
    let mut b = Bench::new();
    fp32_in_dst(&mut b, 16, |l| l as u32 * 10);
    // Template 0: SFPIADD imm 1 (VC, VD overridden to the macro's VD).
    set_template(&mut b, 0, enc(SFPIADD, 1, 0, 0, 1 | 4));
    // Simple: template 0 delay 0; store: SFPSTORE delay 2; Misc: StoreMod0 = INT32.
    set_sequence(
        &mut b,
        1,
        seq(4, 0, false, false),
        0,
        0,
        seq(3, 2, false, false),
    );
    b.run(config(4, 8, 1));
    b.cycle_at(Some(loadmacro(1, 2, 4, 16)), 16); // t: load LReg[2] from Dst rows 16..19
    assert_eq!(b.lreg(2)[5], 50);
    b.cycle(None); // t+1: simple: LReg[2] += 1 (delay 0)
    assert_eq!(b.lreg(2)[5], 51);
    b.cycle(None); // t+2: the store's delay counts 1 -> 0
    assert_eq!(b.dst.read32(16, 10, b.cfg), 50, "not stored yet");
    // t+3: the store runs, at the SFPLOADMACRO's address although this cycle's context
    // carries address 0.
    b.cycle(None);
    assert_eq!(b.dst.read32(16, 10, b.cfg), 51);
    assert_eq!(b.dst.read32(0, 10, b.cfg), 0);
    assert!(!b.vu.macro_pending());
}

#[test]
fn loadmacro_delay_kind_instructions_counts_issued_instructions() {
    let mut b = Bench::new();
    set_template(&mut b, 0, enc(SFPIADD, 1, 0, 0, 1 | 4));
    set_sequence(&mut b, 0, seq(4, 2, false, false), 0, 0, 0);
    b.run(config(1 << 8, 8, 1)); // UnitDelayKind bit for the simple sub-unit
    b.cycle_at(Some(loadmacro(0, 0, 11, 0)), 0); // MOD0_FMT_ZERO load: LReg[0] = 0
    for _ in 0..5 {
        b.cycle(None); // idle cycles do not count
    }
    assert_eq!(b.lreg(0)[0], 0);
    b.cycle(Some(enc(SFPNOP, 0, 0, 0, 0)));
    b.cycle(Some(enc(SFPNOP, 0, 0, 0, 0)));
    assert_eq!(b.lreg(0)[0], 0, "counted down to 0, runs on the next cycle");
    b.cycle(None);
    assert_eq!(b.lreg(0)[0], 1);
}

#[test]
fn loadmacro_same_slot_is_replaced_and_issued_instruction_is_discarded() {
    let mut b = Bench::new();
    set_template(&mut b, 0, enc(SFPIADD, 1, 0, 0, 1 | 4));
    set_template(&mut b, 1, enc(SFPIADD, 100, 0, 0, 1 | 4));
    set_sequence(&mut b, 0, seq(4, 1, false, false), 0, 0, 0);
    set_sequence(&mut b, 1, seq(5, 0, false, false), 0, 0, 0);
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0); // simple +1 due at t+2
    b.cycle_at(Some(loadmacro(1, 1, 11, 0)), 0); // t+1: simple +100 due at t+2, replaces
                                                 // t+2: the scheduled SFPIADD takes the simple sub-unit; the issued SFPNOT is dropped.
    let issued = b.cycle(Some(enc(SFPNOT, 0, 1, 1, 0)));
    assert_eq!(issued, Issued::Discarded);
    assert_eq!(b.lreg(1), [100; 32]);
    b.cycle(None);
    assert_eq!(b.lreg(1), [100; 32]);
}

#[test]
fn loadmacro_lreg16_and_vb_override_and_store_mod0_choice() {
    let mut b = Bench::new();
    fp32_in_dst(&mut b, 8, |l| (l as f32).to_bits());
    // MAD template: SFPMAD VA=10 (1.0), VB (overridden with bit 7 to VD), VC=9 -> VD=16.
    set_template(&mut b, 2, enc_mad(SFPMAD, 10, 0, 9, 0, 0));
    // Store from LReg[16] with the load's Mod0 (UsesLoadMod0ForStore bit for macro 2).
    set_sequence(
        &mut b,
        2,
        0,
        seq(6, 0, true, true),
        0,
        seq(3, 2, true, false),
    );
    b.run(config((1 << (4 + 2)) | 0x1, 8, 1)); // StoreMod0 = FP16 (unused), UsesLoadMod0 macro 2
    b.cycle_at(Some(loadmacro(2, 3, 3, 8)), 8); // FP32 load into LReg[3]
    b.cycle(None); // MAD: LReg[16] = 1.0 * LReg[3] + 0
    b.cycle(None);
    b.cycle(None); // store LReg[16] to row 8 as FP32
    assert_eq!(b.lreg(16)[7], 7.0f32.to_bits());
    let mut want = Bench::new();
    fp32_in_dst(&mut want, 8, |l| (l as f32).to_bits());
    for l in 0..32 {
        let (row, col) = (8 + l as u32 / 8, (l % 8) * 2);
        assert_eq!(
            b.dst.read32(row, col, b.cfg),
            want.dst.read32(row, col, b.cfg)
        );
    }
}

#[test]
fn loadmacro_template_for_another_sub_unit_becomes_nop() {
    let mut b = Bench::new();
    set_template(&mut b, 0, enc_mad(SFPMAD, 10, 10, 10, 0, 0)); // MAD op in the simple slot
    set_sequence(&mut b, 0, seq(4, 0, false, false), 0, 0, 0);
    b.set(1, [5; 32]);
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0);
    b.cycle(None);
    assert_eq!(b.lreg(1), [0; 32], "only the ZERO load happened");
}

#[test]
fn loadmacro_undefined_sequences_are_reported() {
    let mut b = Bench::new();
    set_sequence(&mut b, 0, seq(1, 0, false, false), 0, 0, 0);
    let e = b.run_err(loadmacro(0, 0, 11, 0));
    assert_eq!(e.insn, "SFPLOADMACRO");
    let mut b = Bench::new();
    set_template(&mut b, 0, enc(SFPNOT, 0, 0, 0, 0));
    set_sequence(&mut b, 0, 0, 0, 0, seq(4, 0, false, false));
    let e = b.run_err(loadmacro(0, 0, 11, 0));
    assert!(e.reason.contains("store"), "{}", e.reason);
}

#[test]
fn loadmacro_lanes_with_different_configs_schedule_their_own_templates() {
    let mut b = Bench::new();
    b.set(
        0,
        lanes8(|l| enc(SFPIADD, if l % 8 < 4 { 1 } else { 2 }, 0, 0, 1 | 4)),
    );
    b.run(config(0, 0, 0));
    set_sequence(&mut b, 0, seq(4, 0, false, false), 0, 0, 0);
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0);
    b.cycle(None);
    for l in 0..32 {
        assert_eq!(b.lreg(1)[l], if l % 8 < 4 { 1 } else { 2 });
    }
}

#[test]
fn mad_result_hazard_stalls_readers_for_one_cycle() {
    let mut b = Bench::new();
    b.cycle(Some(enc_mad(SFPMAD, 1, 2, 3, 4, 0))); // writes LReg[4]
    assert!(b.vu.stalls(enc(SFPNOT, 0, 4, 5, 0)), "reads LReg[4]");
    assert!(!b.vu.stalls(enc(SFPNOT, 0, 3, 5, 0)), "reads LReg[3]");
    assert!(b.vu.stalls(enc_mad(SFPMAD, 4, 2, 3, 6, 0)));
    // Documented blind spots: SFPIADD's and SFPSHFT's VD read, SFPAND's VB.
    assert!(!b.vu.stalls(enc(SFPIADD, 0, 1, 4, 4)));
    assert!(!b.vu.stalls(enc(SFPSHFT, 0, 1, 4, 0)));
    assert!(!b.vu.stalls(enc(SFPAND, 4, 1, 2, 1)));
    assert!(b.vu.stalls(enc(SFPAND, 0, 1, 4, 0)), "seen as reading VD");
    b.cycle(None);
    assert!(
        !b.vu.stalls(enc(SFPNOT, 0, 4, 5, 0)),
        "one cycle later the result is there"
    );
    // INDIRECT_VD: every register counts as written.
    b.cycle(Some(enc_mad(SFPMAD, 1, 2, 3, 4, 8)));
    assert!(b.vu.stalls(enc(SFPNOT, 0, 0, 5, 0)));
    // Instructions that read nothing, e.g. SFPENCC, are not stalled.
    assert!(!b.vu.stalls(enc(SFPENCC, 0, 0, 0, 0)));
}

#[test]
fn after_sfpswap_and_lane_shuffles_only_sfpnop_issues() {
    let mut b = Bench::new();
    for first in [
        enc(SFPSWAP, 0, 1, 2, 1),
        enc(SFPSHFT2, 0, 1, 2, 3),
        enc(SFPSHFT2, 0, 1, 2, 4),
        enc(SFPSHFT2, 0, 1, 2, 2),
    ] {
        b.cycle(Some(first));
        assert!(b.vu.stalls(enc(SFPNOT, 0, 7, 6, 0)));
        assert!(!b.vu.stalls(enc(SFPNOP, 0, 0, 0, 0)));
        b.cycle(Some(enc(SFPNOP, 0, 0, 0, 0)));
        assert!(!b.vu.stalls(enc(SFPNOT, 0, 7, 6, 0)));
    }
    b.cycle(Some(enc(SFPSHFT2, 0, 1, 2, 5)));
    assert!(
        !b.vu.stalls(enc(SFPNOT, 0, 7, 6, 0)),
        "bit shifts do not block"
    );
}

#[test]
fn not_a_vector_unit_word_is_an_error() {
    let mut b = Bench::new();
    let e = b.run_err(0x0200_0000);
    assert!(e.reason.contains("not a Vector Unit"), "{}", e.reason);
}

/// SFPSTOCHRND FP32 -> BF16-precision with round to nearest (SFPSTOCHRND_FloatFloat.md),
/// restated.
fn round_bf16_nearest(x: u32) -> u32 {
    let e = (x >> 23) & 0xff;
    if e == 0 {
        return 0;
    }
    if e == 255 {
        return x & 0xff80_0000;
    }
    let dis = x & 0xffff;
    let kept = x - dis;
    if dis >= (0x40_0000 >> 7) {
        kept + 0x1_0000
    } else {
        kept
    }
}

/// FP32 as Dst holds it (SFPSTORE.md `FP32Shuffle`), after flushing denormals.
fn dst_fp32(x: u32) -> u32 {
    let x = if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    };
    let hi = x >> 16;
    let hi = (hi & 0x8000) | ((hi & 0x7f) << 8) | ((hi & 0x7f80) >> 7);
    (hi << 16) | (x & 0xffff)
}

#[test]
fn loadmacro_pipeline_keeps_four_sub_units_busy_every_cycle() {
    // One SFPLOADMACRO per cycle over 64 groups of four rows: load (load sub-unit), MAD at
    // delay 0, round at delay 2 (one cycle after the MAD result is ready), store at delay 3.
    // y = bf16_round(3.0 * x + 1.0) stored back in place as FP32; 49 rounds of random Dst
    // (64 x 32 lanes each, about 10^5 in all).
    let mut b = Bench::new();
    let mut rng = Rng::new(1700);
    // MAD template: VA = 7, VB overridden (bit 7) with the loaded register, VC = 10 (1.0).
    b.set(0, [enc_mad(SFPMAD, 7, 0, 10, 0, 0); 32]);
    b.run(config(0, 0, 0));
    // Round template: SFPSTOCHRND FP32_TO_FP16B, round to nearest; VC and VD overridden.
    b.set(0, [(SFPSTOCHRND << 24) | 1; 32]);
    b.run(config(0, 1, 0));
    set_sequence(
        &mut b,
        0,
        0,
        seq(4, 0, false, true),
        seq(5, 2, false, false),
        seq(3, 3, false, false),
    );
    b.run(config(3, 8, 1)); // StoreMod0 = FP32
    for round in 0..49 {
        let mut input = vec![[0u32; 32]; 64];
        for (g, v) in input.iter_mut().enumerate() {
            *v = std::array::from_fn(|_| rng.f32_bits());
            let addr = g as u32 * 4;
            fp32_in_dst(&mut b, addr, |l| v[l]);
        }
        b.set(7, [3.0f32.to_bits(); 32]); // after fp32_in_dst, which stores through LReg[7]
        b.vu.state.lreg[0] = [0; 32];
        let executed_before = b.vu.executed();
        for g in 0..64u32 {
            let vd = g % 4;
            b.cycle_at(Some(loadmacro(0, vd, 3, g * 4)), g * 4);
        }
        for _ in 0..5 {
            b.cycle(None);
        }
        assert!(!b.vu.macro_pending());
        // 64 loads + 64 x (MAD, round, store) in 69 cycles.
        assert_eq!(b.vu.executed() - executed_before, 64 * 4);
        for (g, v) in input.iter().enumerate() {
            for l in 0..32 {
                let (row, col) = (g as u32 * 4 + l as u32 / 8, (l % 8) * 2);
                let y = round_bf16_nearest(fma_model_bh(3.0f32.to_bits(), v[l], 1.0f32.to_bits()));
                assert_eq!(
                    b.dst.read32(row, col, b.cfg),
                    dst_fp32(y),
                    "round {round} group {g} lane {l} x {:#x}",
                    v[l]
                );
            }
        }
    }
}

#[test]
fn loadmacro_simple_and_round_both_writing_the_same_kind_of_vd_is_undefined() {
    // SFPLOADMACRO.md (†): a Simple and a Round instruction on the same cycle need one
    // VD == 16 and one VD != 16.
    let mut b = Bench::new();
    set_template(&mut b, 0, enc(SFPNOT, 0, 0, 0, 0));
    set_template(&mut b, 1, (SFPSTOCHRND << 24) | 1);
    set_sequence(
        &mut b,
        0,
        seq(4, 0, false, false),
        0,
        seq(5, 0, false, false),
        0,
    );
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0);
    let mut ctx = bhemu_tensix::sfpu::SfpuContext {
        dst: &mut b.dst,
        dst_cfg: b.cfg,
        addr: 0,
        srcb_format: b.srcb,
    };
    let e =
        b.vu.cycle(None, &mut ctx)
            .expect_err("same-cycle simple/round VD conflict");
    assert_eq!(e.insn, "SFPLOADMACRO");
    // With the round result going to LReg[16] it is fine.
    let mut b = Bench::new();
    set_template(&mut b, 0, enc(SFPNOT, 0, 0, 0, 0));
    set_template(&mut b, 1, (SFPSTOCHRND << 24) | 1);
    set_sequence(
        &mut b,
        0,
        seq(4, 0, false, false),
        0,
        seq(5, 0, true, false),
        0,
    );
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0);
    b.cycle(None);
    assert_eq!(b.lreg(1), [u32::MAX; 32]);
}

#[test]
fn loadmacro_store_scheduled_in_only_some_lanes_is_undefined() {
    let mut b = Bench::new();
    b.set(
        0,
        lanes8(|l| {
            if l == 3 {
                0
            } else {
                seq(3, 0, false, false) << 24
            }
        }),
    );
    b.run(config(0, 4, 0));
    let e = b.run_err(loadmacro(0, 0, 11, 0));
    assert!(e.reason.contains("all lanes"), "{}", e.reason);
}

#[test]
fn sfpconfig_scheduled_with_vd_16_changes_nothing() {
    let mut b = Bench::new();
    set_template(&mut b, 0, config(0x1234, 15, 1));
    set_sequence(&mut b, 0, seq(4, 0, true, false), 0, 0, 0);
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0);
    let before = b.vu.state.clone();
    b.cycle(None);
    assert_eq!(b.vu.state, before);
}

#[test]
fn loadmacro_delay_7_runs_eight_cycles_later_and_overlaps_later_macros() {
    // Delay 7: the instruction runs on the 8th cycle after its SFPLOADMACRO; a second macro one
    // cycle later schedules its own, one cycle behind (different slots, nothing forgotten).
    let mut b = Bench::new();
    set_template(&mut b, 0, enc(SFPIADD, 1, 0, 0, 1 | 4));
    set_sequence(&mut b, 0, seq(4, 7, false, false), 0, 0, 0);
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0); // t: LReg[1] = 0, +1 at t+8
    b.cycle_at(Some(loadmacro(0, 2, 11, 0)), 0); // t+1: LReg[2] = 0, +1 at t+9
    for _ in 0..6 {
        b.cycle(None); // t+2 .. t+7
    }
    assert_eq!((b.lreg(1)[0], b.lreg(2)[0]), (0, 0));
    b.cycle(None); // t+8
    assert_eq!((b.lreg(1)[0], b.lreg(2)[0]), (1, 0));
    b.cycle(None); // t+9
    assert_eq!((b.lreg(1)[0], b.lreg(2)[0]), (1, 1));
    assert!(!b.vu.macro_pending());
}

#[test]
fn loadmacro_same_delay_replaces_only_on_the_same_sub_unit() {
    let mut b = Bench::new();
    fp32_in_dst(&mut b, 0, |_| 2.0f32.to_bits());
    set_template(&mut b, 0, enc(SFPIADD, 1, 0, 0, 1 | 4)); // integer +1 on the bits
    set_template(&mut b, 1, enc_mad(SFPMAD, 10, 0, 9, 0, 0)); // VD = 1.0 * VB + 0
    set_sequence(&mut b, 0, seq(4, 1, false, false), 0, 0, 0);
    // Macro 1: nothing for the simple sub-unit with delay 7 (no forget), MAD at delay 0.
    set_sequence(
        &mut b,
        1,
        seq(0, 7, false, false),
        seq(5, 0, true, true),
        0,
        0,
    );
    b.cycle_at(Some(loadmacro(0, 1, 3, 0)), 0); // L1 = 2.0; simple +1 at t+2
    b.cycle_at(Some(loadmacro(1, 1, 3, 0)), 0); // L1 = 2.0; MAD L16 = 1.0 * L1 at t+2
    b.cycle(None);
    assert_eq!(b.lreg(1), [0x4000_0001; 32], "simple ran");
    assert_eq!(
        b.lreg(16),
        [0x4000_0001; 32],
        "MAD ran in the same cycle, after it"
    );
}

#[test]
fn loadmacro_empty_slot_with_delay_below_7_still_forgets() {
    // SFPLOADMACRO.md's loop forgets the slot at `Delay` before looking at the template
    // select, so a sub-unit byte of 0 (nothing, delay 0) cancels what was due next cycle.
    let mut b = Bench::new();
    set_template(&mut b, 0, enc(SFPIADD, 1, 0, 0, 1 | 4));
    set_sequence(&mut b, 0, seq(4, 1, false, false), 0, 0, 0);
    set_sequence(&mut b, 1, 0, 0, 0, 0);
    b.cycle_at(Some(loadmacro(0, 1, 11, 0)), 0);
    b.cycle_at(Some(loadmacro(1, 2, 11, 0)), 0);
    b.cycle(None);
    assert_eq!(b.lreg(1), [0; 32]);
    assert!(!b.vu.macro_pending());
}
