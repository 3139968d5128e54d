//! Packers: PACR moves datums from `Dst` to L1 with early (Dst → intermediate) and late
//! (intermediate → L1) format conversion. Effects at dispatch.
//!
//! Pages (tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/): PACR.md,
//! Packers/InputAddressGenerator.md, Packers/OutputAddressGenerator.md,
//! Packers/FormatConversion.md. Blackhole fields: `ReadIntfSel` = PackerMask,
//! `AddrMode` = AddrMod, `OvrdThreadId`, `ZeroWrite`, `Flush`, `Last`; packer 0's
//! configuration is `THCON_SEC0_REG1_*`.
//!
//! Modelled: the packer reading `Dst` (16- or 32-bit), the input and output address
//! generators with their ADC updates, `NeedsNewAddress` streams, the early conversions FP32 →
//! FP32/TF32/BF16 (rounding or `Read_raw` truncation) and BF16/FP16/INT16 identity or
//! rounding, and the late conversions to FP32, TF32, BF16, FP16 (identity) and BFP8/4/2 and
//! BFP8a/4a/2a (from FP16) with shared exponents. Blackhole has one packer with four `Dst`
//! read interfaces selected by `ReadIntfSel` (see [`read_interfaces`]), one row or one face
//! apart (`DstAccessMode`, see [`interface_stride`]). Not modelled, and
//! reported: compression, L1 source,
//! ReLU, L1 accumulation, downsampling, exponent thresholding. Edge masks: [`EdgeMasks`].
use bhemu_isa::tensix::blackhole::operands::Pacr;

use crate::formats::pack_conv::{
    late_fp16_to_bf16, late_fp16_to_fp32, late_fp16_to_fp8_e4m3, late_fp16_to_fp8_e5m2,
    late_fp32_to_bfp, late_fp32_to_fp16,
};
use crate::formats::pack_l1_acc::{acc_bf16, acc_fp16, acc_fp32};
use crate::formats::{bf16_block_to_bfp, fp16_block_to_bfpa, BfpWidth, DataFormat};
use crate::state::cfg_fields as f;
use crate::state::DestAccessCfg;
use crate::state::{CfgField, Coord};

use super::pack_stages::{early, masked_zero, relu, EarlyCfg, Mid};
use super::{Ctx, UnitResult};

/// Per-packer output state that persists between PACRs (OutputAddressGenerator.md
/// `NeedsNewAddress`, `ByteAddress` of the data and exponent streams) and a BFP block being
/// assembled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackerState {
    /// Byte address of the data stream; `None` = `NeedsNewAddress`.
    pub data_addr: Option<u32>,
    /// Byte address of the exponent stream; `None` = `NeedsNewAddress`.
    pub exp_addr: Option<u32>,
    /// Datums (BF16) of a BFP block still short of 16.
    pub bfp_block: Vec<u16>,
    /// Bits not yet written to L1 (datums narrower than a byte): value and bit count.
    pub partial: (u64, u32),
    /// The edge-mask tile position (datum in its row of 16, row) since the last
    /// `Last`/`Flush` ([`EdgeMasks`]).
    pub edge_pos: (u32, u32),
    /// Data-stream bytes of the PACR being executed not yet written to L1, from
    /// `pending_at` on (see [`emit`]); empty between instructions.
    pub pending: Vec<u8>,
    pub pending_at: u32,
    /// L1 holds every byte from `pending_at` up to here (asked of the memory ahead of the
    /// stream, [`gather`]); 0 when nothing is pending.
    pub held_to: u32,
}

/// How far ahead of the data stream [`gather`] asks whether L1 holds it: once per this many
/// bytes rather than once per datum.
const HELD_AHEAD: u32 = 4096;

/// `IntermediateFormat`: `ALU_FORMAT_SPEC_REG_Dstacc_val` when overridden, else
/// `ALU_FORMAT_SPEC_REG2_Dstacc`.
fn intermediate(ctx: &Ctx) -> u32 {
    if ctx.cfg(f::ALU_FORMAT_SPEC_REG_Dstacc_override) != 0 {
        ctx.cfg(f::ALU_FORMAT_SPEC_REG_Dstacc_val)
    } else {
        ctx.cfg(f::ALU_FORMAT_SPEC_REG2_Dstacc)
    }
}

