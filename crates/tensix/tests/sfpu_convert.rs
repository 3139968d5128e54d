//! Conversions and approximations: SFPCAST (three pages), SFPSTOCHRND (three pages), SFPLOADI,
//! SFPARECIP, SFPMOV and the PRNG, each against references restated here from the pages
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/, VectorUnit.md "PRNG").
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use std::cell::RefCell;

use sfpu_common::*;

/// `AdvancePRNG` (VectorUnit.md), restated: a 32-bit LFSR shifting right, the new top bit the
/// inverted parity of bits 31, 21, 1, 0.
fn prng_step(state: &mut u32) -> u32 {
    let out = *state;
    let parity = ((out >> 31) ^ (out >> 21) ^ (out >> 1) ^ out) & 1;
    *state = ((parity ^ 1) << 31) | (out >> 1);
    out
}

#[test]
fn prng_sequence_from_zero_and_from_a_seed() {
    let mut b = Bench::new();
    // From power-on state 0: first output 0, then 0x80000000 (parity 0 -> new top bit 1).
    b.run(enc(SFPMOV, 0, 9, 0, 8));
    assert_eq!(b.lreg(0), [0; 32]);
    b.run(enc(SFPMOV, 0, 9, 0, 8));
    assert_eq!(b.lreg(0), [0x8000_0000; 32]);
    let mut rng = Rng::new(7);
    let mut model = [0u32; 32];
    for l in 0..32 {
        model[l] = rng.u32();
    }
    b.vu.state.prng = model;
    for _ in 0..1000 {
        b.run(enc(SFPMOV, 0, 9, 1, 8));
        for l in 0..32 {
            assert_eq!(b.lreg(1)[l], prng_step(&mut model[l]), "lane {l}");
        }
    }
}

/// Run `word` on random lanes with random PRNG seeds, the reference advancing its own PRNG.
fn random_check_prng(
    seed: u64,
    word: u32,
    mut gen: impl FnMut(&mut Rng, usize) -> u32,
    reference: impl Fn(&Regs, usize, &mut Regs, &mut u32),
) {
    let mut rng = Rng::new(seed);
    let mut b = Bench::new();
    let model = RefCell::new([0u32; 32]);
    for l in 0..32 {
        let s = rng.u32();
        b.vu.state.prng[l] = s;
        model.borrow_mut()[l] = s;
    }
    for _ in 0..VECTORS {
        for r in 0..8 {
            for l in 0..32 {
                b.vu.state.lreg[r][l] = gen(&mut rng, r);
            }
        }
        check_word(&mut b, word, |r, l, out| {
            reference(r, l, out, &mut model.borrow_mut()[l]);
        });
    }
}

#[test]
fn sfpcast_int_to_float_nearest_even_and_stochastic() {
    for mod1 in [0u32, 1, 4, 5] {
        random_check_prng(
            700 + mod1 as u64,
            enc(SFPCAST, 0, 1, 2, mod1),
            |rng, _| rng.int_bits(),
            |r, l, out, prng| {
                let c = r[1][l];
                let sign = c & 0x8000_0000;
                let mag = c & 0x7fff_ffff;
                let lz = if mag != 0 { mag.leading_zeros() } else { 157 };
                let norm = mag << (lz & 31);
                let mut d = sign
                    .wrapping_add(157u32.wrapping_sub(lz) << 23)
                    .wrapping_add(norm >> 8);
                if mod1 & 1 != 0 {
                    if (norm & 0xfe) > ((prng_step(prng) >> 9) & 0xfe) {
                        d = d.wrapping_add(1);
                    }
                } else if norm & 0x80 != 0 && norm & 0x17f != 0 {
                    d = d.wrapping_add(1);
                }
                out[2][l] = d;
            },
        );
    }
}

#[test]
fn sfpcast_nearest_even_matches_host_conversion() {
    // Exact for |x| <= 2^24, otherwise round to nearest even: same as Rust's `as f32`.
    let mut rng = Rng::new(710);
    let mut b = Bench::new();
    for _ in 0..VECTORS {
        b.fill(|_, _| rng.int_bits());
        let src = b.lreg(1);
        b.run(enc(SFPCAST, 0, 1, 2, 0));
        for l in 0..32 {
            let mag = (src[l] & 0x7fff_ffff) as f32;
            let v = if src[l] >> 31 != 0 { -mag } else { mag };
            assert_eq!(b.lreg(2)[l], v.to_bits(), "{:#x}", src[l]);
        }
    }
}

