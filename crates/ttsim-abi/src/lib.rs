//! `libttsim.so`: the simulator C ABI that tt-umd 0.9.14 loads
//! (`tt_umd.create_simulation_tt_device(path)`), with the PCIe face of a Blackhole chip —
//! config space, BAR0 TLB windows and registers, BAR2 outbound iATU, BAR4 — over a narrow
//! [`SimBackend`] trait that the chip model implements.
//!
//! The interface contract is docs/tt-umd-sim-interface.md; the library's own behaviour
//! (misuse answers, C++ exceptions, environment knobs) is docs/libttsim-abi.md.
//!
//! Layout:
//! * [`ffi`]: the exported symbols, the process-wide state and the safety net;
//! * [`device`]: the PCIe face and the routing of accesses;
//! * [`tlb`], [`config`], [`iatu`]: register layouts;
//! * [`backend`]: the trait, `MemoryBackend` (the stand-in of the crate's own tests) and
//!   [`make_backend`], the one place that chooses the backend;
//! * [`chip_backend`]: `ChipBackend`, the backend over bhemu's Blackhole chip, which
//!   `libttsim_init` uses;
//! * [`knobs`]: `BHEMU_LOG`, `BHEMU_TRACE_FILE`, `BHEMU_MMIO`;
//! * [`umd_client`]: a native client calling the exported functions as tt-umd does, through
//!   [`sim_calls::SimCalls`]: bhemu's linked functions or a library [`dynlib`] loaded at run time.
pub mod backend;
pub mod chip_backend;
pub mod config;
pub mod device;
pub mod dynlib;
pub mod error;
pub mod ffi;
pub mod iatu;
pub mod installed;
pub mod knobs;
pub mod sim_calls;
pub mod stats;
pub mod system;
pub mod tlb;
pub mod umd_client;

pub use backend::{
    make_backend, BackendConfig, HostRequest, MemoryBackend, MmioMode, SimBackend, NOC_HOST_WINDOW,
};
pub use chip_backend::ChipBackend;
pub use device::Device;
pub use error::{BackendError, ErrorKind, Where};