/// Appends `nbits` of `value` to the data stream.
///
/// Why gathered: one L1 write per datum was the largest single cost of a streamed packer
/// (callgrind, the 140-tile add stream: ≈ 160 host instructions per datum). The bytes of one
/// PACR's contiguous data stream go to L1 in one write when the PACR ends ([`pacr`]) or before
/// any other L1 access of the packer ([`l1_write`], [`l1_read`]): a PACR's effects all land at
/// its dispatch, so nothing can look in between. Only bytes that L1 holds are gathered
/// ([`crate::TensixMemory::holds`]); a write that would fail is made at once, after the
/// gathered ones, and fails exactly where the datum-by-datum write did.
#[inline]
fn emit(ctx: &mut Ctx, value: u32, nbits: u32) -> UnitResult {
    if gather(ctx, value, nbits) {
        Ok(())
    } else {
        emit_with_flush(ctx, value, nbits)
    }
}

/// The common case of [`emit`], without a `Result` in the way: the datum's whole bytes join
/// the gathered ones, which they continue, in L1. False, changing nothing, otherwise.
#[inline(always)]
fn gather(ctx: &mut Ctx, value: u32, nbits: u32) -> bool {
    let st = &ctx.state.packers[0];
    let (acc, n) = st.partial;
    let acc = acc | (value as u64) << n;
    // At most 7 bits wait and 32 arrive: up to 4 whole bytes leave.
    let len = ((n + nbits) / 8) as usize;
    let addr = st.data_addr.unwrap_or(0);
    let continues = st.pending.is_empty() || st.pending_at + st.pending.len() as u32 == addr;
    if !continues {
        return false;
    }
    let end = u64::from(addr) + len as u64;
    let held_to = if st.pending.is_empty() { 0 } else { st.held_to };
    let held_to = if end <= u64::from(held_to) {
        held_to
    } else if addr.checked_add(HELD_AHEAD).is_some() && ctx.mem.holds(addr, HELD_AHEAD as usize) {
        addr + HELD_AHEAD
    } else if ctx.mem.holds(addr, len) {
        end as u32
    } else {
        return false;
    };
    let st = &mut ctx.state.packers[0];
    if st.pending.is_empty() {
        st.pending_at = addr;
    }
    st.held_to = held_to;
    st.pending.extend_from_slice(&acc.to_le_bytes()[..len]);
    st.partial = (acc >> (8 * len), (n + nbits) % 8);
    st.data_addr = Some(addr + len as u32);
    true
}

/// [`emit`] where [`gather`] cannot: after the gathered bytes are written, gathered anew when
/// L1 holds the datum's bytes, else written at once (failing where L1 does not hold them).
#[cold]
#[inline(never)]
fn emit_with_flush(ctx: &mut Ctx, value: u32, nbits: u32) -> UnitResult {
    flush(ctx)?;
    if gather(ctx, value, nbits) {
        return Ok(());
    }
    let st = &mut ctx.state.packers[0];
    let (acc, n) = st.partial;
    let acc = acc | (value as u64) << n;
    let len = ((n + nbits) / 8) as usize;
    st.partial = (acc >> (8 * len), (n + nbits) % 8);
    let addr = st.data_addr.unwrap_or(0);
    st.data_addr = Some(addr + len as u32);
    let out = acc.to_le_bytes();
    ctx.write_l1(addr, out.get(..len).unwrap_or(&[]))
}

/// Writes the gathered data-stream bytes (see [`emit`]).
fn flush(ctx: &mut Ctx) -> UnitResult {
    let bytes = std::mem::take(&mut ctx.state.packers[0].pending);
    let r = if bytes.is_empty() {
        Ok(())
    } else {
        ctx.write_l1(ctx.state.packers[0].pending_at, &bytes)
    };
    // Keep the buffer's allocation for the next PACR; nothing is pending anywhere.
    let st = &mut ctx.state.packers[0];
    st.pending = bytes;
    st.pending.clear();
    st.pending_at = 0;
    st.held_to = 0;
    r
}

/// An L1 write of the packer other than a gathered datum: after the gathered ones.
fn l1_write(ctx: &mut Ctx, addr: u32, data: &[u8]) -> UnitResult {
    flush(ctx)?;
    ctx.write_l1(addr, data)
}

