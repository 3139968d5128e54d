//! `ChipBackend`: the PCIe face's [`SimBackend`] over bhemu's Blackhole chip
//! (`bhemu_chip::Chip`: 140 Tensix tiles, 8 DRAM channels behind 24 ports, the NoC).
//! [`crate::make_backend`] builds it for `libttsim_init`.
//!
//! What a host access through a TLB window (or `libttsim_tile_*`) reaches, by node:
//!
//! * **Tensix tile** (translated x 1–7, 10–16, y 2–11, which on an unharvested chip are also
//!   its NOC0 coordinates): the tile's NoC face (`Tile::noc_read`/`noc_write`): L1
//!   (0–0x17_FFFF), the debug/control registers from 0xFFB1_2000 (soft reset 0xFFB1_21B0,
//!   4-byte accesses), the local-RAM slow path 0xFFB1_4000.., and here additionally the
//!   tile's two NIU register windows 0xFFB2_0000..0xFFB4_0000 (4-byte accesses,
//!   `Noc::tile_mmio_read/write`).
//! * **DRAM**: channel c's 4 GiB, by either coordinate a DRAM port has:
//!   the NOC0 ones UMD's descriptor hands out (x 0/9, docs/tt-umd-sim-interface.md §7-8) or the
//!   translated ones the firmware uses (x 17–18, y 12–23, REFERENCES §4). All three ports of a
//!   channel reach the same memory.
//! * **PCIe tile** (NOC0 (2,0) and (11,0), translated (19,24)): a write at or above 2⁶⁰ becomes
//!   a [`HostRequest::Write`] (the NoC-to-host window through the outbound iATU, §4). Host reads
//!   there, and any other PCIe address, are `Unimplemented`.
//! * Anything else (ARC, Ethernet, L2CPU, off-grid): `Unmapped` in strict mode.
//!
//! NoC 1: coordinates inside the 17 × 12 grid are NoC 1's own (raw) numbering and are mirrored
//! onto NoC 0 ((x, y) on NoC 1 is (16−x, 11−y) on NoC 0, Coordinates.md), which is what UMD's
//! translation-off descriptor hands out for NoC 1; translated DRAM coordinates (x ≥ 17) are the
//! same on both NoCs.
//!
//! Time: [`SimBackend::clock`] is `Chip::clock`, nothing else advances it. NIU_CFG_0 bit 14
//! reads 1: the chip routes with coordinate translation on, as the firmware expects
//! (`NIU_CFG_0_NOC_ID_TRANSLATE_EN`, crates/noc).
//!
//! Power-on: every tile's soft reset `0xFFB1_21B0` reads 0x47800 (all five cores held,
//! docs/tt-umd-sim-interface.md §5), so nothing runs out of uninitialised L1.
//!
//! Host memory: the chip models no PCIe endpoint yet (a core's NoC access to the PCIe tile is a
//! NoC error), so the chip itself never produces host requests; only host writes looped back
//! through a TLB window onto the PCIe tile's host window do.
//!
//! `BHEMU_MMIO=strict` (the default) builds the chip with `Strictness::Strict` and faults on a
//! host access to something not modelled; `permissive` builds it with `Strictness::Permissive`
//! and answers such host accesses with zero (read) / dropped (write), as the chip does for
//! cores, with one warning per node and address on stderr.
use std::collections::HashSet;

use bhemu_chip::{Chip, ChipConfig, ChipError, Strictness};
use bhemu_noc::coord::PCIE_TRANSLATED;
use bhemu_noc::{decode_niu_address, NodeId, NodeKind};

use crate::backend::{BackendConfig, HostRequest, MmioMode, SimBackend, NOC_HOST_WINDOW};
use crate::error::{BackendError, ErrorKind, Where};

/// NoC grid of Blackhole: 17 × 12 routers (REFERENCES §4).
const GRID_W: u32 = 17;
const GRID_H: u32 = 12;