#[test]
fn sfpcast_int32_abs_and_sign_magnitude_conversions() {
    random_check(
        720,
        enc(SFPCAST, 0, 1, 2, 2),
        |rng, _| rng.int_bits(),
        |r, l, out| {
            let x = r[1][l];
            out[2][l] = if x >= 0x8000_0000 {
                0u32.wrapping_sub(x)
            } else {
                x
            };
        },
    );
    random_check(
        721,
        enc(SFPCAST, 0, 1, 2, 3),
        |rng, _| rng.int_bits(),
        |r, l, out| {
            let c = r[1][l];
            let s = c & 0x8000_0000;
            out[2][l] = s | if s != 0 { 0u32.wrapping_sub(c) } else { c };
        },
    );
    let mut b = Bench::new();
    b.set(1, [0x8000_0000; 32]); // sign-magnitude -0 <-> two's complement -2^31
    b.run(enc(SFPCAST, 0, 1, 2, 3));
    assert_eq!(b.lreg(2), [0x8000_0000; 32]);
    b.set(1, [0xffff_fffb; 32]); // -5
    b.run(enc(SFPCAST, 0, 1, 2, 3));
    assert_eq!(b.lreg(2), [0x8000_0005; 32]);
}

/// SFPSTOCHRND word: RoundingMode 21..22, Imm5 16..20, VB 12..15, VC 8..11, VD 4..7,
/// UseImm5 bit 3, Mod1 0..2.
fn stoch(rnd: u32, imm5: u32, vb: u32, vc: u32, vd: u32, use_imm5: u32, mod1: u32) -> u32 {
    (SFPSTOCHRND << 24)
        | (rnd << 21)
        | (imm5 << 16)
        | (vb << 12)
        | (vc << 8)
        | (vd << 4)
        | (use_imm5 << 3)
        | mod1
}

fn prng_bits(rnd: u32, prng: &mut u32) -> u32 {
    let bits = prng_step(prng) & 0x7fffff;
    match rnd {
        0 => 0x400000,
        2 => 0x7fffff,
        _ => bits,
    }
}

#[test]
fn sfpstochrnd_float_to_float_every_rounding() {
    for mod1 in [0u32, 1] {
        for rnd in 0..4u32 {
            random_check_prng(
                730 + mod1 as u64 * 4 + rnd as u64,
                stoch(rnd, 0, 1, 1, 2, 0, mod1),
                |rng, _| rng.f32_bits(),
                move |r, l, out, prng| {
                    let p = prng_bits(rnd, prng);
                    let mut x = r[1][l];
                    let e = (x >> 23) & 0xff;
                    if e == 0 {
                        x = 0;
                    } else if e == 255 {
                        x &= 0xff800000;
                    } else if mod1 == 0 {
                        let dis = x & 0x1fff;
                        x -= dis;
                        if dis >= (p >> 10) {
                            x += 0x2000;
                        }
                    } else {
                        let dis = x & 0xffff;
                        x -= dis;
                        if dis >= (p >> 7) {
                            x += 0x10000;
                        }
                    }
                    out[2][l] = x;
                },
            );
        }
    }
}

#[test]
fn sfpstochrnd_float_to_int_every_mode_and_rounding() {
    for mod1 in [2u32, 3, 6, 7] {
        for rnd in 0..3u32 {
            random_check_prng(
                750 + mod1 as u64 * 4 + rnd as u64,
                stoch(rnd, 0, 1, 1, 2, 0, mod1),
                |rng, _| {
                    if rng.bool() {
                        // magnitudes where the rounding and clamping act
                        (rng.u32() & 0x807f_ffff) | ((120 + rng.below(30)) << 23)
                    } else {
                        rng.f32_bits()
                    }
                },
                move |r, l, out, prng| {
                    let p = prng_bits(rnd, prng) as u64;
                    let (keep, max): (bool, u64) = match mod1 {
                        3 => (true, 127),
                        2 => (false, 255),
                        7 => (true, 32767),
                        _ => (false, 65535),
                    };
                    let c = r[1][l];
                    let mut sign = if keep { c & 0x8000_0000 } else { 0 };
                    let exp = ((c >> 23) & 0xff) as i32 - 127;
                    let mag;
                    if exp < -1 {
                        mag = 0;
                        sign = 0;
                    } else if exp >= 16 {
                        mag = max;
                    } else {
                        let mut m = 0x800000u64 | (c & 0x7fffff) as u64;
                        m = if exp >= 0 { m << exp } else { m >> (-exp) };
                        m = (m >> 23) + ((m & 0x7fffff) >= p) as u64;
                        if m > max {
                            m = max;
                        }
                        if m == 0 {
                            sign = 0;
                        }
                        mag = m;
                    }
                    out[2][l] = sign + mag as u32;
                },
            );
        }
    }
}

