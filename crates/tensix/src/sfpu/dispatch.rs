//! The Vector Unit against the coprocessor's data state: what the dispatcher calls.
//!
//! [`VectorUnit::cycle_on_state`] takes the instruction a thread issues this cycle (if any)
//! and the [`TensixState`], and does what the SFPLOAD / SFPSTORE / SFPLOADMACRO pages put
//! around the unit (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPLOAD.md,
//! SFPSTORE.md, "Functional model"): resolves `MOD0_FMT_SRCB` from the thread's
//! configuration, computes `Addr` from `Imm10`, `DEST_TARGET_REG_CFG_MATH_Offset`, the RWCs
//! and the `DEST_REGW_BASE` / `DEST_SP_BASE` bases, updates `RWCs.Sp` for
//! `MOD0_FMT_INT32_ALL`, and after the instruction applies `ApplyPartialAddrMod(AddrMod)`.
use super::load_store::{fmt, DstAddrInputs, SrcbFormat};
use super::{Insn, Issued, Op, SfpuContext, SfpuError, VectorUnit};
use crate::formats::DataFormat;
use crate::state::cfg_fields as f;
use crate::state::TensixState;

/// What `MOD0_FMT_SRCB` resolves to for `thread` (SFPLOAD.md): FP32 when
/// `ALU_ACC_CTRL_SFPU_Fp32_enabled`, else BF16 when the SrcB format (overridden or not) is
/// FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32 or INT16, else FP16.
pub fn srcb_format(state: &TensixState, thread: usize) -> SrcbFormat {
    let cfg = &state.cfg;
    if cfg.get(thread, f::ALU_ACC_CTRL_SFPU_Fp32_enabled) != 0 {
        return SrcbFormat::Fp32;
    }
    let code = if cfg.get(thread, f::ALU_FORMAT_SPEC_REG_SrcB_override) != 0 {
        cfg.get(thread, f::ALU_FORMAT_SPEC_REG_SrcB_val)
    } else {
        cfg.get(thread, f::ALU_FORMAT_SPEC_REG1_SrcB)
    };
    use DataFormat::*;
    match DataFormat::from_code(code) {
        Some(Fp32 | Tf32 | Bf16 | Bfp8 | Bfp4 | Bfp2 | Int32 | Int16) => SrcbFormat::Bf16,
        _ => SrcbFormat::Fp16,
    }
}

/// The `Addr` inputs of `thread` for an instruction with `imm10`; `sp` is `RWCs.Sp`.
pub fn addr_inputs(state: &TensixState, thread: usize, imm10: u32, sp: u32) -> DstAddrInputs {
    let cfg = &state.cfg;
    DstAddrInputs {
        imm10,
        math_offset: cfg.get(thread, f::DEST_TARGET_REG_CFG_MATH_Offset),
        rwc_dst: state.rwcs.get(thread).map_or(0, |r| r.dst as u32),
        regw_base: cfg.get(thread, f::DEST_REGW_BASE_Base),
        rwc_sp: sp,
        sp_base: cfg.get(thread, f::DEST_SP_BASE_Base),
        stack_incr: cfg.get(thread, f::SFPU_STACK_Incr),
    }
}

/// The `Dst` rows that SFPLOAD / SFPLOADMACRO `insn`, issued by `thread` now, reads: four
/// rows from `Addr & !3` (SFPLOAD.md), in the `Dst32b` numbering for the 32-bit formats. None
/// for other instructions and for loads that read nothing (`VD` >= 8, `MOD0_FMT_ZERO`). For the
/// hazard checker (`crate::matrix::hazard`), asked before the instruction runs.
pub fn dst_rows_read(
    state: &TensixState,
    thread: usize,
    insn: &Insn,
) -> Option<crate::matrix::DstRows> {
    if !matches!(insn.op, Op::Sfpload | Op::Sfploadmacro) {
        return None;
    }
    if insn.op == Op::Sfpload && insn.vd >= 8 {
        return None;
    }
    let sp = state.sfpu.rwc_sp.get(thread).copied().unwrap_or(0);
    let inputs = addr_inputs(state, thread, insn.imm10(), sp);
    let (addr, mod0) = if insn.modifier == fmt::SRCB {
        (inputs.load(0xff).0, srcb_format(state, thread).mod0())
    } else {
        (inputs.load(insn.modifier).0, insn.modifier)
    };
    if mod0 == fmt::ZERO {
        return None;
    }
    Some(crate::matrix::DstRows {
        first: addr & !3,
        count: 4,
        wide: matches!(
            mod0,
            fmt::FP32 | fmt::INT32 | fmt::INT32_ALL | fmt::INT32_SM
        ),
    })
}

