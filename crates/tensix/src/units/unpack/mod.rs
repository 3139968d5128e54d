//! Unpackers: UNPACR moves datums from L1 to `SrcA` / `SrcB` / `Dst` with format conversion.
//! Effects when the UNPACR starts in its unpacker (see `super` for why); FlipSrc's bank
//! hand-over happens when it retires.
//!
//! Page: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/UNPACR_Regular.md
//! ("Functional model"), with Blackhole's field names from `cfg_defines.h` and the
//! instruction table: `Unpack_block_selection` = WhichUnpacker, `AddrMode` bits 0..7 =
//! Ch0ZInc, Ch0YInc, Ch1ZInc, Ch1YInc (2 bits each), `CfgContextId` = ContextNumber,
//! `AddrCntContextId` = ContextADC, `OvrdThreadId` = MultiContextMode, `SetDatValid` =
//! FlipSrc, `ZeroWrite2` = AllDatumsAreZero, `AutoIncContextID` = UseContextCounter.
//!
//! Modelled: uncompressed input in every documented format, tile descriptors, per-context
//! configuration, tilize (`Tileize_mode`: discontiguous input rows), transpose
//! (`Haloize_mode`), column shift, upsampling, unpack to `Dst`, the L1 FIFO wrap (on
//! Blackhole only when `THCON_SECn_REG10_Unpack_limit_address_en` is set), the counter
//! updates. Not modelled (reported as an error naming the instruction): decompression and
//! row search.
use bhemu_isa::tensix::blackhole::operands::Unpacr;

use crate::formats::{
    bfp8_to_bf16, bfp8a_to_fp16, int8_to_fp16_overlay, write_dst_bf16, write_dst_fp16,
    write_dst_fp32, write_src_bf16, write_src_fp16, write_src_int16, write_src_tf32, BfpWidth,
    DataFormat,
};
use crate::state::cfg_fields as f;
use crate::state::{Coord, SrcData};

use super::{Ctx, UnitResult};

mod fields;
use fields::fields;

/// Per-unpacker state the instructions keep (UNPACR_Regular.md: `ContextCounter[3]`,
/// `SrcRow[3]`; the bank pointer is `crate::src_banks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnpackerState {
    pub context_counter: [u8; 3],
    pub src_row: [u8; 3],
}

/// The tile descriptor's fields (UNPACR_Regular.md "Configuration").
#[derive(Clone, Copy, Debug, Default)]
struct TileDescriptor {
    in_data_format: u32,
    is_uncompressed: bool,
    no_bfp_exp_section: bool,
    x_dim: u32,
    y_dim: u32,
    z_dim: u32,
    w_dim: u32,
    digest_size: u32,
}

fn tile_descriptor(ctx: &Ctx, addr32: usize) -> TileDescriptor {
    let sid = ctx.state.cfg.state_id(ctx.thread);
    let w = |k: usize| ctx.state.cfg.word(sid, addr32 + k).unwrap_or(0);
    let (w0, w1, w2, w3) = (w(0), w(1), w(2), w(3));
    TileDescriptor {
        in_data_format: w0 & 0xf,
        is_uncompressed: w0 & 0x10 != 0,
        no_bfp_exp_section: w0 & 0x20 != 0,
        x_dim: w0 >> 16,
        y_dim: w1 & 0xff,
        z_dim: (w1 >> 16) & 0xff,
        w_dim: w2 & 0xff,
        digest_size: w3 >> 24,
    }
}

/// A BFP4/BFP2 input with OutDataFormat BFP8 of the same family (docs/tensix-datapath.md,
/// "Unpacker conversions").
fn widens_to(in_fmt: DataFormat, out_fmt: DataFormat) -> bool {
    use DataFormat::*;
    matches!(
        (in_fmt, out_fmt),
        (Bfp4 | Bfp2, Bfp8) | (Bfp4a | Bfp2a, Bfp8a)
    )
}

