//! Lane predication and the condition-code stack, one test per rule of VectorUnit.md
//! ("Lane Predication Masks") and of SFPENCC / SFPSETCC / SFPCOMPC / SFPPUSHC / SFPPOPC /
//! SFPGT / SFPLE (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/).
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use bhemu_tensix::sfpu::FlagEntry;
use sfpu_common::*;

/// Independent per-lane model of the predication state.
#[derive(Clone, Debug, PartialEq)]
struct Lane {
    flags: bool,
    use_flags: bool,
    stack: Vec<(bool, bool)>, // (LaneFlags, UseLaneFlagsForLaneEnable)
}

fn lanes_of(b: &Bench) -> Vec<Lane> {
    let s = &b.vu.state;
    (0..32)
        .map(|l| Lane {
            flags: (s.lane_flags >> l) & 1 != 0,
            use_flags: (s.use_lane_flags >> l) & 1 != 0,
            stack: (0..s.flag_depth[l] as usize)
                .map(|i| {
                    (
                        s.flag_stack[l][i].lane_flags,
                        s.flag_stack[l][i].use_lane_flags,
                    )
                })
                .collect(),
        })
        .collect()
}

fn randomise(b: &mut Bench, rng: &mut Rng, max_depth: u32) {
    let s = &mut b.vu.state;
    s.lane_flags = rng.u32();
    s.use_lane_flags = rng.u32();
    for l in 0..32 {
        let d = rng.below(max_depth + 1) as usize;
        s.flag_depth[l] = d as u8;
        for i in 0..8 {
            s.flag_stack[l][i] = FlagEntry {
                lane_flags: rng.bool(),
                use_lane_flags: rng.bool(),
            };
        }
    }
}

fn boolean_op(m: u32, a: bool, b: bool) -> bool {
    match m {
        1 => b,
        2 => !b,
        3 => a && b,
        4 => a || b,
        5 => a && !b,
        6 => a || !b,
        7 => !a && b,
        8 => !a || b,
        9 => !a && !b,
        10 => !a || !b,
        11 => a != b,
        12 => a == b,
        _ => unreachable!(),
    }
}

#[test]
fn lane_enabled_uses_lane_flags_only_when_use_lane_flags_is_set() {
    let mut b = Bench::new();
    b.vu.state.lane_flags = 0x0000_ffff;
    b.vu.state.use_lane_flags = 0x00ff_00ff;
    b.set(1, [7; 32]);
    b.run(enc(SFPMOV, 0, 1, 2, 0));
    for l in 0..32 {
        let enabled = (0x00ff_00ffu32 >> l) & 1 == 0 || (0x0000_ffffu32 >> l) & 1 != 0;
        assert_eq!(b.lreg(2)[l], if enabled { 7 } else { 0 }, "lane {l}");
    }
}

#[test]
fn row_mask_disables_whole_rows_of_the_lane_grid() {
    // LaneConfig[Lane & 7].ROW_MASK.Bit[Lane / 8]: rows 1 and 3 masked.
    let mut b = Bench::new();
    for l in 0..32 {
        b.vu.state.lane_config[l] = 0b1010 << 12;
    }
    b.set(1, [7; 32]);
    b.run(enc(SFPMOV, 0, 1, 2, 0));
    for l in 0..32 {
        assert_eq!(
            b.lreg(2)[l],
            if (l / 8) % 2 == 1 { 0 } else { 7 },
            "lane {l}"
        );
    }
}

#[test]
fn sfpencc_every_mod1_and_imm2() {
    let mut rng = Rng::new(900);
    let mut b = Bench::new();
    // 16 * VECTORS vectors of 32 lanes: about 10^5 lanes for each Mod1.
    for _ in 0..16 * VECTORS {
        randomise(&mut b, &mut rng, 8);
        let (mod1, imm2) = (rng.below(16), rng.below(4));
        let mut want = lanes_of(&b);
        for w in want.iter_mut() {
            if mod1 & 2 != 0 {
                w.use_flags = imm2 & 1 != 0;
            } else if mod1 & 1 != 0 {
                w.use_flags = !w.use_flags;
            }
            w.flags = if mod1 & 8 != 0 { imm2 & 2 != 0 } else { true };
        }
        b.run(enc(SFPENCC, imm2, 0, 0, mod1));
        assert_eq!(lanes_of(&b), want, "SFPENCC mod1 {mod1} imm2 {imm2}");
    }
}

