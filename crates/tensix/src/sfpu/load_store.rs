//! Moving data in and out of the unit: SFPLOADI (immediates), SFPLOAD (`Dst` -> `LReg`) and
//! SFPSTORE (`LReg` -> `Dst`) with all their format conversions; plus the `Dst` address
//! computation that the dispatcher performs before issuing them.
//!
//! Sources: tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPLOADI.md,
//! SFPLOAD.md, SFPSTORE.md.
use super::state::{lane_config, lanes_of};
use super::{Insn, SfpuContext, SfpuError, VectorUnit};

/// `Mod0` format codes shared by SFPLOAD / SFPSTORE / SFPLOADMACRO.
pub mod fmt {
    pub const SRCB: u8 = 0;
    pub const FP16: u8 = 1;
    pub const BF16: u8 = 2;
    pub const FP32: u8 = 3;
    pub const INT32: u8 = 4;
    pub const INT8: u8 = 5;
    pub const UINT16: u8 = 6;
    pub const HI16: u8 = 7;
    pub const INT16: u8 = 8;
    pub const LO16: u8 = 9;
    pub const INT32_ALL: u8 = 10;
    pub const ZERO: u8 = 11;
    pub const INT32_SM: u8 = 12;
    pub const INT8_COMP: u8 = 13;
    pub const LO16_ONLY: u8 = 14;
    pub const HI16_ONLY: u8 = 15;
}

/// What `MOD0_FMT_SRCB` resolves to: FP32 when `ALU_ACC_CTRL_SFPU_Fp32_enabled`, else BF16
/// when the (possibly overridden) SrcB format is one of FP32, TF32, BF16, BFP8, BFP4, BFP2,
/// INT32, INT16, else FP16 (SFPLOAD.md / SFPSTORE.md functional model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SrcbFormat {
    Fp16,
    #[default]
    Bf16,
    Fp32,
}

impl SrcbFormat {
    pub(crate) fn mod0(self) -> u8 {
        match self {
            SrcbFormat::Fp16 => fmt::FP16,
            SrcbFormat::Bf16 => fmt::BF16,
            SrcbFormat::Fp32 => fmt::FP32,
        }
    }
}

/// The inputs of the `Addr` computation of SFPLOAD / SFPSTORE / SFPLOADMACRO (all taken from
/// the issuing thread's `ThreadConfig`, its RWCs and the `Config` state it uses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DstAddrInputs {
    /// `Imm10` of the instruction (bits 0..9 of the word, also for SFPLOADMACRO).
    pub imm10: u32,
    /// `DEST_TARGET_REG_CFG_MATH_Offset`.
    pub math_offset: u32,
    /// `RWCs[thread].Dst`.
    pub rwc_dst: u32,
    /// `DEST_REGW_BASE_Base`.
    pub regw_base: u32,
    /// `RWCs[thread].Sp`.
    pub rwc_sp: u32,
    /// `DEST_SP_BASE_Base`.
    pub sp_base: u32,
    /// `SFPU_STACK_Incr`.
    pub stack_incr: u32,
}

impl DstAddrInputs {
    /// SFPLOAD / SFPLOADMACRO: `(Addr, new RWCs.Sp)`. `MOD0_FMT_INT32_ALL` first pre-decrements
    /// a non-zero `Sp` by `SFPU_STACK_Incr` and addresses by `Sp` (low two bits from Dst);
    /// every other format addresses by Dst (low two bits from Sp). 10-bit arithmetic.
    pub fn load(&self, mod0: u8) -> (u32, u32) {
        let dst_off = self.rwc_dst.wrapping_add(self.regw_base);
        let mut sp = self.rwc_sp;
        let addr = if mod0 == fmt::INT32_ALL {
            if sp != 0 {
                sp = sp.wrapping_sub(self.stack_incr);
            }
            let sp_off = sp.wrapping_add(self.sp_base);
            self.base().wrapping_add(sp_off).wrapping_add(dst_off & 3)
        } else {
            let sp_off = sp.wrapping_add(self.sp_base);
            self.base().wrapping_add(dst_off).wrapping_add(sp_off & 3)
        };
        (addr & 0x3ff, sp)
    }

    /// SFPSTORE: `(Addr, new RWCs.Sp)`; `MOD0_FMT_INT32_ALL` post-increments `Sp`.
    pub fn store(&self, mod0: u8) -> (u32, u32) {
        let dst_off = self.rwc_dst.wrapping_add(self.regw_base);
        let sp_off = self.rwc_sp.wrapping_add(self.sp_base);
        if mod0 == fmt::INT32_ALL {
            let addr = self.base().wrapping_add(sp_off).wrapping_add(dst_off & 3);
            (addr & 0x3ff, self.rwc_sp.wrapping_add(self.stack_incr))
        } else {
            let addr = self.base().wrapping_add(dst_off).wrapping_add(sp_off & 3);
            (addr & 0x3ff, self.rwc_sp)
        }
    }

    fn base(&self) -> u32 {
        self.imm10.wrapping_add(self.math_offset)
    }
}