/// `FormatConversion` of UNPACR_Regular.md for one datum. `Err` carries the reason for the
/// page's `UndefinedBehaviour()` (or a conversion bhemu does not model).
fn convert(
    in_fmt: DataFormat,
    out_fmt: DataFormat,
    bits: u32,
    exp: u8,
    to_dst: bool,
    int8_unsigned: bool,
    e4m3: bool,
) -> Result<u32, String> {
    use DataFormat::*;
    let (fmt16, v) = match in_fmt {
        Fp32 => match out_fmt {
            Fp32 if to_dst => return Ok(write_dst_fp32(bits)),
            Fp32 => return Err("FP32 to FP32 is only possible when unpacking to Dst".into()),
            Tf32 if to_dst => return Ok(write_dst_fp32(bits)),
            Tf32 => return Ok(write_src_tf32(bits >> 13)),
            Bf16 => {
                let b = if bits & 0x7f80_0000 == 0 {
                    bits & 0x8000_0000 // flush denormals to zero
                } else {
                    bits
                };
                (Bf16, b >> 16)
            }
            Fp16 => (Fp16, fp32_to_fp16_unpacked(bits)),
            o => return Err(format!("FP32 cannot be unpacked as {}", o.name())),
        },
        // A narrower BFP unpacked as the 8-bit form of its family goes through the same
        // widening as when in and out formats agree (BfpWidth::widen_to_8, below).
        _ if in_fmt != out_fmt && !widens_to(in_fmt, out_fmt) => {
            return Err(format!(
                "InDataFormat {} with OutDataFormat {}: only FP32 converts",
                in_fmt.name(),
                out_fmt.name()
            ))
        }
        Fp8 => (Fp16, fp8_to_fp16_unpacked(bits as u8, e4m3) as u32),
        Bfp8 | Bfp4 | Bfp2 => {
            let w = match in_fmt {
                Bfp8 => BfpWidth::B8,
                Bfp4 => BfpWidth::B4,
                _ => BfpWidth::B2,
            };
            (Bf16, bfp8_to_bf16(w.widen_to_8(bits as u8), exp) as u32)
        }
        Bfp8a | Bfp4a | Bfp2a => {
            let w = match in_fmt {
                Bfp8a => BfpWidth::B8,
                Bfp4a => BfpWidth::B4,
                _ => BfpWidth::B2,
            };
            let h = bfp8a_to_fp16(w.widen_to_8(bits as u8), exp)
                .ok_or("BFP*a datum whose normalised exponent leaves 5 bits")?;
            (Fp16, h as u32)
        }
        Int8 => (Fp16, int8_to_fp16_overlay(bits as u8, int8_unsigned) as u32),
        Tf32 if to_dst => return Ok(write_dst_fp32(bits)),
        Tf32 => return Err("TF32 is not valid as InDataFormat except to Dst".into()),
        other => (other, bits),
    };
    match fmt16 {
        Int16 if to_dst => Ok(v),
        Int16 => Ok(write_src_int16(v as u16)),
        Int32 | Fp32 if to_dst => Ok(write_dst_fp32(v)),
        Int32 | Fp32 => Err(format!("{} cannot be unpacked to SrcA/SrcB", fmt16.name())),
        Bf16 if to_dst => Ok(write_dst_bf16(v as u16) as u32),
        Bf16 => Ok(write_src_bf16(v as u16)),
        Fp16 if to_dst => Ok(write_dst_fp16(v as u16) as u32),
        Fp16 => Ok(write_src_fp16(v as u16)),
        o => Err(format!("no conversion for {}", o.name())),
    }
}

/// FP32 to FP16 on the way into Src: the exponent re-biased from 127 to 15, the mantissa's top
/// ten bits kept (truncated); below FP16's range a signed zero, above it the largest FP16
/// pattern (exponent 31, mantissa 1023). Established with the reference simulator
/// (docs/tensix-datapath.md "Unpacker conversions").
fn fp32_to_fp16_unpacked(bits: u32) -> u32 {
    let sign = (bits >> 16) & 0x8000;
    let exp = ((bits >> 23) & 0xff) as i32 - 112;
    let man = (bits >> 13) & 0x3ff;
    sign | match exp {
        e if e < 0 => 0,
        e if e > 31 => (31 << 10) | 0x3ff,
        e => ((e as u32) << 10) | man,
    }
}

/// An FP8 datum as the FP16 the unpacker writes. E5M2 is FP16's top byte, except that on
/// Blackhole exponent and mantissa all ones become an FP16 with every low bit set too. E4M3
/// (`Unp_LF8_4b_exp`) re-biases its exponent by 8 (exponent 0 stays 0) and, for exponent 15
/// with mantissa 7, sets every mantissa bit below its three.
fn fp8_to_fp16_unpacked(b: u8, e4m3: bool) -> u16 {
    let b = u16::from(b);
    if e4m3 {
        let (sign, exp, man) = (b & 0x80, (b >> 3) & 15, b & 7);
        let pad = if exp == 15 && man == 7 { 0x7f } else { 0 };
        let exp = if exp != 0 { exp + 8 } else { 0 };
        (sign << 8) | (exp << 10) | (man << 7) | pad
    } else if b & 0x7f == 0x7f {
        (b << 8) | 0xff
    } else {
        b << 8
    }
}

