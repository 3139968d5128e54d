//! The Vector Unit driven from the coprocessor's data state (`cycle_on_state`): `Addr` from
//! configuration and RWCs, `MOD0_FMT_SRCB` resolution, `RWCs.Sp` for `MOD0_FMT_INT32_ALL`,
//! and `ApplyPartialAddrMod` after SFPLOAD / SFPSTORE (tt-isa-documentation:
//! BlackholeA0/TensixTile/TensixCoprocessor/SFPLOAD.md, SFPSTORE.md).
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use bhemu_tensix::sfpu::{Insn, Issued, VectorUnit};
use bhemu_tensix::state::{cfg_fields as f, CfgField, TensixState};
use sfpu_common::*;

fn sec(field: CfgField, index: u32) -> CfgField {
    CfgField {
        addr32: field.addr32 + index as usize,
        ..field
    }
}

fn issue(vu: &mut VectorUnit, st: &mut TensixState, thread: usize, word: u32) {
    let insn = Insn::decode(word).unwrap_or_else(|| panic!("{word:#010x}: not an SFPU word"));
    match vu.cycle_on_state(Some((thread, insn)), st) {
        Ok(Issued::Executed) => {}
        other => panic!("{word:#010x}: {other:?}"),
    }
}

#[test]
fn store_address_comes_from_offsets_and_rwcs_then_addr_mod_advances_dst() {
    let mut st = TensixState::new();
    let mut vu = VectorUnit::new();
    let t = 1;
    st.cfg.set(t, f::DEST_TARGET_REG_CFG_MATH_Offset, 8);
    st.cfg.set(t, f::DEST_REGW_BASE_Base, 16);
    st.rwcs[t].dst = 4;
    st.cfg.set(t, sec(f::ADDR_MOD_DST_SEC0_DestIncr, 2), 4);
    issue(&mut vu, &mut st, t, enc_mem(SFPLOADI, 1, 2, 0x77));
    // SFPSTORE L1, INT32, AddrMod 2, Imm10 = 32: Addr = 32 + 8 + (4 + 16) = 60.
    let store = enc_mem(SFPSTORE, 1, 4, (2 << 13) | 32);
    issue(&mut vu, &mut st, t, store);
    let cfg = st.dest_access_cfg(t);
    assert_eq!(st.dst.read32(60, 0, cfg), 0x77);
    assert_eq!(st.dst.read32(63, 14, cfg), 0x77);
    assert_eq!(st.rwcs[t].dst, 8, "DestIncr of ADDR_MOD 2 applied");
    // The next store lands 4 rows further on.
    issue(&mut vu, &mut st, t, store);
    assert_eq!(st.dst.read32(64, 0, cfg), 0x77);
    assert_eq!(st.rwcs[t].dst, 12);
}

#[test]
fn srcb_format_follows_the_thread_configuration() {
    let mut st = TensixState::new();
    let mut vu = VectorUnit::new();
    issue(&mut vu, &mut st, 0, enc_mem(SFPLOADI, 1, 0, 0x3fc1)); // 1.5078125
                                                                 // SrcB format FP16 (code 1): SRCB resolves to FP16 -> shuffled FP16 in Dst16b.
    st.cfg.set(0, f::ALU_FORMAT_SPEC_REG1_SrcB, 1);
    issue(&mut vu, &mut st, 0, enc_mem(SFPSTORE, 1, 0, 0));
    let cfg = st.dest_access_cfg(0);
    let fp16 = 0x3e08u32; // 1.5078125 as FP16
    assert_eq!(
        st.dst.read16(0, 0, cfg) as u32,
        (fp16 & 0x8000) | ((fp16 & 0x3ff) << 5) | (fp16 >> 10 & 0x1f)
    );
    // BF16 (code 5) -> BF16.
    st.cfg.set(0, f::ALU_FORMAT_SPEC_REG1_SrcB, 5);
    issue(&mut vu, &mut st, 0, enc_mem(SFPSTORE, 1, 0, 4));
    assert_eq!(st.dst.read16(4, 0, cfg), 0x417f); // sign | mantissa 0x41 | exponent 0x7f
                                                  // SFPU_Fp32_enabled -> FP32.
    st.cfg.set(0, f::ALU_ACC_CTRL_SFPU_Fp32_enabled, 1);
    issue(&mut vu, &mut st, 0, enc_mem(SFPSTORE, 1, 0, 8));
    assert_eq!(st.dst.read32(8, 0, cfg), 0x417f_0000);
}

#[test]
fn int32_all_moves_the_sfpu_stack_pointer() {
    let mut st = TensixState::new();
    let mut vu = VectorUnit::new();
    st.cfg.set(2, f::SFPU_STACK_Incr, 4);
    issue(&mut vu, &mut st, 2, enc_mem(SFPLOADI, 1, 2, 5));
    issue(&mut vu, &mut st, 2, enc_mem(SFPSTORE, 1, 10, 0)); // at Sp = 0, then Sp = 4
    assert_eq!(vu.rwc_sp[2], 4);
    issue(&mut vu, &mut st, 2, enc_mem(SFPLOADI, 1, 2, 6));
    issue(&mut vu, &mut st, 2, enc_mem(SFPSTORE, 1, 10, 0)); // at Sp = 4, then Sp = 8
    issue(&mut vu, &mut st, 2, enc_mem(SFPLOAD, 2, 10, 0)); // Sp = 8 -> 4, loads row 4
    assert_eq!(vu.rwc_sp[2], 4);
    assert_eq!(vu.state.lreg[2], [6; 32]);
    issue(&mut vu, &mut st, 2, enc_mem(SFPLOAD, 2, 10, 0)); // Sp = 4 -> 0, loads row 0
    assert_eq!(vu.rwc_sp[2], 0);
    assert_eq!(vu.state.lreg[2], [5; 32]);
}
