//! The ARC tile (NOC0 (8, 0)) as the host sees it: what tt-umd's Blackhole code reads and writes
//! when tt-metal opens, uses and closes a chip (docs/tt-metal-on-bhemu.md "The ARC tile").
//!
//! bhemu runs no ARC firmware. The tile is the state that firmware leaves behind once booted —
//! boot status "ready", the scratch registers pointing at the telemetry table and the message
//! queues in ARC's CSM — plus the message handling tt-umd relies on (AICLK busy/idle, NOP).
//! Every other address is a typed error naming it: the model claims nothing it does not do.
//!
//! NoC address map of the tile (tt-umd: device/api/umd/device/arch/blackhole_implementation.hpp):
//!
//! | address | what |
//! | --- | --- |
//! | `0x1000_0000 .. 0x1008_0000` | CSM (512 KiB): telemetry table and values, message queues |
//! | `0x8003_0060 .. 0x8003_0080` | `ARC_RESET.SCRATCH[0..8]` (0 = postcode) |
//! | `0x8003_00E0`, `0x8003_00E4` | reference clock counter, low and high word |
//! | `0x8003_0100` | `ARC_MISC_CNTL`: writing bit 16 interrupts the firmware (a message is queued) |
//! | `0x8003_0400 .. 0x8003_0480` | `SCRATCH_RAM[0..32]` (2 = boot status, 11–13 = table addresses) |
//! | `0x8005_0000 + r`, `0x8005_8000 + r` | the tile's NoC 0 / NoC 1 NIU registers `NOC_NODE_ID` (`r` = 0x44), `NIU_CFG_0` (0x100) |
//!
//! Register accesses are single aligned 4-byte words; CSM takes any size inside it.
pub mod queue;
pub mod telemetry;

use bhemu_noc::coord::{NOC_GRID_X, NOC_GRID_Y};

use crate::error::{ChipError, ErrorKind};
use crate::system::Member;

/// Raw NoC 0 coordinates of the ARC tile; translation leaves them unchanged.
pub const ARC_NOC0: (u32, u32) = (8, 0);

pub const CSM_BASE: u64 = 0x1000_0000;
pub const CSM_SIZE: u64 = 512 * 1024;
/// Where the firmware image bhemu stands in for keeps its structures in CSM.
pub const TELEMETRY_TABLE: u64 = CSM_BASE + 0x100;
pub const TELEMETRY_VALUES: u64 = CSM_BASE + 0x200;
pub const QUEUE_CONTROL_BLOCK: u64 = CSM_BASE + 0x300;
pub const QUEUE_BASE: u64 = CSM_BASE + 0x400;

pub const RESET_UNIT: u64 = 0x8003_0000;
pub const RESET_SCRATCH: u64 = RESET_UNIT + 0x60;
pub const REFCLK_LOW: u64 = RESET_UNIT + 0xE0;
pub const REFCLK_HIGH: u64 = RESET_UNIT + 0xE4;
pub const MISC_CNTL: u64 = RESET_UNIT + 0x100;
/// The bit tt-umd writes to `ARC_MISC_CNTL` to interrupt the firmware (`ARC_FW_INT_VAL`).
pub const FW_INT_BIT: u32 = 1 << 16;
pub const SCRATCH_RAM: u64 = RESET_UNIT + 0x400;
pub const SCRATCH_RAM_WORDS: usize = 32;
/// `SCRATCH_RAM_2` = boot status; low 3 bits 5 = "firmware running" (what tt-umd waits for).
pub const BOOT_STATUS_READY: u32 = 5;

pub const NIU_NOC0: u64 = 0x8005_0000;
pub const NIU_NOC1: u64 = 0x8005_8000;
const NIU_SIZE: u64 = 0x8000;
const NOC_NODE_ID: u64 = 0x44;
const NIU_CFG_0: u64 = 0x100;
/// `NIU_CFG_0` bit 14: coordinate translation on (the chip always translates).
const NIU_CFG_0_TRANSLATE: u32 = 1 << 14;

