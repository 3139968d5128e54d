//! `UNPACR` (regular form), in the order the page's functional model runs it
//! (UNPACR_Regular.md): which configuration context and ADCs it uses, where its datums come
//! from in L1 ([`Input`]), where they go in SrcA / SrcB / `Dst` ([`Output`]), the datum loop,
//! and the counters it advances after.
use bhemu_isa::tensix::blackhole::operands::Unpacr;

use super::fields::{fields, Fields};
use super::{convert, read_bits, tile_descriptor, TileDescriptor};
use crate::formats::{write_src_bf16, write_src_fp16, write_src_int16, DataFormat};
use crate::state::cfg_fields as f;
use crate::state::{Coord, DestAccessCfg, SrcData};
use crate::units::{Ctx, UnitResult};
use crate::TensixError;

/// `Some` to go on; `None` when the instruction stopped at an undefined or unmodelled case,
/// which `ctx.undefined` / `ctx.not_modelled` have reported (an error in strict mode).
type Step<T> = Result<Option<T>, TensixError>;

fn stop<T>(reported: UnitResult) -> Step<T> {
    reported.map(|()| None)
}

/// `UNPACR` (regular form).
pub fn unpacr(ctx: &mut Ctx, insn: Unpacr) -> UnitResult {
    let u = insn.unpack_block_selection as usize & 1;
    let fl = fields(u);
    if insn.row_search != 0 {
        return ctx.not_modelled("UNPACR with RowSearch");
    }
    let Some((ctxn, which_adc)) = context(ctx, u, &insn)? else {
        return Ok(());
    };
    let Some(input) = Input::new(ctx, u, fl, &insn, ctxn, which_adc)? else {
        return Ok(());
    };
    let out = Output::new(ctx, u, fl, &insn, ctxn, &input)?;
    if unpack_datums(ctx, u, &input, &out, insn.zero_write2 != 0)?.is_none() {
        return Ok(());
    }
    advance_counters(ctx, u, fl, &insn, ctxn, which_adc, &input, &out);
    Ok(())
}

/// Which configuration context and which thread's ADCs an UNPACR uses: with `OvrdThreadId`,
/// the context counter (or `CfgContextId`) plus `CfgContextOffset`, and `ContextADC`;
/// otherwise context 0 and the issuing thread's ADCs.
fn context(ctx: &mut Ctx, u: usize, insn: &Unpacr) -> Step<(usize, usize)> {
    let t = ctx.thread;
    if insn.ovrd_thread_id == 0 {
        return Ok(Some((0, t)));
    }
    let base = if insn.auto_inc_context_id != 0 {
        ctx.state.unpackers[u].context_counter[t]
    } else {
        insn.cfg_context_id
    };
    let off_field = if u == 0 {
        f::UNPACK_MISC_CFG_CfgContextOffset_0
    } else {
        f::UNPACK_MISC_CFG_CfgContextOffset_1
    };
    let c = (base as u32 + ctx.cfg(off_field)) & 7;
    if u == 1 && c >= 2 {
        return stop(ctx.undefined(format!(
            "UNPACR on Unpacker 1 with context {c} >= 2; not executed"
        )));
    }
    if insn.addr_cnt_context_id == 3 {
        return stop(ctx.undefined("UNPACR with ContextADC 3; not executed"));
    }
    Ok(Some((c as usize, insn.addr_cnt_context_id as usize)))
}

/// The L1 FIFO wrap (`WrapAddr`): an address past `limit` goes back by the FIFO's size.
#[derive(Clone, Copy)]
struct FifoWrap {
    enabled: bool,
    /// Bytes.
    limit: u64,
    /// Bytes.
    fifo: u64,
}

impl FifoWrap {
    /// On a bit address (datums).
    fn bits(&self, bit: u64) -> u64 {
        if self.enabled && bit / 8 > self.limit {
            bit.wrapping_sub(self.fifo * 8)
        } else {
            bit
        }
    }
}

/// Where an UNPACR's datums come from in L1 and how they are read.
struct Input {
    fmt: DataFormat,
    out_fmt: DataFormat,
    dbits: u64,
    /// Bit address of the first datum.
    datum_bit: u64,
    /// Address of the first datum's shared exponent, in 1/16 bytes (BFP formats).
    exp_addr16: u64,
    count: u32,
    force_exp: bool,
    forced_exp: u8,
    unsigned: bool,
    e4m3: bool,
    tilize: bool,
    /// Datums a row of L1 holds, and the step from one row to the next, in bits.
    row_width: u32,
    row_stride_bits: u64,
    wrap: FifoWrap,
}

