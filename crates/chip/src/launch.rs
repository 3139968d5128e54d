//! Slow-dispatch launch of a tt-metal program (reader, compute and writer kernels with local
//! circular buffers) on any set of tiles through the booted firmware, after [`crate::host::boot`].
//!
//! What the host writes per tile, from the firmware's `dev_msgs.h` / `brisc.cc` / `trisc.cc` /
//! `circular_buffer_init.h` of the `ttnn` 0.81.1 wheel (docs/kernel-kit.md, "Launch"):
//! - each enabled core's kernel at its link address ([`TEXT_BASE`]; the kernel kit links it
//!   there, and its start-up code copies its data image from L1 into the core's local RAM);
//! - the kernel-config block at [`CONFIG_BASE`]: runtime args per processor at
//!   `RTA_OFFSET + 0x100 * processor`, semaphores at `SEM_OFFSET`, local CB configuration at
//!   `CB_OFFSET` (four words per CB index: address, size, pages, page size — all in bytes);
//! - launch message 0 ([`launch_message`]) and then `RUN_MSG_GO`.
//!
//! The `launch_msg_t` offsets written here and the mailbox addresses of [`crate::host`] are
//! checked against the firmware ELFs' own layout by `tests/firmware_layout.rs`.
//!
//! A program that does not finish within the cycle limit is reported by [`stuck_report`]: each
//! core still inside its kernel, its pc, and the circular buffer it polls, if any.
use std::sync::Arc;

use crate::chip::Chip;
use crate::elf::ElfImage;
use crate::error::{ChipError, ErrorKind};
use crate::host::{self, RunReport, DISPATCH_MODE_HOST, GO_MSG, LAUNCH_BASE, LAUNCH_MSG_SIZE};
use crate::host::{RUN_MSG_DONE, RUN_MSG_GO};
use crate::tile::Core;

mod stuck;
pub use stuck::*;

/// `kernel_config_base[TENSIX]` of every launch: above the boot-time staging areas of the
/// firmware's local-RAM images and the bank tables (`MEM_MAP_END` + 0xA000 + 2 KiB).
pub const CONFIG_BASE: u32 = 0x2_0000;
/// Runtime args of processor `p` start at `CONFIG_BASE + RTA_OFFSET + RTA_STRIDE * p`.
pub const RTA_OFFSET: u16 = 0;
pub const RTA_STRIDE: u16 = 0x100;
/// Most runtime args per processor.
pub const MAX_RTAS: usize = (RTA_STRIDE / 4) as usize;
/// Semaphores (`sem_offset[TENSIX]`), 16 bytes apart.
pub const SEM_OFFSET: u16 = 0x600;
pub const MAX_SEMAPHORES: usize = 16;
/// Local CB configuration (`local_cb_offset`): `UINT32_WORDS_PER_LOCAL_CIRCULAR_BUFFER_CONFIG`
/// = 4 words per CB index.
pub const CB_OFFSET: u16 = 0x800;
/// Local CB indices (`NUM_CIRCULAR_BUFFERS` on Blackhole).
pub const NUM_CBS: u8 = 64;
/// `min_remote_cb_start_index` = 64: no remote CBs.
const NO_REMOTE_CBS: u8 = 64;
/// Kernel text link address per core (the kernel kit's `build.sh` uses the same table), each
/// with [`TEXT_SIZE`] bytes for text and the data image.
pub const TEXT_BASE: [(Core, u32); 5] = [
    (Core::Brisc, 0x2_1000),
    (Core::Ncrisc, 0x2_5000),
    (Core::Trisc0, 0x2_9000),
    (Core::Trisc1, 0x2_D000),
    (Core::Trisc2, 0x3_1000),
];
pub const TEXT_SIZE: u32 = 0x4000;
/// First L1 byte free for CB buffers and data.
pub const DATA_BASE: u32 = 0x3_5000;

