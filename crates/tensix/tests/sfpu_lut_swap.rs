//! SFPLUT / SFPLUTFP32 (every table mode), SFPSWAP (every Mod1, argmin/argmax, inverted
//! compare), SFPTRANSP and SFPSHFT2 (every mode), against references restated from the pages
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/).
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use sfpu_common::*;

fn lut8(x: u32) -> u32 {
    if x == 0xff {
        return 0;
    }
    ((x >> 7) << 31) | ((127 - ((x >> 4) & 7)) << 23) | ((x & 15) << 19)
}

fn lut16(x: u32) -> u32 {
    let e = (x >> 10) & 0x1f;
    (((x >> 15) & 1) << 31) | (if e == 0x1f { 0 } else { 112 + e } << 23) | ((x & 0x3ff) << 13)
}

fn gen_lut(rng: &mut Rng, r: usize) -> u32 {
    match r {
        3 => {
            if rng.bool() {
                // |x| around the segment boundaries 0.5 .. 4
                (rng.u32() & 0x807f_ffff) | ((125 + rng.below(5)) << 23)
            } else {
                rng.f32_bits()
            }
        }
        7 if rng.bool() => rng.below(16),
        _ => rng.u32(),
    }
}

#[test]
fn sfplut_every_mod0_random_lanes() {
    for mod0 in 0..16u32 {
        let vd = 5u32;
        random_check(
            1100 + mod0 as u64,
            enc_mem(SFPLUT, vd, mod0, 0),
            gen_lut,
            move |r, l, out| {
                let l3 = r[3][l];
                let b = f32::from_bits(l3).abs();
                let coeffs = if b < 1.0 {
                    r[0][l]
                } else if b < 2.0 {
                    r[1][l]
                } else {
                    r[2][l]
                };
                let mut d =
                    fma_model_bh(lut8((coeffs >> 8) & 0xff), b.to_bits(), lut8(coeffs & 0xff));
                if mod0 & 4 != 0 {
                    d = (d & 0x7fff_ffff) | (l3 & 0x8000_0000);
                }
                let vdi = if mod0 & 8 != 0 {
                    (r[7][l] & 15) as usize
                } else {
                    vd as usize
                };
                if writable(vdi) {
                    out[vdi][l] = d;
                }
            },
        );
    }
}

#[test]
fn sfplutfp32_every_mod1_random_lanes() {
    for mod1 in 0..16u32 {
        let vd = 6u32;
        random_check(
            1200 + mod1 as u64,
            enc(SFPLUTFP32, mod1 << 4, 0, vd, mod1),
            gen_lut,
            move |r, l, out| {
                let l3 = r[3][l];
                let b = f32::from_bits(l3).abs();
                let i = if b < 1.0 {
                    0
                } else if b < 2.0 {
                    1
                } else {
                    2
                };
                let (a, c) = if mod1 & 2 != 0 {
                    if mod1 & 10 == 10 {
                        (lut16(r[i][l] >> 16), lut16(r[i][l] & 0xffff))
                    } else {
                        let cut = if mod1 & 3 == 3 { 4.0 } else { 3.0 };
                        let j = if b < 0.5 {
                            0
                        } else if b < 1.0 {
                            16
                        } else if b < 1.5 {
                            0
                        } else if b < 2.0 {
                            16
                        } else if b < cut {
                            0
                        } else {
                            16
                        };
                        (
                            lut16((r[i][l] >> j) & 0xffff),
                            lut16((r[4 + i][l] >> j) & 0xffff),
                        )
                    }
                } else {
                    (r[i][l], r[4 + i][l])
                };
                let mut d = fma_model_bh(a, b.to_bits(), c);
                if mod1 & 4 != 0 {
                    d = (d & 0x7fff_ffff) | (l3 & 0x8000_0000);
                }
                let vdi = if mod1 & 8 != 0 {
                    (r[7][l] & 15) as usize
                } else {
                    vd as usize
                };
                if writable(vdi) {
                    out[vdi][l] = d;
                }
            },
        );
    }
}

fn vd_gets_min(mod1: u32, lane: usize) -> bool {
    let rows = |m: u32| (m >> (lane / 8)) & 1 != 0; // bit per row of 8 lanes
    match mod1 {
        1 => true,
        2 => rows(0b0011),
        3 => rows(0b0101),
        4 => rows(0b1001),
        5 => rows(0b0001),
        6 => rows(0b0010),
        7 => rows(0b0100),
        8 => rows(0b1000),
        _ => false,
    }
}

