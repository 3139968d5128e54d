//! The Matrix Unit (FPU): what ELWADD, ELWSUB, ELWMUL, MVMUL, DOTPV, GAPOOL and GMPOOL compute.
//! The instructions' shapes (rows, broadcasts, modifiers) follow
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/{ELWADD,...,GMPOOL}.md` (there
//! are no Blackhole pages; the encodings are Blackhole's, from `bhemu_isa::tensix::blackhole`);
//! the arithmetic is silicon's integer datapath ([`datapath`]), whose rules
//! `docs/matrix-unit.md` states.
//!
//! # Entry points (for the coprocessor's dispatcher)
//!
//! In the unit framework, `units::compute::matrix_unit(ctx, insn)` becomes
//! `MatrixUnit::execute_in(ctx, insn)` on the coprocessor's one [`MatrixUnit`] (kept in its
//! `TensixState`, borrowed in place): it resolves the registers, computes, applies
//! `ApplyAddrMod`, and maps undefined behaviour to the strict/permissive mode.
//!
//! Underneath, [`MatrixUnit::execute`] applies one instruction's data effects when it is
//! dispatched to the Matrix Unit. The dispatcher has already waited at the Wait Gate for SrcA/SrcB bank
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
pub mod bench;
pub mod datapath;
mod dispatch;
mod elw;
pub mod formats;
mod gmpool;
pub mod hazard;
pub mod lanes;
mod matmul;
mod op;
mod regs;
mod resolve;
pub mod zeroacc;

pub use op::{Elw, Gmpool, Matmul, MatrixOp};
pub use regs::{MathFormat, MathRegs, MatrixCtx, SrcAStyle};

use crate::error::{ErrorKind, TensixError};
use crate::formats::layout;
use crate::state::{adj16, adj32, DestAccessCfg};
use bhemu_isa::tensix::Arch;
use datapath::AccMode;

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
                self.hazards.note_matrix_unit(
                    &r,
                    ctx.regs.dest_access,
                    word,
                    ctx.thread,
                    ctx.cycle,
                );
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
            .note_matrix_unit(&retired, ctx.regs.dest_access, word, ctx.thread, ctx.cycle);
        Ok(retired)
    }
}

/// Dst row `row`'s 16 old values as accumulator words (`datapath`'s 32-bit layout): FP32 as
/// is, BF16 widened with zeros below, FP16 with its exponent in the low 5 bits.
fn read_words(ctx: &MatrixCtx<'_>, mode: AccMode, row: u32) -> [u32; 16] {
    let cfg = ctx.regs.dest_access;
    let bits = ctx.dst.bits();
    let mut out = [0u32; 16];
    if mode.wide {
        // `Dst32b[row]`: high halves in `DstBits[Adj32(row)]`, low halves 8 rows on (Dst.md).
        let r = adj32(row, cfg);
        if let (Some(hi), Some(lo)) = (bits.get(r), bits.get(r + 8)) {
            for j in 0..16 {
                out[j] = layout::read_dst_fp32((u32::from(hi[j]) << 16) | u32::from(lo[j]));
            }
        }
    } else if let Some(r) = bits.get(adj16(row, cfg)) {
        for j in 0..16 {
            out[j] = if mode.e8 {
                u32::from(layout::read_dst_bf16(r[j])) << 16
            } else {
                datapath::word_from_fp16(layout::read_dst_fp16(r[j]))
            };
        }
    }
    out
}

/// Writes 16 accumulator words to Dst row `row` in the mode's format (the accumulator already
/// rounded them).
fn write_words(ctx: &mut MatrixCtx<'_>, mode: AccMode, row: u32, w: &[u32; 16]) {
    let cfg = ctx.regs.dest_access;
    let bits = ctx.dst.bits_mut();
    if mode.wide {
        let r = adj32(row, cfg);
        if r + 8 < bits.len() {
            let (hi, lo) = bits.split_at_mut(r + 8);
            for j in 0..16 {
                let v = layout::write_dst_fp32(w[j]);
                hi[r][j] = (v >> 16) as u16;
                lo[0][j] = v as u16;
            }
        }
    } else if let Some(r) = bits.get_mut(adj16(row, cfg)) {
        for j in 0..16 {
            r[j] = if mode.e8 {
                layout::write_dst_bf16((w[j] >> 16) as u16)
            } else {
                layout::write_dst_fp16(datapath::word_to_fp16(w[j]))
            };
        }
    }
}

/// The integer tail: `Dst32b = SaturateAddInt32(x, Dst32b)` or plain `Dst32b = x`.
fn store_int(ctx: &mut MatrixCtx<'_>, row: u32, col: usize, x: i32, add_dst: bool) {
    let cfg = ctx.regs.dest_access;
    let mut r = x;
    if add_dst {
        r = formats::saturate_add_i32(r, formats::read_dst_int32(ctx.dst.read32(row, col, cfg)));
    }
    ctx.dst.write32(row, col, formats::write_dst_int32(r), cfg);
}
