//! Coordinates and the set of nodes on the NoC.
//!
//! bhemu speaks *translated* coordinates everywhere, as tt-metal's firmware does on Blackhole
//! (`COORDINATE_VIRTUALIZATION_ENABLED 1` in noc_parameters.h). The translated layout
//! (tt-isa-documentation `BlackholeA0/NoC/Coordinates.md`; docs/blackhole-facts.md §4):
//! - Tensix tiles at x 1–7 and 10–16, y 2–11 (the raw NoC 0 coordinates of an unharvested chip);
//! - DRAM: bank b (0–7), port p (0–2) at x = 17 + b / 4, y = 12 + 3 (b % 4) + p, all three ports
//!   of a bank exposing the same 4 GiB (tt-umd fills translated DRAM columns bank by bank);
//! - the PCIe tile in use at (19, 24).
//!
//! Raw NoC coordinates are needed for routing distance, for `NOC_NODE_ID`, and for broadcast
//! rectangles. NoC 0's raw grid is 17 × 12 with (0, 0) top left; NoC 1 numbers the same routers
//! from the bottom right, so a router at NoC 0 (x, y) is NoC 1 (16 − x, 11 − y) (Coordinates.md).
//! Raw NoC 0 coordinates of DRAM ports come from the SoC descriptor `blackhole_140_arch.yaml`.
//! On an unharvested chip translation is the identity inside the 17 × 12 grid, so the raw
//! coordinates of DRAM ports (e.g. (0, 0)) are accepted as aliases of their translated ones.
use crate::NocError;

/// Width of the NoC grid in routers (`NOC_NODE_ID` bits 12–18, MemoryMap.md).
pub const NOC_GRID_X: u8 = 17;
/// Height of the NoC grid (`NOC_NODE_ID` bits 19–25).
pub const NOC_GRID_Y: u8 = 12;
/// DRAM banks (channels) and NoC ports per bank.
pub const DRAM_BANKS: u8 = 8;
pub const DRAM_PORTS_PER_BANK: u8 = 3;
/// First translated DRAM coordinate (tt-umd `dram_translated_coordinate_start_x/y`).
pub const DRAM_TRANSLATED_X: u8 = 17;
pub const DRAM_TRANSLATED_Y: u8 = 12;
/// Translated coordinate of the PCIe tile (Coordinates.md).
pub const PCIE_TRANSLATED: NodeId = NodeId { x: 19, y: 24 };

/// Raw NoC 0 coordinates of each DRAM bank's three ports, in port order
/// (`dram:` list of `blackhole_140_arch.yaml`, ttnn 0.81.1).
const DRAM_RAW: [[(u8, u8); 3]; 8] = [
    [(0, 0), (0, 1), (0, 11)],
    [(0, 2), (0, 10), (0, 3)],
    [(0, 9), (0, 4), (0, 8)],
    [(0, 5), (0, 7), (0, 6)],
    [(9, 0), (9, 1), (9, 11)],
    [(9, 2), (9, 10), (9, 3)],
    [(9, 9), (9, 4), (9, 8)],
    [(9, 5), (9, 7), (9, 6)],
];
/// Raw NoC 0 coordinate assumed for the PCIe tile in use. The descriptor lists PCIe tiles at
/// (2, 0) and (11, 0); Coordinates.md says (19, 24) is "PCIe 0" on p150. Which of the two is
/// PCIe 0 is not documented; only routing distance depends on it.
const PCIE_RAW: (u8, u8) = (2, 0);

/// A node's translated coordinates, as software writes them into `NOC_*_ADDR_HI`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct NodeId {
    pub x: u8,
    pub y: u8,
}

impl NodeId {
    pub const fn new(x: u8, y: u8) -> Self {
        NodeId { x, y }
    }

    /// Decodes the unicast coordinate field of `NOC_*_ADDR_HI`: x in bits 0–5, y in bits 6–11
    /// (MemoryMap.md "NOC_TARG_ADDR and NOC_RET_ADDR").
    pub const fn from_xy_field(v: u32) -> Self {
        NodeId {
            x: (v & 0x3F) as u8,
            y: ((v >> 6) & 0x3F) as u8,
        }
    }

