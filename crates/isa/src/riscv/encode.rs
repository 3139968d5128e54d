//! [`Insn`] → word, the inverse of [`decode`](super::decode) for every instruction it produces
//! (fence's reserved `rd`/`rs1` are encoded as zero). Out-of-range fields are masked, never
//! rejected: callers that assemble from user input validate ranges first.
use super::insn::*;

const fn r(op: u32, rd: u8, f3: u32, rs1: u8, rs2: u8, f7: u32) -> u32 {
    op | ((rd as u32 & 31) << 7)
        | (f3 << 12)
        | ((rs1 as u32 & 31) << 15)
        | ((rs2 as u32 & 31) << 20)
        | (f7 << 25)
}
const fn i(op: u32, rd: u8, f3: u32, rs1: u8, imm: i32) -> u32 {
    op | ((rd as u32 & 31) << 7) | (f3 << 12) | ((rs1 as u32 & 31) << 15) | ((imm as u32) << 20)
}
const fn s(op: u32, f3: u32, rs1: u8, rs2: u8, imm: i32) -> u32 {
    let imm = imm as u32;
    op | ((imm & 0x1f) << 7)
        | (f3 << 12)
        | ((rs1 as u32 & 31) << 15)
        | ((rs2 as u32 & 31) << 20)
        | ((imm >> 5 & 0x7f) << 25)
}
const fn b(f3: u32, rs1: u8, rs2: u8, off: i32) -> u32 {
    let o = off as u32;
    0x63 | ((o >> 11 & 1) << 7)
        | ((o >> 1 & 0xf) << 8)
        | (f3 << 12)
        | ((rs1 as u32 & 31) << 15)
        | ((rs2 as u32 & 31) << 20)
        | ((o >> 5 & 0x3f) << 25)
        | ((o >> 12 & 1) << 31)
}
const fn j(rd: u8, off: i32) -> u32 {
    let o = off as u32;
    0x6f | ((rd as u32 & 31) << 7)
        | (o & 0xff000)
        | ((o >> 11 & 1) << 20)
        | ((o >> 1 & 0x3ff) << 21)
        | ((o >> 20 & 1) << 31)
}

