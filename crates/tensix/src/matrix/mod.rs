//! The Matrix Unit (FPU): what ELWADD, ELWSUB, ELWMUL, MVMUL, DOTPV, GAPOOL and GMPOOL compute,
//! bit for bit as the functional models of `tt-isa-documentation:
//! WormholeB0/TensixTile/TensixCoprocessor/{ELWADD,ELWSUB,ELWMUL,MVMUL,DOTPV,GAPOOL,GMPOOL}.md`
//! define it (there are no Blackhole pages for these; the encodings are Blackhole's, from
//! `bhemu_isa::tensix::blackhole`). Where the pages leave a choice open (the rounding of
//! `RoundToBF16`, how exponent 255 behaves inside `float` arithmetic) the rule we chose is
//! stated in `docs/matrix-unit.md` and in [`arith`].
//!
//! # Entry point (for the coprocessor's dispatcher)
//!
//! [`MatrixUnit::execute`] applies one instruction's data effects when it is dispatched to the
//! Matrix Unit. The dispatcher has already waited at the Wait Gate for SrcA/SrcB bank
//! ownership and resolves everything that depends on thread state into a [`MathRegs`]
//! ([`MathRegs::resolve`] does it from [`crate::state::TensixState`] and the bank pointers):
//!
//! | field | the documentation's expression |
//! |---|---|
//! | `src_a_bank`, `src_b_bank` | `MatrixUnit.SrcABank`, `MatrixUnit.SrcBBank` |
//! | `rwc_src_a`, `rwc_src_b` | `RWCs[CurrentThread].SrcA`, `.SrcB` (unmasked; the unit applies `& 0x38` etc.) |
//! | `dst_row_base` | `ThreadConfig[t].DEST_TARGET_REG_CFG_MATH_Offset + RWCs[t].Dst + Config[s].DEST_REGW_BASE_Base` (unmasked sum; the instruction's `DstRow` is added here and the documented mask applied) |
//! | `fidelity_phase` | `RWCs[t].FidelityPhase + ThreadConfig[t].FIDELITY_BASE_Phase` (the unit applies `& 3`) |
//! | `format` | `FP16A_FORCE_Enable`, `ALU_ACC_CTRL_INT8_math_enabled`, the selected SrcA format (`ALU_FORMAT_SPEC_REG_SrcA_override ? ..._SrcA_val : ALU_FORMAT_SPEC_REG0_SrcA`), `ALU_ACC_CTRL_Fp32_enabled` |
//! | `dest_access` | `DEST_ACCESS_CFG_remap_addrs`, `DEST_ACCESS_CFG_swizzle_32b` |
//!
//! It returns a [`Retired`] saying what is left for the dispatcher: flipping the Src banks
//! (`FlipSrcA`/`FlipSrcB`, honouring `CLR_DVALID_Src*_Disable`), `ApplyAddrMod(addr_mode)`,
//! resetting the packers' exponent histograms (CLREXPHIST), and the Dst rows read and written
//! (for timing and the optional [`hazard`] checker, which `execute` feeds itself when enabled).
//! Undefined behaviour (a reserved SrcA format, an undocumented modifier bit, SrcA rows past
//! 63) is a [`TensixError`] of kind [`ErrorKind::Undefined`] naming the thread, word and cycle.
//!
//! ```ignore
//! let regs = MathRegs::resolve(&state, thread, &banks);           // before ApplyAddrMod
//! let mut ctx = MatrixCtx { src_a: &state.src_a, src_b: &state.src_b, dst: &mut state.dst,
//!                           regs, thread: thread as u8, cycle };
//! let retired = matrix_unit.execute(arch, word, &mut ctx)?;
//! if let Some(m) = retired.addr_mode { state.apply_addr_mod(thread, m as usize, true); }
//! // + bank flips (retired.flip_src_a/b), CLREXPHIST, and `dst_rows_defined` for other writers
//! ```
pub mod arith;
pub mod bench;
mod dispatch;
mod elw;
pub mod formats;
mod gmpool;
pub mod hazard;
mod matmul;
mod resolve;
pub mod zeroacc;

use crate::error::{ErrorKind, TensixError};
use crate::formats::DataFormat;
use crate::state::{DestAccessCfg, Dst, SrcData};
use bhemu_isa::tensix::{blackhole, wormhole, Arch};