    /// The unicast coordinate field: `y << 6 | x` (`NOC_XY_COORD` in noc_parameters.h).
    pub const fn xy_field(self) -> u32 {
        ((self.y as u32 & 0x3F) << 6) | (self.x as u32 & 0x3F)
    }

    /// The 64-bit NoC address tt-metal software builds: local address in bits 0–35, x in bits
    /// 36–41, y in 42–47 (`NOC_XY_ADDR`, noc_parameters.h; `NOC_ADDR_COORD_SHIFT` = 36).
    pub const fn noc_addr(self, local: u64) -> u64 {
        ((self.xy_field() as u64) << 36) | (local & 0xF_FFFF_FFFF)
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Which of the two NoCs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NocIndex {
    Noc0 = 0,
    Noc1 = 1,
}

impl NocIndex {
    pub const BOTH: [NocIndex; 2] = [NocIndex::Noc0, NocIndex::Noc1];

    pub fn from_index(i: usize) -> Result<Self, NocError> {
        match i {
            0 => Ok(NocIndex::Noc0),
            1 => Ok(NocIndex::Noc1),
            _ => Err(NocError::BadNoc { noc: i }),
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

/// What is attached to a node's NIU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A Tensix tile; `index` 0.. in row-major order of (y, x) over the enabled tiles.
    Tensix { index: u8 },
    /// A DRAM tile: `bank` (channel 0–7) and which of its three NoC ports.
    Dram { bank: u8, port: u8 },
    /// The PCIe tile in use.
    Pcie,
    /// An Ethernet tile (docs/multi-chip.md): its cores' NIUs only; the NoC does not route
    /// to or from it yet.
    Eth { channel: u8 },
}

/// One node of the NoC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeInfo {
    /// Translated coordinates.
    pub id: NodeId,
    pub kind: NodeKind,
    /// Raw NoC 0 coordinates of its router.
    pub raw: (u8, u8),
}

impl NodeInfo {
    /// Raw coordinates of this node's router on `noc` (Coordinates.md: NoC 1 counts from the
    /// bottom right).
    pub fn raw_on(&self, noc: NocIndex) -> (u8, u8) {
        raw_on(self.raw, noc)
    }

    /// `NOC_ENDPOINT_ID` (MemoryMap.md): tile index in bits 0–7, tile type in 8–23, NoC index
    /// in 24–31. DRAM tiles report their bank. The Tensix index order is bhemu's own.
    pub fn endpoint_id(&self, noc: NocIndex) -> u32 {
        let (index, ty) = match self.kind {
            NodeKind::Tensix { index } => (index as u32, 0x0100),
            NodeKind::Dram { bank, .. } => (bank as u32, 0x0800),
            NodeKind::Pcie => (2, 0x0300),
            NodeKind::Eth { channel } => (channel as u32, 0x0200),
        };
        index | (ty << 8) | ((noc.index() as u32) << 24)
    }

    /// `NOC_NODE_ID` (MemoryMap.md): raw x in bits 0–5, raw y in 6–11, grid width (17) in
    /// 12–18, grid height (12) in 19–25, and bit 28 set on NoC 0 (X-first routing) and clear on
    /// NoC 1. Dateline bits 26–27 are not modelled (0).
    pub fn node_id_reg(&self, noc: NocIndex) -> u32 {
        let (x, y) = self.raw_on(noc);
        let xfirst = if noc == NocIndex::Noc0 { 1 << 28 } else { 0 };
        x as u32 | (y as u32) << 6 | (NOC_GRID_X as u32) << 12 | (NOC_GRID_Y as u32) << 19 | xfirst
    }
}

/// Converts raw NoC 0 coordinates to raw coordinates on `noc`.
pub fn raw_on(raw0: (u8, u8), noc: NocIndex) -> (u8, u8) {
    match noc {
        NocIndex::Noc0 => raw0,
        NocIndex::Noc1 => (NOC_GRID_X - 1 - raw0.0, NOC_GRID_Y - 1 - raw0.1),
    }
}

/// True for translated coordinates that hold a Tensix tile on an unharvested Blackhole.
pub const fn is_tensix_coord(x: u8, y: u8) -> bool {
    ((x >= 1 && x <= 7) || (x >= 10 && x <= 16)) && y >= 2 && y <= 11
}

/// All Tensix coordinates of an unharvested Blackhole (140), row-major by y then x.
pub fn all_tensix() -> impl Iterator<Item = NodeId> {
    (2u8..=11).flat_map(|y| {
        (1u8..=16)
            .filter(move |&x| is_tensix_coord(x, y))
            .map(move |x| NodeId::new(x, y))
    })
}

/// The nodes on the NoC and the maps between translated and raw coordinates.
#[derive(Debug, Clone)]
pub struct Topology {
    nodes: Vec<NodeInfo>,
    /// Translated (or aliased raw) `y * 64 + x` → index into `nodes`, or `u16::MAX`.
    lookup: Vec<u16>,
    /// Raw NoC 0 `y * 17 + x` → index into `nodes`, or `u16::MAX`.
    by_raw: Vec<u16>,
}

const NONE: u16 = u16::MAX;

impl Topology {
    /// The unharvested p150: 140 Tensix tiles, 8 DRAM banks × 3 ports, the PCIe tile.
    pub fn blackhole() -> Self {
        match Self::blackhole_with_tensix(all_tensix()) {
            Ok(t) => t,
            // all_tensix() only yields valid, distinct coordinates.
            Err(_) => Self::empty(),
        }
    }

    fn empty() -> Self {
        Topology {
            nodes: Vec::new(),
            lookup: vec![NONE; 64 * 64],
            by_raw: vec![NONE; NOC_GRID_X as usize * NOC_GRID_Y as usize],
        }
    }

    /// Blackhole with only the given Tensix tiles enabled (e.g. the 120 of a p100, or a few for
    /// a test); DRAM and PCIe as on the p150. A coordinate that is not a Tensix tile, or is
    /// repeated, is an error.
    pub fn blackhole_with_tensix(
        tensix: impl IntoIterator<Item = NodeId>,
    ) -> Result<Self, NocError> {
        let mut t = Self::empty();
        let mut list: Vec<NodeId> = tensix.into_iter().collect();
        list.sort_by_key(|n| (n.y, n.x));
        for (i, id) in list.iter().enumerate() {
            if !is_tensix_coord(id.x, id.y) {
                return Err(NocError::BadCoordinate { x: id.x, y: id.y });
            }
            if i > 0 && list[i - 1] == *id {
                return Err(NocError::DuplicateNode { x: id.x, y: id.y });
            }
            t.push(NodeInfo {
                id: *id,
                kind: NodeKind::Tensix { index: i as u8 },
                raw: (id.x, id.y),
            });
        }
        for bank in 0..DRAM_BANKS {
            for port in 0..DRAM_PORTS_PER_BANK {
                let id = NodeId::new(
                    DRAM_TRANSLATED_X + bank / 4,
                    DRAM_TRANSLATED_Y + 3 * (bank % 4) + port,
                );
                let raw = DRAM_RAW[bank as usize][port as usize];
                t.push(NodeInfo {
                    id,
                    kind: NodeKind::Dram { bank, port },
                    raw,
                });
                // Raw alias (translation is the identity inside the grid).
                let slot = t.nodes.len() as u16 - 1;
                t.lookup[raw.1 as usize * 64 + raw.0 as usize] = slot;
            }
        }
        t.push(NodeInfo {
            id: PCIE_TRANSLATED,
            kind: NodeKind::Pcie,
            raw: PCIE_RAW,
        });
        Ok(t)
    }

    fn push(&mut self, info: NodeInfo) {
        let slot = self.nodes.len() as u16;
        self.lookup[info.id.y as usize * 64 + info.id.x as usize] = slot;
        self.by_raw[info.raw.1 as usize * NOC_GRID_X as usize + info.raw.0 as usize] = slot;
        self.nodes.push(info);
    }

    /// All nodes; a node's position in this slice is its slot.
    pub fn nodes(&self) -> &[NodeInfo] {
        &self.nodes
    }

    /// The slot of the node at translated (or aliased raw) coordinates.
    pub fn slot(&self, id: NodeId) -> Option<usize> {
        if id.x >= 64 || id.y >= 64 {
            return None;
        }
        match self.lookup[id.y as usize * 64 + id.x as usize] {
            NONE => None,
            s => Some(s as usize),
        }
    }

    /// The node at translated (or aliased raw) coordinates, or a `BadCoordinate` error.
    pub fn node(&self, id: NodeId) -> Result<&NodeInfo, NocError> {
        self.slot(id)
            .map(|s| &self.nodes[s])
            .ok_or(NocError::BadCoordinate { x: id.x, y: id.y })
    }

    /// Where a unicast request addressed to `id` goes: `Some(slot)` for a node,
    /// `None` for a Tensix tile of the grid that is not enabled (harvested, or left out of the
    /// chip's tiles), which exists on the NoC but never answers (see [`crate::unanswered`]);
    /// any other coordinate is a `BadCoordinate` error.
    pub fn reach(&self, id: NodeId) -> Result<Option<usize>, NocError> {
        match self.slot(id) {
            Some(s) => Ok(Some(s)),
            None if is_tensix_coord(id.x, id.y) => Ok(None),
            None => Err(NocError::BadCoordinate { x: id.x, y: id.y }),
        }
    }

    /// The node whose router sits at raw coordinates `raw` on `noc`.
    pub fn node_at_raw(&self, noc: NocIndex, raw: (u8, u8)) -> Option<&NodeInfo> {
        if raw.0 >= NOC_GRID_X || raw.1 >= NOC_GRID_Y {
            return None;
        }
        let raw0 = raw_on(raw, noc); // the mirror is its own inverse
        match self.by_raw[raw0.1 as usize * NOC_GRID_X as usize + raw0.0 as usize] {
            NONE => None,
            s => Some(&self.nodes[s as usize]),
        }
    }

    /// Enabled Tensix tiles in slot order.
    pub fn tensix(&self) -> impl Iterator<Item = &NodeInfo> {
        self.nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Tensix { .. }))
    }

    /// Router hops from `from` to `to` on `noc`. Each NoC is a torus whose packets only move
    /// in one direction per axis (NoC 0 right and down, NoC 1 left and up; NoC/README.md,
    /// Coordinates.md), so the distance is the forward distance modulo the grid on each axis.
    pub fn hops(&self, noc: NocIndex, from: &NodeInfo, to: &NodeInfo) -> u32 {
        let (fx, fy) = from.raw_on(noc);
        let (tx, ty) = to.raw_on(noc);
        let dx = (tx as i32 - fx as i32).rem_euclid(NOC_GRID_X as i32);
        let dy = (ty as i32 - fy as i32).rem_euclid(NOC_GRID_Y as i32);
        (dx + dy) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/blackhole-facts.md §4 / Coordinates.md: 140 Tensix tiles at x 1–7, 10–16 and y 2–11.
    #[test]
    fn blackhole_has_140_tensix_24_dram_ports_and_pcie() {
        let t = Topology::blackhole();
        assert_eq!(t.tensix().count(), 140);
        let dram = t
            .nodes()
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Dram { .. }))
            .count();
        assert_eq!(dram, 24);
        assert_eq!(t.node(PCIE_TRANSLATED).unwrap().kind, NodeKind::Pcie);
        assert!(t.node(NodeId::new(8, 5)).is_err());
        assert!(t.node(NodeId::new(0, 1)).is_ok()); // raw alias of DRAM bank 0 port 1
        assert!(t.node(NodeId::new(63, 63)).is_err());
    }

