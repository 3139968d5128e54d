//! The library's state behind the entry points and the machinery every entry point runs
//! through: the state mutex, `catch_unwind`, the once-only log, the trace file, and the host
//! callbacks run between two guarded steps (see the safety notes of [`super`]).
use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Life {
    Uninit,
    Running,
    Exited,
}

/// Cap on the number of distinct "said once" messages remembered.
pub(super) const ONCE_CAP: usize = 256;

pub(super) struct Abi {
    pub(super) life: Life,
    /// Number of `libttsim_init` calls not yet matched by `libttsim_exit` (§1.5: two devices on
    /// one path init and exit twice).
    pub(super) opens: u32,
    pub(super) knobs: Option<Knobs>,
    pub(super) trace: Option<File>,
    pub(super) dev: Option<System>,
    pub(super) fault: Option<BackendError>,
    pub(super) rd: Option<DmaReadFn>,
    pub(super) wr: Option<DmaWriteFn>,
    /// Keys of messages already logged once.
    pub(super) said: Vec<String>,
    /// Set while host callbacks run outside the lock; still set at the next entry means a
    /// callback unwound.
    pub(super) in_host_calls: bool,
    pub(super) calls: u64,
    /// `BHEMU_STATS`: counted from `libttsim_init`, printed at the last `libttsim_exit`.
    pub(super) stats: Stats,
}

