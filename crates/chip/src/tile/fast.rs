//! The fast schedule's side of a tile ([`crate::Schedule::Fast`]): which cores need a visit
//! this cycle, parking idle cores (see `park`), and letting a core run its private
//! instructions (and its own local RAM's loads and stores, and its loads of L1) ahead of the
//! clock, rewound exactly when anything could observe it or change what it read; and a core
//! stalled on an access sleeps until the retry could succeed (see `stall`).
//! [`Tile::step_cores`] is the same cycle as [`Tile::step_cores_reference`] with these
//! shortcuts (docs/execution-model.md EM-9); the clauses and their tests: EM-10 (when
//! a tile is due), EM-12 to EM-14 (parking and waking), EM-16 (stall sleep), EM-17 and EM-28
//! to EM-30 (running ahead), EM-19 (bringing cores to the cycle for observers).
use bhemu_noc::{Noc, TileNoc};
use bhemu_rv::{Checkpoint, ClockRead, CycleClock, PrivateRam, Shared, Step, UndoLog};

use super::debug_regs::WALL_CLOCK_L;
use super::l1::L1;
use super::memory_map::{decode, Target, DEBUG_REGS_BASE, L1_SIZE, LOCAL_RAM_BASE, OVERLAY_BASE};
use super::overlay::Overlay;
use super::stall::Sleep;
use super::{bus, park, CoreState, Tile};
use crate::error::{ChipError, ErrorKind};
use crate::tile::Core;

/// A core that ran private instructions ahead of the clock: it has executed every cycle before
/// `until`, and `checkpoint` is its state when it had executed every cycle before `start`;
/// `undo` logs the stores it made to its own local RAM since (EM-28), to put back on a rewind,
/// `loads` its loads of L1 (EM-29), whose lines it watches, to replay on a rewind, and
/// `clock` its loads of the wall clock (EM-30), the last of which becomes its last MMIO
/// access once the clock reaches it; `latched` is the clock's latch the run read under.
pub(super) struct Ahead {
    checkpoint: Checkpoint,
    start: u64,
    until: u64,
    logs: AheadLogs,
    latched: Option<u32>,
}

/// What a run ahead logs: its stores' undo records, its loads of L1 and its reads of the wall
/// clock. A core keeps the emptied logs of its last run for the next: a boot runs ahead some
/// 12,000 times, and growing three new lists each time cost it ≈ 5 % of its host time.
#[derive(Default)]
pub(super) struct AheadLogs {
    undo: UndoLog,
    loads: Vec<(u32, u32, u8)>,
    clock: Vec<ClockRead>,
}

impl AheadLogs {
    /// `logs` emptied, to be the core's spare. The undo log holds at most one record per
    /// 64-byte line of the core's local RAM (≈ 8.5 KiB for 8 KiB); the L1 loads and the
    /// clock reads at most 4,096 entries each (48 and 96 KiB), bounds the hart puts on one
    /// run.
    fn recycle(mut logs: AheadLogs) -> AheadLogs {
        logs.undo.clear();
        logs.loads.clear();
        logs.clock.clear();
        logs
    }
}

impl Ahead {
    /// The core's last load of the wall clock in a cycle before `next`, as the MMIO access
    /// the reference schedule shows for it.
    pub(super) fn last_clock_read(&self, next: u64) -> Option<super::MmioAccess> {
        let clock = &self.logs.clock;
        let n = clock.partition_point(|r| r.cycle < next);
        n.checked_sub(1).map(|k| clock_access(&clock[k]))
    }
}

/// A run ahead's load of the wall clock, as the MMIO access a step would have noted.
fn clock_access(r: &ClockRead) -> super::MmioAccess {
    super::MmioAccess {
        pc: r.pc,
        addr: r.addr,
        width: 4,
        write: false,
        value: r.value,
        cycle: r.cycle,
        stalled: false,
    }
}