/// `Dst` row and column of `lane` for `Addr`: four consecutive rows from `Addr & !3`, even
/// columns, or odd ones when `Addr & 2` or the lane's column-exchange bit is set.
#[inline(always)]
fn dst_place(addr: u32, lane: usize, odd_cols: bool) -> (u32, usize) {
    let row = ((addr & !3) + (lane / 8) as u32) & 0x3ff;
    let col = (lane & 7) * 2 + (addr & 2 != 0 || odd_cols) as usize;
    (row, col)
}

/// Dst holds BF16 as sign | mantissa(7) | exponent(8); FP32's high half likewise.
fn unshuffle_bf16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0xff) << 7) | ((x >> 8) & 0x7f)
}

fn shuffle_bf16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x7f) << 8) | ((x >> 7) & 0xff)
}

fn unshuffle_fp32(x: u32) -> u32 {
    (unshuffle_bf16(x >> 16) << 16) | (x & 0xffff)
}

fn shuffle_fp32(x: u32) -> u32 {
    (shuffle_bf16(x >> 16) << 16) | (x & 0xffff)
}

/// Dst holds FP16 as sign | mantissa(10) | exponent(5).
fn shuffle_fp16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x3ff) << 5) | ((x >> 10) & 0x1f)
}

/// `ReadFP16` (SFPLOAD.md): rebias a shuffled FP16; with `ENABLE_FP16A_INF` the largest
/// pattern reads as infinity; exponent 0 stays 0.
fn read_fp16(x: u32, inf: bool) -> u32 {
    let sign = (x >> 15) & 1;
    let mut man = (x >> 5) & 0x3ff;
    let mut exp = x & 0x1f;
    if inf && exp == 0x1f && man == 0x3ff {
        exp = 255;
        man = 0;
    } else if exp != 0 {
        exp += 112;
    }
    (sign << 31) | (exp << 23) | (man << 13)
}

/// `ToFP16` (SFPSTORE.md): flush underflow to signed zero, saturate overflow to the largest
/// pattern, truncate the mantissa.
fn to_fp16(x: u32) -> u32 {
    let sign = x >> 31;
    let mut exp = ((x >> 23) & 0xff) as i32 - 112;
    let mut man = x & 0x7f_ffff;
    if exp <= 0 {
        exp = 0;
        man = 0;
    } else if exp > 31 {
        exp = 31;
        man = 0x7f_ffff;
    }
    (sign << 15) | ((exp as u32) << 10) | (man >> 13)
}