impl VectorUnit {
    /// One coprocessor cycle of the Vector Unit, `issued` being `(thread, insn)` when a
    /// thread issues a Vector Unit instruction this cycle (ask [`VectorUnit::stalls`] first).
    ///
    /// `RWCs[thread].Sp`, Blackhole's SFPU stack counter, is kept in [`VectorUnit::rwc_sp`]
    /// (10 bits, like `RWCs.Dst`) as the RWC state does not carry it. The 3-bit `AddrMod`
    /// field of SFPLOAD / SFPSTORE / SFPLOADMACRO (bits 13..15) indexes `ADDR_MOD_*_SEC`
    /// directly. SFPLOADMACRO-scheduled stores resolve `MOD0_FMT_SRCB` with the issuing
    /// thread's configuration of the cycle they run in (thread 0 when none issues).
    pub fn cycle_on_state(
        &mut self,
        issued: Option<(usize, Insn)>,
        state: &mut TensixState,
    ) -> Result<Issued, SfpuError> {
        let p = Prepared::new(self.rwc_sp, issued, state);
        let mut ctx = p.context(&mut state.dst);
        let outcome = self.cycle_insn(issued.map(|(_, i)| i), &mut ctx)?;
        p.finish(outcome, &mut self.rwc_sp, state);
        Ok(outcome)
    }

    /// [`VectorUnit::cycle_on_state`] for the unit `state` owns (`state.sfpu`), borrowing
    /// it in place rather than moving it out: what the coprocessor calls every cycle.
    pub fn cycle_in_state(
        issued: Option<(usize, Insn)>,
        state: &mut TensixState,
    ) -> Result<Issued, SfpuError> {
        let p = Prepared::new(state.sfpu.rwc_sp, issued, state);
        let mut ctx = p.context(&mut state.dst);
        let outcome = state.sfpu.cycle_insn(issued.map(|(_, i)| i), &mut ctx)?;
        let mut sp = state.sfpu.rwc_sp;
        p.finish(outcome, &mut sp, state);
        state.sfpu.rwc_sp = sp;
        Ok(outcome)
    }
}

/// What one cycle derives from the issuing thread's state before the unit runs.
struct Prepared {
    thread: usize,
    decoded: Option<Insn>,
    addr: u32,
    new_sp: Option<u32>,
    srcb_format: SrcbFormat,
    dst_cfg: crate::state::DestAccessCfg,
}

impl Prepared {
    fn new(rwc_sp: [u32; 3], issued: Option<(usize, Insn)>, state: &TensixState) -> Prepared {
        let thread = issued.map_or(0, |(t, _)| t);
        let decoded = issued.map(|(_, i)| i);
        let mut addr = 0;
        let mut new_sp = None;
        if let Some(insn) =
            decoded.filter(|i| matches!(i.op, Op::Sfpload | Op::Sfpstore | Op::Sfploadmacro))
        {
            let sp = rwc_sp.get(thread).copied().unwrap_or(0);
            let inputs = addr_inputs(state, thread, insn.imm10(), sp);
            let mod0 = if insn.modifier == fmt::SRCB {
                0xff // never INT32_ALL
            } else {
                insn.modifier
            };
            let (a, s) = if insn.op == Op::Sfpstore {
                inputs.store(mod0)
            } else {
                inputs.load(mod0)
            };
            addr = a;
            new_sp = Some(s & 0x3ff);
        }
        Prepared {
            thread,
            decoded,
            addr,
            new_sp,
            srcb_format: srcb_format(state, thread),
            dst_cfg: state.dest_access_cfg(thread),
        }
    }

    fn context<'a>(&self, dst: &'a mut crate::state::Dst) -> SfpuContext<'a> {
        SfpuContext {
            dst,
            dst_cfg: self.dst_cfg,
            addr: self.addr,
            srcb_format: self.srcb_format,
        }
    }

    /// After an executed SFPLOAD / SFPSTORE / SFPLOADMACRO: `RWCs.Sp` and
    /// `ApplyPartialAddrMod(AddrMod)`.
    fn finish(&self, outcome: Issued, rwc_sp: &mut [u32; 3], state: &mut TensixState) {
        if let (Issued::Executed, Some(insn), Some(sp)) = (outcome, self.decoded, self.new_sp) {
            if let Some(slot) = rwc_sp.get_mut(self.thread) {
                *slot = sp;
            }
            state.apply_addr_mod(self.thread, insn.addr_mode as usize, false);
        }
    }
}