#[test]
fn sfpstochrnd_round_to_zero_bug_values_round_away() {
    // SFPSTOCHRND_FloatInt.md: 0.9999998807907 / 0.9999999403954 / 1.999999880791 round
    // away from zero in RND_ZERO mode.
    let mut b = Bench::new();
    for (x, want) in [
        (0x3f7f_fffeu32, 1u32),
        (0x3f7f_ffff, 1),
        (0x3fff_ffff, 2),
        (0x3fff_fffd, 1),
    ] {
        b.set(1, [x; 32]);
        b.run(stoch(2, 0, 1, 1, 2, 0, 2));
        assert_eq!(b.lreg(2), [want; 32], "{x:#x}");
    }
}

#[test]
fn sfpstochrnd_int_to_int_shift_from_register_and_immediate() {
    for mod1 in [4u32, 5] {
        for rnd in 0..3u32 {
            for use_imm in [0u32, 1] {
                let imm5 = 7 + rnd * 5;
                random_check_prng(
                    800 + mod1 as u64 * 8 + rnd as u64 * 2 + use_imm as u64,
                    stoch(rnd, imm5, 3, 1, 2, use_imm, mod1),
                    |rng, _| rng.int_bits(),
                    move |r, l, out, prng| {
                        let p = prng_bits(rnd, prng) as u64;
                        let c = r[1][l];
                        let mut sign = c & 0x8000_0000;
                        let mut mag = ((c & 0x7fff_ffff) as u64) << 23;
                        mag >>= if use_imm == 1 { imm5 } else { r[3][l] & 31 };
                        mag = (mag >> 23) + ((mag & 0x7fffff) >= p) as u64;
                        if mod1 == 4 {
                            mag = mag.min(255);
                            sign = 0;
                        } else {
                            mag = mag.min(127);
                            if mag == 0 {
                                sign = 0;
                            }
                        }
                        out[2][l] = sign + mag as u32;
                    },
                );
            }
        }
    }
}

#[test]
fn sfploadi_every_mode() {
    // Every 16-bit immediate, each with a random old value and VD.
    let mut rng = Rng::new(850);
    let mut b = Bench::new();
    for imm in 0..=0xffffu32 {
        let old = rng.u32();
        let vd = rng.below(8);
        for (mode, want) in [
            (0u32, imm << 16),
            (
                1,
                ((imm >> 15) << 31) | ((((imm >> 10) & 0x1f) + 112) << 23) | ((imm & 0x3ff) << 13),
            ),
            (2, imm),
            (4, imm as u16 as i16 as i32 as u32),
            (8, (imm << 16) | (old & 0xffff)),
            (10, (old & 0xffff_0000) | imm),
        ] {
            b.set(vd as usize, [old; 32]);
            b.run(enc_mem(SFPLOADI, vd, mode, imm));
            assert_eq!(b.lreg(vd as usize), [want; 32], "mode {mode} imm {imm:#x}");
        }
    }
    // VD >= 8 writes nothing.
    let before = b.vu.state.lreg;
    b.run(enc_mem(SFPLOADI, 10, 0, 0x1234));
    assert_eq!(b.vu.state.lreg, before);
}

#[test]
fn sfploadi_unassigned_mode_is_undefined_behaviour() {
    let mut b = Bench::new();
    for mode in [3u32, 5, 6, 7, 9, 11, 12, 13, 14, 15] {
        let e = b.run_err(enc_mem(SFPLOADI, 0, mode, 0));
        assert_eq!(e.insn, "SFPLOADI");
    }
}

const RECIP_LUT: [u32; 128] = [
    127, 125, 123, 121, 119, 117, 116, 114, 112, 110, 109, 107, 105, 104, 102, 100, 99, 97, 96, 94,
    93, 91, 90, 88, 87, 85, 84, 83, 81, 80, 79, 77, 76, 75, 74, 72, 71, 70, 69, 68, 66, 65, 64, 63,
    62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 40,
    39, 38, 37, 36, 35, 35, 34, 33, 32, 31, 31, 30, 29, 28, 28, 27, 26, 25, 25, 24, 23, 23, 22, 21,
    21, 20, 19, 19, 18, 17, 17, 16, 15, 15, 14, 14, 13, 12, 12, 11, 11, 10, 9, 9, 8, 8, 7, 7, 6, 5,
    5, 4, 4, 3, 3, 2, 2, 1, 1, 0,
];

