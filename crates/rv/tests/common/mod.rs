//! Helpers shared by the hart's integration tests: assemble with the ISA encoder into a
//! [`FlatRam`] and run, and a deterministic generator of instructions for table-wide checks.
#![allow(dead_code)]

use bhemu_isa::riscv::*;
use bhemu_rv::{FlatRam, Hart, HartConfig, RunExit};

pub const RAM_BASE: u32 = 0x1000;
pub const RAM_SIZE: u32 = 0x10000;
/// Scratch data area inside the RAM.
pub const DATA: u32 = 0x8000;

pub fn words(prog: &[Insn]) -> Vec<u32> {
    prog.iter().map(encode).collect()
}

/// A hart at RAM_BASE with `prog` loaded there.
pub fn setup(prog: &[Insn]) -> (Hart, FlatRam) {
    let mut ram = FlatRam::new(RAM_BASE, RAM_SIZE);
    let bytes: Vec<u8> = words(prog).iter().flat_map(|w| w.to_le_bytes()).collect();
    ram.load_bytes(RAM_BASE, &bytes).unwrap();
    let hart = Hart::new(HartConfig {
        reset_pc: RAM_BASE,
        ..HartConfig::default()
    });
    (hart, ram)
}

/// Runs `prog` followed by `ebreak` with registers preset; returns the hart after the pause.
pub fn run_with(prog: &[Insn], regs: &[(usize, u32)]) -> (Hart, FlatRam) {
    let mut p = prog.to_vec();
    p.push(Insn::Ebreak);
    let (mut hart, mut ram) = setup(&p);
    for &(r, v) in regs {
        hart.set_reg(r, v);
    }
    match hart.run(&mut ram, 10_000) {
        RunExit::Halted(_) => {}
        other => panic!("program did not reach ebreak: {other:?}"),
    }
    (hart, ram)
}

pub fn op(op: RegOp, rd: u8, rs1: u8, rs2: u8) -> Insn {
    Insn::Op { op, rd, rs1, rs2 }
}
pub fn opi(op: ImmOp, rd: u8, rs1: u8, imm: i32) -> Insn {
    Insn::OpImm { op, rd, rs1, imm }
}
pub fn li(rd: u8, v: i32) -> Insn {
    opi(ImmOp::Addi, rd, 0, v)
}

/// `rd = op(a, b)` evaluated on the hart (a in x11, b in x12, result in x10).
pub fn eval_rr(o: RegOp, a: u32, b: u32) -> u32 {
    let (h, _) = run_with(&[op(o, 10, 11, 12)], &[(11, a), (12, b)]);
    h.reg(10)
}
pub fn eval_ri(o: ImmOp, a: u32, imm: i32) -> u32 {
    let (h, _) = run_with(&[opi(o, 10, 11, imm)], &[(11, a)]);
    h.reg(10)
}
pub fn eval_unary(o: UnaryOp, a: u32) -> u32 {
    let (h, _) = run_with(
        &[Insn::Unary {
            op: o,
            rd: 10,
            rs1: 11,
        }],
        &[(11, a)],
    );
    h.reg(10)
}

/// xorshift64*: deterministic and dependency-free.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A register, biased towards the ones aliases care about (zero, ra, sp).
    pub fn reg(&mut self) -> u8 {
        match self.below(4) {
            0 => [0u8, 1, 2][self.below(3) as usize],
            _ => self.below(32) as u8,
        }
    }
    pub fn imm12(&mut self) -> i32 {
        match self.below(4) {
            0 => [0, 1, -1, 255, 2047, -2048][self.below(6) as usize],
            _ => (self.below(4096) as i32) - 2048,
        }
    }
}