    /// tt-umd: banks 0–3 in translated column 17, 4–7 in column 18, three ports each.
    #[test]
    fn dram_translated_layout() {
        let t = Topology::blackhole();
        let n = t.node(NodeId::new(17, 12)).unwrap();
        assert_eq!(n.kind, NodeKind::Dram { bank: 0, port: 0 });
        assert_eq!(n.raw, (0, 0));
        let n = t.node(NodeId::new(18, 23)).unwrap();
        assert_eq!(n.kind, NodeKind::Dram { bank: 7, port: 2 });
        assert_eq!(n.raw, (9, 6));
        // The raw alias resolves to the same node, reported by its translated id.
        assert_eq!(t.node(NodeId::new(9, 6)).unwrap().id, NodeId::new(18, 23));
    }

    /// Coordinates.md: NoC 1 numbers routers from the bottom right.
    #[test]
    fn noc1_raw_is_mirrored() {
        let t = Topology::blackhole();
        let n = t.node(NodeId::new(1, 2)).unwrap();
        assert_eq!(n.raw_on(NocIndex::Noc0), (1, 2));
        assert_eq!(n.raw_on(NocIndex::Noc1), (15, 9));
        assert_eq!(
            t.node_at_raw(NocIndex::Noc1, (15, 9)).unwrap().id,
            NodeId::new(1, 2)
        );
    }

