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

    /// Slot `i` of the ring for `i` below twice the capacity (head plus a length at most the
    /// capacity): a compare, where `%` by the run-time capacity is a division on every push
    /// and pop.
    #[inline(always)]
    fn wrap(&self, i: usize) -> usize {
        let cap = self.slots.len();
        if i >= cap {
            i - cap
        } else {
            i
        }
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
        let tail = self.wrap(self.head + self.len);
        self.slots[tail] = Some(insn);
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
        self.head = self.wrap(self.head + 1);
        self.len -= 1;
        v
    }

    /// Every queued instruction, oldest first (for qstatus and mop_sync).
    pub fn iter(&self) -> impl Iterator<Item = &Insn> + '_ {
        (0..self.len).filter_map(move |i| self.slots[self.wrap(self.head + i)].as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A word standing for instruction `k` (only the word tells instructions apart here).
    fn nth(k: u32) -> Insn {
        let mut i = Insn::nop(bhemu_isa::tensix::Arch::Blackhole);
        i.word = k;
        i
    }

    /// The ring is a first-in first-out queue of its capacity across every wrap-around:
    /// random pushes and pops against a `VecDeque` bounded by hand, at capacities 1, 3 and 32.
    #[test]
    fn the_ring_keeps_order_and_capacity_across_wraparound() {
        let mut next = crate::testing::xorshift(0x0123_4567_89ab_cdef);
        for cap in [1, 3, FIFO_SLOTS] {
            let mut f = Fifo::new(cap);
            let mut model: VecDeque<u32> = VecDeque::new();
            for k in 0..10_000u32 {
                if next().is_multiple_of(2) {
                    let want = if model.len() < cap {
                        model.push_back(k);
                        Pushed::Accepted
                    } else {
                        Pushed::Full
                    };
                    assert_eq!(f.push(nth(k)), want, "capacity {cap}, push {k}");
                } else {
                    assert_eq!(f.pop().map(|i| i.word), model.pop_front(), "capacity {cap}");
                }
                assert_eq!(f.len(), model.len());
                assert_eq!(f.peek().map(|i| i.word), model.front().copied());
                let queued: Vec<u32> = f.iter().map(|i| i.word).collect();
                assert_eq!(queued, Vec::from(model.clone()), "capacity {cap}");
            }
        }
    }
}
