//! The inputs of one Matrix Unit instruction besides its own fields: how SrcA is interpreted
//! (`SrcAStyle`, `UseDst32b`, determined as every Matrix Unit page of
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/` does), the resolved thread
//! registers, and the register files ([`MatrixCtx`]).
use super::datapath::{AccMode, Precision};
use crate::formats::DataFormat;
use crate::state::{DestAccessCfg, Dst, SrcData};

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
    /// SrcB's format code when it differs from SrcA's (O1 of `docs/matrix-unit.md`: each
    /// operand is read at its own bank's precision); `None` reads SrcB as SrcA.
    pub src_b_format: Option<u32>,
    /// `ALU_ACC_CTRL_Zero_Flag_disabled_src`: SrcB data of exponent 0 are not zero in the
    /// element-wise instructions (O3).
    pub zero_flag_disabled_src: bool,
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

    /// O1 and O2: the precisions SrcA and SrcB are read at for `style`, and the accumulator's
    /// mode. Exponents are FP16's 5 bits exactly when SrcA's style is FP16; SrcB is then read
    /// as FP16 too, and otherwise at its own format's precision.
    pub fn datapath(&self, style: SrcAStyle, dst32: bool) -> (Precision, Precision, AccMode) {
        let a = match style {
            SrcAStyle::Tf32 => Precision::Tf32,
            SrcAStyle::Fp16 => Precision::Fp16,
            SrcAStyle::Bf16 | SrcAStyle::Int8 => Precision::Bf16,
        };
        let e8 = style != SrcAStyle::Fp16;
        let b = match (e8, self.src_b_format.map(Precision::of_format)) {
            (false, _) => Precision::Fp16,
            (true, None) => a,
            (true, Some(Precision::Tf32)) => Precision::Tf32,
            (true, Some(_)) => Precision::Bf16,
        };
        (a, b, AccMode { wide: dst32, e8 })
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
    /// Blackhole's `DEST_ACCESS_CFG_zeroacc_absolute_tile_mode` (ZEROACC's sixteen-row mode).
    pub zeroacc_absolute_tile_mode: bool,
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
