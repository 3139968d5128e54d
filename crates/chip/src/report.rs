//! Reports of tiles that did not finish: after a cycle limit (`bhemu boot`) and when a kernel
//! launched by a host through libttsim.so runs suspiciously long ([`crate::watchdog`]).
//!
//! A hang usually leaves most tiles stuck in the same place, so tiles with the same key
//! ([`group_key`]: go signal, sync word, and per core the state, pc and last MMIO access) form
//! one entry listing their coordinates and the shared per-core lines. A group of one, or every
//! tile with `verbose`, gets the full per-tile detail (value and cycle of the last MMIO access).
use crate::host::{CoreStatus, RunReport, TileStatus};
use crate::tile::Tile;

/// What the tiles' Tensix coprocessors executed since the chip was made: how many tiles'
/// coprocessors dispatched any instruction, the instructions per thread summed over the tiles,
/// and the coprocessors' mode. One line, for `bhemu boot` after each phase.
pub fn coprocessor_summary(tiles: &[Tile]) -> String {
    let mut per_thread = [0u64; bhemu_tensix::THREADS];
    let mut active = 0;
    for t in tiles {
        let d = t.coprocessor().dispatched();
        if d.iter().any(|&n| n > 0) {
            active += 1;
        }
        for (sum, n) in per_thread.iter_mut().zip(d) {
            *sum += n;
        }
    }
    let mode = match tiles.first().map(|t| t.coprocessor().mode()) {
        Some(bhemu_tensix::Mode::Permissive) => "permissive",
        _ => "strict",
    };
    format!(
        "coprocessor ({mode}): {active}/{} tiles executed Tensix instructions; T0 {}, T1 {}, T2 {} in all",
        tiles.len(),
        per_thread[0],
        per_thread[1],
        per_thread[2]
    )
}

/// Tiles listed per line in a group's header.
const TILES_PER_LINE: usize = 12;

/// One core's line in full: state, pc and the last MMIO access with its value and cycle.
fn core_line(c: &CoreStatus) -> String {
    let last = match c.last_mmio {
        Some(m) => format!(
            "last MMIO: {} 0x{:08x} [{}] ({} B) = 0x{:08x} at pc 0x{:08x}, cycle {}{}",
            if m.write { "store" } else { "load" },
            m.addr,
            crate::mmio_names::describe(m.addr),
            m.width,
            m.value,
            m.pc,
            m.cycle,
            if m.stalled { " (stalled)" } else { "" }
        ),
        None => "no MMIO access".to_string(),
    };
    format!(
        "    {:7} {:8} pc 0x{:08x}  {last}",
        c.core.name(),
        c.state.name(),
        c.pc
    )
}

/// What tiles of a group share: go signal, sync word and per core the state, pc and last MMIO
/// access — without the value and cycle of that access, which differ between tiles doing the
/// same thing (a load of the tile's own coordinates, a poll a few cycles apart).
fn group_key(t: &TileStatus) -> Vec<String> {
    let mut v = vec![format!(
        "    go signal 0x{:02x}, sync word 0x{:08x}",
        t.go_signal, t.sync
    )];
    for c in &t.cores {
        let last = match c.last_mmio {
            Some(m) => format!(
                "last MMIO: {} 0x{:08x} [{}] ({} B) at pc 0x{:08x}{}",
                if m.write { "store" } else { "load" },
                m.addr,
                crate::mmio_names::describe(m.addr),
                m.width,
                m.pc,
                if m.stalled { " (stalled)" } else { "" }
            ),
            None => "no MMIO access".to_string(),
        };
        v.push(format!(
            "    {:7} {:8} pc 0x{:08x}  {last}",
            c.core.name(),
            c.state.name(),
            c.pc
        ));
    }
    v
}

/// The unfinished tiles after a cycle limit. A hang usually leaves most tiles stuck in the same
/// place, so tiles with the same key ([`group_key`]) form one entry listing their coordinates
/// and the shared per-core lines (140 tiles × 6 lines would bury the one tile that differs). A
/// group of one, or every tile with `verbose`, gets the full per-tile detail.
pub fn unfinished_report(r: &RunReport, verbose: bool) -> String {
    tiles_report(r.unfinished(), verbose)
}

/// The grouped report of `tiles` (see the module comment).
pub fn tiles_report<'a>(tiles: impl Iterator<Item = &'a TileStatus>, verbose: bool) -> String {
    let tiles: Vec<&TileStatus> = tiles.collect();
    let mut s = String::new();
    if verbose {
        for t in &tiles {
            s.push_str(&tile_detail(t));
        }
        return s;
    }
    let mut groups: Vec<(Vec<String>, Vec<&TileStatus>)> = Vec::new();
    for t in tiles {
        let key = group_key(t);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, tiles)) => tiles.push(t),
            None => groups.push((key, vec![t])),
        }
    }
    for (key, tiles) in &groups {
        if let [t] = tiles.as_slice() {
            s.push_str(&tile_detail(t));
            continue;
        }
        s.push_str(&format!("  {} tiles:", tiles.len()));
        for (i, t) in tiles.iter().enumerate() {
            if i > 0 && i % TILES_PER_LINE == 0 {
                s.push_str("\n   ");
            }
            s.push_str(&format!(" ({},{})", t.x, t.y));
        }
        s.push('\n');
        for line in key {
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

/// One tile in full: go signal, sync word, and a line per core.
pub fn tile_detail(t: &TileStatus) -> String {
    let mut s = format!(
        "  tile ({},{}): go signal 0x{:02x}, sync word 0x{:08x}\n",
        t.x, t.y, t.go_signal, t.sync
    );
    for c in &t.cores {
        s.push_str(&core_line(c));
        s.push('\n');
    }
    s
}
