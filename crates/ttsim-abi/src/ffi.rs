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

use crate::backend::{make_backend, BackendConfig, SimBackend};
use crate::device::{Device, HostCall};
use crate::error::{BackendError, ErrorKind, Where};
use crate::knobs::{Knobs, LogLevel};
use crate::stats::Stats;

/// `void (*rd)(uint64_t paddr, void *dst, uint32_t size)`; may unwind (C++ exception).
pub type DmaReadFn = unsafe extern "C-unwind" fn(paddr: u64, dst: *mut c_void, size: u32);
/// `void (*wr)(uint64_t paddr, const void *src, uint32_t size)`; may unwind.
pub type DmaWriteFn = unsafe extern "C-unwind" fn(paddr: u64, src: *const c_void, size: u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Life {
    Uninit,
    Running,
    Exited,
}

/// Cap on the number of distinct "said once" messages remembered.
const ONCE_CAP: usize = 256;

struct Abi {
    life: Life,
    /// Number of `libttsim_init` calls not yet matched by `libttsim_exit` (§1.5: two devices on
    /// one path init and exit twice).
    opens: u32,
    knobs: Option<Knobs>,
    trace: Option<File>,
    dev: Option<Device>,
    fault: Option<BackendError>,
    rd: Option<DmaReadFn>,
    wr: Option<DmaWriteFn>,
    /// Keys of messages already logged once.
    said: Vec<String>,
    /// Set while host callbacks run outside the lock; still set at the next entry means a
    /// callback unwound.
    in_host_calls: bool,
    calls: u64,
    /// `BHEMU_STATS`: counted from `libttsim_init`, printed at the last `libttsim_exit`.
    stats: Stats,
}

static ABI: Mutex<Abi> = Mutex::new(Abi {
    life: Life::Uninit,
    opens: 0,
    knobs: None,
    trace: None,
    dev: None,
    fault: None,
    rd: None,
    wr: None,
    said: Vec::new(),
    in_host_calls: false,
    calls: 0,
    stats: Stats::OFF,
});

/// One line to the trace file (`BHEMU_TRACE_FILE`), formatted only when tracing.
macro_rules! trace {
    ($abi:expr, ($($fmt:tt)*)) => {
        if $abi.trace.is_some() {
            let line = format!($($fmt)*);
            $abi.trace_line(line);
        }
    };
}

fn lock() -> MutexGuard<'static, Abi> {
    ABI.lock().unwrap_or_else(|poisoned| {
        ABI.clear_poison();
        poisoned.into_inner()
    })
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

/// Run `f` on the state with the lock held, inside `catch_unwind`. On a panic the device is
/// faulted and `fallback` returned.
fn guarded<R>(call: &'static str, fallback: R, f: impl FnOnce(&mut Abi) -> R) -> R {
    step(call, fallback, false, f)
}

/// `guarded`, for a step that resumes an entry point after its host callbacks ran.
fn step<R>(call: &'static str, fallback: R, resume: bool, f: impl FnOnce(&mut Abi) -> R) -> R {
    match catch_unwind(AssertUnwindSafe(|| {
        let mut g = lock();
        g.enter(call, resume);
        if !g.stats.on {
            return f(&mut g);
        }
        let t0 = std::time::Instant::now();
        let r = f(&mut g);
        let dt = t0.elapsed();
        g.stats.inside += dt;
        if call == "clock" {
            g.stats.clocking += dt;
        }
        r
    })) {
        Ok(r) => r,
        Err(p) => {
            let msg = panic_message(&*p);
            // A second panic here would abort; `fault` only formats and prints.
            let _ = catch_unwind(AssertUnwindSafe(|| {
                let mut g = lock();
                g.fault(BackendError::new(
                    ErrorKind::Internal,
                    Where::call(call),
                    format!("bhemu panicked: {msg}"),
                ));
            }));
            fallback
        }
    }
}

fn hex(b: &[u8]) -> String {
    let mut s: String = b.iter().take(16).map(|x| format!("{x:02x}")).collect();
    if b.len() > 16 {
        s.push('…');
    }
    s
}

impl Abi {
    fn knobs(&self) -> Knobs {
        self.knobs.clone().unwrap_or_default()
    }

    fn load_knobs(&mut self) {
        let (k, problems) = Knobs::from_env();
        self.trace = None;
        if let Some(path) = &k.trace_file {
            match OpenOptions::new().create(true).append(true).open(path) {
                Ok(f) => self.trace = Some(f),
                Err(e) => eprintln!(
                    "bhemu: warn: cannot open BHEMU_TRACE_FILE {}: {e}",
                    path.display()
                ),
            }
        }
        self.knobs = Some(k);
        for p in problems {
            self.log(LogLevel::Warn, &p);
        }
    }

    /// Every entry point starts here, with the lock held.
    fn enter(&mut self, call: &'static str, resume: bool) {
        if !resume {
            self.calls += 1;
            if call == "clock" {
                self.stats.clock_calls += 1;
            }
        }
        if self.knobs.is_none() {
            self.load_knobs();
        }
        if !resume && self.in_host_calls {
            self.in_host_calls = false;
            let (mut hung, mut dropped) = (0usize, 0u32);
            let mut failed = None;
            if let Some(dev) = self.dev.as_mut() {
                dropped = std::mem::take(&mut dev.clock_remaining);
                match dev.abandon_host_reads() {
                    Ok(n) => hung = n,
                    Err(e) => failed = Some(e),
                }
            }
            self.log(
                LogLevel::Warn,
                &format!(
                    "a DMA callback did not return (it threw?) before {call}: {hung} host read(s) answered with all-ones, {dropped} cycle(s) of the interrupted call dropped"
                ),
            );
            if let Some(e) = failed {
                self.fault(e);
            }
        }
    }

    fn log(&self, level: LogLevel, msg: &str) {
        if level <= self.knobs().log {
            eprintln!("bhemu: {}: {msg}", level.name());
        }
    }

    /// Log `msg` only the first time `key` is seen (until the next init/exit).
    fn log_once(&mut self, level: LogLevel, key: &str, msg: &str) {
        if self.said.iter().any(|k| k == key) {
            self.log(LogLevel::Debug, msg);
            return;
        }
        if self.said.len() < ONCE_CAP {
            self.said.push(key.to_string());
        }
        self.log(level, msg);
    }

    fn trace_line(&mut self, line: String) {
        let cycle = self.dev.as_ref().map(|d| d.cycle()).unwrap_or(0);
        if let Some(f) = self.trace.as_mut() {
            let s = format!("{} cycle={cycle} {line}\n", self.calls);
            let _ = f.write_all(s.as_bytes());
        }
    }

    fn cycle(&self) -> Option<u64> {
        self.dev.as_ref().map(|d| d.cycle())
    }

    /// Fault the device: one line on stderr, then all-ones until exit/init.
    fn fault(&mut self, e: BackendError) {
        if self.fault.is_some() {
            self.log(
                LogLevel::Debug,
                &format!("further error on a faulted device: {e}"),
            );
            return;
        }
        let e = match self.cycle() {
            Some(c) => e.at_cycle(c),
            None => e,
        };
        eprintln!("bhemu: error: device fault: {e}; the device now answers reads with all-ones until libttsim_exit/libttsim_init");
        trace!(self, ("FAULT {e}"));
        self.fault = Some(e);
    }

    /// The device, if running and healthy. Otherwise logs why not (once per kind) and returns None.
    fn healthy(&mut self, call: &'static str) -> Option<&mut Device> {
        if self.life != Life::Running || self.dev.is_none() {
            let state = if self.life == Life::Uninit {
                "before libttsim_init"
            } else {
                "after libttsim_exit"
            };
            self.log_once(
                LogLevel::Error,
                "not running",
                &format!("libttsim_{call} called {state}: until libttsim_init, reads answer all-ones and other calls are ignored (said once)"),
            );
            return None;
        }
        if self.fault.is_some() {
            return None;
        }
        self.dev.as_mut()
    }

    fn flush_warnings(&mut self) {
        let w = match self.dev.as_mut() {
            Some(d) if !d.warnings.is_empty() => std::mem::take(&mut d.warnings),
            _ => return,
        };
        for m in w {
            self.log_once(LogLevel::Warn, &m.clone(), &m);
        }
    }

    /// Result of a device operation: errors fault the device.
    fn check(&mut self, call: &'static str, r: Result<(), BackendError>) -> bool {
        self.flush_warnings();
        match r {
            Ok(()) => true,
            Err(e) => {
                self.fault(e.in_call(call));
                false
            }
        }
    }

    /// After a device operation: turn the backend's host requests into callback calls.
    fn host_batch(&mut self, call: &'static str) -> Option<Batch> {
        let (have_rd, have_wr) = (self.rd.is_some(), self.wr.is_some());
        let dev = self.healthy(call)?;
        let before = dev.clock_remaining;
        let calls = dev.host_calls(have_rd, have_wr);
        let more_clock = dev.clock_remaining > 0;
        let calls = match calls {
            Ok(c) => c,
            Err(e) => {
                self.check(call, Err(e));
                return None;
            }
        };
        self.flush_warnings();
        if calls.is_empty() && !more_clock {
            return None;
        }
        self.in_host_calls = !calls.is_empty();
        Some(Batch {
            calls,
            clock_before: before,
            rd: self.rd,
            wr: self.wr,
        })
    }

    /// A step after a batch: hand back read data, go on clocking, collect the next batch.
    fn continue_after(
        &mut self,
        call: &'static str,
        done: Vec<(u64, Vec<u8>)>,
        clock_before: u32,
        had_calls: bool,
    ) -> Option<Batch> {
        self.in_host_calls = false;
        let dev = self.healthy(call)?;
        let mut r = Ok(());
        for (tag, data) in done {
            r = dev.complete_host_read(tag, &data);
            if r.is_err() {
                break;
            }
        }
        if r.is_ok() {
            r = dev.clock_step();
        }
        let stuck = r.is_ok()
            && !had_calls
            && dev.clock_remaining == clock_before
            && dev.clock_remaining > 0;
        if !self.check(call, r) {
            return None;
        }
        let batch = self.host_batch(call);
        if stuck && batch.as_ref().is_some_and(|b| b.calls.is_empty()) {
            let e = BackendError::new(
                ErrorKind::Internal,
                Where::call(call),
                "the backend ran 0 cycles with no host request waiting",
            );
            self.fault(e);
            return None;
        }
        batch
    }
}

struct Batch {
    calls: Vec<HostCall>,
    clock_before: u32,
    rd: Option<DmaReadFn>,
    wr: Option<DmaWriteFn>,
}

/// Largest piece handed to one callback call (`size` is a `uint32_t`).
const CALLBACK_CHUNK: usize = 1 << 30;

/// Run the host callbacks of `batch`. No lock is held and no `catch_unwind` is on the stack
/// between here and the exported function, so an exception thrown by a callback unwinds
/// straight back to the library's caller (see the module comment).
fn run_host_calls(batch: &Batch) -> Vec<(u64, Vec<u8>)> {
    let mut done = Vec::new();
    for c in &batch.calls {
        match c {
            HostCall::Write { paddr, data } => {
                if let Some(wr) = batch.wr {
                    for (i, chunk) in data.chunks(CALLBACK_CHUNK).enumerate() {
                        // SAFETY: `chunk` is a live buffer of `chunk.len()` bytes; the callback
                        // is the host's, called with the contract of its C signature.
                        unsafe {
                            wr(
                                paddr + (i * CALLBACK_CHUNK) as u64,
                                chunk.as_ptr().cast(),
                                chunk.len() as u32,
                            )
                        };
                    }
                }
            }
            HostCall::Read { tag, len, pieces } => {
                let mut buf = vec![0xFFu8; *len];
                if let Some(rd) = batch.rd {
                    for p in pieces {
                        let Some(paddr) = p.paddr else { continue };
                        for (i, chunk) in buf[p.at..p.at + p.len]
                            .chunks_mut(CALLBACK_CHUNK)
                            .enumerate()
                        {
                            // SAFETY: as above, a live writable buffer of `chunk.len()` bytes.
                            unsafe {
                                rd(
                                    paddr + (i * CALLBACK_CHUNK) as u64,
                                    chunk.as_mut_ptr().cast(),
                                    chunk.len() as u32,
                                )
                            };
                        }
                    }
                }
                done.push((*tag, buf));
            }
        }
    }
    done
}

/// Drive one entry point: the first guarded step runs `op` and collects host calls; then, as
/// long as there are host calls or cycles owed, run the callbacks unguarded and take another
/// guarded step.
fn drive(call: &'static str, op: impl FnOnce(&mut Abi) -> Option<Batch>) {
    let mut batch = guarded(call, None, op);
    while let Some(b) = batch {
        let had_calls = !b.calls.is_empty();
        let done = run_host_calls(&b);
        let clock_before = b.clock_before;
        drop(b);
        batch = step(call, None, true, move |abi| {
            abi.continue_after(call, done, clock_before, had_calls)
        });
    }
}

/// Check a caller's buffer: null with a non-zero size is misuse (logged, call ignored).
fn null_buffer(abi: &mut Abi, call: &'static str, null: bool, size: u32) -> bool {
    if null && size > 0 {
        abi.log_once(
            LogLevel::Error,
            &format!("null {call}"),
            &format!("{call}: null buffer with size {size}; call ignored"),
        );
        trace!(abi, ("{call} null buffer size={size} -> ignored"));
        true
    } else {
        false
    }
}

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
    let cfg = BackendConfig {
        mmio: k.mmio,
        hang_cycles: k.hang_cycles,
        timeline: k.timeline.clone(),
        check_hazards: k.check_hazards,
        gdb: k.gdb.clone(),
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
    let made = match backend {
        Some(b) => Ok(b),
        None => make_backend(&cfg),
    };
    match made {
        Ok(b) => {
            abi.dev = Some(Device::new(&cfg, b));
            abi.life = Life::Running;
            abi.opens = if restart { abi.opens + 1 } else { 1 };
            abi.log(
                LogLevel::Info,
                &format!(
                    "{} (mmio {:?}, log {})",
                    if restart {
                        "restarted the faulted device"
                    } else {
                        "started"
                    },
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
    op: impl FnOnce(&mut Device, &mut [u8]) -> Result<(), BackendError>,
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
    op: impl FnOnce(&mut Device, &[u8]) -> Result<(), BackendError>,
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
        let dev = abi.healthy("clock")?;
        dev.clock_remaining = n_clocks;
        let before = n_clocks;
        let r = dev.clock_step();
        let stuck = r.is_ok() && n_clocks > 0 && dev.clock_remaining == before;
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

/// Run `f` on the backend of the running device. Returns `None` when not running.
pub fn with_backend<R>(f: impl FnOnce(&mut dyn SimBackend) -> R) -> Option<R> {
    guarded("with_backend", None, |abi| {
        abi.dev.as_mut().map(|d| f(d.backend_mut()))
    })
}

#[cfg(test)]
mod tests {
    //! The singleton is process-wide: these tests take `SERIAL` so they never overlap.
    use super::*;
    use crate::backend::{MemoryBackend, NOC_HOST_WINDOW};
    use crate::config::{BAR0_BASE, BAR2_BASE};
    use crate::iatu::IATU_STRIDE;
    use std::sync::atomic::{AtomicU32, Ordering};

    static SERIAL: Mutex<()> = Mutex::new(());
    /// Host memory of the fake host: 64 KiB at host address 0x1_0000_0000.
    static HOST: Mutex<Vec<u8>> = Mutex::new(Vec::new());
    const HOST_BASE: u64 = 0x1_0000_0000;
    static RD_CALLS: AtomicU32 = AtomicU32::new(0);

    fn serial() -> MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|p| p.into_inner())
    }

    unsafe extern "C-unwind" fn host_rd(paddr: u64, dst: *mut c_void, size: u32) {
        RD_CALLS.fetch_add(1, Ordering::SeqCst);
        let h = HOST.lock().unwrap();
        let o = (paddr - HOST_BASE) as usize;
        std::slice::from_raw_parts_mut(dst.cast::<u8>(), size as usize)
            .copy_from_slice(&h[o..o + size as usize]);
    }
    unsafe extern "C-unwind" fn host_wr(paddr: u64, src: *const c_void, size: u32) {
        let mut h = HOST.lock().unwrap();
        let o = (paddr - HOST_BASE) as usize;
        h[o..o + size as usize]
            .copy_from_slice(std::slice::from_raw_parts(src.cast::<u8>(), size as usize));
    }
    /// Stands in for a C++ handler that throws (docs/tt-umd-sim-interface.md §9).
    unsafe extern "C-unwind" fn host_rd_throws(_paddr: u64, _dst: *mut c_void, _size: u32) {
        std::panic::panic_any("host read handler threw");
    }

    fn wr32(paddr: u64, v: u32) {
        unsafe { libttsim_pci_mem_wr_bytes(paddr, v.to_le_bytes().as_ptr().cast(), 4) };
    }

    /// §4 write order for region r: +4 ← 0, +0, +8, +C, +10, +14, +18, +4 ← REGION_EN.
    fn program_iatu(r: u64, base: u64, limit: u64, target: u64) {
        let reg = BAR2_BASE + 0x1000 + r * IATU_STRIDE;
        for (o, v) in [
            (4, 0),
            (0, 0),
            (8, base as u32),
            (0xC, (base >> 32) as u32),
            (0x10, limit as u32),
            (0x14, target as u32),
            (0x18, (target >> 32) as u32),
            (4, 0x8000_0000),
        ] {
            wr32(reg + o, v);
        }
    }

    fn tile_rd(x: u32, y: u32, addr: u64, n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n];
        unsafe { libttsim_tile_rd_bytes(x, y, addr, b.as_mut_ptr().cast(), n as u32) };
        b
    }

    fn reset_host() {
        *HOST.lock().unwrap() = (0..65536u32).map(|i| (i * 7) as u8).collect();
    }

    /// §4/§9: chip accesses at NoC 2⁶⁰ + off go to the enabled region with base ≤ off ≤ limit
    /// and reach the callback at target + (off − base).
    #[test]
    fn dma_callbacks_are_routed_through_the_iatu() {
        let _s = serial();
        reset_host();
        let mut mb = MemoryBackend::new(&BackendConfig::default());
        mb.schedule_host_read(1, 2, 0x100, 0x4000_0010, 8);
        libttsim_set_pci_dma_mem_callbacks(Some(host_rd), Some(host_wr));
        init_with_backend(Box::new(mb));
        program_iatu(1, 0x4000_0000, 0x7FFF_FFFF, HOST_BASE);
        libttsim_clock(1);
        assert!(!is_faulted());
        let want: Vec<u8> = HOST.lock().unwrap()[0x10..0x18].to_vec();
        assert_eq!(tile_rd(1, 2, 0x100, 8), want);
        // A host-initiated write into the PCIe tile's NoC-to-host window is forwarded as DMA.
        let data = [1u8, 2, 3, 4, 5];
        unsafe {
            libttsim_tile_wr_bytes(2, 0, NOC_HOST_WINDOW + 0x4000_0020, data.as_ptr().cast(), 5)
        };
        assert_eq!(&HOST.lock().unwrap()[0x20..0x25], &data);
        libttsim_exit();
    }

    /// §9: with no enabled region the callbacks are never called; strict mode faults.
    #[test]
    fn dma_outside_every_region_faults_in_strict_mode_without_calling_back() {
        let _s = serial();
        reset_host();
        RD_CALLS.store(0, Ordering::SeqCst);
        let mut mb = MemoryBackend::new(&BackendConfig::default());
        mb.schedule_host_read(1, 2, 0x100, 0x10, 4);
        libttsim_set_pci_dma_mem_callbacks(Some(host_rd), Some(host_wr));
        init_with_backend(Box::new(mb));
        libttsim_clock(1);
        assert!(is_faulted());
        assert_eq!(RD_CALLS.load(Ordering::SeqCst), 0);
        assert_eq!(tile_rd(1, 2, 0x100, 4), vec![0xFF; 4]);
        libttsim_exit();
    }

    /// The C++-exception decision: a callback that unwinds goes straight back to the caller of
    /// the entry point; no lock is poisoned, the device is not faulted, and the read that was
    /// left hanging is answered with all-ones at the next call.
    #[test]
    fn unwinding_callback_reaches_the_caller_and_the_device_recovers() {
        let _s = serial();
        reset_host();
        let mut mb = MemoryBackend::new(&BackendConfig::default());
        mb.schedule_host_read(1, 2, 0x200, 0x10, 4);
        libttsim_set_pci_dma_mem_callbacks(Some(host_rd_throws), Some(host_wr));
        init_with_backend(Box::new(mb));
        program_iatu(5, 0, 0xFFFD_FFFF, HOST_BASE);
        let r = std::panic::catch_unwind(|| libttsim_clock(3));
        assert!(r.is_err(), "the callback's unwind must reach the caller");
        assert!(!ABI.is_poisoned());
        assert_eq!(tile_rd(1, 2, 0x200, 4), vec![0xFF; 4]);
        assert!(!is_faulted());
        assert_eq!(with_backend(|b| b.cycle()), Some(3));
        libttsim_exit();
    }

    /// §1.5: init twice shares the chip, exit twice ends it, exit when not running is a no-op.
    #[test]
    fn init_and_exit_nest_and_extra_exit_is_a_no_op() {
        let _s = serial();
        libttsim_init();
        wr32(BAR0_BASE + 0x1FC0_0004, 0x0004_0800); // TLB 0 → (1,2)
        wr32(BAR0_BASE + 0x40, 0xCAFE);
        libttsim_init();
        assert_eq!(
            tile_rd(1, 2, 0x40, 2),
            vec![0xFE, 0xCA],
            "second init keeps the running chip"
        );
        libttsim_exit();
        assert_eq!(tile_rd(1, 2, 0x40, 2), vec![0xFE, 0xCA], "one open remains");
        libttsim_exit();
        assert_eq!(tile_rd(1, 2, 0x40, 2), vec![0xFF, 0xFF], "exited");
        libttsim_exit();
        libttsim_init();
        assert_eq!(
            tile_rd(1, 2, 0x40, 2),
            vec![0, 0],
            "re-init starts a fresh chip"
        );
        libttsim_exit();
    }

    /// A faulted device reads all-ones; init while faulted restarts it.
    #[test]
    fn init_restarts_a_faulted_device() {
        let _s = serial();
        libttsim_init();
        let mut b = [0u8; 4];
        unsafe { libttsim_pci_mem_rd_bytes(0x10, b.as_mut_ptr().cast(), 4) };
        assert!(is_faulted());
        assert_eq!(libttsim_pci_config_rd32(0, 0), u32::MAX);
        libttsim_init();
        assert!(!is_faulted());
        assert_eq!(libttsim_pci_config_rd32(0, 0), 0xB140_1E52);
        libttsim_exit();
        libttsim_exit();
    }
}
