//! The narrow interface between the PCIe face and the chip model, and `MemoryBackend`, the
//! stand-in used by the crate's own tests. [`make_backend`] builds the chip
//! (`crate::chip_backend::ChipBackend`).
use std::collections::HashMap;

use crate::error::{BackendError, ErrorKind, Where};

/// NoC addresses at and above this bit reach host memory through a PCIe tile's outbound iATU
/// (`get_pcie_base_for_arch` = 4 << 58, docs/tt-umd-sim-interface.md §4). The chip's own
/// constant, so that the PCIe face and the chip's routing agree.
pub const NOC_HOST_WINDOW: u64 = bhemu_chip::NOC_HOST_WINDOW;

/// How strictly unmodelled or undefined accesses are treated (env `BHEMU_MMIO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MmioMode {
    /// Stop at the first error: the access faults the device.
    #[default]
    Strict,
    /// Log once and continue where the hardware would (reads of unmodelled registers give
    /// all-ones, writes are dropped).
    Permissive,
}

/// What the backend constructor is told.
#[derive(Clone, Debug, Default)]
pub struct BackendConfig {
    pub mmio: MmioMode,
    /// Hang watchdog threshold in simulated cycles (`None`: [`DEFAULT_HANG_CYCLES`], 0: off).
    pub hang_cycles: Option<u64>,
    /// Record a timeline trace into this file (`BHEMU_TIMELINE`), written when the backend is
    /// dropped.
    pub timeline: Option<(std::path::PathBuf, bhemu_trace::TraceOptions)>,
    /// Report Dst reads inside a write's shadow on stderr (`BHEMU_CHECK_HAZARDS=1`).
    pub check_hazards: bool,
    /// Per-hop NoC latency instead of functional timing (`BHEMU_NOC_HOPS=1`).
    pub noc_hops: bool,
    /// Serve gdb on this port over these tiles' harts (`BHEMU_GDB`, `BHEMU_GDB_TILES`).
    pub gdb: Option<(u16, Vec<(u8, u8)>)>,
    /// Stop at the first Tensix undefined behaviour (`BHEMU_STRICT=1`) instead of reporting
    /// each kind once and going on.
    pub tensix_strict: bool,
    /// Which system of chips (`BHEMU_SYSTEM`, docs/multi-chip.md); default the p150.
    pub system: bhemu_chip::SystemKind,
}

/// Simulated cycles a launched kernel may run before the chip backend reports it as a
/// suspected hang (see `bhemu_chip::watchdog`).
pub const DEFAULT_HANG_CYCLES: u64 = 100_000;

/// A request of the chip for host memory: a NoC access at or above [`NOC_HOST_WINDOW`] that
/// reached a PCIe tile. `addr` is the offset inside that window (NoC address − 2⁶⁰); the ABI
/// translates it through the outbound iATU and calls the host's DMA callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostRequest {
    /// A posted write: nothing comes back.
    Write { addr: u64, data: Vec<u8> },
    /// A read; the ABI answers with [`SimBackend::complete_host_read`] and the same `tag`
    /// before the backend is clocked again.
    Read { tag: u64, addr: u64, len: u32 },
}