/// Reference clock in MHz: `REFCLK` counts at this rate while AICLK runs at `aiclk` MHz.
pub const REFCLK_MHZ: u64 = 50;

pub struct Arc {
    scratch: [u32; 8],
    scratch_ram: [u32; SCRATCH_RAM_WORDS],
    niu_cfg0: [u32; 2],
    csm: Vec<u8>,
    aiclk_mhz: u32,
    /// Who the chip is in its system (telemetry values).
    member: Member,
}

impl Default for Arc {
    fn default() -> Self {
        Self::new()
    }
}

fn unmodelled(addr: u64, len: usize, write: bool) -> ChipError {
    let what = if write { "write to" } else { "read of" };
    let mut e = ChipError::new(
        ErrorKind::Unimplemented,
        format!("{what} ARC tile address {addr:#x} ({len} bytes), which bhemu does not model"),
    );
    e.loc.addr = u32::try_from(addr).ok();
    e
}

impl Arc {
    /// The tile of a p150 as booted firmware leaves it.
    pub fn new() -> Arc {
        Self::of(&Member::default())
    }

    /// The tile of chip `member` of a system as booted firmware leaves it.
    pub fn of(member: &Member) -> Arc {
        let mut arc = Arc {
            scratch: [0; 8],
            scratch_ram: [0; SCRATCH_RAM_WORDS],
            niu_cfg0: [NIU_CFG_0_TRANSLATE; 2],
            csm: vec![0; CSM_SIZE as usize],
            aiclk_mhz: telemetry::AICLK_BUSY_MHZ,
            member: member.clone(),
        };
        arc.scratch_ram[2] = BOOT_STATUS_READY;
        arc.scratch_ram[11] = QUEUE_CONTROL_BLOCK as u32;
        arc.scratch_ram[12] = TELEMETRY_VALUES as u32;
        arc.scratch_ram[13] = TELEMETRY_TABLE as u32;
        arc.csm_put(TELEMETRY_TABLE, &telemetry::table_bytes());
        arc.csm_put(
            TELEMETRY_VALUES,
            &telemetry::value_bytes(arc.aiclk_mhz, 0, member),
        );
        let mut cb = (QUEUE_BASE as u32).to_le_bytes().to_vec();
        cb.extend_from_slice(&queue::control_word().to_le_bytes());
        arc.csm_put(QUEUE_CONTROL_BLOCK, &cb);
        arc
    }

    /// Current AICLK in MHz (telemetry `AICLK`).
    pub fn aiclk_mhz(&self) -> u32 {
        self.aiclk_mhz
    }

    fn csm_put(&mut self, addr: u64, data: &[u8]) {
        let o = (addr - CSM_BASE) as usize;
        self.csm[o..o + data.len()].copy_from_slice(data);
    }

    fn csm_range(addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let end = addr.checked_add(len as u64)?;
        (addr >= CSM_BASE && end <= CSM_BASE + CSM_SIZE)
            .then(|| (addr - CSM_BASE) as usize..(end - CSM_BASE) as usize)
    }

    /// A host read of `buf.len()` bytes at NoC address `addr` of the tile, at cycle `now`.
    pub fn read(&mut self, addr: u64, buf: &mut [u8], now: u64) -> Result<(), ChipError> {
        if let Some(r) = Self::csm_range(addr, buf.len()) {
            // The firmware refreshes its telemetry values continuously.
            let values = telemetry::value_bytes(self.aiclk_mhz, now, &self.member);
            self.csm_put(TELEMETRY_VALUES, &values);
            buf.copy_from_slice(&self.csm[r]);
            return Ok(());
        }
        let v = self.reg_read(addr, buf.len(), now)?;
        buf.copy_from_slice(&v.to_le_bytes());
        Ok(())
    }

