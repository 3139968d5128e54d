//! The Sync Unit (SyncUnit.md): semaphores, mutexes, and its per-cycle issue limits.
//!
//! Throughput (SyncUnit.md table): ATGETM/ATRELM up to three per cycle if they name different
//! mutexes; at most one per cycle of {SEMINIT, SEMPOST, SEMGET, STALLWAIT, SEMWAIT, STREAMWAIT,
//! RISC-V semaphore write}; RISC-V semaphore reads are free. bhemu serves a queued RISC-V
//! write first in a cycle (it then takes that cycle's slot).
use std::collections::VecDeque;

use bhemu_isa::tensix::Arch;

use crate::mutexes::Mutexes;
use crate::semaphores::Semaphores;

#[derive(Clone, Debug)]
pub struct SyncUnit {
    pub sems: Semaphores,
    pub mutexes: Mutexes,
    window_writes: VecDeque<(usize, u32)>,
    group_used_at: Option<u64>,
}

impl SyncUnit {
    pub fn new(arch: Arch) -> Self {
        SyncUnit {
            sems: Semaphores::default(),
            mutexes: Mutexes::new(arch),
            window_writes: VecDeque::new(),
            group_used_at: None,
        }
    }

    /// Is this cycle's semaphore-group slot still free?
    pub fn group_free(&self, cycle: u64) -> bool {
        self.group_used_at != Some(cycle)
    }

    pub fn take_group(&mut self, cycle: u64) {
        self.group_used_at = Some(cycle);
    }

    pub fn queue_window_write(&mut self, index: usize, value: u32) {
        self.window_writes.push_back((index, value));
    }

    pub fn window_writes_pending(&self) -> bool {
        !self.window_writes.is_empty()
    }

    /// At the start of a cycle: apply one queued RISC-V semaphore write, taking the slot.
    pub fn serve_window_write(&mut self, cycle: u64) -> bool {
        match self.window_writes.pop_front() {
            Some((i, v)) => {
                self.sems.window_write(i, v);
                self.take_group(cycle);
                true
            }
            None => false,
        }
    }
}
