//! The exported C ABI (docs/tt-umd-sim-interface.md; docs/tt-umd-sim-interface.md §1.1) over one process-wide
//! [`Device`].
//!
//! # Safety net
//! Every entry point runs its body inside `catch_unwind` while holding the state mutex, so a
//! bhemu panic never unwinds into the host: it faults the device and the call gets its fallback
//! answer. A poisoned mutex is recovered (`clear_poison`).
//!
//! # DMA callbacks and C++ exceptions
//! tt-umd's DMA handlers can throw C++ exceptions (docs/tt-umd-sim-interface.md §9). Rust cannot
//! catch a foreign exception: one that reaches `catch_unwind` aborts the process, and one that
//! reaches an `extern "C"` frame aborts too. bhemu therefore
//! * types the callbacks `extern "C-unwind"` and exports every entry point that can call them
//!   (`pci_mem_*`, `tile_*`, `clock`) as `extern "C-unwind"` (the same calling convention as
//!   `"C"`), so an exception may legally unwind through bhemu's frames back into tt-umd;
//! * calls the callbacks only between two guarded steps: with **no lock held** and **no
//!   `catch_unwind` on the stack** between the callback and the exported function. The frames
//!   in between own only plain heap buffers, which unwinding frees;
//! * keeps the device consistent at that point (the backend is between two calls). If a callback
//!   does not return, the next entry point notices (`in_host_calls` still set), answers the
//!   host reads that were left hanging with all-ones, drops the rest of an interrupted
//!   `libttsim_clock`, and logs one warning. The exception itself reaches tt-umd's caller, as it
//!   would with a C simulator.
use std::ffi::c_void;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

use crate::backend::{BackendConfig, SimBackend};
use crate::device::HostCall;
use crate::error::{BackendError, ErrorKind, Where};
use crate::knobs::{Knobs, LogLevel};
use crate::stats::Stats;
use crate::system::System;

/// `void (*rd)(uint64_t paddr, void *dst, uint32_t size)`; may unwind (C++ exception).
pub type DmaReadFn = unsafe extern "C-unwind" fn(paddr: u64, dst: *mut c_void, size: u32);
/// `void (*wr)(uint64_t paddr, const void *src, uint32_t size)`; may unwind.
pub type DmaWriteFn = unsafe extern "C-unwind" fn(paddr: u64, src: *const c_void, size: u32);

#[macro_use]
mod abi;
use abi::*;

// ---- lifecycle -----------------------------------------------------------------------------

/// `void libttsim_init(void)`. Starts the chip. While already running it only counts the open
/// (tt-umd opens the same image twice for two devices, §1.5), unless the device is faulted,
/// in which case it restarts it.
#[no_mangle]
pub extern "C" fn libttsim_init() {
    guarded("init", (), |abi| start(abi, None))
}

/// `libttsim_init` with a caller-built backend instead of [`make_backend`]'s (tests script host
/// DMA on a `MemoryBackend` this way; an embedder could pass the chip). Same rules as
/// `libttsim_init`; if already running and healthy, `backend` is dropped.
pub fn init_with_backend(backend: Box<dyn SimBackend>) {
    guarded("init", (), |abi| start(abi, Some(backend)))
}

