//! How the dispatcher feeds the Matrix Unit: `MathRegs::resolve` evaluates the pages'
//! expressions (tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/MVMUL.md,
//! "Determine the data formats / row range / fidelity phase") from the coprocessor's state.
use bhemu_isa::tensix::{blackhole::Insn, Arch};
use bhemu_tensix::matrix::{MathRegs, MatrixCtx, MatrixUnit, SrcAStyle};
use bhemu_tensix::src_banks::SrcBanks;
use bhemu_tensix::state::{cfg_fields as f, TensixState};

#[test]
fn resolve_sums_dst_offsets_and_fidelity_base_and_selects_the_srca_format() {
    let mut s = TensixState::new();
    let t = 1;
    s.cfg.set(t, f::DEST_TARGET_REG_CFG_MATH_Offset, 0x40);
    s.cfg.set(t, f::DEST_REGW_BASE_Base, 0x100);
    s.cfg.set(t, f::FIDELITY_BASE_Phase, 3);
    s.cfg.set(t, f::ALU_FORMAT_SPEC_REG0_SrcA, 5); // BF16
    s.cfg.set(t, f::ALU_ACC_CTRL_Fp32_enabled, 1);
    s.rwcs[t].dst = 0x18;
    s.rwcs[t].src_a = 16;
    s.rwcs[t].src_b = 9;
    s.rwcs[t].fidelity_phase = 2;
    let banks = SrcBanks {
        math_b: 1,
        ..SrcBanks::default()
    };
    let r = MathRegs::resolve(&s, t, &banks);
    assert_eq!(
        (r.dst_row_base, r.fidelity_phase, r.rwc_src_a, r.rwc_src_b),
        (0x158, 5, 16, 9)
    );
    assert_eq!((r.src_a_bank, r.src_b_bank), (0, 1));
    assert_eq!(r.format.style(), Some((SrcAStyle::Bf16, true)));
    // The override selects ALU_FORMAT_SPEC_REG_SrcA_val instead.
    s.cfg.set(t, f::ALU_FORMAT_SPEC_REG_SrcA_override, 1);
    s.cfg.set(t, f::ALU_FORMAT_SPEC_REG_SrcA_val, 4); // TF32
    assert_eq!(
        MathRegs::resolve(&s, t, &banks).format.style(),
        Some((SrcAStyle::Tf32, true))
    );
    // INT8 math wins over the format, FP16A_FORCE over both.
    s.cfg.set(t, f::ALU_ACC_CTRL_INT8_math_enabled, 1);
    assert_eq!(
        MathRegs::resolve(&s, t, &banks).format.style(),
        Some((SrcAStyle::Int8, true))
    );
    s.cfg.set(t, f::FP16A_FORCE_Enable, 1);
    assert_eq!(
        MathRegs::resolve(&s, t, &banks).format.style(),
        Some((SrcAStyle::Fp16, false))
    );
}

#[test]
fn an_mvmul_on_the_coprocessor_state_lands_at_the_resolved_dst_row() {
    let mut s = TensixState::new();
    let t = 1;
    s.cfg.set(t, f::ALU_FORMAT_SPEC_REG0_SrcA, 5);
    s.cfg.set(t, f::ALU_ACC_CTRL_Fp32_enabled, 1);
    s.cfg.set(t, f::DEST_TARGET_REG_CFG_MATH_Offset, 0x20);
    s.rwcs[t].dst = 8;
    // SrcA rows 0..15 = identity, SrcB row 0 = 1.0, 2.0, ..., 16.0 (BF16 in Src).
    let bf16 = |v: f32| {
        let u = v.to_bits();
        (((u >> 31) & 1) << 18) | (((u >> 16) & 0x7f) << 11) | ((u >> 23) & 0xff)
    };
    for k in 0..16 {
        s.src_a.write(0, k, k, bf16(1.0));
        s.src_b.write(0, 0, k, bf16((k + 1) as f32));
    }
    let regs = MathRegs::resolve(&s, t, &SrcBanks::default());
    let word = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    let mut unit = MatrixUnit::new();
    let mut ctx = MatrixCtx {
        src_a: &s.src_a,
        src_b: &s.src_b,
        dst: &mut s.dst,
        regs,
        thread: t as u8,
        cycle: 0,
    };
    let r = unit
        .execute(Arch::Blackhole, word, &mut ctx)
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(r.dst_written.map(|d| d.first), Some(0x28));
    let cfg = s.dest_access_cfg(t);
    for j in 0..16 {
        let v = s.dst.read32(0x28, j, cfg);
        let ieee = (v & 0x8000_ffff) | ((v & 0x7f00_0000) >> 8) | ((v & 0x00ff_0000) << 7);
        assert_eq!(f32::from_bits(ieee), (j + 1) as f32, "column {j}");
    }
}

