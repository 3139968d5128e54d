//! The Dst read-after-write checker: "After issuing an instruction which writes to `Dst`, then
//! for the next four cycles, the aligned 8x16 block of `Dst` containing that write cannot be
//! read" (`tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/Dst.md`, Instruction
//! scheduling). Matrix Unit and PACR readers are stalled by the hardware itself; any other
//! reader (SFPLOAD, a RISC-V load from the Dst window) that comes too early is a missing
//! STALLWAIT, which silicon turns into stale data. The checker records the last write of every
//! block and, when enabled, reports such reads with both instructions and cycles.
//!
//! Off by default: it reports nothing until [`DstHazards::set_enabled`] (the front ends offer
//! it as `--check-hazards` or the [`ENV_VAR`] environment variable once wired in). The write
//! record and [`DstHazards::ready_cycle`] work either way, for the automatic stall's timing.
use super::{DstRows, Retired};
use std::fmt;

/// Cycles after a write during which its 8x16 block cannot be read.
pub const WRITE_SHADOW_CYCLES: u64 = 4;
/// The environment variable a front end may read to enable the checker (`1` = on).
pub const ENV_VAR: &str = "BHEMU_CHECK_HAZARDS";
const BLOCKS: usize = 1024 / 8;

/// One access to Dst: which instruction, on which thread, at which cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DstAccess {
    pub word: u32,
    pub thread: u8,
    pub cycle: u64,
}

/// A read of a block within [`WRITE_SHADOW_CYCLES`] of its last write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DstHazard {
    /// First Dst row of the 8-row block.
    pub block_row: u32,
    pub writer: DstAccess,
    pub reader: DstAccess,
}

impl fmt::Display for DstHazard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Dst rows {}..={} read by {:#010x} (thread {}, cycle {}) only {} cycle(s) after \
             {:#010x} (thread {}, cycle {}) wrote them; the block is unreadable for {} cycles \
             (Dst.md): a STALLWAIT is missing",
            self.block_row,
            self.block_row + 7,
            self.reader.word,
            self.reader.thread,
            self.reader.cycle,
            self.reader.cycle.saturating_sub(self.writer.cycle),
            self.writer.word,
            self.writer.thread,
            self.writer.cycle,
            WRITE_SHADOW_CYCLES
        )
    }
}

/// The last write of every 8-row Dst block, and the reports so far.
#[derive(Clone, Debug)]
pub struct DstHazards {
    enabled: bool,
    last_write: Vec<Option<DstAccess>>,
    reports: Vec<DstHazard>,
}

impl Default for DstHazards {
    fn default() -> Self {
        DstHazards {
            enabled: false,
            last_write: vec![None; BLOCKS],
            reports: Vec::new(),
        }
    }
}

fn blocks(rows: DstRows) -> impl Iterator<Item = usize> {
    let first = rows.first >> 3;
    let last = (rows.first + rows.count.max(1) - 1) >> 3;
    (first..=last).map(|b| (b as usize) % BLOCKS)
}

impl DstHazards {
    /// A checker enabled when the environment variable [`ENV_VAR`] is `1`.
    pub fn from_env() -> Self {
        let mut h = DstHazards::default();
        h.set_enabled(std::env::var(ENV_VAR).is_ok_and(|v| v == "1"));
        h
    }

    /// Whether reads too early are reported.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    /// Records a write of `rows` issued by `at`.
    pub fn note_write(&mut self, rows: DstRows, at: DstAccess) {
        for b in blocks(rows) {
            self.last_write[b] = Some(at);
        }
    }

    /// The first cycle at which every block of `rows` may be read.
    pub fn ready_cycle(&self, rows: DstRows) -> u64 {
        blocks(rows)
            .filter_map(|b| self.last_write[b])
            .map(|w| w.cycle + WRITE_SHADOW_CYCLES + 1)
            .max()
            .unwrap_or(0)
    }

    /// A read of `rows` by a unit the hardware does not stall (SFPU, RISC-V): returns and
    /// records the hazard when the checker is enabled and the read is too early.
    pub fn check_read(&mut self, rows: DstRows, reader: DstAccess) -> Option<DstHazard> {
        if !self.enabled {
            return None;
        }
        let hit = blocks(rows).find_map(|b| {
            let w = self.last_write[b]?;
            let too_early = reader.cycle > w.cycle && reader.cycle <= w.cycle + WRITE_SHADOW_CYCLES;
            too_early.then_some(DstHazard {
                block_row: (b * 8) as u32,
                writer: w,
                reader,
            })
        })?;
        self.reports.push(hit.clone());
        Some(hit)
    }

    /// The hazards reported so far.
    pub fn reports(&self) -> &[DstHazard] {
        &self.reports
    }

    /// Matrix Unit bookkeeping: its own reads are stalled by hardware (never reported); its
    /// writes start a shadow.
    pub(super) fn note_matrix_unit(&mut self, r: &Retired, word: u32, thread: u8, cycle: u64) {
        if let Some(rows) = r.dst_written {
            self.note_write(
                rows,
                DstAccess {
                    word,
                    thread,
                    cycle,
                },
            );
        }
    }
}
