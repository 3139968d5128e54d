//! The fast `f32` paths against the general model ([`crate::matrix::arith`],
//! [`crate::matrix::formats`]) on random operands that include every special pattern: exponent
//! 0 with any mantissa (zeros of both signs, denormal patterns), exponent 255, the smallest and
//! largest exponents (results that flush or overflow). A fast path may decline (`None`); when it
//! answers, its bits must be the general path's.
use super::*;
use crate::matrix::{arith, formats};

const N: usize = 100_000;
const FLOAT_STYLES: [SrcAStyle; 3] = [SrcAStyle::Bf16, SrcAStyle::Fp16, SrcAStyle::Tf32];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Biased exponent ranges a datum is drawn from: everything, the edges, near 1, the range where
/// MVMUL's products approach 2^-126, and the top.
fn exponent(r: &mut Rng, max: u32) -> u32 {
    match r.below(8) {
        0 => 0,
        1 => [1, 2, max - 1, max][r.below(4) as usize],
        2 => r.below(max as u64 + 1) as u32,
        3 if max == 0xff => 80 + r.below(20) as u32,
        4 if max == 0xff => 240 + r.below(16) as u32,
        5 => 1 + r.below(3) as u32,
        _ if max == 0xff => 120 + r.below(16) as u32,
        _ => 10 + r.below(12) as u32,
    }
}

/// A random 19-bit Src datum: Sign(18), Man(17:8), Exp(7:0), sometimes with all bits random.
fn src_datum(r: &mut Rng, style: SrcAStyle) -> u32 {
    if r.below(16) == 0 {
        return r.next() as u32 & 0x7_ffff;
    }
    let max = if style == SrcAStyle::Fp16 { 0x1f } else { 0xff };
    let mut exp = exponent(r, max);
    if style == SrcAStyle::Fp16 {
        // The three bits above FP16's exponent are ignored: set them at random.
        exp |= (r.below(8) as u32) << 5;
    }
    ((r.below(2) as u32) << 18) | ((r.below(1024) as u32) << 8) | exp
}

fn general_read(style: SrcAStyle, v: u32) -> f64 {
    match style {
        SrcAStyle::Bf16 => formats::read_src_bf16(v),
        SrcAStyle::Fp16 => formats::read_src_fp16(v),
        _ => formats::read_src_tf32(v),
    }
}

fn same(fast: f32, general: f64) -> bool {
    (fast as f64).to_bits() == general.to_bits()
}

#[test]
fn fast_src_read_and_fidelity_bits_match_the_general_path() {
    let mut r = Rng(0x0123_4567_89ab_cdef);
    for style in FLOAT_STYLES {
        let mut declined = 0;
        for _ in 0..N {
            let v = src_datum(&mut r, style);
            let g = general_read(style, v);
            let Some(x) = read_src(style, v) else {
                // Only exponent 255 (2^128 and up) is out of f32's reach.
                assert!(g.abs() >= 2f64.powi(128), "{style:?} {v:#x}");
                declined += 1;
                continue;
            };
            assert!(same(x, g), "{style:?} read {v:#x}: {x} vs {g}");
            for phase in 0..4 {
                let (fa, ga) = (
                    src_a_fidelity_bits(x, phase),
                    arith::src_a_fidelity_bits(g, phase),
                );
                assert!(
                    same(fa, ga),
                    "{style:?} A {v:#x} phase {phase}: {fa} vs {ga}"
                );
                let (fb, gb) = (
                    src_b_fidelity_bits(x, phase),
                    arith::src_b_fidelity_bits(g, phase),
                );
                assert!(
                    same(fb, gb),
                    "{style:?} B {v:#x} phase {phase}: {fb} vs {gb}"
                );
            }
        }
        if style != SrcAStyle::Fp16 {
            assert!(declined > N / 100, "{style:?}: exponent 255 barely drawn");
        }
    }
    assert!(read_src(SrcAStyle::Int8, 0x100).is_none());
}

/// `n` random Src data whose exponents are drawn from one range for the whole block (so that
/// the fast path's guard is exercised on both sides).
fn block(r: &mut Rng, style: SrcAStyle, n: usize, mode: u64) -> Vec<u32> {
    (0..n)
        .map(|_| {
            let v = src_datum(r, style);
            let exp = match (mode, style) {
                (_, SrcAStyle::Fp16) => return v,
                (0, _) => 120 + r.below(16) as u32,
                (1, _) => 80 + r.below(16) as u32,
                (2, _) => 235 + r.below(21) as u32,
                _ => return v,
            };
            let exp = if r.below(10) == 0 { 0 } else { exp };
            (v & !0xff) | exp
        })
        .collect()
}

