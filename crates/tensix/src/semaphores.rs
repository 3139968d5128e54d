//! The eight Tensix semaphores {Value, Max}, 4 bits each (SyncUnit.md).
//!
//! SEMINIT sets Value and Max of the selected semaphores (SEMINIT.md); SEMPOST increments
//! unless Value is 15 (SEMPOST.md: Max plays no part); SEMGET decrements unless Value is 0
//! (SEMGET.md). SEMWAIT's conditions: C0 keep waiting while Value == 0, C1 while Value >= Max
//! (SEMWAIT.md, docs/wait-gate.md).

/// One semaphore.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Semaphore {
    pub value: u8,
    pub max: u8,
}

/// SEMWAIT condition bit C0: STALL_ON_ZERO.
pub const STALL_ON_ZERO: u8 = 1;
/// SEMWAIT condition bit C1: STALL_ON_MAX.
pub const STALL_ON_MAX: u8 = 2;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Semaphores {
    pub sems: [Semaphore; 8],
}

impl Semaphores {
    pub fn init(&mut self, mask: u8, value: u8, max: u8) {
        for (i, s) in self.sems.iter_mut().enumerate() {
            if mask >> i & 1 == 1 {
                s.value = value & 15;
                s.max = max & 15;
            }
        }
    }

    pub fn post(&mut self, mask: u8) {
        for (i, s) in self.sems.iter_mut().enumerate() {
            if mask >> i & 1 == 1 && s.value < 15 {
                s.value += 1;
            }
        }
    }

    pub fn get(&mut self, mask: u8) {
        for (i, s) in self.sems.iter_mut().enumerate() {
            if mask >> i & 1 == 1 && s.value > 0 {
                s.value -= 1;
            }
        }
    }

    /// SEMWAIT: true while any selected semaphore meets a selected keep-waiting condition.
    pub fn keep_waiting(&self, mask: u8, cond: u8) -> bool {
        self.sems.iter().enumerate().any(|(i, s)| {
            mask >> i & 1 == 1
                && ((cond & STALL_ON_ZERO != 0 && s.value == 0)
                    || (cond & STALL_ON_MAX != 0 && s.value >= s.max))
        })
    }

    /// A RISC-V store to `SemaphoreAccess[i]` (SyncUnit.md "RISCV access to semaphores"): an
    /// odd value acts like SEMGET (decrement unless 0), an even value like SEMPOST (increment
    /// unless 15).
    pub fn window_write(&mut self, index: usize, value: u32) {
        if index < 8 {
            if value & 1 == 1 {
                self.get(1 << index);
            } else {
                self.post(1 << index);
            }
        }
    }
}