/// Flush a denormal to signed zero (`ToFP32`; `ToBF16` is this then `>> 16`).
fn flush_denormal(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

impl VectorUnit {
    /// SFPLOADI: an immediate into every enabled lane of `VD` (`VD < 8`), as BF16, FP16
    /// (widened, no special cases), zero- or sign-extended 16 bits, or into the upper / lower
    /// half (SFPLOADI.md). Other `Mod0` values are undefined.
    pub(super) fn sfploadi(&mut self, insn: &Insn, lanes: u32) -> Result<(), SfpuError> {
        let imm = insn.imm16_math();
        let fp16 = || {
            let (s, e, m) = (imm >> 15, (imm >> 10) & 0x1f, imm & 0x3ff);
            (s << 31) | ((e + 112) << 23) | (m << 13)
        };
        let value: Box<dyn Fn(u32) -> u32> = match insn.modifier {
            0 => Box::new(move |_| imm << 16),
            1 => {
                let v = fp16();
                Box::new(move |_| v)
            }
            2 => Box::new(move |_| imm),
            4 => Box::new(move |_| imm as u16 as i16 as i32 as u32),
            8 => Box::new(move |old| (imm << 16) | (old & 0xffff)),
            10 => Box::new(move |old| (old & 0xffff_0000) | imm),
            m => {
                return Err(SfpuError::new(
                    insn,
                    format!("Mod0={m} is not an SFPLOADI mode"),
                ))
            }
        };
        if insn.vd < 8 {
            let vd = insn.vd as usize;
            self.lanewise(insn.vd, lanes, |r, l| value(r[vd][l]));
        }
        Ok(())
    }

    /// SFPLOAD: up to 32 datums from four rows of `Dst` (even or odd columns) into `VD`,
    /// converting per `Mod0`; `MOD0_FMT_INT32_ALL` ignores predication; with
    /// `ENABLE_DEST_INDEX` + `CAPTURE_DEFAULT_DEST_INDEX` the datum's `Dst` position also goes
    /// to `LReg[VD + 4]` (SFPLOAD.md).
    pub(super) fn sfpload(
        &mut self,
        insn: &Insn,
        lanes: u32,
        ctx: &mut SfpuContext<'_>,
        addr: u32,
    ) -> Result<(), SfpuError> {
        let mod0 = if insn.modifier == fmt::SRCB {
            ctx.srcb_format.mod0()
        } else {
            insn.modifier
        };
        if insn.vd >= 8 {
            return Ok(());
        }
        let vd = insn.vd as usize;
        let blocked = self.state.lanes_with(lane_config::BLOCK_SFPU_RD_FROM_DEST);
        let active = if mod0 == fmt::INT32_ALL {
            lanes
        } else {
            self.state.enabled_mask() & lanes
        } & !blocked;
        let cfg = ctx.dst_cfg;
        for lane in lanes_of(active) {
            let lc = self.state.lane_config[lane];
            let odd = self.state.lane_config[lane & 7] & lane_config::DEST_RD_COL_EXCHANGE != 0;
            let (row, col) = dst_place(addr, lane, odd);
            let d16 = || ctx.dst.read16(row, col, cfg) as u32;
            let old = self.state.lreg[vd][lane];
            let datum = match mod0 {
                fmt::FP16 => read_fp16(d16(), lc & lane_config::ENABLE_FP16A_INF != 0),
                fmt::BF16 => unshuffle_bf16(d16()) << 16,
                fmt::FP32 | fmt::INT32 | fmt::INT32_ALL | fmt::INT32_SM => {
                    unshuffle_fp32(ctx.dst.read32(row, col, cfg))
                }
                fmt::INT8 => ((d16() >> 15) << 31) | ((d16() >> 5) & 0xff),
                fmt::INT8_COMP => ((d16() >> 15) << 31) | ((d16() >> 5) & 0x3ff),
                fmt::LO16_ONLY => (old & 0xffff_0000) | d16(),
                fmt::HI16_ONLY => (d16() << 16) | (old & 0xffff),
                fmt::INT16 => ((d16() >> 15) << 31) | (d16() & 0x7fff),
                fmt::UINT16 | fmt::LO16 => d16(),
                fmt::HI16 => d16() << 16,
                _ => 0, // MOD0_FMT_ZERO
            };
            self.state.lreg[vd][lane] = datum;
            let capture = lane_config::ENABLE_DEST_INDEX | lane_config::CAPTURE_DEFAULT_DEST_INDEX;
            if vd < 4 && lc & capture == capture {
                self.state.lreg[vd + 4][lane] = (row << 4) | col as u32;
            }
        }
        Ok(())
    }

    /// SFPSTORE: `VD` into four rows of `Dst` (even or odd columns), converting per `Mod0`
    /// (denormals flushed and mantissas truncated for FP16/BF16/FP32); `MOD0_FMT_INT32_ALL`
    /// ignores predication; `BLOCK_DEST_WR_FROM_SFPU` lanes write nothing (SFPSTORE.md).
    pub(super) fn sfpstore(
        &mut self,
        insn: &Insn,
        lanes: u32,
        ctx: &mut SfpuContext<'_>,
        addr: u32,
    ) -> Result<(), SfpuError> {
        let mod0 = if insn.modifier == fmt::SRCB {
            ctx.srcb_format.mod0()
        } else {
            insn.modifier
        };
        let blocked = self.state.lanes_with(lane_config::BLOCK_DEST_WR_FROM_SFPU);
        let active = if mod0 == fmt::INT32_ALL {
            lanes
        } else {
            self.state.enabled_mask() & lanes
        } & !blocked;
        let cfg = ctx.dst_cfg;
        for lane in lanes_of(active) {
            let odd = self.state.lane_config[lane & 7] & lane_config::DEST_WR_COL_EXCHANGE != 0;
            let (row, col) = dst_place(addr, lane, odd);
            let d = self.state.lreg[insn.vd as usize][lane];
            let w16 = |v: u32| (v & 0xffff) as u16;
            match mod0 {
                fmt::FP16 => ctx
                    .dst
                    .write16(row, col, w16(shuffle_fp16(to_fp16(d))), cfg),
                fmt::BF16 => {
                    ctx.dst
                        .write16(row, col, w16(shuffle_bf16(flush_denormal(d) >> 16)), cfg)
                }
                fmt::FP32 => ctx
                    .dst
                    .write32(row, col, shuffle_fp32(flush_denormal(d)), cfg),
                fmt::INT32 | fmt::INT32_ALL | fmt::INT32_SM => {
                    ctx.dst.write32(row, col, shuffle_fp32(d), cfg)
                }
                fmt::INT8 | fmt::INT8_COMP => {
                    let v = ((d >> 31) << 15) | (16 << 10) | (d & 0x3ff);
                    ctx.dst.write16(row, col, w16(shuffle_fp16(v)), cfg)
                }
                fmt::LO16_ONLY | fmt::UINT16 => ctx.dst.write16(row, col, w16(d), cfg),
                fmt::HI16_ONLY => ctx.dst.write16(row, col, w16(d >> 16), cfg),
                fmt::INT16 => ctx
                    .dst
                    .write16(row, col, w16(((d >> 31) << 15) | (d & 0x7fff)), cfg),
                fmt::LO16 => ctx.dst.write32(row, col, d.rotate_left(16), cfg),
                fmt::HI16 => ctx.dst.write32(row, col, d, cfg),
                _ => ctx.dst.write16(row, col, 0, cfg), // MOD0_FMT_ZERO
            }
        }
        Ok(())
    }
}