#[test]
fn fast_mac_row_matches_the_general_path_on_every_format_and_phase() {
    let mut r = Rng(0xfeed_f00d_1234_5678);
    for style in FLOAT_STYLES {
        for phase in 0..4u8 {
            let (mut answered, mut declined) = (0, 0);
            for trial in 0..N / 64 {
                let mode = trial as u64 % 4;
                let raw_a = block(&mut r, style, 256, mode);
                let raw_b = block(&mut r, style, 16, mode);
                let mut rows = [[0u32; 16]; 16];
                let mut a = [[0.0f64; 16]; 16];
                for k in 0..16 {
                    for j in 0..16 {
                        rows[k][j] = raw_a[k * 16 + j];
                        a[k][j] =
                            arith::src_a_fidelity_bits(general_read(style, rows[k][j]), phase);
                    }
                }
                let mut b_raw = [0u32; 16];
                let mut b = [0.0f64; 16];
                for k in 0..16 {
                    b_raw[k] = raw_b[k];
                    b[k] = arith::src_b_fidelity_bits(general_read(style, b_raw[k]), phase);
                }
                let general = arith::mac_row(&b, &a);
                let fast = SrcABlock::load(style, phase, &rows)
                    .and_then(|blk| mac_row(style, phase, &b_raw, &blk));
                match fast {
                    Some(x) => {
                        answered += 1;
                        for j in 0..16 {
                            assert!(
                                same(x[j], general[j]),
                                "{style:?} phase {phase} column {j}: {} vs {}",
                                x[j],
                                general[j]
                            );
                        }
                    }
                    None => declined += 1,
                }
            }
            assert!(
                answered > N / 1000,
                "{style:?} {phase}: fast path never taken"
            );
            if style != SrcAStyle::Fp16 {
                assert!(
                    declined > N / 1000,
                    "{style:?} {phase}: fast path never declined"
                );
            }
        }
    }
}

/// A random FP32 model value: zero of either sign or a normal `f32` of any exponent.
fn model_value(r: &mut Rng) -> f32 {
    let exp = match r.below(4) {
        0 => exponent(r, 0xfe).min(0xfe),
        1 => 100 + r.below(60) as u32,
        _ => r.below(255) as u32,
    };
    let man = if exp == 0 {
        0
    } else {
        r.next() as u32 & 0x7f_ffff
    };
    f32::from_bits(((r.below(2) as u32) << 31) | (exp << 23) | man)
}

#[test]
fn fast_elementwise_float_ops_match_the_general_path() {
    let mut r = Rng(0x5555_aaaa_1357_9bdf);
    for style in FLOAT_STYLES {
        for _ in 0..N {
            let (va, vb) = (src_datum(&mut r, style), src_datum(&mut r, style));
            let (Some(a), Some(b)) = (read_src(style, va), read_src(style, vb)) else {
                continue;
            };
            let (ga, gb) = (a as f64, b as f64);
            if let Some(s) = fadd(a, b) {
                assert!(same(s, arith::fadd(ga, gb)), "{a} + {b}");
                for k in [5, 7] {
                    assert!(same(fdiv_pow2(s, k), arith::fdiv_pow2(s as f64, k as i32)));
                }
                assert!(same(fdiv_pow2(fdiv_pow2(s, 5), 7), {
                    arith::fdiv_pow2(arith::fdiv_pow2(s as f64, 5), 7)
                }));
            }
            if let Some(d) = fsub(a, b) {
                assert!(same(d, arith::fsub(ga, gb)), "{a} - {b}");
            }
            let phase = r.below(4) as u8;
            let (fa, fb) = (src_a_fidelity_bits(a, phase), src_b_fidelity_bits(b, phase));
            if let Some(p) = fmul(fa, fb) {
                assert!(same(p, arith::fmul(fa as f64, fb as f64)), "{fa} * {fb}");
            }
        }
    }
    // Values just above 2^-126 scaled into the denormal range flush (an f32 multiplication
    // would round 2^-121 * (1 - 2^-24) / 2^5 up to 2^-126).
    let x = f32::from_bits((5 << 23) | 0x7f_ffff);
    assert_eq!((x * 2f32.powi(-5)).to_bits(), 1 << 23);
    assert_eq!(fdiv_pow2(x, 5).to_bits(), 0);
    assert_eq!(arith::fdiv_pow2(x as f64, 5), 0.0);
}

#[test]
fn fast_dst_writes_match_the_general_path_for_every_dst_format() {
    let mut r = Rng(0x1111_2222_3333_4444);
    let (mut fp32, mut bf16, mut fp16) = (0, 0, 0);
    for _ in 0..N {
        let x = model_value(&mut r);
        let gx = x as f64;
        let old32 = r.next() as u32;
        let old16 = r.next() as u16;
        assert_eq!(dst_fp32(x, None), Some(formats::write_dst_fp32(gx)));
        assert_eq!(dst_bf16(x, None), Some(formats::round_write_dst_bf16(gx)));
        assert_eq!(dst_fp16(x, None), Some(formats::round_write_dst_fp16(gx)));
        if let Some(v) = dst_fp32(x, Some(old32)) {
            let g = arith::fadd(gx, formats::read_dst_fp32(old32));
            assert_eq!(v, formats::write_dst_fp32(g), "{x} + {old32:#x}");
            fp32 += 1;
        }
        if let Some(v) = dst_bf16(x, Some(old16)) {
            let g = arith::fadd(gx, formats::read_dst_bf16(old16));
            assert_eq!(v, formats::round_write_dst_bf16(g), "{x} + {old16:#x}");
            bf16 += 1;
        }
        if let Some(v) = dst_fp16(x, Some(old16)) {
            let g = arith::fadd(gx, formats::read_dst_fp16(old16));
            assert_eq!(v, formats::round_write_dst_fp16(g), "{x} + {old16:#x}");
            fp16 += 1;
        }
    }
    assert!(fp32 > N / 2 && bf16 > N / 2 && fp16 > N / 2);
}