    /// MemoryMap.md NOC_NODE_ID layout.
    #[test]
    fn node_id_register_layout() {
        let t = Topology::blackhole();
        let n = t.node(NodeId::new(3, 4)).unwrap();
        let v = n.node_id_reg(NocIndex::Noc0);
        assert_eq!(v & 0x3F, 3);
        assert_eq!((v >> 6) & 0x3F, 4);
        assert_eq!((v >> 12) & 0x7F, 17);
        assert_eq!((v >> 19) & 0x7F, 12);
        assert_eq!(v >> 28 & 1, 1);
        let v1 = n.node_id_reg(NocIndex::Noc1);
        assert_eq!((v1 & 0x3F, (v1 >> 6) & 0x3F), (13, 7));
        assert_eq!(v1 >> 28 & 1, 0);
        assert_eq!(n.endpoint_id(NocIndex::Noc1) >> 8, 0x0100 | 0x1_0000);
    }

    #[test]
    fn torus_hops_are_directional() {
        let t = Topology::blackhole();
        let a = t.node(NodeId::new(1, 2)).unwrap();
        let b = t.node(NodeId::new(3, 5)).unwrap();
        assert_eq!(t.hops(NocIndex::Noc0, a, b), 2 + 3);
        assert_eq!(t.hops(NocIndex::Noc1, a, b), (17 - 2) + (12 - 3));
        assert_eq!(t.hops(NocIndex::Noc0, a, a), 0);
    }

