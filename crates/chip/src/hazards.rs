//! The Dst read-after-write checker across the chip (`bhemu_tensix::matrix::hazard`): every
//! tile's coprocessor keeps its own record; these turn them all on and collect the reports
//! with the tile they came from, for `--check-hazards` and `BHEMU_CHECK_HAZARDS`.
use bhemu_noc::NodeId;
use bhemu_tensix::matrix::hazard::DstHazard;

use crate::chip::Chip;

/// One report and the tile whose coprocessor made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileHazard {
    pub tile: NodeId,
    pub hazard: DstHazard,
}

impl std::fmt::Display for TileHazard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tile ({},{}): {}", self.tile.x, self.tile.y, self.hazard)
    }
}

impl Chip {
    /// Turns every tile's Dst hazard checker on or off.
    pub fn set_check_hazards(&mut self, on: bool) {
        for t in self.tiles_mut_untouched() {
            t.coprocessor_mut().set_check_hazards(on);
        }
    }

    /// Hazards found past each tile's report limit since the last call (only counted).
    pub fn take_hazards_not_kept(&mut self) -> u64 {
        self.tiles_mut_untouched()
            .iter_mut()
            .map(|t| t.coprocessor_mut().take_hazards_not_kept())
            .sum()
    }

    /// The hazards reported since the last call, in tile order, leaving none.
    pub fn take_hazards(&mut self) -> Vec<TileHazard> {
        let mut out = Vec::new();
        for t in self.tiles_mut_untouched() {
            let tile = t.node();
            out.extend(
                t.coprocessor_mut()
                    .take_hazards()
                    .into_iter()
                    .map(|hazard| TileHazard { tile, hazard }),
            );
        }
        out
    }
}
