//! The executor's instruction format: every RV32IM+Zb* instruction the babies run lowered to
//! one compact [`Op`] (8 bytes), with a flat [`Kind`] so the hot loop in `crate::exec` is a
//! single jump table; [`lower`] maps the ISA crate's decoded `Insn` onto it.
use bhemu_isa::riscv::{
    decode, AmoOp, BranchOp, CsrOp, ImmOp, Insn, LoadOp, RegOp, StoreOp, UnaryOp,
};

/// Executor opcodes: one flat enum so the hot loop is a single jump table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// Not decoded yet: the validity marker of a cache slot.
    Empty = 0,
    /// `lui`, and `auipc` with the pc folded in (slots are per address).
    Li,
    Jal,
    Jalr,
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
    Lb,
    Lh,
    Lw,
    Lbu,
    Lhu,
    Sb,
    Sh,
    Sw,
    Addi,
    Slti,
    Sltiu,
    Xori,
    Ori,
    Andi,
    Slli,
    Srli,
    Srai,
    Rori,
    Grevi,
    Add,
    Sub,
    Sll,
    Slt,
    Sltu,
    Xor,
    Srl,
    Sra,
    Or,
    And,
    Mul,
    Mulh,
    Mulhsu,
    Mulhu,
    Div,
    Divu,
    Rem,
    Remu,
    Sh1add,
    Sh2add,
    Sh3add,
    Andn,
    Orn,
    Xnor,
    Max,
    Maxu,
    Min,
    Minu,
    Rol,
    Ror,
    Pack,
    Clz,
    Ctz,
    Cpop,
    SextB,
    SextH,
    OrcB,
    Amo,
    Csr,
    Fence,
    FenceI,
    Ecall,
    Ebreak,
    Mret,
    Tensix,
    Illegal,
}

impl Kind {
    /// Touches nothing but the hart's own registers and pc: integer ALU ops, `lui`/`auipc`,
    /// jumps, branches and `fence` (which orders nothing on an in-order core with no caches
    /// to flush here). Loads, stores, AMOs, CSRs, `fence.i`, traps and Tensix pushes are not.
    #[inline(always)]
    pub(crate) fn is_private(self) -> bool {
        let k = self as u8;
        (Kind::Li as u8..=Kind::Bgeu as u8).contains(&k)
            || (Kind::Addi as u8..=Kind::OrcB as u8).contains(&k)
            || self == Kind::Fence
    }

    /// Branches and jumps: the private ops that end a basic block (see [`crate::block`]).
    #[inline(always)]
    pub(crate) fn is_control(self) -> bool {
        (Kind::Jal as u8..=Kind::Bgeu as u8).contains(&(self as u8))
    }

    /// Conditional branches: the ops the pipeline timing predicts (docs/core-timing.md CT-3).
    #[inline(always)]
    pub(crate) fn is_branch(self) -> bool {
        (Kind::Beq as u8..=Kind::Bgeu as u8).contains(&(self as u8))
    }

    /// Loads.
    #[inline(always)]
    pub(crate) fn is_load(self) -> bool {
        (Kind::Lb as u8..=Kind::Lhu as u8).contains(&(self as u8))
    }

    /// Stores.
    #[inline(always)]
    pub(crate) fn is_store(self) -> bool {
        (Kind::Sb as u8..=Kind::Sw as u8).contains(&(self as u8))
    }

    /// A private op that always falls through to the next instruction: a block's body.
    #[inline(always)]
    pub(crate) fn is_straight(self) -> bool {
        self.is_private() && !self.is_control()
    }
}

/// One pre-decoded instruction (8 bytes); `rd` is [`X0_SINK`] for `x0`. `imm` holds the immediate, an absolute branch/jump
/// target, the CSR number, the Tensix word or the illegal word depending on `kind`; `rs2` holds
/// the [`AmoOp`]/[`CsrOp`] index for those kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(8))]
pub(crate) struct Op {
    pub kind: Kind,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    pub imm: u32,
}