/// `TensixProcessorTypes`: DM0 = BRISC, DM1 = NCRISC, MATH0..2 = TRISC0..2 — the index of a
/// processor's `enables` bit, `kernel_text_offset` and `rta_offset` entries.
pub fn processor_index(core: Core) -> usize {
    match core {
        Core::Brisc => 0,
        Core::Ncrisc => 1,
        Core::Trisc0 => 2,
        Core::Trisc1 => 3,
        Core::Trisc2 => 4,
    }
}

pub fn text_base(core: Core) -> u32 {
    TEXT_BASE
        .iter()
        .find(|(c, _)| *c == core)
        .map(|(_, a)| *a)
        .unwrap_or(TEXT_BASE[0].1)
}

fn invalid(m: impl Into<String>) -> ChipError {
    ChipError::new(ErrorKind::InvalidInput, m)
}

/// One core's kernel, resolved into L1 writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelImage {
    pub core: Core,
    pub file: String,
    /// (L1 address, bytes): the text and the data image, at their load addresses.
    pub writes: Vec<(u32, Vec<u8>)>,
    /// Function symbols (address, size, name), for hang reports.
    pub functions: Vec<(u32, u32, String)>,
}

impl KernelImage {
    /// Checks that `img` (built by the kernel kit for `core`) is entered at the core's
    /// [`TEXT_BASE`] and loads entirely inside its [`TEXT_SIZE`] window.
    pub fn from_elf(core: Core, img: &ElfImage) -> Result<KernelImage, ChipError> {
        let base = text_base(core);
        if img.entry != base {
            return Err(invalid(format!(
                "{}: {} kernel entry is 0x{:x}, expected 0x{base:x} (build it with scripts/kernel-kit/build.sh)",
                img.file,
                core.name(),
                img.entry
            )));
        }
        let mut writes = Vec::new();
        for s in img.segments.iter().filter(|s| !s.data.is_empty()) {
            let end = u64::from(s.addr) + s.data.len() as u64;
            if s.addr < base || end > u64::from(base + TEXT_SIZE) {
                return Err(invalid(format!(
                    "{}: segment loads at 0x{:x}..0x{end:x}, outside {}'s kernel window 0x{base:x}..0x{:x}",
                    img.file,
                    s.addr,
                    core.name(),
                    base + TEXT_SIZE
                )));
            }
            writes.push((s.addr, s.data.clone()));
        }
        let functions = img
            .symbols
            .iter()
            .filter(|s| s.kind == crate::elf::SymbolKind::Func && s.size > 0)
            .map(|s| (s.addr, s.size, s.name.clone()))
            .collect();
        Ok(KernelImage {
            core,
            file: img.file.clone(),
            writes,
            functions,
        })
    }

    /// The function holding `pc`, if the ELF named it.
    pub fn function_at(&self, pc: u32) -> Option<&str> {
        self.functions
            .iter()
            .find(|(a, n, _)| pc >= *a && pc - *a < *n)
            .map(|(_, _, name)| name.as_str())
    }
}

/// One local circular buffer: `pages` pages of `page_size` bytes at L1 `addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalCb {
    pub index: u8,
    pub addr: u32,
    pub pages: u32,
    pub page_size: u32,
}

impl LocalCb {
    pub fn size(&self) -> u32 {
        self.pages.saturating_mul(self.page_size)
    }
}

/// What one tile runs.
#[derive(Clone, Debug, Default)]
pub struct TileProgram {
    pub x: u8,
    pub y: u8,
    /// At most one kernel per core.
    pub kernels: Vec<Arc<KernelImage>>,
    /// Runtime args per processor (index [`processor_index`]).
    pub args: [Vec<u32>; 5],
    pub cbs: Vec<LocalCb>,
    /// Initial semaphore values.
    pub semaphores: Vec<u32>,
}

