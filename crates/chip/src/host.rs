//! The host side of tt-metal's boot and slow-dispatch protocols for the `ttnn` 0.81.1
//! Blackhole firmware, as recorded in docs/blackhole-facts.md §9 and docs/blackhole-facts.md §1-3
//! (addresses from the firmware's `dev_mem_map.h` / `dev_msgs.h`, checked against the ELFs).
//!
//! Boot ([`boot`]), per tile: hold all five cores in soft reset; load each core's firmware
//! text at its link address and its local-RAM image (linked at `0xFFB0_0000`) at the core's L1
//! staging address, from which the firmware's start-up code copies it; write the go message
//! (`RUN_MSG_INIT`), launch read pointer and go-message index; put `jal x0, <BRISC text>` at L1
//! 0 (BRISC's reset pc); release BRISC. BRISC's firmware then programs the other cores' reset
//! PCs, releases them, waits for each to check in and writes `RUN_MSG_DONE`. The host waits for
//! every tile's go signal to read DONE and its subordinate sync word to read 0.
//!
//! Slow dispatch ([`launch`]): the kernel (linked at the kernel config base `0xA080`) is
//! copied there, launch message 0 is filled in for host dispatch with only BRISC enabled, the
//! go message becomes `RUN_MSG_GO`, and the host waits for DONE again.
use std::path::Path;
use std::time::{Duration, Instant};

use crate::chip::Chip;
use crate::elf::{ElfImage, Segment};
use crate::error::{ChipError, ErrorKind};
use crate::tile::{Core, CoreState, MmioAccess, SOFT_RESET_ALL};

/// `RISCV_DEBUG_REG_SOFT_RESET_0` (SoftReset.md).
pub const SOFT_RESET_ADDR: u32 = 0xFFB1_21B0;
/// Soft reset with only BRISC released (docs/blackhole-facts.md §9 step 5).
pub const SOFT_RESET_BRISC_RUN: u32 = 0x47000;
/// `mailboxes_t::subordinate_sync` (one byte per NCRISC, TRISC0-2).
pub const SUBORDINATE_SYNC: u32 = 0x68;
pub const LAUNCH_MSG_RD_PTR: u32 = 0x6C;
pub const LAUNCH_BASE: u32 = 0x70;
pub const LAUNCH_MSG_SIZE: u32 = 144;
pub const LAUNCH_ENTRIES: u32 = 8;
pub const GO_MSG: u32 = 0x4F0;
/// `go_messages[0].signal`.
pub const GO_SIGNAL: u32 = 0x4F3;
pub const GO_MSG_INDEX: u32 = 0x520;
pub const RUN_MSG_INIT: u8 = 0x40;
pub const RUN_MSG_GO: u8 = 0x80;
pub const RUN_MSG_DONE: u8 = 0x00;
pub const DISPATCH_MODE_HOST: u8 = 1;
/// `MEM_MAP_END`: kernel config base for slow dispatch, and BRISC's local-RAM staging.
pub const KERNEL_CONFIG_BASE: u32 = 0xA080;
/// The local-RAM segment's link address.
pub const LOCAL_RAM_LINK: u32 = 0xFFB0_0000;

/// Per core: firmware file, expected text (= entry) address, L1 staging of its local RAM.
pub const FIRMWARE_LAYOUT: [(Core, &str, u32, u32); 5] = [
    (Core::Brisc, "brisc.elf", 0x3AE0, 0xA080),
    (Core::Ncrisc, "ncrisc.elf", 0x5CE0, 0xC080),
    (Core::Trisc0, "trisc0.elf", 0x66E0, 0xE080),
    (Core::Trisc1, "trisc1.elf", 0x70E0, 0xF080),
    (Core::Trisc2, "trisc2.elf", 0x7AE0, 0x10080),
];

fn invalid(m: impl Into<String>) -> ChipError {
    ChipError::new(ErrorKind::InvalidInput, m)
}

/// One core's firmware, resolved into L1 writes.
#[derive(Clone, Debug)]
pub struct CoreFirmware {
    pub core: Core,
    pub text_addr: u32,
    /// (L1 address, bytes) to write.
    pub writes: Vec<(u32, Vec<u8>)>,
}

