//! One RV32 hart of a Blackhole baby RISC-V core, over a [`Bus`]. The hart knows nothing about
//! Tensix tiles: `.ttinsn` and custom CSRs go to the bus, which a tile implements.
pub mod alu;
mod block;
pub mod bus;
mod cache;
pub mod code_library;
mod csr;
pub mod error;
mod exec;
pub mod flat_ram;
pub mod hart;
mod op;
pub mod timing;
pub mod workload;

pub use bus::{Access, Bus, BusFault, Width};
pub use code_library::CodeLibrary;
pub use error::{HaltReason, HartError, HartErrorKind, RunExit, StepOutcome};
pub use flat_ram::FlatRam;
pub use hart::{
    Checkpoint, ClockRead, CycleClock, Hart, HartConfig, MisalignedAccess, PrivateRam, Shared,
    Step, TraceHook, TraceRecord, UndoLog,
};
pub use timing::{CoreTiming, MemRegion};
