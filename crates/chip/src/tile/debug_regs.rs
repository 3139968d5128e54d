//! Tile control / debug / status registers at `0xFFB1_2000` (TileControlDebugStatus.md):
//! soft reset and reset PCs (SoftReset.md), the wall clock (DebugTimestamper.md), PC-buffer
//! override bits (PCBufs.md "Configuration bits"), instruction-buffer status
//! (PushTensixInstruction.md "Debug registers"). Registers with no modelled behaviour but a
//! documented name are plain storage; any other offset is reported as unimplemented.
use super::memory_map::Core;

pub const SOFT_RESET_0: u32 = 0x1B0;
pub const WALL_CLOCK_L: u32 = 0x1F0;
pub const WALL_CLOCK_L4: u32 = 0x1F4;
pub const WALL_CLOCK_H: u32 = 0x1F8;
pub const DISABLE_RESET: u32 = 0x224;
pub const TRISC0_RESET_PC: u32 = 0x228;
pub const TRISC_RESET_PC_OVERRIDE: u32 = 0x234;
pub const NCRISC_RESET_PC: u32 = 0x238;
pub const NCRISC_RESET_PC_OVERRIDE: u32 = 0x23C;
pub const TRISC_PC_BUF_OVERRIDE: u32 = 0x90;
pub const INSTRN_BUF_STATUS: u32 = 0xA8;
/// `RISCV_DEBUG_REG_CFGREG_RD_CNTL`: writing a Config word index asks for that word...
pub const CFGREG_RD_CNTL: u32 = 0x58;
/// ...which `RISCV_DEBUG_REG_CFGREG_RDDATA` then holds (how tt-exalens reads Config).
pub const CFGREG_RDDATA: u32 = 0x78;

/// SoftReset.md `RISCV_DEBUG_REG_SOFT_RESET_0`: the reset bit of each core.
pub const fn soft_reset_bit(core: Core) -> u32 {
    match core {
        Core::Brisc => 1 << 11,
        Core::Trisc0 => 1 << 12,
        Core::Trisc1 => 1 << 13,
        Core::Trisc2 => 1 << 14,
        Core::Ncrisc => 1 << 18,
    }
}

/// All five cores held (and the Tensix units reset): what the host writes first (docs/blackhole-facts.md §9).
pub const SOFT_RESET_ALL: u32 = 0x47800;

/// What a register write asks the tile to do beyond storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugWrite {
    Done,
    /// `RISCV_DEBUG_REG_SOFT_RESET_0` changed from `old`.
    SoftReset {
        old: u32,
    },
    /// `CFGREG_RD_CNTL` was written: latch Config word `index` into `CFGREG_RDDATA`
    /// ([`DebugRegs::latch_cfg_read`]).
    CfgRead {
        index: u32,
    },
}

/// Offsets named in tt-metal's Blackhole `tensix.h` that bhemu keeps as plain storage.
fn is_plain(off: u32) -> bool {
    matches!(off,
        0x00..=0x24 | 0x30..=0x3C | 0x48..=0x94 | 0xA0 | 0xA4 | 0xAC..=0xBC | 0xF0..=0xF8
        | 0x100..=0x124 | 0x1C0..=0x1C8 | 0x1D0 | 0x1D4 | 0x1E0..=0x1E8
        | 0x1FC..=0x248)
}

pub struct DebugRegs {
    words: Vec<u32>,
    /// `counter_high_at` of DebugTimestamper.md.
    wall_high_at: u32,
}

impl Default for DebugRegs {
    fn default() -> Self {
        Self::new()
    }
}

impl DebugRegs {
    pub fn new() -> Self {
        let mut words = vec![0; 0x1000 / 4];
        // Cores start held in reset; the host releases BRISC (docs/blackhole-facts.md §9).
        words[(SOFT_RESET_0 / 4) as usize] = SOFT_RESET_ALL;
        DebugRegs {
            words,
            wall_high_at: 0,
        }
    }

    fn get(&self, off: u32) -> u32 {
        self.words.get((off / 4) as usize).copied().unwrap_or(0)
    }
    fn set(&mut self, off: u32, v: u32) {
        if let Some(w) = self.words.get_mut((off / 4) as usize) {
            *w = v;
        }
    }

    pub fn soft_reset(&self) -> u32 {
        self.get(SOFT_RESET_0)
    }
    /// The wall clock's latched high word, as a read of `WALL_CLOCK_H` returns it.
    pub fn wall_high(&self) -> u32 {
        self.wall_high_at
    }
    pub fn in_reset(&self, core: Core) -> bool {
        self.soft_reset() & soft_reset_bit(core) != 0
    }
    pub fn disable_reset(&self) -> u32 {
        self.get(DISABLE_RESET)
    }
    pub fn pc_buf_override(&self) -> u32 {
        self.get(TRISC_PC_BUF_OVERRIDE)
    }

    /// The pc a core starts at when it leaves soft reset (SoftReset.md, "Initial pc when coming
    /// out of soft reset" table): B 0; T_i and NC from their reset-PC register when the
    /// override bit is set, else 0x6000 / 0xA000 / 0xE000 / 0x12000.
    pub fn reset_pc(&self, core: Core) -> u32 {
        match core {
            Core::Brisc => 0,
            Core::Ncrisc => {
                if self.get(NCRISC_RESET_PC_OVERRIDE) & 1 != 0 {
                    self.get(NCRISC_RESET_PC)
                } else {
                    0x12000
                }
            }
            t => {
                let i = t.thread().unwrap_or(0) as u32;
                if self.get(TRISC_RESET_PC_OVERRIDE) & (1 << i) != 0 {
                    self.get(TRISC0_RESET_PC + 4 * i)
                } else {
                    [0x6000, 0xA000, 0xE000][i as usize]
                }
            }
        }
    }

