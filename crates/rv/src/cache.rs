//! Decoded-instruction cache: one compact [`Op`] per instruction word of a window of the address
//! space, so the hot loop decodes each instruction once (docs/execution-model.md). The window grows in
//! 4 KiB chunks around the code actually executed and is capped, beyond which instructions are
//! decoded on every execution (correct, only slower). Entries are invalidated by the hart's own
//! stores, by `fence.i` and by [`crate::Hart::invalidate_code`].
use crate::block::Blocks;
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
        } => {
            let k = match b {
                BranchOp::Beq => Kind::Beq,
                BranchOp::Bne => Kind::Bne,
                BranchOp::Blt => Kind::Blt,
                BranchOp::Bge => Kind::Bge,
                BranchOp::Bltu => Kind::Bltu,
                BranchOp::Bgeu => Kind::Bgeu,
            };
            op(k, 0, rs1, rs2, pc.wrapping_add(offset as u32))
        }
        Insn::Load {
            op: l,
            rd,
            rs1,
            offset,
        } => {
            let k = match l {
                LoadOp::Lb => Kind::Lb,
                LoadOp::Lh => Kind::Lh,
                LoadOp::Lw => Kind::Lw,
                LoadOp::Lbu => Kind::Lbu,
                LoadOp::Lhu => Kind::Lhu,
            };
            op(k, rd, rs1, 0, offset as u32)
        }
        Insn::Store {
            op: s,
            rs1,
            rs2,
            offset,
        } => {
            let k = match s {
                StoreOp::Sb => Kind::Sb,
                StoreOp::Sh => Kind::Sh,
                StoreOp::Sw => Kind::Sw,
            };
            op(k, 0, rs1, rs2, offset as u32)
        }
        Insn::OpImm {
            op: o,
            rd,
            rs1,
            imm,
        } => {
            let k = match o {
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
            };
            op(k, rd, rs1, 0, imm as u32)
        }
        Insn::Op {
            op: o,
            rd,
            rs1,
            rs2,
        } => {
            use RegOp::*;
            let k = match o {
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
            };
            op(k, rd, rs1, rs2, 0)
        }
        Insn::Unary { op: u, rd, rs1 } => {
            let k = match u {
                UnaryOp::Clz => Kind::Clz,
                UnaryOp::Ctz => Kind::Ctz,
                UnaryOp::Cpop => Kind::Cpop,
                UnaryOp::SextB => Kind::SextB,
                UnaryOp::SextH => Kind::SextH,
                UnaryOp::OrcB => Kind::OrcB,
            };
            op(k, rd, rs1, 0, 0)
        }
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

const CHUNK: u64 = 4096;
/// Largest code window cached (4 MiB of code = 8 MiB of ops); L1 is 1.5 MiB.
const MAX_WINDOW: u64 = 4 << 20;
/// Widest gap between the window and a new chunk that the window grows over. Code farther
/// away (a kernel's text, 100 KiB and more above the firmware's) starts a new window instead:
/// filling the gap with empty slots cost every hart over half a MiB of written memory, which
/// on 140 tiles was the largest single cost of a kernel launch (page faults and memset).
const MAX_GAP: u64 = 16 << 10;
/// Fresh windows a hart may start before its window grows over gaps after all: code that keeps
/// going back and forth between two far regions then pays for the gap once instead of
/// decoding again at every switch.
const MAX_RESTARTS: u32 = 64;

#[derive(Default)]
pub(crate) struct DecodeCache {
    pub base: u32,
    pub ops: Vec<Op>,
    /// The raw words, read only on traps and traces (kept apart so the hot vector stays dense).
    words: Vec<u32>,
    /// Fresh windows started for far code so far (see [`MAX_RESTARTS`]).
    restarts: u32,
    /// Basic blocks built from `ops`, dropped whenever a decoded slot changes.
    pub blocks: Blocks,
}

impl DecodeCache {
    pub fn new() -> Self {
        DecodeCache {
            base: 0,
            ops: Vec::new(),
            words: Vec::new(),
            restarts: 0,
            blocks: Blocks::default(),
        }
    }

    #[inline(always)]
    fn index(&self, addr: u32) -> usize {
        (addr.wrapping_sub(self.base) >> 2) as usize
    }