/// PCIe tiles at NOC0 (2,0) and (11,0) (blackhole_140_arch.yaml; docs/tt-umd-sim-interface.md §7),
/// and the translated PCIe coordinate (Coordinates.md).
fn is_pcie(x: u32, y: u32) -> bool {
    matches!((x, y), (2, 0) | (11, 0))
        || (x, y) == (u32::from(PCIE_TRANSLATED.x), u32::from(PCIE_TRANSLATED.y))
}

/// Most permissive-mode warnings printed before they are only counted.
const MAX_WARNINGS: usize = 50;

/// What a host access at a node reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Tile(u8, u8),
    Dram(usize),
    Pcie,
    Nothing,
}

pub struct ChipBackend {
    chip: Chip,
    mode: MmioMode,
    queued: Vec<HostRequest>,
    warned: HashSet<(u32, u32, u64)>,
    warnings: usize,
}

impl ChipBackend {
    /// The unharvested p150 (140 Tensix tiles), functional NoC timing.
    pub fn new(cfg: &BackendConfig) -> Result<ChipBackend, BackendError> {
        let strictness = match cfg.mmio {
            MmioMode::Strict => Strictness::Strict,
            MmioMode::Permissive => Strictness::Permissive,
        };
        let chip = Chip::new(&ChipConfig {
            strictness,
            ..ChipConfig::default()
        })
        .map_err(|e| chip_error(e, "init"))?;
        Ok(ChipBackend {
            chip,
            mode: cfg.mmio,
            queued: Vec::new(),
            warned: HashSet::new(),
            warnings: 0,
        })
    }

    pub fn chip(&self) -> &Chip {
        &self.chip
    }
    pub fn chip_mut(&mut self) -> &mut Chip {
        &mut self.chip
    }

    /// NoC 1 in-grid coordinates → NoC 0; then what sits there.
    fn resolve(&self, noc: u8, x: u32, y: u32) -> Result<(u32, u32, Node), String> {
        let (x0, y0) = match noc {
            0 => (x, y),
            1 if x < GRID_W && y < GRID_H => (GRID_W - 1 - x, GRID_H - 1 - y),
            1 => (x, y),
            _ => return Err(format!("there is no NoC {noc}")),
        };
        if is_pcie(x0, y0) {
            return Ok((x0, y0, Node::Pcie));
        }
        let (Ok(xb), Ok(yb)) = (u8::try_from(x0), u8::try_from(y0)) else {
            return Ok((x0, y0, Node::Nothing));
        };
        // The topology knows translated coordinates and the raw NOC0 aliases of DRAM ports.
        let node = match self.chip.noc().topology().node(NodeId::new(xb, yb)) {
            Ok(info) => match info.kind {
                NodeKind::Tensix { .. } => Node::Tile(info.id.x, info.id.y),
                NodeKind::Dram { bank, .. } => Node::Dram(usize::from(bank)),
                NodeKind::Pcie => Node::Pcie,
            },
            Err(_) => Node::Nothing,
        };
        Ok((x0, y0, node))
    }

    /// Permissive answer to an access bhemu cannot honour: note it once per (node, address).
    fn permissive(&mut self, x: u32, y: u32, addr: u64, what: &str) {
        if self.warned.insert((x, y, addr)) {
            self.warnings += 1;
            if self.warnings <= MAX_WARNINGS {
                eprintln!(
                    "bhemu: warning: {what} at NoC0 ({x},{y}) address {addr:#x} (BHEMU_MMIO=permissive: reads 0, writes dropped)"
                );
            } else if self.warnings == MAX_WARNINGS + 1 {
                eprintln!("bhemu: warning: further permissive-mode warnings are not shown");
            }
        }
    }

    /// An access bhemu cannot honour: an error in strict mode; in permissive mode a warning, and
    /// the caller answers as the chip does for cores (read 0, write dropped).
    fn refuse(
        &mut self,
        kind: ErrorKind,
        at: Where,
        msg: String,
        node: (u32, u32),
        addr: u64,
    ) -> Result<(), BackendError> {
        match self.mode {
            MmioMode::Strict => Err(BackendError::new(kind, at, msg).at_cycle(self.chip.cycle())),
            MmioMode::Permissive => {
                self.permissive(node.0, node.1, addr, &msg);
                Ok(())
            }
        }
    }

