//! One Tensix tile: five baby RISC-V harts (BRISC, NCRISC, TRISC0-2), the Tensix coprocessor,
//! L1, local data RAMs and the MMIO devices of BabyRISCV/README.md's memory map.
//!
//! Each hart sees the tile through a short-lived [`bus::CoreBus`] that borrows the tile's parts
//! (everything but the harts) together with the core's identity, so every access is decoded for
//! the core that makes it ([`memory_map::decode`]). Effects that touch the harts themselves —
//! soft reset transitions and invalidating decoded code that was overwritten — are recorded by
//! the bus and applied by the tile right after the hart's step.
pub mod bus;
mod coprocessor_step;
pub mod debug_regs;
mod fast;
pub mod l1;
mod le_bytes;
pub mod local_ram;
pub mod mailboxes;
pub mod memory_map;
pub mod misc_regs;
pub mod overlay;
mod park;
pub mod pc_bufs;
mod reference;
mod stall;
mod tensix_port;

use std::collections::HashSet;
use std::sync::Arc;

use bhemu_noc::{Noc, NodeId, Request, TileNoc};
use bhemu_rv::{CodeLibrary, CoreTiming, Hart, HartConfig, HartError, HartErrorKind, StepOutcome};
use bhemu_tensix::{Arch, Coprocessor, Mode};

use crate::error::{ChipError, ErrorKind};
pub use debug_regs::{soft_reset_bit, DebugRegs, DebugWrite, SOFT_RESET_ALL};
use l1::L1;
use local_ram::LocalRam;
use mailboxes::Mailboxes;
pub use memory_map::{decode, Core, Target, L1_SIZE};
use misc_regs::{Pic, RegFile};
use pc_bufs::PcBufs;

/// What to do on an access bhemu cannot honour (unmapped or unmodelled address, rule broken).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strictness {
    /// Stop with a typed error at the first one.
    #[default]
    Strict,
    /// Record a warning once per (core, address), read 0 / drop the write, and continue.
    Permissive,
}

impl Strictness {
    /// The same choice for the tile's coprocessor: strict stops at an instruction's
    /// undefined behaviour, permissive reports it once and carries on
    /// (docs/execution-model.md EM-7).
    pub fn coprocessor_mode(self) -> Mode {
        match self {
            Strictness::Strict => Mode::Strict,
            Strictness::Permissive => Mode::Permissive,
        }
    }
}

/// What a core is doing, for status reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreState {
    /// Held by `RISCV_DEBUG_REG_SOFT_RESET_0`.
    Reset,
    Running,
    /// Its last cycle was a stall (full FIFO, blocking PC-buffer/mailbox/TTSync access).
    Stalled,
    /// Paused by `ebreak`.
    Halted,
    /// Stopped by an error.
    Faulted,
}

impl CoreState {
    pub fn name(self) -> &'static str {
        match self {
            CoreState::Reset => "reset",
            CoreState::Running => "running",
            CoreState::Stalled => "stalled",
            CoreState::Halted => "halted",
            CoreState::Faulted => "faulted",
        }
    }
}

/// The last MMIO (non-L1, non-local-RAM) access of a core, for "where is it stuck" reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmioAccess {
    pub pc: u32,
    pub addr: u32,
    pub width: u8,
    pub write: bool,
    /// Stored value, or the value read (0 when the access stalled).
    pub value: u32,
    pub cycle: u64,
    pub stalled: bool,
}

/// The field order is the host memory layout (`repr(C)`): after the hart (which starts with
/// its own hot line, see [`Hart`]) come what the fast schedule reads or writes after every
/// step — the state, the run-ahead backoffs, the loop detector's `active` — in one cache line.
#[repr(C)]
pub(crate) struct CoreSlot {
    pub hart: Hart,
    pub state: CoreState,
    /// Visits left before the core next tries to run ahead, after a run too short to pay.
    ahead_backoff: u32,
    /// The backoff the core's last run ahead earned if it was too short, else 0.
    short_backoff: u32,
    /// The highest pc at which the short runs in a row started or stopped: a core that
    /// steps past it has left the code they failed in and tries again at once.
    short_limit: u32,
    /// Idle-loop detection (fast schedule).
    det: park::Detector,
    /// How many times the core has left soft reset.
    pub releases: u32,
    /// Set while the core has run ahead of the chip's clock (fast schedule).
    ahead: Option<fast::Ahead>,
    /// The logs of the core's last run ahead, emptied, for its next one to fill.
    spare: fast::AheadLogs,
    /// Set while the core sleeps on a stalled access (fast schedule, see `stall`).
    sleep: Option<stall::Sleep>,
}

