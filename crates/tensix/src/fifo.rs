//! The per-thread instruction FIFO in front of the MOP expander (docs/mop-replay.md: 32 slots).
//!
//! README.md (Frontend): once the FIFOs are full, "a RISCV core attempting to push an
//! additional instruction will automatically stall until FIFO space becomes available" — so a
//! push answers `Full` and the pusher retries next cycle.
use crate::insn::Insn;

/// Capacity of the instruction FIFO (docs/mop-replay.md diagram: "Instruction FIFO, 32 slots").
pub const FIFO_SLOTS: usize = 32;

/// The answer to a push.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    Accepted,
    /// No space: the pushing core stalls and retries (docs/execution-model.md EM-3: back-pressure is a value).
    Full,
}

/// A fixed-capacity ring of pre-decoded instructions; no allocation after construction.
#[derive(Clone, Debug)]
pub struct Fifo {
    slots: Vec<Option<Insn>>,
    head: usize,
    len: usize,
}

impl Fifo {
    pub fn new(capacity: usize) -> Self {
        Fifo {
            slots: vec![None; capacity.max(1)],
            head: 0,
            len: 0,
        }
    }

    /// Discards every queued instruction (a TRISC entering soft reset, SoftReset.md).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.head = 0;
        self.len = 0;
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len == self.slots.len()
    }

    pub fn push(&mut self, insn: Insn) -> Pushed {
        if self.is_full() {
            return Pushed::Full;
        }
        let cap = self.slots.len();
        self.slots[(self.head + self.len) % cap] = Some(insn);
        self.len += 1;
        Pushed::Accepted
    }

    pub fn peek(&self) -> Option<&Insn> {
        if self.len == 0 {
            None
        } else {
            self.slots[self.head].as_ref()
        }
    }

    pub fn pop(&mut self) -> Option<Insn> {
        if self.len == 0 {
            return None;
        }
        let v = self.slots[self.head].take();
        self.head = (self.head + 1) % self.slots.len();
        self.len -= 1;
        v
    }

    /// Every queued instruction, oldest first (for qstatus and mop_sync).
    pub fn iter(&self) -> impl Iterator<Item = &Insn> + '_ {
        let cap = self.slots.len();
        (0..self.len).filter_map(move |i| self.slots[(self.head + i) % cap].as_ref())
    }
}