impl TileProgram {
    /// Checks indices, sizes and overlaps; the error names the tile and the offending item.
    pub fn validate(&self) -> Result<(), ChipError> {
        let at = |e: ChipError| e.at_tile(self.x, self.y);
        for (i, k) in self.kernels.iter().enumerate() {
            if self.kernels[..i].iter().any(|o| o.core == k.core) {
                return Err(at(invalid(format!("two kernels for {}", k.core.name()))));
            }
        }
        for (p, a) in self.args.iter().enumerate() {
            if a.len() > MAX_RTAS {
                return Err(at(invalid(format!(
                    "processor {p}: {} runtime args, at most {MAX_RTAS}",
                    a.len()
                ))));
            }
        }
        if self.semaphores.len() > MAX_SEMAPHORES {
            return Err(at(invalid(format!(
                "{} semaphores, at most {MAX_SEMAPHORES}",
                self.semaphores.len()
            ))));
        }
        for (i, cb) in self.cbs.iter().enumerate() {
            if cb.index >= NUM_CBS {
                return Err(at(invalid(format!(
                    "CB {}: index must be below {NUM_CBS}",
                    cb.index
                ))));
            }
            if cb.pages == 0 || cb.page_size == 0 || cb.page_size % 16 != 0 || cb.addr % 16 != 0 {
                return Err(at(invalid(format!(
                    "CB {}: needs at least one page, a page size that is a non-zero multiple of 16 and a 16-byte aligned address",
                    cb.index
                ))));
            }
            let end = u64::from(cb.addr) + u64::from(cb.pages) * u64::from(cb.page_size);
            if cb.addr < DATA_BASE || end > u64::from(crate::tile::L1_SIZE) {
                return Err(at(invalid(format!(
                    "CB {}: 0x{:x}..0x{end:x} is outside the free L1 0x{DATA_BASE:x}..0x{:x}",
                    cb.index,
                    cb.addr,
                    crate::tile::L1_SIZE
                ))));
            }
            for o in &self.cbs[..i] {
                if o.index == cb.index {
                    return Err(at(invalid(format!("CB {} configured twice", cb.index))));
                }
                let (a0, a1) = (u64::from(cb.addr), end);
                let (b0, b1) = (u64::from(o.addr), u64::from(o.addr) + u64::from(o.size()));
                if a0 < b1 && b0 < a1 {
                    return Err(at(invalid(format!(
                        "CB {} overlaps CB {} in L1",
                        cb.index, o.index
                    ))));
                }
            }
        }
        Ok(())
    }

    fn enables(&self) -> u32 {
        self.kernels
            .iter()
            .fold(0, |e, k| e | 1 << processor_index(k.core))
    }

    fn cb_mask(&self) -> u64 {
        self.cbs.iter().fold(0, |m, cb| m | 1u64 << cb.index)
    }
}

/// Launch message 0 for `p` (`launch_msg_t` of `dev_msgs.h`; offsets in docs/kernel-kit.md).
pub fn launch_message(p: &TileProgram, host_id: u32) -> [u8; LAUNCH_MSG_SIZE as usize] {
    let mut m = [0u8; LAUNCH_MSG_SIZE as usize];
    let put16 =
        |m: &mut [u8], off: usize, v: u16| m[off..off + 2].copy_from_slice(&v.to_le_bytes());
    let put32 =
        |m: &mut [u8], off: usize, v: u32| m[off..off + 4].copy_from_slice(&v.to_le_bytes());
    put32(&mut m, 0, CONFIG_BASE); // kernel_config_base[TENSIX]
    put16(&mut m, 16, SEM_OFFSET); // sem_offset[TENSIX]
    put16(&mut m, 24, CB_OFFSET); // local_cb_offset
    put16(&mut m, 26, CB_OFFSET + 16 * u16::from(NUM_CBS)); // remote_cb_offset (none used)
    for i in 0..5u16 {
        let rta = RTA_OFFSET + RTA_STRIDE * i;
        put16(&mut m, 28 + 4 * usize::from(i), rta); // rta_offset[i].rta_offset
        put16(&mut m, 30 + 4 * usize::from(i), rta); // .crta_offset: no common args
    }
    m[48] = DISPATCH_MODE_HOST; // mode
    put16(&mut m, 50, 0xFF); // cross_node_dfb_offset: none
    for k in &p.kernels {
        let i = processor_index(k.core);
        let size: u32 = k.writes.iter().map(|(_, d)| d.len() as u32).sum();
        put32(
            &mut m,
            52 + 4 * i,
            text_base(k.core).wrapping_sub(CONFIG_BASE),
        ); // kernel_text_offset[i]
        put32(&mut m, 72 + 4 * i, size); // kernel_text_size[i]
    }
    m[96..104].copy_from_slice(&p.cb_mask().to_le_bytes()); // local_cb_mask
    m[104] = 0; // brisc_noc_id
    m[105] = 0; // brisc_noc_mode: dedicated
    m[106] = NO_REMOTE_CBS; // min_remote_cb_start_index
    put32(&mut m, 108, host_id); // host_assigned_id
    put32(&mut m, 112, p.enables()); // enables
    put16(&mut m, 134, 0xFF); // prefetcher_pipe_offset: none
    m
}

