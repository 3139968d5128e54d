//! `--check-hazards`, shared by `bhemu run`, `bhemu boot` and `bhemu tensix run`: report every
//! SFPU read of a `Dst` block within four cycles of a Matrix Unit write to it, which silicon
//! turns into stale data unless a STALLWAIT separates them (`bhemu_tensix::matrix::hazard`;
//! tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/Dst.md).
use bhemu_chip::hazards::TileHazard;
use bhemu_chip::Chip;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct HazardArgs {
    /// Report Dst reads inside a write's 4-cycle shadow (a missing STALLWAIT; Dst.md).
    #[arg(long)]
    pub check_hazards: bool,
}

impl HazardArgs {
    /// Turns the chip's checkers on when `--check-hazards` was given.
    pub fn install(&self, chip: &mut Chip) {
        if self.check_hazards {
            chip.set_check_hazards(true);
        }
    }

    /// The reports so far, and how many more were found but not kept (none without
    /// `--check-hazards`).
    pub fn take(&self, chip: &mut Chip) -> (Vec<TileHazard>, u64) {
        if self.check_hazards {
            (chip.take_hazards(), chip.take_hazards_not_kept())
        } else {
            (Vec::new(), 0)
        }
    }
}

/// One report as JSON: the tile, the block, both instructions and the sentence.
pub fn to_json(h: &TileHazard) -> serde_json::Value {
    let mut v = bhemu_tensix::runner::hazard_json(&h.hazard);
    if let Some(o) = v.as_object_mut() {
        o.insert("tile".into(), serde_json::json!([h.tile.x, h.tile.y]));
    }
    v
}

/// Prints each report on a line, then how many there were.
pub fn print((hazards, not_kept): &(Vec<TileHazard>, u64)) {
    for h in hazards {
        println!("hazard: {h}");
    }
    let more = if *not_kept > 0 {
        format!(" (and {not_kept} more, not kept)")
    } else {
        String::new()
    };
    println!(
        "hazards: {} reported{more} (--check-hazards)",
        hazards.len()
    );
}
