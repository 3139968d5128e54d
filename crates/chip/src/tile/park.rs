//! Exact idle-core parking for the fast schedule.
//!
//! Most cores of a running chip spend their time in the firmware's idle loops, re-reading a
//! few bytes of L1 (`subordinate_sync`, the go message) that nobody writes. Such a loop is
//! detected when the core comes back to the same pc with the same registers after one pass in
//! which it only retired ALU, branch, jump, fence and L1-load instructions (no store, MMIO,
//! local RAM, CSR, stall or exception: [`bhemu_rv::Hart::events`] and the bus's [`Probe`]
//! tell) and every value it loaded is still what L1 holds. From then on each pass is the same
//! as the last, so the core is *parked*: not stepped, its loads' lines and code lines watched.
//!
//! Loads of the NoC overlay's stream registers (the circular-buffer counters tt-metal's
//! `cb_wait_front` / `cb_reserve_back` poll) count as L1 loads do: those registers change only
//! by a store of a core of the tile or the coprocessor's `STOREREG`, and either wakes the
//! cores parked on a poll of the stream it wrote ([`super::Parts::wake_overlay_pollers`]) at
//! the point of the cycle order where it happens, exactly as an L1 write does. A parked
//! poll's last MMIO access ([`super::MmioAccess`]) is brought to its latest repetition when
//! the core is woken ([`Park::last_poll`]). Any other MMIO access still makes a pass impure
//! (NIU counters, PC buffers and mailboxes change by events this does not track; the wall
//! clock changes every cycle).
//!
//! A write by anyone (a core of the tile, the NoC, the host, the coprocessor) to a watched
//! line wakes it: it is brought to the exact point the reference schedule would have it at —
//! whole passes are accounted by [`bhemu_rv::Hart::skip_retired`] (each pass retires one
//! instruction per cycle and changes nothing else), the remainder is replayed against the
//! values the pass read ([`ReplayBus`]) — and steps normally again. Which cycles count as
//! already run depends on where the write falls in the reference order (tiles in slot order,
//! cores BRISC … TRISC2, then coprocessors, then the NoC, then the host between cycles): the
//! caller passes `next`, the first cycle the core has not executed at the moment of the write.
//!
//! A core stalled on an access (full Tensix FIFO, PC buffer, TTSync, mailbox) is not parked
//! here — a stall is no pass of a loop — but put to sleep by `stall`, which asks the device's
//! stall rule again at the core's place in the order instead of retrying.
//!
//! Clauses of docs/execution-model.md: EM-12 (when a loop parks), EM-13 (what never parks),
//! EM-14 (waking exactly), EM-15 (the backoff after a failed candidate).
use bhemu_rv::{Access, Bus, BusFault, Width};

use super::l1::L1;
use super::MmioAccess;

/// Most loads one pass of a parkable loop may make.
pub(crate) const MAX_LOADS: usize = 8;
/// Longest parkable loop, in instructions.
pub(crate) const MAX_PERIOD: usize = 64;
/// Most backward jumps a failed candidate waits before trying again.
const MAX_BACKOFF: u32 = 256;

/// What the bus saw of one core during a candidate pass.
#[derive(Clone, Debug, Default)]
pub(crate) struct Probe {
    /// Record L1 loads.
    pub on: bool,
    /// Something other than an L1 load reached the bus (or too many loads).
    pub impure: bool,
    pub loads: Vec<(u32, u8, u32)>,
    /// The pass's loads of polled MMIO registers (also in `loads`), with their cycles.
    pub polls: Vec<MmioAccess>,
}

impl Probe {
    /// A load of a register that changes only by writes the tile sees (the overlay's): part
    /// of the pass like an L1 load.
    #[inline]
    pub fn poll(&mut self, m: MmioAccess) {
        if !self.on {
            return;
        }
        self.load(m.addr, u32::from(m.width), m.value);
        self.polls.push(m);
    }
    #[inline]
    pub fn load(&mut self, addr: u32, width: u32, value: u32) {
        if !self.on {
            return;
        }
        if self.loads.len() < MAX_LOADS {
            self.loads.push((addr, width as u8, value));
        } else {
            self.impure = true;
        }
    }
    fn start(&mut self) {
        self.on = true;
        self.impure = false;
        self.loads.clear();
        self.polls.clear();
    }
}

/// Loop detection state of one core. `repr(C)`, what a step looks at first: every step of a
/// core reads `active`, in its slot's hot line (see `CoreSlot`), and every backward jump the
/// backoff fields after it; the candidate pass's registers come last.
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub(crate) struct Detector {
    pub active: bool,
    /// Loop head: pc, registers, counters at the start of the candidate pass.
    pub pc: u32,
    backoff: u32,
    skip: u32,
    /// The code range `[lo, hi]` of the candidate passes that failed since the backoff last
    /// started from zero: a backward jump outside it enters another loop, which is tried at
    /// once (a poll after a counting loop parks without waiting out the counting loop's
    /// backoff).
    failed: Option<(u32, u32)>,
    pub cycles: u64,
    pub events: u64,
    /// The tile's count of writes to code at the start of the pass: the pass proves the loop
    /// only if it ran the code that is there now.
    pub code_writes: u64,
    /// pc after each step of the pass, starting with the head.
    pub pcs: Vec<u32>,
    pub regs: [u32; 32],
}

