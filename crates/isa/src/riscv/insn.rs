//! The typed form of one RV32 instruction word. Register fields are `u8` in `0..32` (the
//! decoder guarantees it, the encoder masks); immediates are already sign-extended and scaled
//! so that consumers never touch encoding bit positions.

/// One decoded instruction. `Copy` and small (12 bytes) so it can be passed around freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Insn {
    /// `imm` is the value written to `rd` (low 12 bits zero).
    Lui {
        rd: u8,
        imm: u32,
    },
    /// `imm` is the value added to the pc (low 12 bits zero).
    Auipc {
        rd: u8,
        imm: u32,
    },
    /// `offset` is relative to this instruction's pc.
    Jal {
        rd: u8,
        offset: i32,
    },
    Jalr {
        rd: u8,
        rs1: u8,
        offset: i32,
    },
    Branch {
        op: BranchOp,
        rs1: u8,
        rs2: u8,
        offset: i32,
    },
    Load {
        op: LoadOp,
        rd: u8,
        rs1: u8,
        offset: i32,
    },
    Store {
        op: StoreOp,
        rs1: u8,
        rs2: u8,
        offset: i32,
    },
    /// Register-immediate operations; for shifts, `rori` and `grevi` `imm` is the 5-bit amount.
    OpImm {
        op: ImmOp,
        rd: u8,
        rs1: u8,
        imm: i32,
    },
    Op {
        op: RegOp,
        rd: u8,
        rs1: u8,
        rs2: u8,
    },
    /// One-source Zbb operations (`rev8`/`brev8` are `grevi` immediates, `zext.h` is `pack` with
    /// `x0`: they stay in those forms so decode/encode round-trip exactly).
    Unary {
        op: UnaryOp,
        rd: u8,
        rs1: u8,
    },
    Amo {
        op: AmoOp,
        rd: u8,
        rs1: u8,
        rs2: u8,
        aq: bool,
        rl: bool,
    },
    /// `src` is `rs1` for the register forms and the 5-bit zero-extended immediate for `*i`.
    Csr {
        op: CsrOp,
        rd: u8,
        csr: u16,
        src: u8,
    },
    /// `pred`/`succ` are the 4-bit `iorw` sets, `fm` the fence mode (8 is `fence.tso`).
    Fence {
        fm: u8,
        pred: u8,
        succ: u8,
    },
    FenceI,
    Ecall,
    Ebreak,
    Mret,
    /// `.ttinsn`: the Tensix instruction word, already rotated right by 2
    /// (`BabyRISCV/PushTensixInstruction.md`, ".ttinsn instruction set extension").
    Tensix(u32),
    /// A word with low bits `11` that is no instruction the baby cores implement.
    Illegal(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchOp {
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadOp {
    Lb,
    Lh,
    Lw,
    Lbu,
    Lhu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreOp {
    Sb,
    Sh,
    Sw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmOp {
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
    /// Bitmanip 0.94-draft generalized reverse; `rev8` is 24 and `brev8` is 7.
    Grevi,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegOp {
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
    /// Zbkb `pack`; with `rs2 = x0` it is Zbb's `zext.h`.
    Pack,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Clz,
    Ctz,
    Cpop,
    SextB,
    SextH,
    OrcB,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AmoOp {
    Swap,
    Add,
    Xor,
    And,
    Or,
    Min,
    Max,
    Minu,
    Maxu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CsrOp {
    Rw,
    Rs,
    Rc,
    Rwi,
    Rsi,
    Rci,
}

impl CsrOp {
    /// True for the `*i` forms, whose source is an immediate rather than a register.
    pub const fn is_imm(self) -> bool {
        matches!(self, CsrOp::Rwi | CsrOp::Rsi | CsrOp::Rci)
    }
}

impl AmoOp {
    /// The `funct5` field (riscv-isa-manual, "A" chapter, AMO encoding table).
    pub(crate) const fn funct5(self) -> u32 {
        match self {
            AmoOp::Add => 0b00000,
            AmoOp::Swap => 0b00001,
            AmoOp::Xor => 0b00100,
            AmoOp::Or => 0b01000,
            AmoOp::And => 0b01100,
            AmoOp::Min => 0b10000,
            AmoOp::Max => 0b10100,
            AmoOp::Minu => 0b11000,
            AmoOp::Maxu => 0b11100,
        }
    }
}
