//! The mixed integer workload of `bhemu bench riscv` and `cargo bench -p bhemu-rv`, assembled
//! with the ISA crate's encoder: a loop over a 64-word array (load, add/sub/logic, shifts, mul,
//! store), then a call to a function doing divu/remu, repeated `outer` times; ends with `ebreak`.
use bhemu_isa::riscv::{encode, BranchOp, ImmOp, Insn, LoadOp, RegOp, StoreOp};

/// Where the workload expects its code (`CODE_BASE`) and array (`DATA_BASE`).
pub const CODE_BASE: u32 = 0x0000_0000;
pub const DATA_BASE: u32 = 0x0000_8000;
/// Instructions retired per outer iteration (13 per element × 64, loop set-up, call, function, loop end).
pub const INSNS_PER_OUTER: u64 = 13 * 64 + 2 + 2 + 7 + 3;

const T0: u8 = 5;
const T1: u8 = 6;
const T2: u8 = 7;
const S0: u8 = 8;
const S1: u8 = 9;
const A0: u8 = 10;
const A1: u8 = 11;
const A2: u8 = 12;
const A3: u8 = 13;
const A4: u8 = 14;
const S2: u8 = 18;
const T3: u8 = 28;
const T4: u8 = 29;
const T5: u8 = 30;
const T6: u8 = 31;
const RA: u8 = 1;

fn imm(op: ImmOp, rd: u8, rs1: u8, imm: i32) -> Insn {
    Insn::OpImm { op, rd, rs1, imm }
}
fn reg(op: RegOp, rd: u8, rs1: u8, rs2: u8) -> Insn {
    Insn::Op { op, rd, rs1, rs2 }
}

/// The program's words, to be placed at [`CODE_BASE`]; `outer` iterations (at least 1).
pub fn mixed_integer(outer: u32) -> Vec<u32> {
    let outer = outer.max(1);
    let mut p: Vec<Insn> = Vec::new();
    // s0 = outer (lui+addi), s1 = DATA_BASE, s2 = 0
    let hi = outer.wrapping_add(0x800) & 0xffff_f000;
    p.push(Insn::Lui { rd: S0, imm: hi });
    p.push(imm(ImmOp::Addi, S0, S0, outer.wrapping_sub(hi) as i32));
    p.push(Insn::Lui {
        rd: S1,
        imm: DATA_BASE,
    });
    p.push(imm(ImmOp::Addi, S2, 0, 0));
    let outer_top = p.len();
    p.push(imm(ImmOp::Addi, T0, 0, 64));
    p.push(imm(ImmOp::Addi, T1, S1, 0));
    let inner_top = p.len();
    p.push(Insn::Load {
        op: LoadOp::Lw,
        rd: T2,
        rs1: T1,
        offset: 0,
    });
    p.push(reg(RegOp::Add, T2, T2, T0));
    p.push(reg(RegOp::Xor, T3, T2, S0));
    p.push(imm(ImmOp::Slli, T4, T3, 3));
    p.push(imm(ImmOp::Srli, T5, T4, 5));
    p.push(reg(RegOp::Or, T2, T2, T5));
    p.push(reg(RegOp::Mul, T6, T2, T0));
    p.push(reg(RegOp::Sub, T6, T6, T3));
    p.push(Insn::Store {
        op: StoreOp::Sw,
        rs1: T1,
        rs2: T6,
        offset: 0,
    });
    p.push(reg(RegOp::And, A0, T6, T2));
    p.push(imm(ImmOp::Addi, T1, T1, 4));
    p.push(imm(ImmOp::Addi, T0, T0, -1));
    let off = (inner_top as i32 - p.len() as i32) * 4;
    p.push(Insn::Branch {
        op: BranchOp::Bne,
        rs1: T0,
        rs2: 0,
        offset: off,
    });
    p.push(imm(ImmOp::Addi, A0, S0, 0));
    let call_at = p.len();
    p.push(Insn::Jal { rd: RA, offset: 0 }); // patched below
    p.push(reg(RegOp::Add, S2, S2, A0));
    p.push(imm(ImmOp::Addi, S0, S0, -1));
    let off = (outer_top as i32 - p.len() as i32) * 4;
    p.push(Insn::Branch {
        op: BranchOp::Bne,
        rs1: S0,
        rs2: 0,
        offset: off,
    });
    p.push(Insn::Ebreak);
    let func = p.len();
    p.push(imm(ImmOp::Addi, A1, 0, 7));
    p.push(reg(RegOp::Divu, A2, A0, A1));
    p.push(reg(RegOp::Remu, A3, A0, A1));
    p.push(reg(RegOp::Add, A0, A2, A3));
    p.push(reg(RegOp::Sltu, A4, A0, A1));
    p.push(reg(RegOp::Add, A0, A0, A4));
    p.push(Insn::Jalr {
        rd: 0,
        rs1: RA,
        offset: 0,
    });
    if let Some(call) = p.get_mut(call_at) {
        *call = Insn::Jal {
            rd: RA,
            offset: (func as i32 - call_at as i32) * 4,
        };
    }
    p.iter().map(encode).collect()
}