    /// Prints warnings the chip's tiles recorded in permissive mode.
    fn drain_chip_warnings(&mut self) {
        if self.mode != MmioMode::Permissive {
            return;
        }
        for w in self.chip.take_warnings() {
            self.warnings += 1;
            if self.warnings <= MAX_WARNINGS {
                eprintln!("bhemu: warning: {w}");
            } else if self.warnings == MAX_WARNINGS + 1 {
                eprintln!("bhemu: warning: further permissive-mode warnings are not shown");
            }
        }
    }
}

/// `ChipError` → `BackendError` of kind `Chip`, keeping tile, address and cycle.
fn chip_error(e: ChipError, call: &'static str) -> BackendError {
    let mut at = Where::call(call);
    if let Some((x, y)) = e.loc.tile {
        at.node = Some((u32::from(x), u32::from(y)));
    }
    at.addr = e.loc.addr.map(u64::from);
    let mut b = BackendError::new(ErrorKind::Chip, at, e.to_string());
    b.cycle = e.loc.cycle;
    b
}

/// A tile's NIU registers by host access: 4-byte aligned words only.
fn niu_word(addr: u64, len: usize) -> Option<u32> {
    let a = u32::try_from(addr).ok()?;
    (len == 4 && a % 4 == 0 && decode_niu_address(a).is_some()).then_some(a)
}

impl SimBackend for ChipBackend {
    fn noc_read(
        &mut self,
        noc: u8,
        x: u32,
        y: u32,
        addr: u64,
        dst: &mut [u8],
    ) -> Result<(), BackendError> {
        let at = Where::node(noc, x, y, addr, dst.len());
        let (x0, y0, node) = match self.resolve(noc, x, y) {
            Ok(r) => r,
            Err(m) => {
                return Err(
                    BackendError::new(ErrorKind::Unmapped, at, m).at_cycle(self.chip.cycle())
                )
            }
        };
        let now = self.chip.cycle();
        let r: Result<(), (ErrorKind, String)> = match node {
            Node::Tile(tx, ty) => {
                let niu = niu_word(addr, dst.len());
                let chip = &mut self.chip;
                match niu {
                    Some(a) => chip
                        .noc_mut()
                        .tile_mmio_read(NodeId::new(tx, ty), a)
                        .map(|v| dst.copy_from_slice(&v.to_le_bytes()))
                        .map_err(|e| (ErrorKind::Unimplemented, e.to_string())),
                    None => match chip.tile_mut(tx, ty) {
                        Some(t) => t
                            .noc_read(addr, dst, now)
                            .map_err(|m| (ErrorKind::Unimplemented, m)),
                        None => Err((ErrorKind::Unmapped, "no such tile".into())),
                    },
                }
            }
            Node::Dram(ch) => self
                .chip
                .dram()
                .read(ch, addr, dst)
                .map_err(|e| (ErrorKind::AccessRule, e.to_string())),
            Node::Pcie => Err((
                ErrorKind::Unimplemented,
                if addr >= NOC_HOST_WINDOW {
                    "host reads of the PCIe tile's NoC-to-host window are not modelled".into()
                } else {
                    "bhemu does not model the PCIe tile's own memory".into()
                },
            )),
            Node::Nothing => Err((
                ErrorKind::Unmapped,
                format!("nothing bhemu models at NOC0 ({x0},{y0}) (ARC, Ethernet, L2CPU, or off the grid)"),
            )),
        };
        match r {
            Ok(()) => Ok(()),
            Err((kind, msg)) => {
                self.refuse(kind, at, msg, (x0, y0), addr)?;
                dst.fill(0);
                Ok(())
            }
        }
    }