#[test]
fn sfpsetcc_every_mod1_in_enabled_lanes() {
    let mut rng = Rng::new(910);
    let mut b = Bench::new();
    // 16 * VECTORS vectors of 32 lanes: about 10^5 lanes for each Mod1.
    for _ in 0..16 * VECTORS {
        randomise(&mut b, &mut rng, 0);
        b.fill(|_, _| rng.int_bits());
        let (mod1, imm1) = (rng.below(16), rng.below(2));
        let before = lanes_of(&b);
        let c = b.lreg(3);
        b.run(enc(SFPSETCC, imm1, 3, 0, mod1));
        let after = lanes_of(&b);
        for l in 0..32 {
            let enabled = !before[l].use_flags || before[l].flags;
            let want = if !enabled {
                before[l].flags
            } else if !before[l].use_flags || mod1 & 8 != 0 {
                false
            } else if mod1 & 1 != 0 {
                imm1 != 0
            } else {
                let v = c[l] as i32;
                match mod1 {
                    0 => v < 0,
                    2 => v != 0,
                    4 => v >= 0,
                    _ => v == 0,
                }
            };
            assert_eq!(
                after[l].flags, want,
                "mod1 {mod1} lane {l} value {:#x}",
                c[l]
            );
        }
    }
}

#[test]
fn sfpcompc_inverts_under_the_stack_top_and_reads_true_true_when_empty() {
    let mut rng = Rng::new(920);
    let mut b = Bench::new();
    for _ in 0..VECTORS {
        randomise(&mut b, &mut rng, 8);
        let mut want = lanes_of(&b);
        for w in want.iter_mut() {
            let (tf, tu) = w.stack.last().copied().unwrap_or((true, true));
            w.flags = if tu && w.use_flags {
                tf && !w.flags
            } else {
                false
            };
        }
        b.run(enc(SFPCOMPC, 0, 0, 0, 0));
        assert_eq!(lanes_of(&b), want);
    }
}

#[test]
fn sfppushc_every_mod1() {
    let mut rng = Rng::new(930);
    let mut b = Bench::new();
    for _ in 0..16 * VECTORS {
        let mod1 = rng.below(16);
        if mod1 == 0 {
            randomise(&mut b, &mut rng, 7);
        } else {
            randomise(&mut b, &mut rng, 7);
            for l in 0..32 {
                b.vu.state.flag_depth[l] = b.vu.state.flag_depth[l].max(1);
            }
        }
        let mut want = lanes_of(&b);
        for w in want.iter_mut() {
            if mod1 == 0 {
                w.stack.push((w.flags, w.use_flags));
                continue;
            }
            let mut top = *w.stack.last().unwrap();
            match mod1 {
                1..=12 => top = (boolean_op(mod1, top.0, w.flags), w.use_flags),
                13 => {
                    w.flags = !w.flags;
                    top = (w.flags, w.use_flags);
                }
                14 => top = (true, true),
                _ => top = (false, true),
            }
            *w.stack.last_mut().unwrap() = top;
        }
        b.run(enc(SFPPUSHC, 0, 0, 0, mod1));
        assert_eq!(lanes_of(&b), want, "SFPPUSHC mod1 {mod1}");
    }
}

#[test]
fn sfppushc_onto_full_stack_or_mutating_empty_stack_is_undefined() {
    let mut b = Bench::new();
    for _ in 0..8 {
        b.run(enc(SFPPUSHC, 0, 0, 0, 0));
    }
    let e = b.run_err(enc(SFPPUSHC, 0, 0, 0, 0));
    assert_eq!(e.insn, "SFPPUSHC");
    assert!(e.reason.contains("full"), "{}", e.reason);
    let mut b = Bench::new();
    let e = b.run_err(enc(SFPPUSHC, 0, 0, 0, 3));
    assert!(e.reason.contains("empty"), "{}", e.reason);
}

#[test]
fn sfppopc_every_mod1() {
    let mut rng = Rng::new(940);
    let mut b = Bench::new();
    for _ in 0..16 * VECTORS {
        let mod1 = rng.below(16);
        randomise(&mut b, &mut rng, 8);
        if mod1 == 0 {
            for l in 0..32 {
                b.vu.state.flag_depth[l] = b.vu.state.flag_depth[l].max(1);
            }
        }
        let mut want = lanes_of(&b);
        for w in want.iter_mut() {
            let top = w.stack.last().copied().unwrap_or((false, false));
            match mod1 {
                0 => {
                    w.stack.pop();
                    w.flags = top.0;
                    w.use_flags = top.1;
                }
                1..=12 => {
                    w.use_flags = top.1;
                    w.flags = boolean_op(mod1, w.flags, top.0);
                }
                13 => w.flags = !w.flags,
                14 => (w.use_flags, w.flags) = (true, true),
                _ => (w.use_flags, w.flags) = (true, false),
            }
        }
        b.run(enc(SFPPOPC, 0, 0, 0, mod1));
        assert_eq!(lanes_of(&b), want, "SFPPOPC mod1 {mod1}");
    }
}

