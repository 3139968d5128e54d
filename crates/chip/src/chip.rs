//! The chip: the enabled Tensix tiles on the Blackhole NoC grid, DRAM behind its 24 DRAM
//! ports, the NoC fabric, one cycle counter and the scheduler (seed 004 §2-3).
//!
//! One tick ([`Chip::clock`]): every runnable hart of every tile executes at most one
//! instruction (tiles in slot order, cores BRISC, NCRISC, TRISC0-2), then every busy
//! coprocessor advances one cycle, then the NoC delivers. Nothing else advances time, and the
//! order is fixed, so runs are deterministic. Tiles whose cores are all in reset (or halted)
//! cost one check per tick; the tick itself allocates nothing.
use bhemu_noc::{AtomicOp, Noc, NocEndpoints, NocError, NodeId, NodeKind, Timing, Topology};

use crate::dram::Dram;
use crate::error::{ChipError, ErrorKind};
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
}

pub struct Chip {
    tiles: Vec<Tile>,
    endpoints: Vec<Endpoint>,
    noc: Noc,
    dram: Dram,
    cycle: u64,
    id: u32,
}

/// The memory the NoC reaches, borrowed from the chip for one `Noc::tick`.
struct Ends<'a> {
    tiles: &'a mut [Tile],
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

impl Ends<'_> {
    fn endpoint(&self, node: NodeId) -> Endpoint {
        if node.x >= 64 || node.y >= 64 {
            return Endpoint::None;
        }
        self.endpoints
            .get(usize::from(node.y) * 64 + usize::from(node.x))
            .copied()
            .unwrap_or(Endpoint::None)
    }
}

impl NocEndpoints for Ends<'_> {
    fn read(&mut self, node: NodeId, addr: u64, buf: &mut [u8]) -> Result<(), NocError> {
        match self.endpoint(node) {
            Endpoint::Tile(i) => match self.tiles.get_mut(usize::from(i)) {
                Some(t) => t
                    .noc_read(addr, buf, self.now)
                    .map_err(|r| access(node, addr, buf.len(), r)),
                None => Err(access(node, addr, buf.len(), "no such tile".into())),
            },
            Endpoint::Dram(ch) => self
                .dram
                .read(usize::from(ch), addr, buf)
                .map_err(|e| access(node, addr, buf.len(), e.to_string())),
            Endpoint::Pcie => Err(access(
                node,
                addr,
                buf.len(),
                "bhemu does not model the PCIe tile's memory yet".into(),
            )),
            Endpoint::None => Err(NocError::BadCoordinate {
                x: node.x,
                y: node.y,
            }),
        }
    }

    fn write(&mut self, node: NodeId, addr: u64, data: &[u8]) -> Result<(), NocError> {
        match self.endpoint(node) {
            Endpoint::Tile(i) => match self.tiles.get_mut(usize::from(i)) {
                Some(t) => t
                    .noc_write(addr, data, self.now)
                    .map_err(|r| access(node, addr, data.len(), r)),
                None => Err(access(node, addr, data.len(), "no such tile".into())),
            },
            Endpoint::Dram(ch) => self
                .dram
                .write(usize::from(ch), addr, data)
                .map_err(|e| access(node, addr, data.len(), e.to_string())),
            Endpoint::Pcie => Err(access(
                node,
                addr,
                data.len(),
                "bhemu does not model the PCIe tile's memory yet".into(),
            )),
            Endpoint::None => Err(NocError::BadCoordinate {
                x: node.x,
                y: node.y,
            }),
        }
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
        Ok(Chip {
            tiles,
            endpoints,
            noc: Noc::new(topo, cfg.timing),
            dram: Dram::new(),
            cycle: 0,
            id: 0,
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
        &mut self.tiles
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
        self.tile_index(x, y)
            .and_then(move |i| self.tiles.get_mut(i))
    }
    /// The tile at (x, y) or an error naming it.
    pub fn tile_or_err(&mut self, x: u8, y: u8) -> Result<&mut Tile, ChipError> {
        self.tile_mut(x, y).ok_or_else(|| {
            ChipError::new(
                ErrorKind::InvalidInput,
                format!("no enabled Tensix tile at ({x},{y})"),
            )
        })
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
        for _ in 0..n {
            self.tick()?;
        }
        Ok(())
    }

    /// One cycle.
    #[inline]
    pub fn tick(&mut self) -> Result<(), ChipError> {
        let now = self.cycle;
        for t in &mut self.tiles {
            if t.has_runnable_core() {
                t.step_cores(now, &mut self.noc)?;
            }
        }
        for t in &mut self.tiles {
            t.step_coprocessor(now)?;
        }
        if !self.noc.idle() {
            let mut ends = Ends {
                tiles: &mut self.tiles,
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
        loop {
            if done(self) {
                return Ok(true);
            }
            if self.cycle >= end {
                return Ok(false);
            }
            self.tick()?;
        }
    }

    /// Host write to L1 of tile (x, y).
    pub fn write_l1(&mut self, x: u8, y: u8, addr: u64, data: &[u8]) -> Result<(), ChipError> {
        self.tile_or_err(x, y)?.write_l1(addr, data)
    }
    pub fn read_l1(&mut self, x: u8, y: u8, addr: u64, buf: &mut [u8]) -> Result<(), ChipError> {
        self.tile_or_err(x, y)?.read_l1(addr, buf)
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
