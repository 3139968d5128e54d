//! Which Tensix tiles a chip has: the Blackhole grid in translated coordinates (docs/blackhole-facts.md §4,
//! tt-isa-documentation `BlackholeA0/NoC/Coordinates.md`): Tensix tiles at x 1-7 and 10-16,
//! y 2-11 — 140 on a p150, 120 on a p100 (which loses x 15-16).
use bhemu_noc::coord::is_tensix_coord;
use bhemu_noc::NodeId;

use crate::error::{ChipError, ErrorKind};

/// Every Tensix tile of an unharvested p150, row by row (y, then x).
pub fn p150_tiles() -> Vec<NodeId> {
    let mut v = Vec::with_capacity(140);
    for y in 2..=11u8 {
        for x in (1..=7u8).chain(10..=16) {
            v.push(NodeId::new(x, y));
        }
    }
    v
}

/// The 120 Tensix tiles of a p100 (x 15-16 harvested).
pub fn p100_tiles() -> Vec<NodeId> {
    p150_tiles().into_iter().filter(|n| n.x < 15).collect()
}

/// Parses a tile selection: `all` (140), `p100` (120), `N` (the first N tiles in row order)
/// or `x,y;x,y;...`. Every coordinate must be a Tensix tile and appear once.
pub fn parse_tiles(spec: &str) -> Result<Vec<NodeId>, ChipError> {
    let s = spec.trim();
    let bad = |m: String| ChipError::new(ErrorKind::InvalidInput, m);
    if s.eq_ignore_ascii_case("all") || s.eq_ignore_ascii_case("p150") {
        return Ok(p150_tiles());
    }
    if s.eq_ignore_ascii_case("p100") {
        return Ok(p100_tiles());
    }
    if let Ok(n) = s.parse::<usize>() {
        if n == 0 || n > 140 {
            return Err(bad(format!("--tiles {n}: choose 1 to 140 tiles")));
        }
        return Ok(p150_tiles().into_iter().take(n).collect());
    }
    let mut out: Vec<NodeId> = Vec::new();
    for part in s.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (x, y) = part
            .split_once(',')
            .ok_or_else(|| bad(format!("tile '{part}': expected x,y")))?;
        let x: u8 = x
            .trim()
            .parse()
            .map_err(|_| bad(format!("tile '{part}': x is not a number")))?;
        let y: u8 = y
            .trim()
            .parse()
            .map_err(|_| bad(format!("tile '{part}': y is not a number")))?;
        if !is_tensix_coord(x, y) {
            return Err(bad(format!(
                "tile ({x},{y}) is not a Tensix tile (translated x 1-7 or 10-16, y 2-11)"
            )));
        }
        let n = NodeId::new(x, y);
        if out.contains(&n) {
            return Err(bad(format!("tile ({x},{y}) listed twice")));
        }
        out.push(n);
    }
    if out.is_empty() {
        return Err(bad(format!("--tiles '{spec}': no tiles selected")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections() {
        assert_eq!(parse_tiles("all").map(|v| v.len()), Ok(140));
        assert_eq!(parse_tiles("p100").map(|v| v.len()), Ok(120));
        assert_eq!(
            parse_tiles("3"),
            Ok(vec![
                NodeId::new(1, 2),
                NodeId::new(2, 2),
                NodeId::new(3, 2)
            ])
        );
        assert_eq!(parse_tiles("1,2; 16,11").map(|v| v.len()), Ok(2));
        assert!(parse_tiles("8,2").is_err());
        assert!(parse_tiles("1,2;1,2").is_err());
        assert!(parse_tiles("0").is_err());
        assert!(parse_tiles("x").is_err());
    }
}