/// An L1 read of the packer: after the gathered writes.
fn l1_read(ctx: &mut Ctx, addr: u32, buf: &mut [u8]) -> UnitResult {
    flush(ctx)?;
    ctx.read_l1(addr, buf)
}

/// Writes a completed BFP block: its exponent byte and its packed datums. `a`: the block holds
/// FP16 datums for a BFP*a format, else BF16 datums for a BFP format.
fn emit_bfp_block(ctx: &mut Ctx, width: BfpWidth, a: bool) -> UnitResult {
    let mut block = [0u16; 16];
    let vals = std::mem::take(&mut ctx.state.packers[0].bfp_block);
    for (b, v) in block.iter_mut().zip(&vals) {
        *b = *v;
    }
    let (exp, datums) = if a {
        fp16_block_to_bfpa(&block, width)
    } else {
        bf16_block_to_bfp(&block, width)
    };
    let ea = ctx.state.packers[0].exp_addr.unwrap_or(0);
    ctx.state.packers[0].exp_addr = Some(ea + 1);
    l1_write(ctx, ea, &[exp])?;
    for d in datums.iter().take(vals.len()) {
        emit(ctx, *d as u32, width.bits())?;
    }
    Ok(())
}

/// What the late conversion reads from the packer's configuration.
#[derive(Clone, Copy)]
pub(super) struct LateCfg {
    pub out_fmt: DataFormat,
    /// The BFP block width and whether it is a BFP*a format, for BFP outputs.
    pub bfp: Option<(BfpWidth, bool)>,
    /// `Pac_LF8_4b_exp`: FP8 output is E4M3, else E5M2.
    pub e4m3: bool,
    /// `Pack_L1_Acc`: add to what L1 holds instead of overwriting it.
    pub l1_acc: bool,
}

/// The late conversion of one datum to an output of whole bytes: its bits and how many.
/// `None` for BFP outputs (their datums gather into blocks of 16, [`late`]) and for pairs
/// not modelled. Which pair converts how depends on the configuration alone, never on the
/// datum's value: the packer's row path relies on that ([`super::pack_rows`]).
#[inline(always)] // per datum
pub(super) fn late_value(c: LateCfg, mid: Mid) -> Option<(u32, u32)> {
    use DataFormat::*;
    Some(match (c.out_fmt, mid) {
        (Fp32 | Int32 | Tf32, Mid::B32(x)) => (x, 32),
        (Fp32 | Tf32, Mid::B16(h)) => ((h as u32) << 16, 32),
        (Fp32 | Tf32, Mid::F16(h)) => (late_fp16_to_fp32(h), 32),
        (Bf16, Mid::B32(x)) => (x >> 16, 16),
        (Fp16, Mid::B32(x)) => (late_fp32_to_fp16(x) as u32, 16),
        (Bf16, Mid::F16(h)) => (late_fp16_to_bf16(h) as u32, 16),
        (Bf16 | Fp16 | Int16, Mid::B16(h) | Mid::F16(h)) => (h as u32, 16),
        (Fp8, Mid::F16(h)) if c.e4m3 => (late_fp16_to_fp8_e4m3(h) as u32, 8),
        (Fp8, Mid::F16(h)) => (late_fp16_to_fp8_e5m2(h) as u32, 8),
        (Int8, Mid::B8(b)) => (b as u32, 8),
        _ => return None,
    })
}

/// The late conversion of one datum and its write to L1 (BFP datums gather into blocks of 16).
fn late(ctx: &mut Ctx, c: LateCfg, mid: Mid) -> UnitResult {
    use DataFormat::*;
    if let Some((value, bits)) = late_value(c, mid) {
        return store(ctx, c, value, bits);
    }
    let bfp = c.bfp;
    match (c.out_fmt, mid) {
        (Bfp8 | Bfp4 | Bfp2 | Bfp8a | Bfp4a | Bfp2a, m) => {
            let a_block = bfp.is_some_and(|(_, a)| a);
            let h = match m {
                Mid::B32(x) => late_fp32_to_bfp(x),
                Mid::B16(h) => h,
                Mid::F16(h) if a_block => h,
                Mid::F16(h) => late_fp16_to_bf16(h),
                Mid::WideF16(_) | Mid::B8(_) => {
                    return ctx.not_modelled(&format!(
                        "PACR late conversion to {} from this intermediate",
                        c.out_fmt.name()
                    ))
                }
            };
            ctx.state.packers[0].bfp_block.push(h);
            if ctx.state.packers[0].bfp_block.len() == 16 {
                if let Some((w, a)) = bfp {
                    emit_bfp_block(ctx, w, a)?;
                }
            }
        }
        (o, _) => {
            return ctx.not_modelled(&format!(
                "PACR late conversion to {} from this intermediate",
                o.name()
            ))
        }
    }
    Ok(())
}