    fn noc_write(
        &mut self,
        noc: u8,
        x: u32,
        y: u32,
        addr: u64,
        src: &[u8],
    ) -> Result<(), BackendError> {
        let at = Where::node(noc, x, y, addr, src.len());
        let (x0, y0, node) = match self.resolve(noc, x, y) {
            Ok(r) => r,
            Err(m) => {
                return Err(
                    BackendError::new(ErrorKind::Unmapped, at, m).at_cycle(self.chip.cycle())
                )
            }
        };
        let now = self.chip.cycle();
        let r: Result<(), (ErrorKind, String)> = match node {
            Node::Tile(tx, ty) => match niu_word(addr, src.len()) {
                Some(a) => {
                    let v = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
                    self.chip
                        .noc_mut()
                        .tile_mmio_write(NodeId::new(tx, ty), a, v)
                        .map_err(|e| (ErrorKind::AccessRule, e.to_string()))
                }
                None => match self.chip.tile_mut(tx, ty) {
                    Some(t) => t
                        .noc_write(addr, src, now)
                        .map_err(|m| (ErrorKind::Unimplemented, m)),
                    None => Err((ErrorKind::Unmapped, "no such tile".into())),
                },
            },
            Node::Dram(ch) => self
                .chip
                .dram_mut()
                .write(ch, addr, src)
                .map_err(|e| (ErrorKind::AccessRule, e.to_string())),
            Node::Pcie if addr >= NOC_HOST_WINDOW => {
                // A write looped back onto the PCIe tile's NoC-to-host window goes to host memory
                // through the outbound iATU (docs/tt-umd-sim-interface.md §4).
                self.queued.push(HostRequest::Write {
                    addr: addr - NOC_HOST_WINDOW,
                    data: src.to_vec(),
                });
                Ok(())
            }
            Node::Pcie => Err((
                ErrorKind::Unimplemented,
                "bhemu does not model the PCIe tile's own memory".into(),
            )),
            Node::Nothing => Err((
                ErrorKind::Unmapped,
                format!("nothing bhemu models at NOC0 ({x0},{y0}) (ARC, Ethernet, L2CPU, or off the grid)"),
            )),
        };
        match r {
            Ok(()) => Ok(()),
            Err((kind, msg)) => self.refuse(kind, at, msg, (x0, y0), addr),
        }
    }

    fn clock(&mut self, cycles: u32) -> Result<u32, BackendError> {
        let r = self.chip.clock(u64::from(cycles));
        self.drain_chip_warnings();
        r.map_err(|e| chip_error(e, "clock"))?;
        Ok(cycles)
    }

    fn cycle(&self) -> u64 {
        self.chip.cycle()
    }

    /// The chip routes with translated coordinates (NIU_CFG_0 bit 14 set in every NIU, crates/noc).
    fn noc_translation_enabled(&self) -> bool {
        true
    }

    fn take_host_requests(&mut self, out: &mut Vec<HostRequest>) {
        out.append(&mut self.queued);
    }

