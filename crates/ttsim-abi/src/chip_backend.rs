//! `ChipBackend`: the PCIe face's [`SimBackend`] over bhemu's Blackhole chip
//! (`bhemu_chip::Chip`: 140 Tensix tiles, 8 DRAM channels behind 24 ports, the NoC).
//! [`crate::make_backend`] builds it for `libttsim_init`.
//!
//! A host access through a TLB window (or `libttsim_tile_*`) is handed to
//! [`Chip::host_read`] / [`Chip::host_write`], which route it exactly as a NoC request arriving
//! at that node (tile NoC face, DRAM by NOC0 or translated coordinates, NoC 1 mirrored onto
//! NoC 0) plus the tiles' NIU register windows; see there. This adapter only adds the host's
//! side: the NoC index check, a PCIe-tile write at or above 2⁶⁰ becoming a
//! [`HostRequest::Write`] (the NoC-to-host window through the outbound iATU,
//! docs/tt-umd-sim-interface.md §4), and the strict/permissive answer to an access the chip
//! refuses.
//!
//! Time: [`SimBackend::clock`] is `Chip::clock` (through the gdb stub, `bhemu_gdb::clocked`, when
//! `BHEMU_GDB` is set), nothing else advances it. Translation is
//! [`Chip::translation_enabled`] (NIU_CFG_0 bit 14 reads 1, as the firmware expects).
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

use bhemu_chip::{Chip, ChipConfig, ChipError, HostWrite, NocIndex, Strictness};

use crate::backend::{BackendConfig, HostRequest, MmioMode, SimBackend, DEFAULT_HANG_CYCLES};
use crate::error::{BackendError, ErrorKind, Where};
use bhemu_chip::watchdog::Watchdog;
use bhemu_gdb::clocked::ClockedStub;

/// Most permissive-mode warnings printed before they are only counted.
const MAX_WARNINGS: usize = 50;

pub struct ChipBackend {
    chip: Chip,
    mode: MmioMode,
    queued: Vec<HostRequest>,
    warned: HashSet<(u32, u32, u64)>,
    /// Warning texts already printed: each kind of warning is printed once.
    kinds: HashSet<String>,
    warnings: usize,
    watchdog: Option<Watchdog>,
    /// Where the timeline trace goes when the backend is dropped.
    timeline: Option<std::path::PathBuf>,
    /// Dst hazards reported so far (`BHEMU_CHECK_HAZARDS`), printed up to [`MAX_WARNINGS`].
    hazards: Option<usize>,
    /// The gdb stub (`BHEMU_GDB`): time passes through it ([`ClockedStub::clock`]).
    gdb: Option<ClockedStub>,
}

impl Drop for ChipBackend {
    /// Writes the timeline trace, if one was recorded (`BHEMU_TIMELINE`).
    fn drop(&mut self) {
        self.drain_hazards();
        if let Some(n) = self.hazards {
            eprintln!("bhemu: {n} Dst hazard(s) reported (BHEMU_CHECK_HAZARDS)");
        }
        if let (Some(path), Some(t)) = (self.timeline.take(), self.chip.finish_trace()) {
            match t.write(&path) {
                Ok(()) => eprintln!(
                    "bhemu: timeline of {} events written to {} (open it in ui.perfetto.dev)",
                    t.events().len(),
                    path.display()
                ),
                Err(e) => eprintln!("bhemu: warning: {e}"),
            }
        }
    }
}

impl ChipBackend {
    /// The unharvested p150 (140 Tensix tiles), functional NoC timing.
    pub fn new(cfg: &BackendConfig) -> Result<ChipBackend, BackendError> {
        Self::of_member(cfg, bhemu_chip::Member::default())
    }