/// Reads `nbits` (1..=32) little-endian bits at bit address `bit_addr` of L1.
fn read_bits(ctx: &mut Ctx, bit_addr: u64, nbits: u32) -> Result<u32, crate::TensixError> {
    let byte = (bit_addr / 8) as u32;
    let mut buf = [0u8; 5];
    let n = ((bit_addr % 8) as u32 + nbits).div_ceil(8) as usize;
    ctx.read_l1(byte, &mut buf[..n])?;
    let mut v = 0u64;
    for (i, b) in buf[..n].iter().enumerate() {
        v |= (*b as u64) << (8 * i);
    }
    let v = v >> (bit_addr % 8);
    Ok((v & ((1u64 << nbits) - 1)) as u32)
}

/// `UNPACR` (regular form).
pub fn unpacr(ctx: &mut Ctx, insn: Unpacr) -> UnitResult {
    let Unpacr {
        unpack_block_selection,
        addr_mode,
        cfg_context_id,
        addr_cnt_context_id,
        ovrd_thread_id,
        set_dat_valid,
        zero_write2,
        auto_inc_context_id,
        row_search,
        ..
    } = insn;
    let u = unpack_block_selection as usize & 1;
    let fl = fields(u);
    let t = ctx.thread;
    let multi = ovrd_thread_id != 0;
    if row_search != 0 {
        return ctx.not_modelled("UNPACR with RowSearch");
    }
    // Context and ADC selection.
    let (ctxn, which_adc) = if multi {
        let base = if auto_inc_context_id != 0 {
            ctx.state.unpackers[u].context_counter[t]
        } else {
            cfg_context_id
        };
        let off_field = if u == 0 {
            f::UNPACK_MISC_CFG_CfgContextOffset_0
        } else {
            f::UNPACK_MISC_CFG_CfgContextOffset_1
        };
        let c = (base as u32 + ctx.cfg(off_field)) & 7;
        if u == 1 && c >= 2 {
            return ctx.undefined(format!(
                "UNPACR on Unpacker 1 with context {c} >= 2; not executed"
            ));
        }
        if addr_cnt_context_id == 3 {
            return ctx.undefined("UNPACR with ContextADC 3; not executed");
        }
        (c as usize, addr_cnt_context_id as usize)
    } else {
        (0, t)
    };
    let td = tile_descriptor(ctx, fl.tile_descriptor);
    let uncompressed = if multi {
        ctx.cfg(fl.disable_zero_compress_cntx[ctxn]) != 0
    } else {
        td.is_uncompressed
    };
    if !uncompressed {
        return ctx.not_modelled("UNPACR of compressed data (decompression)");
    }
    let x_dim = if multi && u == 0 {
        ctx.cfg(fl.tile_x_dim_cntx[ctxn & 3])
    } else {
        td.x_dim
    };
    let y_dim = td.y_dim;
    let z_dim = td.z_dim.max(1);
    let w_dim = td.w_dim.max(1);
    let (in_code, out_code) = if multi && ctx.cfg(fl.ovrd_data_format) != 0 {
        (
            ctx.cfg(fl.data_format_cntx[ctxn]),
            ctx.cfg(fl.out_data_format_cntx[ctxn]),
        )
    } else {
        (td.in_data_format, ctx.cfg(fl.out_data_format))
    };
    let (Some(in_fmt), Some(out_fmt)) = (
        DataFormat::from_code(in_code),
        DataFormat::from_code(out_code),
    ) else {
        return ctx.undefined(format!("UNPACR with data format codes {in_code}/{out_code}, one of which names no format; not executed"));
    };
    let dbits = in_fmt.datum_bits() as u64;
    // Input address, in bytes (the page's unit of 16 bytes times 16).
    let mut in_addr: u64 = if multi && ctxn != 0 {
        let b = if ctxn <= 3 {
            ctx.cfg(fl.base_cntx[ctxn - 1])
        } else {
            0
        };
        let o = ctx.cfg(fl.offset_cntx[(ctxn & 3).max(1) - 1]);
        if ctxn > 3 {
            return ctx.not_modelled("UNPACR context 4-7 base addresses");
        }
        b as u64 + (o & 0xffff) as u64
    } else {
        ctx.cfg(fl.base_address) as u64 + (ctx.cfg(fl.offset_address) & 0xffff) as u64
    };
    in_addr = (in_addr + 1 + td.digest_size as u64) * 16;
    let force_exp = ctx.cfg(fl.force_shared_exp) != 0;
    let mut exp_addr16: u64 = 0; // exponent address in 1/16 bytes
    if in_fmt.is_bfp() && !force_exp {
        exp_addr16 = in_addr * 16;
        if matches!(in_fmt, DataFormat::Bfp8 | DataFormat::Bfp8a) || !td.no_bfp_exp_section {
            let n = (x_dim * y_dim * z_dim * w_dim) as u64;
            let n_exp = n.div_ceil(16);
            in_addr += n_exp.div_ceil(16) * 16;
        }
    }
    let adcs = ctx.state.adcs;
    let xy = adcs[which_adc].unpacker[u][0];
    let zw = adcs[t].unpacker[u][0];
    let x_pos = xy.get(Coord::X);
    let y_pos = xy.get(Coord::Y);
    let x_end = adcs[which_adc].unpacker[u][1].get(Coord::X) + 1;
    let first = ((zw.get(Coord::W) * z_dim + zw.get(Coord::Z)) * y_dim + y_pos) as u64
        * x_dim as u64
        + x_pos as u64;
    let count = x_end.saturating_sub(x_pos);
    exp_addr16 += first;
    let mut datum_bit = in_addr * 8 + first * dbits;
    let limit_en = ctx.cfg(fl.limit_en) != 0;
    let limit = ctx.cfg(fl.limit) as u64 * 16;
    let fifo = ctx.cfg(fl.fifo_size) as u64 * 16;
    // WrapAddr on a bit address (datums) and on a 1/16-byte address (exponents).
    let wrap = |bit: u64| -> u64 {
        if limit_en && bit / 8 > limit {
            bit.wrapping_sub(fifo * 8)
        } else {
            bit
        }
    };
    datum_bit = wrap(datum_bit);
    if limit_en && exp_addr16 / 16 > limit {
        exp_addr16 = exp_addr16.wrapping_sub(fifo * 16);
    }
    let tilize = ctx.cfg(fl.tileize_mode) != 0;
    // Blackhole's unpackers read L1 in rows of 32 datums of 16 or 32 bits (16 of 8 bits or
    // fewer), then step by the row stride: the tilize stride of `Shift_amount_cntx0..2`, or
    // one row. Established with the reference simulator (docs/tensix-datapath.md "Blackhole
    // unpacker rows").
    let row_width: u32 = if dbits <= 8 { 16 } else { 32 };
    let row_stride_bits: u64 = if tilize {
        let s = (ctx.cfg(fl.shift_amount[0]) << 4)
            | (ctx.cfg(fl.shift_amount[1]) << 8)
            | (ctx.cfg(fl.shift_amount[2]) << 12);
        s as u64 * 8
    } else {
        dbits * u64::from(row_width)
    };
    let (to_dst, transpose) = if u == 0 {
        let d = if multi {
            ctx.cfg(fl.unpack_if_sel_cntx[ctxn]) != 0
        } else {
            ctx.cfg(fl.unpack_if_sel) != 0
        };
        (d, ctx.cfg(fl.haloize_mode) != 0)
    } else {
        (false, false)
    };
    let out_adc = adcs[t].unpacker[u][1];
    let mut out_addr = ctx.cfg(fl.addr_base_1)
        + out_adc.get(Coord::Y) * ctx.cfg(fl.ystride_1)
        + out_adc.get(Coord::Z) * ctx.cfg(fl.zstride_1)
        + out_adc.get(Coord::W) * ctx.cfg(fl.wstride_1);
    use DataFormat::*;
    let out32 = matches!(out_fmt, Fp32 | Tf32 | Int32);
    if out32 {
        if out_addr & 3 != 0 {
            ctx.undefined(format!(
                "UNPACR output address {out_addr:#x} not 4-byte aligned for a 32-bit format"
            ))?;
        }
        out_addr >>= 2;
    } else if matches!(out_fmt, Fp16 | Bf16 | Int16) {
        if out_addr & 1 != 0 {
            ctx.undefined(format!(
                "UNPACR output address {out_addr:#x} not 2-byte aligned for a 16-bit format"
            ))?;
        }
        out_addr >>= 1;
    }
    if multi && u == 0 {
        let c = ctx.cfg(fl.dest_cntx[ctxn & 3]);
        let add = fl.add_dest_addr_cntr.map_or(0, |f| ctx.cfg(f)) != 0;
        if to_dst || add {
            out_addr += c;
        } else {
            out_addr = c;
        }
    }
    let upsample_zeroes = (1u32 << ctx.cfg(fl.upsample_rate)) - 1;
    let interleave = ctx.cfg(fl.upsample_and_interleave) != 0;
    let col_shift = if tilize || u == 1 {
        0
    } else {
        ctx.cfg(fl.shift_amount[ctxn & 3])
    };
    if (transpose || tilize) && !datum_bit.is_multiple_of(128) {
        ctx.undefined("UNPACR transpose/tilize input not 16-byte aligned")?;
    }
    if tilize && upsample_zeroes > 0 {
        ctx.undefined("UNPACR tilize with upsampling")?;
    }
    if to_dst && (col_shift != 0 || transpose) {
        ctx.undefined("UNPACR to Dst with column shift or transpose")?;
    }
    let forced_exp = ctx.cfg(fl.forced_shared_exp) as u8;
    let unsigned = ctx.cfg(fl.src_unsigned) != 0;
    let e4m3 = ctx.cfg(fl.lf8_4b_exp) != 0;
    let set_ovrd = ctx.cfg(f::SRCA_SET_SetOvrdWithAddr) != 0;
    let bank = if u == 1 {
        ctx.banks.unpack_b
    } else {
        ctx.banks.unpack_a
    };
    let dcfg = ctx.state.dest_access_cfg(t);
    let src_row_base = ctx.state.unpackers[u].src_row[t] as u32;
    let mut exp_cache: Option<(u64, u8)> = None;
    for i in 0..count {
        let bits = read_bits(ctx, datum_bit, dbits as u32)?;
        datum_bit += dbits;
        if (i + 1) % row_width == 0 {
            datum_bit = wrap(datum_bit - dbits * u64::from(row_width) + row_stride_bits);
        }
        let mut exp = 0u8;
        if in_fmt.is_bfp() {
            if force_exp {
                exp = forced_exp;
            } else {
                let byte = exp_addr16 / 16;
                exp = match exp_cache {
                    Some((b, e)) if b == byte => e,
                    _ => {
                        let e = read_bits(ctx, byte * 8, 8)? as u8;
                        exp_cache = Some((byte, e));
                        e
                    }
                };
                exp_addr16 += 1;
            }
        }
        let mut datum = match convert(in_fmt, out_fmt, bits, exp, to_dst, unsigned, e4m3) {
            Ok(d) => d,
            Err(m) => return ctx.undefined(format!("UNPACR: {m}; rest of the unpack skipped")),
        };
        if zero_write2 != 0 {
            datum = 0;
        }
        for k in 0..=upsample_zeroes {
            if !(interleave && k != 0) {
                let row = out_addr / 16;
                let col = (out_addr & 15) as usize;
                if u == 1 {
                    let r = SrcData::row_index(row + src_row_base);
                    ctx.state.src_b.write(bank, r, col, datum);
                } else if !to_dst {
                    if row >= 4 && col as u32 >= col_shift {
                        let mut r = row - 4;
                        let mut c = col - col_shift as usize;
                        if set_ovrd {
                            // Blackhole's SrcA row address wraps at 64 (tt-llk's fast
                            // tilize writes rows 64 on as rows 0 on).
                            r &= 63;
                        } else {
                            if r >= 16 {
                                return ctx
                                    .undefined(format!("UNPACR SrcA row {r} >= 16 past SrcRow"));
                            }
                            r += src_row_base;
                        }
                        if transpose {
                            let lo = (r & 0xf) as usize;
                            r = (r & !0xf) | c as u32;
                            c = lo;
                        }
                        ctx.state.src_a.write(bank, SrcData::row_index(r), c, datum);
                    }
                } else {
                    let mut r = row.wrapping_sub(4);
                    r = if set_ovrd { r & 15 } else { r & 0x3ff };
                    if out32 {
                        ctx.state.dst.write32(r, col, datum, dcfg);
                    } else {
                        ctx.state.dst.write16(r, col, datum as u16, dcfg);
                    }
                }
            }
            datum = 0;
            out_addr += 1;
        }
    }
    // Counter updates.
    if multi && auto_inc_context_id != 0 {
        let count_f = if u == 0 {
            f::THCON_SEC0_REG2_Context_count
        } else {
            f::THCON_SEC1_REG2_Context_count
        };
        let mut next = (ctxn as u32 + 1) & 7;
        if next >= 1 << ctx.cfg(count_f) {
            next = 0;
        }
        ctx.state.unpackers[u].context_counter[t] = next as u8;
    }
    let inc = |s: u32| (addr_mode as u32 >> s) & 3;
    let (ch0z, ch0y, ch1z, ch1y) = (inc(0), inc(2), inc(4), inc(6));
    for i in 0..3 {
        if i == t || i == which_adc {
            let a = &mut ctx.state.adcs[i].unpacker[u];
            let v = a[0].get(Coord::Y) + ch0y;
            a[0].set(Coord::Y, v);
            let v = a[0].get(Coord::Z) + ch0z;
            a[0].set(Coord::Z, v);
            let v = a[1].get(Coord::Y) + ch1y;
            a[1].set(Coord::Y, v);
            let v = a[1].get(Coord::Z) + ch1z;
            a[1].set(Coord::Z, v);
        }
    }
    if set_dat_valid != 0 && (u == 1 || !to_dst) {
        // O2 of docs/matrix-unit.md: the bank handed to the Matrix Unit remembers the format
        // it was unpacked with.
        let src = if u == 1 {
            &mut ctx.state.src_b
        } else {
            &mut ctx.state.src_a
        };
        src.set_format(bank, out_fmt.code());
    }
    let base = (ctx.cfg(fl.src_set_base) << 4) & 0x3f;
    if set_dat_valid != 0 {
        ctx.state.unpackers[u].src_row[t] = base as u8;
    } else if ctx.cfg(fl.unpack_src_reg_set_upd) != 0 {
        let r = &mut ctx.state.unpackers[u].src_row[t];
        *r = (*r as u32 + 16 + base) as u8 & 0x3f;
    }
    Ok(())
}