    /// The cached op at `pc`, if valid. `pc` must be 4-aligned.
    #[inline(always)]
    pub fn get(&self, pc: u32) -> Option<Op> {
        match self.ops.get(self.index(pc)) {
            Some(op) if op.kind != Kind::Empty => Some(*op),
            _ => None,
        }
    }

    /// The word cached at `pc`, if its slot is valid.
    pub fn word(&self, pc: u32) -> Option<u32> {
        let i = self.index(pc);
        match self.ops.get(i) {
            Some(op) if op.kind != Kind::Empty => self.words.get(i).copied(),
            _ => None,
        }
    }

    /// Caches `op` (lowered from `word`) at `pc`, growing the window when allowed.
    pub fn insert(&mut self, pc: u32, op: Op, word: u32) {
        if !self.covers(pc) && !self.grow(pc) {
            return;
        }
        let i = self.index(pc);
        if let (Some(o), Some(w)) = (self.ops.get_mut(i), self.words.get_mut(i)) {
            if o.kind != Kind::Empty && *o != op {
                self.blocks.reset();
            }
            *o = op;
            *w = word;
        }
    }

    fn covers(&self, addr: u32) -> bool {
        (addr.wrapping_sub(self.base) as usize) < self.ops.len() * 4
    }

    fn grow(&mut self, pc: u32) -> bool {
        let chunk_lo = u64::from(pc) & !(CHUNK - 1);
        let old_lo = u64::from(self.base);
        let old_hi = old_lo + self.ops.len() as u64 * 4;
        let gap = if chunk_lo >= old_hi {
            chunk_lo - old_hi
        } else {
            old_lo.saturating_sub(chunk_lo + CHUNK)
        };
        let restart = !self.ops.is_empty() && gap > MAX_GAP && self.restarts < MAX_RESTARTS;
        let (lo, hi) = if self.ops.is_empty() || restart {
            // A fresh window: what the old one held is decoded again when it runs again.
            self.restarts += u32::from(restart);
            self.ops.clear();
            self.words.clear();
            (chunk_lo, chunk_lo + CHUNK)
        } else {
            (old_lo.min(chunk_lo), old_hi.max(chunk_lo + CHUNK))
        };
        if hi - lo > MAX_WINDOW {
            return false;
        }
        let len = ((hi - lo) / 4) as usize;
        let mut ops = vec![EMPTY; len];
        let mut words = vec![0; len];
        let shift = ((u64::from(self.base).saturating_sub(lo)) / 4) as usize;
        if let (Some(dst_o), Some(dst_w)) = (
            ops.get_mut(shift..shift + self.ops.len()),
            words.get_mut(shift..shift + self.words.len()),
        ) {
            dst_o.copy_from_slice(&self.ops);
            dst_w.copy_from_slice(&self.words);
        }
        self.base = lo as u32;
        self.ops = ops;
        self.words = words;
        self.blocks.reset();
        true
    }

    /// A store of at most 4 bytes at the aligned-down word `addr`: cheap when outside the window.
    #[inline(always)]
    pub fn invalidate_word(&mut self, addr: u32) {
        let i = self.index(addr);
        if let Some(o) = self.ops.get_mut(i) {
            if o.kind != Kind::Empty {
                o.kind = Kind::Empty;
                self.blocks.reset();
            }
        }
    }

    pub fn invalidate(&mut self, addr: u32, len: u32) {
        if len == 0 || self.ops.is_empty() {
            return;
        }
        let lo = u64::from(addr) & !3;
        let hi = u64::from(addr) + u64::from(len);
        let base = u64::from(self.base);
        let end = base + self.ops.len() as u64 * 4;
        let (lo, hi) = (lo.max(base), hi.min(end));
        let mut a = lo;
        let mut hit = false;
        while a < hi {
            if let Some(o) = self.ops.get_mut(((a - base) / 4) as usize) {
                hit |= o.kind != Kind::Empty;
                o.kind = Kind::Empty;
            }
            a += 4;
        }
        if hit {
            self.blocks.reset();
        }
    }

    pub fn clear(&mut self) {
        for o in &mut self.ops {
            o.kind = Kind::Empty;
        }
        self.blocks.reset();
    }