fn recip_ref(x: u32) -> u32 {
    if x < 0x0080_0000 {
        0x7f80_0000
    } else if x < 0x7e80_0000 {
        ((253 - (x >> 23)) << 23) | (RECIP_LUT[((x >> 16) & 0x7f) as usize] << 16)
    } else {
        0
    }
}

#[test]
fn sfparecip_reciprocal_modes_random_lanes() {
    random_check(
        860,
        enc(SFPARECIP, 4, 1, 2, 0),
        |rng, _| rng.f32_bits(),
        |r, l, out| {
            let x = r[1][l];
            let s = x & 0x8000_0000;
            out[2][l] = s + recip_ref(x - s);
        },
    );
    random_check(
        861,
        enc(SFPARECIP, 4, 1, 2, 1),
        |rng, _| rng.f32_bits(),
        |r, l, out| {
            let x = r[1][l];
            let s = x & 0x8000_0000;
            out[2][l] = if (r[4][l] as i32) < 0 {
                recip_ref(x - s)
            } else {
                x
            };
        },
    );
}

#[test]
fn sfparecip_accuracy_bounds_hold() {
    // SFPARECIP.md: 0.9944/x < ApproxRecip(x) < 1.0054/x for 2^-126 <= x < 2^126; 1 -> 0.99609375.
    let mut b = Bench::new();
    b.set(1, [1.0f32.to_bits(); 32]);
    b.run(enc(SFPARECIP, 0, 1, 2, 0));
    assert_eq!(b.lreg(2), [0.99609375f32.to_bits(); 32]);
    let mut rng = Rng::new(862);
    for _ in 0..VECTORS {
        b.fill(|_, _| (rng.u32() & 0x7fff_ffff).clamp(0x0080_0000, 0x7e7f_ffff));
        let src = b.lreg(1);
        b.run(enc(SFPARECIP, 0, 1, 2, 0));
        for l in 0..32 {
            let x = f32::from_bits(src[l]) as f64;
            let y = f32::from_bits(b.lreg(2)[l]) as f64;
            assert!(y > 0.9944 / x && y < 1.0054 / x, "recip({x}) = {y}");
        }
    }
}

#[test]
fn sfparecip_exponential_mode_bounds_and_sign() {
    // SFPARECIP.md: for 0 <= x < 2, 0.9922 e^x < ApproxExp(x) < 1.016 e^x; ApproxExp(1) =
    // 2.703125; the sign of the input is put back on the result.
    let mut b = Bench::new();
    b.set(1, [1.0f32.to_bits(); 32]);
    b.run(enc(SFPARECIP, 0, 1, 2, 2));
    assert_eq!(b.lreg(2), [2.703125f32.to_bits(); 32]);
    b.set(1, [(-1.0f32).to_bits(); 32]);
    b.run(enc(SFPARECIP, 0, 1, 2, 3)); // Mod1 3 takes the default (exp) branch
    assert_eq!(b.lreg(2), [(-2.703125f32).to_bits(); 32]);
    for i in 0..200_000u32 {
        let x = 2.0f32 * i as f32 / 200_000.0;
        if x.to_bits() < 0x0080_0000 {
            continue;
        }
        b.set(1, [x.to_bits(); 32]);
        b.run(enc(SFPARECIP, 0, 1, 2, 2));
        let y = f32::from_bits(b.lreg(2)[0]) as f64;
        let e = (x as f64).exp();
        assert!(y > 0.9922 * e && y < 1.016 * e, "exp({x}) = {y}");
    }
}

#[test]
fn sfpmov_copy_negate_all_lanes_and_special_sources() {
    let mut b = Bench::new();
    let mut rng = Rng::new(870);
    b.fill(|_, _| rng.u32());
    // Predication: only even lanes enabled via LaneFlags.
    b.vu.state.use_lane_flags = u32::MAX;
    b.vu.state.lane_flags = 0x5555_5555;
    let before = b.lreg(3);
    let src = b.lreg(1);
    b.run(enc(SFPMOV, 0, 1, 3, 0));
    for l in 0..32 {
        assert_eq!(b.lreg(3)[l], if l % 2 == 0 { src[l] } else { before[l] });
    }
    b.run(enc(SFPMOV, 0, 1, 4, 1));
    for l in (0..32).step_by(2) {
        assert_eq!(b.lreg(4)[l], src[l] ^ 0x8000_0000);
    }
    b.run(enc(SFPMOV, 0, 1, 5, 2)); // ALL_LANES_ENABLED
    assert_eq!(b.lreg(5), src);
    b.vu.state.use_lane_flags = 0;
    for l in 0..32 {
        b.vu.state.load_macro[l].template = [10 + l as u32, 11, 12, 13];
        b.vu.state.load_macro[l].sequence = [20, 21, 22, 23];
        b.vu.state.load_macro[l].misc = 0xabc;
        b.vu.state.lane_config[l] = 0x1_0000;
    }
    for (vc, want) in [
        (0u32, 10u32),
        (1, 11),
        (3, 13),
        (4, 20),
        (7, 23),
        (8, 0xabc),
        (15, 0x1_0000),
        (10, 0),
        (14, 0),
    ] {
        b.run(enc(SFPMOV, 0, vc, 6, 8));
        assert_eq!(b.lreg(6)[0], want, "special {vc}");
    }
    b.run(enc(SFPMOV, 0, 0, 6, 8));
    assert_eq!(b.lreg(6)[5], 15, "templates are per lane");
}