    #[test]
    fn subset_topology_and_errors() {
        let t = Topology::blackhole_with_tensix([NodeId::new(2, 2), NodeId::new(1, 2)]).unwrap();
        assert_eq!(t.tensix().count(), 2);
        assert!(t.node(NodeId::new(3, 2)).is_err());
        assert_eq!(
            Topology::blackhole_with_tensix([NodeId::new(8, 2)]).unwrap_err(),
            NocError::BadCoordinate { x: 8, y: 2 }
        );
        assert!(matches!(
            Topology::blackhole_with_tensix([NodeId::new(1, 2), NodeId::new(1, 2)]),
            Err(NocError::DuplicateNode { .. })
        ));
    }

    /// crates/noc/src/unanswered.rs: a Tensix coordinate whose tile is not enabled is reachable
    /// but answers nothing (`None`); a coordinate with no node is an error.
    #[test]
    fn reach_tells_nodes_disabled_tiles_and_bad_coordinates() {
        let t = Topology::blackhole_with_tensix([NodeId::new(1, 2)]).unwrap();
        assert_eq!(t.reach(NodeId::new(1, 2)), Ok(t.slot(NodeId::new(1, 2))));
        assert!(t.reach(NodeId::new(1, 2)).unwrap().is_some());
        assert_eq!(t.reach(NodeId::new(5, 7)), Ok(None));
        assert_eq!(t.reach(NodeId::new(16, 11)), Ok(None));
        assert!(t.reach(NodeId::new(17, 12)).unwrap().is_some(), "DRAM");
        assert_eq!(
            t.reach(NodeId::new(8, 5)),
            Err(NocError::BadCoordinate { x: 8, y: 5 })
        );
        assert_eq!(
            t.reach(NodeId::new(5, 40)),
            Err(NocError::BadCoordinate { x: 5, y: 40 })
        );
    }

    /// noc_parameters.h NOC_XY_ADDR: coordinates above bit 36.
    #[test]
    fn noc_addr_encoding() {
        let a = NodeId::new(5, 7).noc_addr(0x1234);
        assert_eq!(a, (7u64 << 42) | (5u64 << 36) | 0x1234);
        assert_eq!(NodeId::from_xy_field((a >> 36) as u32), NodeId::new(5, 7));
    }
}