/// Most cycles a core runs ahead in one go.
const MAX_AHEAD: u64 = 1 << 22;
/// Most cycles a core runs ahead while other cores of its tile step (EM-28): they may look at
/// it and rewind it, which throws away the rest of the run.
const MAX_AHEAD_SHARED: u64 = 4096;
/// Fewest private instructions worth running ahead (see [`Tile::run_ahead`]).
const MIN_AHEAD: u64 = 32;
/// Visits a core steps normally after its first run ahead shorter than [`MIN_AHEAD`]; each
/// further short run in a row doubles it, up to [`SHORT_BACKOFF_MAX`] ([`short_backoff`]).
const SHORT_BACKOFF_MIN: u32 = 32;
/// The most visits a core steps normally between two runs ahead that were too short.
const SHORT_BACKOFF_MAX: u32 = 256;
/// Visits a core steps normally after it was rewound mid-run ([`Tile::sync_ahead`]).
const REWIND_BACKOFF: u32 = 32;

/// The backoff after a run ahead too short to pay, given the one after the previous run
/// (0 when that run paid): 32 visits, doubling with each short run in a row, at most 256. Why
/// not a fixed 256: a core whose short run came from a stretch of code that ends soon (a
/// loop of MMIO stores, a copy cut short by a rewind) would step 256 visits through the
/// private code after it; one that keeps failing (a poll) still backs off to 256 within four
/// tries (docs/execution-model.md EM-17).
fn short_backoff(previous: u32) -> u32 {
    previous
        .saturating_mul(2)
        .clamp(SHORT_BACKOFF_MIN, SHORT_BACKOFF_MAX)
}

impl Tile {
    /// The first cycle after `now` at which the fast schedule must visit this tile's cores:
    /// `now + 1` while a core steps every cycle (or a write waits to be looked at), the cycle
    /// a core that ran ahead is due, `u64::MAX` while every core is parked or stopped
    /// (docs/execution-model.md EM-10).
    pub fn next_due(&self, now: u64) -> u64 {
        if self.p.l1.woken() != 0 || self.p.l1.code_dirty() {
            now + 1
        } else if self.awake == 0 {
            u64::MAX
        } else if self.due > now {
            self.due
        } else {
            now + 1
        }
    }

    /// Writes to this tile's L1 so far, from any source.
    #[inline]
    pub fn l1_writes(&self) -> u64 {
        self.p.l1.writes()
    }

    /// The coprocessor has work.
    #[inline]
    pub fn coprocessor_busy(&self) -> bool {
        self.p.cp_active
    }

    /// The fast schedule's cycle of this tile: the same instructions, in the same order, as
    /// [`Tile::step_cores_reference`], except that parked cores (see `park`) are not visited.
    pub fn step_cores(&mut self, now: u64, noc: &mut Noc) -> Result<(), ChipError> {
        let r = match noc.tile_face(self.p.node) {
            Ok(mut face) => self.step_cores_on(now, &mut face),
            Err(e) => Err(self.no_face(e)),
        };
        noc.submit(&mut self.p.outbox);
        r
    }

    /// Hands the requests this tile's cores issued since the last call to the NoC.
    pub fn submit_requests(&mut self, noc: &mut Noc) {
        noc.submit(&mut self.p.outbox);
    }

    /// The tile's cores issued requests not yet handed to the NoC.
    pub fn has_requests(&self) -> bool {
        !self.p.outbox.is_empty()
    }