/// Everything of a tile except the harts: what a core's bus borrows.
pub(crate) struct Parts {
    pub node: NodeId,
    pub strictness: Strictness,
    pub l1: L1,
    pub local: [LocalRam; 5],
    pub debug: DebugRegs,
    pub pcbufs: PcBufs,
    pub mailboxes: Mailboxes,
    pub cp: Coprocessor,
    /// The coprocessor has work (set on push / semaphore write, cleared once all idle).
    pub cp_active: bool,
    /// How many of the coprocessor's warnings are already in `warnings`.
    pub cp_warned: usize,
    /// Threads whose TRISC wrote config / GPR / TDMA-RISC registers this cycle (STALLWAIT C10).
    pub cfg_pending: u8,
    pub tdma: RegFile,
    pub pic: Pic,
    pub overlay: overlay::Overlay,
    /// Custom CSRs per core: 0x7C0-0x7C6 at 0-6, 0xBC2-0xBC9 at 7-14.
    pub csrs: [[u32; 16]; 5],
    /// pc of each core after its last step (`0xFFB1_3138` snapshots).
    pub pcs: [u32; 5],
    /// `SOFT_RESET_0` changed (holds the value before the first change).
    pub soft_reset_old: Option<u32>,
    /// Details of the fault the bus last reported, to type the hart's exception.
    pub fault: Option<ChipError>,
    pub warnings: Vec<ChipError>,
    pub warned: HashSet<(u8, u32)>,
    /// Per core, its last MMIO access.
    pub last_mmio: [Option<MmioAccess>; 5],
    /// Per core, what its last stalled access waits for and its cycle (see `stall`).
    pub stall_on: [Option<(stall::Wait, u64)>; 5],
    /// Per core, one more than the cycle of its last MMIO access that did not stall.
    pub mmio_done: [u64; 5],
    /// Per core, what the bus saw of its current candidate idle-loop pass.
    pub probes: [park::Probe; 5],
    /// Per core, the loop it is parked on (fast schedule).
    pub parked: [Option<park::Park>; 5],
    /// Per core, the overlay streams (bit per stream) whose registers the loop it is parked
    /// on polls: a write to one of them wakes it (see `park`).
    pub overlay_watch: [u64; 5],
    /// NoC requests the cores issued this cycle, in issue order, until the chip hands them to
    /// the NoC (`Noc::submit`, in tile order: docs/noc-lookahead.md clause 4).
    pub outbox: Vec<Request>,
}

impl Parts {
    /// `CFGREG_RD_CNTL = index`: Config word `index` as the RISC-V Config window shows it
    /// (bank 0 first) goes into `CFGREG_RDDATA`.
    pub(crate) fn latch_cfg_read(&mut self, index: u32) -> Result<(), String> {
        let word = index
            .checked_mul(4)
            .ok_or_else(|| format!("CFGREG_RD_CNTL = {index:#x}: no such Config word"))
            .and_then(|off| {
                self.cp
                    .cfg_window_read(off, 4)
                    .map_err(|m| format!("CFGREG_RD_CNTL = {index:#x}: {m}"))
            })?;
        self.debug.latch_cfg_read(word);
        Ok(())
    }

    /// Marks woken the parked cores that poll an overlay stream written since the last call
    /// (by a core's store or the coprocessor's `STOREREG`); the tile then brings them to the
    /// cycle as it does for L1 writes (see `park`).
    #[inline]
    pub(crate) fn wake_overlay_pollers(&mut self) {
        let written = self.overlay.take_written();
        for (i, &w) in self.overlay_watch.iter().enumerate() {
            if w & written != 0 {
                self.l1.wake(1 << i);
            }
        }
    }
}

