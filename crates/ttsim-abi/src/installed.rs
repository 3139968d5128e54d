//! What `bhemu install-sim DIR --system NAME` records beside the library: the file
//! [`SYSTEM_FILE`] holding the system's name, which `libttsim_init` reads when `BHEMU_SYSTEM` is
//! not set (docs/multi-chip.md MC-1), so that a directory installed for a p300 opens as one
//! whatever environment its host process has.
//!
//! The library finds its own file in `/proc/self/maps` (the mapping that holds the code of
//! [`crate::ffi::libttsim_init`]); in a program that links bhemu statically that is the
//! program itself, beside which no such file normally lies.
use std::path::{Path, PathBuf};

/// Name of the file, in the library's directory.
pub const SYSTEM_FILE: &str = "bhemu-system";

/// The path of the file that maps `addr`, from `maps` (the text of `/proc/self/maps`).
pub fn mapped_file(maps: &str, addr: usize) -> Option<PathBuf> {
    maps.lines().find_map(|l| {
        let mut f = l.split_whitespace();
        let (lo, hi) = f.next()?.split_once('-')?;
        let (lo, hi) = (
            usize::from_str_radix(lo, 16).ok()?,
            usize::from_str_radix(hi, 16).ok()?,
        );
        let path = f.nth(4)?;
        (lo <= addr && addr < hi && path.starts_with('/')).then(|| PathBuf::from(path))
    })
}

/// The system name recorded in `dir`, if any (trimmed; empty means none).
pub fn recorded_in(dir: &Path) -> Option<String> {
    let s = std::fs::read_to_string(dir.join(SYSTEM_FILE)).ok()?;
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// The system name recorded beside the loaded library, if any.
pub fn recorded_system() -> Option<String> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let here = crate::ffi::libttsim_init as *const () as usize;
    let lib = mapped_file(&maps, here)?;
    recorded_in(lib.parent()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mc1_the_library_finds_its_file_in_the_maps() {
        let maps = "7f0000000000-7f0000001000 r-xp 00000000 08:01 42   /opt/sim/libttsim.so\n\
                    7f0000001000-7f0000002000 rw-p 00000000 00:00 0 \n";
        assert_eq!(
            mapped_file(maps, 0x7f00_0000_0800),
            Some(PathBuf::from("/opt/sim/libttsim.so"))
        );
        assert_eq!(mapped_file(maps, 0x7f00_0000_1800), None);
    }

    #[test]
    fn mc1_a_recorded_system_is_read_from_the_directory() {
        let dir = std::env::temp_dir().join(format!("bhemu-recorded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(recorded_in(&dir), None);
        std::fs::write(dir.join(SYSTEM_FILE), "p300\n").unwrap();
        assert_eq!(recorded_in(&dir), Some("p300".to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