/// Writes one converted datum of `bits` bits, added to the datum L1 already holds there when
/// `Pack_L1_Acc` is set (`crate::formats::pack_l1_acc`: FP32, BF16 and FP16 outputs).
fn store(ctx: &mut Ctx, c: LateCfg, value: u32, bits: u32) -> UnitResult {
    if !c.l1_acc {
        return emit(ctx, value, bits);
    }
    let addr = ctx.state.packers[0].data_addr.unwrap_or(0);
    let value = match (c.out_fmt, bits) {
        (DataFormat::Fp32, 32) => {
            let mut b = [0u8; 4];
            l1_read(ctx, addr, &mut b)?;
            acc_fp32(u32::from_le_bytes(b), value)
        }
        (DataFormat::Bf16 | DataFormat::Fp16, 16) => {
            let mut b = [0u8; 2];
            l1_read(ctx, addr, &mut b)?;
            let old = u16::from_le_bytes(b);
            u32::from(if c.out_fmt == DataFormat::Bf16 {
                acc_bf16(old, value as u16)
            } else {
                acc_fp16(old, value as u16)
            })
        }
        (o, _) => {
            ctx.not_modelled(&format!("PACR L1 accumulation into {}", o.name()))?;
            value
        }
    };
    emit(ctx, value, bits)
}

/// Edge masking (Blackhole): each datum a PACR reads is kept or written as zero by a 16-bit
/// column mask, `PCK_EDGE_OFFSET_SEC{n}_mask` bit `i % 16` for the instruction's `i`-th datum.
/// Which mask applies follows a tile position counted from the last `Last`/`Flush`: a row
/// counter steps after every 16 datums and wraps at `pack_reads_per_xy_plane`; row `r` uses the
/// mask that `TILE_ROW_SET_MAPPING_{s}` entry `r % 16` names, `s` being
/// `PCK_EDGE_TILE_ROW_SET_SELECT`. tt-llk's reduce masks the packed rows and columns this way.
/// Rule restated in `docs/tensix-datapath.md` ("Packer edge masks").
pub(super) struct EdgeMasks {
    masks: [u32; 4],
    mapping: u32,
    rows_per_plane: u32,
}

impl EdgeMasks {
    fn read(ctx: &mut Ctx) -> Result<EdgeMasks, crate::TensixError> {
        if ctx.cfg(f::PCK_EDGE_MODE_mode) != 0 {
            ctx.not_modelled("PACR edge mode 1")?;
        }
        let select = ctx.cfg(f::PCK_EDGE_TILE_ROW_SET_SELECT_select) & 3;
        let word = CfgField {
            addr32: f::TILE_ROW_SET_MAPPING_0_row_set_mapping_0.addr32 + (select & 1) as usize,
            shamt: 0,
            mask: 0xffff_ffff,
            ..f::TILE_ROW_SET_MAPPING_0_row_set_mapping_0
        };
        if select > 1 {
            ctx.not_modelled("PACR edge row-set select 2-3")?;
        }
        Ok(EdgeMasks {
            masks: [
                ctx.cfg(f::PCK_EDGE_OFFSET_SEC0_mask),
                ctx.cfg(f::PCK_EDGE_OFFSET_SEC1_mask),
                ctx.cfg(f::PCK_EDGE_OFFSET_SEC2_mask),
                ctx.cfg(f::PCK_EDGE_OFFSET_SEC3_mask),
            ],
            mapping: ctx.cfg(word),
            rows_per_plane: ctx.cfg(f::PACK_COUNTERS_SEC0_pack_reads_per_xy_plane),
        })
    }

