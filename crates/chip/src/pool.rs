//! A persistent pool of host threads that run one borrowed job together, then wait for the next.
//!
//! The fast schedule spreads a cycle's tiles over host threads ([`crate::threads`]). With a
//! quantum of one cycle (functional timing, docs/noc-lookahead.md) that is one fork and one join
//! per cycle (per quantum of up to 20 cycles under hop timing): scoped threads cost tens of microseconds to spawn and join, which only a cycle of
//! many busy Matrix Units pays for. The pool's threads live as long as the chip; between jobs
//! they spin for [`SPIN`] and then sleep on a condition variable, so a job that follows another
//! within the spin time starts in well under a microsecond and a quiet chip costs no CPU.
//!
//! [`Pool::broadcast`] runs `job(0)` on the calling thread and lends `job` to the pool's
//! threads while that runs: a pool thread `i < width` that comes for the job before the
//! caller's own share has returned runs `job(i)`; one that comes later (it was asleep, or
//! descheduled) finds the job withdrawn and does nothing. So the caller never waits for a
//! thread to *wake*, only for those already inside the job to return, and a job must be
//! written to share its work out dynamically (threads take pieces until none is left, the
//! caller among them) rather than give thread `i` a fixed part. The wait for the threads inside
//! is what makes lending the job by reference sound: the job may borrow the caller's stack, and
//! no pool thread touches it after it has counted itself out.
//!
//! docs/execution-model.md EM-21 states these rules; the unit tests below (`em21_…`) guard
//! them.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an idle pool thread spins, looking for the next job, before it sleeps. A busy
/// chip's next spread cycle comes a few microseconds after the last one's join (the NoC tick);
/// a chip that stopped spreading should not keep cores busy for longer than this.
pub const SPIN: Duration = Duration::from_micros(50);

/// The job a broadcast lends to the pool's threads: `job(i)` for thread `i`.
pub type Job<'a> = dyn Fn(usize) + Sync + 'a;

/// `state`'s low bit: the job of the broadcast numbered in the other bits is lent.
const LENT: u64 = 1;

/// What the caller and the pool's threads share. No lock is taken on the way into or out of
/// a job (sixteen threads waking at once for a cycle of a few microseconds made a lock the
/// largest cost of a spread cycle); the mutex and condition variable are for sleeping only.
struct Shared {
    /// `epoch << 1 | LENT`: the newest broadcast's number, and whether its job is lent.
    state: AtomicU64,
    /// The newest broadcast's width and job: a pointer to the caller's reference to its job,
    /// its lifetime erased (see [`Pool::broadcast`] for why that is sound). Written before
    /// `state` announces the broadcast.
    width: AtomicUsize,
    job: AtomicPtr<&'static Job<'static>>,
    /// Pool threads that may be inside the current job: a thread counts itself in *before*
    /// it looks whether the job is lent, and out when it is done with it.
    active: AtomicUsize,
    /// A pool thread's job panicked in the current broadcast.
    panicked: AtomicBool,
    /// Threads asleep on `wake` (a broadcast notifies only when there are some).
    sleepers: AtomicUsize,
    sleep: Mutex<()>,
    wake: Condvar,
    shutdown: AtomicBool,
}

/// A job (or the caller's own share of it) panicked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobPanicked;

