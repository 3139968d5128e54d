//! PC buffers from RISCV B to each TRISC (PCBufs.md) and the TTSync checks that share their
//! window (ManualTTSync.md). The blocking behaviours are stalls of the issuing hart, decided
//! from the FIFO, the override bits of `RISCV_DEBUG_REG_TRISC_PC_BUF_OVERRIDE` and the
//! coprocessor state the caller passes in.
use std::collections::VecDeque;

use bhemu_rv::Access;

/// Values a PCBuf FIFO holds; further writes stall RISCV B (bhemu folds the shared overflow
/// buffers of PCBufs.md into the stall).
pub const PC_BUF_DEPTH: usize = 16;

/// The override fields of one PCBuf (PCBufs.md "Configuration bits": 10 bits per buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Override {
    pub en: bool,
    pub busy: bool,
    pub value: u32,
}

impl Override {
    pub fn of(reg: u32, i: usize) -> Override {
        let v = reg >> (10 * i as u32);
        Override {
            en: v & 1 != 0,
            busy: v & 2 != 0,
            value: (v >> 2) & 0xFF,
        }
    }
}

pub struct PcBufs {
    fifos: [VecDeque<u32>; 3],
    /// RISCV T_i is blocked reading an empty `PC_BUF_BASE` (condition 2 of B's read).
    trisc_waiting: [bool; 3],
}

impl Default for PcBufs {
    fn default() -> Self {
        Self::new()
    }
}

impl PcBufs {
    pub fn new() -> Self {
        let q = || VecDeque::with_capacity(PC_BUF_DEPTH);
        PcBufs {
            fifos: [q(), q(), q()],
            trisc_waiting: [false; 3],
        }
    }

    pub fn len(&self, i: usize) -> usize {
        self.fifos.get(i).map_or(0, |f| f.len())
    }

    /// RISCV B's write to PCBuf `i` would stall: the FIFO is full (or there is no such buffer).
    pub fn brisc_write_blocked(&self, i: usize) -> bool {
        self.fifos.get(i).is_none_or(|f| f.len() >= PC_BUF_DEPTH)
    }

    /// RISCV B writes: push, stalling while full.
    pub fn brisc_write(&mut self, i: usize, v: u32) -> Access<()> {
        if self.brisc_write_blocked(i) {
            return Access::Stall;
        }
        match self.fifos.get_mut(i) {
            Some(f) => {
                f.push_back(v);
                Access::Done(())
            }
            None => Access::Stall,
        }
    }

    /// RISCV B reads: returns 0 once the FIFO is empty, T_i waits on it and Tensix T_i is
    /// idle; or at once when OverrideEn and OverrideBusy are set. Otherwise stalls.
    pub fn brisc_read(&self, i: usize, ov: Override, tensix_idle: bool) -> Access<u32> {
        if ov.en && ov.busy {
            return Access::Done(0);
        }
        let empty = self.len(i) == 0;
        let waiting = self.trisc_waiting.get(i).copied().unwrap_or(false);
        if empty && waiting && tensix_idle {
            Access::Done(0)
        } else {
            Access::Stall
        }
    }

    /// RISCV T_i's read of `PC_BUF_BASE` would stall: the FIFO is empty and the override is not
    /// enabled (or there is no such buffer). A stalled read leaves T_i waiting, which a retry
    /// sets again.
    pub fn trisc_read_blocked(&self, i: usize, ov: Override) -> bool {
        self.fifos.get(i).is_none_or(|f| f.is_empty() && !ov.en)
    }

    /// RISCV T_i reads `PC_BUF_BASE`: pop; when empty, the override value if enabled, else stall.
    pub fn trisc_read(&mut self, i: usize, ov: Override) -> Access<u32> {
        let Some(f) = self.fifos.get_mut(i) else {
            return Access::Stall;
        };
        match f.pop_front() {
            Some(v) => {
                self.trisc_waiting[i] = false;
                Access::Done(v)
            }
            None if ov.en => {
                self.trisc_waiting[i] = false;
                Access::Done(ov.value)
            }
            None => {
                self.trisc_waiting[i] = true;
                Access::Stall
            }
        }
    }

    /// T_i left soft reset: its PCBuf contents are discarded (SoftReset.md).
    pub fn reset(&mut self, i: usize) {
        if let Some(f) = self.fifos.get_mut(i) {
            f.clear();
        }
        if let Some(w) = self.trisc_waiting.get_mut(i) {
            *w = false;
        }
    }

