//! The simple sub-unit's lanewise instructions, every mode on random lanes against references
//! restated here from each page (tt-isa-documentation:
//! BlackholeA0/TensixTile/TensixCoprocessor/SFP<name>.md, "Functional model").
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use sfpu_common::*;

fn ints(rng: &mut Rng, _r: usize) -> u32 {
    rng.int_bits()
}

fn floats(rng: &mut Rng, _r: usize) -> u32 {
    rng.f32_bits()
}

#[test]
fn sfpiadd_every_mod1_random_lanes() {
    for mod1 in 0..16u32 {
        for vd in [2u32, 9] {
            let imm = 0x800 | (mod1 * 37); // negative immediates too
            let imm = if mod1 % 2 == 0 { imm & 0x7ff } else { imm };
            let word = enc(SFPIADD, imm, 1, vd, mod1);
            let sext = ((imm as i32) << 20 >> 20) as u32;
            random_check_flags(
                500 + mod1 as u64 + vd as u64,
                word,
                ints,
                move |r, l, out, f| {
                    let vd = vd as usize;
                    if !writable(vd) {
                        return;
                    }
                    let c = r[1][l];
                    let d = if mod1 & 1 != 0 {
                        c.wrapping_add(sext)
                    } else if mod1 & 2 != 0 {
                        c.wrapping_sub(r[vd][l])
                    } else {
                        c.wrapping_add(r[vd][l])
                    };
                    out[vd][l] = d;
                    if vd < 8 {
                        if mod1 & 4 == 0 {
                            *f = (d as i32) < 0;
                        }
                        if mod1 & 8 != 0 {
                            *f = !*f;
                        }
                    }
                },
            );
        }
    }
}

#[test]
fn sfpabs_float_and_integer_random_lanes() {
    for mod1 in [0u32, 1] {
        random_check(
            510 + mod1 as u64,
            enc(SFPABS, 0, 3, 4, mod1),
            floats,
            move |r, l, out| {
                let x = r[3][l];
                out[4][l] = if x < 0x8000_0000 {
                    x
                } else if mod1 == 1 {
                    if x > 0xff80_0000 {
                        x
                    } else {
                        x & 0x7fff_ffff
                    }
                } else {
                    0u32.wrapping_sub(x)
                };
            },
        );
    }
}

#[test]
fn sfpand_sfpor_with_and_without_use_vb_random_lanes() {
    for (opcode, seed) in [(SFPAND, 520u64), (SFPOR, 530)] {
        for mod1 in [0u32, 1] {
            random_check(
                seed + mod1 as u64,
                enc(opcode, 6, 2, 5, mod1),
                ints,
                move |r, l, out| {
                    let b = if mod1 == 1 { r[6][l] } else { r[5][l] };
                    out[5][l] = if opcode == SFPAND {
                        b & r[2][l]
                    } else {
                        b | r[2][l]
                    };
                },
            );
        }
    }
}

#[test]
fn sfpxor_and_sfpnot_random_lanes() {
    random_check(540, enc(SFPXOR, 0, 1, 0, 0), ints, |r, l, out| {
        out[0][l] = r[0][l] ^ r[1][l]
    });
    random_check(541, enc(SFPNOT, 0, 7, 0, 0), ints, |r, l, out| {
        out[0][l] = !r[7][l]
    });
}

#[test]
fn sfplz_every_mod1_random_lanes() {
    for mod1 in 0..16u32 {
        random_check_flags(
            550 + mod1 as u64,
            enc(SFPLZ, 0, 1, 2, mod1),
            ints,
            move |r, l, out, f| {
                let mut c = r[1][l];
                if mod1 & 4 != 0 {
                    c &= 0x7fff_ffff;
                }
                out[2][l] = if c == 0 { 32 } else { c.leading_zeros() };
                if mod1 & 2 != 0 {
                    *f = c != 0;
                }
                if mod1 & 8 != 0 {
                    *f = !*f;
                }
            },
        );
    }
}

#[test]
fn sfpshft_every_mod1_random_lanes() {
    for mod1 in 0..8u32 {
        for imm in [5u32, 0xffb, 0, 0x81f] {
            let word = enc(SFPSHFT, imm, 1, 3, mod1);
            let simm = (imm as i32) << 20 >> 20;
            random_check(
                560 + mod1 as u64 * 4 + imm as u64,
                word,
                |rng, r| {
                    if r == 1 && rng.bool() {
                        rng.below(80).wrapping_sub(40)
                    } else {
                        rng.int_bits()
                    }
                },
                move |r, l, out| {
                    let mut x = r[3][l];
                    let mut amt = r[1][l] as i32;
                    if mod1 & 1 != 0 {
                        if mod1 & 4 != 0 {
                            x = amt as u32;
                        }
                        amt = simm;
                    }
                    out[3][l] = if amt >= 0 {
                        x << (amt & 31)
                    } else if mod1 & 2 != 0 {
                        ((x as i32) >> ((-(amt as i64)) as u32 & 31)) as u32
                    } else {
                        x >> ((-(amt as i64)) as u32 & 31)
                    };
                },
            );
        }
    }
}