#[test]
fn fast_elementwise_rows_match_the_general_path_on_every_format_and_phase() {
    let mut r = Rng(0x0f0f_0f0f_1234_4321);
    for style in FLOAT_STYLES {
        let mut answered = 0;
        for _ in 0..N / 16 {
            let phase = r.below(4) as u8;
            let a: [u32; 16] = std::array::from_fn(|_| src_datum(&mut r, style));
            let b: [u32; 16] = std::array::from_fn(|_| src_datum(&mut r, style));
            for sub in [false, true] {
                let Some(x) = add_row(style, &a, &b, sub, phase as u32) else {
                    continue;
                };
                answered += 1;
                for j in 0..16 {
                    let (ga, gb) = (general_read(style, a[j]), general_read(style, b[j]));
                    let mut g = if sub {
                        arith::fsub(ga, gb)
                    } else {
                        arith::fadd(ga, gb)
                    };
                    if phase & 1 != 0 {
                        g = arith::fdiv_pow2(g, 5);
                    }
                    if phase & 2 != 0 {
                        g = arith::fdiv_pow2(g, 7);
                    }
                    assert!(same(x[j], g), "{style:?} {:#x} {sub} {:#x}", a[j], b[j]);
                }
            }
            if let Some(x) = mul_row(style, &a, &b, phase) {
                for j in 0..16 {
                    let ga = arith::src_a_fidelity_bits(general_read(style, a[j]), phase);
                    let gb = arith::src_b_fidelity_bits(general_read(style, b[j]), phase);
                    let g = arith::fmul(ga, gb);
                    assert!(same(x[j], g), "{style:?} {:#x} * {:#x}", a[j], b[j]);
                }
            }
        }
        assert!(answered > N / 1000, "{style:?}: fast rows never taken");
    }
    let a = [0x100u32; 16];
    assert!(add_row(SrcAStyle::Int8, &a, &a, false, 0).is_none());
    assert!(mul_row(SrcAStyle::Int8, &a, &a, 0).is_none());
}

#[test]
fn fast_dst_rows_match_the_general_path_for_every_dst_format() {
    let mut r = Rng(0x7777_1111_9999_3333);
    let mut answered = [0; 3];
    for _ in 0..N / 16 {
        // Mostly in range so that whole rows answer, sometimes anything.
        let wide = r.below(4) == 0;
        let x: [f32; 16] = std::array::from_fn(|_| {
            let v = model_value(&mut r);
            if wide || v.abs() > 1e30 {
                v
            } else {
                f32::from_bits((v.to_bits() & 0x807f_ffff) | (120 << 23))
            }
        });
        let add = r.below(2) == 0;
        let hi: [u16; 16] = std::array::from_fn(|_| r.next() as u16 & 0xff7f);
        let lo: [u16; 16] = std::array::from_fn(|_| r.next() as u16);
        let (mut h, mut l) = (hi, lo);
        if dst_row_fp32(&x, add, &mut h, &mut l) {
            answered[0] += 1;
            for j in 0..16 {
                let old = ((hi[j] as u32) << 16) | lo[j] as u32;
                let mut g = x[j] as f64;
                if add {
                    g = arith::fadd(g, formats::read_dst_fp32(old));
                }
                let v = ((h[j] as u32) << 16) | l[j] as u32;
                assert_eq!(v, formats::write_dst_fp32(g), "{} + {old:#x}", x[j]);
            }
        } else {
            assert_eq!((h, l), (hi, lo), "a declined row is left untouched");
        }
        for fp16 in [false, true] {
            let mut row = lo;
            if !dst_row_16(&x, add, fp16, &mut row) {
                assert_eq!(row, lo);
                continue;
            }
            answered[1 + fp16 as usize] += 1;
            for j in 0..16 {
                let g = match (fp16, add) {
                    (false, false) => formats::round_write_dst_bf16(x[j] as f64),
                    (true, false) => formats::round_write_dst_fp16(x[j] as f64),
                    (false, true) => formats::round_write_dst_bf16(arith::fadd(
                        x[j] as f64,
                        formats::read_dst_bf16(lo[j]),
                    )),
                    (true, true) => formats::round_write_dst_fp16(arith::fadd(
                        x[j] as f64,
                        formats::read_dst_fp16(lo[j]),
                    )),
                };
                assert_eq!(row[j], g, "{} + {:#x} (fp16 {fp16})", x[j], lo[j]);
            }
        }
    }
    assert!(answered.iter().all(|&n| n > N / 1000), "{answered:?}");
}