/// The five firmware images of one tt-metal build.
#[derive(Clone, Debug)]
pub struct Firmware {
    pub cores: Vec<CoreFirmware>,
}

impl Firmware {
    /// Reads `brisc.elf`, `ncrisc.elf`, `trisc{0,1,2}.elf` from `dir` and checks that each text
    /// segment sits where the 0.81.1 layout expects (BRISC's firmware programs the others'
    /// reset PCs from those constants, so a mismatch could not boot).
    ///
    /// `dir` is either flat (`dir/brisc.elf`, as `scripts/fetch-ttnn.sh` makes it) or tt-metal's
    /// own layout, one folder per core (`dir/brisc/brisc.elf`, as in the wheel's
    /// `pre-compiled/<key>/`); a flat file wins when both exist.
    pub fn load(dir: &Path) -> Result<Firmware, ChipError> {
        let mut cores = Vec::new();
        for (core, file, text, staging) in FIRMWARE_LAYOUT {
            let path = firmware_file(dir, file);
            let img =
                ElfImage::read(&path).map_err(|e| ChipError::new(ErrorKind::Io, e.to_string()))?;
            cores.push(Self::resolve(core, &img, text, staging)?);
        }
        Ok(Firmware { cores })
    }

    fn resolve(
        core: Core,
        img: &ElfImage,
        text: u32,
        staging: u32,
    ) -> Result<CoreFirmware, ChipError> {
        let exec: Vec<&Segment> = img.segments.iter().filter(|s| s.flags & 1 != 0).collect();
        let text_seg = match exec.as_slice() {
            [s] => *s,
            _ => {
                return Err(invalid(format!(
                    "{}: expected exactly one executable segment, found {}",
                    img.file,
                    exec.len()
                )))
            }
        };
        if text_seg.addr != text || img.entry != text {
            return Err(invalid(format!(
                "{}: {} text is linked at 0x{:x} (entry 0x{:x}); the 0.81.1 layout this host driver implements has 0x{text:x}",
                img.file,
                core.name(),
                text_seg.addr,
                img.entry
            )));
        }
        let mut writes = Vec::new();
        for s in &img.segments {
            if s.addr == LOCAL_RAM_LINK {
                if s.mem_size > core.local_ram_size() {
                    return Err(invalid(format!(
                        "{}: local-RAM segment of 0x{:x} bytes exceeds {}'s {} KiB",
                        img.file,
                        s.mem_size,
                        core.name(),
                        core.local_ram_size() >> 10
                    )));
                }
                if !s.data.is_empty() {
                    writes.push((staging, s.data.clone()));
                }
            } else if s.end() <= u64::from(crate::tile::L1_SIZE) {
                let mut data = s.data.clone();
                data.resize(s.mem_size as usize, 0);
                writes.push((s.addr, data));
            } else {
                return Err(invalid(format!(
                    "{}: segment at 0x{:08x} is neither in L1 nor the local-RAM image",
                    img.file, s.addr
                )));
            }
        }
        Ok(CoreFirmware {
            core,
            text_addr: text,
            writes,
        })
    }

    pub fn text_addr(&self, core: Core) -> Option<u32> {
        self.cores
            .iter()
            .find(|c| c.core == core)
            .map(|c| c.text_addr)
    }
}

/// `dir/FILE` when it exists, else tt-metal's per-core `dir/CORE/FILE` (CORE = FILE less `.elf`).
pub fn firmware_file(dir: &Path, file: &str) -> std::path::PathBuf {
    let flat = dir.join(file);
    if flat.is_file() {
        return flat;
    }
    let per_core = dir.join(file.trim_end_matches(".elf")).join(file);
    if per_core.is_file() {
        per_core
    } else {
        flat
    }
}

/// `jal x0, target` placed at address 0 (RISC-V unprivileged spec, J-type immediate layout).
pub fn jal_x0(target: u32) -> u32 {
    let off = target;
    let b20 = (off >> 20) & 1;
    let b10_1 = (off >> 1) & 0x3FF;
    let b11 = (off >> 11) & 1;
    let b19_12 = (off >> 12) & 0xFF;
    (b20 << 31) | (b10_1 << 21) | (b11 << 20) | (b19_12 << 12) | 0x6F
}