impl Detector {
    pub fn reset(&mut self) {
        self.active = false;
        self.skip = 0;
        self.backoff = 0;
        self.failed = None;
    }
}

/// A parked core: the loop it runs and what it watches.
#[derive(Clone, Debug)]
pub(crate) struct Park {
    /// First cycle the core did not execute.
    pub start: u64,
    /// pc after k steps from the head, k = 0 .. period-1.
    pub pcs: Vec<u32>,
    pub loads: Vec<(u32, u8, u32)>,
    /// The proving pass's MMIO polls (see [`Park::last_poll`]).
    pub polls: Vec<MmioAccess>,
    /// Watched L1 lines.
    pub lines: Vec<usize>,
}

impl Park {
    pub fn period(&self) -> u64 {
        self.pcs.len() as u64
    }
    /// The pc the core shows once it has executed every cycle before `next`.
    pub fn pc_at(&self, next: u64) -> u32 {
        let k = next.saturating_sub(self.start) % self.period().max(1);
        self.pcs.get(k as usize).copied().unwrap_or(0)
    }
    /// The core's last MMIO access once it has executed every cycle before `next`: the latest
    /// repetition of a poll of the proving pass (which ended at cycle `start - 1`), each
    /// repeated every period.
    pub fn last_poll(&self, next: u64) -> Option<MmioAccess> {
        let p = self.period().max(1);
        self.polls
            .iter()
            .filter(|m| m.cycle < next)
            .map(|m| {
                let mut m = *m;
                m.cycle += (next - 1 - m.cycle) / p * p;
                m
            })
            .max_by_key(|m| m.cycle)
    }
}

/// What the detector decided after a step.
pub(crate) enum Verdict {
    Nothing,
    Park,
}

/// Called after a retired step that went from `old_pc` to `hart`'s pc. Returns `Park` when the
/// pass that just ended proves the loop idle (the caller checks the loads against L1):
/// docs/execution-model.md EM-12, EM-13, EM-15.
pub(crate) fn observe(
    d: &mut Detector,
    probe: &mut Probe,
    hart: &bhemu_rv::Hart,
    old_pc: u32,
    code_writes: u64,
) -> Verdict {
    let pc = hart.pc();
    if hart.is_traced() {
        d.active = false;
        probe.on = false;
        return Verdict::Nothing;
    }
    if d.active {
        if d.pcs.len() > MAX_PERIOD {
            probe.impure = true;
        } else {
            d.pcs.push(pc);
        }
    }
    if pc > old_pc {
        return Verdict::Nothing;
    }
    // A backward (or self) jump: the end of a pass, maybe the head of the next one.
    if d.active {
        let same = pc == d.pc
            && !probe.impure
            && hart.events() == d.events
            && code_writes == d.code_writes
            && hart.cycles().wrapping_sub(d.cycles) == (d.pcs.len() - 1) as u64
            && hart.regs() == d.regs;
        if same {
            return Verdict::Park;
        }
        d.backoff = (d.backoff * 2).clamp(1, MAX_BACKOFF);
        d.skip = d.backoff;
        let lo = d.pcs.iter().copied().min().unwrap_or(pc).min(pc);
        let hi = d.pcs.iter().copied().max().unwrap_or(pc).max(old_pc);
        d.failed = Some(match d.failed {
            Some((a, b)) => (a.min(lo), b.max(hi)),
            None => (lo, hi),
        });
    } else if d.skip > 0 && !d.failed.is_some_and(|(a, b)| (a..=b).contains(&pc)) {
        d.reset();
    }
    if d.skip > 0 {
        d.skip -= 1;
        d.active = false;
        probe.on = false;
        return Verdict::Nothing;
    }
    d.active = true;
    d.pc = pc;
    d.regs.copy_from_slice(hart.regs());
    d.cycles = hart.cycles();
    d.events = hart.events();
    d.code_writes = code_writes;
    d.pcs.clear();
    d.pcs.push(pc);
    probe.start();
    Verdict::Nothing
}

/// The bus a parked core is replayed on: its loads get the values its pass read (L1 may have
/// changed since, which is why it is being woken). Its instructions come from the decode cache
/// (the proving pass made no fetch, and a wake is handled before the tile invalidates
/// overwritten code); a fetch falls back to L1, which holds the loop's code unless a write to
/// it is what woke the core.
pub(crate) struct ReplayBus<'a> {
    pub loads: &'a [(u32, u8, u32)],
    pub l1: &'a L1,
}

fn replay_fault<T>(addr: u32, what: &str) -> Access<T> {
    Access::Fault(BusFault {
        addr,
        reason: format!("internal: a parked loop's replay made an unexpected {what}"),
    })
}

impl Bus for ReplayBus<'_> {
    fn fetch(&mut self, addr: u32) -> Access<u32> {
        match self.l1.read_u32(addr) {
            Some(w) => Access::Done(w),
            None => replay_fault(addr, "fetch"),
        }
    }
    fn load(&mut self, addr: u32, width: Width) -> Access<u32> {
        let w = width.bytes() as u8;
        match self.loads.iter().find(|l| l.0 == addr && l.1 == w) {
            Some(l) => Access::Done(l.2),
            None => replay_fault(addr, "load"),
        }
    }
    fn store(&mut self, addr: u32, _: Width, _: u32) -> Access<()> {
        replay_fault(addr, "store")
    }
    fn push_tensix(&mut self, _: u32) -> Access<()> {
        replay_fault(0, "Tensix push")
    }
}
