//! Basic blocks of private instructions, for running a hart ahead of the chip's clock.
//!
//! Why: a hart that runs ahead ([`crate::Hart::run_private`]) executes long stretches of
//! register-only code — a kernel's compute loop, a delay loop. Interpreting them one cached op
//! at a time pays, per instruction, a window lookup, a validity and a "private?" check, a pc
//! update, a budget check and the op's result travelling back as a `Flow`. A block is the
//! straight-line run of ALU ops up to the next control transfer, checked once when it is built:
//! its body then executes handler to handler ([`run_body`]) over ops that cannot fail, the
//! control op that ends it (a branch or jump) once per pass, and a loop whose branch returns to
//! the block's own start goes round without leaving it. On the 140-tile spin workload (a
//! 7-instruction loop) that took a run-ahead instruction from ≈ 2.6 to ≈ 1.2 ns of host time.
//!
//! Blocks are derived from the decode cache and live in it ([`crate::cache::DecodeCache`]):
//! any change to a decoded slot (a store over code, `fence.i`, `Hart::invalidate_code`, the
//! window moving) drops them all, so a block never outlives the ops it was built from. A
//! block that stopped before a slot not decoded yet stays as it is; once that slot is decoded,
//! the run goes on from it with the block built there.
//!
//! The chip's fast schedule states this as docs/execution-model.md EM-18 (run-ahead itself:
//! EM-17); its tests are `em18_…` in `crates/rv/tests/run_blocks.rs`.
use crate::exec::value;
use crate::op::{Kind, Op, EMPTY};

/// One block: `len` body ops starting at `body` in the arena, all straight-line private ops
/// (ALU, `lui`/`auipc`, `fence`), for the instructions at `start .. end`; then the op at `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Block {
    /// What the instruction at `end` is when the block is built: a private control op (branch,
    /// `jal`, `jalr`) executed as the block's last instruction, or an op of kind `Empty` when
    /// it is anything else — a straight op after a body split at [`MAX_BODY`], an op that is
    /// not private, or one not decoded yet: the run then goes on with the block at `end` if
    /// there is one, else stops before it.
    pub term: Op,
    /// The pc of its first instruction.
    pub start: u32,
    pub body: u32,
    pub len: u32,
    /// The pc of the instruction after the body.
    pub end: u32,
    /// The block the run last went on to, and its pc (0: none yet): a loop's next pass, or
    /// the code after it, found without a lookup. Valid as long as this block is (a reset
    /// drops both).
    pub succ_pc: u32,
    pub succ: u32,
}

impl Block {
    /// Instructions a whole pass retires: the body and the control op, if any.
    #[inline(always)]
    pub fn whole(&self) -> u64 {
        u64::from(self.len) + u64::from(self.term.kind != Kind::Empty)
    }
}

/// Longest body: a longer straight run is split into blocks of this length, each ending with
/// no control op (the run goes on with the next block).
pub(crate) const MAX_BODY: usize = 64;

/// Entries of [`Blocks`]' index: a hart's hot code is a few loops, and a fixed index costs
/// nothing to set up — one slot per instruction of the decode window, 140 tiles x 5 harts
/// over, was measured to slow the firmware boot (memory to allocate and clear at each reset).
const INDEX: usize = 256;

/// Blocks by the pc of their first instruction: built on first use, found again through a
/// small direct-mapped index (a collision just builds the block again).
#[derive(Default)]
pub(crate) struct Blocks {
    /// By (first instruction's slot mod [`INDEX`]): 0, or 1 + the block's index in `list`.
    index: Vec<u32>,
    list: Vec<Block>,
    /// The body ops of every block, back to back; `list` and `arena` only grow until a reset.
    arena: Vec<Op>,
}

impl Blocks {
    /// Drops every block. Out of line: it is rare, and inlined into the store path of the
    /// executor it cost every hart step a few instructions (measured with callgrind).
    #[cold]
    #[inline(never)]
    pub fn reset(&mut self) {
        if !self.list.is_empty() {
            self.index.fill(0);
            self.list.clear();
            self.arena.clear();
        }
    }

    /// The id of the block starting at window slot `slot` (pc `pc`), built from `ops` (the
    /// window) if there is none yet. `None` when the op at `slot` is not private or not
    /// decoded. A block that stopped before a slot not decoded yet stays as it is: the run
    /// goes on with the block at its end, built once that slot is decoded.
    #[inline]
    pub fn id(&mut self, ops: &[Op], slot: usize, pc: u32) -> Option<u32> {
        let id = self.index.get(slot % INDEX).copied().unwrap_or(0);
        match self.at(id) {
            Some(b) if b.start == pc => Some(id),
            _ => self.build(ops, slot, pc),
        }
    }

    /// Block `id`.
    #[inline(always)]
    pub fn at(&self, id: u32) -> Option<&Block> {
        self.list.get((id as usize).wrapping_sub(1))
    }

    /// Records that the run went on from block `id` to block `next`, which starts at `pc`.
    #[inline]
    pub fn link(&mut self, id: u32, pc: u32, next: u32) {
        if let Some(b) = self.list.get_mut((id as usize).wrapping_sub(1)) {
            b.succ_pc = pc;
            b.succ = next;
        }
    }

