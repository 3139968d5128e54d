//! Decoded-instruction cache: one compact [`Op`] per instruction word of a window of the address
//! space, so the hot loop decodes each instruction once (docs/execution-model.md). The window grows in
//! 4 KiB chunks around the code actually executed and is capped, beyond which instructions are
//! decoded on every execution (correct, only slower). Entries are invalidated by the hart's own
//! stores, by `fence.i` and by [`crate::Hart::invalidate_code`].
//!
//! A window is either the hart's own, filled one instruction at a time as it first runs, or
//! one it shares with other harts through a [`CodeLibrary`]: every word decoded at once from
//! the words the bus read for the whole window (see `crate::code_library`). A shared window is
//! never written: an invalidation that reaches it drops it (the next fetch adopts the window
//! of the memory's new words), and a store of the hart's own into it first makes a copy of its
//! own (a hart that writes near its code keeps writing there).
use std::sync::Arc;

use crate::block::Blocks;
use crate::bus::Bus;
use crate::code_library::CodeLibrary;
use crate::op::{Kind, Op, EMPTY};

const CHUNK: u64 = 4096;
/// Largest code window cached (4 MiB of code = 8 MiB of ops); L1 is 1.5 MiB.
const MAX_WINDOW: u64 = 4 << 20;
/// Widest gap between the window and a new chunk that the window grows over: one chunk. Code
/// farther away (a kernel's text, 100 KiB and more above the firmware's) starts a new window
/// instead: filling the gap with empty slots cost every hart over half a MiB of written
/// memory, which on 140 tiles was the largest single cost of a kernel launch (page faults and
/// memset). Not more than one chunk: BRISC starts at address 0 (the jump the host writes
/// there) and goes on to its firmware 8 KiB above, and a window grown over both holds the
/// mailboxes between, which tt-metal fills differently on every tile — no two tiles' windows
/// were then alike, each decoded its own (140 × 20 KiB of code, and again after every write
/// there), and none shared the firmware's (docs/execution-model.md EM-27).
const MAX_GAP: u64 = CHUNK;
/// Fresh windows a hart may start before its window grows over gaps after all: code that keeps
/// going back and forth between two far regions then pays for the gap once instead of
/// decoding again at every switch.
const MAX_RESTARTS: u32 = 64;
/// Shared windows a hart may drop on invalidations before it keeps windows of its own: code
/// that keeps changing under the hart (a loader writing it piece by piece) then costs one
/// slot per change again, not one window.
const MAX_DROPS: u32 = 64;

/// Largest window read through the reused buffer (1 MiB of words); a wider one, rare, gets a
/// buffer of its own, so that no host thread keeps more than this after the simulation.
const MAX_SCRATCH_WORDS: usize = 256 << 10;