/// `UNPACR_NOP`. The ZEROSRC mode (`Unpack_Pop` = 1, tt-llk's `UNP_ZEROSRC`) clears the
/// unpacker's current bank, or both (`Bank_Clr_Ctrl`), of SrcA (unpacker 0) or SrcB
/// (unpacker 1) to zero, or SrcA to all ones (`Src_ClrVal_Ctrl` = 1, negative infinity);
/// tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/UNPACR_NOP_ZEROSRC.md. Its
/// SETDVALID bank hand-over is the frontend's. Clear values 2 and 3 and the other modes
/// (MMIO writes, overlay clear) are not modelled yet and say so.
pub fn unpacr_nop(
    ctx: &mut Ctx,
    unpacker_select: u8,
    set_dvalid: u8,
    bank_clr_ctrl: u8,
    src_clr_val_ctrl: u8,
    unpack_pop: u8,
) -> UnitResult {
    if set_dvalid != 0 {
        // O2 of docs/matrix-unit.md: a bank handed over by UNPACR_NOP takes the unpacker's
        // configured output format as its implied format, as a bank UNPACR fills does.
        let u = usize::from(unpacker_select & 1);
        let code = ctx.cfg(fields(u).out_data_format);
        let (src, bank) = if u == 1 {
            (&mut ctx.state.src_b, ctx.banks.unpack_b)
        } else {
            (&mut ctx.state.src_a, ctx.banks.unpack_a)
        };
        src.set_format(bank, code);
    }
    match unpack_pop {
        1 => {
            let u = unpacker_select & 1;
            let value = match (src_clr_val_ctrl, u) {
                (0, _) => 0,
                (1, 0) => crate::state::SRC_DATUM_MASK,
                (1, _) => 0,
                (v, _) => {
                    return ctx.not_modelled(&format!("UNPACR_NOP ZEROSRC with clear value {v}"))
                }
            };
            let bank = if u == 0 {
                ctx.banks.unpack_a
            } else {
                ctx.banks.unpack_b
            };
            let reg = if u == 0 {
                &mut ctx.state.src_a
            } else {
                &mut ctx.state.src_b
            };
            for b in 0..2 {
                if bank_clr_ctrl != 0 || b == bank {
                    reg.fill_bank(b, value);
                }
            }
            Ok(())
        }
        2 => Ok(()), // UNP_NOP: occupies the unpacker for one cycle
        _ => ctx.not_modelled("UNPACR_NOP (this mode)"),
    }
}

#[cfg(test)]
mod tests;