    /// The id of the block of private instructions starting at `pc` (see [`crate::block`]).
    #[inline(always)]
    pub fn block_id(&mut self, pc: u32) -> Option<u32> {
        let slot = self.index(pc);
        self.blocks.id(&self.ops, slot, pc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addi(imm: u32) -> Op {
        Op {
            kind: Kind::Addi,
            rd: 1,
            rs1: 1,
            rs2: 0,
            imm,
        }
    }

    /// Private = touches only the hart's registers and pc (the rule of `Hart::run_private`):
    /// every kind, each listed once on its side.
    #[test]
    fn private_kinds_are_exactly_the_register_and_pc_only_ones() {
        use Kind::*;
        let private = [
            Li, Jal, Jalr, Beq, Bne, Blt, Bge, Bltu, Bgeu, Addi, Slti, Sltiu, Xori, Ori, Andi,
            Slli, Srli, Srai, Rori, Grevi, Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or, And, Mul,
            Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu, Sh1add, Sh2add, Sh3add, Andn, Orn, Xnor,
            Max, Maxu, Min, Minu, Rol, Ror, Pack, Clz, Ctz, Cpop, SextB, SextH, OrcB, Fence,
        ];
        let shared = [
            Empty, Lb, Lh, Lw, Lbu, Lhu, Sb, Sh, Sw, Amo, Csr, FenceI, Ecall, Ebreak, Mret, Tensix,
            Illegal,
        ];
        for k in private {
            assert!(k.is_private(), "{k:?}");
        }
        for k in shared {
            assert!(!k.is_private(), "{k:?}");
        }
        // Every kind is listed: the discriminants run 0..=Illegal without a gap.
        assert_eq!(private.len() + shared.len(), Illegal as usize + 1);
    }

    /// Code near the window joins it; code far away (a kernel's text above the firmware's)
    /// starts a new window rather than filling the gap, and the old region is decoded again.
    #[test]
    fn far_code_starts_a_new_window_near_code_joins_it() {
        let mut c = DecodeCache::new();
        c.insert(0x3AE0, addi(1), 0x0010_8093);
        c.insert(0x3AE0 + 8 * 1024, addi(2), 0x0020_8093);
        assert_eq!(c.get(0x3AE0).map(|o| o.imm), Some(1), "both in one window");
        assert_eq!(c.get(0x3AE0 + 8 * 1024).map(|o| o.imm), Some(2));
        let near_len = c.ops.len();
        assert!(near_len * 4 <= 16 * 1024, "{near_len} slots");
        c.insert(0x3_1000, addi(3), 0x0030_8093);
        assert_eq!(c.get(0x3_1000).map(|o| o.imm), Some(3));
        assert_eq!(c.word(0x3_1000), Some(0x0030_8093));
        assert_eq!(c.ops.len() as u64, CHUNK / 4, "one chunk, no gap filled");
        assert_eq!(
            c.get(0x3AE0),
            None,
            "the firmware's region is decoded again"
        );
        c.insert(0x3_1000 + 0x2000, addi(4), 0);
        assert_eq!(
            c.get(0x3_1000).map(|o| o.imm),
            Some(3),
            "kept when growing near"
        );
    }

    /// Code that keeps switching between two far regions starts fresh windows only
    /// MAX_RESTARTS times; then one window spans both and keeps both decoded.
    #[test]
    fn far_switches_stop_restarting_after_max_restarts() {
        let mut c = DecodeCache::new();
        let (fw, kernel) = (0x3AE0u32, 0x2_1000u32);
        c.insert(fw, addi(1), 0);
        for n in 0..MAX_RESTARTS {
            let pc = if n % 2 == 0 { kernel } else { fw };
            c.insert(pc, addi(n), 0);
            assert_eq!(c.ops.len() as u64, CHUNK / 4, "switch {n}: a fresh window");
        }
        c.insert(fw, addi(7), 0);
        c.insert(kernel, addi(8), 0);
        assert_eq!(
            c.get(fw).map(|o| o.imm),
            Some(7),
            "one window now spans both"
        );
        assert_eq!(c.get(kernel).map(|o| o.imm), Some(8));
    }
}