    /// Builds the block at `slot` and returns its id (1 + its index in `list`).
    #[cold]
    fn build(&mut self, ops: &[Op], slot: usize, pc: u32) -> Option<u32> {
        let first = ops.get(slot)?;
        if !first.kind.is_private() {
            return None;
        }
        // Blocks displaced from the index stay in the arena until the next reset; keep them
        // bounded.
        if self.arena.len() > 4 * ops.len() + 1024 {
            self.reset();
        }
        if self.index.is_empty() {
            self.index = vec![0; INDEX];
        }
        let rest = ops.get(slot..)?;
        let len = rest
            .iter()
            .take(MAX_BODY)
            .take_while(|o| o.kind.is_straight())
            .count();
        let term = rest
            .get(len)
            .copied()
            .filter(|o| o.kind.is_control())
            .unwrap_or(EMPTY);
        let b = Block {
            start: pc,
            body: self.arena.len() as u32,
            len: len as u32,
            end: pc.wrapping_add(4 * len as u32),
            term,
            succ_pc: 0,
            succ: 0,
        };
        self.arena.extend_from_slice(rest.get(..len).unwrap_or(&[]));
        self.list.push(b);
        let id = self.list.len() as u32;
        if let Some(i) = self.index.get_mut(slot % INDEX) {
            *i = id;
        }
        Some(id)
    }

    /// The body ops of `b`.
    #[inline(always)]
    pub fn body(&self, b: &Block) -> &[Op] {
        let lo = b.body as usize;
        self.arena.get(lo..lo + b.len as usize).unwrap_or(&[])
    }
}

/// Executes `body` (straight-line private ops) on the register file `x`.
///
/// Each op's handler ends by jumping to the next op's handler (a call in tail position, which
/// the compiler turns into a jump; were it not, the depth is at most [`MAX_BODY`]), so every
/// handler has its own indirect jump and the host's branch predictor learns what follows each
/// kind of op — one shared dispatch point mispredicts far more. Measured on the spin workload.
#[inline(always)]
pub(crate) fn run_body(x: &mut [u32; 64], body: &[Op]) {
    if let Some(first) = body.first() {
        handler(first.kind)(x, body);
    }
}

type Handler = fn(&mut [u32; 64], &[Op]);

#[inline(always)]
fn handler(k: Kind) -> Handler {
    HANDLERS.get(k as usize).copied().unwrap_or(nothing)
}

/// Executes `ops[0]`, whose kind is `K`, then hands the rest to the next op's handler.
fn run_op<const K: u8>(x: &mut [u32; 64], ops: &[Op]) {
    let Some((op, rest)) = ops.split_first() else {
        return;
    };
    let kind = KINDS.get(usize::from(K)).copied().unwrap_or(Kind::Empty);
    let v = value(
        kind,
        x[usize::from(op.rs1) & 63],
        x[usize::from(op.rs2) & 63],
        op.imm,
    );
    x[usize::from(op.rd) & 63] = v;
    if let Some(next) = rest.first() {
        handler(next.kind)(x, rest)
    }
}

/// The handler of kinds that never appear in a body.
fn nothing(_: &mut [u32; 64], _: &[Op]) {}

const N: usize = Kind::Illegal as usize + 1;

macro_rules! straight_kinds {
    ($($k:ident),* $(,)?) => {
        /// Each straight kind at its own discriminant (others read as `Empty`).
        const KINDS: [Kind; N] = {
            let mut t = [Kind::Empty; N];
            $(t[Kind::$k as usize] = Kind::$k;)*
            t
        };
        const HANDLERS: [Handler; N] = {
            let mut t = [nothing as Handler; N];
            $(t[Kind::$k as usize] = run_op::<{ Kind::$k as u8 }>;)*
            t
        };
        /// Every kind listed here is straight, and every straight kind is listed.
        #[cfg(test)]
        const LISTED: &[Kind] = &[$(Kind::$k),*];
    };
}

straight_kinds!(
    Li, Addi, Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai, Rori, Grevi, Add, Sub, Sll, Slt,
    Sltu, Xor, Srl, Sra, Or, And, Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu, Sh1add, Sh2add,
    Sh3add, Andn, Orn, Xnor, Max, Maxu, Min, Minu, Rol, Ror, Pack, Clz, Ctz, Cpop, SextB, SextH,
    OrcB, Fence,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// A block's body is exactly the private ops that fall through — ALU, `lui`/`auipc`,
    /// `fence` — and each of them has the handler of its own kind; nothing else has one.
    #[test]
    fn straight_kinds_are_the_private_ones_that_fall_through() {
        for &k in LISTED {
            assert!(k.is_straight(), "{k:?}");
            assert_eq!(KINDS[k as usize], k);
            assert_ne!(
                HANDLERS[k as usize] as usize, nothing as Handler as usize,
                "{k:?}"
            );
        }
        // The private kinds are 58 (cache's test lists them): 8 branches and jumps, the rest
        // straight.
        let control = [
            Kind::Jal,
            Kind::Jalr,
            Kind::Beq,
            Kind::Bne,
            Kind::Blt,
            Kind::Bge,
            Kind::Bltu,
            Kind::Bgeu,
        ];
        assert!(control.iter().all(|k| k.is_private() && k.is_control()));
        assert_eq!(LISTED.len() + control.len(), 58);
        let handled = HANDLERS
            .iter()
            .filter(|h| **h as usize != nothing as Handler as usize)
            .count();
        assert_eq!(handled, LISTED.len());
        assert!(!Kind::Lw.is_straight() && !Kind::Lw.is_control());
        assert!(!Kind::Empty.is_straight());
    }
}
