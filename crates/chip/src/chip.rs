//! The chip: the enabled Tensix tiles on the Blackhole NoC grid, DRAM behind its 24 DRAM
//! ports, the NoC fabric, one cycle counter and the scheduler (docs/execution-model.md).
//!
//! One tick ([`Chip::clock`]): every runnable hart of every tile executes at most one
//! instruction (tiles in slot order, cores BRISC, NCRISC, TRISC0-2), then every busy
//! coprocessor advances one cycle, then the NoC delivers. Nothing else advances time, and the
//! order is fixed, so runs are deterministic. Tiles whose cores are all in reset (or halted)
//! cost one check per tick; the tick itself allocates nothing.
//!
//! That loop is [`Schedule::Reference`]. [`Schedule::Fast`] (the default) computes the same
//! states and cycle counts with less host work: idle cores are parked and cores alone in their
//! tile run private instructions ahead of the clock (`tile::park`, [`Tile::step_cores`]), and
//! tiles with nothing due this cycle are skipped with one compare.
//!
//! Host threads ([`crate::threads`], `--threads N`): a fast-schedule cycle with enough busy
//! tiles steps each tile's cores and coprocessor on one of N scoped threads, each tile on its
//! own NIU pair and outbox (`bhemu_noc::TileNoc`); after the join — the barrier — the outboxes
//! enter the NoC in tile order and the NoC ticks on the calling thread (docs/noc-lookahead.md).
//! Where hooks go: per-core observation (trace events, breakpoints) inside the tile's step
//! (`Tile::step_cores_on` / `Tile::step_cores_reference_on`), touching only the tile;
//! chip-wide effects after the barrier in [`Chip::tick`], never from inside a tile's step.
use bhemu_noc::coord::{NOC_GRID_X, NOC_GRID_Y};
use bhemu_noc::{
    decode_niu_address, AtomicOp, Noc, NocEndpoints, NocError, NocIndex, NodeId, NodeKind, Timing,
    Topology,
};

use crate::arc::{Arc, ARC_NOC0};
use crate::dram::Dram;
use crate::error::{ChipError, ErrorKind};
use crate::schedule::Schedule;
use crate::tile::{Strictness, Tile};

/// How to build a chip.
#[derive(Clone, Debug)]
pub struct ChipConfig {
    /// Enabled Tensix tiles (translated coordinates); see [`crate::grid::parse_tiles`].
    pub tiles: Vec<NodeId>,
    pub strictness: Strictness,
    pub timing: Timing,
}

impl Default for ChipConfig {
    fn default() -> Self {
        ChipConfig {
            tiles: crate::grid::p150_tiles(),
            strictness: Strictness::Strict,
            timing: Timing::Functional,
        }
    }
}

/// What sits behind a NoC node, by translated `y * 64 + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Endpoint {
    None,
    Tile(u16),
    Dram(u8),
    Pcie,
    /// The ARC tile, reached from the host only ([`crate::arc`]).
    Arc,
}

pub struct Chip {
    tiles: Vec<Tile>,
    endpoints: Vec<Endpoint>,
    noc: Noc,
    dram: Dram,
    arc: Arc,
    cycle: u64,
    id: u32,
    schedule: Schedule,
    /// Fast schedule, per tile: the first cycle at which its cores need a visit (`u64::MAX`:
    /// none until something writes to it). Anything that may touch a tile lowers it to 0.
    due: Vec<u64>,
    /// Fast schedule, per tile: its coprocessor may have work.
    cp_busy: Vec<bool>,
    /// Fast schedule: at most the least of `due` (lowered with it), so a cycle before it with
    /// no coprocessor busy skips the per-tile loops: with the host clocking one cycle per
    /// read (libttsim), those loops were most of an idle chip's cycle.
    earliest: u64,
    /// Fast schedule: true whenever some `cp_busy` is.
    any_busy: bool,
    /// Some L1 was written during the last cycle (see [`Chip::run_until_l1`]).
    l1_written: bool,
    /// Fast schedule: the last cycle visited no tile and no coprocessor.
    quiet: bool,
    /// The timeline tracer, when one is recording ([`crate::trace`]).
    pub(crate) tracer: Option<Box<crate::trace::ChipTracer>>,
    /// Host threads the fast schedule may spread a cycle's tiles over (`crate::threads`).
    threads: usize,
    /// Cycles the fast schedule spread over host threads so far.
    spread_cycles: u64,
    /// Host time of the last cycle with enough tiles with work to be spread, as one thread
    /// would have spent it (measured only with more than one thread): the cost estimate of the
    /// next such cycle ([`crate::threads::plan_spread`]).
    last_cycle_ns: u64,
    /// Host time per thread a spread cycle must be worth ([`crate::threads::SPREAD_MIN_NS`]
    /// unless set).
    spread_min_ns: u64,
    /// The host threads spread cycles run on, started at the first spread cycle
    /// ([`crate::pool`]), with the thread count they were started for.
    pool: Option<(usize, crate::pool::Pool)>,
}

