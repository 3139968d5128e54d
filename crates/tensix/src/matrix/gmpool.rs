//! GMPOOL: the max of every column of a 16x16 SrcA block (each row scaled by the exponent of
//! one SrcB datum), max'ed with a Dst row, optionally tracking the argmax of the first eight
//! rows. Bit-level throughout: `tt-isa-documentation:
//! WormholeB0/TensixTile/TensixCoprocessor/GMPOOL.md` (`ReadDst`, `WriteDst`,
//! `ReadAndScaleSrc`, `AsComparable`).

use super::zeroacc::DstUndefined;
use super::{DstRows, Gmpool, MatrixCtx, Retired, SrcAStyle};

/// Where the result goes in Dst: the page's `DstStyle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DstStyle {
    Int32,
    Fp16,
    Bf16,
    Tf32,
}

/// The page's `Datum`: a 9-bit exponent and 10-bit magnitude/mantissa (stored wider, always
/// reduced to those widths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Datum {
    sign: u32,
    exponent: u32,
    mag_or_man: u32,
}

const EXP_MASK: u32 = 0x1ff;

fn read_dst(v: u32, style: DstStyle) -> Datum {
    let sign = v >> 31;
    let (exponent, mag_or_man) = match style {
        // Sign,MagMiddle(7b),MagHi(8b),MagLo(16b): low 10 bits of Mag, then the next 9.
        DstStyle::Int32 => (((v >> 10) & 0x3f) + (((v >> 24) & 7) << 6), v & 0x3ff),
        DstStyle::Fp16 => (((v >> 16) & 0x1f) + 15, (v >> 21) & 0x3ff),
        DstStyle::Bf16 | DstStyle::Tf32 => {
            let mut man = ((v >> 24) & 0x7f) << 3;
            if style == DstStyle::Tf32 {
                man += (v >> 13) & 7;
            }
            (((v >> 16) & 0xff) + 127, man)
        }
    };
    Datum {
        sign,
        exponent: exponent & EXP_MASK,
        mag_or_man,
    }
}

fn write_dst(d: Datum, style: DstStyle) -> u32 {
    match style {
        DstStyle::Int32 => (d.sign << 31) | ((d.exponent & 7) << 10) | d.mag_or_man,
        DstStyle::Fp16 => {
            if d.exponent & 0x3f == 0 {
                0
            } else {
                let e = d.exponent.wrapping_sub(15) & EXP_MASK;
                (d.sign << 31) | (d.mag_or_man << 21) | ((e & 0x1f) << 16)
            }
        }
        DstStyle::Bf16 | DstStyle::Tf32 => {
            if d.exponent == 0 {
                0
            } else {
                let e = d.exponent.wrapping_sub(127) & EXP_MASK;
                let mut x = (d.sign << 31) | ((d.mag_or_man & 0x3f8) << 21) | ((e & 0xff) << 16);
                if style == DstStyle::Tf32 {
                    x += (d.mag_or_man & 7) << 13;
                }
                x
            }
        }
    }
}

fn read_and_scale_src(a: u32, style: SrcAStyle, b: u32) -> Datum {
    let (a_exp, b_exp) = (a & 0xff, b & 0xff);
    if b_exp == 0 {
        // Negative infinity: every bit set.
        return Datum {
            sign: 1,
            exponent: EXP_MASK,
            mag_or_man: 0x3ff,
        };
    }
    if a_exp == 0 {
        return Datum {
            sign: 0,
            exponent: 0,
            mag_or_man: 0,
        };
    }
    let mag = (a >> 8) & 0x3ff;
    let (exponent, mag_or_man) = match style {
        SrcAStyle::Int8 => (0, mag),
        SrcAStyle::Fp16 => ((a_exp & 0x1f) + (b_exp & 0x1f), mag),
        SrcAStyle::Tf32 => (a_exp + b_exp, mag),
        SrcAStyle::Bf16 => (a_exp + b_exp, mag & 0x3f8),
    };
    Datum {
        sign: (a >> 18) & 1,
        exponent: exponent & EXP_MASK,
        mag_or_man,
    }
}

fn as_comparable(x: Datum) -> i32 {
    let m = ((x.exponent << 10) + x.mag_or_man) as i32;
    if x.sign != 0 {
        -m
    } else {
        m
    }
}

