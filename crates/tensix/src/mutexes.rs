//! The Sync Unit's mutexes (docs/mutexes.md, ATGETM.md, ATRELM.md).
//!
//! Blackhole has indices 0, 2, 3, 4; Wormhole 0, 2-7; index 1 and anything beyond are invalid
//! and make the issuing thread wait forever (bhemu reports that as a hang). Acquire is
//! re-entrant; release by a non-owner has no effect; when thread i releases a mutex that both
//! other threads are waiting for, thread (i + 1) % 3 acquires it.
//!
//! Not modelled: the "maybe wait a cycle or two" of re-entrant acquire / release under
//! contention (ATGETM.md) — nondeterministic in the documentation, zero cycles in bhemu.
use bhemu_isa::tensix::Arch;

/// Number of mutex slots kept (indices 0..=7; which are valid depends on the architecture).
pub const MUTEX_SLOTS: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutexes {
    arch: Arch,
    held_by: [Option<u8>; MUTEX_SLOTS],
    /// The thread that last released each mutex (for the (i + 1) % 3 hand-over).
    released_by: [Option<u8>; MUTEX_SLOTS],
}

impl Mutexes {
    pub fn new(arch: Arch) -> Self {
        Mutexes {
            arch,
            held_by: [None; MUTEX_SLOTS],
            released_by: [None; MUTEX_SLOTS],
        }
    }

    /// Valid indices (docs/mutexes.md): Blackhole 0, 2, 3, 4; Wormhole 0, 2..=7.
    pub fn valid(&self, index: u32) -> bool {
        match self.arch {
            Arch::Blackhole => matches!(index, 0 | 2 | 3 | 4),
            Arch::WormholeB0 => index == 0 || (2..=7).contains(&index),
        }
    }

    /// The valid indices of this architecture, ascending.
    pub fn indices(&self) -> Vec<u32> {
        (0..MUTEX_SLOTS as u32).filter(|&i| self.valid(i)).collect()
    }

    pub fn holder(&self, index: u32) -> Option<u8> {
        if self.valid(index) {
            self.held_by[index as usize]
        } else {
            None
        }
    }

    /// Could `thread` acquire now: free, or already its own (re-entrant).
    pub fn available_to(&self, index: u32, thread: u8) -> bool {
        self.valid(index) && !matches!(self.held_by[index as usize], Some(h) if h != thread)
    }

    /// Among `contenders` (threads presenting ATGETM for a free mutex this cycle), who wins:
    /// after a release by i, (i + 1) % 3 first, then (i + 2) % 3 (ATRELM.md fairness);
    /// otherwise the lowest-numbered thread.
    pub fn pick_winner(&self, index: u32, contenders: &[u8]) -> Option<u8> {
        if contenders.is_empty() || !self.valid(index) {
            return None;
        }
        if let Some(i) = self.released_by[index as usize] {
            for k in 1..=3u8 {
                let t = (i + k) % 3;
                if contenders.contains(&t) {
                    return Some(t);
                }
            }
        }
        contenders.iter().copied().min()
    }

    pub fn acquire(&mut self, index: u32, thread: u8) {
        if self.valid(index) {
            self.held_by[index as usize] = Some(thread);
        }
    }

    /// ATRELM: releases only if `thread` holds it; otherwise no effect (ATRELM.md).
    pub fn release(&mut self, index: u32, thread: u8) {
        if self.valid(index) && self.held_by[index as usize] == Some(thread) {
            self.held_by[index as usize] = None;
            self.released_by[index as usize] = Some(thread);
        }
    }
}