/// Host threads that stay alive between jobs (see the module documentation).
pub struct Pool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool that can run jobs `width` threads wide: the caller and `width - 1` pool threads.
    /// Threads the system refuses to start are left out (a narrower pool, never an error).
    pub fn new(width: usize) -> Pool {
        let shared = Arc::new(Shared {
            state: AtomicU64::new(0),
            width: AtomicUsize::new(0),
            job: AtomicPtr::new(std::ptr::null_mut()),
            active: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            sleepers: AtomicUsize::new(0),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            shutdown: AtomicBool::new(false),
        });
        let mut threads = Vec::new();
        for i in 1..width.max(1) {
            let s = Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("bhemu-tiles-{i}"))
                .spawn(move || worker(&s, i));
            match spawned {
                Ok(h) => threads.push(h),
                Err(_) => break,
            }
        }
        Pool { shared, threads }
    }

    /// The widest job the pool runs: its threads plus the caller.
    pub fn width(&self) -> usize {
        self.threads.len() + 1
    }

    /// Runs `job(0)` on the calling thread and, while it runs, `job(i)` on each pool thread
    /// `i < width` (at most [`Pool::width`]) that comes for it in time (see the module
    /// documentation); returns when every share that started has returned.
    ///
    /// Soundness of lending `job`, which may borrow from the caller's stack, to threads that
    /// outlive it (all accesses below are sequentially consistent): a pool thread counts itself
    /// into `active` first, then calls `job` only if `state` still says this broadcast's job is
    /// lent, and counts itself out after `job` returns. This function withdraws the job (clears
    /// `LENT`) after its own share — which runs under `catch_unwind`, so nothing unwinds past
    /// this point — and then waits for `active` to reach zero. A thread whose look at `state`
    /// comes before the withdrawal was counted in before it, so the wait sees it; one whose
    /// look comes after finds the job withdrawn and leaves without touching it.
    pub fn broadcast(&self, width: usize, job: &Job<'_>) -> Result<(), JobPanicked> {
        let width = width.clamp(1, self.width());
        if width == 1 {
            return catch_unwind(AssertUnwindSafe(|| job(0))).map_err(|_| JobPanicked);
        }
        let s = &*self.shared;
        let mut lent: &Job<'_> = job;
        let ptr: *mut &Job<'_> = &mut lent;
        // SAFETY: only the lifetime bounds change (the same pointer); see above for why no
        // thread uses it after this function returns.
        let ptr: *mut &'static Job<'static> = unsafe { std::mem::transmute(ptr) };
        s.panicked.store(false, Ordering::SeqCst);
        s.width.store(width, Ordering::SeqCst);
        s.job.store(ptr, Ordering::SeqCst);
        let epoch = (s.state.load(Ordering::SeqCst) >> 1).wrapping_add(1);
        s.state.store(epoch << 1 | LENT, Ordering::SeqCst);
        if s.sleepers.load(Ordering::SeqCst) > 0 {
            let _g = s.sleep.lock().unwrap_or_else(PoisonError::into_inner);
            s.wake.notify_all();
        }
        let own = catch_unwind(AssertUnwindSafe(|| job(0)));
        s.state.store(epoch << 1, Ordering::SeqCst);
        let mut spins = 0u32;
        while s.active.load(Ordering::SeqCst) != 0 {
            spins = spins.saturating_add(1);
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                // More threads than cores (or a descheduled one): give it the core.
                std::thread::yield_now();
            }
        }
        s.job.store(std::ptr::null_mut(), Ordering::SeqCst);
        if own.is_err() || s.panicked.load(Ordering::SeqCst) {
            return Err(JobPanicked);
        }
        Ok(())
    }
}

/// The pool kept in `slot` for `threads` threads, started (or restarted for a new count) on
/// first use: the chip starts its pool at the first spread cycle or quantum, not before.
pub(crate) fn pool_for(slot: &mut Option<(usize, Pool)>, threads: usize) -> &Pool {
    if slot.as_ref().is_some_and(|(w, _)| *w != threads) {
        *slot = None;
    }
    &slot.get_or_insert_with(|| (threads, Pool::new(threads))).1
}

impl Drop for Pool {
    fn drop(&mut self) {
        let s = &*self.shared;
        s.shutdown.store(true, Ordering::SeqCst);
        {
            let _g = s.sleep.lock().unwrap_or_else(PoisonError::into_inner);
            s.wake.notify_all();
        }
        for h in self.threads.drain(..) {
            // A pool thread never panics outside `catch_unwind`; nothing to report if it did.
            let _ = h.join();
        }
    }
}

