//! Word → [`Insn`]. Field positions and opcode values follow riscv-isa-manual (RV32I base
//! opcode map, "M", "A", "Zicsr", "B" chapters), the Zbkb `pack`/`brev8` encodings and, for
//! `grevi`, Bitmanip 0.94-draft "Generalized Reverse" (`imm[11:5] = 0110100` on RV32).
use super::insn::*;

const fn rd(w: u32) -> u8 {
    ((w >> 7) & 31) as u8
}
const fn rs1(w: u32) -> u8 {
    ((w >> 15) & 31) as u8
}
const fn rs2(w: u32) -> u8 {
    ((w >> 20) & 31) as u8
}
const fn funct3(w: u32) -> u32 {
    (w >> 12) & 7
}
const fn funct7(w: u32) -> u32 {
    w >> 25
}
pub(crate) const fn imm_i(w: u32) -> i32 {
    (w as i32) >> 20
}
pub(crate) const fn imm_s(w: u32) -> i32 {
    (((w & 0xfe00_0000) as i32) >> 20) | ((w >> 7) & 0x1f) as i32
}
pub(crate) const fn imm_b(w: u32) -> i32 {
    (((w & 0x8000_0000) as i32) >> 19)
        | ((w & 0x80) << 4) as i32
        | ((w >> 20) & 0x7e0) as i32
        | ((w >> 7) & 0x1e) as i32
}
pub(crate) const fn imm_j(w: u32) -> i32 {
    (((w & 0x8000_0000) as i32) >> 11)
        | (w & 0xff000) as i32
        | ((w >> 9) & 0x800) as i32
        | ((w >> 20) & 0x7fe) as i32
}

/// Decodes one fetched word. Never fails: anything unimplemented is [`Insn::Illegal`], and a
/// word whose low two bits are not `11` is `.ttinsn` (the baby cores have no "C" extension;
/// `BabyRISCV/PushTensixInstruction.md`).
pub fn decode(w: u32) -> Insn {
    if w & 3 != 3 {
        return Insn::Tensix(w.rotate_right(2));
    }
    let ill = Insn::Illegal(w);
    let (rd, rs1, rs2, f3, f7) = (rd(w), rs1(w), rs2(w), funct3(w), funct7(w));
    match (w >> 2) & 31 {
        0x0d => Insn::Lui {
            rd,
            imm: w & 0xffff_f000,
        },
        0x05 => Insn::Auipc {
            rd,
            imm: w & 0xffff_f000,
        },
        0x1b => Insn::Jal {
            rd,
            offset: imm_j(w),
        },
        0x19 if f3 == 0 => Insn::Jalr {
            rd,
            rs1,
            offset: imm_i(w),
        },
        0x18 => {
            let op = match f3 {
                0 => BranchOp::Beq,
                1 => BranchOp::Bne,
                4 => BranchOp::Blt,
                5 => BranchOp::Bge,
                6 => BranchOp::Bltu,
                7 => BranchOp::Bgeu,
                _ => return ill,
            };
            Insn::Branch {
                op,
                rs1,
                rs2,
                offset: imm_b(w),
            }
        }
        0x00 => {
            let op = match f3 {
                0 => LoadOp::Lb,
                1 => LoadOp::Lh,
                2 => LoadOp::Lw,
                4 => LoadOp::Lbu,
                5 => LoadOp::Lhu,
                _ => return ill,
            };
            Insn::Load {
                op,
                rd,
                rs1,
                offset: imm_i(w),
            }
        }
        0x08 => {
            let op = match f3 {
                0 => StoreOp::Sb,
                1 => StoreOp::Sh,
                2 => StoreOp::Sw,
                _ => return ill,
            };
            Insn::Store {
                op,
                rs1,
                rs2,
                offset: imm_s(w),
            }
        }
        0x04 => decode_op_imm(w, rd, rs1, rs2, f3, f7),
        0x0c => decode_op(w, rd, rs1, rs2, f3, f7),
        0x0b if f3 == 2 => decode_amo(w, rd, rs1, rs2),
        0x1c => decode_system(w, rd, rs1, f3),
        0x03 => match f3 {
            // rd and rs1 are reserved for future use and ignored (riscv-isa-manual, FENCE).
            0 => Insn::Fence {
                fm: (w >> 28) as u8,
                pred: ((w >> 24) & 15) as u8,
                succ: ((w >> 20) & 15) as u8,
            },
            1 => Insn::FenceI,
            _ => ill,
        },
        _ => ill,
    }
}