pub const REG_OPS: [RegOp; 31] = {
    use RegOp::*;
    [
        Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or, And, Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem,
        Remu, Sh1add, Sh2add, Sh3add, Andn, Orn, Xnor, Max, Maxu, Min, Minu, Rol, Ror, Pack,
    ]
};
pub const IMM_OPS: [ImmOp; 11] = {
    use ImmOp::*;
    [
        Addi, Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai, Rori, Grevi,
    ]
};
pub const UNARY_OPS: [UnaryOp; 6] = {
    use UnaryOp::*;
    [Clz, Ctz, Cpop, SextB, SextH, OrcB]
};
pub const AMO_OPS: [AmoOp; 9] = {
    use AmoOp::*;
    [Swap, Add, Xor, And, Or, Min, Max, Minu, Maxu]
};
pub const BRANCH_OPS: [BranchOp; 6] = {
    use BranchOp::*;
    [Beq, Bne, Blt, Bge, Bltu, Bgeu]
};
pub const LOAD_OPS: [LoadOp; 5] = [LoadOp::Lb, LoadOp::Lh, LoadOp::Lw, LoadOp::Lbu, LoadOp::Lhu];
pub const STORE_OPS: [StoreOp; 3] = [StoreOp::Sb, StoreOp::Sh, StoreOp::Sw];
pub const CSR_OPS: [CsrOp; 6] = [
    CsrOp::Rw,
    CsrOp::Rs,
    CsrOp::Rc,
    CsrOp::Rwi,
    CsrOp::Rsi,
    CsrOp::Rci,
];