pub struct Tile {
    pub(crate) cores: [CoreSlot; 5],
    pub(crate) p: Parts,
    /// Bit per core that the fast schedule steps: running or stalled, not parked.
    awake: u8,
    /// Times a core of this tile was parked, and woken.
    parks: u64,
    wakes: u64,
    /// Times a core of this tile fell asleep on a stall, and the stalled cycles it slept.
    sleeps: u64,
    slept: u64,
    /// While the only awake core runs ahead: the first cycle it has not executed (else 0).
    due: u64,
    /// The cores running ahead of the clock (a bit per core, `ahead` set).
    aheads: u8,
    /// The cores asleep on a stalled access (a bit per core, `sleep` set). With `aheads`, a
    /// visit asks these masks, in the tile's own first lines, before it touches a core's slot
    /// (each core's state is several cache lines, out of the host's caches by the time a
    /// chip of a hundred tiles comes back to it).
    sleepers: u8,
    /// How the cores' instructions are timed (docs/core-timing.md); kept across soft resets.
    timing: CoreTiming,
    /// The decoded code the cores share with the chip's other cores (see
    /// [`Tile::share_code`]); kept across soft resets.
    code: Option<Arc<CodeLibrary>>,
}

fn new_hart(core: Core, pc: u32, timing: CoreTiming, code: Option<Arc<CodeLibrary>>) -> Hart {
    Hart::new(HartConfig {
        hart_id: core.index() as u32,
        reset_pc: pc,
        timing,
        code,
        ..HartConfig::default()
    })
}

impl Tile {
    /// A tile at translated NoC coordinates `node`, all cores held in reset.
    pub fn new(node: NodeId, strictness: Strictness) -> Tile {
        let slot = |c: Core| CoreSlot {
            hart: new_hart(c, 0, CoreTiming::default(), None),
            state: CoreState::Reset,
            releases: 0,
            det: park::Detector::default(),
            ahead: None,
            spare: fast::AheadLogs::default(),
            ahead_backoff: 0,
            short_backoff: 0,
            short_limit: 0,
            sleep: None,
        };
        let mut csrs = [[0u32; 16]; 5];
        for c in &mut csrs {
            // cfg0: all clear except StMergeTimer = 16 (CSRs.md "cfg0").
            c[0] = 16 << 13;
        }
        Tile {
            cores: Core::ALL.map(slot),
            p: Parts {
                node,
                strictness,
                l1: L1::new(),
                local: Core::ALL.map(|c| LocalRam::new(c.local_ram_size())),
                debug: DebugRegs::new(),
                pcbufs: PcBufs::new(),
                mailboxes: Mailboxes::new(),
                cp: {
                    let mut cp = Coprocessor::new(Arch::Blackhole);
                    cp.set_mode(strictness.coprocessor_mode());
                    cp
                },
                cp_active: false,
                cp_warned: 0,
                cfg_pending: 0,
                tdma: RegFile::new(0x1000),
                pic: Pic::new(),
                overlay: overlay::Overlay::new(),
                csrs,
                pcs: [0; 5],
                soft_reset_old: None,
                fault: None,
                warnings: Vec::new(),
                warned: HashSet::new(),
                last_mmio: [None; 5],
                stall_on: [None; 5],
                mmio_done: [0; 5],
                probes: Default::default(),
                parked: Default::default(),
                overlay_watch: [0; 5],
                outbox: Vec::new(),
            },
            awake: 0,
            parks: 0,
            wakes: 0,
            sleeps: 0,
            slept: 0,
            due: 0,
            aheads: 0,
            sleepers: 0,
            timing: CoreTiming::default(),
            code: None,
        }
    }

    /// How the cores' instructions are timed (docs/core-timing.md).
    pub fn core_timing(&self) -> CoreTiming {
        self.timing
    }

    /// Times every core's instructions by `t` from the next cycle on (a running core keeps its
    /// state; a pipeline starts empty) and after every soft reset. The pipeline's stalls are
    /// seen only by the reference schedule, which [`crate::Chip::set_core_timing`] selects.
    pub fn set_core_timing(&mut self, t: CoreTiming) {
        self.timing = t;
        for slot in &mut self.cores {
            slot.hart.set_timing(t);
        }
    }

    /// Lets the cores share decoded code through `library` (with every other tile given the
    /// same one): results never depend on it, only the host time and memory of decoding
    /// (`bhemu_rv::CodeLibrary`).
    pub fn share_code(&mut self, library: Arc<CodeLibrary>) {
        for slot in &mut self.cores {
            slot.hart.set_code_library(Some(library.clone()));
        }
        self.code = Some(library);
    }