/// How SrcA (and with it SrcB) is interpreted: the functional models' `SrcAStyle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcAStyle {
    Bf16,
    Fp16,
    Tf32,
    Int8,
}

/// The configuration bits that choose the data formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MathFormat {
    /// `ThreadConfig[t].FP16A_FORCE_Enable`.
    pub fp16a_force: bool,
    /// `ALU_ACC_CTRL_INT8_math_enabled`.
    pub int8_math_enabled: bool,
    /// The selected SrcA format code (`ALU_FORMAT_SPEC_REG_SrcA_override ?
    /// ALU_FORMAT_SPEC_REG_SrcA_val : ALU_FORMAT_SPEC_REG0_SrcA`), a [`DataFormat`] code.
    pub src_a_format: u32,
    /// `ALU_ACC_CTRL_Fp32_enabled`.
    pub fp32_enabled: bool,
}

impl MathFormat {
    /// `SrcAStyle` and `UseDst32b` as every Matrix Unit page determines them. `None` for the
    /// format codes 12 and 13, which no page assigns a meaning.
    pub fn style(&self) -> Option<(SrcAStyle, bool)> {
        use DataFormat::*;
        if self.fp16a_force {
            return Some((SrcAStyle::Fp16, false));
        }
        if self.int8_math_enabled {
            return Some((SrcAStyle::Int8, true));
        }
        let style = match DataFormat::from_code(self.src_a_format)? {
            Fp32 | Bf16 | Bfp8 | Bfp4 | Bfp2 | Int32 | Int16 => SrcAStyle::Bf16,
            Fp16 | Fp8 | Bfp8a | Bfp4a | Bfp2a | Int8 => SrcAStyle::Fp16,
            Tf32 => SrcAStyle::Tf32,
        };
        Some((style, self.fp32_enabled))
    }
}

/// Thread and configuration state the dispatcher resolves for one instruction (see the
/// module documentation for each field's source).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MathRegs {
    pub src_a_bank: usize,
    pub src_b_bank: usize,
    pub rwc_src_a: u32,
    pub rwc_src_b: u32,
    pub dst_row_base: u32,
    pub fidelity_phase: u32,
    pub format: MathFormat,
    pub dest_access: DestAccessCfg,
}

/// Everything one instruction works on: the register files, the resolved registers, and
/// where it runs (for errors and the hazard checker).
pub struct MatrixCtx<'a> {
    pub src_a: &'a SrcData,
    pub src_b: &'a SrcData,
    pub dst: &'a mut Dst,
    pub regs: MathRegs,
    pub thread: u8,
    pub cycle: u64,
}

/// A decoded Matrix Unit instruction with the documentation's field names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixOp {
    /// `Dst = SrcA + SrcB` or `Dst += SrcA + SrcB`.
    Elwadd(Elw),
    /// `Dst = SrcA - SrcB` or `Dst += SrcA - SrcB`.
    Elwsub(Elw),
    /// `Dst += SrcA * SrcB` (the `AddDst` bit is ignored: the page's syntax fixes it to 1 and
    /// its model always accumulates).
    Elwmul(Elw),
    /// `Dst += SrcB @ SrcA`, 8x16 @ 16x16, optionally broadcasting one SrcB row.
    Mvmul(Matmul),
    /// MVMUL without the broadcast.
    Dotpv(Matmul),
    /// MVMUL on 4 rows.
    Gapool(Matmul),
    /// Column max of SrcA into a Dst row, optionally with argmax.
    Gmpool(Gmpool),
    /// Mark Dst rows undefined.
    Zeroacc(zeroacc::Zeroacc),
    /// Reset the packers' exponent histograms: left to the dispatcher.
    Clrexphist,
    /// CONV3S1, CONV3S2, APOOL3S1, APOOL3S2, MFCONV3S1: `Dst += 0` (MatrixUnit.md, legacy).
    LegacyNoOp {
        flip_a: bool,
        flip_b: bool,
        addr_mode: u8,
    },
    /// MPOOL3S1, MPOOL3S2: documented only as "similar to GMPOOL with SrcA zero".
    LegacyMpool,
}

/// Fields of ELWADD / ELWSUB / ELWMUL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elw {
    pub flip_a: bool,
    pub flip_b: bool,
    pub add_dst: bool,
    pub broadcast_row: bool,
    pub broadcast_col0: bool,
    pub addr_mode: u8,
    pub dst: u32,
}

