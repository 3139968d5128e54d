//! Resolving [`MathRegs`] from the coprocessor's state: the expressions every Matrix Unit page
//! (`tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/MVMUL.md` and siblings)
//! evaluates before touching any register file. For the dispatcher.
use super::{MathFormat, MathRegs};
use crate::src_banks::SrcBanks;
use crate::state::cfg_fields as f;
use crate::state::TensixState;

impl MathRegs {
    /// What `thread`'s next Matrix Unit instruction sees: its RWCs, its `ThreadConfig`, and
    /// `Config[StateID]`. The instruction's own `DstRow` field is added by the unit.
    pub fn resolve(state: &TensixState, thread: usize, banks: &SrcBanks) -> MathRegs {
        let cfg = &state.cfg;
        let get = |field| cfg.get(thread, field);
        let rwc = state.rwcs.get(thread).copied().unwrap_or_default();
        let configured_a = if get(f::ALU_FORMAT_SPEC_REG_SrcA_override) != 0 {
            get(f::ALU_FORMAT_SPEC_REG_SrcA_val)
        } else {
            get(f::ALU_FORMAT_SPEC_REG0_SrcA)
        };
        // O2 (docs/matrix-unit.md): on Blackhole a bank's format is the one it was unpacked
        // with unless the thread disables the implied format; a bank no unpacker has written
        // since reset falls back to the configured format.
        let implied = |disable, bank: &crate::state::SrcData, b: usize, configured: u32| {
            if get(disable) != 0 {
                configured
            } else {
                bank.format(b).unwrap_or(configured)
            }
        };
        let src_a_format = implied(
            f::DISABLE_IMPLIED_SRCA_FMT_Base,
            &state.src_a,
            banks.math_a,
            configured_a,
        );
        let src_b_format = implied(
            f::DISABLE_IMPLIED_SRCB_FMT_Base,
            &state.src_b,
            banks.math_b,
            get(f::ALU_FORMAT_SPEC_REG1_SrcB),
        );
        MathRegs {
            src_a_bank: banks.math_a,
            src_b_bank: banks.math_b,
            rwc_src_a: rwc.src_a as u32,
            rwc_src_b: rwc.src_b as u32,
            dst_row_base: get(f::DEST_TARGET_REG_CFG_MATH_Offset)
                + rwc.dst as u32
                + get(f::DEST_REGW_BASE_Base),
            fidelity_phase: rwc.fidelity_phase as u32 + get(f::FIDELITY_BASE_Phase),
            format: MathFormat {
                fp16a_force: get(f::FP16A_FORCE_Enable) != 0,
                int8_math_enabled: get(f::ALU_ACC_CTRL_INT8_math_enabled) != 0,
                src_a_format,
                fp32_enabled: get(f::ALU_ACC_CTRL_Fp32_enabled) != 0,
                src_b_format: Some(src_b_format),
                zero_flag_disabled_src: get(f::ALU_ACC_CTRL_Zero_Flag_disabled_src) != 0,
            },
            dest_access: state.dest_access_cfg(thread),
            zeroacc_absolute_tile_mode: get(f::DEST_ACCESS_CFG_zeroacc_absolute_tile_mode) != 0,
        }
    }
}