/// One core's state in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreStatus {
    pub core: Core,
    pub state: CoreState,
    pub pc: u32,
    pub releases: u32,
    pub last_mmio: Option<MmioAccess>,
}

/// One tile's state in a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileStatus {
    pub x: u8,
    pub y: u8,
    pub go_signal: u8,
    pub sync: u32,
    pub done: bool,
    pub cores: Vec<CoreStatus>,
}

/// What a boot or launch did.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// Simulated cycles from release to completion (or to the limit).
    pub cycles: u64,
    pub wall: Duration,
    /// Every tile reached DONE.
    pub finished: bool,
    pub tiles: Vec<TileStatus>,
}

impl RunReport {
    pub fn unfinished(&self) -> impl Iterator<Item = &TileStatus> {
        self.tiles.iter().filter(|t| !t.done)
    }
}

fn tile_done(l1_signal: u8, sync: u32) -> bool {
    l1_signal == RUN_MSG_DONE && sync == 0
}

/// Go signal and sync word of every tile.
pub fn statuses(chip: &Chip) -> Vec<TileStatus> {
    chip.tiles()
        .iter()
        .map(|t| {
            let n = t.node();
            let go = t
                .read_l1_u32(GO_MSG)
                .map(|w| (w >> 24) as u8)
                .unwrap_or(0xFF);
            let sync = t.read_l1_u32(SUBORDINATE_SYNC).unwrap_or(u32::MAX);
            TileStatus {
                x: n.x,
                y: n.y,
                go_signal: go,
                sync,
                done: tile_done(go, sync),
                cores: Core::ALL
                    .iter()
                    .map(|&c| CoreStatus {
                        core: c,
                        state: t.core_state(c),
                        pc: t.pc(c),
                        releases: t.releases(c),
                        last_mmio: t.last_mmio_at(c, chip.cycle()),
                    })
                    .collect(),
            }
        })
        .collect()
}

pub fn all_done(chip: &Chip) -> bool {
    chip.tiles().iter().all(tile_is_done)
}

/// One tile's part of [`all_done`]: its go signal reads DONE and its subordinate sync word 0.
pub fn tile_is_done(t: &crate::tile::Tile) -> bool {
    let go = t
        .read_l1_u32(GO_MSG)
        .map(|w| (w >> 24) as u8)
        .unwrap_or(0xFF);
    let sync = t.read_l1_u32(SUBORDINATE_SYNC).unwrap_or(u32::MAX);
    tile_done(go, sync)
}