fn decode_op_imm(w: u32, rd: u8, rs1: u8, rs2: u8, f3: u32, f7: u32) -> Insn {
    let imm = imm_i(w);
    let shamt = i32::from(rs2);
    let (op, imm) = match (f3, f7) {
        (0, _) => (ImmOp::Addi, imm),
        (2, _) => (ImmOp::Slti, imm),
        (3, _) => (ImmOp::Sltiu, imm),
        (4, _) => (ImmOp::Xori, imm),
        (6, _) => (ImmOp::Ori, imm),
        (7, _) => (ImmOp::Andi, imm),
        (1, 0b000_0000) => (ImmOp::Slli, shamt),
        (5, 0b000_0000) => (ImmOp::Srli, shamt),
        (5, 0b010_0000) => (ImmOp::Srai, shamt),
        (5, 0b011_0000) => (ImmOp::Rori, shamt),
        (5, 0b011_0100) => (ImmOp::Grevi, shamt),
        (5, 0b001_0100) if rs2 == 7 => {
            return Insn::Unary {
                op: UnaryOp::OrcB,
                rd,
                rs1,
            }
        }
        (1, 0b011_0000) => {
            let op = match rs2 {
                0 => UnaryOp::Clz,
                1 => UnaryOp::Ctz,
                2 => UnaryOp::Cpop,
                4 => UnaryOp::SextB,
                5 => UnaryOp::SextH,
                _ => return Insn::Illegal(w),
            };
            return Insn::Unary { op, rd, rs1 };
        }
        _ => return Insn::Illegal(w),
    };
    Insn::OpImm { op, rd, rs1, imm }
}

fn decode_op(w: u32, rd: u8, rs1: u8, rs2: u8, f3: u32, f7: u32) -> Insn {
    use RegOp::*;
    let op = match (f7, f3) {
        (0b000_0000, 0) => Add,
        (0b000_0000, 1) => Sll,
        (0b000_0000, 2) => Slt,
        (0b000_0000, 3) => Sltu,
        (0b000_0000, 4) => Xor,
        (0b000_0000, 5) => Srl,
        (0b000_0000, 6) => Or,
        (0b000_0000, 7) => And,
        (0b010_0000, 0) => Sub,
        (0b010_0000, 5) => Sra,
        (0b010_0000, 4) => Xnor,
        (0b010_0000, 6) => Orn,
        (0b010_0000, 7) => Andn,
        (0b000_0001, 0) => Mul,
        (0b000_0001, 1) => Mulh,
        (0b000_0001, 2) => Mulhsu,
        (0b000_0001, 3) => Mulhu,
        (0b000_0001, 4) => Div,
        (0b000_0001, 5) => Divu,
        (0b000_0001, 6) => Rem,
        (0b000_0001, 7) => Remu,
        (0b001_0000, 2) => Sh1add,
        (0b001_0000, 4) => Sh2add,
        (0b001_0000, 6) => Sh3add,
        (0b000_0101, 4) => Min,
        (0b000_0101, 5) => Minu,
        (0b000_0101, 6) => Max,
        (0b000_0101, 7) => Maxu,
        (0b011_0000, 1) => Rol,
        (0b011_0000, 5) => Ror,
        (0b000_0100, 4) => Pack,
        _ => return Insn::Illegal(w),
    };
    Insn::Op { op, rd, rs1, rs2 }
}

fn decode_amo(w: u32, rd: u8, rs1: u8, rs2: u8) -> Insn {
    // LR/SC (funct5 00010/00011) do not exist on the babies (InstructionSet.md, "Zaamo").
    let op = match w >> 27 {
        0b00000 => AmoOp::Add,
        0b00001 => AmoOp::Swap,
        0b00100 => AmoOp::Xor,
        0b01000 => AmoOp::Or,
        0b01100 => AmoOp::And,
        0b10000 => AmoOp::Min,
        0b10100 => AmoOp::Max,
        0b11000 => AmoOp::Minu,
        0b11100 => AmoOp::Maxu,
        _ => return Insn::Illegal(w),
    };
    Insn::Amo {
        op,
        rd,
        rs1,
        rs2,
        aq: w & (1 << 26) != 0,
        rl: w & (1 << 25) != 0,
    }
}

fn decode_system(w: u32, rd: u8, rs1: u8, f3: u32) -> Insn {
    let csr = (w >> 20) as u16;
    let op = match f3 {
        0 => {
            return match w {
                0x0000_0073 => Insn::Ecall,
                0x0010_0073 => Insn::Ebreak,
                0x3020_0073 => Insn::Mret,
                _ => Insn::Illegal(w),
            }
        }
        1 => CsrOp::Rw,
        2 => CsrOp::Rs,
        3 => CsrOp::Rc,
        5 => CsrOp::Rwi,
        6 => CsrOp::Rsi,
        7 => CsrOp::Rci,
        _ => return Insn::Illegal(w),
    };
    Insn::Csr {
        op,
        rd,
        csr,
        src: rs1,
    }
}