/// The memory the NoC reaches, borrowed from the chip for one `Noc::tick`.
struct Ends<'a> {
    tiles: &'a mut [Tile],
    due: &'a mut [u64],
    earliest: &'a mut u64,
    l1_written: &'a mut bool,
    endpoints: &'a [Endpoint],
    dram: &'a mut Dram,
    now: u64,
}

fn access(node: NodeId, addr: u64, len: usize, reason: String) -> NocError {
    NocError::Access {
        node,
        addr,
        len: len as u64,
        reason,
    }
}

/// Raw NoC 0 coordinates of the two PCIe tiles (blackhole_140_arch.yaml;
/// docs/tt-umd-sim-interface.md §7). The topology knows the one in use only by its translated
/// coordinate (19, 24), but UMD's descriptor hands out both raw ones to the host.
const PCIE_RAW_TILES: [(u32, u32); 2] = [(2, 0), (11, 0)];

/// Start of the PCIe tile's NoC-to-host window: a write there at or above 2⁶⁰ goes to host
/// memory through the outbound iATU (docs/tt-umd-sim-interface.md §4).
pub const NOC_HOST_WINDOW: u64 = 1 << 60;

/// What a host write did (see [`Chip::host_write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostWrite {
    /// The write reached modelled chip state.
    Done,
    /// The write hit the PCIe tile's NoC-to-host window: host memory at `addr` (the offset
    /// past [`NOC_HOST_WINDOW`]) is to receive the data. The chip models no PCIe endpoint, so
    /// delivering it is the caller's job.
    ToHost { addr: u64 },
}

/// The node at translated `y * 64 + x`, as the chip's routing table has it.
fn endpoint_at(endpoints: &[Endpoint], node: NodeId) -> Endpoint {
    if node.x >= 64 || node.y >= 64 {
        return Endpoint::None;
    }
    endpoints
        .get(usize::from(node.y) * 64 + usize::from(node.x))
        .copied()
        .unwrap_or(Endpoint::None)
}

/// A read of `buf.len()` bytes at `addr` of one endpoint: the one place that says what a
/// request arriving at a node reaches, for NoC transactions ([`Ends`]) and host accesses
/// ([`Chip::host_read`]) alike. Errors carry the chip's kind and a sentence.
fn endpoint_read(
    tiles: &mut [Tile],
    dram: &Dram,
    ep: Endpoint,
    addr: u64,
    buf: &mut [u8],
    now: u64,
) -> Result<(), (ErrorKind, String)> {
    match ep {
        Endpoint::Tile(i) => match tiles.get_mut(usize::from(i)) {
            Some(t) => t
                .noc_read(addr, buf, now)
                .map_err(|m| (ErrorKind::Unimplemented, m)),
            None => Err((ErrorKind::Unmapped, "no such tile".into())),
        },
        Endpoint::Dram(ch) => dram
            .read(usize::from(ch), addr, buf)
            .map_err(|e| (ErrorKind::AccessRule, e.to_string())),
        Endpoint::Pcie if addr >= NOC_HOST_WINDOW => Err((
            ErrorKind::Unimplemented,
            "host reads of the PCIe tile's NoC-to-host window are not modelled".into(),
        )),
        Endpoint::Pcie => Err((ErrorKind::Unimplemented, pcie_unmodelled(addr))),
        Endpoint::Arc => Err((ErrorKind::Unimplemented, ARC_FROM_NOC.into())),
        Endpoint::None => Err((
            ErrorKind::Unmapped,
            "nothing bhemu models there (Ethernet, L2CPU, or off the grid)".into(),
        )),
    }
}

/// The write counterpart of [`endpoint_read`].
/// `next` is the first cycle no core has executed yet: `now + 1` in the NoC phase, `now` for
/// the host between cycles (it decides where a woken parked core resumes).
fn endpoint_write(
    tiles: &mut [Tile],
    dram: &mut Dram,
    ep: Endpoint,
    addr: u64,
    data: &[u8],
    now: u64,
    next: u64,
) -> Result<(), (ErrorKind, String)> {
    match ep {
        Endpoint::Tile(i) => match tiles.get_mut(usize::from(i)) {
            Some(t) => t
                .noc_write_at(addr, data, now, next)
                .map_err(|m| (ErrorKind::Unimplemented, m)),
            None => Err((ErrorKind::Unmapped, "no such tile".into())),
        },
        Endpoint::Dram(ch) => dram
            .write(usize::from(ch), addr, data)
            .map_err(|e| (ErrorKind::AccessRule, e.to_string())),
        Endpoint::Pcie => Err((ErrorKind::Unimplemented, pcie_unmodelled(addr))),
        Endpoint::Arc => Err((ErrorKind::Unimplemented, ARC_FROM_NOC.into())),
        Endpoint::None => Err((
            ErrorKind::Unmapped,
            "nothing bhemu models there (Ethernet, L2CPU, or off the grid)".into(),
        )),
    }
}

