//! The PCIe tile's own NIU registers, which the host reads through BAR0
//! (docs/tt-metal-on-bhemu.md "The PCIe tile").
//!
//! tt-umd's first device read after mapping BAR0 is the PCIe tile's `NOC_NODE_ID` at BAR0
//! `0x1FD0_4044` (NoC 0; NoC 1's NIU sits at `0x1FD1_4044`): an answer other than all-ones tells
//! it the chip is reachable. The tile in use is PCIe 0 at raw NOC0 (2, 0).
use bhemu_noc::coord::{NOC_GRID_X, NOC_GRID_Y};
use bhemu_noc::NocIndex;

/// Raw NOC0 coordinates of the PCIe tile the host is attached to.
pub const PCIE_HOST_TILE_NOC0: (u32, u32) = (2, 0);

/// `NOC_NODE_ID` of the host's PCIe tile on `noc`: raw x in bits 0–5, raw y in 6–11, grid width
/// in 12–18, height in 19–25, bit 28 on NoC 0 (tt-isa-documentation:
/// BlackholeA0/NoC/MemoryMap.md). NoC 1 numbers the grid mirrored.
pub fn node_id(noc: NocIndex) -> u32 {
    let (gx, gy) = (u32::from(NOC_GRID_X), u32::from(NOC_GRID_Y));
    let (x0, y0) = PCIE_HOST_TILE_NOC0;
    let (x, y, xfirst) = match noc {
        NocIndex::Noc0 => (x0, y0, 1 << 28),
        NocIndex::Noc1 => (gx - 1 - x0, gy - 1 - y0, 0),
    };
    x | y << 6 | gx << 12 | gy << 19 | xfirst
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MemoryMap.md layout, written out: (2, 0) on NoC 0 in a 17 × 12 grid, X-first.
    #[test]
    fn pcie_node_id_names_raw_2_0_on_noc0_and_its_mirror_on_noc1() {
        assert_eq!(
            node_id(NocIndex::Noc0),
            2 | (17 << 12) | (12 << 19) | (1 << 28)
        );
        assert_eq!(node_id(NocIndex::Noc0), 0x1061_1002);
        assert_eq!(
            node_id(NocIndex::Noc1),
            14 | (11 << 6) | (17 << 12) | (12 << 19)
        );
    }
}
