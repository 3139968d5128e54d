//! SFPCONFIG (every target and combining mode) and the backdoor template load
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPCONFIG.md).
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
#![allow(clippy::excessive_precision)] // the pages' decimal constants, kept as written
mod sfpu_common;
use sfpu_common::*;

#[test]
fn sfpconfig_broadcasts_first_eight_lanes_of_lreg0() {
    let mut b = Bench::new();
    b.set(0, lanes8(|l| 0x100 + l as u32));
    b.run(config(0, 2, 1)); // template: IMM16_IS_VALUE ignored
    b.run(config(0, 5, 0)); // sequence[1]
    b.run(config(0, 12, 0)); // LReg[12]
    for l in 0..32 {
        let want = 0x100 + (l % 8) as u32;
        assert_eq!(b.vu.state.load_macro[l].template[2], want);
        assert_eq!(b.vu.state.load_macro[l].sequence[1], want);
        assert_eq!(b.lreg(12)[l], want);
    }
    b.run(config(0xbeef, 6, 1)); // sequence[2] from Imm16
    assert!(b
        .vu
        .state
        .load_macro
        .iter()
        .all(|m| m.sequence[2] == 0xbeef));
}

#[test]
fn sfpconfig_misc_and_lane_config_combine_modes() {
    let mut b = Bench::new();
    b.run(config(0xf0f0, 8, 1)); // Misc = Imm16 truncated to 12 bits
    assert_eq!(b.vu.state.load_macro[0].misc, 0x0f0);
    b.run(config(0x00f, 8, 1 | 2)); // OR
    assert_eq!(b.vu.state.load_macro[9].misc, 0x0ff);
    b.run(config(0x03c, 8, 1 | 4)); // AND
    assert_eq!(b.vu.state.load_macro[17].misc, 0x03c);
    b.run(config(0x0ff, 8, 1 | 6)); // XOR
    assert_eq!(b.vu.state.load_macro[31].misc, 0x0c3);
    // LaneConfig from LReg[0] (18 bits), then immediates keep bits 16..17.
    b.set(0, [0xfff_ffff; 32]);
    b.run(config(0, 15, 0));
    assert_eq!(b.vu.state.lane_config[3], 0x3_ffff);
    b.run(config(0x0002, 15, 1 | 4)); // AND with 0x0002, high bits restored
    assert_eq!(b.vu.state.lane_config[3], 0x3_0002);
    b.run(config(0x1000, 15, 1)); // set, high bits restored
    assert_eq!(b.vu.state.lane_config[3], 0x3_1000);
    b.run(config(0x1001, 15, 1 | 6)); // XOR
    assert_eq!(b.vu.state.lane_config[3], 0x3_0001);
    b.run(config(0x0004, 15, 1 | 2)); // OR
    assert_eq!(b.vu.state.lane_config[3], 0x3_0005);
}

#[test]
fn sfpconfig_immediate_values_of_lreg_11_to_14() {
    let mut b = Bench::new();
    for (vd, want) in [
        (11u32, -1.0f32),
        (12, 1.0 / 65536.0),
        (13, -0.67487759),
        (14, -0.34484843),
    ] {
        b.run(config(0, vd, 1));
        assert_eq!(b.lreg(vd as usize), [want.to_bits(); 32], "LReg[{vd}]");
    }
    // VD 9 and 10 do nothing.
    let before = b.vu.state.clone();
    b.run(config(0x1234, 9, 1));
    b.run(config(0x1234, 10, 0));
    assert_eq!(b.vu.state, before);
}

#[test]
fn sfpconfig_lane_mask_and_lane_flags_of_the_first_eight_lanes() {
    let mut b = Bench::new();
    b.set(0, [0x3f80_0000; 32]);
    // IMM16_IS_LANE_MASK: bit 2*(Lane & 7): lanes with Lane&7 in {0, 3}.
    b.run(config((1 << 0) | (1 << 6), 11, 8));
    for l in 0..32 {
        assert_eq!(
            b.lreg(11)[l],
            if l % 8 == 0 || l % 8 == 3 {
                0x3f80_0000
            } else {
                0
            },
            "lane {l}"
        );
    }
    // Lane flags of lane & 7 filter (flags of lanes 8..31 do not matter).
    b.vu.state.use_lane_flags = 0xff;
    b.vu.state.lane_flags = 0xffff_ff02;
    b.set(0, [0x4000_0000; 32]);
    b.run(config(0, 12, 0));
    for l in 0..32 {
        assert_eq!(
            b.lreg(12)[l],
            if l % 8 == 1 { 0x4000_0000 } else { 0 },
            "lane {l}"
        );
    }
}