    /// A read at `off` (word aligned); `now` is the chip cycle the wall clock shows.
    pub fn read(&mut self, off: u32, now: u64) -> Result<u32, &'static str> {
        match off {
            // DebugTimestamper.md: reading L latches the high half for a later H read.
            WALL_CLOCK_L => {
                self.wall_high_at = (now >> 32) as u32;
                Ok(now as u32)
            }
            WALL_CLOCK_L4 => Ok((now >> 32) as u32),
            WALL_CLOCK_H => Ok(self.wall_high_at),
            SOFT_RESET_0 => Ok(self.get(off)),
            o if is_plain(o) => Ok(self.get(o)),
            _ => Err("debug register not modelled (not named in tensix.h)"),
        }
    }

    /// The Config word a `CFGREG_RD_CNTL` write asked for, as `CFGREG_RDDATA` now reads it.
    pub fn latch_cfg_read(&mut self, word: u32) {
        self.set(CFGREG_RDDATA, word);
    }

    /// A write at `off` (word aligned).
    pub fn write(&mut self, off: u32, value: u32, now: u64) -> Result<DebugWrite, &'static str> {
        match off {
            WALL_CLOCK_L => {
                self.wall_high_at = (now >> 32) as u32;
                Ok(DebugWrite::Done)
            }
            WALL_CLOCK_L4 | WALL_CLOCK_H => Ok(DebugWrite::Done),
            INSTRN_BUF_STATUS => Err("RISCV_DEBUG_REG_INSTRN_BUF_STATUS is read-only"),
            CFGREG_RD_CNTL => {
                self.set(off, value);
                Ok(DebugWrite::CfgRead { index: value })
            }
            SOFT_RESET_0 => {
                let old = self.get(off);
                // Bits 24 and up have no effect (SoftReset.md).
                self.set(off, value & 0x00FF_FFFF);
                Ok(if old != value & 0x00FF_FFFF {
                    DebugWrite::SoftReset { old }
                } else {
                    DebugWrite::Done
                })
            }
            o if is_plain(o) => {
                self.set(o, value);
                Ok(DebugWrite::Done)
            }
            _ => Err("debug register not modelled (not named in tensix.h)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SoftReset.md: fixed reset PCs without override; register values with it.
    #[test]
    fn reset_pc_override_semantics() {
        let mut d = DebugRegs::new();
        assert_eq!(d.reset_pc(Core::Brisc), 0);
        assert_eq!(d.reset_pc(Core::Trisc0), 0x6000);
        assert_eq!(d.reset_pc(Core::Trisc1), 0xA000);
        assert_eq!(d.reset_pc(Core::Trisc2), 0xE000);
        assert_eq!(d.reset_pc(Core::Ncrisc), 0x12000);
        for (off, v) in [
            (0x228, 0x66E0),
            (0x22C, 0x70E0),
            (0x230, 0x7AE0),
            (0x238, 0x5CE0),
        ] {
            assert!(d.write(off, v, 0).is_ok());
        }
        // Registers alone do nothing until the override bits are set.
        assert_eq!(d.reset_pc(Core::Trisc1), 0xA000);
        assert!(d.write(TRISC_RESET_PC_OVERRIDE, 0b010, 0).is_ok());
        assert_eq!(d.reset_pc(Core::Trisc0), 0x6000);
        assert_eq!(d.reset_pc(Core::Trisc1), 0x70E0);
        assert!(d.write(TRISC_RESET_PC_OVERRIDE, 0b111, 0).is_ok());
        assert!(d.write(NCRISC_RESET_PC_OVERRIDE, 1, 0).is_ok());
        assert_eq!(d.reset_pc(Core::Trisc2), 0x7AE0);
        assert_eq!(d.reset_pc(Core::Ncrisc), 0x5CE0);
    }

    /// SoftReset.md bit layout; docs/blackhole-facts.md §9: 0x47800 holds all five, 0x47000 frees BRISC.
    #[test]
    fn soft_reset_bits() {
        let mut d = DebugRegs::new();
        assert!(Core::ALL.iter().all(|&c| d.in_reset(c)));
        assert_eq!(
            d.write(SOFT_RESET_0, 0x47000, 0),
            Ok(DebugWrite::SoftReset { old: 0x47800 })
        );
        assert!(!d.in_reset(Core::Brisc));
        assert!(d.in_reset(Core::Ncrisc) && d.in_reset(Core::Trisc0) && d.in_reset(Core::Trisc2));
        assert_eq!(d.write(SOFT_RESET_0, 0x47000, 0), Ok(DebugWrite::Done));
    }

    /// DebugTimestamper.md: L latches the high half that H returns.
    #[test]
    fn wall_clock_latch() {
        let mut d = DebugRegs::new();
        let t = (5u64 << 32) | 7;
        assert_eq!(d.read(WALL_CLOCK_L, t), Ok(7));
        assert_eq!(d.read(WALL_CLOCK_H, t + (1 << 32)), Ok(5));
        assert_eq!(d.read(WALL_CLOCK_L4, t + (1 << 32)), Ok(6));
        assert!(d.read(0xFFC, 0).is_err());
    }
}