/// Fields of MVMUL / DOTPV / GAPOOL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matmul {
    pub flip_a: bool,
    pub flip_b: bool,
    pub broadcast_row: bool,
    pub addr_mode: u8,
    pub dst: u32,
    /// Modifier bits no page documents (must be zero).
    pub undocumented: u32,
}

/// Fields of GMPOOL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gmpool {
    pub flip_a: bool,
    pub flip_b: bool,
    pub arg_max: bool,
    pub addr_mode: u8,
    pub dst: u32,
    pub undocumented: u32,
}

fn elw(clear_dvalid: u8, dest_accum_en: u8, mod19: u8, addr_mode: u8, dst: u16) -> Elw {
    Elw {
        flip_a: clear_dvalid & 1 != 0,
        flip_b: clear_dvalid & 2 != 0,
        add_dst: dest_accum_en != 0,
        broadcast_row: mod19 & 2 != 0,
        broadcast_col0: mod19 & 1 != 0,
        addr_mode,
        dst: dst as u32,
    }
}

fn matmul(clear_dvalid: u8, mod19: u8, addr_mode: u8, dst: u16, bcast_ok: bool) -> Matmul {
    let bcast_bit = if bcast_ok { 1 } else { 0 };
    Matmul {
        flip_a: clear_dvalid & 1 != 0,
        flip_b: clear_dvalid & 2 != 0,
        broadcast_row: mod19 & bcast_bit != 0,
        addr_mode,
        dst: dst as u32,
        undocumented: (mod19 & !bcast_bit) as u32,
    }
}

fn gmpool(clear_dvalid: u8, mod19: u8, addr_mode: u8, index_en: u8, dst: u16) -> Gmpool {
    Gmpool {
        flip_a: clear_dvalid & 1 != 0,
        flip_b: clear_dvalid & 2 != 0,
        arg_max: index_en != 0,
        addr_mode,
        dst: dst as u32,
        // `TT_GMPOOL` passes the constant `true` as bit 0 of the modifier; nothing documents
        // the other bits.
        undocumented: (mod19 & !1) as u32,
    }
}