#[test]
fn backdoor_load_writes_instruction_templates_unless_disabled() {
    let mut b = Bench::new();
    let word = enc(SFPIADD, 5, 1, 13, 1); // VD = 13 -> InstructionTemplate[1]
    let before = b.vu.state.lreg;
    b.run(word);
    assert!(b.vu.state.load_macro.iter().all(|m| m.template[1] == word));
    assert_eq!(b.vu.state.lreg, before);
    // SFPSWAP with VD >= 12 is a template write too, unless DISABLE_BACKDOOR_LOAD.
    let swap = enc(SFPSWAP, 0, 1, 14, 0);
    b.run(swap);
    assert_eq!(b.vu.state.load_macro[0].template[2], swap);
    for l in 0..32 {
        b.vu.state.lane_config[l] = 1 << 1;
    }
    b.set(1, [42; 32]);
    b.run(config(0, 14, 1)); // LReg[14] = -0.34484843
    b.run(enc(SFPSWAP, 0, 1, 14, 0)); // now a real swap: LReg[1] gets LReg[14]; 14 is read-only
    assert_eq!(b.lreg(1), [(-0.34484843f32).to_bits(); 32]);
    assert_eq!(
        b.vu.state.load_macro[0].template[2], swap,
        "no template write when disabled"
    );
    // SFPSTORE with VD >= 12 stores the register.
    b.run_at(enc_mem(SFPSTORE, 14, 4, 0), 0);
    assert_eq!(b.dst.read32(0, 0, b.cfg) & 0xffff, 0x8ff9);
}

#[test]
fn sfpconfig_every_mod1_and_target_random_state() {
    let mut rng = Rng::new(1800);
    // Every Mod1 on VECTORS random states (32 lanes each), VD and Imm16 random.
    for mod1 in (0..16 * VECTORS).map(|i| (i / VECTORS) as u32) {
        let mut b = Bench::new();
        b.fill(|_, _| rng.u32());
        b.set(11, std::array::from_fn(|_| rng.u32()));
        for l in 0..32 {
            b.vu.state.lane_config[l] = rng.u32() & 0x3_0fff; // keep ROW_MASK clear
            b.vu.state.load_macro[l].misc = rng.u32() & 0xfff;
            b.vu.state.load_macro[l].sequence = [rng.u32(); 4];
            b.vu.state.load_macro[l].template = [rng.u32(); 4];
        }
        b.vu.state.use_lane_flags = rng.u32();
        b.vu.state.lane_flags = rng.u32();
        let (vd, imm16) = (rng.below(16), rng.u32() & 0xffff);
        let before = b.vu.state.clone();
        let mut want = before.clone();
        for lane in 0..32 {
            let l8 = lane & 7;
            if mod1 & 8 != 0 && (imm16 >> (l8 * 2)) & 1 == 0 {
                continue;
            }
            if (before.use_lane_flags >> l8) & 1 != 0 && (before.lane_flags >> l8) & 1 == 0 {
                continue;
            }
            let src = before.lreg[0][l8];
            let value = if mod1 & 1 != 0 { imm16 } else { src };
            let op = |old: u32, v: u32| match mod1 & 6 {
                0 => v,
                2 => old | v,
                4 => old & v,
                _ => old ^ v,
            };
            match vd {
                0..=3 => want.load_macro[lane].template[vd as usize] = src,
                4..=7 => want.load_macro[lane].sequence[vd as usize - 4] = value,
                8 => want.load_macro[lane].misc = op(before.load_macro[lane].misc, value & 0xfff),
                9 | 10 => {}
                11..=14 => {
                    want.lreg[vd as usize][lane] = if mod1 & 1 != 0 {
                        [-1.0f32, 1.0 / 65536.0, -0.67487759, -0.34484843][vd as usize - 11]
                            .to_bits()
                    } else {
                        src
                    }
                }
                _ => {
                    let orig = before.lane_config[lane];
                    let mut v = op(orig, value & 0x3_ffff);
                    if mod1 & 1 != 0 {
                        v |= orig & !0xffff;
                    }
                    want.lane_config[lane] = v;
                }
            }
        }
        b.run(config(imm16, vd, mod1));
        assert_eq!(
            b.vu.state, want,
            "SFPCONFIG mod1 {mod1} vd {vd} imm16 {imm16:#x}"
        );
    }
}

/// An SFPNOP word is no exception to the backdoor load: with 12..15 in bits 4..7 (where the
/// register shapes keep `VD`) it writes itself to `InstructionTemplate[VD - 12]` and changes
/// nothing else; the canonical SFPNOP (bits 0..23 zero) and one with `VD < 12` change nothing.
#[test]
fn sfpnop_with_vd_12_or_more_is_a_backdoor_template_load() {
    let mut b = Bench::new();
    b.fill(|r, l| (r * 32 + l) as u32);
    let before = b.vu.state.clone();
    b.run(SFPNOP << 24);
    b.run((SFPNOP << 24) | (11 << 4));
    assert_eq!(b.vu.state, before, "SFPNOP with VD < 12 does nothing");
    for vd in 12..16u32 {
        let word = (SFPNOP << 24) | 0x00ab_c00f | (vd << 4);
        b.run(word);
        for l in 0..32 {
            assert_eq!(b.vu.state.load_macro[l].template[vd as usize - 12], word);
        }
    }
    let mut want = before;
    for l in 0..32 {
        want.load_macro[l].template =
            std::array::from_fn(|i| (SFPNOP << 24) | 0x00ab_c00f | ((i as u32 + 12) << 4));
    }
    assert_eq!(b.vu.state, want, "only the templates change");
    // With DISABLE_BACKDOOR_LOAD it is an SFPNOP again.
    for l in 0..32 {
        b.vu.state.lane_config[l] = 1 << 1;
    }
    b.run((SFPNOP << 24) | (12 << 4));
    assert_eq!(
        b.vu.state.load_macro[0].template[0],
        (SFPNOP << 24) | 0x00ab_c0cf
    );
}
