//! The kernels of the Vector Unit acceptance list, as instruction sequences of the kind tt-llk
//! writes with its raw `TTI_SFP*` macros, run on the unit over a `Dst` tile (64 rows x 16
//! columns of FP32) and checked against an independent model of each kernel. Their firmware
//! counterparts (examples/kernels/compute/sfpu_*.cpp) run through the real firmware in
//! crates/cli/tests/kit_programs.rs.
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use sfpu_common::*;

const FP32: u32 = 3;
const INT32: u32 = 4;

/// Fill Dst rows 0..64 with `f(row, col)` as FP32 / INT32 (stored by SFPSTORE INT32 from a
/// scratch unit so Dst holds the documented shuffled form).
fn tile(b: &mut Bench, mut f: impl FnMut(u32, usize) -> u32) {
    let mut scratch = Bench::new();
    for group in 0..16u32 {
        for half in 0..2u32 {
            let addr = group * 4 + half * 2;
            let v: [u32; 32] = std::array::from_fn(|l| {
                f((addr & !3) | (l as u32 / 8), (l % 8) * 2 + half as usize)
            });
            scratch.set(0, v);
            scratch.run_at(enc_mem(SFPSTORE, 0, INT32, addr), addr);
        }
    }
    b.dst = scratch.dst;
}

/// Read Dst rows 0..64 back as (row, col) -> 32-bit value, through SFPLOAD INT32.
fn read_tile(b: &Bench) -> Vec<Vec<u32>> {
    let mut scratch = Bench::new();
    scratch.dst = b.dst.clone();
    let mut out = vec![vec![0u32; 16]; 64];
    for group in 0..16u32 {
        for half in 0..2u32 {
            let addr = group * 4 + half * 2;
            scratch.run_at(enc_mem(SFPLOAD, 0, INT32, addr), addr);
            for l in 0..32 {
                out[(addr & !3) as usize + l / 8][(l % 8) * 2 + half as usize] = scratch.lreg(0)[l];
            }
        }
    }
    out
}

/// Run `body` (words) once per half-group of four rows, at that half-group's address.
fn run_tile(b: &mut Bench, body: &[u32]) {
    for group in 0..16u32 {
        for half in 0..2u32 {
            let addr = group * 4 + half * 2;
            for &w in body {
                b.run_at(w, addr);
            }
        }
    }
}

fn input(seed: u64) -> Vec<Vec<u32>> {
    let mut rng = Rng::new(seed);
    (0..64)
        .map(|_| (0..16).map(|_| rng.f32_bits()).collect())
        .collect()
}

fn check(b: &Bench, inp: &[Vec<u32>], model: impl Fn(u32) -> u32) {
    let out = read_tile(b);
    for r in 0..64 {
        for c in 0..16 {
            let want = model(inp[r][c]);
            assert_eq!(out[r][c], want, "row {r} col {c} input {:#x}", inp[r][c]);
        }
    }
}