/// Why a NoC request from a core to the ARC tile fails: bhemu models the ARC tile as the host
/// sees it, not as a NoC target of kernels.
const ARC_FROM_NOC: &str =
    "bhemu models the ARC tile for host accesses only, not NoC requests from cores";

fn pcie_unmodelled(addr: u64) -> String {
    if addr >= NOC_HOST_WINDOW {
        "bhemu models no PCIe endpoint: accesses to host memory from the chip are not modelled"
            .into()
    } else {
        "bhemu does not model the PCIe tile's own memory".into()
    }
}

/// A tile's NIU registers from the host: 4-byte aligned words inside the two NIU windows
/// `0xFFB2_0000..0xFFB4_0000` (MemoryMap.md).
fn niu_word(addr: u64, len: usize) -> Option<u32> {
    let a = u32::try_from(addr).ok()?;
    (len == 4 && a % 4 == 0 && decode_niu_address(a).is_some()).then_some(a)
}

impl NocEndpoints for Ends<'_> {
    fn read(&mut self, node: NodeId, addr: u64, buf: &mut [u8]) -> Result<(), NocError> {
        let ep = endpoint_at(self.endpoints, node);
        if ep == Endpoint::None {
            return Err(NocError::BadCoordinate {
                x: node.x,
                y: node.y,
            });
        }
        endpoint_read(self.tiles, self.dram, ep, addr, buf, self.now)
            .map_err(|(_, r)| access(node, addr, buf.len(), r))
    }

    fn write(&mut self, node: NodeId, addr: u64, data: &[u8]) -> Result<(), NocError> {
        let ep = endpoint_at(self.endpoints, node);
        if ep == Endpoint::None {
            return Err(NocError::BadCoordinate {
                x: node.x,
                y: node.y,
            });
        }
        if let Endpoint::Tile(i) = ep {
            if let Some(d) = self.due.get_mut(usize::from(i)) {
                *d = 0;
                *self.earliest = 0;
            }
            *self.l1_written = true;
        }
        endpoint_write(
            self.tiles,
            self.dram,
            ep,
            addr,
            data,
            self.now,
            self.now + 1,
        )
        .map_err(|(_, r)| access(node, addr, data.len(), r))
    }

    fn atomic(&mut self, node: NodeId, addr: u64, op: &AtomicOp) -> Result<u32, NocError> {
        // Atomics.md: only Tensix (or Ethernet) L1; the NoC crate already refuses other kinds.
        let base = addr & !0xF;
        let mut line = [0u8; 16];
        self.read(node, base, &mut line)?;
        let r = op.apply(&mut line, ((addr >> 2) & 3) as usize)?;
        self.write(node, base, &line)?;
        Ok(r)
    }
}

impl Chip {
    pub fn new(cfg: &ChipConfig) -> Result<Chip, ChipError> {
        let topo = Topology::blackhole_with_tensix(cfg.tiles.iter().copied())
            .map_err(|e| ChipError::new(ErrorKind::InvalidInput, e.to_string()))?;
        let mut endpoints = vec![Endpoint::None; 64 * 64];
        let mut tiles = Vec::new();
        for n in topo.nodes() {
            let slot = usize::from(n.id.y) * 64 + usize::from(n.id.x);
            let ep = match n.kind {
                NodeKind::Tensix { .. } => {
                    tiles.push(Tile::new(n.id, cfg.strictness));
                    Endpoint::Tile((tiles.len() - 1) as u16)
                }
                NodeKind::Dram { bank, .. } => Endpoint::Dram(bank),
                NodeKind::Pcie => Endpoint::Pcie,
            };
            if let Some(e) = endpoints.get_mut(slot) {
                *e = ep;
            }
        }
        let n_tiles = tiles.len();
        Ok(Chip {
            tiles,
            endpoints,
            noc: Noc::new(topo, cfg.timing),
            dram: Dram::new(),
            arc: Arc::new(),
            cycle: 0,
            id: 0,
            schedule: Schedule::from_env()?,
            due: vec![0; n_tiles],
            cp_busy: vec![true; n_tiles],
            earliest: 0,
            any_busy: true,
            l1_written: false,
            quiet: false,
            tracer: None,
            threads: crate::threads::threads_from_env()?,
            spread_cycles: 0,
            last_cycle_ns: 0,
            spread_min_ns: crate::threads::spread_from_env()?,
            pool: None,
        })
    }

