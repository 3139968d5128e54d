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
//! tiles with nothing due this cycle are skipped with one compare (docs/execution-model.md
//! EM-9 to EM-26 state each rule with its tests).
//!
//! Host threads ([`crate::threads`], `--threads N`): a fast-schedule cycle with enough busy
//! tiles steps each tile's cores and coprocessor on one of N threads of a pool
//! ([`crate::pool`]), each tile on its own NIU pair and outbox (`bhemu_noc::TileNoc`); after
//! the join — the barrier — the outboxes enter the NoC in tile order and the NoC ticks on the
//! calling thread (docs/noc-lookahead.md).
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
use crate::eth::Ethernet;
use crate::schedule::Schedule;
use crate::system::Member;
use crate::tile::{Strictness, Tile};
use bhemu_rv::CoreTiming;

mod endpoints;
mod ethernet;
mod fast_cycle;
mod quantum;
mod tick;

pub use quantum::TileDone;

use endpoints::{endpoint_at, endpoint_read, endpoint_write, niu_word};

/// How to build a chip.
#[derive(Clone, Debug)]
pub struct ChipConfig {
    /// Enabled Tensix tiles (translated coordinates); see [`crate::grid::parse_tiles`].
    pub tiles: Vec<NodeId>,
    pub strictness: Strictness,
    pub timing: Timing,
    /// Who the chip is in its system (default: the p150's one chip; docs/multi-chip.md).
    pub member: Member,
}

impl Default for ChipConfig {
    fn default() -> Self {
        ChipConfig {
            tiles: crate::grid::p150_tiles(),
            strictness: Strictness::Strict,
            timing: Timing::Functional,
            member: Member::default(),
        }
    }
}

/// What sits behind a NoC node, by translated `y * 64 + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Endpoint {
    None,
    Tile(u16),
    Dram(u8),
    Pcie,
    /// The ARC tile, reached from the host only ([`crate::arc`]).
    Arc,
    /// An Ethernet tile (by channel), reached from the host and the links only ([`crate::eth`]).
    Eth(u8),
}

pub struct Chip {
    tiles: Vec<Tile>,
    endpoints: Vec<Endpoint>,
    noc: Noc,
    dram: Dram,
    arc: Arc,
    eth: Ethernet,
    cycle: u64,
    id: u32,
    schedule: Schedule,
    /// How the cores' instructions are timed (docs/core-timing.md).
    core_timing: CoreTiming,
    /// The decoded code the tiles' cores share (docs/execution-model.md EM-27).
    code: std::sync::Arc<bhemu_rv::CodeLibrary>,
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
    /// Some tile was stepped since [`Chip::take_warnings`] last looked: only a step records a
    /// warning, so a host that asks after every clock of an idle chip costs no scan.
    stepped_since_warnings: bool,
    /// The timeline tracer, when one is recording ([`crate::trace`]).
    pub(crate) tracer: Option<Box<crate::trace::ChipTracer>>,
    /// Host threads the fast schedule may spread a cycle's tiles over (`crate::threads`).
    threads: usize,
    /// The cycles the fast schedule spread over host threads so far, and their host time.
    spread: crate::threads::SpreadTotals,
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
    /// The tiles that left requests in a spread cycle, in tile order (kept to reuse).
    submit: Vec<usize>,
    /// When this cycle's tiles were handed to the pool (for [`crate::threads::SpreadTotals`]).
    spread_started: Option<std::time::Instant>,
    /// Whether spreading has been paying ([`crate::threads`]).
    payoff: crate::threads::Payoff,
    /// Quanta run (per-hop NoC timing) and the cycles they covered (`chip/quantum.rs`).
    quanta: (u64, u64),
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

/// The schedule that runs when `asked` is asked for under core timing `t`: the pipeline
/// timing runs on the reference schedule only (docs/core-timing.md CT-10).
fn schedule_under(t: CoreTiming, asked: Schedule) -> Schedule {
    match t {
        CoreTiming::Pipeline => Schedule::Reference,
        CoreTiming::OnePerCycle => asked,
    }
}

impl Chip {
    pub fn new(cfg: &ChipConfig) -> Result<Chip, ChipError> {
        let topo = Topology::blackhole_with_tensix(cfg.tiles.iter().copied())
            .map_err(|e| ChipError::new(ErrorKind::InvalidInput, e.to_string()))?;
        let mut endpoints = vec![Endpoint::None; 64 * 64];
        // Reserved once: a tile is ≈ 24 KB, and growing the vector would copy them all.
        let mut tiles = Vec::with_capacity(topo.nodes().len());
        for n in topo.nodes() {
            let slot = usize::from(n.id.y) * 64 + usize::from(n.id.x);
            let ep = match n.kind {
                NodeKind::Tensix { .. } => {
                    tiles.push(Tile::new(n.id, cfg.strictness));
                    Endpoint::Tile((tiles.len() - 1) as u16)
                }
                NodeKind::Dram { bank, .. } => Endpoint::Dram(bank),
                NodeKind::Pcie => Endpoint::Pcie,
                NodeKind::Eth { channel } => Endpoint::Eth(channel),
            };
            if let Some(e) = endpoints.get_mut(slot) {
                *e = ep;
            }
        }
        let n_tiles = tiles.len();
        let core_timing = crate::schedule::core_timing_from_env()?;
        // One decoded copy of the code the tiles share (firmware, kernels), not one per core.
        let code = std::sync::Arc::new(bhemu_rv::CodeLibrary::new());
        for t in &mut tiles {
            t.set_core_timing(core_timing);
            t.share_code(code.clone());
        }
        let schedule = schedule_under(core_timing, Schedule::from_env()?);
        Ok(Chip {
            core_timing,
            code,
            tiles,
            endpoints,
            noc: Noc::new(topo, cfg.timing),
            dram: Dram::new(),
            arc: Arc::of(&cfg.member),
            eth: Ethernet::new(&cfg.member),
            cycle: 0,
            id: cfg.member.chip,
            schedule,
            due: vec![0; n_tiles],
            cp_busy: vec![true; n_tiles],
            earliest: 0,
            any_busy: true,
            l1_written: false,
            stepped_since_warnings: false,
            quiet: false,
            tracer: None,
            threads: crate::threads::threads_from_env()?,
            spread: crate::threads::SpreadTotals::default(),
            last_cycle_ns: 0,
            spread_min_ns: crate::threads::spread_from_env()?,
            pool: None,
            submit: Vec::new(),
            spread_started: None,
            payoff: crate::threads::Payoff::default(),
            quanta: (0, 0),
        })
    }