/// `n` random instances of every instruction form the hart implements (no `.ttinsn`, no
/// illegal words), for round-trip and objdump comparisons.
pub fn every_instruction(seed: u64, n: usize) -> Vec<Insn> {
    let mut r = Rng(seed | 1);
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(Insn::Lui {
            rd: r.reg(),
            imm: (r.next() as u32) & 0xffff_f000,
        });
        v.push(Insn::Auipc {
            rd: r.reg(),
            imm: (r.next() as u32) & 0xffff_f000,
        });
        let joff = ((r.below(1 << 20) as i32) - (1 << 19)) * 2;
        v.push(Insn::Jal {
            rd: r.reg(),
            offset: joff & !3,
        });
        v.push(Insn::Jalr {
            rd: r.reg(),
            rs1: r.reg(),
            offset: if r.below(2) == 0 { 0 } else { r.imm12() },
        });
        for &o in &BRANCH_OPS {
            let off = ((r.below(1 << 12) as i32) - (1 << 11)) * 2;
            v.push(Insn::Branch {
                op: o,
                rs1: r.reg(),
                rs2: r.reg(),
                offset: off & !3,
            });
        }
        for &o in &LOAD_OPS {
            v.push(Insn::Load {
                op: o,
                rd: r.reg(),
                rs1: r.reg(),
                offset: r.imm12(),
            });
        }
        for &o in &STORE_OPS {
            v.push(Insn::Store {
                op: o,
                rs1: r.reg(),
                rs2: r.reg(),
                offset: r.imm12(),
            });
        }
        for &o in &IMM_OPS {
            let imm = match o {
                ImmOp::Slli | ImmOp::Srli | ImmOp::Srai | ImmOp::Rori => r.below(32) as i32,
                ImmOp::Grevi => [7, 24][r.below(2) as usize],
                _ => r.imm12(),
            };
            v.push(opi(o, r.reg(), r.reg(), imm));
        }
        for &o in &REG_OPS {
            v.push(op(o, r.reg(), r.reg(), r.reg()));
        }
        for &o in &UNARY_OPS {
            v.push(Insn::Unary {
                op: o,
                rd: r.reg(),
                rs1: r.reg(),
            });
        }
        for &o in &AMO_OPS {
            let (aq, rl) = (r.below(2) == 1, r.below(2) == 1);
            v.push(Insn::Amo {
                op: o,
                rd: r.reg(),
                rs1: r.reg(),
                rs2: r.reg(),
                aq,
                rl,
            });
        }
        for &o in &CSR_OPS {
            let csr = match r.below(3) {
                0 => [
                    0x300u16, 0x305, 0x341, 0x342, 0xc00, 0xc02, 0xc80, 0xc82, 0xb00, 0xf14, 0x7c0,
                    0xbc0,
                ][r.below(12) as usize],
                _ => r.below(4096) as u16,
            };
            let src = if r.below(3) == 0 {
                0
            } else {
                r.below(32) as u8
            };
            v.push(Insn::Csr {
                op: o,
                rd: r.reg(),
                csr,
                src,
            });
        }
        let (pred, succ) = (r.below(16) as u8, r.below(16) as u8);
        v.push(Insn::Fence { fm: 0, pred, succ });
    }
    v.extend([
        Insn::Fence {
            fm: 0,
            pred: 15,
            succ: 15,
        },
        Insn::Fence {
            fm: 8,
            pred: 3,
            succ: 3,
        },
        Insn::Fence {
            fm: 0,
            pred: 3,
            succ: 3,
        },
        Insn::Fence {
            fm: 0,
            pred: 1,
            succ: 0,
        },
        Insn::FenceI,
        Insn::Ecall,
        Insn::Ebreak,
        Insn::Mret,
        opi(ImmOp::Addi, 0, 0, 0),
        opi(ImmOp::Addi, 0, 5, 0),
        opi(ImmOp::Addi, 5, 0, 0),
        opi(ImmOp::Xori, 5, 6, -1),
        opi(ImmOp::Sltiu, 5, 6, 1),
        opi(ImmOp::Andi, 5, 6, 255),
        op(RegOp::Sub, 5, 0, 6),
        op(RegOp::Sub, 5, 0, 0),
        op(RegOp::Sltu, 5, 0, 6),
        op(RegOp::Slt, 5, 6, 0),
        op(RegOp::Slt, 5, 0, 6),
        op(RegOp::Slt, 5, 0, 0),
        op(RegOp::Pack, 5, 6, 0),
        Insn::Branch {
            op: BranchOp::Beq,
            rs1: 0,
            rs2: 0,
            offset: 8,
        },
        Insn::Branch {
            op: BranchOp::Bge,
            rs1: 0,
            rs2: 0,
            offset: 8,
        },
        Insn::Branch {
            op: BranchOp::Blt,
            rs1: 0,
            rs2: 0,
            offset: 8,
        },
        Insn::Branch {
            op: BranchOp::Bne,
            rs1: 0,
            rs2: 0,
            offset: 8,
        },
        Insn::Jalr {
            rd: 0,
            rs1: 1,
            offset: 0,
        },
        Insn::Jalr {
            rd: 0,
            rs1: 1,
            offset: 4,
        },
        Insn::Jalr {
            rd: 1,
            rs1: 0,
            offset: -4,
        },
        Insn::Csr {
            op: CsrOp::Rw,
            rd: 0,
            csr: 0xc00,
            src: 0,
        },
        Insn::Csr {
            op: CsrOp::Rs,
            rd: 0,
            csr: 0xc00,
            src: 0,
        },
        Insn::Csr {
            op: CsrOp::Rsi,
            rd: 0,
            csr: 0x300,
            src: 0,
        },
        Insn::Csr {
            op: CsrOp::Rwi,
            rd: 0,
            csr: 0x300,
            src: 0,
        },
        Insn::Csr {
            op: CsrOp::Rc,
            rd: 10,
            csr: 0x300,
            src: 0,
        },
    ]);
    v
}

// ---- registers a0..a2 and the CSR / word load-store shapes the hart tests build ----
pub const A0: u8 = 10;
pub const A1: u8 = 11;
pub const A2: u8 = 12;

pub fn csr(op: CsrOp, rd: u8, csr: u16, src: u8) -> Insn {
    Insn::Csr { op, rd, csr, src }
}

pub fn sw(rs2: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Store {
        op: StoreOp::Sw,
        rs1,
        rs2,
        offset,
    }
}

pub fn lw(rd: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Load {
        op: LoadOp::Lw,
        rd,
        rs1,
        offset,
    }
}