/// Runs until every tile reads DONE (and sync 0) or `max_cycles` pass; `progress` is called
/// about every 4096 cycles with the cycles so far.
pub fn run_to_done(
    chip: &mut Chip,
    max_cycles: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<RunReport, ChipError> {
    let start = chip.cycle();
    let t0 = Instant::now();
    let mut finished = false;
    while chip.cycle() - start < max_cycles {
        let chunk = (max_cycles - (chip.cycle() - start)).min(4096);
        if chip.run_until_tiles(chunk, &tile_is_done)? {
            finished = true;
            break;
        }
        progress(chip.cycle() - start);
        if chip.quiescent() {
            return Err(deadlock(chip));
        }
    }
    if !finished {
        finished = all_done(chip);
    }
    // The report shows each core's pc: bring parked and run-ahead cores to this cycle.
    chip.sync_parked()?;
    Ok(RunReport {
        cycles: chip.cycle() - start,
        wall: t0.elapsed(),
        finished,
        tiles: statuses(chip),
    })
}

/// Nothing can progress but some tile is not DONE: name every stalled core and what it waits on.
fn deadlock(chip: &Chip) -> ChipError {
    let mut waits = Vec::new();
    for t in chip.tiles() {
        for c in Core::ALL {
            if t.core_state(c) == CoreState::Stalled {
                let n = t.node();
                let what = match t.last_mmio_at(c, chip.cycle()) {
                    Some(m) => format!(
                        "{} 0x{:08x} ({}) at pc 0x{:08x}",
                        if m.write { "store to" } else { "load from" },
                        m.addr,
                        crate::mmio_names::describe(m.addr),
                        m.pc
                    ),
                    None => format!("pc 0x{:08x}", t.pc(c)),
                };
                waits.push(format!(
                    "tile ({},{}) {} stalled on {what}",
                    n.x,
                    n.y,
                    c.name()
                ));
            }
        }
    }
    let shown: Vec<String> = waits.iter().take(8).cloned().collect();
    let more = if waits.len() > 8 {
        format!(" (and {} more)", waits.len() - 8)
    } else {
        String::new()
    };
    ChipError::new(
        ErrorKind::Deadlock,
        format!(
            "no core can run, no coprocessor has work and the NoC is idle, but not every tile is DONE: {}{more}",
            if shown.is_empty() { "every core is in reset, halted or faulted".to_string() } else { shown.join("; ") }
        ),
    )
    .at_cycle(chip.cycle())
}

/// Loads `fw` into every tile and releases BRISC (steps 1-5 of docs/blackhole-facts.md §9), then
/// runs until all tiles are DONE or `max_cycles` pass.
pub fn boot(
    chip: &mut Chip,
    fw: &Firmware,
    max_cycles: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<RunReport, ChipError> {
    let brisc_text = fw
        .text_addr(Core::Brisc)
        .ok_or_else(|| invalid("firmware has no BRISC image"))?;
    let coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    for (x, y) in coords {
        chip.write_reg(x, y, SOFT_RESET_ADDR, SOFT_RESET_ALL)?;
        for c in &fw.cores {
            for (addr, data) in &c.writes {
                chip.write_l1(x, y, u64::from(*addr), data)?;
            }
        }
        let t = chip.tile_or_err(x, y)?;
        t.write_l1_u32(GO_MSG, u32::from(RUN_MSG_INIT) << 24)?;
        t.write_l1_u32(LAUNCH_MSG_RD_PTR, 0)?;
        t.write_l1_u32(GO_MSG_INDEX, 0)?;
        for i in 0..LAUNCH_ENTRIES {
            let base = LAUNCH_BASE + i * LAUNCH_MSG_SIZE;
            t.write_l1(u64::from(base), &[0u8; LAUNCH_MSG_SIZE as usize])?;
            t.write_l1(u64::from(base + 48), &[DISPATCH_MODE_HOST])?;
        }
        t.write_l1_u32(0, jal_x0(brisc_text))?;
        chip.write_reg(x, y, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)?;
    }
    run_to_done(chip, max_cycles, progress)
}

/// A BRISC kernel for slow dispatch: an ELF whose loadable segments all lie in L1 from
/// [`KERNEL_CONFIG_BASE`] on, entered at its ELF entry point as a function.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub image: Vec<u8>,
    /// Entry offset from [`KERNEL_CONFIG_BASE`].
    pub text_offset: u32,
}

/// Largest kernel image accepted: up to NCRISC's staging area, which stays untouched.
pub const KERNEL_MAX: u32 = 0xC080 - KERNEL_CONFIG_BASE;

impl Kernel {
    pub fn from_elf(img: &ElfImage) -> Result<Kernel, ChipError> {
        let lo = img.lowest_addr();
        let hi = img.segments.iter().map(|s| s.end()).max().unwrap_or(0);
        if lo < KERNEL_CONFIG_BASE || hi > u64::from(KERNEL_CONFIG_BASE + KERNEL_MAX) {
            return Err(invalid(format!(
                "{}: kernel occupies 0x{lo:x}..0x{hi:x}; slow dispatch needs it inside 0x{:x}..0x{:x} (link it at the kernel config base)",
                img.file,
                KERNEL_CONFIG_BASE,
                KERNEL_CONFIG_BASE + KERNEL_MAX
            )));
        }
        if img.entry < lo || u64::from(img.entry) >= hi {
            return Err(invalid(format!(
                "{}: entry 0x{:x} is outside the kernel image",
                img.file, img.entry
            )));
        }
        let mut image = vec![0u8; (hi - u64::from(KERNEL_CONFIG_BASE)) as usize];
        for s in &img.segments {
            let off = (s.addr - KERNEL_CONFIG_BASE) as usize;
            if let Some(dst) = image.get_mut(off..off + s.data.len()) {
                dst.copy_from_slice(&s.data);
            }
        }
        Ok(Kernel {
            image,
            text_offset: img.entry - KERNEL_CONFIG_BASE,
        })
    }
}

/// Launch message 0 for a host-dispatched BRISC-only kernel (`launch_msg_t` offsets of
/// docs/blackhole-facts.md §3).
pub fn launch_message(k: &Kernel, host_id: u32) -> [u8; LAUNCH_MSG_SIZE as usize] {
    let mut m = [0u8; LAUNCH_MSG_SIZE as usize];
    let put32 =
        |m: &mut [u8], off: usize, v: u32| m[off..off + 4].copy_from_slice(&v.to_le_bytes());
    put32(&mut m, 0, KERNEL_CONFIG_BASE); // kernel_config_base[TENSIX]
    m[48] = DISPATCH_MODE_HOST; // mode
    m[50..52].copy_from_slice(&0xFFu16.to_le_bytes()); // cross_node_dfb_offset: none
    put32(&mut m, 52, k.text_offset); // kernel_text_offset[DM0]
    put32(&mut m, 72, k.image.len() as u32); // kernel_text_size[DM0]
    m[104] = 0; // brisc_noc_id
    m[105] = 0; // brisc_noc_mode: dedicated
    m[106] = 64; // min_remote_cb_start_index: no remote CBs
    put32(&mut m, 108, host_id); // host_assigned_id
    put32(&mut m, 112, 1); // enables: BRISC (DM0) only
    m
}

/// Slow-dispatches `k` to every tile and runs until all are DONE again.
pub fn launch(
    chip: &mut Chip,
    k: &Kernel,
    host_id: u32,
    max_cycles: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<RunReport, ChipError> {
    launch_start(chip, k, host_id)?;
    run_to_done(chip, max_cycles, progress)
}

/// The host's half of [`launch`]: writes the kernel and launch message to every idle tile and
/// sets GO, without running the chip (a debugger then runs it, see [`crate::debug`]).
pub fn launch_start(chip: &mut Chip, k: &Kernel, host_id: u32) -> Result<(), ChipError> {
    let msg = launch_message(k, host_id);
    let coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    for &(x, y) in &coords {
        let t = chip.tile_or_err(x, y)?;
        let go = (t.read_l1_u32(GO_MSG)? >> 24) as u8;
        if go != RUN_MSG_DONE {
            return Err(invalid(format!(
                "tile ({x},{y}) is not idle (go signal 0x{go:02x}); boot it first"
            ))
            .at_tile(x, y));
        }
        t.write_l1(u64::from(KERNEL_CONFIG_BASE), &k.image)?;
        t.write_l1(u64::from(LAUNCH_BASE), &msg)?;
    }
    for &(x, y) in &coords {
        chip.tile_or_err(x, y)?
            .write_l1_u32(GO_MSG, u32::from(RUN_MSG_GO) << 24)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/blackhole-facts.md §9 step 4: `jal x0, 0x3AE0` is 0x2E10306F.
    #[test]
    fn jal_encoding_matches_reference() {
        assert_eq!(jal_x0(0x3AE0), 0x2E10_306F);
    }

    #[test]
    fn launch_message_layout() {
        let k = Kernel {
            image: vec![0; 0x40],
            text_offset: 0,
        };
        let m = launch_message(&k, 7);
        assert_eq!(&m[0..4], &0xA080u32.to_le_bytes());
        assert_eq!(m[48], 1);
        assert_eq!(&m[72..76], &0x40u32.to_le_bytes());
        assert_eq!(m[106], 64);
        assert_eq!(&m[108..112], &7u32.to_le_bytes());
        assert_eq!(&m[112..116], &1u32.to_le_bytes());
    }
}