    pub fn node(&self) -> NodeId {
        self.p.node
    }
    pub fn strictness(&self) -> Strictness {
        self.p.strictness
    }
    pub fn set_strictness(&mut self, s: Strictness) {
        self.p.strictness = s;
        self.p.cp.set_mode(s.coprocessor_mode());
    }
    /// Only the coprocessor's handling of undefined behaviour (strict: stop; permissive:
    /// report once and go on), leaving core MMIO's strictness as it is.
    pub fn set_coprocessor_mode(&mut self, m: bhemu_tensix::Mode) {
        self.p.cp.set_mode(m);
    }

    pub fn core_state(&self, core: Core) -> CoreState {
        self.cores[core.index()].state
    }
    pub fn pc(&self, core: Core) -> u32 {
        self.cores[core.index()].hart.pc()
    }
    pub fn hart(&self, core: Core) -> &Hart {
        &self.cores[core.index()].hart
    }
    /// The core's last MMIO access as of its last step (see [`Tile::last_mmio_at`] for a core
    /// the fast schedule parked on an overlay poll or put to sleep on a stall).
    pub fn last_mmio(&self, core: Core) -> Option<MmioAccess> {
        self.p.last_mmio[core.index()]
    }
    /// The core's last MMIO access once it has executed every cycle before `next` (the chip's
    /// cycle between ticks): what the reference schedule shows, also while the fast schedule
    /// has the core parked on a loop that polls the overlay registers (see `park`), asleep
    /// on a stalled access (see `stall`) or running ahead through the wall clock (EM-30).
    pub fn last_mmio_at(&self, core: Core, next: u64) -> Option<MmioAccess> {
        let i = core.index();
        if let Some(a) = &self.cores[i].ahead {
            return a.last_clock_read(next).or(self.p.last_mmio[i]);
        }
        match (&self.p.parked[i], &self.cores[i].sleep) {
            (Some(park), _) => park.last_poll(next).or(self.p.last_mmio[i]),
            (None, Some(sleep)) => sleep.last_mmio_at(self.p.last_mmio[i], next),
            (None, None) => self.p.last_mmio[i],
        }
    }
    /// How many times `core` has left soft reset.
    pub fn releases(&self, core: Core) -> u32 {
        self.cores[core.index()].releases
    }
    /// How many times the fast schedule parked a core of this tile on an idle loop, and how
    /// many times one was woken (including by [`crate::Chip::sync_parked`]).
    pub fn park_counts(&self) -> (u64, u64) {
        (self.parks, self.wakes)
    }
    /// The cores the fast schedule steps every cycle (bit i: [`Core::ALL`]`[i]`): not parked,
    /// not stopped. For diagnostics and benchmarks.
    pub fn awake_cores(&self) -> u8 {
        self.awake
    }
    /// The NoC overlay stream registers (circular-buffer counters), for host-side reports.
    pub fn overlay(&self) -> &overlay::Overlay {
        &self.p.overlay
    }
    pub fn debug_regs(&self) -> &DebugRegs {
        &self.p.debug
    }
    /// For a timeline tracer's dispatch log (`crate::trace`). Work pushed through it is not
    /// seen by the clock until [`Tile::wake_coprocessor`].
    pub fn coprocessor_mut(&mut self) -> &mut Coprocessor {
        &mut self.p.cp
    }
    /// Makes the clock step the coprocessor again (after pushing through `coprocessor_mut`).
    pub fn wake_coprocessor(&mut self) {
        self.p.cp_active = true;
    }
    pub fn coprocessor(&self) -> &Coprocessor {
        &self.p.cp
    }
    /// Warnings recorded in permissive mode.
    pub fn warnings(&self) -> &[ChipError] {
        &self.p.warnings
    }
    /// Warnings recorded and not yet taken.
    #[inline]
    pub fn has_warnings(&self) -> bool {
        !self.p.warnings.is_empty()
    }

    pub fn take_warnings(&mut self) -> Vec<ChipError> {
        std::mem::take(&mut self.p.warnings)
    }

    /// True when some core can execute (not in reset, halted or faulted): the scheduler skips
    /// the others' tiles entirely.
    #[inline]
    pub fn has_runnable_core(&self) -> bool {
        self.cores
            .iter()
            .any(|c| matches!(c.state, CoreState::Running | CoreState::Stalled))
    }

    /// No core can execute and the coprocessor has nothing to do (see [`crate::Chip::quiescent`]).
    pub fn quiescent(&self) -> bool {
        !self.p.cp_active && self.cores.iter().all(|c| c.state != CoreState::Running)
    }

    // ---- host / NoC access -------------------------------------------------------------