    /// Chip `member` of a system (docs/multi-chip.md); otherwise as [`ChipBackend::new`].
    pub fn of_member(
        cfg: &BackendConfig,
        member: bhemu_chip::Member,
    ) -> Result<ChipBackend, BackendError> {
        let strictness = match cfg.mmio {
            MmioMode::Strict => Strictness::Strict,
            MmioMode::Permissive => Strictness::Permissive,
        };
        let mut chip = Chip::new(&ChipConfig {
            strictness,
            timing: bhemu_chip::Timing::per_hop(cfg.noc_hops),
            member,
            ..ChipConfig::default()
        })
        .map_err(|e| chip_error(e, "init"))?;
        if let Some((_, opts)) = &cfg.timeline {
            bhemu_chip::trace::ChipTracer::install(&mut chip, opts.clone())
                .map_err(|e| chip_error(e, "init"))?;
        }
        chip.set_check_hazards(cfg.check_hazards);
        // Tensix undefined behaviour goes on unless asked to stop (docs/libttsim-abi.md
        // "Tensix faults"); core MMIO keeps `BHEMU_MMIO`'s strictness.
        chip.set_tensix_strictness(if cfg.tensix_strict {
            Strictness::Strict
        } else {
            Strictness::Permissive
        });
        Ok(ChipBackend {
            chip,
            mode: cfg.mmio,
            queued: Vec::new(),
            warned: HashSet::new(),
            kinds: HashSet::new(),
            warnings: 0,
            watchdog: match cfg.hang_cycles.unwrap_or(DEFAULT_HANG_CYCLES) {
                0 => None,
                n => Some(Watchdog::new(n)),
            },
            timeline: cfg.timeline.as_ref().map(|t| t.0.clone()),
            hazards: cfg.check_hazards.then_some(0),
            // A stub that cannot listen is reported and left off: the run goes on without it.
            gdb: cfg.gdb.as_ref().and_then(|(port, tiles)| {
                ClockedStub::listen(*port, tiles.clone())
                    .map_err(|e| eprintln!("bhemu: {e}; the gdb stub is off"))
                    .ok()
            }),
        })
    }

    pub fn chip(&self) -> &Chip {
        &self.chip
    }
    pub fn chip_mut(&mut self) -> &mut Chip {
        &mut self.chip
    }

    /// NoC index of the ABI → the chip's, or an `Unmapped` error.
    fn noc_index(&self, noc: u8, at: Where) -> Result<NocIndex, BackendError> {
        NocIndex::from_index(usize::from(noc)).map_err(|_| {
            BackendError::new(ErrorKind::Unmapped, at, format!("there is no NoC {noc}"))
                .at_cycle(self.chip.cycle())
        })
    }