impl Input {
    fn new(
        ctx: &mut Ctx,
        u: usize,
        fl: &Fields,
        insn: &Unpacr,
        ctxn: usize,
        which_adc: usize,
    ) -> Step<Input> {
        let multi = insn.ovrd_thread_id != 0;
        let td = tile_descriptor(ctx, fl.tile_descriptor);
        let uncompressed = if multi {
            ctx.cfg(fl.disable_zero_compress_cntx[ctxn]) != 0
        } else {
            td.is_uncompressed
        };
        if !uncompressed {
            return stop(ctx.not_modelled("UNPACR of compressed data (decompression)"));
        }
        let x_dim = if multi && u == 0 {
            ctx.cfg(fl.tile_x_dim_cntx[ctxn & 3])
        } else {
            td.x_dim
        };
        let (in_code, out_code) = if multi && ctx.cfg(fl.ovrd_data_format) != 0 {
            (
                ctx.cfg(fl.data_format_cntx[ctxn]),
                ctx.cfg(fl.out_data_format_cntx[ctxn]),
            )
        } else {
            (td.in_data_format, ctx.cfg(fl.out_data_format))
        };
        let (Some(fmt), Some(out_fmt)) = (
            DataFormat::from_code(in_code),
            DataFormat::from_code(out_code),
        ) else {
            return stop(ctx.undefined(format!("UNPACR with data format codes {in_code}/{out_code}, one of which names no format; not executed")));
        };
        let Some(in_addr) = start_address(ctx, fl, multi, ctxn)? else {
            return Ok(None);
        };
        let force_exp = ctx.cfg(fl.force_shared_exp) != 0;
        let (in_addr, exp_addr16) = exponent_section(fmt, force_exp, &td, x_dim, in_addr);
        let dbits = fmt.datum_bits() as u64;
        let adcs = ctx.state.adcs;
        let t = ctx.thread;
        let xy = adcs[which_adc].unpacker[u][0];
        let zw = adcs[t].unpacker[u][0];
        let x_pos = xy.get(Coord::X);
        let x_end = adcs[which_adc].unpacker[u][1].get(Coord::X) + 1;
        let (y_dim, z_dim) = (td.y_dim, td.z_dim.max(1));
        let first = ((zw.get(Coord::W) * z_dim + zw.get(Coord::Z)) * y_dim + xy.get(Coord::Y))
            as u64
            * x_dim as u64
            + x_pos as u64;
        let wrap = FifoWrap {
            enabled: ctx.cfg(fl.limit_en) != 0,
            limit: ctx.cfg(fl.limit) as u64 * 16,
            fifo: ctx.cfg(fl.fifo_size) as u64 * 16,
        };
        let mut exp_addr16 = exp_addr16 + first;
        if wrap.enabled && exp_addr16 / 16 > wrap.limit {
            exp_addr16 = exp_addr16.wrapping_sub(wrap.fifo * 16);
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
        Ok(Some(Input {
            fmt,
            out_fmt,
            dbits,
            datum_bit: wrap.bits(in_addr * 8 + first * dbits),
            exp_addr16,
            count: x_end.saturating_sub(x_pos),
            force_exp,
            forced_exp: ctx.cfg(fl.forced_shared_exp) as u8,
            unsigned: ctx.cfg(fl.src_unsigned) != 0,
            e4m3: ctx.cfg(fl.lf8_4b_exp) != 0,
            tilize,
            row_width,
            row_stride_bits,
            wrap,
        }))
    }
}

/// The input's base address in bytes, past the tile header (the page's unit of 16 bytes).
fn start_address(ctx: &mut Ctx, fl: &Fields, multi: bool, ctxn: usize) -> Step<u64> {
    let in_addr: u64 = if multi && ctxn != 0 {
        let b = if ctxn <= 3 {
            ctx.cfg(fl.base_cntx[ctxn - 1])
        } else {
            0
        };
        let o = ctx.cfg(fl.offset_cntx[(ctxn & 3).max(1) - 1]);
        if ctxn > 3 {
            return stop(ctx.not_modelled("UNPACR context 4-7 base addresses"));
        }
        b as u64 + (o & 0xffff) as u64
    } else {
        ctx.cfg(fl.base_address) as u64 + (ctx.cfg(fl.offset_address) & 0xffff) as u64
    };
    Ok(Some(in_addr))
}

/// A BFP input's shared exponents come first (unless forced): their address in 1/16 bytes,
/// and the datums' address in bytes past them.
fn exponent_section(
    fmt: DataFormat,
    force_exp: bool,
    td: &TileDescriptor,
    x_dim: u32,
    in_addr: u64,
) -> (u64, u64) {
    let mut in_addr = (in_addr + 1 + td.digest_size as u64) * 16;
    let mut exp_addr16: u64 = 0;
    if fmt.is_bfp() && !force_exp {
        exp_addr16 = in_addr * 16;
        if matches!(fmt, DataFormat::Bfp8 | DataFormat::Bfp8a) || !td.no_bfp_exp_section {
            let n = (x_dim * td.y_dim * td.z_dim.max(1) * td.w_dim.max(1)) as u64;
            let n_exp = n.div_ceil(16);
            in_addr += n_exp.div_ceil(16) * 16;
        }
    }
    (in_addr, exp_addr16)
}

/// Where an UNPACR's datums go.
struct Output {
    to_dst: bool,
    transpose: bool,
    /// Datum address of the first output (in datums of the output format's width).
    addr: u32,
    out32: bool,
    upsample_zeroes: u32,
    interleave: bool,
    col_shift: u32,
    set_ovrd: bool,
    bank: usize,
    dcfg: DestAccessCfg,
    src_row_base: u32,
}

impl Output {
    fn new(
        ctx: &mut Ctx,
        u: usize,
        fl: &Fields,
        insn: &Unpacr,
        ctxn: usize,
        input: &Input,
    ) -> Result<Output, TensixError> {
        let multi = insn.ovrd_thread_id != 0;
        let t = ctx.thread;
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
        let out_adc = ctx.state.adcs[t].unpacker[u][1];
        let mut addr = ctx.cfg(fl.addr_base_1)
            + out_adc.get(Coord::Y) * ctx.cfg(fl.ystride_1)
            + out_adc.get(Coord::Z) * ctx.cfg(fl.zstride_1)
            + out_adc.get(Coord::W) * ctx.cfg(fl.wstride_1);
        use DataFormat::*;
        let out32 = matches!(input.out_fmt, Fp32 | Tf32 | Int32);
        if out32 {
            if addr & 3 != 0 {
                ctx.undefined(format!(
                    "UNPACR output address {addr:#x} not 4-byte aligned for a 32-bit format"
                ))?;
            }
            addr >>= 2;
        } else if matches!(input.out_fmt, Fp16 | Bf16 | Int16) {
            if addr & 1 != 0 {
                ctx.undefined(format!(
                    "UNPACR output address {addr:#x} not 2-byte aligned for a 16-bit format"
                ))?;
            }
            addr >>= 1;
        }
        if multi && u == 0 {
            let c = ctx.cfg(fl.dest_cntx[ctxn & 3]);
            let add = fl.add_dest_addr_cntr.map_or(0, |f| ctx.cfg(f)) != 0;
            if to_dst || add {
                addr += c;
            } else {
                addr = c;
            }
        }
        let upsample_zeroes = (1u32 << ctx.cfg(fl.upsample_rate)) - 1;
        let col_shift = if input.tilize || u == 1 {
            0
        } else {
            ctx.cfg(fl.shift_amount[ctxn & 3])
        };
        if (transpose || input.tilize) && !input.datum_bit.is_multiple_of(128) {
            ctx.undefined("UNPACR transpose/tilize input not 16-byte aligned")?;
        }
        if input.tilize && upsample_zeroes > 0 {
            ctx.undefined("UNPACR tilize with upsampling")?;
        }
        if to_dst && (col_shift != 0 || transpose) {
            ctx.undefined("UNPACR to Dst with column shift or transpose")?;
        }
        Ok(Output {
            to_dst,
            transpose,
            addr,
            out32,
            upsample_zeroes,
            interleave: ctx.cfg(fl.upsample_and_interleave) != 0,
            col_shift,
            set_ovrd: ctx.cfg(f::SRCA_SET_SetOvrdWithAddr) != 0,
            bank: if u == 1 {
                ctx.banks.unpack_b
            } else {
                ctx.banks.unpack_a
            },
            dcfg: ctx.state.dest_access_cfg(t),
            src_row_base: ctx.state.unpackers[u].src_row[t] as u32,
        })
    }
}

/// The datum loop: read, convert, write each datum (and its upsampling zeroes).
fn unpack_datums(ctx: &mut Ctx, u: usize, input: &Input, out: &Output, zero: bool) -> Step<()> {
    let (dbits, row_width) = (input.dbits, input.row_width);
    let mut datum_bit = input.datum_bit;
    let mut exp_addr16 = input.exp_addr16;
    let mut out_addr = out.addr;
    let mut exp_cache: Option<(u64, u8)> = None;
    let mut rows = RowReader::new(input);
    let src16 = Src16::of(input, out, zero);
    let mut i = 0;
    while i < input.count {
        if let Some(conv) = src16 {
            if i.is_multiple_of(row_width) {
                let n = (row_width - i % row_width).min(input.count - i);
                if src16_row(ctx, u, out, conv, datum_bit, out_addr, n) {
                    i += n;
                    out_addr += n;
                    datum_bit += dbits * u64::from(n);
                    if i.is_multiple_of(row_width) {
                        datum_bit = input
                            .wrap
                            .bits(datum_bit - dbits * u64::from(row_width) + input.row_stride_bits);
                    }
                    continue;
                }
            }
        }
        let bits = match rows.datum(ctx, input, i, datum_bit) {
            Some(b) => b,
            None => read_bits(ctx, datum_bit, dbits as u32)?,
        };
        datum_bit += dbits;
        if (i + 1) % row_width == 0 {
            datum_bit = input
                .wrap
                .bits(datum_bit - dbits * u64::from(row_width) + input.row_stride_bits);
        }
        let mut exp = 0u8;
        if input.fmt.is_bfp() {
            if input.force_exp {
                exp = input.forced_exp;
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
        let converted = convert(
            input.fmt,
            input.out_fmt,
            bits,
            exp,
            out.to_dst,
            input.unsigned,
            input.e4m3,
        );
        let mut datum = match converted {
            Ok(d) => d,
            Err(m) => {
                return stop(ctx.undefined(format!("UNPACR: {m}; rest of the unpack skipped")))
            }
        };
        if zero {
            datum = 0;
        }
        for k in 0..=out.upsample_zeroes {
            if !(out.interleave && k != 0) && write_datum(ctx, u, out, out_addr, datum)?.is_none() {
                return Ok(None);
            }
            datum = 0;
            out_addr += 1;
        }
        i += 1;
    }
    Ok(Some(()))
}

/// The most common UNPACR, a 16-bit format into SrcA or SrcB unchanged in format (BF16, FP16,
/// INT16 in and out), one output per datum, no zeroing, column shift or transpose: a row of L1
/// becomes Src datums in one pass, by [`convert`]'s rule for these formats (the datum placed in
/// Src's 19-bit layout) and [`write_datum`]'s addressing. Where anything else applies the
/// datum loop does it; [`src16_row`] also leaves to it a row not wholly in L1 or one whose
/// SrcA rows the general path must judge.
#[derive(Clone, Copy)]
enum Src16 {
    Bf16,
    Fp16,
    Int16,
}

impl Src16 {
    fn of(input: &Input, out: &Output, zero: bool) -> Option<Src16> {
        use DataFormat as D;
        let plain = !zero
            && !out.to_dst
            && out.upsample_zeroes == 0
            && !out.transpose
            && out.col_shift == 0
            && input.dbits == 16
            && input.datum_bit.is_multiple_of(8)
            && input.fmt == input.out_fmt;
        if !plain {
            return None;
        }
        match input.fmt {
            D::Bf16 => Some(Src16::Bf16),
            D::Fp16 => Some(Src16::Fp16),
            D::Int16 => Some(Src16::Int16),
            _ => None,
        }
    }

    /// The sixteen little-endian 16-bit datums of `bytes` converted, one loop per format
    /// (chosen once, not per datum) over a fixed sixteen lanes: it compiles to straight vector
    /// code. Over a slice of the run's length, zipped with byte pairs, it did not, and cost
    /// the add stream's unpacks ≈ 10 host instructions a datum (callgrind).
    #[inline(always)]
    fn row(self, bytes: &[u8; 32]) -> [u32; 16] {
        #[inline(always)]
        fn each(bytes: &[u8; 32], f: impl Fn(u16) -> u32) -> [u32; 16] {
            let mut raw = [0u16; 16];
            for (r, b) in raw.iter_mut().zip(bytes.chunks_exact(2)) {
                *r = u16::from_le_bytes([b[0], b[1]]);
            }
            let mut out = [0u32; 16];
            for (o, &r) in out.iter_mut().zip(&raw) {
                *o = f(r);
            }
            out
        }
        match self {
            Src16::Bf16 => each(bytes, write_src_bf16),
            Src16::Fp16 => each(bytes, write_src_fp16),
            Src16::Int16 => each(bytes, write_src_int16),
        }
    }
}

/// `n` datums of one L1 row from bit address `bit` to Src from output address `out_addr`
/// ([`Src16`]); false, having done nothing, where the datum loop must do them.
fn src16_row(
    ctx: &mut Ctx,
    u: usize,
    out: &Output,
    conv: Src16,
    bit: u64,
    out_addr: u32,
    n: u32,
) -> bool {
    let len = n as usize * 2;
    let addr = (bit / 8) as u32;
    // 32 datums at most, and room for a whole Src row of 16 from any of them: each run is
    // converted sixteen at a time ([`Src16::row`]), only its own written.
    let mut buf = [0u8; 96];
    if len > 64 || !ctx.mem.holds(addr, len) || ctx.mem.read(addr, &mut buf[..len]).is_err() {
        return false;
    }
    let (first, last) = (out_addr / 16, (out_addr + n - 1) / 16);
    // SrcA: output rows below 4 are not written, and past `SrcRow` a row must stay below 16
    // (else the page's UndefinedBehaviour, which the datum loop reports).
    if u == 0 && (first < 4 || (!out.set_ovrd && last - 4 >= 16)) {
        return false;
    }
    // The datums go to Src a row at a time: each run of output addresses inside one Src row
    // is converted, then written with one row lookup.
    let end = out_addr + n;
    let (mut a, mut k) = (out_addr, 0usize);
    while a < end {
        let (row, col) = (a / 16, (a & 15) as usize);
        let m = (16 - col).min((end - a) as usize);
        // Always there: k < n <= 32, so 2k + 32 <= 94.
        let Some(bytes) = buf
            .get(2 * k..2 * k + 32)
            .and_then(|b| <&[u8; 32]>::try_from(b).ok())
        else {
            break;
        };
        let vals = crate::matrix::lanes::in_lanes(
            #[inline(always)]
            || conv.row(bytes),
        );
        if u == 1 {
            let r = SrcData::row_index(row + out.src_row_base);
            ctx.state.src_b.write_row(out.bank, r, col, &vals[..m]);
        } else {
            let r = row - 4;
            let r = if out.set_ovrd {
                r & 63
            } else {
                r + out.src_row_base
            };
            ctx.state
                .src_a
                .write_row(out.bank, SrcData::row_index(r), col, &vals[..m]);
        }
        a += m as u32;
        k += m;
    }
    true
}

/// Whole-byte datums without shared exponents (8, 16 or 32 bits) are read a row of L1 at a
/// time (the span the unpacker reads before stepping by the row stride) rather than datum by
/// datum: the same bytes, so the same values. A row not wholly in L1 is read datum by datum,
/// so the first datum that cannot be read fails as before, after the ones before it were
/// written.
struct RowReader {
    on: bool,
    bytes: usize,
    /// The row's bytes and the bit address of its first.
    buf: [u8; 128],
    base: u64,
    /// Whether `buf` holds the current row.
    held: bool,
}

impl RowReader {
    fn new(input: &Input) -> Self {
        let on = !input.fmt.is_bfp()
            && matches!(input.dbits, 8 | 16 | 32)
            && input.datum_bit.is_multiple_of(8)
            && input.row_width as u64 * input.dbits <= 128 * 8;
        RowReader {
            on,
            bytes: (input.dbits / 8) as usize,
            buf: [0; 128],
            base: 0,
            held: false,
        }
    }

    /// Datum `i` (at bit address `bit`) from the row read, or `None` to read it alone.
    #[inline(always)] // per datum
    fn datum(&mut self, ctx: &mut Ctx, input: &Input, i: u32, bit: u64) -> Option<u32> {
        if !self.on {
            return None;
        }
        if i == 0 || i.is_multiple_of(input.row_width) {
            let n = (input.row_width - i % input.row_width).min(input.count - i) as usize;
            let len = n * self.bytes;
            let addr = (bit / 8) as u32;
            self.held =
                ctx.mem.holds(addr, len) && ctx.mem.read(addr, &mut self.buf[..len]).is_ok();
            self.base = bit;
        }
        if !self.held {
            return None;
        }
        let at = ((bit - self.base) / 8) as usize;
        let b = &self.buf[at..at + self.bytes];
        Some(match self.bytes {
            1 => u32::from(b[0]),
            2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
            _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        })
    }
}

/// Writes one datum at output address `out_addr`: a SrcB row, a SrcA row (after the column
/// shift, with transpose, `SrcRow` or the `SetOvrdWithAddr` wrap), or a `Dst` row.
#[inline(always)] // per datum, in the unit's inner loop
fn write_datum(ctx: &mut Ctx, u: usize, out: &Output, out_addr: u32, datum: u32) -> Step<()> {
    let row = out_addr / 16;
    let col = (out_addr & 15) as usize;
    if u == 1 {
        let r = SrcData::row_index(row + out.src_row_base);
        ctx.state.src_b.write(out.bank, r, col, datum);
    } else if !out.to_dst {
        if row >= 4 && col as u32 >= out.col_shift {
            let mut r = row - 4;
            let mut c = col - out.col_shift as usize;
            if out.set_ovrd {
                // Blackhole's SrcA row address wraps at 64 (tt-llk's fast tilize writes rows
                // 64 on as rows 0 on).
                r &= 63;
            } else {
                if r >= 16 {
                    return stop(ctx.undefined(format!("UNPACR SrcA row {r} >= 16 past SrcRow")));
                }
                r += out.src_row_base;
            }
            if out.transpose {
                let lo = (r & 0xf) as usize;
                r = (r & !0xf) | c as u32;
                c = lo;
            }
            ctx.state
                .src_a
                .write(out.bank, SrcData::row_index(r), c, datum);
        }
    } else {
        let mut r = row.wrapping_sub(4);
        r = if out.set_ovrd { r & 15 } else { r & 0x3ff };
        if out.out32 {
            ctx.state.dst.write32(r, col, datum, out.dcfg);
        } else {
            ctx.state.dst.write16(r, col, datum as u16, out.dcfg);
        }
    }
    Ok(Some(()))
}

/// After the datums: the context counter, the ADCs' Y and Z by `AddrMode`, the bank's recorded
/// format on `SetDatValid`, and `SrcRow`.
#[allow(clippy::too_many_arguments)] // the instruction's state, passed as the page names it
fn advance_counters(
    ctx: &mut Ctx,
    u: usize,
    fl: &Fields,
    insn: &Unpacr,
    ctxn: usize,
    which_adc: usize,
    input: &Input,
    out: &Output,
) {
    let t = ctx.thread;
    if insn.ovrd_thread_id != 0 && insn.auto_inc_context_id != 0 {
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
    let inc = |s: u32| (insn.addr_mode as u32 >> s) & 3;
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
    let set_dat_valid = insn.set_dat_valid != 0;
    if set_dat_valid && (u == 1 || !out.to_dst) {
        // O2 of docs/matrix-unit.md: the bank handed to the Matrix Unit remembers the format
        // it was unpacked with.
        let src = if u == 1 {
            &mut ctx.state.src_b
        } else {
            &mut ctx.state.src_a
        };
        src.set_format(out.bank, input.out_fmt.code());
    }
    let base = (ctx.cfg(fl.src_set_base) << 4) & 0x3f;
    if set_dat_valid {
        ctx.state.unpackers[u].src_row[t] = base as u8;
    } else if ctx.cfg(fl.unpack_src_reg_set_upd) != 0 {
        let r = &mut ctx.state.unpackers[u].src_row[t];
        *r = (*r as u32 + 16 + base) as u8 & 0x3f;
    }
}