    /// Whether the `i`-th datum of the instruction is kept; steps the tile position `pos`.
    fn keeps(&self, pos: &mut (u32, u32), i: u32) -> bool {
        let set = (self.mapping >> (2 * (pos.1 & 15))) & 3;
        let keep = self.masks[set as usize] >> (i % 16) & 1 != 0;
        self.step(pos, 1);
        keep
    }

    /// Every mask a tile row can select keeps every column: no datum is masked, whatever
    /// the tile position.
    pub(super) fn keep_all(&self) -> bool {
        (0..16).all(|r| self.masks[(self.mapping >> (2 * r) & 3) as usize] & 0xffff == 0xffff)
    }

    /// Steps the tile position `pos` over `n` datums.
    pub(super) fn step(&self, pos: &mut (u32, u32), n: u32) {
        let total = pos.0 + n;
        pos.0 = total % 16;
        for _ in 0..total / 16 {
            pos.1 += 1;
            if pos.1 == self.rows_per_plane {
                pos.1 = 0;
            }
        }
    }
}

/// Blackhole's `ReadIntfSel`: the packer's four `Dst` read interfaces; interface `k` reads
/// the instruction's datums from `Dst` row `base + k` and the rows go to L1 one after the
/// other in interface order. `0b0000` activates all four (tt-llk's `ALL_INTF_ACTIVE`, which
/// packs a 16x16 face as four PACRs of four rows). Rule restated in `docs/tensix-datapath.md`.
/// Returned as the active interfaces' numbers in order, in a fixed array with their count (a
/// PACR is frequent enough that a heap list per instruction showed in profiles).
fn read_interfaces(read_intf_sel: u8) -> ([u32; 4], usize) {
    let mask = if read_intf_sel == 0 {
        0b1111
    } else {
        read_intf_sel
    };
    let mut list = [0; 4];
    let mut n = 0;
    for k in 0..4 {
        if mask >> k & 1 != 0 {
            list[n] = k;
            n += 1;
        }
    }
    (list, n)
}

/// Blackhole's `DstAccessMode`: how far apart, in `Dst` datums, the four read interfaces
/// start. Normal mode (0): one row (interface `k` reads row `base + k`). Strided mode (1):
/// one 16x16 face (interface `k` reads row `base + 16k`), so two interfaces read the same
/// row of a tile's left and right faces, one 32-datum row of the matrix: how tt-llk
/// untilizes. Rule restated in `docs/tensix-datapath.md` ("Packer read interfaces").
fn interface_stride(dst_access_mode: u8) -> u32 {
    if dst_access_mode != 0 {
        16 * 16
    } else {
        16
    }
}

/// `PACR`.
pub fn pacr(ctx: &mut Ctx, insn: Pacr) -> UnitResult {
    // The gathered bytes precede whatever ended the PACR, an error included (see `emit`).
    let r = pacr_datums(ctx, insn);
    let f = flush(ctx);
    r.and(f)
}