    /// The schedule in use (from `BHEMU_SCHEDULE` at construction, default fast).
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Switches schedule between cycles; the chip's state carries over unchanged.
    pub fn set_schedule(&mut self, s: Schedule) -> Result<(), ChipError> {
        self.sync_parked()?;
        self.schedule = s;
        Ok(())
    }

    /// Host threads the fast schedule uses (from `BHEMU_THREADS` at construction, default the
    /// machine's cores; see [`crate::threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Cycles so far whose tiles were stepped on more than one host thread.
    pub fn spread_cycles(&self) -> u64 {
        self.spread_cycles
    }

    /// Sets the host thread count (at least 1) between cycles; results do not depend on it.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Spreads a cycle over as many host threads as get `ns` nanoseconds each of the previous
    /// busy cycle's host time ([`crate::threads::SPREAD_MIN_NS`] by default; 0 spreads every
    /// cycle with enough busy tiles over all threads, as the thread-equivalence tests do).
    /// Results do not depend on it.
    pub fn set_spread_threshold(&mut self, ns: u64) {
        self.spread_min_ns = ns;
    }

    /// Brings every core the fast schedule has parked (or put to sleep on a stall) up to the
    /// current cycle, so that [`Tile::hart`], [`Tile::pc`] and friends read what the reference
    /// schedule would show.
    /// [`Chip::digest`] does this itself; after [`Chip::clock`] or [`Chip::run_until`] a
    /// parked core's hart may lag, and a core that ran ahead may lead (memory, core states
    /// and MMIO never do), so read harts after calling this. So may the cycle of a parked
    /// core's last MMIO access ([`Tile::last_mmio`]) when its loop polls the overlay registers
    /// ([`Tile::last_mmio_at`] does not lag).
    pub fn sync_parked(&mut self) -> Result<(), ChipError> {
        self.touch_all();
        let next = self.cycle;
        for t in &mut self.tiles {
            t.sync_parked(next)?;
        }
        Ok(())
    }

    /// Idle-loop parks and wakes so far, over all tiles (see [`Tile::park_counts`]).
    pub fn park_counts(&self) -> (u64, u64) {
        self.tiles.iter().fold((0, 0), |(p, w), t| {
            let (a, b) = t.park_counts();
            (p + a, w + b)
        })
    }

    /// Stall sleeps and the stalled cycles slept so far, over all tiles (see
    /// [`Tile::sleep_counts`]).
    pub fn sleep_counts(&self) -> (u64, u64) {
        self.tiles.iter().fold((0, 0), |(n, c), t| {
            let (a, b) = t.sleep_counts();
            (n + a, c + b)
        })
    }

