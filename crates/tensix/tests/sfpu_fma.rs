//! The MAD sub-unit: the bit-exact multiply-add and the instructions built on it (SFPMAD,
//! SFPADD, SFPMUL, SFPADDI, SFPMULI, SFPMUL24), each against a reference restated here from
//! its page (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPMAD.md etc. and
//! Miscellaneous/FMA/README.md).
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use bhemu_tensix::sfpu::fma::mad;
use sfpu_common::*;

const NAN: u32 = 0x7fc0_0000;

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn fma_matches_documented_bit_exact_model_on_random_operands() {
    let mut rng = Rng::new(1);
    for i in 0..2_000_000u32 {
        let (x, y, z) = (rng.f32_bits(), rng.f32_bits(), rng.f32_bits());
        // Every eighth triple: addend close to minus the product, to exercise cancellation.
        let z = if i % 8 == 0 {
            let p = f32::from_bits(x) * f32::from_bits(y);
            (-p).to_bits() ^ (rng.below(4))
        } else {
            z
        };
        assert_eq!(
            mad(x, y, z),
            fma_model_bh(x, y, z),
            "mad({x:#010x}, {y:#010x}, {z:#010x})"
        );
    }
}

/// Host IEEE754 binary32 arithmetic with the page's denormal rules applied around it.
fn ftz(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

fn canon(x: f32) -> u32 {
    if x.is_nan() {
        NAN
    } else {
        x.to_bits()
    }
}

fn tiny(r: u32) -> bool {
    (r & 0x7fff_ffff) < 0x0100_0000 // below 2^-125: denormal-boundary rounding differs
}

#[test]
fn mad_multiply_by_one_is_an_ieee_add() {
    let mut rng = Rng::new(2);
    let one = f(1.0);
    for _ in 0..1_000_000 {
        let (a, c) = (ftz(rng.f32_bits()), ftz(rng.f32_bits()));
        let host = canon(f32::from_bits(a) + f32::from_bits(c));
        if tiny(host) {
            continue;
        }
        assert_eq!(mad(a, one, c), host, "{a:#010x} + {c:#010x}");
    }
}

#[test]
fn mad_adding_negative_zero_is_an_ieee_multiply() {
    let mut rng = Rng::new(3);
    for _ in 0..1_000_000 {
        let (a, b) = (ftz(rng.f32_bits()), ftz(rng.f32_bits()));
        let host = canon(f32::from_bits(a) * f32::from_bits(b));
        if tiny(host) {
            continue;
        }
        assert_eq!(mad(a, b, 0x8000_0000), host, "{a:#010x} * {b:#010x}");
    }
}

#[test]
fn mad_edge_cases_follow_the_ieee754_divergence_rules() {
    let inf = 0x7f80_0000;
    // Any NaN out is the canonical 0x7fc00000.
    assert_eq!(mad(0xffc0_1234, f(1.0), 0), NAN);
    assert_eq!(mad(f(1.0), f(1.0), 0x7f80_0001), NAN);
    // Inf * 0 and Inf - Inf are NaN.
    assert_eq!(mad(inf, 0, f(1.0)), NAN);
    assert_eq!(mad(inf, f(1.0), 0xff80_0000), NAN);
    // Denormal input counts as zero: Inf * denormal is NaN, denormal + 0 is +0.
    assert_eq!(mad(inf, 1, 0), NAN);
    assert_eq!(mad(1, f(1.0), 0), 0);
    assert_eq!(mad(f(2.0), 0x0000_0001, f(3.0)), f(3.0));
    // Signed zero: (-1 * 0) + -0 = -0; (+1 * 0) + -0 = +0; x + (-x) = +0.
    assert_eq!(mad(f(-1.0), 0, 0x8000_0000), 0x8000_0000);
    assert_eq!(mad(f(1.0), 0, 0x8000_0000), 0);
    assert_eq!(mad(f(1.5), f(1.0), f(-1.5)), 0);
    // Output denormal after rounding flushes to signed zero.
    let min_normal = 0x0080_0000;
    assert_eq!(mad(min_normal, f(0.5), 0x8000_0000), 0);
    assert_eq!(mad(min_normal, f(-0.5), 0x8000_0000), 0x8000_0000);
    // Overflow goes to infinity (product on its own overflowing, even with an opposite
    // finite addend).
    assert_eq!(mad(0x7f7f_ffff, f(2.0), 0xff7f_ffff), inf);
    assert_eq!(mad(0x7f7f_ffff, f(-2.0), 0), 0xff80_0000);
    // A product that underflows on its own counts as exactly zero: the addend comes back.
    assert_eq!(mad(0x0100_0000, 0x0100_0000, f(1.0)), f(1.0));
    // Round to nearest, ties to even: 1 + 2^-24 is a tie -> 1; 1 + 3*2^-24 -> 1 + 2^-22.
    assert_eq!(mad(f(1.0), f(1.0), 0x3380_0000), f(1.0));
    assert_eq!(mad(f(1.0), 0x3440_0000, f(1.0)), 0x3f80_0002);
}

/// The SFPMAD functional model (SFPMAD.md), restated for one lane.
fn mad_ref(
    va_f: usize,
    vb: usize,
    vc: usize,
    vd: usize,
    mod1: u32,
) -> impl Fn(&Regs, usize, &mut Regs) + Copy {
    move |r, l, out| {
        let va = if mod1 & 4 != 0 {
            (r[7][l] & 15) as usize
        } else {
            va_f
        };
        let mut b = r[vb][l];
        let mut c = r[vc][l];
        if mod1 & 1 != 0 {
            b ^= 0x8000_0000;
        }
        if mod1 & 2 != 0 {
            c ^= 0x8000_0000;
        }
        let d = fma_model_bh(r[va][l], b, c);
        let vdi = if mod1 & 8 != 0 {
            (r[7][l] & 15) as usize
        } else {
            vd
        };
        if writable(vdi) {
            out[vdi][l] = d;
        }
    }
}

fn gen_mad(rng: &mut Rng, r: usize) -> u32 {
    if r == 7 && rng.bool() {
        rng.below(16)
    } else {
        rng.f32_bits()
    }
}

#[test]
fn sfpmad_sfpadd_sfpmul_every_mod1_random_lanes() {
    for (k, opcode) in [SFPMAD, SFPADD, SFPMUL].into_iter().enumerate() {
        for mod1 in 0..16u32 {
            let (va, vb, vc, vd) = (
                1 + mod1 as usize % 3,
                2,
                [3, 9, 10, 15][mod1 as usize % 4],
                (mod1 as usize * 3) % 8,
            );
            let word = enc_mad(opcode, va as u32, vb as u32, vc as u32, vd as u32, mod1);
            random_check(
                100 + k as u64 * 16 + mod1 as u64,
                word,
                gen_mad,
                mad_ref(va, vb, vc, vd, mod1),
            );
        }
    }
}

#[test]
fn sfpmul_with_negated_lreg9_keeps_negative_zero() {
    // SFPMUL.md: VC = 9 with NEGATE_VC adds -0, which preserves -0 products.
    let mut b = Bench::new();
    b.set(1, [f(-0.0); 32]);
    b.set(2, [f(3.0); 32]);
    b.run(enc_mad(SFPMUL, 1, 2, 9, 0, 2));
    assert_eq!(b.lreg(0), [0x8000_0000; 32]);
    b.run(enc_mad(SFPMUL, 1, 2, 9, 0, 0));
    assert_eq!(b.lreg(0), [0; 32]);
}

#[test]
fn sfpaddi_and_sfpmuli_every_mod1_random_lanes() {
    for (opcode, seed) in [(SFPADDI, 200u64), (SFPMULI, 300)] {
        for mod1 in [0u32, 2, 8, 10] {
            let mut rng = Rng::new(seed + mod1 as u64);
            for _ in 0..VECTORS / 8 + 1 {
                let imm = rng.f32_bits() >> 16;
                let vd = rng.below(8) as usize;
                let word = enc_imm16(opcode, imm, vd as u32, mod1);
                let mut b = Bench::new();
                for _ in 0..8 {
                    b.fill(|r, _| gen_mad(&mut rng, r));
                    check_word(&mut b, word, move |r, l, out| {
                        let mut c = r[vd][l];
                        if mod1 & 2 != 0 {
                            c ^= 0x8000_0000;
                        }
                        let d = if opcode == SFPADDI {
                            fma_model_bh(imm << 16, 0x3f80_0000, c)
                        } else {
                            fma_model_bh(imm << 16, c, 0)
                        };
                        let vdi = if mod1 & 8 != 0 {
                            (r[7][l] & 15) as usize
                        } else {
                            vd
                        };
                        if writable(vdi) {
                            out[vdi][l] = d;
                        }
                    });
                }
            }
        }
    }
}

#[test]
fn sfpmuli_turns_negative_zero_positive() {
    let mut b = Bench::new();
    b.set(4, [0x8000_0000; 32]);
    b.run(enc_imm16(SFPMULI, f(2.0) >> 16, 4, 0));
    assert_eq!(b.lreg(4), [0; 32]);
}

/// `Mul24ShiftAdd` of SFPMUL24.md, restated.
fn mul24_shift_add_ref(mut p_m: u32, z: u32) -> u32 {
    let z_e = (z >> 23) & 0xff;
    if z_e != 0 {
        let p_e = 129u32;
        let r_e = if p_e > z_e { p_e } else { z_e };
        let s = (r_e - z_e) & 31;
        let z_m = (1u32 << 23) + (z & 0x7fffff);
        let z_m_grs = z_m << 3;
        p_m >>= (r_e - p_e) & 31;
        let z_m2 = z_m_grs >> s;
        if z_m2 != 0 {
            p_m += z_m2;
            p_m += ((((z_m2 << s) ^ z_m_grs) > 0xffff) as u32) << 16;
            p_m &= 0x7fffff;
        }
    }
    p_m
}

#[test]
fn sfpmul24_low_high_indirect_random_lanes() {
    for mod1 in [0u32, 1, 4, 5, 8, 9, 12, 13] {
        for vc in [9u32, 3] {
            let word = enc_mad(SFPMUL24, 1, 2, vc, 5, mod1);
            random_check(
                400 + mod1 as u64 * 2 + vc as u64,
                word,
                |rng, r| {
                    if r == 7 && rng.bool() {
                        rng.below(16)
                    } else {
                        rng.int_bits()
                    }
                },
                move |r, l, out| {
                    let va = if mod1 & 4 != 0 {
                        (r[7][l] & 15) as usize
                    } else {
                        1
                    };
                    let (a, b) = (r[va][l], r[2][l]);
                    let d = if mod1 & 1 != 0 {
                        (((a & 0x7fffff) as u64 * (b & 0x7fffff) as u64) >> 23) as u32
                    } else {
                        a.wrapping_mul(b) & 0x7fffff
                    };
                    let d = mul24_shift_add_ref(d, r[vc as usize][l]);
                    let vd = if mod1 & 8 != 0 {
                        (r[7][l] & 15) as usize
                    } else {
                        5
                    };
                    if writable(vd) {
                        out[vd][l] = d;
                    }
                },
            );
        }
    }
}

#[test]
fn sfpmul24_with_zero_addend_is_a_plain_23_bit_product() {
    let mut b = Bench::new();
    b.set(1, [0x0040_0003; 32]);
    b.set(2, [0x0000_1001; 32]);
    b.run(enc_mad(SFPMUL24, 1, 2, 9, 3, 0));
    assert_eq!(
        b.lreg(3),
        [(0x0040_0003u32.wrapping_mul(0x1001)) & 0x7f_ffff; 32]
    );
    b.run(enc_mad(SFPMUL24, 1, 2, 9, 3, 1));
    assert_eq!(b.lreg(3), [((0x0040_0003u64 * 0x1001) >> 23) as u32; 32]);
}

#[test]
fn fma_matches_documented_model_near_the_denormal_boundary() {
    // Products and sums around 2^-126, where the model's exponent-0 path (one extra shift,
    // semi-sticky mask) and the flush after rounding decide the result.
    let mut rng = Rng::new(4);
    for _ in 0..2_000_000 {
        let ex = 1 + rng.below(126);
        let ey = 128 - ex + rng.below(4); // p_e around 1..4
        let x = (rng.u32() & 0x807f_ffff) | (ex << 23);
        let y = (rng.u32() & 0x807f_ffff) | (ey << 23);
        let p = f32::from_bits(x) as f64 * f32::from_bits(y) as f64;
        let z = match rng.below(3) {
            0 => ((-p) as f32).to_bits() ^ rng.below(8),
            1 => (rng.u32() & 0x80ff_ffff) | (rng.below(4) << 23),
            _ => rng.f32_bits(),
        };
        assert_eq!(
            mad(x, y, z),
            fma_model_bh(x, y, z),
            "mad({x:#010x}, {y:#010x}, {z:#010x})"
        );
    }
}