pub(crate) const EMPTY: Op = Op {
    kind: Kind::Empty,
    rd: 0,
    rs1: 0,
    rs2: 0,
    imm: 0,
};

pub(crate) const AMO_OPS: [AmoOp; 9] = [
    AmoOp::Swap,
    AmoOp::Add,
    AmoOp::Xor,
    AmoOp::And,
    AmoOp::Or,
    AmoOp::Min,
    AmoOp::Max,
    AmoOp::Minu,
    AmoOp::Maxu,
];
pub(crate) const CSR_OPS: [CsrOp; 6] = [
    CsrOp::Rw,
    CsrOp::Rs,
    CsrOp::Rc,
    CsrOp::Rwi,
    CsrOp::Rsi,
    CsrOp::Rci,
];

/// Register-file slot that writes to `x0` go to, so the hot loop never has to re-zero `x0`.
pub(crate) const X0_SINK: u8 = 32;

fn dest(rd: u8) -> u8 {
    match rd & 31 {
        0 => X0_SINK,
        r => r,
    }
}

fn op(kind: Kind, rd: u8, rs1: u8, rs2: u8, imm: u32) -> Op {
    Op {
        kind,
        rd: dest(rd),
        rs1: rs1 & 31,
        rs2: rs2 & 31,
        imm,
    }
}

/// The executor op kind of BranchOp's `b`.
fn branch_kind(b: BranchOp) -> Kind {
    match b {
        BranchOp::Beq => Kind::Beq,
        BranchOp::Bne => Kind::Bne,
        BranchOp::Blt => Kind::Blt,
        BranchOp::Bge => Kind::Bge,
        BranchOp::Bltu => Kind::Bltu,
        BranchOp::Bgeu => Kind::Bgeu,
    }
}

/// The executor op kind of LoadOp's `l`.
fn load_kind(l: LoadOp) -> Kind {
    match l {
        LoadOp::Lb => Kind::Lb,
        LoadOp::Lh => Kind::Lh,
        LoadOp::Lw => Kind::Lw,
        LoadOp::Lbu => Kind::Lbu,
        LoadOp::Lhu => Kind::Lhu,
    }
}

/// The executor op kind of StoreOp's `s`.
fn store_kind(s: StoreOp) -> Kind {
    match s {
        StoreOp::Sb => Kind::Sb,
        StoreOp::Sh => Kind::Sh,
        StoreOp::Sw => Kind::Sw,
    }
}

/// The executor op kind of ImmOp's `o`.
fn imm_kind(o: ImmOp) -> Kind {
    match o {
        ImmOp::Addi => Kind::Addi,
        ImmOp::Slti => Kind::Slti,
        ImmOp::Sltiu => Kind::Sltiu,
        ImmOp::Xori => Kind::Xori,
        ImmOp::Ori => Kind::Ori,
        ImmOp::Andi => Kind::Andi,
        ImmOp::Slli => Kind::Slli,
        ImmOp::Srli => Kind::Srli,
        ImmOp::Srai => Kind::Srai,
        ImmOp::Rori => Kind::Rori,
        ImmOp::Grevi => Kind::Grevi,
    }
}

/// The executor op kind of RegOp's `o`.
fn reg_kind(o: RegOp) -> Kind {
    use RegOp::*;
    match o {
        Add => Kind::Add,
        Sub => Kind::Sub,
        Sll => Kind::Sll,
        Slt => Kind::Slt,
        Sltu => Kind::Sltu,
        Xor => Kind::Xor,
        Srl => Kind::Srl,
        Sra => Kind::Sra,
        Or => Kind::Or,
        And => Kind::And,
        Mul => Kind::Mul,
        Mulh => Kind::Mulh,
        Mulhsu => Kind::Mulhsu,
        Mulhu => Kind::Mulhu,
        Div => Kind::Div,
        Divu => Kind::Divu,
        Rem => Kind::Rem,
        Remu => Kind::Remu,
        Sh1add => Kind::Sh1add,
        Sh2add => Kind::Sh2add,
        Sh3add => Kind::Sh3add,
        Andn => Kind::Andn,
        Orn => Kind::Orn,
        Xnor => Kind::Xnor,
        Max => Kind::Max,
        Maxu => Kind::Maxu,
        Min => Kind::Min,
        Minu => Kind::Minu,
        Rol => Kind::Rol,
        Ror => Kind::Ror,
        Pack => Kind::Pack,
    }
}