fn start(abi: &mut Abi, backend: Option<Box<dyn SimBackend>>) {
    abi.load_knobs();
    if abi.life == Life::Running && abi.fault.is_none() {
        abi.opens += 1;
        abi.log(
            LogLevel::Info,
            &format!(
                "libttsim_init while running: open #{} shares the running chip",
                abi.opens
            ),
        );
        trace!(abi, ("init -> already running, opens={}", abi.opens));
        return;
    }
    let restart = abi.life == Life::Running;
    let k = abi.knobs();
    // BHEMU_SYSTEM, else what `bhemu install-sim --system` recorded beside the library.
    let named = k.system.clone().or_else(crate::installed::recorded_system);
    let system = match named.as_deref().map(bhemu_chip::SystemKind::parse) {
        None => Ok(bhemu_chip::SystemKind::P150),
        Some(Ok(s)) => Ok(s),
        Some(Err(e)) => Err(BackendError::new(
            ErrorKind::Chip,
            Where::call("init"),
            format!("BHEMU_SYSTEM: {}", e.message),
        )),
    };
    let cfg = BackendConfig {
        system: *system.as_ref().unwrap_or(&bhemu_chip::SystemKind::P150),
        mmio: k.mmio,
        hang_cycles: k.hang_cycles,
        timeline: k.timeline.clone(),
        check_hazards: k.check_hazards,
        noc_hops: k.noc_hops,
        gdb: k.gdb.clone(),
        tensix_strict: k.strict,
    };
    abi.said.clear();
    abi.fault = None;
    abi.in_host_calls = false;
    abi.dev = None;
    abi.stats = Stats {
        on: k.stats,
        since_call: abi.calls,
        ..Stats::OFF
    };
    let made = system.and_then(|_| System::build(&cfg, backend));
    match made {
        Ok(sys) => {
            abi.dev = Some(sys);
            abi.life = Life::Running;
            abi.opens = if restart { abi.opens + 1 } else { 1 };
            abi.log(
                LogLevel::Info,
                &format!(
                    "{} (system {}, mmio {:?}, log {})",
                    if restart {
                        "restarted the faulted device"
                    } else {
                        "started"
                    },
                    cfg.system.name(),
                    k.mmio,
                    k.log.name()
                ),
            );
            trace!(abi, ("init -> running"));
        }
        Err(e) => {
            abi.life = Life::Exited;
            abi.opens = 0;
            abi.log(LogLevel::Error, &format!("libttsim_init failed: {e}"));
            trace!(abi, ("init -> failed: {e}"));
        }
    }
}

/// `void libttsim_exit(void)`. Ends one open; the last one drops the chip and the callbacks.
/// When not running: a no-op.
#[no_mangle]
pub extern "C" fn libttsim_exit() {
    guarded("exit", (), |abi| {
        if abi.life != Life::Running {
            abi.log(
                LogLevel::Debug,
                "libttsim_exit while not running: nothing to do",
            );
            trace!(abi, ("exit -> not running"));
            return;
        }
        abi.opens = abi.opens.saturating_sub(1);
        if abi.opens > 0 {
            trace!(abi, ("exit -> {} open(s) remain", abi.opens));
            return;
        }
        trace!(abi, ("exit -> exited"));
        if abi.stats.on {
            let (cycles, tiles) = abi.dev.as_ref().map_or((0, 0), |d| (d.cycle(), d.tiles()));
            eprintln!("{}", abi.stats.line(abi.calls, cycles, tiles));
        }
        abi.dev = None;
        abi.fault = None;
        abi.rd = None;
        abi.wr = None;
        abi.in_host_calls = false;
        abi.said.clear();
        abi.life = Life::Exited;
        abi.log(LogLevel::Info, "exited");
    })
}

/// `void libttsim_set_pci_dma_mem_callbacks(rd, wr)`. Any time; replaces earlier pointers. A
/// null pointer means "no callback".
#[no_mangle]
pub extern "C" fn libttsim_set_pci_dma_mem_callbacks(
    rd: Option<DmaReadFn>,
    wr: Option<DmaWriteFn>,
) {
    guarded("set_pci_dma_mem_callbacks", (), |abi| {
        abi.rd = rd;
        abi.wr = wr;
        trace!(
            abi,
            (
                "set_pci_dma_mem_callbacks rd={} wr={}",
                if rd.is_some() { "set" } else { "null" },
                if wr.is_some() { "set" } else { "null" }
            )
        );
    })
}

// ---- config space --------------------------------------------------------------------------

/// `uint32_t libttsim_pci_config_rd32(uint32_t bdf, uint32_t offset)`.
#[no_mangle]
pub extern "C" fn libttsim_pci_config_rd32(bdf: u32, offset: u32) -> u32 {
    guarded("pci_config_rd32", u32::MAX, |abi| {
        let v = if abi.fault.is_some() && abi.life == Life::Running {
            u32::MAX
        } else if let Some(dev) = abi.healthy("pci_config_rd32") {
            match dev.config_read32(bdf, offset) {
                Ok(v) => v,
                Err(e) => {
                    abi.log_once(LogLevel::Error, &format!("cfg rd {e:?}"), &format!("pci_config_rd32: offset {offset:#x} of bdf {bdf:#x} is {e:?} (config reads are aligned dwords below 0x1000); answered all-ones"));
                    u32::MAX
                }
            }
        } else {
            u32::MAX
        };
        trace!(
            abi,
            ("pci_config_rd32 bdf={bdf:#x} offset={offset:#x} -> {v:#010x}")
        );
        v
    })
}