    /// Permissive answer to an access bhemu cannot honour: note it once per (node, address).
    fn permissive(&mut self, x: u32, y: u32, addr: u64, what: &str) {
        if self.warned.insert((x, y, addr)) {
            self.warnings += 1;
            if self.warnings <= MAX_WARNINGS {
                eprintln!(
                    "bhemu: warning: {what} at NoC ({x},{y}) address {addr:#x} (BHEMU_MMIO=permissive: reads 0, writes dropped)"
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

    /// Prints the Dst hazards the chip's tiles reported since the last call, each naming the
    /// tile, both instructions, the thread and the cycles.
    fn drain_hazards(&mut self) {
        let Some(n) = self.hazards.as_mut() else {
            return;
        };
        print_capped(
            n,
            self.chip.take_hazards(),
            "bhemu: hazard: ",
            "bhemu: further Dst hazards are only counted",
        );
        *n += self.chip.take_hazards_not_kept() as usize;
    }

    /// Prints the warnings the chip's tiles recorded (Tensix undefined behaviour that went on,
    /// effects not modelled, permissive MMIO), each kind once: the first tile, thread, word and
    /// cycle that met it stand for the rest.
    fn drain_chip_warnings(&mut self) {
        let taken = self.chip.take_warnings();
        if taken.is_empty() {
            return;
        }
        let fresh: Vec<_> = taken
            .into_iter()
            .filter(|w| {
                // The kind is the text after the location ("... word 0x...: what").
                let kind = w.message.split_once(": ").map_or(&*w.message, |(_, k)| k);
                self.kinds.insert(kind.to_string())
            })
            .collect();
        print_capped(
            &mut self.warnings,
            fresh,
            "bhemu: warning: ",
            "bhemu: warning: further warnings are not shown",
        );
    }
}

/// Prints `lines` on stderr after `prefix`, counting them in `count`; past [`MAX_WARNINGS`]
/// only counts, after saying so once with `enough`.
fn print_capped(
    count: &mut usize,
    lines: impl IntoIterator<Item = impl std::fmt::Display>,
    prefix: &str,
    enough: &str,
) {
    for l in lines {
        *count += 1;
        if *count <= MAX_WARNINGS {
            eprintln!("{prefix}{l}");
        } else if *count == MAX_WARNINGS + 1 {
            eprintln!("{enough}");
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

/// The chip's kind of a refused host access → the ABI's.
fn host_kind(kind: bhemu_chip::ErrorKind) -> ErrorKind {
    match kind {
        bhemu_chip::ErrorKind::Unmapped => ErrorKind::Unmapped,
        bhemu_chip::ErrorKind::Unimplemented => ErrorKind::Unimplemented,
        bhemu_chip::ErrorKind::AccessRule => ErrorKind::AccessRule,
        _ => ErrorKind::Chip,
    }
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
        let n = self.noc_index(noc, at)?;
        match self.chip.host_read(n, x, y, addr, dst) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.refuse(host_kind(e.kind), at, e.message, (x, y), addr)?;
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
        let n = self.noc_index(noc, at)?;
        match self.chip.host_write(n, x, y, addr, src) {
            Ok(HostWrite::Done) => Ok(()),
            Ok(HostWrite::ToHost { addr }) => {
                self.queued.push(HostRequest::Write {
                    addr,
                    data: src.to_vec(),
                });
                Ok(())
            }
            Err(e) => self.refuse(host_kind(e.kind), at, e.message, (x, y), addr),
        }
    }

    fn clock(&mut self, cycles: u32) -> Result<u32, BackendError> {
        let r = match self.gdb.as_mut() {
            Some(g) => g.clock(&mut self.chip, u64::from(cycles)),
            None => self
                .chip
                .clock(u64::from(cycles))
                .map(|()| u64::from(cycles)),
        };
        self.drain_chip_warnings();
        self.drain_hazards();
        let ran = r.map_err(|e| chip_error(e, "clock"))?;
        if let Some(report) = self.watchdog.as_mut().and_then(|w| w.check(&self.chip)) {
            eprintln!("bhemu: warning: {report}");
        }
        Ok(u32::try_from(ran).unwrap_or(cycles))
    }

    fn cycle(&self) -> u64 {
        self.chip.cycle()
    }

    fn tiles(&self) -> usize {
        self.chip.tiles().len()
    }

    fn noc_translation_enabled(&self) -> bool {
        self.chip.translation_enabled()
    }

    fn take_host_requests(&mut self, out: &mut Vec<HostRequest>) {
        out.append(&mut self.queued);
    }

    fn host_requests_pending(&self) -> bool {
        !self.queued.is_empty()
    }

    fn set_threads(&mut self, threads: usize) {
        self.chip.set_threads(threads);
    }

    fn take_eth_sends(&mut self, out: &mut Vec<bhemu_chip::eth::Send>) {
        self.chip.take_eth_sends(out);
    }

    fn deliver_eth(
        &mut self,
        channel: u8,
        payload: &bhemu_chip::eth::Payload,
    ) -> Result<(), BackendError> {
        self.chip
            .deliver_eth(channel, payload)
            .map_err(|e| chip_error(e, "clock"))
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
    use crate::backend::NOC_HOST_WINDOW;

    fn strict() -> ChipBackend {
        ChipBackend::new(&BackendConfig::default()).expect("chip")
    }

    /// `BHEMU_NOC_HOPS=1` (`noc_hops`) gives the chip per-hop NoC timing: a lookahead of 20
    /// cycles instead of functional timing's 1.
    #[test]
    fn noc_hops_config_gives_the_chip_per_hop_timing() {
        assert_eq!(strict().chip.noc().lookahead(), 1);
        let hops = ChipBackend::new(&BackendConfig {
            noc_hops: true,
            ..BackendConfig::default()
        })
        .expect("chip");
        assert_eq!(hops.chip.noc().timing(), bhemu_chip::Timing::BLACKHOLE);
        assert_eq!(hops.chip.noc().lookahead(), 20);
    }

    /// `BHEMU_CHECK_HAZARDS`: an SFPLOAD one cycle after ZEROACC cleared its Dst block, on
    /// the coprocessor of (1,2), is reported (Dst.md, Instruction scheduling); without the knob
    /// nothing is.
    #[test]
    fn check_hazards_reports_a_dst_read_in_the_write_shadow() {
        use bhemu_tensix::coprocessor::PushSource;
        for on in [true, false] {
            let mut b = ChipBackend::new(&BackendConfig {
                check_hazards: on,
                ..BackendConfig::default()
            })
            .expect("chip");
            let tile = b.chip_mut().tile_mut(1, 2).expect("tile (1,2)");
            for word in [0x1000_0000, 0x7002_0000] {
                // ttzeroacc 0, 0, 0, 0, 0; ttsfpload 0, 2, 0, 0
                tile.coprocessor_mut()
                    .push(1, PushSource::Trisc, word)
                    .expect("push");
            }
            tile.wake_coprocessor();
            assert_eq!(b.clock(20).unwrap(), 20);
            b.drain_hazards();
            assert_eq!(b.hazards, on.then_some(1));
        }
    }

    /// docs/gdb.md "libttsim.so": a `BHEMU_GDB` port that cannot be bound leaves the stub off
    /// (a line on stderr); the chip then runs every clock call without waiting for gdb.
    #[test]
    fn gdb_stub_that_cannot_listen_is_off_and_the_clock_runs() {
        let taken = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("a port");
        let port = taken.local_addr().expect("addr").port();
        let mut b = ChipBackend::new(&BackendConfig {
            gdb: Some((port, vec![(1, 2)])),
            ..BackendConfig::default()
        })
        .expect("chip");
        assert!(b.gdb.is_none());
        b.noc_write(0, 1, 2, 0, &0x6Fu32.to_le_bytes()).unwrap(); // jal x0, 0
        b.noc_write(0, 1, 2, 0xFFB1_21B0, &0x47000u32.to_le_bytes())
            .unwrap();
        assert_eq!(b.clock(100).unwrap(), 100);
        assert_eq!(b.cycle(), 100);
    }

    /// `BHEMU_TIMELINE`: the trace is written when the backend is dropped; BRISC of (1,2),
    /// released onto `j .` at cycle 0, runs firmware code until the last cycle.
    #[test]
    fn timeline_is_written_when_the_backend_drops() {
        let path = std::env::temp_dir().join(format!("bhemu-timeline-{}.json", std::process::id()));
        let opts = bhemu_trace::TraceOptions {
            tiles: Some(vec![(1, 2)]),
            ..bhemu_trace::TraceOptions::default()
        };
        let mut b = ChipBackend::new(&BackendConfig {
            timeline: Some((path.clone(), opts)),
            ..BackendConfig::default()
        })
        .expect("chip");
        b.noc_write(0, 1, 2, 0, &0x6Fu32.to_le_bytes()).unwrap(); // jal x0, 0
        b.noc_write(0, 1, 2, 0xFFB1_21B0, &0x47000u32.to_le_bytes())
            .unwrap();
        assert_eq!(b.clock(100).unwrap(), 100);
        drop(b);
        let text = std::fs::read_to_string(&path).expect("timeline file");
        let _ = std::fs::remove_file(&path);
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let ev = v["traceEvents"].as_array().cloned().unwrap_or_default();
        let brisc: Vec<(String, u64, u64)> = ev
            .iter()
            .filter(|e| e["ph"] == "X" && e["pid"] == 1104 && e["tid"] == 1)
            .map(|e| {
                let ts = e["ts"].as_u64().unwrap_or(0);
                (
                    e["name"].as_str().unwrap_or("").to_string(),
                    ts,
                    ts + e["dur"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        assert_eq!(brisc.len(), 1, "{brisc:?}");
        assert_eq!(brisc[0].0, "firmware");
        assert_eq!(brisc[0].2, 100);
        assert!(ev.iter().all(|e| e["pid"] != 1106), "only (1,2) is traced");
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
    /// (17,12..14) (docs/blackhole-facts.md §4).
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
        let e = b.noc_read(0, 1, 1, 0, &mut w).unwrap_err(); // Ethernet
        assert_eq!(e.kind, ErrorKind::Unmapped);
        let e = b.noc_read(0, 8, 0, 0, &mut w).unwrap_err(); // ARC, an address it lacks
        assert_eq!(e.kind, ErrorKind::Unimplemented);
        assert!(e.message.contains("ARC tile address 0x0"), "{}", e.message);
        let mut p = ChipBackend::new(&BackendConfig {
            mmio: MmioMode::Permissive,
            ..BackendConfig::default()
        })
        .unwrap();
        p.noc_read(0, 8, 0, 0, &mut w).unwrap();
        assert_eq!(w, [0; 4]);
        p.noc_write(0, 40, 40, 0, &[1]).unwrap();
    }

    /// tt-umd's ARC start-up check, through the chip's routing: boot status at
    /// 0x8003_0408 reads "ready" (low bits 5) at NOC0 (8, 0) and at its NoC 1 mirror (8, 11).
    #[test]
    fn arc_tile_answers_boot_status_on_both_nocs() {
        let mut b = strict();
        let mut w = [0u8; 4];
        b.noc_read(0, 8, 0, 0x8003_0408, &mut w).unwrap();
        assert_eq!(u32::from_le_bytes(w) & 7, 5);
        w = [0; 4];
        b.noc_read(1, 8, 11, 0x8003_0408, &mut w).unwrap();
        assert_eq!(u32::from_le_bytes(w) & 7, 5);
        b.noc_write(0, 8, 0, 0x1000_1000, &[1, 2, 3]).unwrap();
        let mut r = [0u8; 3];
        b.noc_read(0, 8, 0, 0x1000_1000, &mut r).unwrap();
        assert_eq!(r, [1, 2, 3]);
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