use bhemu_tensix::units::{Ctx, NoMemory};
use bhemu_tensix::Mode;

fn unit_ctx<'a>(
    s: &'a mut TensixState,
    banks: &'a SrcBanks,
    mem: &'a mut NoMemory,
    warnings: &'a mut Vec<bhemu_tensix::TensixError>,
    word: u32,
    mode: Mode,
) -> Ctx<'a> {
    Ctx {
        state: s,
        banks,
        mem,
        thread: 1,
        cycle: 9,
        word,
        mode,
        warnings,
    }
}

#[test]
fn execute_in_applies_the_instruction_then_its_addr_mod() {
    let mut s = TensixState::new();
    s.cfg.set(1, f::ALU_FORMAT_SPEC_REG0_SrcA, 5);
    s.cfg.set(1, f::ADDR_MOD_DST_SEC0_DestIncr, 8);
    s.cfg.set(1, f::ADDR_MOD_DST_SEC0_FidelityIncr, 1);
    s.src_a.write(0, 0, 0, 127); // BF16 1.0
    s.src_b.write(0, 0, 0, 128); // BF16 2.0
    let insn = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    };
    let (banks, mut mem, mut warnings) = (SrcBanks::default(), NoMemory, Vec::new());
    {
        let mut ctx = unit_ctx(
            &mut s,
            &banks,
            &mut mem,
            &mut warnings,
            insn.encode(),
            Mode::Strict,
        );
        MatrixUnit::execute_in(&mut ctx, matrix_op(&insn)).unwrap_or_else(|e| panic!("{e:?}"));
    }
    assert_eq!(s.dst.bits()[0][0], 128, "BF16 2.0 in Dst16b row 0");
    assert_eq!(
        (s.rwcs[1].dst, s.rwcs[1].fidelity_phase),
        (8, 1),
        "ADDR_MOD_0 applied"
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn execute_in_reports_undefined_behaviour_by_mode() {
    let mut s = TensixState::new();
    s.rwcs[1].src_a = 56; // SrcA rows 56..71
    let insn = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    };
    let (banks, mut mem, mut warnings) = (SrcBanks::default(), NoMemory, Vec::new());
    let mut ctx = unit_ctx(
        &mut s,
        &banks,
        &mut mem,
        &mut warnings,
        insn.encode(),
        Mode::Strict,
    );
    match MatrixUnit::execute_in(&mut ctx, matrix_op(&insn)) {
        Err(e) => assert_eq!(
            (e.kind, e.thread, e.cycle),
            (bhemu_tensix::ErrorKind::Undefined, Some(1), 9)
        ),
        Ok(()) => panic!("strict mode accepted undefined behaviour"),
    }
    let mut ctx = unit_ctx(
        &mut s,
        &banks,
        &mut mem,
        &mut warnings,
        insn.encode(),
        Mode::Permissive,
    );
    MatrixUnit::execute_in(&mut ctx, matrix_op(&insn)).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].message.contains("run past row 63"),
        "{}",
        warnings[0].message
    );
}

/// The operation the dispatcher builds from `insn`'s fields.
fn matrix_op(insn: &Insn) -> bhemu_tensix::matrix::MatrixOp {
    bhemu_tensix::matrix::MatrixOp::from_blackhole(insn).expect("a Matrix Unit computation")
}