/// The chip as the PCIe face sees it. Implemented by `ChipBackend` (the chip) and `MemoryBackend`.
///
/// Rules for implementers:
/// * time advances only in [`SimBackend::clock`];
/// * `noc_read`/`noc_write` are host-initiated accesses arriving at a NoC node (a tile's L1 or
///   MMIO, a DRAM node) and complete at once, without time passing;
/// * host memory is reached only through [`HostRequest`]s: queue them, and return them from
///   [`SimBackend::take_host_requests`]. Never call out to the host yourself: the host's
///   callbacks may throw C++ exceptions (docs/tt-umd-sim-interface.md §9), which must not cross
///   Rust frames that hold locks or catch panics.
pub trait SimBackend: Send {
    /// Read `dst.len()` bytes at `addr` of node (x, y) on NoC `noc`.
    fn noc_read(
        &mut self,
        noc: u8,
        x: u32,
        y: u32,
        addr: u64,
        dst: &mut [u8],
    ) -> Result<(), BackendError>;
    /// Write `src` at `addr` of node (x, y) on NoC `noc`.
    fn noc_write(
        &mut self,
        noc: u8,
        x: u32,
        y: u32,
        addr: u64,
        src: &[u8],
    ) -> Result<(), BackendError>;
    /// Advance up to `cycles` cycles; return how many ran. Returning fewer is allowed only when
    /// host requests are waiting (e.g. the chip cannot go on without a host read's data); the
    /// ABI services them and calls `clock` again with the rest.
    fn clock(&mut self, cycles: u32) -> Result<u32, BackendError>;
    /// Cycles run since construction.
    fn cycle(&self) -> u64;
    /// Tiles that step every cycle (Tensix tiles of the chip), for per-tile-clock figures.
    fn tiles(&self) -> usize {
        0
    }
    /// Whether NoC coordinate translation is on; reported in NIU_CFG_0 bit 14
    /// (docs/tt-umd-sim-interface.md §8).
    fn noc_translation_enabled(&self) -> bool {
        false
    }
    /// Move every queued host request into `out`, oldest first.
    fn take_host_requests(&mut self, out: &mut Vec<HostRequest>) {
        let _ = out;
    }
    /// Whether [`SimBackend::take_host_requests`] would move anything. Every entry point asks
    /// after its operation, so a backend that keeps a queue answers from it; the default says
    /// yes, which is always correct and only slower.
    fn host_requests_pending(&self) -> bool {
        true
    }
    /// The data of an earlier [`HostRequest::Read`]. `data.len()` is the requested length;
    /// bytes the host could not provide are all-ones.
    fn complete_host_read(&mut self, tag: u64, data: &[u8]) -> Result<(), BackendError> {
        let _ = data;
        Err(BackendError::new(
            ErrorKind::Internal,
            Where::default(),
            format!("no host read with tag {tag} is outstanding"),
        ))
    }
    /// Host threads the chip's own work may use (a system's chips share the process's
    /// threads); a backend without threads ignores it.
    fn set_threads(&mut self, threads: usize) {
        let _ = threads;
    }
    /// Move the sends the chip's Ethernet TX queues issued into `out`, oldest first
    /// (docs/multi-chip.md); a backend without Ethernet has none.
    fn take_eth_sends(&mut self, out: &mut Vec<bhemu_chip::eth::Send>) {
        let _ = out;
    }
    /// Apply what arrived over the link of Ethernet channel `channel`.
    fn deliver_eth(
        &mut self,
        channel: u8,
        payload: &bhemu_chip::eth::Payload,
    ) -> Result<(), BackendError> {
        let _ = payload;
        Err(BackendError::new(
            ErrorKind::Unimplemented,
            Where::default(),
            format!("this backend has no Ethernet channel {channel}"),
        ))
    }
}

/// The one place that builds the backend `libttsim_init` uses: bhemu's Blackhole chip
/// ([`crate::ChipBackend`], 140 Tensix tiles). `MemoryBackend` remains for tests, through
/// `ffi::init_with_backend`.
pub fn make_backend(cfg: &BackendConfig) -> Result<Box<dyn SimBackend>, BackendError> {
    Ok(Box::new(crate::chip_backend::ChipBackend::new(cfg)?))
}

/// The backend of chip `member` of a system: bhemu's chip built as that member.
pub fn make_member_backend(
    cfg: &BackendConfig,
    member: bhemu_chip::Member,
) -> Result<Box<dyn SimBackend>, BackendError> {
    Ok(Box::new(crate::chip_backend::ChipBackend::of_member(
        cfg, member,
    )?))
}

const PAGE: usize = 4096;

/// Where a scripted host read's data lands: NoC0 node and local address.
type ReadDest = ((u32, u32), u64);
/// One node's memory: 4 KiB pages by page number.
type Pages = HashMap<u64, Box<[u8; PAGE]>>;

/// NoC0 grid of Blackhole: 17 × 12 routers (docs/blackhole-facts.md, NoC section).
const GRID_W: u32 = 17;
const GRID_H: u32 = 12;

/// PCIe tiles at NOC0 (2,0) and (11,0) (docs/tt-umd-sim-interface.md §7).
const PCIE_NODES: [(u32, u32); 2] = [(2, 0), (11, 0)];

