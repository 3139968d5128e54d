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
use crate::formats::{
    bfp8_to_bf16, bfp8a_to_fp16, int8_to_fp16_overlay, write_dst_bf16, write_dst_fp16,
    write_dst_fp32, write_src_bf16, write_src_fp16, write_src_int16, write_src_tf32, BfpWidth,
    DataFormat,
};

use super::{Ctx, UnitResult};

mod fields;
use fields::fields;
mod regular;
pub use regular::unpacr;

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
#[inline(always)] // per datum: kept in the datum loop, as when it had one caller
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
