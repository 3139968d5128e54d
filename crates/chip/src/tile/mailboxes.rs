//! Mailboxes between RISCV B, T0, T1 and T2 (Mailboxes.md): 16 FIFOs of four words; each
//! writer may have at most four words in flight across its four outgoing mailboxes. A core's
//! write to region `m` goes from it to core `m`; its read of region `m` pops the mailbox from
//! core `m` to it (for `m` = itself, its own loop-back mailbox).
use std::collections::VecDeque;

use bhemu_rv::Access;

pub const MAILBOX_DEPTH: usize = 4;

pub struct Mailboxes {
    /// `q[from][to]`, indices in [`super::Core::mailbox_index`] order.
    q: [[VecDeque<u32>; 4]; 4],
}

impl Default for Mailboxes {
    fn default() -> Self {
        Self::new()
    }
}

impl Mailboxes {
    pub fn new() -> Self {
        Mailboxes {
            q: std::array::from_fn(|_| {
                std::array::from_fn(|_| VecDeque::with_capacity(MAILBOX_DEPTH))
            }),
        }
    }

    /// Core `me` writes region `m`: push unless that mailbox is full or `me` already has four
    /// words in its outgoing mailboxes (then the write waits).
    pub fn write(&mut self, me: usize, m: usize, v: u32) -> Access<()> {
        if self.write_blocked(me, m) {
            return Access::Stall;
        }
        match self.q.get_mut(me).and_then(|out| out.get_mut(m)) {
            Some(f) => {
                f.push_back(v);
                Access::Done(())
            }
            None => Access::Stall,
        }
    }

    /// Core `me`'s write to region `m` would wait: that mailbox is full, or `me` already has
    /// four words in its outgoing mailboxes (or there is no such mailbox).
    pub fn write_blocked(&self, me: usize, m: usize) -> bool {
        let Some(out) = self.q.get(me) else {
            return true;
        };
        let total: usize = out.iter().map(|f| f.len()).sum();
        out.get(m)
            .is_none_or(|f| f.len() >= MAILBOX_DEPTH || total >= MAILBOX_DEPTH)
    }

    /// Core `me`'s blocking pop of region `m` would wait: the mailbox from core `m` to it is
    /// empty (or there is no such mailbox). The "anything there?" read never waits.
    pub fn read_blocked(&self, me: usize, m: usize) -> bool {
        self.q
            .get(m)
            .and_then(|row| row.get(me))
            .is_none_or(|f| f.is_empty())
    }

    /// Core `me` reads region `m` at `off`: `off & 4` asks "anything there?" (0/1); otherwise
    /// a blocking pop.
    pub fn read(&mut self, me: usize, m: usize, off: u32) -> Access<u32> {
        let Some(f) = self.q.get_mut(m).and_then(|row| row.get_mut(me)) else {
            return Access::Stall;
        };
        if off & 4 != 0 {
            return Access::Done(u32::from(!f.is_empty()));
        }
        match f.pop_front() {
            Some(v) => Access::Done(v),
            None => Access::Stall,
        }
    }

    /// Entering soft reset discards the contents of every mailbox the core can write
    /// (SoftReset.md).
    pub fn reset_writer(&mut self, me: usize) {
        if let Some(out) = self.q.get_mut(me) {
            for f in out {
                f.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mailboxes.md: B writes region 1 (B→T0); T0 reads region 0 (B→T0).
    #[test]
    fn routing_and_blocking_pop() {
        let mut m = Mailboxes::new();
        assert_eq!(m.read(1, 0, 4), Access::Done(0));
        assert_eq!(m.read(1, 0, 0), Access::Stall);
        assert_eq!(m.write(0, 1, 42), Access::Done(()));
        assert_eq!(m.read(1, 0, 4), Access::Done(1));
        assert_eq!(m.read(1, 0, 0), Access::Done(42));
    }

    /// The side-effect-free rules a sleeping core asks (tile/stall.rs) give the accesses'
    /// answers: a pop waits on an empty mailbox, a write on a full one or on four words of the
    /// writer in flight (Mailboxes.md).
    #[test]
    fn blocked_rules_agree_with_the_accesses() {
        let mut m = Mailboxes::new();
        assert!(m.read_blocked(1, 0));
        assert_eq!(m.read(1, 0, 0), Access::Stall);
        for v in 0..3 {
            assert!(!m.write_blocked(0, 1));
            assert_eq!(m.write(0, 1, v), Access::Done(()));
        }
        assert!(!m.read_blocked(1, 0));
        assert!(!m.write_blocked(0, 2));
        assert_eq!(m.write(0, 2, 9), Access::Done(()));
        // Four words of B in flight: every write of B waits, whichever mailbox.
        for to in 0..4 {
            assert!(m.write_blocked(0, to));
            assert_eq!(m.write(0, to, 5), Access::Stall);
        }
        assert_eq!(m.read(1, 0, 0), Access::Done(0));
        assert!(!m.write_blocked(0, 3));
        assert!(m.write_blocked(4, 0) && m.read_blocked(0, 4));
    }

    /// Mailboxes.md: at most four words in flight per writer across its mailboxes.
    #[test]
    fn aggregate_limit_per_writer() {
        let mut m = Mailboxes::new();
        for to in 0..4 {
            assert_eq!(m.write(2, to, to as u32), Access::Done(()));
        }
        assert_eq!(m.write(2, 0, 9), Access::Stall);
        m.reset_writer(2);
        assert_eq!(m.write(2, 0, 9), Access::Done(()));
    }
}