#[test]
fn sfpswap_every_mod1_with_and_without_inverted_compare_and_argminmax() {
    for cfg in [0u32, 1 << 8, 1 << 2, (1 << 2) | (1 << 8)] {
        for mod1 in 0..16u32 {
            for (vc, vd) in [(1u32, 2u32), (0, 5), (6, 3), (9, 2), (2, 9)] {
                let mut rng =
                    Rng::new(1300 + cfg as u64 + mod1 as u64 * 7 + vc as u64 * 3 + vd as u64);
                let mut b = Bench::new();
                for l in 0..32 {
                    b.vu.state.lane_config[l] = cfg;
                }
                for _ in 0..VECTORS / 16 {
                    b.fill(|_, _| rng.f32_bits());
                    check_word(&mut b, enc(SFPSWAP, 0, vc, vd, mod1), move |r, l, out| {
                        let (vc, vd) = (vc as usize, vd as usize);
                        let (cv, dv) = (r[vc][l], r[vd][l]);
                        let mut swap = if mod1 == 0 {
                            true
                        } else if vd_gets_min(mod1, l) {
                            sm_less(cv, dv)
                        } else {
                            !sm_less(cv, dv)
                        };
                        if mod1 != 0 && cfg & (1 << 8) != 0 {
                            swap = !swap;
                        }
                        if !swap {
                            return;
                        }
                        if cfg & (1 << 2) != 0 {
                            if vc < 4 {
                                out[vc][l] = dv;
                            }
                            if vd < 4 {
                                out[vd][l] = cv;
                            }
                            let (ca, da) = (4 + (vc & 3), 4 + (vd & 3));
                            let (x, y) = (r[ca][l], r[da][l]);
                            out[ca][l] = y;
                            out[da][l] = x;
                        } else {
                            if vc < 8 {
                                out[vc][l] = dv;
                            }
                            if vd < 8 {
                                out[vd][l] = cv;
                            }
                        }
                    });
                }
            }
        }
    }
}

#[test]
fn sfpswap_min_max_sorts_a_pair() {
    let mut b = Bench::new();
    let a: [u32; 32] = std::array::from_fn(|l| (l as f32 - 16.0).to_bits());
    let c: [u32; 32] = std::array::from_fn(|l| (8.0 - l as f32).to_bits());
    b.set(0, a);
    b.set(1, c);
    b.run(enc(SFPSWAP, 0, 1, 0, 1)); // VD = LReg0 = min, VC = LReg1 = max
    for l in 0..32 {
        let (x, y) = (l as f32 - 16.0, 8.0 - l as f32);
        assert_eq!(f32::from_bits(b.lreg(0)[l]), x.min(y));
        assert_eq!(f32::from_bits(b.lreg(1)[l]), x.max(y));
    }
}

#[test]
fn sfptransp_transposes_within_columns_respecting_lane_enables() {
    for flags in [u32::MAX, 0x0f0f_3c5a] {
        random_check(
            1400 + flags as u64 % 7,
            enc(SFPTRANSP, 0, 0, 0, 0),
            |rng, _| rng.u32(),
            move |r, l, out| {
                let (row, col) = (l / 8, l % 8);
                let _ = flags;
                for base in [0, 4] {
                    for i in 0..4 {
                        // Register base+i, lane (row, col) receives register base+row, lane (i, col).
                        out[base + i][l] = r[base + row][i * 8 + col];
                    }
                }
            },
        );
    }
    // With some lanes disabled, those keep their old values.
    let mut rng = Rng::new(1410);
    let mut b = Bench::new();
    b.fill(|_, _| rng.u32());
    b.vu.state.use_lane_flags = u32::MAX;
    b.vu.state.lane_flags = 0x00ff_ff00;
    let before = b.vu.state.lreg;
    b.run(enc(SFPTRANSP, 0, 0, 0, 0));
    for base in [0, 4] {
        for i in 0..4 {
            for l in 0..32 {
                let (row, col) = (l / 8, l % 8);
                let enabled = (0x00ff_ff00u32 >> l) & 1 != 0;
                let want = if !enabled || row == i {
                    before[base + i][l]
                } else {
                    before[base + row][i * 8 + col]
                };
                assert_eq!(b.lreg(base + i)[l], want, "reg {} lane {l}", base + i);
            }
        }
    }
}

#[test]
fn sfpshft2_every_mod1_random_lanes() {
    for mod1 in 0..16u32 {
        for (vb, vc, vd) in [(2u32, 1u32, 5u32), (6, 3, 0)] {
            let imm = if mod1 == 6 { 0xf00 | vb } else { vb };
            let word = enc(SFPSHFT2, imm, vc, vd, mod1);
            random_check(
                1500 + mod1 as u64 * 2 + vd as u64,
                word,
                |rng, r| {
                    if r == 1 && rng.bool() {
                        rng.below(80).wrapping_sub(40)
                    } else {
                        rng.u32()
                    }
                },
                move |r, l, out| {
                    let (vb, vc, vd) = (vb as usize, vc as usize, vd as usize);
                    let ror = |v: &[u32; 32]| if l % 8 != 0 { v[l - 1] } else { v[l + 7] };
                    match mod1 {
                        0..=2 => {
                            out[0][l] = r[1][l];
                            out[1][l] = r[2][l];
                            out[2][l] = r[3][l];
                            out[3][l] = match mod1 {
                                0 => 0,
                                1 => {
                                    if l < 24 {
                                        r[0][l + 8]
                                    } else {
                                        0
                                    }
                                }
                                _ => ror(&r[vc]),
                            };
                        }
                        3 => out[vd][l] = ror(&r[vc]),
                        4 => out[vd][l] = if l % 8 != 0 { r[vc][l - 1] } else { 0 },
                        5 | 6 => {
                            let amt = if mod1 == 5 {
                                r[vc][l] as i32
                            } else {
                                (imm as i32) << 20 >> 20
                            };
                            let src = if mod1 == 6 { (imm & 15) as usize } else { vb };
                            out[vd][l] = if amt >= 0 {
                                r[src][l] << (amt & 31)
                            } else {
                                r[src][l] >> ((-(amt as i64)) as u32 & 31)
                            };
                        }
                        _ => {}
                    }
                },
            );
        }
    }
}