/// The executor op kind of UnaryOp's `u`.
fn unary_kind(u: UnaryOp) -> Kind {
    match u {
        UnaryOp::Clz => Kind::Clz,
        UnaryOp::Ctz => Kind::Ctz,
        UnaryOp::Cpop => Kind::Cpop,
        UnaryOp::SextB => Kind::SextB,
        UnaryOp::SextH => Kind::SextH,
        UnaryOp::OrcB => Kind::OrcB,
    }
}

/// Lowers the word at `pc` to an executor op.
pub(crate) fn lower(word: u32, pc: u32) -> Op {
    match decode(word) {
        Insn::Lui { rd, imm } => op(Kind::Li, rd, 0, 0, imm),
        Insn::Auipc { rd, imm } => op(Kind::Li, rd, 0, 0, pc.wrapping_add(imm)),
        Insn::Jal { rd, offset } => op(Kind::Jal, rd, 0, 0, pc.wrapping_add(offset as u32)),
        Insn::Jalr { rd, rs1, offset } => op(Kind::Jalr, rd, rs1, 0, offset as u32),
        Insn::Branch {
            op: b,
            rs1,
            rs2,
            offset,
        } => op(branch_kind(b), 0, rs1, rs2, pc.wrapping_add(offset as u32)),
        Insn::Load {
            op: l,
            rd,
            rs1,
            offset,
        } => op(load_kind(l), rd, rs1, 0, offset as u32),
        Insn::Store {
            op: s,
            rs1,
            rs2,
            offset,
        } => op(store_kind(s), 0, rs1, rs2, offset as u32),
        Insn::OpImm {
            op: o,
            rd,
            rs1,
            imm,
        } => op(imm_kind(o), rd, rs1, 0, imm as u32),
        Insn::Op {
            op: o,
            rd,
            rs1,
            rs2,
        } => op(reg_kind(o), rd, rs1, rs2, 0),
        Insn::Unary { op: u, rd, rs1 } => op(unary_kind(u), rd, rs1, 0, 0),
        Insn::Amo {
            op: a,
            rd,
            rs1,
            rs2,
            ..
        } => {
            // aq/rl have no effect: the babies always act as if both were set (InstructionSet.md).
            let idx = AMO_OPS.iter().position(|&x| x == a).unwrap_or(0) as u32;
            op(Kind::Amo, rd, rs1, rs2, idx)
        }
        Insn::Csr {
            op: c,
            rd,
            csr,
            src,
        } => {
            let idx = CSR_OPS.iter().position(|&x| x == c).unwrap_or(0) as u8;
            Op {
                kind: Kind::Csr,
                rd: dest(rd),
                rs1: src & 31,
                rs2: idx,
                imm: u32::from(csr),
            }
        }
        Insn::Fence { .. } => op(Kind::Fence, 0, 0, 0, 0),
        Insn::FenceI => op(Kind::FenceI, 0, 0, 0, 0),
        Insn::Ecall => op(Kind::Ecall, 0, 0, 0, 0),
        Insn::Ebreak => op(Kind::Ebreak, 0, 0, 0, 0),
        Insn::Mret => op(Kind::Mret, 0, 0, 0, 0),
        Insn::Tensix(t) => op(Kind::Tensix, 0, 0, 0, t),
        Insn::Illegal(w) => op(Kind::Illegal, 0, 0, 0, w),
    }
}