/// `void libttsim_pci_config_wr32(uint32_t bdf, uint32_t offset, uint32_t data)` (not used by
/// tt-umd 0.9.14, §0). Writable: command register and BARs of BDF 0.
#[no_mangle]
pub extern "C" fn libttsim_pci_config_wr32(bdf: u32, offset: u32, data: u32) {
    guarded("pci_config_wr32", (), |abi| {
        trace!(
            abi,
            ("pci_config_wr32 bdf={bdf:#x} offset={offset:#x} data={data:#010x}")
        );
        if let Some(dev) = abi.healthy("pci_config_wr32") {
            if let Err(e) = dev.config_write32(bdf, offset, data) {
                abi.log_once(LogLevel::Error, &format!("cfg wr {e:?}"), &format!("pci_config_wr32: offset {offset:#x} of bdf {bdf:#x} is {e:?}; write ignored"));
            }
        }
    })
}

// ---- memory --------------------------------------------------------------------------------

/// `void libttsim_pci_mem_rd_bytes(uint64_t paddr, void *dst, uint32_t size)`.
///
/// # Safety
/// `dst` must be null or point to `size` writable bytes.
#[no_mangle]
pub unsafe extern "C-unwind" fn libttsim_pci_mem_rd_bytes(paddr: u64, dst: *mut c_void, size: u32) {
    read_entry(
        "pci_mem_rd_bytes",
        dst,
        size,
        move |dev, buf| dev.mem_read(paddr, buf),
        move || format!("paddr={paddr:#x} size={size}"),
    );
}

/// `void libttsim_pci_mem_wr_bytes(uint64_t paddr, const void *src, uint32_t size)`.
///
/// # Safety
/// `src` must be null or point to `size` readable bytes.
#[no_mangle]
pub unsafe extern "C-unwind" fn libttsim_pci_mem_wr_bytes(
    paddr: u64,
    src: *const c_void,
    size: u32,
) {
    write_entry(
        "pci_mem_wr_bytes",
        src,
        size,
        move |dev, buf| dev.mem_write(paddr, buf),
        move || format!("paddr={paddr:#x} size={size}"),
    );
}

/// `void libttsim_tile_rd_bytes(uint32_t x, uint32_t y, uint64_t addr, void *dst, uint32_t size)`.
///
/// # Safety
/// `dst` must be null or point to `size` writable bytes.
#[no_mangle]
pub unsafe extern "C-unwind" fn libttsim_tile_rd_bytes(
    x: u32,
    y: u32,
    addr: u64,
    dst: *mut c_void,
    size: u32,
) {
    read_entry(
        "tile_rd_bytes",
        dst,
        size,
        move |dev, buf| dev.tile_read(x, y, addr, buf),
        move || format!("x={x} y={y} addr={addr:#x} size={size}"),
    );
}

/// `void libttsim_tile_wr_bytes(uint32_t x, uint32_t y, uint64_t addr, const void *src, uint32_t size)`.
///
/// # Safety
/// `src` must be null or point to `size` readable bytes.
#[no_mangle]
pub unsafe extern "C-unwind" fn libttsim_tile_wr_bytes(
    x: u32,
    y: u32,
    addr: u64,
    src: *const c_void,
    size: u32,
) {
    write_entry(
        "tile_wr_bytes",
        src,
        size,
        move |dev, buf| dev.tile_write(x, y, addr, buf),
        move || format!("x={x} y={y} addr={addr:#x} size={size}"),
    );
}