    /// [`Tile::step_cores`] on this tile's own NIU face ([`TileNoc`]): touches nothing outside
    /// the tile, so tiles may be stepped on different host threads; the requests the cores
    /// issue wait in the tile's outbox for [`Tile::submit_requests`].
    pub fn step_cores_on(&mut self, now: u64, noc: &mut TileNoc<'_>) -> Result<(), ChipError> {
        // Writes since this tile's last cycle came after every core had run that cycle.
        if self.p.l1.woken() != 0 || self.p.l1.code_dirty() {
            // Only the cores ahead that a write reached go back: those whose loads it wrote
            // under (EM-29) and those whose decoded code it changed (EM-28).
            let mask = (self.p.l1.woken() & self.aheads) | self.ahead_over_dirty_code();
            self.sync_ahead_of(mask, [now; 5])?;
            if self.p.l1.woken() != 0 {
                self.wake(self.p.l1.woken(), [now; 5])?;
            }
        }
        self.invalidate_dirty_code();
        for i in 0..5 {
            if self.awake & (1 << i) == 0 {
                continue;
            }
            // A core asleep on a stall retries only once the retry could succeed (see `stall`).
            if self.sleepers & (1 << i) != 0 {
                if let Some(s) = &self.cores[i].sleep {
                    if s.code_writes == self.p.l1.code_writes() && s.wait.blocked(&self.p) {
                        continue;
                    }
                    self.end_sleep(i, now);
                }
            }
            let core = Core::ALL[i];
            if self.aheads & (1 << i) != 0 {
                if let Some(a) = &self.cores[i].ahead {
                    if a.until > now {
                        continue;
                    }
                    self.end_ahead(i);
                }
            }
            // Another core ahead of the clock is brought to the cycle before this one could
            // look at it: its pc snapshot or its local RAM (EM-28).
            if self.aheads != 0 {
                let looked_at = could_observe(core, self.cores[i].hart.next_access());
                if looked_at & self.aheads != 0 {
                    self.sync_ahead_of(looked_at, order_next(i, now))?;
                }
            }
            let slot = &mut self.cores[i];
            let pc = slot.hart.pc();
            let step = {
                let mut bus = bus::CoreBus {
                    core,
                    pc,
                    now,
                    p: &mut self.p,
                    noc: &mut *noc,
                };
                slot.hart.step_fast(&mut bus)
            };
            self.p.pcs[i] = slot.hart.pc();
            match step {
                Step::Retired | Step::Stop | Step::Trapped => {
                    slot.state = CoreState::Running;
                    let code_writes = self.p.l1.code_writes();
                    let probe = &mut self.p.probes[i];
                    if let park::Verdict::Park =
                        park::observe(&mut slot.det, probe, &slot.hart, pc, code_writes)
                    {
                        self.park(i, now);
                    }
                }
                // A pipeline wait (docs/core-timing.md) ends by itself: the core is running,
                // but the wait is no step of an idle pass (EM-12 counts one per cycle).
                Step::Waited => {
                    slot.state = CoreState::Running;
                    slot.det.active = false;
                    self.p.probes[i].on = false;
                }
                Step::Stalled => {
                    slot.state = CoreState::Stalled;
                    slot.det.active = false;
                    self.p.probes[i].on = false;
                    // Sleep unless the step made an MMIO access before the one that stalled.
                    if let Some((wait, at)) = self.p.stall_on[i].take() {
                        if at == now && self.p.mmio_done[i] != now + 1 && !slot.hart.is_traced() {
                            self.sleepers |= 1 << i;
                            slot.sleep = Some(Sleep {
                                wait,
                                from: now + 1,
                                code_writes: self.p.l1.code_writes(),
                            });
                            self.sleeps += 1;
                        }
                    }
                }
                Step::Halted => {
                    slot.state = CoreState::Halted;
                    self.awake &= !(1 << i);
                }
                Step::Error => {
                    slot.state = CoreState::Faulted;
                    self.awake &= !(1 << i);
                    let e = slot.hart.take_error();
                    let fault = self.p.fault.take();
                    self.core_stopped_by(core, e, fault, now)?;
                    continue;
                }
            }
            // Cores before this one in the order have run this cycle; the others have not.
            if self.p.l1.woken() != 0 || self.p.soft_reset_old.is_some() {
                let next = order_next(i, now);
                // A write under a load a core ran ahead through rewinds it first (EM-29).
                let ahead = self.p.l1.woken() & self.aheads;
                if ahead != 0 {
                    self.sync_ahead_of(ahead, next)?;
                    self.p.l1.clear_woken(ahead);
                }
                if self.p.l1.woken() != 0 {
                    self.wake(self.p.l1.woken(), next)?;
                }
                if let Some(old) = self.p.soft_reset_old.take() {
                    self.apply_soft_reset(old, next)?;
                }
            }
            // A store over code another core ran ahead through: that core first goes back to
            // the cycle (EM-28), then every core's decoded copy of the code is dropped.
            if self.aheads != 0 && self.p.l1.code_dirty() {
                let mask = self.ahead_over_dirty_code();
                self.sync_ahead_of(mask, order_next(i, now))?;
            }
            self.invalidate_dirty_code();
            self.run_ahead(i, now);
        }
        // While every core that steps is ahead of the clock, the tile waits for the first of
        // them to be due (EM-10); otherwise it is due next cycle.
        self.due = if self.aheads != 0 && self.aheads == self.awake {
            self.first_ahead_due()
        } else {
            0
        };
        Ok(())
    }