impl MatrixOp {
    /// The Matrix Unit operation of a Blackhole instruction, `None` for other instructions.
    pub fn from_blackhole(insn: &blackhole::Insn) -> Option<MatrixOp> {
        use blackhole::Insn as I;
        Some(match *insn {
            I::Elwadd {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Elwadd(elw(
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            )),
            I::Elwsub {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Elwsub(elw(
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            )),
            I::Elwmul {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Elwmul(elw(
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            )),
            I::Mvmul {
                clear_dvalid,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Mvmul(matmul(clear_dvalid, instr_mod19, addr_mode, dst, true)),
            I::Dotpv {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => {
                // `TT_DOTPV` fixes both the accumulate bit and the modifier to zero.
                let mut m = matmul(clear_dvalid, instr_mod19, addr_mode, dst, false);
                m.undocumented |= (dest_accum_en as u32) << 3;
                MatrixOp::Dotpv(m)
            }
            I::Gapool {
                clear_dvalid,
                instr_mod19,
                pool_addr_mode,
                max_pool_index_en,
                dst,
            } => {
                // Bit 0 of the modifier is tt-llk's `DIM_16X16`, which GAPOOL's model does not
                // depend on; the other bits and the index enable are undocumented for GAPOOL.
                let mut m = matmul(clear_dvalid, 0, pool_addr_mode, dst, false);
                m.undocumented = ((instr_mod19 & !1) as u32) | ((max_pool_index_en as u32) << 3);
                MatrixOp::Gapool(m)
            }
            I::Gmpool {
                clear_dvalid,
                instr_mod19,
                pool_addr_mode,
                max_pool_index_en,
                dst,
            } => MatrixOp::Gmpool(gmpool(
                clear_dvalid,
                instr_mod19,
                pool_addr_mode,
                max_pool_index_en,
                dst,
            )),
            I::Zeroacc {
                clear_mode,
                use_32_bit_mode,
                clear_zero_flags: _,
                addr_mode,
                where_,
            } => MatrixOp::Zeroacc(zeroacc::Zeroacc {
                mode: clear_mode & 3,
                use_dst32b: use_32_bit_mode != 0 || clear_mode & 4 != 0,
                addr_mode,
                imm: where_ as u32,
                // `clear_zero_flags` (used by tt-llk) resets zero flags bhemu does not model.
                undocumented: (clear_mode >> 3) as u32,
            }),
            I::Clrexphist => MatrixOp::Clrexphist,
            I::Conv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Conv3s2 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Mfconv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            } => MatrixOp::LegacyNoOp {
                flip_a: clear_dvalid & 1 != 0,
                flip_b: clear_dvalid & 2 != 0,
                addr_mode,
            },
            I::Apool3s1 {
                clear_dvalid,
                pool_addr_mode,
                ..
            }
            | I::Apool3s2 {
                clear_dvalid,
                pool_addr_mode,
                ..
            } => MatrixOp::LegacyNoOp {
                flip_a: clear_dvalid & 1 != 0,
                flip_b: clear_dvalid & 2 != 0,
                addr_mode: pool_addr_mode,
            },
            I::Mpool3s1 { .. } | I::Mpool3s2 { .. } => MatrixOp::LegacyMpool,
            _ => return None,
        })
    }

    /// The Matrix Unit operation of a Wormhole B0 instruction.
    pub fn from_wormhole(insn: &wormhole::Insn) -> Option<MatrixOp> {
        use wormhole::Insn as I;
        Some(match *insn {
            I::Elwadd {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Elwadd(elw(
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            )),
            I::Elwsub {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Elwsub(elw(
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            )),
            I::Elwmul {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Elwmul(elw(
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            )),
            I::Mvmul {
                clear_dvalid,
                instr_mod19,
                addr_mode,
                dst,
            } => MatrixOp::Mvmul(matmul(clear_dvalid, instr_mod19, addr_mode, dst, true)),
            I::Dotpv {
                clear_dvalid,
                dest_accum_en,
                instr_mod19,
                addr_mode,
                dst,
            } => {
                // `TT_DOTPV` fixes both the accumulate bit and the modifier to zero.
                let mut m = matmul(clear_dvalid, instr_mod19, addr_mode, dst, false);
                m.undocumented |= (dest_accum_en as u32) << 3;
                MatrixOp::Dotpv(m)
            }
            I::Gapool {
                clear_dvalid,
                instr_mod19,
                addr_mode,
                max_pool_index_en,
                dst,
            } => {
                // Bit 0 of the modifier is tt-llk's `DIM_16X16`, which GAPOOL's model does not
                // depend on; the other bits and the index enable are undocumented for GAPOOL.
                let mut m = matmul(clear_dvalid, 0, addr_mode, dst, false);
                m.undocumented = ((instr_mod19 & !1) as u32) | ((max_pool_index_en as u32) << 3);
                MatrixOp::Gapool(m)
            }
            I::Gmpool {
                clear_dvalid,
                instr_mod19,
                addr_mode,
                max_pool_index_en,
                dst,
            } => MatrixOp::Gmpool(gmpool(
                clear_dvalid,
                instr_mod19,
                addr_mode,
                max_pool_index_en,
                dst,
            )),
            I::Zeroacc {
                clear_mode,
                addr_mode,
                dst,
            } => MatrixOp::Zeroacc(zeroacc::Zeroacc {
                mode: clear_mode & 3,
                use_dst32b: clear_mode & 4 != 0,
                // AddrMod is bits 15-16; bit 18 is Revert (undefined behaviour), bit 17 unused.
                addr_mode: addr_mode & 3,
                imm: (dst & 0x3ff) as u32,
                undocumented: ((clear_mode >> 3) as u32)
                    | (((addr_mode >> 2) as u32) << 2)
                    | (((dst >> 10) as u32) << 4),
            }),
            I::Clrexphist => MatrixOp::Clrexphist,
            I::Conv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Conv3s2 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Mfconv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Apool3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Apool3s2 {
                clear_dvalid,
                addr_mode,
                ..
            } => MatrixOp::LegacyNoOp {
                flip_a: clear_dvalid & 1 != 0,
                flip_b: clear_dvalid & 2 != 0,
                addr_mode,
            },
            I::Mpool3s1 { .. } | I::Mpool3s2 { .. } => MatrixOp::LegacyMpool,
            _ => return None,
        })
    }

    /// Decodes a 32-bit instruction word of `arch`.
    pub fn decode(arch: Arch, word: u32) -> Option<MatrixOp> {
        match arch {
            Arch::Blackhole => MatrixOp::from_blackhole(&blackhole::Insn::decode(word)),
            Arch::WormholeB0 => MatrixOp::from_wormhole(&wormhole::Insn::decode(word)),
        }
    }
}

/// A run of `Dst` rows in the instruction's own row numbering (the `Dst16b`/`Dst32b` index
/// after masking, before `Adj16`/`Adj32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DstRows {
    pub first: u32,
    pub count: u32,
    /// Rows of the 32-bit view (`Dst32b`) rather than `Dst16b`.
    pub wide: bool,
}

/// What the dispatcher still has to do after [`MatrixUnit::execute`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Retired {
    /// `FlipSrcA`: hand the bank back to the unpackers (unless `CLR_DVALID_SrcA_Disable`), then
    /// toggle `MatrixUnit.SrcABank`.
    pub flip_src_a: bool,
    pub flip_src_b: bool,
    /// `ApplyAddrMod(addr_mode)`, when the instruction has one.
    pub addr_mode: Option<u8>,
    /// CLREXPHIST: reset the exponent histogram of all four packers.
    pub clear_exp_hist: bool,
    /// Dst rows the instruction read and wrote.
    pub dst_read: Option<DstRows>,
    pub dst_written: Option<DstRows>,
}

/// The Matrix Unit's own state: which Dst rows ZEROACC left undefined, and the optional Dst
/// hazard checker.
#[derive(Clone, Debug, Default)]
pub struct MatrixUnit {
    pub undefined: zeroacc::DstUndefined,
    pub hazards: hazard::DstHazards,
}

impl MatrixUnit {
    pub fn new() -> Self {
        MatrixUnit::default()
    }

    /// Another unit wrote these Dst rows (unpacker to Dst, SFPSTORE, MOVA2D/MOVB2D, a RISC-V
    /// store): they are no longer undefined (ZEROACC.md).
    pub fn dst_rows_defined(&mut self, rows: DstRows, cfg: DestAccessCfg) {
        self.undefined.define(rows, cfg);
    }

    /// Applies `word` (an instruction of `arch` executed by the Matrix Unit) to `ctx`.
    pub fn execute(
        &mut self,
        arch: Arch,
        word: u32,
        ctx: &mut MatrixCtx<'_>,
    ) -> Result<Retired, TensixError> {
        let op = MatrixOp::decode(arch, word).ok_or_else(|| {
            TensixError::new(
                ErrorKind::Invalid,
                ctx.cycle,
                format!("{word:#010x} is not a Matrix Unit computation instruction"),
            )
            .at(ctx.thread, Some(word))
        })?;
        self.execute_op(op, word, ctx)
    }

    /// As [`MatrixUnit::execute`] for an already decoded instruction; `word` names it in errors.
    pub fn execute_op(
        &mut self,
        op: MatrixOp,
        word: u32,
        ctx: &mut MatrixCtx<'_>,
    ) -> Result<Retired, TensixError> {
        let (cycle, thread, format) = (ctx.cycle, ctx.thread, ctx.regs.format);
        let undefined =
            |msg: String| TensixError::new(ErrorKind::Undefined, cycle, msg).at(thread, Some(word));
        let style = || {
            format.style().ok_or_else(|| {
                undefined(format!(
                    "SrcA data format code {} has no documented meaning for the Matrix Unit",
                    format.src_a_format
                ))
            })
        };
        let retired = match op {
            MatrixOp::Elwadd(f) => elw::elwadd(ctx, style()?, &f),
            MatrixOp::Elwsub(f) => elw::elwsub(ctx, style()?, &f),
            MatrixOp::Elwmul(f) => elw::elwmul(ctx, style()?, &f),
            MatrixOp::Mvmul(f) | MatrixOp::Dotpv(f) | MatrixOp::Gapool(f) => {
                if f.undocumented != 0 {
                    return Err(undefined(format!(
                        "undocumented modifier bits {:#x} set",
                        f.undocumented
                    )));
                }
                let (s, dst32) = style()?;
                let rows = match op {
                    MatrixOp::Gapool(_) => matmul::Shape::Gapool,
                    _ if f.broadcast_row => matmul::Shape::BroadcastRow,
                    _ => matmul::Shape::Full,
                };
                matmul::mvmul(ctx, s, dst32, rows, &f).map_err(undefined)?
            }
            MatrixOp::Gmpool(f) => {
                if f.undocumented != 0 {
                    return Err(undefined(format!(
                        "undocumented modifier bits {:#x} set",
                        f.undocumented
                    )));
                }
                gmpool::gmpool(ctx, &self.undefined, style()?, &f)
            }
            MatrixOp::Zeroacc(f) => {
                if f.undocumented != 0 {
                    return Err(undefined(format!(
                        "undocumented ZEROACC bits {:#x} set",
                        f.undocumented
                    )));
                }
                let dst32 = format.fp32_enabled || format.int8_math_enabled;
                let r = zeroacc::zeroacc(ctx, &mut self.undefined, &f, dst32);
                self.hazards
                    .note_matrix_unit(&r, word, ctx.thread, ctx.cycle);
                return Ok(r);
            }
            MatrixOp::Clrexphist => Retired {
                clear_exp_hist: true,
                ..Retired::default()
            },
            MatrixOp::LegacyNoOp {
                flip_a,
                flip_b,
                addr_mode,
            } => Retired {
                flip_src_a: flip_a,
                flip_src_b: flip_b,
                addr_mode: Some(addr_mode),
                ..Retired::default()
            },
            MatrixOp::LegacyMpool => {
                return Err(undefined(
                    "MPOOL3S1/MPOOL3S2 are legacy instructions whose effect is not documented \
                     precisely (MatrixUnit.md)"
                        .to_string(),
                ))
            }
        };
        if let Some(rows) = retired.dst_written {
            self.undefined.define(rows, ctx.regs.dest_access);
        }
        self.hazards
            .note_matrix_unit(&retired, word, ctx.thread, ctx.cycle);
        Ok(retired)
    }
}

/// A floating-point SrcA/SrcB datum as the model's value (`ReadBF16` / `ReadFP16` /
/// `ReadTF32`); integer styles are read with [`formats::read_src_int8`] instead.
fn read_src_fp(style: SrcAStyle, v: u32) -> f64 {
    match style {
        SrcAStyle::Bf16 => formats::read_src_bf16(v),
        SrcAStyle::Fp16 => formats::read_src_fp16(v),
        SrcAStyle::Tf32 | SrcAStyle::Int8 => formats::read_src_tf32(v),
    }
}

/// The common tail of every floating-point Matrix Unit result: optionally add the `Dst`
/// datum, then write it in the Dst format `UseDst32b` / `SrcAStyle` select (FP32, FP16 or
/// BF16 with their rounding).
fn store_fp(
    ctx: &mut MatrixCtx<'_>,
    style: SrcAStyle,
    dst32: bool,
    row: u32,
    col: usize,
    x: f64,
    add_dst: bool,
) {
    let cfg = ctx.regs.dest_access;
    if dst32 {
        let mut r = x;
        if add_dst {
            r = arith::fadd(r, formats::read_dst_fp32(ctx.dst.read32(row, col, cfg)));
        }
        ctx.dst.write32(row, col, formats::write_dst_fp32(r), cfg);
    } else if style == SrcAStyle::Fp16 {
        let mut r = x;
        if add_dst {
            r = arith::fadd(r, formats::read_dst_fp16(ctx.dst.read16(row, col, cfg)));
        }
        ctx.dst
            .write16(row, col, formats::round_write_dst_fp16(r), cfg);
    } else {
        let mut r = x;
        if add_dst {
            r = arith::fadd(r, formats::read_dst_bf16(ctx.dst.read16(row, col, cfg)));
        }
        ctx.dst
            .write16(row, col, formats::round_write_dst_bf16(r), cfg);
    }
}

/// The integer tail: `Dst32b = SaturateAddInt32(x, Dst32b)` or plain `Dst32b = x`.
fn store_int(ctx: &mut MatrixCtx<'_>, row: u32, col: usize, x: i32, add_dst: bool) {
    let cfg = ctx.regs.dest_access;
    let mut r = x;
    if add_dst {
        r = arith::saturate_add_i32(r, formats::read_dst_int32(ctx.dst.read32(row, col, cfg)));
    }
    ctx.dst.write32(row, col, formats::write_dst_int32(r), cfg);
}