/// Sparse memory per NoC node, no behaviour: the default backend until the chip lands, and the
/// backend of the ABI's own tests.
///
/// * Every node reads zero until written; memory is allocated in 4 KiB pages on first write.
/// * NoC 1 coordinates are mirrored onto NoC 0 ((x, y) on NoC 1 is (16−x, 11−y) on NoC 0,
///   docs/blackhole-facts.md), so both NoCs reach the same memory.
/// * No coordinate translation: translated DRAM coordinates (x 17/18, y 12–23) are separate
///   nodes. NIU_CFG_0 bit 14 therefore reads 0.
/// * Strict mode accepts NoC0 nodes x ≤ 16, y ≤ 11 and the translated DRAM columns
///   x 17–18, y 12–23 (docs/tt-umd-sim-interface.md §8); permissive mode accepts any node.
/// * Writes at or above 2⁶⁰ to a PCIe node are forwarded to the host as posted
///   [`HostRequest::Write`]s (the PCIe tile's NoC→host window); host-initiated reads there
///   are not modelled (an `Unimplemented` error).
/// * `clock` only counts cycles and emits host requests scheduled with
///   [`MemoryBackend::schedule_host_read`] / [`MemoryBackend::schedule_host_write`], which
///   stand in for a chip-initiated DMA in tests.
#[derive(Debug, Default)]
pub struct MemoryBackend {
    mode: MmioMode,
    cycle: u64,
    nodes: HashMap<(u32, u32), Pages>,
    scheduled: Vec<HostRequest>,
    queued: Vec<HostRequest>,
    /// Outstanding host reads: tag → (node, local address) the data lands at.
    reads: HashMap<u64, ReadDest>,
    next_tag: u64,
}

impl MemoryBackend {
    pub fn new(cfg: &BackendConfig) -> MemoryBackend {
        MemoryBackend {
            mode: cfg.mmio,
            ..MemoryBackend::default()
        }
    }

    fn node(
        &self,
        noc: u8,
        x: u32,
        y: u32,
        addr: u64,
        size: usize,
    ) -> Result<(u32, u32), BackendError> {
        let at = || Where::node(noc, x, y, addr, size);
        let (x0, y0) = match noc {
            0 => (x, y),
            1 if x < GRID_W && y < GRID_H => (GRID_W - 1 - x, GRID_H - 1 - y),
            1 => (x, y),
            _ => {
                return Err(BackendError::new(
                    ErrorKind::Unmapped,
                    at(),
                    format!("there is no NoC {noc}"),
                )
                .at_cycle(self.cycle))
            }
        };
        let on_grid = x0 < GRID_W && y0 < GRID_H;
        let translated_dram = (17..=18).contains(&x0) && (12..=23).contains(&y0);
        if self.mode == MmioMode::Strict && !on_grid && !translated_dram {
            return Err(BackendError::new(
                ErrorKind::Unmapped,
                at(),
                "no NoC node at these coordinates",
            )
            .at_cycle(self.cycle));
        }
        if addr.checked_add(size as u64).is_none() {
            return Err(BackendError::new(
                ErrorKind::AccessRule,
                at(),
                "access wraps past the end of the 64-bit NoC address space",
            )
            .at_cycle(self.cycle));
        }
        Ok((x0, y0))
    }

    fn read_mem(&self, node: (u32, u32), addr: u64, dst: &mut [u8]) {
        let pages = self.nodes.get(&node);
        let mut done = 0;
        while done < dst.len() {
            let a = addr + done as u64;
            let (page, off) = (a / PAGE as u64, (a % PAGE as u64) as usize);
            let n = (PAGE - off).min(dst.len() - done);
            match pages.and_then(|p| p.get(&page)) {
                Some(p) => dst[done..done + n].copy_from_slice(&p[off..off + n]),
                None => dst[done..done + n].fill(0),
            }
            done += n;
        }
    }

    fn write_mem(&mut self, node: (u32, u32), addr: u64, src: &[u8]) {
        let pages = self.nodes.entry(node).or_default();
        let mut done = 0;
        while done < src.len() {
            let a = addr + done as u64;
            let (page, off) = (a / PAGE as u64, (a % PAGE as u64) as usize);
            let n = (PAGE - off).min(src.len() - done);
            let p = pages.entry(page).or_insert_with(|| Box::new([0; PAGE]));
            p[off..off + n].copy_from_slice(&src[done..done + n]);
            done += n;
        }
    }

    /// Test hook standing in for a chip-initiated DMA: on the next `clock`, read `len` bytes at
    /// host-window offset `host_off` and store them at `addr` of NoC0 node (x, y).
    pub fn schedule_host_read(&mut self, x: u32, y: u32, addr: u64, host_off: u64, len: u32) {
        let tag = self.next_tag;
        self.next_tag += 1;
        self.reads.insert(tag, ((x, y), addr));
        self.scheduled.push(HostRequest::Read {
            tag,
            addr: host_off,
            len,
        });
    }

    /// Test hook: on the next `clock`, write `data` at host-window offset `host_off`.
    pub fn schedule_host_write(&mut self, host_off: u64, data: Vec<u8>) {
        self.scheduled.push(HostRequest::Write {
            addr: host_off,
            data,
        });
    }
}