thread_local! {
    /// [`DecodeCache::adopt`]'s buffer for the words of a window, reused across adoptions.
    static ADOPT_SCRATCH: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[derive(Default)]
pub(crate) struct DecodeCache {
    pub base: u32,
    pub ops: Arc<[Op]>,
    /// The raw words, read only on traps and traces (kept apart so the hot vector stays dense).
    words: Arc<[u32]>,
    /// Fresh windows started for far code so far (see [`MAX_RESTARTS`]).
    restarts: u32,
    /// `ops` and `words` are a library window other harts may hold (never written in place).
    shared: bool,
    /// Shared windows dropped on invalidation so far (see [`MAX_DROPS`]).
    drops: u32,
    /// Basic blocks built from `ops`, dropped whenever a decoded slot changes.
    pub blocks: Blocks,
}

/// `v` as a slice the cache may write: copied first when another holder shares it.
fn own<T: Copy>(v: &mut Arc<[T]>) -> &mut [T] {
    if Arc::get_mut(v).is_none() {
        *v = Arc::from(&v[..]);
    }
    Arc::get_mut(v).map_or(&mut [], |s| &mut s[..])
}

impl DecodeCache {
    pub fn new() -> Self {
        Self::default()
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

    /// Makes the window the hart's own (copying a shared one) before a write to it.
    fn make_own(&mut self) -> (&mut [Op], &mut [u32]) {
        self.shared = false;
        (own(&mut self.ops), own(&mut self.words))
    }

    /// Caches `op` (lowered from `word`) at `pc`, growing the window when allowed.
    pub fn insert(&mut self, pc: u32, op: Op, word: u32) {
        if !self.covers(pc) && !self.grow(pc) {
            return;
        }
        let i = self.index(pc);
        let was = self.ops.get(i).copied();
        if was.is_some_and(|o| o.kind != Kind::Empty && o != op) {
            self.blocks.reset();
        }
        let (ops, words) = self.make_own();
        if let (Some(o), Some(w)) = (ops.get_mut(i), words.get_mut(i)) {
            *o = op;
            *w = word;
        }
    }

    pub fn covers(&self, addr: u32) -> bool {
        (addr.wrapping_sub(self.base) as usize) < self.ops.len() * 4
    }

    /// The window that covering `pc` takes — `[lo, hi)` and whether it is a fresh start far
    /// from the current one — or `None` beyond [`MAX_WINDOW`].
    fn span(&self, pc: u32) -> Option<(u64, u64, bool)> {
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
            (chunk_lo, chunk_lo + CHUNK)
        } else {
            (old_lo.min(chunk_lo), old_hi.max(chunk_lo + CHUNK))
        };
        (hi - lo <= MAX_WINDOW).then_some((lo, hi, restart))
    }

    /// Covers `pc` with a window from `library`: the one holding exactly the words `bus` reads
    /// for the whole span (see `crate::code_library`). False, changing nothing, when the bus
    /// cannot read the span at once or this hart gave up sharing.
    pub fn adopt<B: Bus>(&mut self, pc: u32, library: &CodeLibrary, bus: &mut B) -> bool {
        if self.drops >= MAX_DROPS {
            return false;
        }
        let Some((lo, hi, restart)) = self.span(pc) else {
            return false;
        };
        // The words are only compared with (or copied into) the library's windows: read them
        // into this host thread's scratch buffer rather than a fresh zeroed vector each time.
        let len = ((hi - lo) / 4) as usize;
        let mut read = |words: &mut [u32]| {
            bus.fetch_block(lo as u32, words)
                .then(|| library.window(lo as u32, words))
        };
        let w = if len <= MAX_SCRATCH_WORDS {
            ADOPT_SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
                Ok(mut words) => {
                    if words.len() < len {
                        words.resize(len, 0);
                    }
                    read(&mut words[..len])
                }
                // Never nested today; a fresh buffer if it ever is.
                Err(_) => read(&mut vec![0u32; len]),
            })
        } else {
            read(&mut vec![0u32; len])
        };
        let Some(w) = w else {
            return false;
        };
        self.restarts += u32::from(restart);
        self.base = lo as u32;
        self.ops = w.ops;
        self.words = w.words;
        self.shared = true;
        self.blocks.reset();
        true
    }

    fn grow(&mut self, pc: u32) -> bool {
        let Some((lo, hi, restart)) = self.span(pc) else {
            return false;
        };
        let len = ((hi - lo) / 4) as usize;
        let mut ops = vec![EMPTY; len];
        let mut words = vec![0; len];
        if restart {
            // A fresh window: what the old one held is decoded again when it runs again.
            self.restarts += 1;
        } else {
            let shift = ((u64::from(self.base).saturating_sub(lo)) / 4) as usize;
            if let (Some(dst_o), Some(dst_w)) = (
                ops.get_mut(shift..shift + self.ops.len()),
                words.get_mut(shift..shift + self.words.len()),
            ) {
                dst_o.copy_from_slice(&self.ops);
                dst_w.copy_from_slice(&self.words);
            }
        }
        self.base = lo as u32;
        self.ops = ops.into();
        self.words = words.into();
        self.shared = false;
        self.blocks.reset();
        true
    }

    /// Gives up a shared window that an invalidation reached: the next fetch adopts the window
    /// of the memory's new words.
    fn drop_shared(&mut self) {
        self.ops = Arc::default();
        self.words = Arc::default();
        self.shared = false;
        self.drops += 1;
        self.blocks.reset();
    }

    /// A store of at most 4 bytes at the aligned-down word `addr`: cheap when outside the window.
    #[inline(always)]
    pub fn invalidate_word(&mut self, addr: u32) {
        let i = self.index(addr);
        if self.ops.get(i).is_some_and(|o| o.kind != Kind::Empty) {
            self.empty_slot(i);
        }
    }

    /// A store of the hart's own over a decoded slot (out of line: rare).
    #[cold]
    #[inline(never)]
    fn empty_slot(&mut self, i: usize) {
        let (ops, _) = self.make_own();
        if let Some(o) = ops.get_mut(i) {
            o.kind = Kind::Empty;
        }
        self.blocks.reset();
    }

    /// The part `[lo, hi)` of `addr..addr+len` (from its aligned-down word) inside the window,
    /// if any.
    fn within_window(&self, addr: u32, len: u32) -> Option<(u64, u64)> {
        if len == 0 || self.ops.is_empty() {
            return None;
        }
        let base = u64::from(self.base);
        let end = base + self.ops.len() as u64 * 4;
        let lo = (u64::from(addr) & !3).max(base);
        let hi = (u64::from(addr) + u64::from(len)).min(end);
        (lo < hi).then_some((lo, hi))
    }

    /// Whether [`DecodeCache::invalidate`] of `addr..addr+len` would touch this cache: the
    /// range meets its window.
    pub fn overlaps(&self, addr: u32, len: u32) -> bool {
        self.within_window(addr, len).is_some()
    }

    pub fn invalidate(&mut self, addr: u32, len: u32) {
        let Some((lo, hi)) = self.within_window(addr, len) else {
            return;
        };
        let base = u64::from(self.base);
        if self.shared {
            self.drop_shared();
            return;
        }
        let (ops, _) = self.make_own();
        let mut a = lo;
        let mut hit = false;
        while a < hi {
            if let Some(o) = ops.get_mut(((a - base) / 4) as usize) {
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
        if self.shared {
            self.drop_shared();
            return;
        }
        let (ops, _) = self.make_own();
        for o in ops {
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

    /// BRISC's first instruction at address 0, then its firmware two chunks above (tt-metal's
    /// layout): the firmware gets a window of its own, without the chunks between; code one
    /// chunk past the window's end still joins it.
    #[test]
    fn a_gap_wider_than_one_chunk_starts_a_new_window() {
        let mut c = DecodeCache::new();
        c.insert(0, addi(1), 0);
        c.insert(0x3000, addi(2), 0);
        assert_eq!(c.base, 0x3000, "a fresh window at the firmware");
        assert_eq!(c.ops.len() as u64, CHUNK / 4);
        assert_eq!(c.get(0), None, "address 0 left to its own window");
        c.insert(0x5000, addi(3), 0);
        assert_eq!(
            (c.base, c.ops.len() as u64),
            (0x3000, 3 * CHUNK / 4),
            "a one-chunk gap is grown over"
        );
        assert_eq!(c.get(0x3000).map(|o| o.imm), Some(2));
        assert_eq!(c.get(0x5000).map(|o| o.imm), Some(3));
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