/// Pool thread `i`: waits for each broadcast and runs its share if `i < width` and the job is
/// still lent when it comes.
fn worker(s: &Shared, i: usize) {
    let mut seen = 0u64;
    loop {
        let Some(epoch) = wait_for_job(s, seen) else {
            return;
        };
        seen = epoch;
        s.active.fetch_add(1, Ordering::SeqCst);
        if s.state.load(Ordering::SeqCst) == epoch << 1 | LENT && i < s.width.load(Ordering::SeqCst)
        {
            let job = s.job.load(Ordering::SeqCst);
            // SAFETY: this thread is counted in `active` and saw the job lent after that, so
            // the broadcast that lent it is still waiting (see `Pool::broadcast`); the
            // pointer is to its reference to the job.
            if let Some(job) = unsafe { job.as_ref() } {
                if catch_unwind(AssertUnwindSafe(|| job(i))).is_err() {
                    s.panicked.store(true, Ordering::SeqCst);
                }
            }
        }
        s.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Waits until a broadcast other than `seen` lends its job (its number) or the pool shuts down
/// (`None`): spinning for [`SPIN`], then asleep on the condition variable.
fn wait_for_job(s: &Shared, seen: u64) -> Option<u64> {
    let lent = |st: u64| (st & LENT != 0 && st >> 1 != seen).then_some(st >> 1);
    let start = Instant::now();
    let mut spins = 0u32;
    loop {
        if s.shutdown.load(Ordering::Acquire) {
            return None;
        }
        if let Some(e) = lent(s.state.load(Ordering::Acquire)) {
            return Some(e);
        }
        spins = spins.wrapping_add(1);
        if !spins.is_multiple_of(64) {
            std::hint::spin_loop();
            continue;
        }
        if start.elapsed() < SPIN {
            std::thread::yield_now();
            continue;
        }
        // Asleep: announce it before the last look at `state`, under the lock a broadcast
        // takes to notify, so a broadcast either is seen here or sees the sleeper.
        let mut g = s.sleep.lock().unwrap_or_else(PoisonError::into_inner);
        s.sleepers.fetch_add(1, Ordering::SeqCst);
        while lent(s.state.load(Ordering::SeqCst)).is_none() && !s.shutdown.load(Ordering::SeqCst) {
            g = s.wake.wait(g).unwrap_or_else(PoisonError::into_inner);
        }
        s.sleepers.fetch_sub(1, Ordering::SeqCst);
        drop(g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Share 0 waits (at most a second) until share `i` has started, so the test does not
    /// depend on how fast a pool thread comes for the job.
    fn wait_for(flag: &AtomicBool) {
        let t0 = Instant::now();
        while !flag.load(Ordering::SeqCst) && t0.elapsed() < Duration::from_secs(1) {
            std::thread::yield_now();
        }
    }

    #[test]
    fn em21_a_broadcast_runs_share_zero_on_the_caller_and_each_share_at_most_once() {
        let pool = Pool::new(4);
        assert_eq!(pool.width(), 4);
        let caller = std::thread::current().id();
        for round in 0..200usize {
            let hits: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(0)).collect();
            let on_caller = AtomicBool::new(false);
            let width = 1 + round % 4;
            let r = pool.broadcast(width, &|i| {
                hits[i].fetch_add(1, Ordering::SeqCst);
                if i == 0 {
                    on_caller.store(std::thread::current().id() == caller, Ordering::SeqCst);
                }
            });
            assert_eq!(r, Ok(()));
            let got: Vec<usize> = hits.iter().map(|h| h.load(Ordering::SeqCst)).collect();
            assert_eq!(got[0], 1, "round {round}: share 0 once");
            assert!(
                on_caller.load(Ordering::SeqCst),
                "round {round}: share 0 on the caller"
            );
            for (i, n) in got.iter().enumerate().skip(1) {
                assert!(
                    *n <= usize::from(i < width),
                    "round {round}, width {width}: {got:?}"
                );
            }
        }
    }

    #[test]
    fn em21_a_pool_thread_that_comes_in_time_runs_its_share() {
        let pool = Pool::new(2);
        let started = AtomicBool::new(false);
        let r = pool.broadcast(2, &|i| {
            if i == 0 {
                wait_for(&started);
            } else {
                started.store(true, Ordering::SeqCst);
            }
        });
        assert_eq!(r, Ok(()));
        assert!(
            started.load(Ordering::SeqCst),
            "share 1 ran while share 0 was running"
        );
    }

    #[test]
    fn em21_a_broadcast_may_borrow_the_callers_data_mutably_through_locks() {
        let pool = Pool::new(3);
        let mut data = vec![0u64; 30];
        {
            let parts: Vec<Mutex<&mut [u64]>> = data.chunks_mut(4).map(Mutex::new).collect();
            let next = AtomicUsize::new(0);
            let r = pool.broadcast(3, &|_| {
                while let Some(p) = parts.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let mut p = p.lock().unwrap_or_else(PoisonError::into_inner);
                    for v in p.iter_mut() {
                        *v += 7;
                    }
                }
            });
            assert_eq!(r, Ok(()));
        }
        assert_eq!(data, vec![7u64; 30], "every piece taken exactly once");
    }

    #[test]
    fn em21_a_panicking_share_is_reported_after_all_shares_return() {
        let pool = Pool::new(2);
        let started = AtomicBool::new(false);
        let done = AtomicUsize::new(0);
        let r = pool.broadcast(2, &|i| {
            if i == 1 {
                started.store(true, Ordering::SeqCst);
                panic!("share 1 fails");
            }
            wait_for(&started);
            std::thread::sleep(Duration::from_millis(5));
            done.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(r, Err(JobPanicked));
        assert_eq!(done.load(Ordering::SeqCst), 1, "share 0 ran to its end");
        let r = pool.broadcast(2, &|i| {
            if i == 0 {
                panic!("the caller's share fails");
            }
        });
        assert_eq!(r, Err(JobPanicked));
        // The pool is still usable.
        let n = AtomicUsize::new(0);
        let r = pool.broadcast(2, &|_| {
            n.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(r, Ok(()));
        assert!((1..=2).contains(&n.load(Ordering::SeqCst)));
    }

    #[test]
    fn em21_sleeping_pool_threads_wake_for_the_next_job() {
        let pool = Pool::new(2);
        for _ in 0..3 {
            // Longer than the spin: the pool thread is asleep when the job comes.
            std::thread::sleep(SPIN * 4);
            let woke = AtomicBool::new(false);
            let r = pool.broadcast(2, &|i| {
                if i == 0 {
                    wait_for(&woke);
                } else {
                    woke.store(true, Ordering::SeqCst);
                }
            });
            assert_eq!(r, Ok(()));
            assert!(woke.load(Ordering::SeqCst));
        }
    }

    #[test]
    fn em21_a_width_beyond_the_pool_runs_as_wide_as_the_pool() {
        let pool = Pool::new(2);
        let hits: Vec<AtomicUsize> = (0..8).map(|_| AtomicUsize::new(0)).collect();
        let r = pool.broadcast(8, &|i| {
            hits[i].fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(r, Ok(()));
        assert!(hits[2..].iter().all(|h| h.load(Ordering::SeqCst) == 0));
        assert_eq!(Pool::new(1).width(), 1);
        assert_eq!(Pool::new(0).width(), 1);
    }
}