    /// A host write of `data` at NoC address `addr` of the tile.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), ChipError> {
        if let Some(r) = Self::csm_range(addr, data.len()) {
            self.csm[r].copy_from_slice(data);
            return Ok(());
        }
        let word = <[u8; 4]>::try_from(data)
            .ok()
            .filter(|_| addr.is_multiple_of(4))
            .map(u32::from_le_bytes)
            .ok_or_else(|| unmodelled(addr, data.len(), true))?;
        match addr {
            a if (RESET_SCRATCH..RESET_SCRATCH + 32).contains(&a) => {
                self.scratch[((a - RESET_SCRATCH) / 4) as usize] = word
            }
            a if (SCRATCH_RAM..SCRATCH_RAM + 4 * SCRATCH_RAM_WORDS as u64).contains(&a) => {
                self.scratch_ram[((a - SCRATCH_RAM) / 4) as usize] = word
            }
            MISC_CNTL => {
                if word & FW_INT_BIT != 0 {
                    self.service_queues();
                }
            }
            a => match Self::niu_reg(a) {
                Some((noc, NIU_CFG_0)) => {
                    // Translation is fixed on; the other bits read back.
                    self.niu_cfg0[noc] = word | NIU_CFG_0_TRANSLATE;
                }
                _ => return Err(unmodelled(addr, 4, true)),
            },
        }
        Ok(())
    }

    fn niu_reg(addr: u64) -> Option<(usize, u64)> {
        if (NIU_NOC0..NIU_NOC0 + NIU_SIZE).contains(&addr) {
            Some((0, addr - NIU_NOC0))
        } else if (NIU_NOC1..NIU_NOC1 + NIU_SIZE).contains(&addr) {
            Some((1, addr - NIU_NOC1))
        } else {
            None
        }
    }

    fn reg_read(&self, addr: u64, len: usize, now: u64) -> Result<u32, ChipError> {
        if len != 4 || !addr.is_multiple_of(4) {
            return Err(unmodelled(addr, len, false));
        }
        let refclk = now.saturating_mul(REFCLK_MHZ) / u64::from(self.aiclk_mhz.max(1));
        Ok(match addr {
            a if (RESET_SCRATCH..RESET_SCRATCH + 32).contains(&a) => {
                self.scratch[((a - RESET_SCRATCH) / 4) as usize]
            }
            a if (SCRATCH_RAM..SCRATCH_RAM + 4 * SCRATCH_RAM_WORDS as u64).contains(&a) => {
                self.scratch_ram[((a - SCRATCH_RAM) / 4) as usize]
            }
            REFCLK_LOW => refclk as u32,
            REFCLK_HIGH => (refclk >> 32) as u32,
            MISC_CNTL => 0,
            a => match Self::niu_reg(a) {
                Some((noc, NOC_NODE_ID)) => node_id(noc),
                Some((noc, NIU_CFG_0)) => self.niu_cfg0[noc],
                _ => return Err(unmodelled(addr, len, false)),
            },
        })
    }

    /// What the firmware does on an interrupt: answer every queued request of every queue.
    fn service_queues(&mut self) {
        for q in 0..queue::QUEUES {
            let base = (QUEUE_BASE - CSM_BASE) as usize + q * queue::QUEUE_BYTES;
            let mut aiclk = self.aiclk_mhz;
            queue::service(&mut self.csm[base..base + queue::QUEUE_BYTES], &mut aiclk);
            self.aiclk_mhz = aiclk;
        }
    }
}

/// `NOC_NODE_ID` of the ARC tile on NoC `noc`: raw x in bits 0–5, raw y in 6–11, grid width in
/// 12–18, height in 19–25, bit 28 on NoC 0 (tt-isa-documentation:
/// BlackholeA0/NoC/MemoryMap.md). NoC 1 numbers the grid mirrored.
fn node_id(noc: usize) -> u32 {
    let (gx, gy) = (u32::from(NOC_GRID_X), u32::from(NOC_GRID_Y));
    let (x, y) = if noc == 0 {
        ARC_NOC0
    } else {
        (gx - 1 - ARC_NOC0.0, gy - 1 - ARC_NOC0.1)
    };
    let xfirst = if noc == 0 { 1 << 28 } else { 0 };
    x | y << 6 | gx << 12 | gy << 19 | xfirst
}

#[cfg(test)]
mod tests;