/// SFPMOV.md, every Mod1 (NEGATE 1, ALL_LANES_ENABLED 2 only as the whole of Mod1,
/// FROM_SPECIAL 8) on random registers, lane enables (`LaneFlags`, `ROW_MASK`), load-macro
/// state and PRNG seeds, with VC over the LRegs (and every special source under
/// FROM_SPECIAL) and VD over 0..12 (VD >= 12 is the backdoor load, tested with SFPLOADMACRO).
#[test]
fn sfpmov_every_mod1_random_lanes() {
    for mod1 in 0..16u32 {
        let mut rng = Rng::new(880 + mod1 as u64);
        let mut b = Bench::new();
        for _ in 0..VECTORS {
            b.fill(|_, _| rng.u32());
            b.vu.state.lane_flags = rng.u32();
            b.vu.state.use_lane_flags = rng.u32();
            for l in 0..32 {
                // ROW_MASK (bits 12..15) set in one lane column in four.
                let row_mask = if rng.below(4) == 0 { rng.below(16) } else { 0 };
                b.vu.state.lane_config[l] = (rng.u32() & 0x3_0fff) | (row_mask << 12);
                let m = &mut b.vu.state.load_macro[l];
                m.template = std::array::from_fn(|_| rng.u32());
                m.sequence = std::array::from_fn(|_| rng.u32());
                m.misc = rng.u32() & 0xfff;
                b.vu.state.prng[l] = rng.u32();
            }
            let special = mod1 & 8 != 0;
            let vc = if special { rng.below(16) } else { rng.below(8) };
            let vd = rng.below(12);
            let before = b.vu.state.clone();
            let mut want = before.clone();
            for l in 0..32 {
                let row_masked = (before.lane_config[l & 7] >> 12 >> (l / 8)) & 1 != 0;
                let use_flags = (before.use_lane_flags >> l) & 1 != 0;
                let flag = (before.lane_flags >> l) & 1 != 0;
                let enabled = !row_masked && (!use_flags || flag);
                if !(enabled || mod1 == 2) {
                    continue;
                }
                let x = if special {
                    let m = &before.load_macro[l];
                    match vc {
                        0..=3 => m.template[vc as usize],
                        4..=7 => m.sequence[vc as usize - 4],
                        8 => m.misc,
                        9 => prng_step(&mut want.prng[l]),
                        15 => before.lane_config[l],
                        _ => 0,
                    }
                } else if mod1 & 1 != 0 {
                    before.lreg[vc as usize][l] ^ 0x8000_0000
                } else {
                    before.lreg[vc as usize][l]
                };
                if vd < 8 {
                    want.lreg[vd as usize][l] = x;
                }
            }
            b.run(enc(SFPMOV, 0, vc, vd, mod1));
            assert_eq!(b.vu.state, want, "SFPMOV mod1 {mod1} vc {vc} vd {vd}");
        }
    }
}

/// SFPCAST_IntAbs.md / SFPCAST_IntInt.md select on `Mod1 & 3`: Mod1 6 and 7 are the same
/// INT32_ABS and INT32_SM32 as 2 and 3.
#[test]
fn sfpcast_mod1_bit_2_is_ignored_by_the_integer_modes() {
    for (mod1, seed) in [(6u32, 722u64), (7, 723)] {
        random_check(
            seed,
            enc(SFPCAST, 0, 1, 2, mod1),
            |rng, _| rng.int_bits(),
            move |r, l, out| {
                let c = r[1][l];
                let s = c & 0x8000_0000;
                out[2][l] = if mod1 == 6 {
                    if s != 0 {
                        0u32.wrapping_sub(c)
                    } else {
                        c
                    }
                } else {
                    s | if s != 0 { 0u32.wrapping_sub(c) } else { c }
                };
            },
        );
    }
}
