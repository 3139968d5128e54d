//! Cross-core semaphores of the cluster: A5 `set_intra_block` / `wait_intra_core` and A2/A3
//! `set_cross_core` / `wait_flag_dev`.
//!
//! Every core has 32 counter slots. On a vector subblock slot `id` (0–15) counts the cube's
//! signals with that id. On the cube, slots 0–15 count AIV0's signals and slots 16–31 AIV1's, so
//! the same layout serves both profiles:
//! - A5 (set-intra-block.md, wait-intra-core.md): 1:1, no broadcast. The cube's id 0–15 targets
//!   AIV0, 16–31 AIV1 ("IDs 0–15 target AIV0; IDs 16–31 target AIV1"). A subblock signals the cube
//!   with its own id 0–15 and the hardware adds 16 for AIV1 (set-intra-block.md "V→C" example:
//!   both subblocks set id 0, the cube waits on 0 and 16; crates/pto/README.md). A waiting subblock names
//!   its own slot in the 32-id space (wait-intra-core.md example: AIV0 waits 0, AIV1 waits 16).
//!   The wait decrements (wait-intra-core.md "Decrements the semaphore counter when the event is
//!   signaled").
//! - A2/A3 (set-cross-core.md, wait-flag-dev.md), mode2: one `set_cross_core` from the cube
//!   increments the semaphore of both subblocks ("C→V broadcast"); the cube's `wait_flag_dev`
//!   unblocks only when both subblocks have signalled and consumes one signal of each ("V→C
//!   reduce"). The docs also say the wait "unblocks when the counter reaches zero"; bhemu follows
//!   the reading: a wait needs a non-zero count and decrements it, which is what makes the
//!   docs' handshake examples balance.
//! - Counters are 4 bits (set-cross-core.md "4-bit counter (0–15)", "Illegal if the hardware
//!   counter would overflow").
use crate::events::Counter;
use crate::pipes::CoreId;

const SLOTS: usize = 32;

#[derive(Debug, Clone)]
pub struct Semaphores {
    slots: [[Counter; SLOTS]; 3],
    /// Name aiv1's slots in A5's 32-id numbering (16–31).
    a5: bool,
}

impl Default for Semaphores {
    fn default() -> Self {
        Semaphores {
            slots: [[Counter::default(); SLOTS]; 3],
            a5: false,
        }
    }
}

/// Which slot of which core a signal or a wait touches.
type Slot = (CoreId, usize);

fn slot_name(a5: bool, (core, slot): Slot) -> String {
    match core {
        CoreId::Aiv1 if a5 => format!("aiv1 semaphore {}", slot + 16),
        CoreId::Aic if slot >= 16 => {
            format!("aic semaphore {slot} (from aiv1, its id {})", slot - 16)
        }
        CoreId::Aic => format!("aic semaphore {slot} (from aiv0)"),
        c => format!("{c} semaphore {slot}"),
    }
}

impl Semaphores {
    /// The semaphores of a cluster on `profile`.
    pub fn for_profile(profile: crate::profile::Profile) -> Self {
        Semaphores {
            a5: profile == crate::profile::Profile::A5,
            ..Default::default()
        }
    }

    fn counter(&mut self, (core, slot): Slot) -> Option<&mut Counter> {
        self.slots
            .get_mut(core.index())
            .and_then(|s| s.get_mut(slot))
    }

    fn count(&self, (core, slot): Slot) -> u8 {
        self.slots
            .get(core.index())
            .and_then(|s| s.get(slot))
            .map_or(0, |c| c.count)
    }

    fn raise_all(&mut self, targets: &[Slot], line: usize) -> Result<(), String> {
        for &t in targets {
            if self.count(t) >= crate::profile::COUNTER_MAX {
                return Err(format!(
                    "{} already counts {}; one more signal would overflow its 4-bit counter past 15",
                    slot_name(self.a5, t),
                    self.count(t)
                ));
            }
        }
        for &t in targets {
            if let Some(c) = self.counter(t) {
                let _ = c.raise(line);
            }
        }
        Ok(())
    }

    fn take_all(&mut self, needs: &[Slot]) -> bool {
        if needs.iter().any(|&s| self.count(s) == 0) {
            return false;
        }
        for &s in needs {
            if let Some(c) = self.counter(s) {
                c.take();
            }
        }
        true
    }

    fn describe(&self, needs: &[Slot]) -> String {
        needs
            .iter()
            .map(|&s| format!("{} = {}", slot_name(self.a5, s), self.count(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A5 targets of `set_intra_block id` issued on `from` (id already range-checked).
    fn intra_targets(from: CoreId, id: u8) -> Vec<Slot> {
        let id = usize::from(id);
        match from.subblock() {
            None if id < 16 => vec![(CoreId::Aiv0, id)],
            None => vec![(CoreId::Aiv1, id - 16)],
            Some(k) => vec![(CoreId::Aic, 16 * usize::from(k) + id % 16)],
        }
    }

    /// A5 slot waited on by `wait_intra_core id` on `on`.
    fn intra_wait(on: CoreId, id: u8) -> Vec<Slot> {
        let id = usize::from(id);
        match on {
            CoreId::Aic => vec![(CoreId::Aic, id)],
            c => vec![(c, id % 16)],
        }
    }

    /// A2/A3 targets of `set_cross_core id` issued on `from`.
    fn cross_targets(from: CoreId, id: u8) -> Vec<Slot> {
        let id = usize::from(id);
        match from.subblock() {
            None => vec![(CoreId::Aiv0, id), (CoreId::Aiv1, id)],
            Some(k) => vec![(CoreId::Aic, 16 * usize::from(k) + id)],
        }
    }

    /// A2/A3 slots a `wait_flag_dev id` on `on` needs: both subblocks' for the cube (reduce).
    fn dev_wait(on: CoreId, id: u8) -> Vec<Slot> {
        let id = usize::from(id);
        match on {
            CoreId::Aic => vec![(CoreId::Aic, id), (CoreId::Aic, 16 + id)],
            c => vec![(c, id)],
        }
    }

    pub fn set_intra_block(&mut self, from: CoreId, id: u8, line: usize) -> Result<(), String> {
        self.raise_all(&Self::intra_targets(from, id), line)
    }

    pub fn try_wait_intra_core(&mut self, on: CoreId, id: u8) -> Result<(), String> {
        let needs = Self::intra_wait(on, id);
        if self.take_all(&needs) {
            Ok(())
        } else {
            Err(self.describe(&needs))
        }
    }

    pub fn set_cross_core(&mut self, from: CoreId, id: u8, line: usize) -> Result<(), String> {
        self.raise_all(&Self::cross_targets(from, id), line)
    }

    pub fn try_wait_flag_dev(&mut self, on: CoreId, id: u8) -> Result<(), String> {
        let needs = Self::dev_wait(on, id);
        if self.take_all(&needs) {
            Ok(())
        } else {
            Err(self.describe(&needs))
        }
    }

    /// Semaphores still counting at the end: (core, slot name, counter).
    pub fn leftovers(&self) -> Vec<(CoreId, String, Counter)> {
        let mut v = Vec::new();
        for core in CoreId::ALL {
            for (slot, c) in self.slots[core.index()].iter().enumerate() {
                if c.count > 0 {
                    v.push((core, slot_name(self.a5, (core, slot)), *c));
                }
            }
        }
        v
    }
}