/// The order in which the argmax index is encoded (the page's `NONLINEAR_I_TRANSFORM`).
const NONLINEAR_I_TRANSFORM: [u8; 8] = [0, 3, 6, 1, 4, 7, 2, 5];

/// GMPOOL.
pub(super) fn gmpool(
    ctx: &mut MatrixCtx<'_>,
    undefined: &DstUndefined,
    (style, dst32): (SrcAStyle, bool),
    f: &Gmpool,
) -> Retired {
    let dst_style = match style {
        SrcAStyle::Int8 => DstStyle::Int32,
        SrcAStyle::Bf16 if f.arg_max && dst32 => DstStyle::Bf16,
        SrcAStyle::Fp16 if f.arg_max && dst32 => DstStyle::Fp16,
        SrcAStyle::Tf32 if f.arg_max => DstStyle::Int32,
        SrcAStyle::Bf16 | SrcAStyle::Tf32 => {
            if dst32 {
                DstStyle::Tf32
            } else {
                DstStyle::Bf16
            }
        }
        SrcAStyle::Fp16 => {
            if dst32 {
                DstStyle::Tf32
            } else {
                DstStyle::Fp16
            }
        }
    };
    let a_row = (ctx.regs.rwc_src_a & 0x30) as usize;
    let b_row = (ctx.regs.rwc_src_b & 0x38) as usize;
    let dst_row = (f.dst + ctx.regs.dst_row_base) & 0x3fc;
    let cfg = ctx.regs.dest_access;
    for j in 0..16 {
        // Undefined rows read as minus infinity, all bits set (ZEROACC.md).
        let mut dst_val = if undefined.view_row_undefined(dst_row, dst32, cfg) {
            if dst32 {
                0xffff_ffff
            } else {
                0xffff_0000
            }
        } else if dst32 {
            ctx.dst.read32(dst_row, j, cfg)
        } else {
            (ctx.dst.read16(dst_row, j, cfg) as u32) << 16
        };
        let mut max = read_dst(dst_val, dst_style);
        let mut max_index = (dst_val & 0xff) as u8;
        let index_phase = dst_val.wrapping_add(0x100) & 0xf00;
        for i_ in 0..16 {
            // The visitation order only matters for ties in argmax.
            let i = if i_ < 8 { i_ ^ 4 } else { i_ };
            let a = ctx.src_a.read(ctx.regs.src_a_bank, a_row + i, j);
            let b = ctx.src_b.read(ctx.regs.src_b_bank, b_row, i);
            let x = read_and_scale_src(a, style, b);
            if as_comparable(x) >= as_comparable(max) {
                max = x;
                if let Some(&t) = NONLINEAR_I_TRANSFORM.get(i) {
                    max_index = ((index_phase >> 4) as u8).wrapping_add(t);
                }
            }
        }
        if f.arg_max {
            let index_result = index_phase | max_index as u32;
            dst_val = if dst_style == DstStyle::Int32 {
                index_result
            } else {
                write_dst(max, dst_style) | index_result
            };
        } else {
            dst_val = write_dst(max, dst_style);
        }
        if dst32 {
            ctx.dst.write32(dst_row, j, dst_val, cfg);
            for i in 1..4 {
                let v = if f.arg_max {
                    let old = if undefined.view_row_undefined(dst_row + i, true, cfg) {
                        0xffff_ffff
                    } else {
                        ctx.dst.read32(dst_row + i, j, cfg)
                    };
                    old.wrapping_add(0x100) & 0xf00
                } else {
                    0
                };
                ctx.dst.write32(dst_row + i, j, v, cfg);
            }
        } else {
            ctx.dst.write16(dst_row, j, (dst_val >> 16) as u16, cfg);
            for i in 1..4 {
                ctx.dst.write16(dst_row + i, j, 0, cfg);
            }
        }
    }
    Retired {
        flip_src_a: f.flip_a,
        flip_src_b: f.flip_b,
        addr_mode: Some(f.addr_mode),
        clear_exp_hist: false,
        dst_read: Some(DstRows {
            first: dst_row,
            count: if f.arg_max && dst32 { 4 } else { 1 },
            wide: dst32,
        }),
        dst_written: Some(DstRows {
            first: dst_row,
            count: 4,
            wide: dst32,
        }),
    }
}
