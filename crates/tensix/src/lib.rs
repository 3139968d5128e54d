//! The Tensix coprocessor of one Blackhole (or Wormhole B0) tile, cycle by cycle: per-thread
//! frontends (instruction FIFO, MOP expander, Replay Expander, Wait Gate), the Sync Unit
//! (semaphores, mutexes), SrcA/SrcB bank ownership, and the backend units as pipelines whose
//! occupancy drives STALLWAIT's conditions C0-C12; and the data path: the register files and
//! configuration ([`state`]), number formats ([`formats`]), each unit's instruction effects
//! ([`units`], dispatched through the generated per-opcode visitor) and the RISC-V windows
//! onto that state ([`riscv_windows`]).
//!
//! Sources: the tt-isa-documentation pages named in each module; timing figures and their
//! pages in [`insn::timing`].
//!
//! # Driving it (for the tile)
//! ```no_run
//! use bhemu_tensix::{Arch, Coprocessor, PushSource, Pushed};
//! let mut cp = Coprocessor::new(Arch::Blackhole);
//! cp.set_dispatch_log(true);                       // optional: record gate departures
//! cp.write_mop_cfg(0, 5, 0x0400_0100)?;            // MMIO 0xFFB80000 + 4*5 from TRISC0
//! match cp.push(0, PushSource::Trisc, 0x0200_0000)? {
//!     Pushed::Accepted => {}
//!     Pushed::Full => { /* the pushing hart stalls and retries next cycle */ }
//! }
//! cp.step(0)?;                                     // one cycle, after the harts
//! let _done = cp.thread_idle(0);                   // PC-buffer +4 CoprocessorDoneCheck
//! let _mop_ok = cp.mop_idle(0);                    // PC-buffer +8 store completes when true
//! let _q = cp.qstatus(0);                          // CSR 0xBC0
//! cp.sem_window_write(1, 0)?;                      // PC-buffer semaphore window: post
//! let _v = cp.sem_window_read(1)?;
//! cp.set_trisc_cfg_pending(0, false);              // C10
//! # Ok::<(), bhemu_tensix::TensixError>(())
//! ```
//! When harts and the coprocessor have all stopped progressing, [`Coprocessor::deadlock`]
//! gives the report. Nothing here refers to a tile or chip.
pub mod backend;
pub mod coprocessor;
pub mod error;
pub mod fifo;
pub mod formats;
pub mod insn;
pub mod matrix;
pub mod mop_expander;
pub mod mutexes;
pub mod program;
pub mod qstatus;
pub mod replay_expander;
pub mod riscv_windows;
pub mod runner;
pub mod semaphores;
pub mod sfpu;
pub mod src_banks;
pub mod state;
pub mod sync_unit;
pub mod trace;
pub mod units;
pub mod wait_gate;

#[cfg(test)]
mod testing;

pub use bhemu_isa::tensix::Arch;
pub use coprocessor::{Coprocessor, Dispatch, Mode, PushSource, THREADS};
pub use error::{ErrorKind, TensixError, ThreadWait};
pub use fifo::{Pushed, FIFO_SLOTS};
pub use src_banks::{Src, SrcClient};
pub use state::TensixState;
pub use units::{FlatL1, NoMemory, TensixMemory};