    /// The first cycle at which a core that ran ahead is due.
    #[inline(never)]
    fn first_ahead_due(&self) -> u64 {
        let until = self
            .cores
            .iter()
            .filter_map(|c| c.ahead.as_ref().map(|a| a.until));
        until.min().unwrap_or(0)
    }

    /// Lets core `i`, which executed cycle `now`, run its next private instructions — and
    /// loads and stores of its own local RAM, loads of L1 and reads of the wall clock — ahead
    /// of the clock when it is not in the middle of an idle-loop candidate pass: up to
    /// [`MAX_AHEAD`] of them when it is the only core of the tile that steps,
    /// [`MAX_AHEAD_SHARED`] when others step too (they may look at it). Anything that could
    /// observe or change it — another core about to read its pc snapshot or its local RAM, a
    /// store over code, the NoC or the host at its local RAM, anyone's write to an L1 line it
    /// loaded from — first rewinds it to the exact cycle ([`Tile::sync_ahead`];
    /// docs/execution-model.md EM-28 to EM-30).
    ///
    /// A run shorter than [`MIN_AHEAD`] (a few private instructions between two loads, as in
    /// an idle loop polling L1) is undone: it saves almost nothing, and its instructions —
    /// the loop's backward branch among them — would bypass the idle-loop detector, which
    /// must see every step of a pass to park the core. The core then steps normally for
    /// [`short_backoff`] visits before trying again, or until it steps past every pc at which
    /// its short runs started or stopped (docs/execution-model.md EM-17).
    fn run_ahead(&mut self, i: usize, now: u64) {
        let bit = 1u8 << i;
        let alone = self.awake == bit;
        let slot = &mut self.cores[i];
        // A core the step just parked, halted or stopped does not run.
        if self.awake & bit == 0 || slot.det.active || slot.state != CoreState::Running {
            return;
        }
        if slot.ahead_backoff > 0 && slot.hart.pc() <= slot.short_limit {
            slot.ahead_backoff -= 1;
            return;
        }
        self.try_run_ahead(i, now, if alone { MAX_AHEAD } else { MAX_AHEAD_SHARED });
    }

    /// [`Tile::run_ahead`]'s run of at most `max` cycles, once it is worth trying: kept out
    /// of line, since the cycle loop it would otherwise be inlined into runs every step.
    #[inline(never)]
    fn try_run_ahead(&mut self, i: usize, now: u64, max: u64) {
        let bit = 1u8 << i;
        let slot = &mut self.cores[i];
        let checkpoint = slot.hart.checkpoint();
        let mut logs = std::mem::take(&mut slot.spare);
        let p = &mut self.p;
        // The latch changes only by a read or write of the clock's low word, to the high word
        // of the cycle it happens in: while that is the latch, nobody changes it (EM-30).
        let latched = Some(p.debug.wall_high()).filter(|&h| h == (now >> 32) as u32);
        let mut ram = PrivateRam {
            base: LOCAL_RAM_BASE,
            mem: p.local[i].bytes_mut(),
            undo: &mut logs.undo,
            shared: Shared::Live {
                mem: p.l1.bytes(),
                loads: &mut logs.loads,
            },
            clock: latched.map(|latched| wall_clock(now + 1, latched, &mut logs.clock)),
        };
        let n = slot.hart.run_private_in(max, Some(&mut ram));
        if n == 0 {
            slot.spare = AheadLogs::recycle(logs);
            return;
        }
        if n < MIN_AHEAD {
            ram.undo_stores();
            slot.spare = AheadLogs::recycle(logs);
            let stop = slot.hart.pc();
            slot.hart.restore(&checkpoint);
            if slot.short_backoff == 0 {
                slot.short_limit = 0;
            }
            slot.short_limit = slot.short_limit.max(stop).max(slot.hart.pc());
            slot.short_backoff = short_backoff(slot.short_backoff);
            slot.ahead_backoff = slot.short_backoff;
            return;
        }
        slot.short_backoff = 0;
        slot.ahead_backoff = 0;
        // From here on a write under any of its loads rewinds it (EM-29).
        watch_loads(&mut self.p.l1, &logs.loads, bit);
        slot.ahead = Some(Ahead {
            checkpoint,
            start: now + 1,
            until: now + 1 + n,
            logs,
            latched,
        });
        self.aheads |= bit;
        self.p.pcs[i] = slot.hart.pc();
    }