    /// Cycles executed so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }
    pub fn id(&self) -> u32 {
        self.id
    }
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }
    pub fn tiles_mut(&mut self) -> &mut [Tile] {
        self.touch_all();
        &mut self.tiles
    }
    /// The tiles, for bookkeeping that changes nothing the schedule looks at (the Dst hazard
    /// checker's switch and reports, `crate::hazards`).
    pub(crate) fn tiles_mut_untouched(&mut self) -> &mut [Tile] {
        &mut self.tiles
    }
    /// The fast schedule visits every tile at the next cycle (their state may have changed
    /// behind its back).
    fn touch_all(&mut self) {
        self.due.fill(0);
        self.cp_busy.fill(true);
        self.earliest = 0;
        self.any_busy = true;
    }
    fn touch(&mut self, i: usize) {
        if let (Some(d), Some(c)) = (self.due.get_mut(i), self.cp_busy.get_mut(i)) {
            *d = 0;
            *c = true;
            self.earliest = 0;
            self.any_busy = true;
        }
    }
    fn tile_index(&self, x: u8, y: u8) -> Option<usize> {
        if x >= 64 || y >= 64 {
            return None;
        }
        match self.endpoints.get(usize::from(y) * 64 + usize::from(x)) {
            Some(Endpoint::Tile(i)) => Some(usize::from(*i)),
            _ => None,
        }
    }
    pub fn tile(&self, x: u8, y: u8) -> Option<&Tile> {
        self.tile_index(x, y).and_then(|i| self.tiles.get(i))
    }
    pub fn tile_mut(&mut self, x: u8, y: u8) -> Option<&mut Tile> {
        let i = self.tile_index(x, y)?;
        self.touch(i);
        self.tiles.get_mut(i)
    }
    /// The tile at (x, y) or an error naming it.
    pub fn tile_or_err(&mut self, x: u8, y: u8) -> Result<&mut Tile, ChipError> {
        self.tile_mut(x, y).ok_or_else(|| no_tile(x, y))
    }
    pub fn dram(&self) -> &Dram {
        &self.dram
    }
    pub fn dram_mut(&mut self) -> &mut Dram {
        &mut self.dram
    }
    pub fn noc(&self) -> &Noc {
        &self.noc
    }
    pub fn noc_mut(&mut self) -> &mut Noc {
        &mut self.noc
    }
    /// Warnings recorded by tiles in permissive mode.
    pub fn take_warnings(&mut self) -> Vec<ChipError> {
        self.tiles
            .iter_mut()
            .flat_map(|t| t.take_warnings())
            .collect()
    }

    /// Advances `n` cycles (see the module documentation). The first error stops the clock at
    /// the cycle it happened in.
    pub fn clock(&mut self, n: u64) -> Result<(), ChipError> {
        let end = self.cycle.saturating_add(n);
        if self.tracer.is_some() {
            while self.cycle < end {
                self.traced_tick()?;
            }
            return Ok(());
        }
        while self.cycle < end {
            self.tick()?;
            self.skip_quiet(end);
        }
        Ok(())
    }

    /// Fast schedule: after a cycle in which no tile and no coprocessor had anything due and
    /// the NoC is idle, nothing can happen before the earliest cycle a tile is due (a core that
    /// ran ahead, or never while every core is parked or stopped): the clock jumps there, at
    /// most to `end`. The skipped cycles are exactly those the reference schedule spends in
    /// parked loops and private instructions the fast schedule has already accounted for.
    fn skip_quiet(&mut self, end: u64) {
        if !self.quiet || !self.noc.idle() || self.any_busy {
            return;
        }
        let to = self.earliest.min(end);
        if to > self.cycle {
            self.cycle = to;
        }
    }

    /// One cycle.
    #[inline]
    pub fn tick(&mut self) -> Result<(), ChipError> {
        let now = self.cycle;
        let mut written = false;
        let mut quiet = true;
        // A cycle with nothing due costs nothing worth timing (tt-umd clocks one such cycle per
        // read of an idle chip).
        let nothing_due = self.earliest > now && !self.any_busy;
        let plan = if self.threads > 1 && self.schedule == Schedule::Fast && !nothing_due {
            crate::threads::plan_spread(
                self.threads,
                self.last_cycle_ns,
                self.spread_min_ns,
                &self.due,
                &self.cp_busy,
                now,
            )
        } else {
            crate::threads::Plan::ONE
        };
        let spread = plan.threads;
        // Only cycles wide enough to spread are timed: they alone make the estimate.
        let timer = plan.wide.then(std::time::Instant::now);
        let mut spread_ns = None;
        match self.schedule {
            Schedule::Reference => {
                for t in &mut self.tiles {
                    if t.has_runnable_core() {
                        let w = t.l1_writes();
                        let r = t.step_cores_reference(now, &mut self.noc);
                        written |= t.l1_writes() != w;
                        r?;
                    }
                }
            }
            Schedule::Fast if spread > 1 => {
                self.spread_cycles += 1;
                let threads = self.threads;
                if self.pool.as_ref().is_some_and(|(w, _)| *w != threads) {
                    self.pool = None;
                }
                let (_, pool) = self
                    .pool
                    .get_or_insert_with(|| (threads, crate::pool::Pool::new(threads)));
                let faces = self.noc.tile_faces();
                let r = if faces.len() == self.tiles.len() {
                    crate::threads::spread_cycle(
                        pool,
                        &mut self.tiles,
                        faces,
                        &mut self.due,
                        &mut self.cp_busy,
                        now,
                        spread,
                    )
                } else {
                    Err(ChipError::new(
                        ErrorKind::Internal,
                        "the NoC's Tensix nodes are not the chip's tiles",
                    ))
                };
                // The barrier: requests enter the NoC in tile order (docs/noc-lookahead.md
                // clause 4), also when a tile failed.
                for t in &mut self.tiles {
                    t.submit_requests(&mut self.noc);
                }
                self.earliest = self.due.iter().copied().min().unwrap_or(u64::MAX);
                self.any_busy = self.cp_busy.iter().any(|&b| b);
                let done = r.map_err(|e| e.at_cycle(now))?;
                written = done.written;
                quiet = done.quiet;
                spread_ns = Some(done.work_ns);
            }
            Schedule::Fast if nothing_due => {}
            Schedule::Fast => {
                // Tiles whose cores are all parked, ahead of the clock or stopped are skipped
                // with one compare each. Until the loops end, the bounds say "look at
                // everything" (what an error leaves them at).
                self.earliest = 0;
                self.any_busy = true;
                let mut earliest = u64::MAX;
                let tiles = self
                    .tiles
                    .iter_mut()
                    .zip(&mut self.due)
                    .zip(&mut self.cp_busy);
                for ((t, due), busy) in tiles {
                    if *due <= now {
                        quiet = false;
                        let w = t.l1_writes();
                        let r = t.step_cores(now, &mut self.noc);
                        written |= t.l1_writes() != w;
                        *due = t.next_due(now);
                        *busy |= t.coprocessor_busy();
                        r?;
                    }
                    earliest = earliest.min(*due);
                }
                let mut any_busy = false;
                let tiles = self
                    .tiles
                    .iter_mut()
                    .zip(&mut self.due)
                    .zip(&mut self.cp_busy);
                for ((t, due), busy) in tiles {
                    if *busy {
                        quiet = false;
                        let w = t.l1_writes();
                        let r = t.step_coprocessor(now);
                        written |= t.l1_writes() != w;
                        *busy = t.coprocessor_busy();
                        any_busy |= *busy;
                        // The coprocessor's effects (a freed FIFO slot, an L1 write) may
                        // concern cores: look at the tile next cycle.
                        *due = (*due).min(now + 1);
                        earliest = earliest.min(*due);
                        r?;
                    }
                }
                self.earliest = earliest;
                self.any_busy = any_busy;
            }
        }
        if let Some(t0) = timer.filter(|_| !quiet) {
            let ns = spread_ns
                .unwrap_or_else(|| u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX));
            self.last_cycle_ns = ns;
        }
        if self.schedule == Schedule::Reference {
            for t in &mut self.tiles {
                let w = t.l1_writes();
                let r = t.step_coprocessor(now);
                written |= t.l1_writes() != w;
                r?;
            }
        }
        self.l1_written = written;
        self.quiet = quiet && self.schedule == Schedule::Fast;
        if !self.noc.idle() {
            let mut ends = Ends {
                tiles: &mut self.tiles,
                due: &mut self.due,
                earliest: &mut self.earliest,
                l1_written: &mut self.l1_written,
                endpoints: &self.endpoints,
                dram: &mut self.dram,
                now,
            };
            let faults = self.noc.tick(now, &mut ends);
            if let Some(f) = faults.into_iter().next() {
                let mut e = ChipError::new(ErrorKind::Noc, f.to_string()).at_cycle(now);
                e.loc.tile = Some((f.origin.x, f.origin.y));
                e.loc.chip = self.id;
                self.cycle += 1;
                return Err(e);
            }
        }
        self.cycle += 1;
        Ok(())
    }

    /// True when nothing can change any more: no hart can execute (every core is in reset,
    /// halted, faulted or stalled — a stall waits on state only another agent changes), no
    /// coprocessor has work and the NoC is idle. Spinning harts are running, so this never
    /// fires on a busy-wait.
    pub fn quiescent(&self) -> bool {
        self.noc.idle() && self.tiles.iter().all(|t| t.quiescent())
    }

    /// Runs until `done(self)` holds (checked before every cycle) or `max_cycles` more cycles
    /// have passed. Returns whether `done` held.
    pub fn run_until(
        &mut self,
        max_cycles: u64,
        mut done: impl FnMut(&Chip) -> bool,
    ) -> Result<bool, ChipError> {
        let end = self.cycle.saturating_add(max_cycles);
        let traced = self.tracer.is_some();
        loop {
            if done(self) {
                return Ok(true);
            }
            if self.cycle >= end {
                return Ok(false);
            }
            if traced {
                self.traced_tick()?;
            } else {
                self.tick()?;
            }
        }
    }

    /// [`Chip::run_until`] for a `done` that depends on nothing but the contents of L1 (a
    /// host polling mailboxes): `done` is checked before the first cycle and then only after
    /// cycles in which some core, coprocessor or NoC transaction wrote to some L1, so a poll of
    /// 140 tiles costs nothing on the cycles in between. Same result, same cycle.
    pub fn run_until_l1(
        &mut self,
        max_cycles: u64,
        mut done: impl FnMut(&Chip) -> bool,
    ) -> Result<bool, ChipError> {
        let end = self.cycle.saturating_add(max_cycles);
        if done(self) {
            return Ok(true);
        }
        if self.tracer.is_some() {
            return self.run_until(end - self.cycle, done);
        }
        while self.cycle < end {
            self.tick()?;
            if self.l1_written && done(self) {
                return Ok(true);
            }
            self.skip_quiet(end);
        }
        Ok(false)
    }

    /// Whether the chip routes NoC coordinates through the translation tables. Always true:
    /// every NIU comes out of reset with `NIU_CFG_0` bit 14 (coordinate translation) set, as
    /// tt-metal's firmware expects (`COORDINATE_VIRTUALIZATION_ENABLED`, MemoryMap.md
    /// "NIU_CFG_0"), and the routing table speaks translated coordinates.
    pub fn translation_enabled(&self) -> bool {
        true
    }

    /// The endpoint a host access on `noc` at (`x`, `y`) lands on, and its canonical
    /// (translated) id, or an `Unmapped` error naming the coordinate.
    ///
    /// Coordinates are those UMD's SoC descriptor hands the host: translated ones (Tensix
    /// x 1–7, 10–16, y 2–11; DRAM x 17–18, y 12–23; PCIe (19, 24)), and the raw NOC0 aliases
    /// of DRAM ports and PCIe tiles (blackhole_140_arch.yaml). On NoC 1, coordinates inside the
    /// 17 × 12 grid are NoC 1's own numbering, mirrored onto NoC 0 ((x, y) on NoC 1 is
    /// (16−x, 11−y) on NoC 0, Coordinates.md); coordinates outside it (translated DRAM and
    /// PCIe) are the same on both NoCs.
    fn host_endpoint(
        &self,
        noc: NocIndex,
        x: u32,
        y: u32,
    ) -> Result<(NodeId, Endpoint), ChipError> {
        let (gw, gh) = (u32::from(NOC_GRID_X), u32::from(NOC_GRID_Y));
        let (x0, y0) = match noc {
            NocIndex::Noc1 if x < gw && y < gh => (gw - 1 - x, gh - 1 - y),
            _ => (x, y),
        };
        let unmapped = || {
            ChipError::new(
                ErrorKind::Unmapped,
                format!(
                    "nothing bhemu models at NOC0 ({x0},{y0}) (Ethernet, L2CPU, or off the grid)"
                ),
            )
            .at_cycle(self.cycle)
        };
        if (x0, y0) == ARC_NOC0 {
            return Ok((
                NodeId::new(ARC_NOC0.0 as u8, ARC_NOC0.1 as u8),
                Endpoint::Arc,
            ));
        }
        if PCIE_RAW_TILES.contains(&(x0, y0)) {
            let id = bhemu_noc::coord::PCIE_TRANSLATED;
            return Ok((id, Endpoint::Pcie));
        }
        let (Ok(xb), Ok(yb)) = (u8::try_from(x0), u8::try_from(y0)) else {
            return Err(unmapped());
        };
        // The topology resolves translated coordinates and the raw aliases of DRAM ports to
        // the node's canonical translated id, the one NoC transactions are delivered to.
        let id = match self.noc.topology().node(NodeId::new(xb, yb)) {
            Ok(info) => info.id,
            Err(_) => return Err(unmapped()),
        };
        match endpoint_at(&self.endpoints, id) {
            Endpoint::None => Err(unmapped()),
            ep => Ok((id, ep)),
        }
    }

    /// A host read (PCIe TLB window, `libttsim_tile_rd_bytes`) of `buf.len()` bytes at `addr`
    /// of the node at (`x`, `y`) on `noc` (coordinates as in UMD's SoC descriptor, see
    /// `host_endpoint`). It reaches exactly what a NoC read arriving at that node reaches —
    /// a tile's NoC face (L1, debug/control registers, local-RAM slow path), a DRAM channel
    /// by any of its ports — plus, from the host only, a tile's two NIU register windows
    /// `0xFFB2_0000..0xFFB4_0000` (4-byte aligned words), which the NoC fabric itself cannot
    /// reach while it is delivering. The access is instantaneous: no cycle passes.
    ///
    /// Errors: `Unmapped` (nothing modelled at the node), `Unimplemented` (the node is
    /// modelled but not that address; PCIe tile reads), `AccessRule` (DRAM bounds). The chip
    /// does not apply its strictness here: the caller decides whether to fault or answer zero.
    pub fn host_read(
        &mut self,
        noc: NocIndex,
        x: u32,
        y: u32,
        addr: u64,
        buf: &mut [u8],
    ) -> Result<(), ChipError> {
        let (id, ep) = self.host_endpoint(noc, x, y)?;
        // Reading L1 changes nothing a core could notice (parked and run-ahead cores never
        // change L1 privately), so the fast schedule need not look at the tile again; other
        // reads (registers, mailboxes, PC buffers) may have effects.
        if let Endpoint::Tile(i) = ep {
            if !plain_l1(addr, buf.len()) {
                self.touch(usize::from(i));
            }
        }
        let now = self.cycle;
        let r = match (ep, niu_word(addr, buf.len())) {
            (Endpoint::Tile(_), Some(a)) => self
                .noc
                .tile_mmio_read(id, a)
                .map(|v| buf.copy_from_slice(&v.to_le_bytes()))
                .map_err(|e| (ErrorKind::Unimplemented, e.to_string())),
            (Endpoint::Arc, _) => {
                return self.arc.read(addr, buf, now).map_err(|e| e.at_cycle(now))
            }
            _ => endpoint_read(&mut self.tiles, &self.dram, ep, addr, buf, now),
        };
        r.map_err(|(kind, m)| host_error(kind, m, id, ep, addr, now))
    }

    /// A host write of `data` at `addr` of the node at (`x`, `y`) on `noc`; routing as
    /// [`Chip::host_read`]. A write at or above [`NOC_HOST_WINDOW`] on the PCIe tile is the
    /// NoC-to-host window (docs/tt-umd-sim-interface.md §4): the chip returns
    /// [`HostWrite::ToHost`] and the caller delivers it to host memory.
    pub fn host_write(
        &mut self,
        noc: NocIndex,
        x: u32,
        y: u32,
        addr: u64,
        data: &[u8],
    ) -> Result<HostWrite, ChipError> {
        let (id, ep) = self.host_endpoint(noc, x, y)?;
        if let Endpoint::Tile(i) = ep {
            self.touch(usize::from(i));
        }
        let now = self.cycle;
        let r = match (ep, niu_word(addr, data.len())) {
            (Endpoint::Pcie, _) if addr >= NOC_HOST_WINDOW => {
                return Ok(HostWrite::ToHost {
                    addr: addr - NOC_HOST_WINDOW,
                })
            }
            (Endpoint::Arc, _) => {
                return self
                    .arc
                    .write(addr, data)
                    .map(|()| HostWrite::Done)
                    .map_err(|e| e.at_cycle(now))
            }
            (Endpoint::Tile(_), Some(a)) => {
                let v = u32::from_le_bytes([data[0], data[1], data[2], data[3]]);
                self.noc
                    .tile_mmio_write(id, a, v)
                    .map_err(|e| (ErrorKind::AccessRule, e.to_string()))
            }
            _ => endpoint_write(&mut self.tiles, &mut self.dram, ep, addr, data, now, now),
        };
        r.map(|()| HostWrite::Done)
            .map_err(|(kind, m)| host_error(kind, m, id, ep, addr, now))
    }

    /// Host write to L1 of tile (x, y).
    pub fn write_l1(&mut self, x: u8, y: u8, addr: u64, data: &[u8]) -> Result<(), ChipError> {
        self.tile_or_err(x, y)?.write_l1(addr, data)
    }
    /// Host read of L1 of tile (x, y); like [`Chip::host_read`] of L1, it leaves the fast
    /// schedule's bookkeeping alone.
    pub fn read_l1(&mut self, x: u8, y: u8, addr: u64, buf: &mut [u8]) -> Result<(), ChipError> {
        self.tile(x, y)
            .ok_or_else(|| no_tile(x, y))?
            .read_l1(addr, buf)
    }
    /// Host write of a tile register reachable over the NoC (e.g. soft reset `0xFFB1_21B0`).
    pub fn write_reg(&mut self, x: u8, y: u8, addr: u32, value: u32) -> Result<(), ChipError> {
        let now = self.cycle;
        self.tile_or_err(x, y)?.write_reg(addr, value, now)
    }
    pub fn read_reg(&mut self, x: u8, y: u8, addr: u32) -> Result<u32, ChipError> {
        let now = self.cycle;
        self.tile_or_err(x, y)?.read_reg(addr, now)
    }
}

/// The error of an access to a tile that is not there.
fn no_tile(x: u8, y: u8) -> ChipError {
    ChipError::new(
        ErrorKind::InvalidInput,
        format!("no enabled Tensix tile at ({x},{y})"),
    )
}

/// `len` bytes at `addr` lie in a tile's L1.
fn plain_l1(addr: u64, len: usize) -> bool {
    addr.checked_add(len as u64)
        .is_some_and(|end| end <= u64::from(crate::tile::L1_SIZE))
}

/// A host access's error: kind, sentence, the tile (for tiles) and the cycle.
fn host_error(
    kind: ErrorKind,
    message: String,
    id: NodeId,
    ep: Endpoint,
    addr: u64,
    now: u64,
) -> ChipError {
    let mut e = ChipError::new(kind, message).at_cycle(now);
    if let Endpoint::Tile(_) = ep {
        e.loc.tile = Some((id.x, id.y));
    }
    e.loc.addr = u32::try_from(addr).ok();
    e
}