/// FP32 stored to Dst: denormals flush to signed zero (SFPSTORE.md `ToFP32`).
fn stored(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

#[test]
fn kernel_add_a_constant() {
    let inp = input(2000);
    let mut b = Bench::new();
    tile(&mut b, |r, c| inp[r as usize][c]);
    run_tile(
        &mut b,
        &[
            enc_mem(SFPLOAD, 0, FP32, 0),
            enc_imm16(SFPADDI, 0x3f00, 0, 0), // += 0.5
            enc_mem(SFPSTORE, 0, FP32, 0),
        ],
    );
    check(&b, &inp, |x| {
        stored(fma_model_bh(0x3f00_0000, 0x3f80_0000, x))
    });
}

#[test]
fn kernel_relu_by_lane_predication() {
    let inp = input(2001);
    let mut b = Bench::new();
    tile(&mut b, |r, c| inp[r as usize][c]);
    run_tile(
        &mut b,
        &[
            enc_mem(SFPLOAD, 0, FP32, 0),
            enc(SFPENCC, 1, 0, 0, 2), // UseLaneFlagsForLaneEnable = 1, flags = 1
            enc(SFPSETCC, 0, 0, 0, 0), // flags = x < 0
            enc_mem(SFPLOADI, 0, 0, 0), // x = 0.0 where negative
            enc(SFPENCC, 0, 0, 0, 2), // back to all lanes
            enc_mem(SFPSTORE, 0, FP32, 0),
        ],
    );
    check(&b, &inp, |x| stored(if (x as i32) < 0 { 0 } else { x }));
}

#[test]
fn kernel_square_plus_constant_by_sfpmad() {
    let inp = input(2002);
    let mut b = Bench::new();
    tile(&mut b, |r, c| inp[r as usize][c]);
    run_tile(
        &mut b,
        &[
            enc_mem(SFPLOAD, 0, FP32, 0),
            enc_mem(SFPLOADI, 1, 0, 0xbfc0), // c = -1.5
            enc_mad(SFPMAD, 0, 0, 1, 2, 0),  // L2 = L0 * L0 + L1
            enc_mem(SFPSTORE, 2, FP32, 0),
        ],
    );
    check(&b, &inp, |x| stored(fma_model_bh(x, x, 0xbfc0_0000)));
}

#[test]
fn kernel_int32_shift_and_add() {
    let mut rng = Rng::new(2003);
    let inp: Vec<Vec<u32>> = (0..64)
        .map(|_| (0..16).map(|_| rng.int_bits()).collect())
        .collect();
    let mut b = Bench::new();
    tile(&mut b, |r, c| inp[r as usize][c]);
    run_tile(
        &mut b,
        &[
            enc_mem(SFPLOAD, 0, INT32, 0),
            enc(SFPSHFT, 3, 0, 0, 1),         // L0 <<= 3
            enc(SFPIADD, 0xf9c, 0, 0, 1 | 4), // L0 += -100, flags untouched
            enc(SFPSHFT, 0xfff, 0, 0, 1 | 2), // L0 >>= 1 (arithmetic)
            enc_mem(SFPSTORE, 0, INT32, 0),
        ],
    );
    check(&b, &inp, |x| {
        (((x << 3).wrapping_sub(100)) as i32 >> 1) as u32
    });
}

fn lut8(x: u32) -> u32 {
    if x == 0xff {
        return 0;
    }
    ((x >> 7) << 31) | ((127 - ((x >> 4) & 7)) << 23) | ((x & 15) << 19)
}

#[test]
fn kernel_lut_based_function() {
    // A three-segment piecewise-linear function of |x| with sign retained (SFPLUT).
    let inp = input(2004);
    let mut b = Bench::new();
    tile(&mut b, |r, c| inp[r as usize][c]);
    let (c0, c1, c2) = (0x1020u32, 0x2131, 0x3342); // (slope << 8) | offset, Lut8 each
    run_tile(
        &mut b,
        &[
            enc_mem(SFPLOAD, 3, FP32, 0),
            enc_mem(SFPLOADI, 0, 2, c0),
            enc_mem(SFPLOADI, 1, 2, c1),
            enc_mem(SFPLOADI, 2, 2, c2),
            enc_mem(SFPLUT, 4, 4, 0),
            enc_mem(SFPSTORE, 4, FP32, 0),
        ],
    );
    check(&b, &inp, |x| {
        let a = f32::from_bits(x & 0x7fff_ffff);
        let k = if a < 1.0 {
            c0
        } else if a < 2.0 {
            c1
        } else {
            c2
        };
        let d = fma_model_bh(lut8(k >> 8), x & 0x7fff_ffff, lut8(k & 0xff));
        stored((d & 0x7fff_ffff) | (x & 0x8000_0000))
    });
}

#[test]
fn kernel_sort_network_step() {
    // Compare-exchange of rows r and r + 32 (sign-magnitude order): min stays, max moves.
    let inp = input(2005);
    let mut b = Bench::new();
    tile(&mut b, |r, c| inp[r as usize][c]);
    for group in 0..8u32 {
        for half in 0..2u32 {
            let lo = group * 4 + half * 2;
            let hi = lo + 32;
            b.run_at(enc_mem(SFPLOAD, 0, FP32, lo), lo);
            b.run_at(enc_mem(SFPLOAD, 1, FP32, hi), hi);
            b.run(enc(SFPSWAP, 0, 1, 0, 1)); // L0 = min, L1 = max
            b.run(enc(SFPNOP, 0, 0, 0, 0));
            b.run_at(enc_mem(SFPSTORE, 0, FP32, lo), lo);
            b.run_at(enc_mem(SFPSTORE, 1, FP32, hi), hi);
        }
    }
    let out = read_tile(&b);
    for r in 0..32 {
        for c in 0..16 {
            let (x, y) = (inp[r][c], inp[r + 32][c]);
            let (mn, mx) = if sm_less(y, x) { (y, x) } else { (x, y) };
            assert_eq!(out[r][c], stored(mn), "min row {r} col {c}");
            assert_eq!(out[r + 32][c], stored(mx), "max row {r} col {c}");
        }
    }
}