/// The kernel-config block's bytes from `CONFIG_BASE` (runtime args, semaphores, CB config).
pub fn config_block(p: &TileProgram) -> Vec<u8> {
    let mut b = vec![0u8; usize::from(CB_OFFSET) + 16 * usize::from(NUM_CBS)];
    let mut put = |off: usize, v: u32| b[off..off + 4].copy_from_slice(&v.to_le_bytes());
    for (proc, args) in p.args.iter().enumerate() {
        for (i, v) in args.iter().enumerate() {
            put(
                usize::from(RTA_OFFSET) + usize::from(RTA_STRIDE) * proc + 4 * i,
                *v,
            );
        }
    }
    for (i, v) in p.semaphores.iter().enumerate() {
        put(usize::from(SEM_OFFSET) + 16 * i, *v);
    }
    for cb in &p.cbs {
        let o = usize::from(CB_OFFSET) + 16 * usize::from(cb.index);
        put(o, cb.addr);
        put(o + 4, cb.size());
        put(o + 8, cb.pages);
        put(o + 12, cb.page_size);
    }
    b
}

/// Every L1 write that loads `p` on its tile, in order: each kernel's text and data image, the
/// kernel-config block at [`CONFIG_BASE`], then launch message 0. The GO signal is not among
/// them. [`start_program`] writes these into the chip; a host driving a simulator through its
/// C ABI (the differential runner) writes the same bytes through a TLB window.
pub fn tile_writes(p: &TileProgram, host_id: u32) -> Vec<(u32, Vec<u8>)> {
    let mut w: Vec<(u32, Vec<u8>)> = p.kernels.iter().flat_map(|k| k.writes.clone()).collect();
    w.push((CONFIG_BASE, config_block(p)));
    w.push((LAUNCH_BASE, launch_message(p, host_id).to_vec()));
    w
}

/// Loads and starts `programs` (tiles must be booted and idle), runs until every tile is DONE
/// or `max_cycles` pass. On a cycle limit the report's `stuck` names what each core waits on.
pub fn launch_program(
    chip: &mut Chip,
    programs: &[TileProgram],
    host_id: u32,
    max_cycles: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<RunReport, ChipError> {
    start_program(chip, programs, host_id)?;
    host::run_to_done(chip, max_cycles, progress)
}

/// The host's half of [`launch_program`]: loads `programs` and sets GO without running the
/// chip (a debugger then runs it, see [`crate::debug`]).
pub fn start_program(
    chip: &mut Chip,
    programs: &[TileProgram],
    host_id: u32,
) -> Result<(), ChipError> {
    for p in programs {
        p.validate()?;
        let t = chip.tile_or_err(p.x, p.y)?;
        let go = (t.read_l1_u32(GO_MSG)? >> 24) as u8;
        if go != RUN_MSG_DONE {
            return Err(invalid(format!(
                "tile ({},{}) is not idle (go signal 0x{go:02x}); boot it first",
                p.x, p.y
            ))
            .at_tile(p.x, p.y));
        }
        for (addr, data) in tile_writes(p, host_id) {
            t.write_l1(u64::from(addr), &data)?;
        }
    }
    for p in programs {
        chip.tile_or_err(p.x, p.y)?
            .write_l1_u32(GO_MSG, u32::from(RUN_MSG_GO) << 24)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