pub(super) static ABI: Mutex<Abi> = Mutex::new(Abi {
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

pub(super) fn lock() -> MutexGuard<'static, Abi> {
    ABI.lock().unwrap_or_else(|poisoned| {
        ABI.clear_poison();
        poisoned.into_inner()
    })
}

pub(super) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
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
pub(super) fn guarded<R>(call: &'static str, fallback: R, f: impl FnOnce(&mut Abi) -> R) -> R {
    step(call, fallback, false, f)
}

/// `guarded`, for a step that resumes an entry point after its host callbacks ran.
pub(super) fn step<R>(
    call: &'static str,
    fallback: R,
    resume: bool,
    f: impl FnOnce(&mut Abi) -> R,
) -> R {
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

pub(super) fn hex(b: &[u8]) -> String {
    let mut s: String = b.iter().take(16).map(|x| format!("{x:02x}")).collect();
    if b.len() > 16 {
        s.push('…');
    }
    s
}

impl Abi {
    pub(super) fn knobs(&self) -> Knobs {
        self.knobs.clone().unwrap_or_default()
    }

    pub(super) fn load_knobs(&mut self) {
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

    /// Every entry point starts here, with the lock held. The common case — knobs loaded, no
    /// callback interrupted — stays inline (with [`Abi::healthy`], [`Abi::check`] and
    /// [`null_buffer`]: tt-umd makes five calls per polling read).
    #[inline]
    pub(super) fn enter(&mut self, call: &'static str, resume: bool) {
        if !resume {
            self.calls += 1;
            if call == "clock" {
                self.stats.clock_calls += 1;
            }
        }
        if self.knobs.is_none() || (!resume && self.in_host_calls) {
            self.enter_slow(call, resume);
        }
    }

    #[cold]
    #[inline(never)]
    fn enter_slow(&mut self, call: &'static str, resume: bool) {
        if self.knobs.is_none() {
            self.load_knobs();
        }
        if !resume && self.in_host_calls {
            self.in_host_calls = false;
            let (mut hung, mut dropped) = (0usize, 0u32);
            let mut failed = None;
            if let Some(dev) = self.dev.as_mut() {
                dropped = dev.take_clock();
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

    pub(super) fn log(&self, level: LogLevel, msg: &str) {
        if level <= self.knobs().log {
            eprintln!("bhemu: {}: {msg}", level.name());
        }
    }

    /// Log `msg` only the first time `key` is seen (until the next init/exit).
    pub(super) fn log_once(&mut self, level: LogLevel, key: &str, msg: &str) {
        if self.said.iter().any(|k| k == key) {
            self.log(LogLevel::Debug, msg);
            return;
        }
        if self.said.len() < ONCE_CAP {
            self.said.push(key.to_string());
        }
        self.log(level, msg);
    }

    pub(super) fn trace_line(&mut self, line: String) {
        let cycle = self.dev.as_ref().map(|d| d.cycle()).unwrap_or(0);
        if let Some(f) = self.trace.as_mut() {
            let s = format!("{} cycle={cycle} {line}\n", self.calls);
            let _ = f.write_all(s.as_bytes());
        }
    }

    pub(super) fn cycle(&self) -> Option<u64> {
        self.dev.as_ref().map(|d| d.cycle())
    }

    /// Fault the device: one line on stderr, then all-ones until exit/init.
    pub(super) fn fault(&mut self, e: BackendError) {
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
    #[inline]
    pub(super) fn healthy(&mut self, call: &'static str) -> Option<&mut System> {
        if self.life != Life::Running || self.dev.is_none() {
            self.not_running(call);
            return None;
        }
        if self.fault.is_some() {
            return None;
        }
        self.dev.as_mut()
    }

    #[cold]
    #[inline(never)]
    fn not_running(&mut self, call: &'static str) {
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
    }

    #[inline]
    pub(super) fn flush_warnings(&mut self) {
        if self.dev.as_ref().is_some_and(System::has_warnings) {
            self.log_warnings();
        }
    }

    #[cold]
    #[inline(never)]
    fn log_warnings(&mut self) {
        let w = match self.dev.as_mut() {
            Some(d) if d.has_warnings() => d.take_warnings(),
            _ => return,
        };
        for m in w {
            self.log_once(LogLevel::Warn, &m.clone(), &m);
        }
    }

    /// Result of a device operation: errors fault the device.
    #[inline]
    pub(super) fn check(&mut self, call: &'static str, r: Result<(), BackendError>) -> bool {
        self.flush_warnings();
        match r {
            Ok(()) => true,
            Err(e) => {
                self.fault_in(call, e);
                false
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn fault_in(&mut self, call: &'static str, e: BackendError) {
        self.fault(e.in_call(call));
    }

    /// After a device operation: turn the backend's host requests into callback calls. Most
    /// calls leave nothing pending and return here, without building a batch.
    #[inline]
    pub(super) fn host_batch(&mut self, call: &'static str) -> Option<Batch> {
        match &self.dev {
            Some(d) if self.life == Life::Running && self.fault.is_none() && !d.work_pending() => {
                None
            }
            _ => self.host_batch_pending(call),
        }
    }

    #[inline(never)]
    fn host_batch_pending(&mut self, call: &'static str) -> Option<Batch> {
        let (have_rd, have_wr) = (self.rd.is_some(), self.wr.is_some());
        let dev = self.healthy(call)?;
        let before = dev.clock_remaining();
        let calls = dev.host_calls(have_rd, have_wr);
        let more_clock = dev.clock_remaining() > 0;
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
    pub(super) fn continue_after(
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
            && dev.clock_remaining() == clock_before
            && dev.clock_remaining() > 0;
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

pub(super) struct Batch {
    pub(super) calls: Vec<HostCall>,
    pub(super) clock_before: u32,
    pub(super) rd: Option<DmaReadFn>,
    pub(super) wr: Option<DmaWriteFn>,
}

/// Largest piece handed to one callback call (`size` is a `uint32_t`).
pub(super) const CALLBACK_CHUNK: usize = 1 << 30;

/// Run the host callbacks of `batch`. No lock is held and no `catch_unwind` is on the stack
/// between here and the exported function, so an exception thrown by a callback unwinds
/// straight back to the library's caller (see the module comment).
pub(super) fn run_host_calls(batch: &Batch) -> Vec<(u64, Vec<u8>)> {
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
pub(super) fn drive(call: &'static str, op: impl FnOnce(&mut Abi) -> Option<Batch>) {
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
#[inline]
pub(super) fn null_buffer(abi: &mut Abi, call: &'static str, null: bool, size: u32) -> bool {
    if null && size > 0 {
        null_buffer_misuse(abi, call, size);
        true
    } else {
        false
    }
}

#[cold]
#[inline(never)]
fn null_buffer_misuse(abi: &mut Abi, call: &'static str, size: u32) {
    abi.log_once(
        LogLevel::Error,
        &format!("null {call}"),
        &format!("{call}: null buffer with size {size}; call ignored"),
    );
    trace!(abi, ("{call} null buffer size={size} -> ignored"));
}