fn pacr_datums(ctx: &mut Ctx, insn: Pacr) -> UnitResult {
    let Pacr {
        dst_access_mode,
        addr_mode,
        zero_write,
        read_intf_sel,
        ovrd_thread_id,
        flush,
        last,
        ..
    } = insn;
    let (interface_list, active) = read_interfaces(read_intf_sel);
    let interfaces = &interface_list[..active];
    let intf_stride = interface_stride(dst_access_mode);
    let t = ctx.thread;
    let which = if ovrd_thread_id != 0 {
        return ctx.not_modelled("PACR with OvrdThreadId");
    } else {
        t
    };
    if ctx.cfg(f::THCON_SEC0_REG1_Source_interface_selection) != 0 {
        return ctx.not_modelled("PACR from L1 (Source_interface_selection)");
    }
    let compress = ctx.cfg(f::THCON_SEC0_REG1_Disable_zero_compress) == 0;
    if compress {
        return ctx.not_modelled("PACR with compression (Disable_zero_compress clear)");
    }
    for (fl, what) in [
        (f::THCON_SEC0_REG1_Exp_threshold_en, "exponent thresholding"),
        (f::THCON_SEC0_REG1_Downsample_rate, "downsampling"),
    ] {
        if ctx.cfg(fl) != 0 {
            ctx.not_modelled(&format!("PACR {what}"))?;
        }
    }
    let in_code = ctx.cfg(f::THCON_SEC0_REG1_In_data_format);
    let out_code = ctx.cfg(f::THCON_SEC0_REG1_Out_data_format);
    let inter_code = intermediate(ctx);
    let (Some(_in_fmt), Some(out_fmt), Some(inter)) = (
        DataFormat::from_code(in_code),
        DataFormat::from_code(out_code),
        DataFormat::from_code(inter_code),
    ) else {
        return ctx.undefined(format!(
            "PACR with format codes in {in_code} / out {out_code} / intermediate {inter_code}, one of which names no format; not executed"
        ));
    };
    let (src, num) = dst_reads(ctx, which, in_code, flush != 0);
    start_streams(ctx, which, out_code)?;
    // Move the datums.
    let ec = EarlyCfg {
        read32: ctx.cfg(f::PCK_DEST_RD_CTRL_Read_32b_data) != 0,
        round10: ctx.cfg(f::PCK_DEST_RD_CTRL_Round_10b_mant) != 0,
        read_raw: ctx.cfg(f::PCK_DEST_RD_CTRL_Read_int8) != 0,
        unsigned: ctx.cfg(f::PCK_DEST_RD_CTRL_Read_unsigned) != 0,
        inter,
    };
    let read32 = ec.read32;
    let relu_mode = ctx.cfg(f::STACC_RELU_ApplyRelu);
    let relu_threshold = ctx.cfg(f::STACC_RELU_ReluThreshold);
    if relu_mode != 0 && relu_threshold & 0x8000 != 0 {
        ctx.undefined(format!(
            "PACR ReLU with a negative threshold {relu_threshold:#06x}; applied as an unsigned bit pattern"
        ))?;
    }
    let lc = LateCfg {
        out_fmt,
        bfp: None,
        e4m3: ctx.cfg(f::THCON_SEC0_REG1_Pac_LF8_4b_exp) != 0,
        l1_acc: ctx.cfg(f::THCON_SEC0_REG1_Pack_L1_Acc) != 0,
    };
    let dcfg = ctx.state.dest_access_cfg(t);
    let bfp = match out_fmt {
        DataFormat::Bfp8 => Some((BfpWidth::B8, false)),
        DataFormat::Bfp4 => Some((BfpWidth::B4, false)),
        DataFormat::Bfp2 => Some((BfpWidth::B2, false)),
        DataFormat::Bfp8a => Some((BfpWidth::B8, true)),
        DataFormat::Bfp4a => Some((BfpWidth::B4, true)),
        DataFormat::Bfp2a => Some((BfpWidth::B2, true)),
        _ => None,
    };
    let lc = LateCfg { bfp, ..lc };
    if bfp.is_some_and(|(_, a)| a) && read32 {
        return ctx.not_modelled("PACR from 32-bit Dst to BFP*a (E5M7 saturation)");
    }
    let edges = EdgeMasks::read(ctx)?;
    let run = super::pack_rows::Run {
        src,
        num,
        intf_stride,
        interfaces,
        zero_write: zero_write != 0,
        relu_mode,
        early: ec,
        late: lc,
        dcfg,
    };
    if !super::pack_rows::pack(ctx, &edges, &run) {
        let relu_cfg = (relu_mode, relu_threshold);
        for (i, idx) in run.indices().enumerate() {
            if !pack_datum(
                ctx,
                &edges,
                (ec, relu_cfg, lc, dcfg),
                zero_write != 0,
                i,
                idx,
            )? {
                return Ok(());
            }
        }
    }
    advance_adcs(ctx, which, addr_mode);
    if last != 0 || flush != 0 {
        end_streams(ctx, bfp)?;
    }
    Ok(())
}