impl SimBackend for MemoryBackend {
    fn noc_read(
        &mut self,
        noc: u8,
        x: u32,
        y: u32,
        addr: u64,
        dst: &mut [u8],
    ) -> Result<(), BackendError> {
        let node = self.node(noc, x, y, addr, dst.len())?;
        if addr >= NOC_HOST_WINDOW && PCIE_NODES.contains(&node) {
            return Err(BackendError::new(
                ErrorKind::Unimplemented,
                Where::node(noc, x, y, addr, dst.len()),
                "host-initiated reads of the PCIe tile's NoC-to-host window are not modelled by MemoryBackend",
            )
            .at_cycle(self.cycle));
        }
        self.read_mem(node, addr, dst);
        Ok(())
    }

    fn noc_write(
        &mut self,
        noc: u8,
        x: u32,
        y: u32,
        addr: u64,
        src: &[u8],
    ) -> Result<(), BackendError> {
        let node = self.node(noc, x, y, addr, src.len())?;
        if addr >= NOC_HOST_WINDOW && PCIE_NODES.contains(&node) {
            self.queued.push(HostRequest::Write {
                addr: addr - NOC_HOST_WINDOW,
                data: src.to_vec(),
            });
            return Ok(());
        }
        self.write_mem(node, addr, src);
        Ok(())
    }

    fn clock(&mut self, cycles: u32) -> Result<u32, BackendError> {
        self.cycle += u64::from(cycles);
        self.queued.append(&mut self.scheduled);
        Ok(cycles)
    }

    fn cycle(&self) -> u64 {
        self.cycle
    }

    fn take_host_requests(&mut self, out: &mut Vec<HostRequest>) {
        out.append(&mut self.queued);
    }

    fn host_requests_pending(&self) -> bool {
        !self.queued.is_empty()
    }

    fn complete_host_read(&mut self, tag: u64, data: &[u8]) -> Result<(), BackendError> {
        match self.reads.remove(&tag) {
            Some((node, addr)) => {
                self.write_mem(node, addr, data);
                Ok(())
            }
            None => Err(BackendError::new(
                ErrorKind::Internal,
                Where::default(),
                format!("no host read with tag {tag} is outstanding"),
            )
            .at_cycle(self.cycle)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict() -> MemoryBackend {
        MemoryBackend::new(&BackendConfig::default())
    }

    #[test]
    fn untouched_memory_reads_zero_and_writes_round_trip_across_pages() {
        let mut b = strict();
        let mut buf = [0xAAu8; 8];
        b.noc_read(0, 1, 2, 0x100, &mut buf).unwrap();
        assert_eq!(buf, [0; 8]);
        let data: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
        b.noc_write(0, 1, 2, 0xFFD, &data).unwrap();
        let mut back = vec![0; data.len()];
        b.noc_read(0, 1, 2, 0xFFD, &mut back).unwrap();
        assert_eq!(back, data);
    }

    /// docs/blackhole-facts.md: NoC0 (x, y) is NoC1 (16−x, 11−y).
    #[test]
    fn noc1_coordinates_mirror_onto_noc0() {
        let mut b = strict();
        b.noc_write(0, 1, 2, 0x40, &[1, 2, 3, 4]).unwrap();
        let mut buf = [0u8; 4];
        b.noc_read(1, 15, 9, 0x40, &mut buf).unwrap();
        assert_eq!(buf, [1, 2, 3, 4]);
    }

    #[test]
    fn strict_mode_rejects_nodes_off_the_grid_permissive_accepts() {
        let mut b = strict();
        let e = b.noc_write(0, 40, 40, 0, &[0]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unmapped);
        b.noc_write(0, 18, 23, 0, &[0]).unwrap();
        let mut p = MemoryBackend::new(&BackendConfig {
            mmio: MmioMode::Permissive,
            ..BackendConfig::default()
        });
        p.noc_write(0, 40, 40, 0, &[0]).unwrap();
    }

    #[test]
    fn writes_to_the_pcie_host_window_become_host_requests() {
        let mut b = strict();
        b.noc_write(0, 2, 0, NOC_HOST_WINDOW + 0x10, &[9]).unwrap();
        let mut out = Vec::new();
        b.take_host_requests(&mut out);
        assert_eq!(
            out,
            vec![HostRequest::Write {
                addr: 0x10,
                data: vec![9]
            }]
        );
    }

    #[test]
    fn time_advances_only_in_clock() {
        let mut b = strict();
        b.noc_write(0, 1, 2, 0, &[1]).unwrap();
        assert_eq!(b.cycle(), 0);
        assert_eq!(b.clock(5).unwrap(), 5);
        assert_eq!(b.cycle(), 5);
    }
}
