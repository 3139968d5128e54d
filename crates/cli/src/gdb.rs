//! `--gdb PORT`: a GDB remote stub over the chip's harts (docs/gdb.md), served by
//! [`bhemu_gdb`] while the command owns the chip's clock.
use bhemu_chip::Chip;

use crate::CliError;

/// Parses `--gdb-tiles`: `x,y;x,y...`.
pub fn parse_tiles(s: &str) -> Result<Vec<(u8, u8)>, CliError> {
    bhemu_gdb::parse_tiles("--gdb-tiles", s).map_err(|e| CliError::new(e.0))
}

/// A launch under gdb: `start` loads the program and sets GO, then gdb drives the chip until
/// every tile is DONE or gdb detaches; the launch then runs on to DONE freely. `tiles` are the
/// tiles whose harts gdb sees.
pub fn launch(
    chip: &mut Chip,
    tiles: &[(u8, u8)],
    port: u16,
    max_cycles: u64,
    start: impl FnOnce(&mut Chip) -> Result<(), bhemu_chip::ChipError>,
    progress: &mut dyn FnMut(u64),
) -> Result<bhemu_chip::host::RunReport, CliError> {
    let err = |e: bhemu_chip::ChipError| CliError::new(e.to_string());
    let first = chip.cycle();
    start(chip).map_err(err)?;
    let end = bhemu_gdb::serve(
        chip,
        bhemu_gdb::harts_of(tiles),
        port,
        max_cycles,
        bhemu_chip::host::all_done,
    )
    .map_err(|e| CliError::new(e.0))?;
    eprintln!("bhemu: gdb session ended ({end:?})");
    let left = max_cycles.saturating_sub(chip.cycle() - first);
    let mut r = bhemu_chip::host::run_to_done(chip, left, progress).map_err(err)?;
    r.cycles = chip.cycle() - first;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gdb_tiles_option_errors_name_the_option() {
        assert_eq!(parse_tiles("1,2;3,4").ok(), Some(vec![(1, 2), (3, 4)]));
        let e = parse_tiles("1-2").err().map(|e| e.0).unwrap_or_default();
        assert_eq!(e, "--gdb-tiles: tile '1-2': expected x,y");
    }
}