    pub fn read_l1(&self, addr: u64, buf: &mut [u8]) -> Result<(), ChipError> {
        if self.p.l1.read_bytes(addr, buf) {
            Ok(())
        } else {
            Err(self.range_error(addr, buf.len()))
        }
    }
    pub fn write_l1(&mut self, addr: u64, data: &[u8]) -> Result<(), ChipError> {
        if self.p.l1.write_bytes(addr, data) {
            Ok(())
        } else {
            Err(self.range_error(addr, data.len()))
        }
    }
    pub fn read_l1_u32(&self, addr: u32) -> Result<u32, ChipError> {
        let mut b = [0u8; 4];
        self.read_l1(u64::from(addr), &mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    pub fn write_l1_u32(&mut self, addr: u32, v: u32) -> Result<(), ChipError> {
        self.write_l1(u64::from(addr), &v.to_le_bytes())
    }

    fn range_error(&self, addr: u64, len: usize) -> ChipError {
        ChipError::new(
            ErrorKind::InvalidInput,
            format!("{len} bytes at 0x{addr:x} do not fit in L1 (0x{L1_SIZE:x} bytes)"),
        )
        .at_tile(self.p.node.x, self.p.node.y)
    }

    /// What the NoC (or the host through it) sees at `addr` of this tile: L1, the debug
    /// registers and the local-RAM slow path (README.md memory map, "NoC" column). `next` is
    /// the first cycle not yet executed by any core of the tile, as for [`Tile::noc_write_at`].
    pub fn noc_read(
        &mut self,
        addr: u64,
        buf: &mut [u8],
        now: u64,
        next: u64,
    ) -> Result<(), String> {
        if addr < u64::from(L1_SIZE) {
            return if self.p.l1.read_bytes(addr, buf) {
                Ok(())
            } else {
                Err("runs past the end of L1".into())
            };
        }
        let a = u32::try_from(addr).map_err(|_| "address above 4 GiB".to_string())?;
        match decode(Core::Ncrisc, a) {
            Target::LocalRam { owner, off } if a >= 0xFFB1_4000 => {
                // Its owner may have run ahead through it (docs/execution-model.md EM-28).
                self.sync_ahead([next; 5]).map_err(|e| e.message)?;
                if self.p.local[owner.index()].read_bytes(u64::from(off), buf) {
                    Ok(())
                } else {
                    Err("runs past the end of the local data RAM".into())
                }
            }
            Target::DebugRegs(off) if buf.len() == 4 && off % 4 == 0 => {
                let v = self.p.debug.read(off, now)?;
                buf.copy_from_slice(&v.to_le_bytes());
                Ok(())
            }
            // The overlay stream registers (circular-buffer counters) read as a core sees them.
            Target::Overlay(off) if buf.len() == 4 && off % 4 == 0 => {
                let v = self.p.overlay.read(off)?;
                buf.copy_from_slice(&v.to_le_bytes());
                Ok(())
            }
            _ => Err(format!(
                "bhemu does not model NoC reads of 0x{a:08x} ({} bytes)",
                buf.len()
            )),
        }
    }

    /// A NoC write delivered in cycle `now` (the NoC phase, after every core has run).
    pub fn noc_write(&mut self, addr: u64, data: &[u8], now: u64) -> Result<(), String> {
        self.noc_write_at(addr, data, now, now + 1)
    }

    /// A write over the NoC face; `next` is the first cycle not yet executed by any core of the
    /// tile (`now + 1` in the NoC phase, the chip's cycle for the host between cycles).
    pub(crate) fn noc_write_at(
        &mut self,
        addr: u64,
        data: &[u8],
        now: u64,
        next: u64,
    ) -> Result<(), String> {
        if addr < u64::from(L1_SIZE) {
            return if self.p.l1.write_bytes(addr, data) {
                Ok(())
            } else {
                Err("runs past the end of L1".into())
            };
        }
        let a = u32::try_from(addr).map_err(|_| "address above 4 GiB".to_string())?;
        match decode(Core::Ncrisc, a) {
            Target::LocalRam { owner, off } if a >= 0xFFB1_4000 => {
                self.sync_ahead([next; 5]).map_err(|e| e.message)?;
                if self.p.local[owner.index()].write_bytes(u64::from(off), data) {
                    Ok(())
                } else {
                    Err("runs past the end of the local data RAM".into())
                }
            }
            Target::DebugRegs(off) if data.len() == 4 && off % 4 == 0 => {
                let v = u32::from_le_bytes([data[0], data[1], data[2], data[3]]);
                match self.p.debug.write(off, v, now)? {
                    DebugWrite::SoftReset { old } => {
                        self.apply_soft_reset(old, [next; 5])
                            .map_err(|e| e.message)?;
                    }
                    DebugWrite::CfgRead { index } => self.p.latch_cfg_read(index)?,
                    DebugWrite::Done => {}
                }
                Ok(())
            }
            _ => Err(format!(
                "bhemu does not model NoC writes of 0x{a:08x} ({} bytes)",
                data.len()
            )),
        }
    }

    /// Host write of a debug/control register (`0xFFB1_2000..`), e.g. soft reset.
    pub fn write_reg(&mut self, addr: u32, value: u32, now: u64) -> Result<(), ChipError> {
        self.noc_write_at(u64::from(addr), &value.to_le_bytes(), now, now)
            .map_err(|m| {
                ChipError::new(ErrorKind::InvalidInput, m).at_tile(self.p.node.x, self.p.node.y)
            })
    }
    pub fn read_reg(&mut self, addr: u32, now: u64) -> Result<u32, ChipError> {
        let mut b = [0u8; 4];
        self.noc_read(u64::from(addr), &mut b, now, now)
            .map_err(|m| {
                ChipError::new(ErrorKind::InvalidInput, m).at_tile(self.p.node.x, self.p.node.y)
            })?;
        Ok(u32::from_le_bytes(b))
    }

    // ---- soft reset -------------------------------------------------------------------

    /// Applies the transitions of `SOFT_RESET_0` from `old` to its current value
    /// (SoftReset.md "RISCV soft reset"): entering reset stops the core, discards the
    /// mailboxes it writes and, for a TRISC, the Tensix instructions queued in its thread's
    /// FIFO and MOP expander; leaving it starts a fresh hart (registers zero, caches empty) at the
    /// core's reset pc, discards a TRISC's PCBuf and clears local RAM unless disabled.
    ///
    /// A parked core entering reset is first brought to cycle `next[i]` (see `park`).
    fn apply_soft_reset(&mut self, old: u32, next: [u64; 5]) -> Result<(), ChipError> {
        self.sync_ahead(next)?;
        let new = self.p.debug.soft_reset();
        for core in Core::ALL {
            let bit = soft_reset_bit(core);
            let i = core.index();
            if old & bit == 0 && new & bit != 0 {
                self.catch_up(i, next[i])?;
                self.end_sleep(i, next[i]);
                self.cores[i].state = CoreState::Reset;
                self.awake &= !(1 << i);
                if let Some(m) = core.mailbox_index() {
                    self.p.mailboxes.reset_writer(m);
                }
                if let Some(t) = core.thread() {
                    self.p.pcbufs.clear_waiting(t);
                    // SoftReset.md "RISCV soft reset": T_i's Tensix instructions in its MOP
                    // expander and the FIFO before it are discarded on entering reset.
                    self.p.cp.reset_thread_frontend(t);
                }
            } else if old & bit != 0 && new & bit == 0 {
                let pc = self.p.debug.reset_pc(core);
                let slot = &mut self.cores[i];
                slot.hart = new_hart(core, pc, self.timing, self.code.clone());
                slot.state = CoreState::Running;
                slot.releases += 1;
                slot.det.reset();
                self.p.probes[i].on = false;
                self.awake |= 1 << i;
                self.p.pcs[i] = pc;
                if let Some(t) = core.thread() {
                    self.p.pcbufs.reset(t);
                }
                // RISCV_DEBUG_REG_DISABLE_RESET: bit 0/2/4 T0-T2, 6 B, 8 NC ("local data RAM").
                let keep_bit = match core {
                    Core::Trisc0 => 0,
                    Core::Trisc1 => 2,
                    Core::Trisc2 => 4,
                    Core::Brisc => 6,
                    Core::Ncrisc => 8,
                };
                if self.p.debug.disable_reset() & (1 << keep_bit) == 0 {
                    self.p.local[i].clear();
                }
            }
        }
        Ok(())
    }

    // ---- one cycle ----------------------------------------------------------------------

    pub(crate) fn invalidate_dirty_code(&mut self) {
        if let Some((lo, hi)) = self.p.l1.take_code_dirty() {
            for c in &mut self.cores {
                c.hart.invalidate_code(lo, hi - lo);
            }
        }
    }
}

#[cfg(test)]
mod tests;
