//! The Dst read-after-write checker: "After issuing an instruction which writes to `Dst`, then
//! for the next four cycles, the aligned 8x16 block of `Dst` containing that write cannot be
//! read" (`tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/Dst.md`, Instruction
//! scheduling). Matrix Unit and PACR readers are stalled by the hardware itself; any other
//! reader (SFPLOAD, SFPLOADMACRO's load) that comes too early is a missing STALLWAIT, which
//! silicon turns into stale data. The checker records the last write of every block and, when
//! enabled, reports such reads with both instructions and cycles.
//!
//! Blocks are blocks of the storage, `DstBits` rows `8k..8k+7`: a `Dst16b` row is one
//! `DstBits` row (`Adj16`), a `Dst32b` row two, eight rows apart (`Adj32`), so an FP32 write
//! shadows two blocks and an FP32 read of either is caught.
//!
//! Writers recorded: the Matrix Unit's computations and ZEROACC
//! ([`super::MatrixUnit::execute_op`]) and its moves into `Dst` (MOVA2D, MOVB2D). Other writers
//! (the unpacker's direct-to-Dst path, SFPSTORE) are not recorded yet, and RISC-V loads from
//! the `Dst` window are not checked.
//!
//! Off by default: it reports nothing until [`DstHazards::set_enabled`] (`--check-hazards` on
//! `bhemu tensix run`, `bhemu run` and `bhemu boot`; [`ENV_VAR`] in libttsim). The write
//! record and [`DstHazards::ready_cycle`] work either way.
use super::{DstRows, Retired};
use crate::state::{adj16, adj32, DestAccessCfg};
use bhemu_isa::tensix::Arch;
use std::fmt;

/// Cycles after a write during which its 8x16 block cannot be read.
pub const WRITE_SHADOW_CYCLES: u64 = 4;
/// The environment variable a front end may read to enable the checker (`1` = on).
pub const ENV_VAR: &str = "BHEMU_CHECK_HAZARDS";
const BLOCKS: usize = 1024 / 8;
/// Reports kept between two [`DstHazards::take_reports`]; later ones are only counted, so a
/// kernel that loops on a hazard cannot exhaust memory.
pub const MAX_KEPT: usize = 10_000;

/// One access to Dst: which instruction, on which thread, at which cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DstAccess {
    pub word: u32,
    pub thread: u8,
    pub cycle: u64,
}

impl fmt::Display for DstAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:#010x} `{}` (thread T{}, cycle {})",
            self.word,
            crate::insn::disasm(Arch::Blackhole, self.word),
            self.thread,
            self.cycle
        )
    }
}

/// A read of a block within [`WRITE_SHADOW_CYCLES`] of its last write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DstHazard {
    /// First `DstBits` row of the 8-row block.
    pub block_row: u32,
    pub writer: DstAccess,
    pub reader: DstAccess,
}

impl DstHazard {
    /// Cycles between the write and the read.
    pub fn distance(&self) -> u64 {
        self.reader.cycle.saturating_sub(self.writer.cycle)
    }
}

impl fmt::Display for DstHazard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Dst rows {}..={} read by {} only {} cycle(s) after {} wrote them; the block is \
             unreadable for {} cycles (Dst.md): a STALLWAIT is missing",
            self.block_row,
            self.block_row + 7,
            self.reader,
            self.distance(),
            self.writer,
            WRITE_SHADOW_CYCLES
        )
    }
}

/// The last write of every 8-row `DstBits` block, and the reports so far.
#[derive(Clone, Debug)]
pub struct DstHazards {
    enabled: bool,
    last_write: [Option<DstAccess>; BLOCKS],
    reports: Vec<DstHazard>,
    /// Reports past [`MAX_KEPT`], counted since the last [`DstHazards::take_not_kept`].
    not_kept: u64,
}

impl Default for DstHazards {
    fn default() -> Self {
        DstHazards {
            enabled: false,
            last_write: [None; BLOCKS],
            reports: Vec::new(),
            not_kept: 0,
        }
    }
}

/// The `DstBits` blocks `rows` touch (with repeats; callers only set or search). The rows of
/// an aligned group of 8 in the 16-bit view, or of 4 in the 32-bit view, touch the same blocks
/// (`Adj16` keeps row bits 0–2 and moves the others among themselves, `Adj32` keeps bits 0–1),
/// so one row of each group the range meets stands for the group: a ZEROACC of half of Dst
/// notes 64 blocks, not 512 rows.
fn blocks(rows: DstRows, cfg: DestAccessCfg) -> impl Iterator<Item = usize> {
    let group = if rows.wide { 4 } else { 8 };
    let count = rows.count.max(1);
    let mut i = 0u32;
    let group_rows = std::iter::from_fn(move || {
        if i >= count {
            return None;
        }
        let r = rows.first.wrapping_add(i);
        i += group - r % group;
        Some(r)
    });
    group_rows.flat_map(move |r| {
        let (a, b) = if rows.wide {
            let p = adj32(r, cfg);
            (p / 8, (p + 8) / 8)
        } else {
            let p = adj16(r, cfg) / 8;
            (p, p)
        };
        [a % BLOCKS, b % BLOCKS]
    })
}

