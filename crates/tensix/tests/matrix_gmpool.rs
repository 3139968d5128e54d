//! GMPOOL against its functional model in tt-isa-documentation:
//! WormholeB0/TensixTile/TensixCoprocessor/GMPOOL.md, rewritten below (`reference_gmpool`).
//! GMPOOL is defined on bits, so random operands here are arbitrary 19-bit Src datums and
//! arbitrary Dst bits.
mod matrix_common;

use bhemu_isa::tensix::blackhole::Insn;
use bhemu_tensix::matrix::MathFormat;
use matrix_common::*;

fn word(arg_max: bool, dst: u16) -> u32 {
    Insn::Gmpool {
        clear_dvalid: 0,
        instr_mod19: 1,
        pool_addr_mode: 0,
        max_pool_index_en: arg_max as u8,
        dst,
    }
    .encode()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DS {
    Int32,
    Fp16,
    Bf16,
    Tf32,
}

/// The page's Datum: Sign, Exponent (uint9_t), MagOrMan (uint10_t).
#[derive(Clone, Copy)]
struct Datum {
    sign: u32,
    exp: u32,
    mag: u32,
}

fn read_dst(v: u32, s: DS) -> Datum {
    let (exp, mag) = match s {
        DS::Int32 => ((v >> 10) & 0x3f | ((v >> 24) & 7) << 6, v & 0x3ff),
        DS::Fp16 => (((v >> 16) & 0x1f) + 15, (v >> 21) & 0x3ff),
        DS::Bf16 => (((v >> 16) & 0xff) + 127, ((v >> 24) & 0x7f) << 3),
        DS::Tf32 => (
            ((v >> 16) & 0xff) + 127,
            (((v >> 24) & 0x7f) << 3) + ((v >> 13) & 7),
        ),
    };
    Datum {
        sign: v >> 31,
        exp: exp % 512,
        mag: mag % 1024,
    }
}

fn write_dst(d: Datum, s: DS) -> u32 {
    match s {
        DS::Int32 => (d.sign << 31) | ((d.exp & 7) << 10) | d.mag,
        DS::Fp16 if d.exp & 0x3f == 0 => 0,
        DS::Fp16 => (d.sign << 31) | (d.mag << 21) | ((((d.exp + 512 - 15) % 512) & 0x1f) << 16),
        _ if d.exp == 0 => 0,
        _ => {
            let e = (d.exp + 512 - 127) % 512;
            let hi = (d.sign << 31) | ((d.mag & 0x3f8) << 21) | ((e & 0xff) << 16);
            if s == DS::Tf32 {
                hi + ((d.mag & 7) << 13)
            } else {
                hi
            }
        }
    }
}

fn read_and_scale(a: u32, style: Style, b: u32) -> Datum {
    let (ae, be) = (a & 0xff, b & 0xff);
    if be == 0 {
        return Datum {
            sign: 1,
            exp: 511,
            mag: 1023,
        };
    }
    if ae == 0 {
        return Datum {
            sign: 0,
            exp: 0,
            mag: 0,
        };
    }
    let mag = (a >> 8) & 0x3ff;
    let (exp, mag) = match style {
        Style::Int8 => (0, mag),
        Style::Fp16 => ((ae & 0x1f) + (be & 0x1f), mag),
        Style::Tf32 => (ae + be, mag),
        Style::Bf16 => (ae + be, mag & 0x3f8),
    };
    Datum {
        sign: a >> 18,
        exp: exp % 512,
        mag,
    }
}

fn comparable(d: Datum) -> i32 {
    let v = ((d.exp << 10) + d.mag) as i32;
    if d.sign == 1 {
        -v
    } else {
        v
    }
}

fn dst_style(style: Style, dst32: bool, arg_max: bool) -> DS {
    match style {
        Style::Int8 => DS::Int32,
        Style::Bf16 if arg_max && dst32 => DS::Bf16,
        Style::Bf16 => {
            if dst32 {
                DS::Tf32
            } else {
                DS::Bf16
            }
        }
        Style::Fp16 if arg_max && dst32 => DS::Fp16,
        Style::Fp16 => {
            if dst32 {
                DS::Tf32
            } else {
                DS::Fp16
            }
        }
        Style::Tf32 if arg_max => DS::Int32,
        Style::Tf32 => {
            if dst32 {
                DS::Tf32
            } else {
                DS::Bf16
            }
        }
    }
}

fn reference_gmpool(
    m: &mut Machine,
    style: Style,
    dst32: bool,
    arg_max: bool,
    rwc_a: u32,
    rwc_b: u32,
    dst_row: u32,
) {
    const T: [u32; 8] = [0, 3, 6, 1, 4, 7, 2, 5];
    let ds = dst_style(style, dst32, arg_max);
    let (a_row, b_row, dst_row) = (rwc_a & 0x30, rwc_b & 0x38, dst_row & 0x3fc);
    for j in 0..16 {
        let dst_val = if dst32 {
            m.reference.r32(dst_row, j)
        } else {
            (m.reference.r16(dst_row, j) as u32) << 16
        };
        let mut max = read_dst(dst_val, ds);
        let mut max_index = dst_val & 0xff;
        let index_phase = dst_val.wrapping_add(0x100) & 0xf00;
        for step in 0..16u32 {
            let i = if step < 8 { step ^ 4 } else { step };
            let a = m.src_a.read(0, (a_row + i) as usize, j);
            let b = m.src_b.read(0, b_row as usize, i as usize);
            let x = read_and_scale(a, style, b);
            if comparable(x) >= comparable(max) {
                max = x;
                if i < 8 {
                    max_index = ((index_phase >> 4) + T[i as usize]) & 0xff;
                }
            }
        }
        let out = if !arg_max {
            write_dst(max, ds)
        } else if ds == DS::Int32 {
            index_phase | max_index
        } else {
            write_dst(max, ds) | index_phase | max_index
        };
        if dst32 {
            m.reference.w32(dst_row, j, out);
            for i in 1..4 {
                let v = if arg_max {
                    m.reference.r32(dst_row + i, j).wrapping_add(0x100) & 0xf00
                } else {
                    0
                };
                m.reference.w32(dst_row + i, j, v);
            }
        } else {
            m.reference.w16(dst_row, j, (out >> 16) as u16);
            for i in 1..4 {
                m.reference.w16(dst_row + i, j, 0);
            }
        }
    }
}

fn fill_random_bits(m: &mut Machine, r: &mut Rng) {
    for bank in 0..2 {
        for row in 0..64 {
            for col in 0..16 {
                m.src_a.write(bank, row, col, r.below(1 << 19) as u32);
                // Mostly non-zero scale exponents, some zero (minus infinity).
                let b = r.below(1 << 19) as u32;
                m.src_b
                    .write(bank, row, col, if r.below(8) == 0 { b & !0xff } else { b });
            }
        }
    }
    for row in 0..1024 {
        for col in 0..16 {
            m.reference.0[row][col] = r.next() as u16;
        }
    }
    m.sync_dst_from_reference();
}

#[test]
fn gmpool_matches_reference_in_every_format_with_and_without_argmax() {
    let mut r = Rng(0x006a_96a9_0001);
    // 16 results per instruction: 6,400 instructions per format in release builds.
    let rounds = ROUNDS * 8;
    for (style, dst32, format) in configs() {
        let mut m = Machine::new();
        for round in 0..rounds {
            if round % 200 == 0 {
                fill_random_bits(&mut m, &mut r);
            }
            let arg_max = r.bit();
            let (rwc_a, rwc_b, base, field) = (
                r.below(64) as u32,
                r.below(64) as u32,
                r.below(1024) as u32,
                r.below(0x4000) as u32,
            );
            if let Err(e) = m.run(
                word(arg_max, field as u16),
                regs(format, rwc_a, rwc_b, base, 0),
            ) {
                panic!("{e:?}");
            }
            reference_gmpool(&mut m, style, dst32, arg_max, rwc_a, rwc_b, field + base);
            m.assert_dst_matches(&format!(
                "GMPOOL {style:?} dst32={dst32} argmax={arg_max} round {round}"
            ));
        }
    }
}

fn bf16_src(v: f32) -> u32 {
    let u = v.to_bits();
    (((u >> 31) & 1) << 18) | (((u >> 16) & 0x7f) << 11) | ((u >> 23) & 0xff)
}

/// GMPOOL on SrcA column 0 = `col`, SrcB row 0 all 1.0, BF16 with FP32 Dst and argmax; Dst
/// starts at `dst`.
fn argmax_of(col: [f32; 16], dst: u32) -> u32 {
    let mut m = Machine::new();
    for (i, &v) in col.iter().enumerate() {
        m.src_a.write(0, i, 0, bf16_src(v));
        m.src_b.write(0, 0, i, bf16_src(1.0));
    }
    m.reference.w32(0, 0, dst);
    m.sync_dst_from_reference();
    if let Err(e) = m.run(word(true, 0), regs(configs()[1].2, 0, 0, 0, 0)) {
        panic!("{e:?}");
    }
    m.dst.read32(0, 0, Default::default())
}

const MINUS_INF: u32 = 0xffff_ffff;

#[test]
fn argmax_returns_the_max_in_the_high_bits_and_a_transformed_index_in_the_low_bits() {
    // Maximum 5.0 in row 2 (first eight rows): index = ((Dst + 0x100) & 0xf00) >> 4 + T[2] = 0xf0 + 6.
    let mut col = [0.0f32; 16];
    col[2] = 5.0;
    let out = argmax_of(col, MINUS_INF);
    assert_eq!(
        out >> 16,
        ((0x20 << 8) | 129) as u32,
        "BF16 5.0 in Dst16 layout"
    );
    // IndexPhase = (0xffffffff + 0x100) & 0xf00 = 0, so the low 12 bits are just T[2].
    assert_eq!(out & 0xfff, 6);
}

#[test]
fn argmax_index_only_tracks_the_first_eight_rows() {
    // Maximum in row 12: the value is returned, the index keeps the last top-half winner.
    let mut col = [0.0f32; 16];
    col[1] = 2.0;
    col[12] = 9.0;
    let out = argmax_of(col, MINUS_INF);
    let phase = (MINUS_INF.wrapping_add(0x100)) & 0xf00;
    assert_eq!(out & 0xfff, phase | ((phase >> 4) + 3)); // T[1] = 3
}

#[test]
fn argmax_ties_go_to_the_last_row_visited_in_order_4_to_7_then_0_to_3() {
    // All equal: rows are visited 4,5,6,7,0,1,2,3 so row 3 wins (T[3] = 1).
    let out = argmax_of([1.0; 16], MINUS_INF);
    let phase = (MINUS_INF.wrapping_add(0x100)) & 0xf00;
    assert_eq!(out & 0xfff, phase | ((phase >> 4) + 1));
}

#[test]
fn srcb_exponent_zero_scales_to_minus_infinity() {
    let mut m = Machine::new();
    for i in 0..16 {
        m.src_a.write(0, i, 0, bf16_src(100.0));
        m.src_b.write(0, 0, i, 0); // exponent 0: every SrcA row becomes minus infinity
    }
    m.reference.w16(0, 0, 0x7f00 | 120); // some BF16 Dst value
    m.sync_dst_from_reference();
    m.run(word(false, 0), regs(configs()[0].2, 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.dst.bits()[0][0], 0x7f00 | 120, "Dst value stays the max");
}

#[test]
fn gmpool_zeroes_the_other_three_rows_of_the_4_row_block() {
    let mut m = Machine::new();
    for row in 0..8 {
        m.reference.0[row] = [0x1234; 16];
    }
    m.sync_dst_from_reference();
    m.run(word(false, 5), regs(configs()[0].2, 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    // DstRow 5 & 0x3fc = 4: rows 5..7 zeroed, rows 0..3 untouched.
    assert_eq!(m.dst.bits()[5], [0; 16]);
    assert_eq!(m.dst.bits()[7], [0; 16]);
    assert_eq!(m.dst.bits()[3], [0x1234; 16]);
}

#[test]
fn srcb_scale_adds_exponents() {
    // SrcA 1.5 scaled by SrcB 4.0 (exponent only) = 6.0 in BF16 Dst.
    let mut m = Machine::new();
    m.src_a.write(0, 0, 0, bf16_src(1.5));
    for i in 0..16 {
        m.src_b.write(0, 0, i, bf16_src(4.5)); // mantissa ignored
    }
    m.reference.w16(0, 0, 0x8000 | 0x7f00 | 0xff); // most negative BF16
    m.sync_dst_from_reference();
    m.run(word(false, 0), regs(configs()[0].2, 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.dst.bits()[0][0], (0x40 << 8) | 129);
}

#[test]
fn fp16a_force_selects_fp16_with_16_bit_dst() {
    let fmt = MathFormat {
        fp16a_force: true,
        src_a_format: 5,
        fp32_enabled: true,
        ..MathFormat::default()
    };
    let mut m = Machine::new();
    // FP16 2.0 (exponent 16) in SrcA row 0, scale 1.0 (exponent 15).
    m.src_a.write(0, 0, 0, 16);
    for i in 0..16 {
        m.src_b.write(0, 0, i, 15);
    }
    m.run(word(false, 0), regs(fmt, 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.dst.bits()[0][0], 16, "FP16 2.0 in Dst16b, exponent 16");
    assert_eq!(m.dst.bits()[8][0], 0, "16-bit Dst: no low half written");
}