/// Shared body of the read entry points: all-ones unless the device answers.
///
/// # Safety
/// `dst` must be null or point to `size` writable bytes.
unsafe fn read_entry(
    call: &'static str,
    dst: *mut c_void,
    size: u32,
    op: impl FnOnce(&mut System, &mut [u8]) -> Result<(), BackendError>,
    args: impl Fn() -> String,
) {
    let valid = !dst.is_null() && size > 0;
    let mut answered = false;
    drive(call, |abi| {
        if null_buffer(abi, call, dst.is_null(), size) {
            answered = true;
            return None;
        }
        if size == 0 {
            answered = true;
            trace!(abi, ("{call} {} -> no-op", args()));
            return None;
        }
        // SAFETY: non-null, and the caller promises `size` writable bytes.
        let buf = unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), size as usize) };
        let r = match abi.healthy(call) {
            Some(dev) => op(dev, buf),
            None => Ok(()),
        };
        let ok = abi.fault.is_none() && abi.life == Life::Running && abi.check(call, r);
        if !ok {
            buf.fill(0xFF);
        }
        answered = true;
        trace!(abi, ("{call} {} -> {}", args(), hex(buf)));
        abi.host_batch(call)
    });
    if valid && !answered {
        // A panic cut the first step short; the device is faulted. Answer like a hung device.
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), size as usize) }.fill(0xFF);
    }
}

/// Shared body of the write entry points: dropped unless the device takes them.
///
/// # Safety
/// `src` must be null or point to `size` readable bytes.
unsafe fn write_entry(
    call: &'static str,
    src: *const c_void,
    size: u32,
    op: impl FnOnce(&mut System, &[u8]) -> Result<(), BackendError>,
    args: impl Fn() -> String,
) {
    drive(call, |abi| {
        if null_buffer(abi, call, src.is_null(), size) {
            return None;
        }
        if size == 0 {
            trace!(abi, ("{call} {} -> no-op", args()));
            return None;
        }
        // SAFETY: non-null, and the caller promises `size` readable bytes.
        let buf = unsafe { std::slice::from_raw_parts(src.cast::<u8>(), size as usize) };
        trace!(abi, ("{call} {} data={}", args(), hex(buf)));
        if let Some(dev) = abi.healthy(call) {
            let r = op(dev, buf);
            abi.check(call, r);
        }
        abi.host_batch(call)
    });
}

// ---- time ----------------------------------------------------------------------------------

/// `void libttsim_clock(uint32_t n_clocks)`: the only place time advances (docs/execution-model.md EM-2).
#[no_mangle]
pub extern "C-unwind" fn libttsim_clock(n_clocks: u32) {
    drive("clock", |abi| {
        trace!(abi, ("clock n={n_clocks}"));
        let scale = abi.knobs.as_ref().map_or(1, |k| k.cycles_per_clock);
        let dev = abi.healthy("clock")?;
        let n_clocks = n_clocks.saturating_mul(scale);
        dev.set_clock(n_clocks);
        let before = n_clocks;
        let r = dev.clock_step();
        let stuck = r.is_ok() && n_clocks > 0 && dev.clock_remaining() == before;
        if !abi.check("clock", r) {
            return None;
        }
        let batch = abi.host_batch("clock");
        if stuck && batch.as_ref().is_some_and(|b| b.calls.is_empty()) {
            abi.fault(BackendError::new(
                ErrorKind::Internal,
                Where::call("clock"),
                "the backend ran 0 cycles with no host request waiting",
            ));
            return None;
        }
        batch
    });
}

// ---- Rust-side helpers for tests and the CLI ---------------------------------------------

/// Whether the device is running and faulted (for tests).
pub fn is_faulted() -> bool {
    guarded("is_faulted", false, |abi| abi.fault.is_some())
}

/// Run `f` on the backend of the running device (chip 0 of a system). Returns `None` when not
/// running.
pub fn with_system<R>(f: impl FnOnce(&mut System) -> R) -> Option<R> {
    guarded("with_system", None, |abi| abi.dev.as_mut().map(f))
}

/// Run `f` on the backend of chip 0 of the running device. Returns `None` when not running.
pub fn with_backend<R>(f: impl FnOnce(&mut dyn SimBackend) -> R) -> Option<R> {
    guarded("with_backend", None, |abi| {
        abi.dev.as_mut().map(|d| f(d.backend_mut()))
    })
}

#[cfg(test)]
mod tests;
