//! The Blackhole Galaxy's Ethernet wiring: 32 chips in an 8 × 4 mesh with two channels
//! between neighbours, the shape of tt-metal's `single_bh_galaxy_mesh_graph_descriptor`
//! (`device_topology { dims: [8, 4] }`, `channels { count: 2 }`; ttnn 0.81.1 wheel,
//! `tt_metal/fabric/mesh_graph_descriptors/`).
//!
//! Chip `r * 4 + c` sits at row `r` (0–7), column `c` (0–3). Which physical channels face which
//! neighbour is bhemu's own choice (the descriptor names counts, not channels): north 0–1,
//! east 2–3, west 4–5, south 6–7, so a link always joins east to west or south to north
//! (docs/multi-chip.md MC-8).
use super::{Link, Port};

pub const ROWS: u32 = 8;
pub const COLS: u32 = 4;
pub const CHIPS: u32 = ROWS * COLS;

const NORTH: u8 = 0;
const EAST: u8 = 2;
const WEST: u8 = 4;
const SOUTH: u8 = 6;

/// Every link once: for each chip, its two east links and its two south links.
pub fn links() -> Vec<Link> {
    let mut out = Vec::new();
    for r in 0..ROWS {
        for c in 0..COLS {
            let me = r * COLS + c;
            let mut pair = |other: u32, mine: u8, theirs: u8| {
                for k in 0..2 {
                    out.push(Link {
                        a: Port {
                            chip: me,
                            channel: mine + k,
                        },
                        b: Port {
                            chip: other,
                            channel: theirs + k,
                        },
                    });
                }
            };
            if c + 1 < COLS {
                pair(me + 1, EAST, WEST);
            }
            if r + 1 < ROWS {
                pair(me + COLS, SOUTH, NORTH);
            }
        }
    }
    out
}