impl DstHazards {
    /// A checker enabled when the environment variable [`ENV_VAR`] is `1`.
    pub fn from_env() -> Self {
        let mut h = DstHazards::default();
        h.set_enabled(std::env::var(ENV_VAR).is_ok_and(|v| v.trim() == "1"));
        h
    }

    /// Whether reads too early are reported.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    /// Records a write of `rows` (mapped to storage through `cfg`) issued by `at`.
    pub fn note_write(&mut self, rows: DstRows, cfg: DestAccessCfg, at: DstAccess) {
        for b in blocks(rows, cfg) {
            self.last_write[b] = Some(at);
        }
    }

    /// The first cycle at which every block of `rows` may be read.
    pub fn ready_cycle(&self, rows: DstRows, cfg: DestAccessCfg) -> u64 {
        blocks(rows, cfg)
            .filter_map(|b| self.last_write[b])
            .map(|w| w.cycle + WRITE_SHADOW_CYCLES + 1)
            .max()
            .unwrap_or(0)
    }

    /// A read of `rows` by a unit the hardware does not stall (SFPU): returns and records the
    /// hazard when the checker is enabled and the read is too early.
    pub fn check_read(
        &mut self,
        rows: DstRows,
        cfg: DestAccessCfg,
        reader: DstAccess,
    ) -> Option<DstHazard> {
        if !self.enabled {
            return None;
        }
        let hit = blocks(rows, cfg).find_map(|b| {
            let w = self.last_write[b]?;
            let too_early = reader.cycle > w.cycle && reader.cycle <= w.cycle + WRITE_SHADOW_CYCLES;
            too_early.then_some(DstHazard {
                block_row: (b * 8) as u32,
                writer: w,
                reader,
            })
        })?;
        if self.reports.len() < MAX_KEPT {
            self.reports.push(hit.clone());
        } else {
            self.not_kept += 1;
        }
        Some(hit)
    }

    /// The hazards reported so far.
    pub fn reports(&self) -> &[DstHazard] {
        &self.reports
    }

    /// The hazards reported so far, leaving none.
    pub fn take_reports(&mut self) -> Vec<DstHazard> {
        std::mem::take(&mut self.reports)
    }

    /// Hazards found but not kept (past [`MAX_KEPT`]) since the last call, leaving 0.
    pub fn take_not_kept(&mut self) -> u64 {
        std::mem::take(&mut self.not_kept)
    }

    /// Matrix Unit bookkeeping: its own reads are stalled by hardware (never reported); its
    /// writes start a shadow.
    pub(super) fn note_matrix_unit(
        &mut self,
        r: &Retired,
        cfg: DestAccessCfg,
        word: u32,
        thread: u8,
        cycle: u64,
    ) {
        if let Some(rows) = r.dst_written {
            self.note_write(
                rows,
                cfg,
                DstAccess {
                    word,
                    thread,
                    cycle,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The blocks of `rows` row by row, as Dst.md maps each row.
    fn per_row(rows: DstRows, cfg: DestAccessCfg) -> BTreeSet<usize> {
        let mut set = BTreeSet::new();
        for i in 0..rows.count.max(1) {
            let r = rows.first.wrapping_add(i);
            if rows.wide {
                let p = adj32(r, cfg);
                set.insert(p / 8 % BLOCKS);
                set.insert((p + 8) / 8 % BLOCKS);
            } else {
                set.insert(adj16(r, cfg) / 8 % BLOCKS);
            }
        }
        set
    }

    #[test]
    fn one_row_of_each_aligned_group_stands_for_its_blocks() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in 0..4000 {
            let cfg = DestAccessCfg {
                remap_addrs: n & 1 != 0,
                swizzle_32b: n & 2 != 0,
            };
            let rows = DstRows {
                first: next() as u32 % 1100,
                count: [0, 1, 3, 8, 16, 64, 512, 1024][n % 8] + (next() % 9) as u32,
                wide: n & 4 != 0,
            };
            let got: BTreeSet<usize> = blocks(rows, cfg).collect();
            assert_eq!(got, per_row(rows, cfg), "{rows:?} {cfg:?}");
        }
    }
}