#[test]
fn sfppopc_from_empty_stack_is_undefined() {
    let mut b = Bench::new();
    let e = b.run_err(enc(SFPPOPC, 0, 0, 0, 0));
    assert_eq!(e.insn, "SFPPOPC");
    assert!(e.reason.contains("empty"), "{}", e.reason);
}

#[test]
fn sfpgt_and_sfple_every_mod1_random_lanes() {
    for (opcode, seed) in [(SFPGT, 950u64), (SFPLE, 970)] {
        for mod1 in 0..16u32 {
            let mut rng = Rng::new(seed + mod1 as u64);
            let mut b = Bench::new();
            for _ in 0..VECTORS {
                randomise(&mut b, &mut rng, 3);
                b.fill(|_, _| rng.f32_bits());
                let before = lanes_of(&b);
                let (c, d) = (b.lreg(1), b.lreg(2));
                let d_before = b.lreg(2);
                b.run(enc(opcode, 0, 1, 2, mod1));
                let after = lanes_of(&b);
                for l in 0..32 {
                    let smaller = sm_less(c[l], d[l]);
                    let t = if opcode == SFPGT { smaller } else { !smaller };
                    let enabled = !before[l].use_flags || before[l].flags;
                    let want_d = if enabled && mod1 & 8 != 0 {
                        if t {
                            u32::MAX
                        } else {
                            0
                        }
                    } else {
                        d_before[l]
                    };
                    assert_eq!(b.lreg(2)[l], want_d, "VD lane {l}");
                    let want_f = if enabled && mod1 & 1 != 0 {
                        t
                    } else {
                        before[l].flags
                    };
                    assert_eq!(after[l].flags, want_f, "flags lane {l}");
                    let mut want_stack = before[l].stack.clone();
                    if mod1 & 2 != 0 {
                        if let Some(top) = want_stack.last_mut() {
                            top.0 = if mod1 & 4 != 0 { top.0 | t } else { top.0 & t };
                        }
                    }
                    assert_eq!(after[l].stack, want_stack, "stack lane {l}");
                }
            }
        }
    }
}

#[test]
fn sign_magnitude_order_is_total_over_floats() {
    // -NaN < -Inf < -1 < -0 < +0 < 1 < +Inf < +NaN, via SFPGT's SET_VD.
    let order = [
        0xffc0_0000u32,
        0xff80_0000,
        0xbf80_0000,
        0x8000_0000,
        0,
        0x3f80_0000,
        0x7f80_0000,
        0x7fc0_0000,
    ];
    let mut b = Bench::new();
    for (i, &x) in order.iter().enumerate() {
        for (j, &y) in order.iter().enumerate() {
            b.set(1, [y; 32]); // VC
            b.set(2, [x; 32]); // VD
            b.run(enc(SFPGT, 0, 1, 2, 8));
            assert_eq!(
                b.lreg(2)[0],
                if i > j { u32::MAX } else { 0 },
                "{x:#x} > {y:#x}"
            );
        }
    }
}

#[test]
fn simt_if_else_nesting_through_the_stack() {
    // if (x < 0) { y = 1 } else { y = 2 } with the documented mapping:
    // ENCC enable, SETCC LT0, PUSHC, [then], COMPC, [else], POPC.
    let mut b = Bench::new();
    let mut x = [0u32; 32];
    for (l, v) in x.iter_mut().enumerate() {
        *v = if l % 3 == 0 {
            (-(l as i32)) as u32
        } else {
            l as u32
        };
    }
    x[0] = 0x8000_0001;
    b.set(1, x);
    b.run(enc(SFPENCC, 1, 0, 0, 2)); // UseLaneFlags = true, flags = true
    b.run(enc(SFPPUSHC, 0, 0, 0, 0));
    b.run(enc(SFPSETCC, 0, 1, 0, 0));
    b.run(enc_mem(SFPLOADI, 2, 2, 1));
    b.run(enc(SFPCOMPC, 0, 0, 0, 0));
    b.run(enc_mem(SFPLOADI, 2, 2, 2));
    b.run(enc(SFPPOPC, 0, 0, 0, 0));
    b.run(enc_mem(SFPLOADI, 3, 2, 9)); // after the pop: every lane enabled again
    for l in 0..32 {
        assert_eq!(
            b.lreg(2)[l],
            if (x[l] as i32) < 0 { 1 } else { 2 },
            "lane {l}"
        );
    }
    assert_eq!(b.lreg(3), [9; 32]);
    assert_eq!(b.vu.state.flag_depth, [0; 32]);
}
