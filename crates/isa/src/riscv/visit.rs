//! Visitor over decoded instructions, one method per instruction format: the disassembler is
//! one visitor; others (statistics, a trace formatter, an assembler listing) plug in the same way
//! without another decoder. The hart's hot loop matches on its own pre-decoded ops instead,
//! lowered from the same [`Insn`], for speed.
use super::decode::decode;
use super::insn::*;

pub trait Visitor {
    type Output;
    fn visit_lui(&mut self, rd: u8, imm: u32) -> Self::Output;
    fn visit_auipc(&mut self, rd: u8, imm: u32) -> Self::Output;
    fn visit_jal(&mut self, rd: u8, offset: i32) -> Self::Output;
    fn visit_jalr(&mut self, rd: u8, rs1: u8, offset: i32) -> Self::Output;
    fn visit_branch(&mut self, op: BranchOp, rs1: u8, rs2: u8, offset: i32) -> Self::Output;
    fn visit_load(&mut self, op: LoadOp, rd: u8, rs1: u8, offset: i32) -> Self::Output;
    fn visit_store(&mut self, op: StoreOp, rs1: u8, rs2: u8, offset: i32) -> Self::Output;
    fn visit_op_imm(&mut self, op: ImmOp, rd: u8, rs1: u8, imm: i32) -> Self::Output;
    fn visit_op(&mut self, op: RegOp, rd: u8, rs1: u8, rs2: u8) -> Self::Output;
    fn visit_unary(&mut self, op: UnaryOp, rd: u8, rs1: u8) -> Self::Output;
    #[allow(clippy::too_many_arguments)]
    fn visit_amo(
        &mut self,
        op: AmoOp,
        rd: u8,
        rs1: u8,
        rs2: u8,
        aq: bool,
        rl: bool,
    ) -> Self::Output;
    fn visit_csr(&mut self, op: CsrOp, rd: u8, csr: u16, src: u8) -> Self::Output;
    fn visit_fence(&mut self, fm: u8, pred: u8, succ: u8) -> Self::Output;
    fn visit_fence_i(&mut self) -> Self::Output;
    fn visit_ecall(&mut self) -> Self::Output;
    fn visit_ebreak(&mut self) -> Self::Output;
    fn visit_mret(&mut self) -> Self::Output;
    fn visit_tensix(&mut self, tensix_word: u32) -> Self::Output;
    fn visit_illegal(&mut self, word: u32) -> Self::Output;
}

impl Insn {
    /// Calls the visitor method of this instruction's format.
    pub fn accept<V: Visitor + ?Sized>(self, v: &mut V) -> V::Output {
        match self {
            Insn::Lui { rd, imm } => v.visit_lui(rd, imm),
            Insn::Auipc { rd, imm } => v.visit_auipc(rd, imm),
            Insn::Jal { rd, offset } => v.visit_jal(rd, offset),
            Insn::Jalr { rd, rs1, offset } => v.visit_jalr(rd, rs1, offset),
            Insn::Branch {
                op,
                rs1,
                rs2,
                offset,
            } => v.visit_branch(op, rs1, rs2, offset),
            Insn::Load {
                op,
                rd,
                rs1,
                offset,
            } => v.visit_load(op, rd, rs1, offset),
            Insn::Store {
                op,
                rs1,
                rs2,
                offset,
            } => v.visit_store(op, rs1, rs2, offset),
            Insn::OpImm { op, rd, rs1, imm } => v.visit_op_imm(op, rd, rs1, imm),
            Insn::Op { op, rd, rs1, rs2 } => v.visit_op(op, rd, rs1, rs2),
            Insn::Unary { op, rd, rs1 } => v.visit_unary(op, rd, rs1),
            Insn::Amo {
                op,
                rd,
                rs1,
                rs2,
                aq,
                rl,
            } => v.visit_amo(op, rd, rs1, rs2, aq, rl),
            Insn::Csr { op, rd, csr, src } => v.visit_csr(op, rd, csr, src),
            Insn::Fence { fm, pred, succ } => v.visit_fence(fm, pred, succ),
            Insn::FenceI => v.visit_fence_i(),
            Insn::Ecall => v.visit_ecall(),
            Insn::Ebreak => v.visit_ebreak(),
            Insn::Mret => v.visit_mret(),
            Insn::Tensix(t) => v.visit_tensix(t),
            Insn::Illegal(w) => v.visit_illegal(w),
        }
    }
}

/// Decodes `word` and hands it to `v`.
pub fn visit<V: Visitor + ?Sized>(word: u32, v: &mut V) -> V::Output {
    decode(word).accept(v)
}