/// Packer 0's `Dst` read address generator: the first datum's index in `Dst` (ADC channel 0,
/// the input format's datum size, `DEST_TARGET_REG_CFG_PACK_SEC0_Offset`) and the datums each
/// read interface reads (none on a flush).
fn dst_reads(ctx: &Ctx, which: usize, in_code: u32, flush: bool) -> (u32, u32) {
    let adc = ctx.state.adcs[which].packers;
    let ch0 = adc[0];
    let addr = ctx.cfg(f::PCK0_ADDR_BASE_REG_0_Base)
        + ch0.get(Coord::X) * (ctx.cfg(f::PCK0_ADDR_CTRL_XY_REG_0_Xstride) & 0xf)
        + ch0.get(Coord::Y) * ctx.cfg(f::PCK0_ADDR_CTRL_XY_REG_0_Ystride)
        + ch0.get(Coord::Z) * ctx.cfg(f::PCK0_ADDR_CTRL_ZW_REG_0_Zstride)
        + ch0.get(Coord::W) * ctx.cfg(f::PCK0_ADDR_CTRL_ZW_REG_0_Wstride);
    let (bytes_per, xmask) = match in_code & 3 {
        0 => (4, 0x3),
        1 => (2, 0x7),
        _ => (1, 0xf),
    };
    let num = if flush {
        0
    } else {
        (adc[1].get(Coord::X) + 1).saturating_sub(ch0.get(Coord::X))
    };
    let mut src = ((addr / bytes_per) & !xmask) + (ch0.get(Coord::X) & xmask);
    src += ctx.cfg(f::DEST_TARGET_REG_CFG_PACK_SEC0_Offset) << 4;
    (src & 0x3fff, num)
}

/// Packer 0's L1 output address generator: where the data stream (and for a BFP output, the
/// exponent stream before it) starts, fixed by the first PACR after a flush.
fn start_streams(ctx: &mut Ctx, which: usize, out_code: u32) -> UnitResult {
    let ch1 = ctx.state.adcs[which].packers[1];
    let mut out = ctx.cfg(f::THCON_SEC0_REG1_L1_Dest_addr)
        + (ctx.cfg(f::THCON_SEC0_REG1_Sub_l1_tile_header_size) == 0) as u32;
    let yzw = ctx.cfg(f::PCK0_ADDR_BASE_REG_1_Base)
        + ch1.get(Coord::Y) * ctx.cfg(f::PCK0_ADDR_CTRL_XY_REG_1_Ystride)
        + ch1.get(Coord::Z) * ctx.cfg(f::PCK0_ADDR_CTRL_ZW_REG_1_Zstride)
        + ch1.get(Coord::W) * ctx.cfg(f::PCK0_ADDR_CTRL_ZW_REG_1_Wstride);
    // The strides are in bytes, the output address in 16-byte units (the reference simulator
    // agrees: tt-llk's strided fast untilize, whose channel-1 Y stride is one output row).
    out += yzw >> 4;
    if ctx.cfg(f::THCON_SEC0_REG1_Add_l1_dest_addr_offset) != 0 {
        ctx.not_modelled("PACR l1_dest_addr_offset (set by TDMA-RISC)")?;
    }
    let small = out_code & 2 != 0;
    let st = &mut ctx.state.packers[0];
    if small && st.exp_addr.is_none() {
        st.exp_addr = Some((out & 0x1ffff) << 4);
    }
    if small {
        out += ctx.cfg(f::THCON_SEC0_REG1_Exp_section_size);
    }
    let st = &mut ctx.state.packers[0];
    if st.data_addr.is_none() {
        st.data_addr = Some((out & 0x1ffff) << 4);
    }
    Ok(())
}

/// One datum the packer reads at `Dst` index `idx` (the `i`-th of the instruction): masked by
/// the edge masks (zero bits, no conversion), or read, converted early (and ReLU), then
/// late into the output stream. `false` when the instruction stopped at an unmodelled case.
#[inline(always)] // per datum, in the unit's inner loop
fn pack_datum(
    ctx: &mut Ctx,
    edges: &EdgeMasks,
    (ec, (relu_mode, relu_threshold), lc, dcfg): (EarlyCfg, (u32, u32), LateCfg, DestAccessCfg),
    zero_write: bool,
    i: usize,
    idx: u32,
) -> Result<bool, crate::TensixError> {
    let idx = idx & 0x3fff;
    let (row, col) = (idx >> 4, (idx & 15) as usize);
    if !edges.keeps(&mut ctx.state.packers[0].edge_pos, i as u32) {
        // A masked datum is written as zero bits of the intermediate's width, unconverted.
        late(ctx, lc, masked_zero(ec))?;
        return Ok(true);
    }
    let raw = if zero_write {
        0
    } else if ec.read32 {
        ctx.state.dst.read32(row, col, dcfg)
    } else {
        ctx.state.dst.read16(row, col, dcfg) as u32
    };
    let mid = match early(ec, raw).and_then(|m| relu(relu_mode, relu_threshold, ec.inter, m)) {
        Ok(m) => m.narrowed(),
        Err(m) => return ctx.not_modelled(&format!("PACR: {m}")).map(|()| false),
    };
    late(ctx, lc, mid)?;
    Ok(true)
}

