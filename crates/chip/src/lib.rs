//! The chip: tiles, grid, DRAM, scheduler, host driver, ELF loading.
//!
//! - [`arc`]: the ARC tile as the host sees it (boot status, telemetry, message queues).
//! - [`tile`]: one Tensix tile — five harts, the coprocessor, L1, local RAMs, MMIO map.
//! - [`chip`]: the grid of tiles, DRAM and the NoC, and the cycle-by-cycle scheduler.
//! - [`host`]: what tt-metal's host does to boot the firmware and launch a kernel.
//! - [`launch`]: a program's kernels, runtime args and circular buffers on any set of tiles.
//! - [`grid`]: tile selections (all 140, the 120 of a p100, or a list).
//! - [`error`]: the one error type.
pub mod arc;
pub mod chip;
pub mod debug;
pub mod digest;
pub mod dram;
pub mod elf;
pub mod error;
pub mod eth;
pub mod grid;
pub mod hang;
pub mod hazards;
pub mod host;
pub mod launch;
pub mod mmio_names;
pub mod pcie;
pub mod pool;
pub mod report;
pub mod schedule;
pub mod system;
pub mod threads;
pub mod tile;
pub mod trace;
pub mod watchdog;
pub mod zeroed;

pub use bhemu_noc::NocIndex;
pub use bhemu_noc::Timing;
pub use chip::{Chip, ChipConfig, HostWrite, NOC_HOST_WINDOW};
pub use digest::ChipDigest;
pub use error::{ChipError, ErrorKind, Location};
pub use schedule::Schedule;
pub use system::{Member, SystemKind};
pub use tile::{Core, CoreState, Strictness, Tile};