/// Assembles one instruction. `Tensix(t)` gives `rotl(t, 2)`, which is a `.ttinsn` only for
/// `t < 0xC000_0000` (PushTensixInstruction.md; valid Tensix words always are); `Illegal(w)`
/// gives `w` back.
pub fn encode(insn: &Insn) -> u32 {
    match *insn {
        Insn::Lui { rd, imm } => 0x37 | ((rd as u32 & 31) << 7) | (imm & 0xffff_f000),
        Insn::Auipc { rd, imm } => 0x17 | ((rd as u32 & 31) << 7) | (imm & 0xffff_f000),
        Insn::Jal { rd, offset } => j(rd, offset),
        Insn::Jalr { rd, rs1, offset } => i(0x67, rd, 0, rs1, offset),
        Insn::Branch {
            op,
            rs1,
            rs2,
            offset,
        } => {
            let f3 = match op {
                BranchOp::Beq => 0,
                BranchOp::Bne => 1,
                BranchOp::Blt => 4,
                BranchOp::Bge => 5,
                BranchOp::Bltu => 6,
                BranchOp::Bgeu => 7,
            };
            b(f3, rs1, rs2, offset)
        }
        Insn::Load {
            op,
            rd,
            rs1,
            offset,
        } => {
            let f3 = match op {
                LoadOp::Lb => 0,
                LoadOp::Lh => 1,
                LoadOp::Lw => 2,
                LoadOp::Lbu => 4,
                LoadOp::Lhu => 5,
            };
            i(0x03, rd, f3, rs1, offset)
        }
        Insn::Store {
            op,
            rs1,
            rs2,
            offset,
        } => {
            let f3 = match op {
                StoreOp::Sb => 0,
                StoreOp::Sh => 1,
                StoreOp::Sw => 2,
            };
            s(0x23, f3, rs1, rs2, offset)
        }
        Insn::OpImm { op, rd, rs1, imm } => {
            let sh = imm & 31;
            let (f3, imm) = match op {
                ImmOp::Addi => (0, imm),
                ImmOp::Slti => (2, imm),
                ImmOp::Sltiu => (3, imm),
                ImmOp::Xori => (4, imm),
                ImmOp::Ori => (6, imm),
                ImmOp::Andi => (7, imm),
                ImmOp::Slli => (1, sh),
                ImmOp::Srli => (5, sh),
                ImmOp::Srai => (5, sh | 0b010_0000 << 5),
                ImmOp::Rori => (5, sh | 0b011_0000 << 5),
                ImmOp::Grevi => (5, sh | 0b011_0100 << 5),
            };
            i(0x13, rd, f3, rs1, imm)
        }
        Insn::Unary { op, rd, rs1 } => {
            let (f3, imm) = match op {
                UnaryOp::Clz => (1, 0x600),
                UnaryOp::Ctz => (1, 0x601),
                UnaryOp::Cpop => (1, 0x602),
                UnaryOp::SextB => (1, 0x604),
                UnaryOp::SextH => (1, 0x605),
                UnaryOp::OrcB => (5, 0x287),
            };
            i(0x13, rd, f3, rs1, imm)
        }
        Insn::Op { op, rd, rs1, rs2 } => {
            use RegOp::*;
            let (f7, f3) = match op {
                Add => (0, 0),
                Sll => (0, 1),
                Slt => (0, 2),
                Sltu => (0, 3),
                Xor => (0, 4),
                Srl => (0, 5),
                Or => (0, 6),
                And => (0, 7),
                Sub => (0x20, 0),
                Sra => (0x20, 5),
                Xnor => (0x20, 4),
                Orn => (0x20, 6),
                Andn => (0x20, 7),
                Mul => (1, 0),
                Mulh => (1, 1),
                Mulhsu => (1, 2),
                Mulhu => (1, 3),
                Div => (1, 4),
                Divu => (1, 5),
                Rem => (1, 6),
                Remu => (1, 7),
                Sh1add => (0x10, 2),
                Sh2add => (0x10, 4),
                Sh3add => (0x10, 6),
                Min => (5, 4),
                Minu => (5, 5),
                Max => (5, 6),
                Maxu => (5, 7),
                Rol => (0x30, 1),
                Ror => (0x30, 5),
                Pack => (4, 4),
            };
            r(0x33, rd, f3, rs1, rs2, f7)
        }
        Insn::Amo {
            op,
            rd,
            rs1,
            rs2,
            aq,
            rl,
        } => {
            let f7 = (op.funct5() << 2) | (u32::from(aq) << 1) | u32::from(rl);
            r(0x2f, rd, 2, rs1, rs2, f7)
        }
        Insn::Csr { op, rd, csr, src } => {
            let f3 = match op {
                CsrOp::Rw => 1,
                CsrOp::Rs => 2,
                CsrOp::Rc => 3,
                CsrOp::Rwi => 5,
                CsrOp::Rsi => 6,
                CsrOp::Rci => 7,
            };
            0x73 | ((rd as u32 & 31) << 7)
                | (f3 << 12)
                | ((src as u32 & 31) << 15)
                | ((csr as u32 & 0xfff) << 20)
        }
        Insn::Fence { fm, pred, succ } => {
            0x0f | ((fm as u32 & 15) << 28)
                | ((pred as u32 & 15) << 24)
                | ((succ as u32 & 15) << 20)
        }
        Insn::FenceI => 0x0000_100f,
        Insn::Ecall => 0x0000_0073,
        Insn::Ebreak => 0x0010_0073,
        Insn::Mret => 0x3020_0073,
        Insn::Tensix(t) => t.rotate_left(2),
        Insn::Illegal(w) => w,
    }
}