    /// The schedule in use (from `BHEMU_SCHEDULE` at construction, default fast).
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Switches schedule between cycles; the chip's state carries over unchanged. Under the
    /// pipeline timing the reference schedule stays: the fast schedule's proofs assume one
    /// instruction per cycle (docs/core-timing.md CT-10).
    pub fn set_schedule(&mut self, s: Schedule) -> Result<(), ChipError> {
        self.sync_parked()?;
        self.schedule = schedule_under(self.core_timing, s);
        Ok(())
    }

    /// How the cores' instructions are timed (from `BHEMU_CORE_TIMING` at construction,
    /// default one per cycle; docs/core-timing.md).
    pub fn core_timing(&self) -> CoreTiming {
        self.core_timing
    }

    /// Times every core's instructions by `t` from the next cycle on. The pipeline timing
    /// runs on the reference schedule (CT-10); going back to one instruction per cycle keeps
    /// the reference schedule until [`Chip::set_schedule`] asks for the fast one.
    pub fn set_core_timing(&mut self, t: CoreTiming) -> Result<(), ChipError> {
        self.sync_parked()?;
        self.core_timing = t;
        for tile in &mut self.tiles {
            tile.set_core_timing(t);
        }
        self.schedule = schedule_under(t, self.schedule);
        Ok(())
    }

    /// Host threads the fast schedule uses (from `BHEMU_THREADS` at construction, default the
    /// machine's cores; see [`crate::threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Quanta run so far (several cycles between two barriers, under per-hop NoC timing:
    /// docs/noc-lookahead.md) and the cycles they covered.
    pub fn quanta(&self) -> (u64, u64) {
        self.quanta
    }

    /// Cycles (or quanta) so far whose tiles were stepped on more than one host thread.
    pub fn spread_cycles(&self) -> u64 {
        self.spread.cycles
    }

    /// The cycles so far spread over host threads and where their host time went.
    pub fn spread(&self) -> crate::threads::SpreadTotals {
        self.spread
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

    /// Distinct windows of decoded code the cores share (docs/execution-model.md EM-27).
    pub fn code_windows(&self) -> usize {
        self.code.windows()
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
    /// Sets every tile's coprocessor to stop at undefined behaviour (strict) or to report it and
    /// go on (permissive), independently of core MMIO's strictness.
    pub fn set_tensix_strictness(&mut self, s: Strictness) {
        for t in &mut self.tiles {
            t.set_coprocessor_mode(s.coprocessor_mode());
        }
    }

    /// The warnings the tiles recorded since the last call, in tile order, leaving none. A
    /// host through libttsim.so asks after every clock, so the common answer — none — costs
    /// nothing after cycles that stepped no tile, and a glance at each tile otherwise.
    pub fn take_warnings(&mut self) -> Vec<ChipError> {
        let mut out = Vec::new();
        if !std::mem::take(&mut self.stepped_since_warnings) {
            return out;
        }
        for t in &mut self.tiles {
            if t.has_warnings() {
                out.append(&mut t.take_warnings());
            }
        }
        out
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
        if let Some(c) = self.eth.channel_at(x0, y0) {
            let (ex, ey) = crate::eth::channel_noc0(c);
            return Ok((NodeId::new(ex, ey), Endpoint::Eth(c)));
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
            (Endpoint::Eth(c), _) => self.eth.read(c, addr, buf, now),
            _ => endpoint_read(&mut self.tiles, &self.dram, ep, addr, buf, now, now),
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
            (Endpoint::Eth(c), _) => self.eth.write(c, addr, data, now),
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
    if let Endpoint::Tile(_) | Endpoint::Eth(_) = ep {
        e.loc.tile = Some((id.x, id.y));
    }
    e.loc.addr = u32::try_from(addr).ok();
    e
}