    fn complete_host_read(&mut self, tag: u64, data: &[u8]) -> Result<(), BackendError> {
        let _ = data;
        Err(BackendError::new(
            ErrorKind::Internal,
            Where::default(),
            format!("no host read with tag {tag} is outstanding (the chip issues none)"),
        )
        .at_cycle(self.chip.cycle()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict() -> ChipBackend {
        ChipBackend::new(&BackendConfig::default()).expect("chip")
    }

    #[test]
    fn chip_has_140_tiles_held_in_reset_at_power_on() {
        let mut b = strict();
        assert_eq!(b.chip().tiles().len(), 140);
        for (x, y) in [(1, 2), (16, 11), (10, 5)] {
            let mut w = [0u8; 4];
            b.noc_read(0, x, y, 0xFFB1_21B0, &mut w).unwrap();
            assert_eq!(u32::from_le_bytes(w), 0x47800, "({x},{y})");
        }
    }

    #[test]
    fn l1_round_trips_and_stays_on_its_tile() {
        let mut b = strict();
        b.noc_write(0, 1, 2, 0x17_FFFC, &[1, 2, 3, 4]).unwrap();
        let mut w = [0u8; 4];
        b.noc_read(0, 1, 2, 0x17_FFFC, &mut w).unwrap();
        assert_eq!(w, [1, 2, 3, 4]);
        b.noc_read(0, 2, 2, 0x17_FFFC, &mut w).unwrap();
        assert_eq!(w, [0; 4]);
        // NoC 1 (15, 9) is NoC 0 (1, 2).
        b.noc_read(1, 15, 9, 0x17_FFFC, &mut w).unwrap();
        assert_eq!(w, [1, 2, 3, 4]);
        // Past the end of L1 is not modelled: strict faults.
        assert!(b.noc_write(0, 1, 2, 0x18_0000, &[0]).is_err());
    }

    /// blackhole_140_arch.yaml: channel 0's ports at NOC0 (0,0), (0,1), (0,11); translated
    /// (17,12..14) (REFERENCES §4).
    #[test]
    fn dram_is_reached_by_noc0_and_translated_coordinates() {
        let mut b = strict();
        b.noc_write(0, 0, 0, 0x1F_FFFE, &[9, 8, 7, 6]).unwrap();
        for (x, y) in [(0, 1), (0, 11), (17, 12), (17, 13), (17, 14)] {
            let mut w = [0u8; 4];
            b.noc_read(0, x, y, 0x1F_FFFE, &mut w).unwrap();
            assert_eq!(w, [9, 8, 7, 6], "({x},{y})");
        }
        // Channel 7: NOC0 (9,5), translated (18,21).
        b.noc_write(0, 18, 21, 0xFEFF_FFF0, &[5; 16]).unwrap();
        let mut v = [0u8; 16];
        b.noc_read(0, 9, 5, 0xFEFF_FFF0, &mut v).unwrap();
        assert_eq!(v, [5; 16]);
    }

    #[test]
    fn soft_reset_reads_back_and_releases_brisc_only_under_clock() {
        let mut b = strict();
        // jal x0, 0: a harmless loop at BRISC's reset pc.
        b.noc_write(0, 3, 4, 0, &0x0000_006Fu32.to_le_bytes())
            .unwrap();
        b.noc_write(0, 3, 4, 0xFFB1_21B0, &0x47000u32.to_le_bytes())
            .unwrap();
        let mut w = [0u8; 4];
        b.noc_read(0, 3, 4, 0xFFB1_21B0, &mut w).unwrap();
        assert_eq!(u32::from_le_bytes(w), 0x47000);
        assert_eq!(b.cycle(), 0);
        assert_eq!(b.clock(10).unwrap(), 10);
        assert_eq!(b.cycle(), 10);
    }

    #[test]
    fn unmodelled_nodes_fault_in_strict_and_read_zero_in_permissive() {
        let mut b = strict();
        let mut w = [0xAAu8; 4];
        let e = b.noc_read(0, 8, 0, 0, &mut w).unwrap_err(); // ARC
        assert_eq!(e.kind, ErrorKind::Unmapped);
        let mut p = ChipBackend::new(&BackendConfig {
            mmio: MmioMode::Permissive,
        })
        .unwrap();
        p.noc_read(0, 8, 0, 0, &mut w).unwrap();
        assert_eq!(w, [0; 4]);
        p.noc_write(0, 40, 40, 0, &[1]).unwrap();
    }

    #[test]
    fn host_window_writes_at_the_pcie_tile_become_host_requests() {
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

    /// A tile's NIU registers from the host: NOC_ID_LOGICAL (NIU0 + 0x100 + 4·0x12) holds the
    /// tile's translated coordinates (crates/noc).
    #[test]
    fn niu_registers_are_reachable_from_the_host() {
        let mut b = strict();
        let mut w = [0u8; 4];
        b.noc_read(0, 3, 4, 0xFFB2_0000 + 0x100 + 4 * 0x12, &mut w)
            .unwrap();
        assert_eq!(u32::from_le_bytes(w), (4 << 6) | 3);
    }
}