/// The ADCs after a PACR (`ADDR_MOD_PACK_SEC[AddrMode]`): Y and Z of the source (channel 0)
/// and destination (channel 1) incremented, carriage-returned or cleared.
fn advance_adcs(ctx: &mut Ctx, which: usize, addr_mode: u8) {
    let sec = |b: CfgField| CfgField {
        addr32: b.addr32 + addr_mode as usize,
        ..b
    };
    let g = |ctx: &Ctx, b: CfgField| ctx.cfg(sec(b));
    let (ysrc_inc, ysrc_cr, ysrc_clr) = (
        g(ctx, f::ADDR_MOD_PACK_SEC0_YsrcIncr),
        g(ctx, f::ADDR_MOD_PACK_SEC0_YsrcCR),
        g(ctx, f::ADDR_MOD_PACK_SEC0_YsrcClear),
    );
    let (zsrc_inc, zsrc_clr) = (
        g(ctx, f::ADDR_MOD_PACK_SEC0_ZsrcIncr),
        g(ctx, f::ADDR_MOD_PACK_SEC0_ZsrcClear),
    );
    let (ydst_inc, ydst_cr, ydst_clr) = (
        g(ctx, f::ADDR_MOD_PACK_SEC0_YdstIncr),
        g(ctx, f::ADDR_MOD_PACK_SEC0_YdstCR),
        g(ctx, f::ADDR_MOD_PACK_SEC0_YdstClear),
    );
    let (zdst_inc, zdst_clr) = (
        g(ctx, f::ADDR_MOD_PACK_SEC0_ZdstIncr),
        g(ctx, f::ADDR_MOD_PACK_SEC0_ZdstClear),
    );
    let chs = &mut ctx.state.adcs[which].packers;
    for (ch, (yi, ycr, yc, zi, zc)) in [
        (0, (ysrc_inc, ysrc_cr, ysrc_clr, zsrc_inc, zsrc_clr)),
        (1, (ydst_inc, ydst_cr, ydst_clr, zdst_inc, zdst_clr)),
    ] {
        let c = &mut chs[ch];
        if yc != 0 {
            c.set_both(Coord::Y, 0);
        } else if ycr != 0 {
            let v = c.get_cr(Coord::Y) + yi;
            c.set_both(Coord::Y, v);
        } else {
            let v = c.get(Coord::Y) + yi;
            c.set(Coord::Y, v);
        }
        if zc != 0 {
            c.set_both(Coord::Z, 0);
        } else {
            let v = c.get(Coord::Z) + zi;
            c.set(Coord::Z, v);
        }
    }
}

/// `Last` / `Flush`: the BFP block in progress written out, both streams padded to 16 bytes
/// with zeros, and new addresses asked for by the next PACR.
fn end_streams(ctx: &mut Ctx, bfp: Option<(BfpWidth, bool)>) -> UnitResult {
    if let Some((w, a)) = bfp {
        if !ctx.state.packers[0].bfp_block.is_empty() {
            emit_bfp_block(ctx, w, a)?;
        }
    }
    // Flush: pad the stream to 16 bytes with zeros, then ask for new addresses.
    let st = &ctx.state.packers[0];
    let (_, n) = st.partial;
    if n > 0 {
        emit(ctx, 0, 8 - n)?;
    }
    let exp_addr = if bfp.is_some() {
        ctx.state.packers[0].exp_addr
    } else {
        None
    };
    // The data stream and, for a BFP output, the exponent stream.
    for a in [ctx.state.packers[0].data_addr, exp_addr]
        .into_iter()
        .flatten()
    {
        let pad = (16 - a % 16) % 16;
        if pad > 0 {
            l1_write(ctx, a, &vec![0; pad as usize])?;
        }
    }
    let st = &mut ctx.state.packers[0];
    st.data_addr = None;
    st.exp_addr = None;
    st.edge_pos = (0, 0);
    Ok(())
}

#[cfg(test)]
#[path = "pack_tests.rs"]
mod tests;