    /// T_i stopped waiting (entered reset).
    pub fn clear_waiting(&mut self, i: usize) {
        if let Some(w) = self.trisc_waiting.get_mut(i) {
            *w = false;
        }
    }
}

/// `CoprocessorDoneCheck` / `MOPExpanderDoneCheck` (ManualTTSync.md): done when the condition
/// holds or OverrideEn && OverrideBusy; otherwise the access waits.
pub fn ttsync_check(done: bool, ov: Override) -> Access<u32> {
    if done || (ov.en && ov.busy) {
        Access::Done(0)
    } else {
        Access::Stall
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO: Override = Override {
        en: false,
        busy: false,
        value: 0,
    };

    /// PCBufs.md: T_i's read blocks on an empty FIFO and pops in order.
    #[test]
    fn trisc_read_blocks_until_brisc_writes() {
        let mut p = PcBufs::new();
        assert_eq!(p.trisc_read(1, NO), Access::Stall);
        assert_eq!(p.brisc_write(1, 7), Access::Done(()));
        assert_eq!(p.brisc_write(1, 8), Access::Done(()));
        assert_eq!(p.trisc_read(1, NO), Access::Done(7));
        assert_eq!(p.trisc_read(1, NO), Access::Done(8));
    }

    /// PCBufs.md: B's read waits for (1) empty FIFO, (2) T_i waiting, (3) Tensix T_i idle.
    #[test]
    fn brisc_read_waits_for_all_three_conditions() {
        let mut p = PcBufs::new();
        assert_eq!(p.brisc_read(0, NO, true), Access::Stall); // T0 not waiting
        assert_eq!(p.trisc_read(0, NO), Access::Stall); // now T0 waits
        assert_eq!(p.brisc_read(0, NO, false), Access::Stall); // Tensix T0 busy
        assert_eq!(p.brisc_read(0, NO, true), Access::Done(0));
        assert_eq!(p.brisc_write(0, 1), Access::Done(()));
        assert_eq!(p.brisc_read(0, NO, true), Access::Stall); // FIFO not empty
        let busy = Override::of(0b11 << 10, 1);
        assert_eq!(p.brisc_read(1, busy, false), Access::Done(0));
    }

    /// PCBufs.md: B stalls on a full FIFO; override value on empty T read.
    #[test]
    fn full_fifo_stalls_and_override_value() {
        let mut p = PcBufs::new();
        for v in 0..PC_BUF_DEPTH as u32 {
            assert_eq!(p.brisc_write(2, v), Access::Done(()));
        }
        assert_eq!(p.brisc_write(2, 99), Access::Stall);
        let ov = Override::of((1 | (0x5A << 2)) << 20, 2);
        assert_eq!(
            ov,
            Override {
                en: true,
                busy: false,
                value: 0x5A
            }
        );
        p.reset(2);
        assert_eq!(p.trisc_read(2, ov), Access::Done(0x5A));
    }

    /// The side-effect-free stall rules a sleeping core asks (tile/stall.rs) give the answer
    /// the accesses give (PCBufs.md: B's write stalls on a full FIFO, T_i's read on an empty
    /// one unless the override is enabled).
    #[test]
    fn blocked_rules_agree_with_the_accesses() {
        let en = Override::of(1 << 10, 1);
        for n in [0, 1, PC_BUF_DEPTH as u32] {
            for ov in [NO, en] {
                let filled = || {
                    let mut p = PcBufs::new();
                    for v in 0..n {
                        assert_eq!(p.brisc_write(1, v), Access::Done(()));
                    }
                    p
                };
                let mut p = filled();
                assert_eq!(p.brisc_write_blocked(1), n == PC_BUF_DEPTH as u32);
                assert_eq!(
                    p.brisc_write_blocked(1),
                    p.brisc_write(1, 99) == Access::Stall
                );
                let mut p = filled();
                assert_eq!(p.trisc_read_blocked(1, ov), n == 0 && !ov.en);
                assert_eq!(
                    p.trisc_read_blocked(1, ov),
                    p.trisc_read(1, ov) == Access::Stall
                );
            }
        }
        assert!(PcBufs::new().brisc_write_blocked(3));
    }

    /// ManualTTSync.md: the checks wait until done unless OverrideEn && OverrideBusy.
    #[test]
    fn ttsync_checks() {
        assert_eq!(ttsync_check(false, NO), Access::Stall);
        assert_eq!(ttsync_check(true, NO), Access::Done(0));
        assert_eq!(
            ttsync_check(
                false,
                Override {
                    en: true,
                    busy: true,
                    value: 0
                }
            ),
            Access::Done(0)
        );
    }
}