#[test]
fn sfpdivp2_set_and_add_random_lanes() {
    for mod1 in [0u32, 1] {
        for imm8 in [0u32, 1, 0x7f, 0x80, 0xff, 0x13] {
            random_check(
                600 + mod1 as u64 * 8 + imm8 as u64,
                enc(SFPDIVP2, imm8, 2, 3, mod1),
                floats,
                move |r, l, out| {
                    let c = r[2][l];
                    let (s, mut e, m) = (c >> 31, (c >> 23) & 0xff, c & 0x7f_ffff);
                    if mod1 & 1 != 0 {
                        if e != 255 {
                            e = (e + imm8) & 0xff;
                        }
                    } else {
                        e = imm8;
                    }
                    out[3][l] = (s << 31) | (e << 23) | m;
                },
            );
        }
    }
}

#[test]
fn sfpexexp_every_mod1_random_lanes() {
    for mod1 in 0..16u32 {
        random_check_flags(
            620 + mod1 as u64,
            enc(SFPEXEXP, 0, 4, 1, mod1),
            floats,
            move |r, l, out, f| {
                let bias = if mod1 & 1 != 0 { 0 } else { 127 };
                let e = ((r[4][l] >> 23) & 0xff) as i32 - bias;
                out[1][l] = e as u32;
                if mod1 & 2 != 0 {
                    *f = e < 0;
                }
                if mod1 & 8 != 0 {
                    *f = !*f;
                }
            },
        );
    }
}

#[test]
fn sfpexman_both_pads_random_lanes() {
    for mod1 in [0u32, 1] {
        random_check(
            640 + mod1 as u64,
            enc(SFPEXMAN, 0, 4, 1, mod1),
            floats,
            move |r, l, out| {
                let hidden = if mod1 & 1 != 0 { 0 } else { 1 << 23 };
                out[1][l] = hidden + (r[4][l] & 0x7f_ffff);
            },
        );
    }
}

#[test]
fn sfpsetexp_sfpsetman_sfpsetsgn_every_mod1_random_lanes() {
    for mod1 in 0..4u32 {
        random_check(
            650 + mod1 as u64,
            enc(SFPSETEXP, 0x5a, 2, 6, mod1),
            floats,
            move |r, l, out| {
                let c = r[2][l];
                let e = if mod1 & 1 != 0 {
                    0x5a
                } else if mod1 & 2 != 0 {
                    (r[6][l] >> 23) & 0xff
                } else {
                    r[6][l] & 0xff
                };
                out[6][l] = (c & 0x8000_0000) | (e << 23) | (c & 0x7f_ffff);
            },
        );
    }
    for mod1 in [0u32, 1] {
        random_check(
            660 + mod1 as u64,
            enc(SFPSETMAN, 0xabc, 2, 6, mod1),
            floats,
            move |r, l, out| {
                let c = r[2][l];
                let m = if mod1 & 1 != 0 {
                    0xabc << 11
                } else {
                    r[6][l] & 0x7f_ffff
                };
                out[6][l] = (c & 0xff80_0000) | m;
            },
        );
        for imm1 in [0u32, 1] {
            random_check(
                670 + mod1 as u64 * 2 + imm1 as u64,
                enc(SFPSETSGN, imm1, 2, 6, mod1),
                floats,
                move |r, l, out| {
                    let c = r[2][l];
                    let s = if mod1 & 1 != 0 { imm1 } else { r[6][l] >> 31 };
                    out[6][l] = (s << 31) | (c & 0x7fff_ffff);
                },
            );
        }
    }
}

#[test]
fn results_to_constant_registers_are_dropped() {
    // "if (VD < 8 || VD == 16)": VD = 8..11 writes nothing (and VD >= 12 is a backdoor load).
    let mut b = Bench::new();
    let before = b.vu.state.lreg;
    for vd in 8..12 {
        b.run(enc(SFPNOT, 0, 0, vd, 0));
        b.run(enc(SFPIADD, 1, 0, vd, 1));
    }
    assert_eq!(b.vu.state.lreg, before);
}

#[test]
fn constant_registers_read_as_documented() {
    // LReg.md: 8 = 0.8373, 9 = 0, 10 = 1.0, 15 = lane * 2.
    let mut b = Bench::new();
    for (src, dst) in [(8u32, 0u32), (9, 1), (10, 2), (15, 3)] {
        b.run(enc(SFPMOV, 0, src, dst, 0));
    }
    assert_eq!(b.lreg(0), [0.8373f32.to_bits(); 32]);
    assert_eq!(b.lreg(1), [0; 32]);
    assert_eq!(b.lreg(2), [1.0f32.to_bits(); 32]);
    let lanes: Vec<u32> = (0..32).map(|l| l * 2).collect();
    assert_eq!(b.lreg(3).to_vec(), lanes);
}