    /// Rewinds every core that ran ahead to the state it has after executing every cycle
    /// before `next[i]` (replaying its private instructions from its checkpoint).
    pub(super) fn sync_ahead(&mut self, next: [u64; 5]) -> Result<(), ChipError> {
        self.sync_ahead_of(ALL_CORES, next)
    }

    /// The cores ahead of the clock whose decoded code reaches the code written since the
    /// last invalidation: only they can have run the words it changed, and only their
    /// decoded copies change when it is dropped (EM-28).
    fn ahead_over_dirty_code(&self) -> u8 {
        let Some((lo, hi)) = self.p.l1.code_dirty_range() else {
            return 0;
        };
        let mut mask = 0;
        for (i, c) in self.cores.iter().enumerate() {
            if self.aheads & (1 << i) != 0 && c.hart.code_overlaps(lo, hi - lo) {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// [`Tile::sync_ahead`] of the cores in `mask` only; the others stay ahead.
    pub(super) fn sync_ahead_of(&mut self, mask: u8, next: [u64; 5]) -> Result<(), ChipError> {
        if self.aheads & mask == 0 {
            return Ok(());
        }
        self.due = 0;
        self.aheads &= !mask;
        for (i, &n) in next.iter().enumerate() {
            if mask & (1 << i) == 0 {
                continue;
            }
            let slot = &mut self.cores[i];
            let Some(mut a) = slot.ahead.take() else {
                continue;
            };
            unwatch_loads(&mut self.p.l1, &a.logs.loads, 1 << i);
            if n >= a.until {
                self.note_clock_reads(i, &a.logs.clock);
                self.cores[i].spare = AheadLogs::recycle(a.logs);
                continue;
            }
            // The replay reads the clock afresh, in the cycles it replays.
            let mut clock = std::mem::take(&mut a.logs.clock);
            clock.clear();
            let mut ram = PrivateRam {
                base: LOCAL_RAM_BASE,
                mem: self.p.local[i].bytes_mut(),
                undo: &mut a.logs.undo,
                shared: Shared::Replay {
                    loads: &a.logs.loads,
                    next: 0,
                },
                clock: a
                    .latched
                    .map(|latched| wall_clock(a.start, latched, &mut clock)),
            };
            ram.undo_stores();
            slot.hart.restore(&a.checkpoint);
            // Looked at mid-run: the next runs wait a while, so that a core looked at often
            // does not throw away a long run each time.
            slot.ahead_backoff = REWIND_BACKOFF;
            slot.short_limit = u32::MAX;
            let want = n.saturating_sub(a.start);
            let got = slot.hart.run_private_in(want, Some(&mut ram));
            self.p.pcs[i] = slot.hart.pc();
            self.note_clock_reads(i, &clock);
            a.logs.clock = clock;
            self.cores[i].spare = AheadLogs::recycle(a.logs);
            if got != want {
                let mut c = ChipError::new(
                    ErrorKind::Internal,
                    format!("replaying {want} private instructions ran {got}"),
                );
                c.loc.tile = Some((self.p.node.x, self.p.node.y));
                c.loc.core = Some(Core::ALL[i]);
                return Err(c);
            }
        }
        Ok(())
    }

    /// Core `i`'s run ahead is over: the clock has reached the cycle it ran to.
    #[inline(never)]
    fn end_ahead(&mut self, i: usize) {
        if let Some(a) = self.cores[i].ahead.take() {
            unwatch_loads(&mut self.p.l1, &a.logs.loads, 1 << i);
            self.note_clock_reads(i, &a.logs.clock);
            self.cores[i].spare = AheadLogs::recycle(a.logs);
        }
        self.aheads &= !(1 << i);
        self.due = 0;
    }

    /// Core `i`'s run ahead is behind it up to the end of `reads`, its loads of the wall
    /// clock: the last is its last MMIO access, as a step would have noted it (EM-30).
    fn note_clock_reads(&mut self, i: usize, reads: &[ClockRead]) {
        if let Some(r) = reads.last() {
            self.p.last_mmio[i] = Some(clock_access(r));
            self.p.mmio_done[i] = r.cycle + 1;
        }
    }

    /// Parks core `i` on the loop its detector just proved, if the values the pass read are
    /// still in L1; it executed cycle `now` (docs/execution-model.md EM-12).
    fn park(&mut self, i: usize, now: u64) {
        let probe = &mut self.p.probes[i];
        probe.on = false;
        let det = &mut self.cores[i].det;
        det.active = false;
        let l1 = &self.p.l1;
        let overlay = &self.p.overlay;
        // Loads outside L1 are the overlay polls the bus let through (see `bus`).
        let unchanged = probe.loads.iter().all(|&(a, w, v)| {
            if a < L1_SIZE {
                l1.read(a, u32::from(w)) == Some(v)
            } else {
                overlay.read(a.wrapping_sub(OVERLAY_BASE)) == Ok(v)
            }
        });
        if !unchanged || det.pcs.len() < 2 {
            return;
        }
        let mut pcs = std::mem::take(&mut det.pcs);
        pcs.pop();
        let loads = std::mem::take(&mut probe.loads);
        let polls = std::mem::take(&mut probe.polls);
        self.p.overlay_watch[i] = polls.iter().fold(0, |m, p| {
            m | 1 << Overlay::stream_of(p.addr.wrapping_sub(OVERLAY_BASE))
        });
        let bit = 1u8 << i;
        let mut lines = Vec::new();
        let lo = pcs.iter().copied().min().unwrap_or(0);
        let hi = pcs.iter().copied().max().unwrap_or(0);
        let mut a = lo & !63;
        while a <= hi {
            lines.extend(self.p.l1.watch(a, bit));
            a += 64;
        }
        for &(a, w, _) in loads.iter().filter(|l| l.0 < L1_SIZE) {
            lines.extend(self.p.l1.watch(a, bit));
            lines.extend(self.p.l1.watch(a + u32::from(w) - 1, bit));
        }
        lines.sort_unstable();
        lines.dedup();
        self.p.parked[i] = Some(park::Park {
            start: now + 1,
            pcs,
            loads,
            polls,
            lines,
        });
        self.awake &= !bit;
        self.parks += 1;
    }

    /// Wakes the parked cores in `mask`, each brought to `next[i]`.
    fn wake(&mut self, mask: u8, next: [u64; 5]) -> Result<(), ChipError> {
        for (i, &n) in next.iter().enumerate() {
            if mask & (1 << i) != 0 {
                self.catch_up(i, n)?;
            }
        }
        self.p.l1.clear_woken(mask);
        Ok(())
    }

    /// If core `i` is parked, brings it to the state it has after executing every cycle before
    /// `next` and steps it normally again (docs/execution-model.md EM-14).
    pub(super) fn catch_up(&mut self, i: usize, next: u64) -> Result<(), ChipError> {
        let Some(park) = self.p.parked[i].take() else {
            return Ok(());
        };
        let bit = 1u8 << i;
        for &l in &park.lines {
            self.p.l1.unwatch(l, bit);
        }
        self.p.l1.clear_woken(bit);
        self.p.overlay_watch[i] = 0;
        if let Some(m) = park.last_poll(next) {
            self.p.last_mmio[i] = Some(m);
        }
        let steps = next.saturating_sub(park.start);
        let period = park.period();
        let slot = &mut self.cores[i];
        slot.hart.skip_retired(steps - steps % period);
        let mut bus = park::ReplayBus {
            loads: &park.loads,
            l1: &self.p.l1,
        };
        for k in 0..steps % period {
            if slot.hart.step_fast(&mut bus) != Step::Retired {
                let e = slot.hart.take_error();
                let mut c = ChipError::new(
                    ErrorKind::Internal,
                    format!("replaying a parked idle loop (step {k}): {}", e.message),
                );
                c.loc.tile = Some((self.p.node.x, self.p.node.y));
                c.loc.core = Some(Core::ALL[i]);
                c.loc.pc = Some(e.pc);
                return Err(c);
            }
        }
        self.p.pcs[i] = slot.hart.pc();
        slot.det.reset();
        // The loop's lists go back, emptied, to the detector and probe that filled them: the
        // next pass need not grow them anew (a boot parks and wakes thousands of times).
        let probe = &mut self.p.probes[i];
        let park::Park {
            mut pcs,
            mut loads,
            mut polls,
            ..
        } = park;
        pcs.clear();
        loads.clear();
        polls.clear();
        slot.det.pcs = pcs;
        probe.loads = loads;
        probe.polls = polls;
        self.awake |= bit;
        self.wakes += 1;
        Ok(())
    }

    /// Brings every parked or sleeping core to cycle `next` (see [`crate::Chip::sync_parked`]).
    pub(crate) fn sync_parked(&mut self, next: u64) -> Result<(), ChipError> {
        self.sync_ahead([next; 5])?;
        for i in 0..5 {
            self.catch_up(i, next)?;
            self.end_sleep(i, next);
        }
        Ok(())
    }
}

/// The tile's wall clock as a run ahead from cycle `first` may read it (EM-30).
fn wall_clock(first: u64, latched: u32, reads: &mut Vec<ClockRead>) -> CycleClock<'_> {
    CycleClock {
        addr: DEBUG_REGS_BASE + WALL_CLOCK_L,
        first,
        latched,
        reads,
    }
}

/// Adds `bit` to the watchers of every L1 line the logged loads read (EM-29).
fn watch_loads(l1: &mut L1, loads: &[(u32, u32, u8)], bit: u8) {
    let mut last = usize::MAX;
    for &(a, _, w) in loads {
        for x in [a, a + u32::from(w) - 1] {
            if L1::line_of(x) != last {
                last = l1.watch(x, bit).unwrap_or(usize::MAX);
            }
        }
    }
}

/// Removes `bit` from the watchers of those lines again.
fn unwatch_loads(l1: &mut L1, loads: &[(u32, u32, u8)], bit: u8) {
    for &(a, _, w) in loads {
        for x in [a, a + u32::from(w) - 1] {
            l1.unwatch(L1::line_of(x), bit);
        }
    }
}

/// For a core about to step (or that just stepped) in cycle `now`: the first cycle each core
/// has not executed — the cores before it in the order have run `now`, the others not yet.
fn order_next(i: usize, now: u64) -> [u64; 5] {
    std::array::from_fn(|j| if j < i { now + 1 } else { now })
}

/// Every core of a tile, as a mask.
const ALL_CORES: u8 = 0x1f;

/// The cores that `core`'s access at the address [`bhemu_rv::Hart::next_access`] gave could
/// look at, as a mask: the core whose pc snapshot it reads, or another core whose local RAM
/// it reaches (the slow path); any core for an instruction not decoded yet (EM-28).
fn could_observe(core: Core, access: Option<Option<u32>>) -> u8 {
    let bit = |c: Core| 1u8 << c.index();
    match access {
        None => ALL_CORES,
        Some(None) => 0,
        Some(Some(a)) => match decode(core, a) {
            Target::PcSnapshot(c) => bit(c),
            Target::LocalRam { owner, .. } if owner != core => bit(owner),
            _ => 0,
        },
    }
}

#[cfg(test)]
mod backoff_tests {
    use super::short_backoff;

    /// EM-17: after a short run the core steps normally for 32 visits; each further short run
    /// in a row doubles that, to at most 256; a run that paid starts the count again.
    #[test]
    fn em17_the_backoff_after_short_runs_doubles_from_32_to_256() {
        let mut b = 0;
        let mut seen = Vec::new();
        for _ in 0..6 {
            b = short_backoff(b);
            seen.push(b);
        }
        assert_eq!(seen, [32, 64, 128, 256, 256, 256]);
        // A run that paid sets the previous backoff to 0.
        assert_eq!(short_backoff(0), 32);
    }
}
