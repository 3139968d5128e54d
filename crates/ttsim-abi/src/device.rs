//! The PCIe face of one Blackhole chip over a [`SimBackend`]: config space, BAR0 (2 MiB TLB
//! windows, their configuration registers, NIU_CFG_0), BAR2 (outbound iATU), BAR4 (4 GiB
//! windows), and the routing of host-memory requests through the iATU.
//!
//! Everything here returns typed errors; `ffi` turns them into the C answers.
use crate::backend::{BackendConfig, HostRequest, MmioMode, SimBackend};
use crate::config::{BarId, ConfigError, ConfigSpace};
use crate::error::{BackendError, ErrorKind, Where};
use crate::iatu::{HostPiece, Iatu, IATU_BYTES, IATU_OFFSET};
use crate::tlb::{
    TlbRegs, WindowKind, TLB_2M_SIZE, TLB_4G_SIZE, TLB_CFG_BYTES, TLB_CFG_OFFSET, TLB_COUNT_2M,
    TLB_COUNT_4G,
};

/// NIU_CFG_0 of NoC 0 in BAR0; bit 14 = NoC translation enabled (docs/tt-umd-sim-interface.md §6, §8).
pub const NIU_CFG_0_OFFSET: u64 = 0x1FD0_4100;
pub const NIU_CFG_0_TRANSLATE_BIT: u32 = 1 << 14;
/// `NOC_NODE_ID` of the PCIe tile's NoC 0 and NoC 1 NIUs in BAR0, read-only
/// (`bhemu_chip::pcie`; tt-umd reads NoC 0's to check that the chip answers).
pub const PCIE_NODE_ID_OFFSETS: [u64; 2] = [0x1FD0_4044, 0x1FD1_4044];

/// Grid used to expand a multicast window's rectangle (docs/blackhole-facts.md: 17 × 12).
const GRID_W: u32 = 17;
const GRID_H: u32 = 12;

/// What one piece of a `pci_mem` access reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A TLB window (index 0–209) at byte `offset` inside it.
    Window { index: usize, offset: u64 },
    /// The TLB configuration registers, byte offset inside the block.
    TlbRegs { off: usize },
    /// NIU_CFG_0, byte offset inside the 4-byte register.
    NiuCfg0 { off: usize },
    /// The PCIe tile's `NOC_NODE_ID` on NoC `noc`, byte offset inside the 4-byte register.
    PcieNodeId { noc: usize, off: usize },
    /// The iATU block of BAR2, byte offset inside it.
    Iatu { off: usize },
    /// Inside a BAR, but nothing bhemu models.
    Unmodelled { bar: BarId, off: u64 },
}

/// A piece of a `pci_mem` access: `len` bytes starting `at` bytes into the caller's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub at: usize,
    pub len: usize,
    pub target: Target,
}

/// A call the ABI makes to the host's DMA callbacks, outside every lock (see `ffi`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostCall {
    Write {
        paddr: u64,
        data: Vec<u8>,
    },
    /// Read `len` bytes; pieces without a host address stay all-ones. The result goes back
    /// through [`Device::complete_host_read`].
    Read {
        tag: u64,
        len: usize,
        pieces: Vec<HostPiece>,
    },
}

pub struct Device {
    pub mode: MmioMode,
    pub config: ConfigSpace,
    pub tlb: TlbRegs,
    pub iatu: Iatu,
    niu_cfg0: u32,
    backend: Box<dyn SimBackend>,
    /// Cycles still owed by the current `libttsim_clock` call.
    pub clock_remaining: u32,
    /// Host reads handed to the host and not yet completed: (tag, length).
    pub outstanding_reads: Vec<(u64, usize)>,
    /// Messages for the log (permissive-mode notes), drained by `ffi`.
    pub warnings: Vec<String>,
    /// [`Device::route`]'s output, kept between accesses: tt-umd makes four `pci_mem` calls per
    /// tile read, and an allocation each was a visible part of their cost.
    pieces: Vec<Piece>,
}

fn err(kind: ErrorKind, at: Where, msg: impl Into<String>) -> BackendError {
    BackendError::new(kind, at, msg)
}

fn node_id_read_only(noc: usize, paddr: u64, len: usize) -> BackendError {
    err(
        ErrorKind::AccessRule,
        Where {
            paddr: Some(paddr),
            size: Some(len as u32),
            ..Where::default()
        },
        format!(
            "write to the PCIe tile's NoC {noc} NOC_NODE_ID (BAR0 offset {:#x}), which is read-only",
            PCIE_NODE_ID_OFFSETS[noc]
        ),
    )
}

impl Device {
    pub fn new(cfg: &BackendConfig, backend: Box<dyn SimBackend>) -> Device {
        Device {
            mode: cfg.mmio,
            config: ConfigSpace::default(),
            tlb: TlbRegs::default(),
            iatu: Iatu::default(),
            niu_cfg0: 0,
            backend,
            clock_remaining: 0,
            outstanding_reads: Vec::new(),
            warnings: Vec::new(),
            pieces: Vec::new(),
        }
    }

    pub fn cycle(&self) -> u64 {
        self.backend.cycle()
    }

    pub fn tiles(&self) -> usize {
        self.backend.tiles()
    }

    pub fn backend_mut(&mut self) -> &mut dyn SimBackend {
        &mut *self.backend
    }

    // ---- config space ----------------------------------------------------------------------

    pub fn config_read32(&self, bdf: u32, offset: u32) -> Result<u32, ConfigError> {
        self.config.read32(bdf, offset)
    }

    pub fn config_write32(&mut self, bdf: u32, offset: u32, data: u32) -> Result<(), ConfigError> {
        self.config.write32(bdf, offset, data)
    }

    // ---- routing ---------------------------------------------------------------------------

    fn bar_of(&self, paddr: u64) -> Option<(BarId, u64)> {
        if !self.config.memory_enabled() {
            return None;
        }
        BarId::ALL.into_iter().find_map(|b| {
            let base = self.config.bar_base(b);
            (paddr >= base && paddr - base < b.size()).then(|| (b, paddr - base))
        })
    }

    /// Split an access of `len` bytes at host address `paddr` into pieces that each reach one
    /// thing. Window accesses split at window ends (docs/tt-umd-sim-interface.md §3.4); an access
    /// that starts outside every BAR is `Unmapped`, one that runs off the end of its BAR breaks
    /// an `AccessRule`. Nothing is touched here, so a bad access has no partial effect.
    pub fn route(&self, paddr: u64, len: usize) -> Result<Vec<Piece>, BackendError> {
        let mut out = Vec::new();
        self.route_into(paddr, len, &mut out)?;
        Ok(out)
    }

    /// [`Device::route`] into `out` (cleared first).
    fn route_into(&self, paddr: u64, len: usize, out: &mut Vec<Piece>) -> Result<(), BackendError> {
        out.clear();
        let at = || Where {
            paddr: Some(paddr),
            size: Some(len as u32),
            ..Where::default()
        };
        if paddr.checked_add(len as u64).is_none() {
            return Err(err(
                ErrorKind::AccessRule,
                at(),
                "access wraps past the end of the 64-bit address space",
            ));
        }
        let mut done = 0usize;
        while done < len {
            let a = paddr + done as u64;
            let left = (len - done) as u64;
            let Some((bar, off)) = self.bar_of(a) else {
                return Err(if done == 0 {
                    err(ErrorKind::Unmapped, at(), "address is outside every BAR")
                } else {
                    err(
                        ErrorKind::AccessRule,
                        at(),
                        format!("access runs {} bytes past the end of its BAR", len - done),
                    )
                });
            };
            let bar_left = bar.size() - off;
            let (n, target) = match bar {
                BarId::Bar0 => {
                    let win_end = TLB_COUNT_2M as u64 * TLB_2M_SIZE;
                    let cfg_end = TLB_CFG_OFFSET + TLB_CFG_BYTES as u64;
                    if off < win_end {
                        let index = (off / TLB_2M_SIZE) as usize;
                        let o = off % TLB_2M_SIZE;
                        (TLB_2M_SIZE - o, Target::Window { index, offset: o })
                    } else if (TLB_CFG_OFFSET..cfg_end).contains(&off) {
                        (
                            cfg_end - off,
                            Target::TlbRegs {
                                off: (off - TLB_CFG_OFFSET) as usize,
                            },
                        )
                    } else if (NIU_CFG_0_OFFSET..NIU_CFG_0_OFFSET + 4).contains(&off) {
                        (
                            NIU_CFG_0_OFFSET + 4 - off,
                            Target::NiuCfg0 {
                                off: (off - NIU_CFG_0_OFFSET) as usize,
                            },
                        )
                    } else if let Some((noc, base)) = PCIE_NODE_ID_OFFSETS
                        .into_iter()
                        .enumerate()
                        .find(|&(_, b)| (b..b + 4).contains(&off))
                    {
                        (
                            base + 4 - off,
                            Target::PcieNodeId {
                                noc,
                                off: (off - base) as usize,
                            },
                        )
                    } else {
                        let next = [TLB_CFG_OFFSET, NIU_CFG_0_OFFSET]
                            .into_iter()
                            .chain(PCIE_NODE_ID_OFFSETS)
                            .filter(|&s| s > off)
                            .min()
                            .unwrap_or(bar.size());
                        (next - off, Target::Unmodelled { bar, off })
                    }
                }
                BarId::Bar2 => {
                    let end = IATU_OFFSET + IATU_BYTES as u64;
                    if (IATU_OFFSET..end).contains(&off) {
                        (
                            end - off,
                            Target::Iatu {
                                off: (off - IATU_OFFSET) as usize,
                            },
                        )
                    } else {
                        let next = if off < IATU_OFFSET {
                            IATU_OFFSET
                        } else {
                            bar.size()
                        };
                        (next - off, Target::Unmodelled { bar, off })
                    }
                }
                BarId::Bar4 => {
                    let index = TLB_COUNT_2M + (off / TLB_4G_SIZE) as usize;
                    debug_assert!(index < TLB_COUNT_2M + TLB_COUNT_4G);
                    let o = off % TLB_4G_SIZE;
                    (TLB_4G_SIZE - o, Target::Window { index, offset: o })
                }
            };
            let n = n.min(left).min(bar_left) as usize;
            out.push(Piece {
                at: done,
                len: n,
                target,
            });
            done += n;
        }
        Ok(())
    }

    fn unmodelled(
        &mut self,
        bar: BarId,
        off: u64,
        len: usize,
        paddr: u64,
        write: bool,
    ) -> Result<(), BackendError> {
        let what = if write { "write to" } else { "read of" };
        let msg = format!(
            "{what} {} offset {off:#x}, which bhemu does not model",
            bar.name()
        );
        match self.mode {
            MmioMode::Strict => Err(err(
                ErrorKind::Unimplemented,
                Where {
                    paddr: Some(paddr),
                    size: Some(len as u32),
                    ..Where::default()
                },
                msg,
            )),
            MmioMode::Permissive => {
                self.warnings.push(format!(
                    "{msg} (permissive: {})",
                    if write { "dropped" } else { "reads all-ones" }
                ));
                Ok(())
            }
        }
    }

    /// Node, NoC and address a window piece reaches (docs/tt-umd-sim-interface.md §3.4).
    fn window_target(&self, index: usize, offset: u64) -> (crate::tlb::TlbEntry, u64) {
        let kind = WindowKind::of_index(index);
        let e = self.tlb.entry(index);
        (e, e.target(kind, offset))
    }

    // ---- pci_mem ---------------------------------------------------------------------------

    /// Refuse the whole access up front if any piece would fail for a reason known before
    /// touching anything (strict-mode unmodelled space, a multicast read), so a faulting access
    /// has no partial effect.
    fn precheck(&self, paddr: u64, pieces: &[Piece], write: bool) -> Result<(), BackendError> {
        for p in pieces {
            let at = Where {
                paddr: Some(paddr + p.at as u64),
                size: Some(p.len as u32),
                ..Where::default()
            };
            match p.target {
                Target::Unmodelled { bar, off } if self.mode == MmioMode::Strict => {
                    let what = if write { "write to" } else { "read of" };
                    let msg = format!(
                        "{what} {} offset {off:#x}, which bhemu does not model",
                        bar.name()
                    );
                    return Err(err(ErrorKind::Unimplemented, at, msg));
                }
                Target::PcieNodeId { noc, .. } if write => {
                    return Err(node_id_read_only(noc, paddr + p.at as u64, p.len));
                }
                Target::Window { index, .. } if !write && self.tlb.entry(index).mcast => {
                    return Err(err(
                        ErrorKind::AccessRule,
                        at,
                        format!("read through TLB window {index}, which is set to multicast"),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The one target of an access that lies wholly inside one TLB window or inside the TLB
    /// configuration block of BAR0 — every access tt-umd makes while polling — found without
    /// building pieces; `None` sends the access through [`Device::route_into`]. Both targets
    /// pass [`Device::precheck`] (a read through a multicast window is refused where it is
    /// carried out, in [`Device::read_piece`]).
    fn single_target(&self, paddr: u64, len: usize) -> Option<Target> {
        let base = self.config.bar_base(BarId::Bar0);
        if !self.config.memory_enabled() || paddr < base || len == 0 {
            return None;
        }
        let off = paddr - base;
        let end = off.checked_add(len as u64)?;
        let win_end = TLB_COUNT_2M as u64 * TLB_2M_SIZE;
        if end <= win_end {
            let o = off % TLB_2M_SIZE;
            return (o + len as u64 <= TLB_2M_SIZE).then_some(Target::Window {
                index: (off / TLB_2M_SIZE) as usize,
                offset: o,
            });
        }
        let cfg_end = TLB_CFG_OFFSET + TLB_CFG_BYTES as u64;
        (off >= TLB_CFG_OFFSET && end <= cfg_end).then_some(Target::TlbRegs {
            off: (off - TLB_CFG_OFFSET) as usize,
        })
    }

    /// `libttsim_pci_mem_rd_bytes`.
    pub fn mem_read(&mut self, paddr: u64, dst: &mut [u8]) -> Result<(), BackendError> {
        if let Some(target) = self.single_target(paddr, dst.len()) {
            return self.read_piece(target, paddr, dst);
        }
        let mut pieces = std::mem::take(&mut self.pieces);
        self.route_into(paddr, dst.len(), &mut pieces)?;
        self.precheck(paddr, &pieces, false)?;
        for &p in &pieces {
            self.read_piece(p.target, paddr + p.at as u64, &mut dst[p.at..p.at + p.len])?;
        }
        self.pieces = pieces;
        Ok(())
    }

    /// Reads one piece of an access, `buf.len()` bytes at host address `paddr`.
    fn read_piece(
        &mut self,
        target: Target,
        paddr: u64,
        buf: &mut [u8],
    ) -> Result<(), BackendError> {
        match target {
            Target::Window { index, offset } => {
                let (e, addr) = self.window_target(index, offset);
                if e.mcast {
                    return Err(err(
                        ErrorKind::AccessRule,
                        Where {
                            paddr: Some(paddr),
                            size: Some(buf.len() as u32),
                            ..Where::default()
                        },
                        format!("read through TLB window {index}, which is set to multicast"),
                    ));
                }
                self.backend
                    .noc_read(e.noc_sel, e.x_end, e.y_end, addr, buf)
                    .map_err(|er| self.stamp(er))?;
            }
            Target::TlbRegs { off } => self.tlb.read(off, buf),
            Target::NiuCfg0 { off } => {
                let mut v = self.niu_cfg0 & !NIU_CFG_0_TRANSLATE_BIT;
                if self.backend.noc_translation_enabled() {
                    v |= NIU_CFG_0_TRANSLATE_BIT;
                }
                buf.copy_from_slice(&v.to_le_bytes()[off..off + buf.len()]);
            }
            Target::PcieNodeId { noc, off } => {
                let n = if noc == 0 {
                    bhemu_chip::NocIndex::Noc0
                } else {
                    bhemu_chip::NocIndex::Noc1
                };
                let v = bhemu_chip::pcie::node_id(n).to_le_bytes();
                buf.copy_from_slice(&v[off..off + buf.len()]);
            }
            Target::Iatu { off } => self.iatu.read(off, buf),
            Target::Unmodelled { bar, off } => {
                self.unmodelled(bar, off, buf.len(), paddr, false)?;
                buf.fill(0xFF);
            }
        }
        Ok(())
    }

    /// `libttsim_pci_mem_wr_bytes`.
    pub fn mem_write(&mut self, paddr: u64, src: &[u8]) -> Result<(), BackendError> {
        if let Some(target) = self.single_target(paddr, src.len()) {
            return self.write_piece(target, paddr, src);
        }
        let mut pieces = std::mem::take(&mut self.pieces);
        self.route_into(paddr, src.len(), &mut pieces)?;
        self.precheck(paddr, &pieces, true)?;
        for &p in &pieces {
            self.write_piece(p.target, paddr + p.at as u64, &src[p.at..p.at + p.len])?;
        }
        self.pieces = pieces;
        Ok(())
    }

    /// Writes one piece of an access, `data` at host address `paddr`.
    fn write_piece(&mut self, target: Target, paddr: u64, data: &[u8]) -> Result<(), BackendError> {
        match target {
            Target::Window { index, offset } => {
                let (e, addr) = self.window_target(index, offset);
                if e.mcast {
                    // Multicast rectangle start..=end on each axis, wrapping when start > end
                    // (docs/blackhole-facts.md, broadcast rectangle). tt-umd 0.9.14 never sets mcast (§6).
                    let span = |s: u32, e: u32, n: u32| -> Vec<u32> {
                        if s <= e {
                            (s..=e).collect()
                        } else {
                            (0..n).filter(|&v| v <= e || v >= s).collect()
                        }
                    };
                    for y in span(e.y_start, e.y_end, GRID_H) {
                        for x in span(e.x_start, e.x_end, GRID_W) {
                            self.backend
                                .noc_write(e.noc_sel, x, y, addr, data)
                                .map_err(|er| self.stamp(er))?;
                        }
                    }
                } else {
                    self.backend
                        .noc_write(e.noc_sel, e.x_end, e.y_end, addr, data)
                        .map_err(|er| self.stamp(er))?;
                }
            }
            Target::TlbRegs { off } => self.tlb.write(off, data),
            Target::NiuCfg0 { off } => {
                let mut b = self.niu_cfg0.to_le_bytes();
                b[off..off + data.len()].copy_from_slice(data);
                self.niu_cfg0 = u32::from_le_bytes(b);
            }
            Target::PcieNodeId { noc, .. } => {
                return Err(node_id_read_only(noc, paddr, data.len()));
            }
            Target::Iatu { off } => self.iatu.write(off, data),
            Target::Unmodelled { bar, off } => {
                self.unmodelled(bar, off, data.len(), paddr, true)?
            }
        }
        Ok(())
    }

    // ---- tile ------------------------------------------------------------------------------

    /// `libttsim_tile_rd_bytes`: straight to the backend on NoC 0 (no TLB).
    pub fn tile_read(
        &mut self,
        x: u32,
        y: u32,
        addr: u64,
        dst: &mut [u8],
    ) -> Result<(), BackendError> {
        self.backend
            .noc_read(0, x, y, addr, dst)
            .map_err(|e| self.stamp(e))
    }

    /// `libttsim_tile_wr_bytes`.
    pub fn tile_write(
        &mut self,
        x: u32,
        y: u32,
        addr: u64,
        src: &[u8],
    ) -> Result<(), BackendError> {
        self.backend
            .noc_write(0, x, y, addr, src)
            .map_err(|e| self.stamp(e))
    }

    // ---- time and host memory ---------------------------------------------------------------

    /// Run up to `clock_remaining` cycles; stop early when the backend does (host requests).
    pub fn clock_step(&mut self) -> Result<(), BackendError> {
        if self.clock_remaining == 0 {
            return Ok(());
        }
        let asked = self.clock_remaining;
        let ran = self.backend.clock(asked).map_err(|e| self.stamp(e))?;
        if ran > asked {
            return Err(self.stamp(err(
                ErrorKind::Internal,
                Where::default(),
                format!("backend ran {ran} cycles when asked for {asked}"),
            )));
        }
        self.clock_remaining -= ran;
        Ok(())
    }

    /// Whether anything is left for [`Device::host_calls`], the warnings or the clock: when not,
    /// an entry point returns straight after its operation (the common case of tt-umd's
    /// polling: three TLB writes, a read and a clock, none of which the chip answers with a
    /// host request).
    pub fn work_pending(&self) -> bool {
        self.clock_remaining > 0
            || !self.warnings.is_empty()
            || self.backend.host_requests_pending()
    }

    /// Take the backend's host requests and translate them into callback calls.
    ///
    /// A request (or part) with no enabled iATU region, or with no callback to serve it, is a
    /// `HostMemory` error in strict mode; in permissive mode it is logged and a write is
    /// dropped, a read gets all-ones. Called with the callbacks' presence.
    pub fn host_calls(
        &mut self,
        have_rd: bool,
        have_wr: bool,
    ) -> Result<Vec<HostCall>, BackendError> {
        let mut reqs = Vec::new();
        self.backend.take_host_requests(&mut reqs);
        let mut calls = Vec::new();
        let mut problem: Option<String> = None;
        for r in reqs {
            match r {
                HostRequest::Write { addr, data } => {
                    for p in self.iatu.translate(addr, data.len()) {
                        match p.paddr {
                            Some(paddr) if have_wr => calls.push(HostCall::Write {
                                paddr,
                                data: data[p.at..p.at + p.len].to_vec(),
                            }),
                            Some(_) => {
                                problem.get_or_insert(format!("chip wrote host memory at window offset {:#x}, but no write callback is set", addr + p.at as u64));
                            }
                            None => {
                                problem.get_or_insert(format!("chip wrote {} bytes at NoC-to-host offset {:#x}, which no enabled iATU region maps", p.len, addr + p.at as u64));
                            }
                        };
                    }
                }
                HostRequest::Read { tag, addr, len } => {
                    let mut pieces = self.iatu.translate(addr, len as usize);
                    if let Some(p) = pieces.iter().find(|p| p.paddr.is_none()) {
                        problem.get_or_insert(format!("chip read {} bytes at NoC-to-host offset {:#x}, which no enabled iATU region maps", p.len, addr + p.at as u64));
                    }
                    if !have_rd {
                        problem.get_or_insert(format!("chip read host memory at window offset {addr:#x}, but no read callback is set"));
                        pieces.iter_mut().for_each(|p| p.paddr = None);
                    }
                    self.outstanding_reads.push((tag, len as usize));
                    calls.push(HostCall::Read {
                        tag,
                        len: len as usize,
                        pieces,
                    });
                }
            }
        }
        if let Some(msg) = problem {
            match self.mode {
                MmioMode::Strict => {
                    self.outstanding_reads.clear();
                    return Err(self.stamp(err(ErrorKind::HostMemory, Where::default(), msg)));
                }
                MmioMode::Permissive => self.warnings.push(format!(
                    "{msg} (permissive: writes dropped, reads all-ones)"
                )),
            }
        }
        Ok(calls)
    }

    /// Hand the data of a host read back to the backend.
    pub fn complete_host_read(&mut self, tag: u64, data: &[u8]) -> Result<(), BackendError> {
        self.outstanding_reads.retain(|&(t, _)| t != tag);
        self.backend
            .complete_host_read(tag, data)
            .map_err(|e| self.stamp(e))
    }

    /// Answer every outstanding host read with all-ones (a callback did not return); returns
    /// how many there were.
    pub fn abandon_host_reads(&mut self) -> Result<usize, BackendError> {
        let reads = std::mem::take(&mut self.outstanding_reads);
        for &(tag, len) in &reads {
            self.backend
                .complete_host_read(tag, &vec![0xFF; len])
                .map_err(|e| self.stamp(e))?;
        }
        Ok(reads.len())
    }

    fn stamp(&self, e: BackendError) -> BackendError {
        let c = self.backend.cycle();
        e.at_cycle(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::MemoryBackend;
    use crate::config::{BAR0_BASE, BAR2_BASE, BAR4_BASE};
    use crate::tlb::{TlbEntry, TLB_CFG_ENTRY_BYTES};

    fn dev() -> Device {
        let cfg = BackendConfig::default();
        Device::new(&cfg, Box::new(MemoryBackend::new(&cfg)))
    }

    /// tt-umd programs an entry with three 4-byte writes at +0, +4, +8 (§3.3).
    fn program(d: &mut Device, index: usize, x: u32, y: u32, addr: u64) {
        let kind = WindowKind::of_index(index);
        let e = TlbEntry {
            local_offset: addr / kind.size(),
            x_end: x,
            y_end: y,
            ..TlbEntry::default()
        };
        let cfg = BAR0_BASE + TLB_CFG_OFFSET + (index * TLB_CFG_ENTRY_BYTES) as u64;
        for (i, w) in e.encode(kind).into_iter().enumerate() {
            d.mem_write(cfg + 4 * i as u64, &w.to_le_bytes()).unwrap();
        }
    }

    #[test]
    fn window_access_reaches_the_programmed_node_and_address() {
        let mut d = dev();
        program(&mut d, 0, 1, 2, 0xFFA0_0000);
        d.mem_write(BAR0_BASE + 0x1121B0, &0x47800u32.to_le_bytes())
            .unwrap();
        let mut buf = [0u8; 4];
        d.tile_read(1, 2, 0xFFB1_21B0, &mut buf).unwrap();
        assert_eq!(u32::from_le_bytes(buf), 0x47800);
    }

    /// §3.4: accesses split at window ends, each piece through its own window.
    #[test]
    fn access_crossing_a_window_end_splits_into_the_next_window() {
        let mut d = dev();
        program(&mut d, 0, 1, 2, 0);
        program(&mut d, 1, 3, 4, 0x20_0000);
        let data: Vec<u8> = (0..16).collect();
        d.mem_write(BAR0_BASE + TLB_2M_SIZE - 8, &data).unwrap();
        let mut a = [0u8; 8];
        d.tile_read(1, 2, 0x1F_FFF8, &mut a).unwrap();
        assert_eq!(a, data[..8]);
        d.tile_read(3, 4, 0x20_0000, &mut a).unwrap();
        assert_eq!(a, data[8..]);
    }

    #[test]
    fn routing_rejects_addresses_outside_every_bar_and_runs_past_a_bar() {
        let d = dev();
        assert_eq!(d.route(0x1000, 4).unwrap_err().kind, ErrorKind::Unmapped);
        assert_eq!(
            d.route(BAR2_BASE + (1 << 20) - 2, 4).unwrap_err().kind,
            ErrorKind::AccessRule
        );
        assert_eq!(
            d.route(BAR4_BASE + (32 << 30) - 1, 1).unwrap()[0].target,
            Target::Window {
                index: 209,
                offset: TLB_4G_SIZE - 1
            }
        );
    }

    #[test]
    fn bar4_window_uses_the_4g_entry_layout() {
        let mut d = dev();
        program(&mut d, 203, 9, 6, 3 * TLB_4G_SIZE);
        d.mem_write(BAR4_BASE + TLB_4G_SIZE + 0x10, &[7, 8])
            .unwrap();
        let mut b = [0u8; 2];
        d.tile_read(9, 6, 3 * TLB_4G_SIZE + 0x10, &mut b).unwrap();
        assert_eq!(b, [7, 8]);
    }

    /// §8: NIU_CFG_0 bit 14 reports the translation the backend implements (MemoryBackend: off).
    #[test]
    fn niu_cfg0_reports_translation_state() {
        let mut d = dev();
        d.mem_write(BAR0_BASE + NIU_CFG_0_OFFSET, &0xFFFF_FFFFu32.to_le_bytes())
            .unwrap();
        let mut b = [0u8; 4];
        d.mem_read(BAR0_BASE + NIU_CFG_0_OFFSET, &mut b).unwrap();
        assert_eq!(u32::from_le_bytes(b) & NIU_CFG_0_TRANSLATE_BIT, 0);
    }

    /// tt-umd's reachability check: BAR0 0x1FD0_4044 is the PCIe tile's NOC_NODE_ID, raw (2, 0).
    #[test]
    fn pcie_node_id_reads_the_pcie_tile_and_refuses_writes() {
        let mut d = dev();
        let mut b = [0u8; 4];
        d.mem_read(BAR0_BASE + 0x1FD0_4044, &mut b).unwrap();
        assert_eq!(
            u32::from_le_bytes(b),
            2 | (17 << 12) | (12 << 19) | (1 << 28)
        );
        d.mem_read(BAR0_BASE + 0x1FD1_4044, &mut b).unwrap();
        assert_eq!(
            u32::from_le_bytes(b),
            14 | (11 << 6) | (17 << 12) | (12 << 19)
        );
        let e = d.mem_write(BAR0_BASE + 0x1FD0_4044, &[0; 4]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::AccessRule);
        assert!(e.message.contains("0x1fd04044"), "{}", e.message);
    }

    #[test]
    fn unmodelled_bar_space_faults_in_strict_and_reads_all_ones_in_permissive() {
        let mut d = dev();
        let mut b = [0u8; 4];
        assert_eq!(
            d.mem_read(BAR0_BASE + 0x1FF0_0000, &mut b)
                .unwrap_err()
                .kind,
            ErrorKind::Unimplemented
        );
        d.mode = MmioMode::Permissive;
        d.mem_read(BAR0_BASE + 0x1FF0_0000, &mut b).unwrap();
        assert_eq!(b, [0xFF; 4]);
        assert_eq!(d.warnings.len(), 1);
    }

    /// A faulting write has no partial effect: window 201's part is not written.
    #[test]
    fn strict_write_running_into_unmodelled_space_writes_nothing() {
        let mut d = dev();
        program(&mut d, 201, 1, 2, 0);
        let end = BAR0_BASE + TLB_COUNT_2M as u64 * TLB_2M_SIZE;
        assert_eq!(
            d.mem_write(end - 2, &[1, 2, 3, 4]).unwrap_err().kind,
            ErrorKind::Unimplemented
        );
        let mut b = [9u8; 2];
        d.tile_read(1, 2, TLB_2M_SIZE - 2, &mut b).unwrap();
        assert_eq!(b, [0, 0]);
    }

    #[test]
    fn multicast_window_writes_the_rectangle() {
        let mut d = dev();
        let e = TlbEntry {
            local_offset: 0,
            x_start: 1,
            y_start: 2,
            x_end: 2,
            y_end: 3,
            mcast: true,
            ..TlbEntry::default()
        };
        let w = e.encode(WindowKind::Tlb2M);
        for (i, x) in w.into_iter().enumerate() {
            d.mem_write(BAR0_BASE + TLB_CFG_OFFSET + 4 * i as u64, &x.to_le_bytes())
                .unwrap();
        }
        d.mem_write(BAR0_BASE + 0x100, &[5]).unwrap();
        for (x, y) in [(1, 2), (2, 2), (1, 3), (2, 3)] {
            let mut b = [0u8];
            d.tile_read(x, y, 0x100, &mut b).unwrap();
            assert_eq!(b, [5], "({x},{y})");
        }
        assert_eq!(
            d.mem_read(BAR0_BASE, &mut [0u8; 1]).unwrap_err().kind,
            ErrorKind::AccessRule
        );
    }

    /// The entry points' fast return: nothing is pending after a plain window write and read;
    /// a write into the PCIe tile's NoC-to-host window is (a host request), and so are cycles
    /// still owed and a warning not yet logged.
    #[test]
    fn work_is_pending_only_for_a_host_request_an_owed_cycle_or_a_warning() {
        let mut d = dev();
        program(&mut d, 0, 1, 2, 0x1000);
        d.mem_write(BAR0_BASE + 0x1000, &[1, 2, 3, 4]).unwrap();
        d.mem_read(BAR0_BASE + 0x1000, &mut [0u8; 4]).unwrap();
        assert!(!d.work_pending());

        program(&mut d, 0, 2, 0, crate::backend::NOC_HOST_WINDOW);
        d.mem_write(BAR0_BASE, &[9]).unwrap();
        assert!(
            d.work_pending(),
            "a write to the host window queues a host request"
        );
        // No iATU region maps it: taking it is the strict-mode error, and it is gone.
        let e = d.host_calls(true, true).unwrap_err();
        assert_eq!(e.kind, ErrorKind::HostMemory, "{e}");
        assert!(!d.work_pending(), "taken");

        d.clock_remaining = 1;
        assert!(d.work_pending());
        d.clock_remaining = 0;
        d.warnings.push("w".into());
        assert!(d.work_pending());
    }

    /// The polling fast path finds the same target as the general routing, or leaves the
    /// access to it: at the start, middle and end of windows, of the last 2 MiB window, of
    /// the TLB configuration block and around it, for lengths that fit and lengths that cross.
    #[test]
    fn single_target_agrees_with_the_general_routing() {
        let d = dev();
        let cfg = TLB_CFG_OFFSET;
        let cfg_end = TLB_CFG_OFFSET + TLB_CFG_BYTES as u64;
        let last_win = (TLB_COUNT_2M as u64 - 1) * TLB_2M_SIZE;
        let offsets = [
            0,
            4,
            TLB_2M_SIZE - 4,
            TLB_2M_SIZE - 1,
            TLB_2M_SIZE,
            last_win + TLB_2M_SIZE - 8,
            cfg - 4,
            cfg,
            cfg + 12,
            cfg_end - 4,
            cfg_end,
            NIU_CFG_0_OFFSET,
        ];
        let mut fast = 0;
        for off in offsets {
            for len in [1usize, 4, 12, 1164, TLB_2M_SIZE as usize + 1] {
                let paddr = BAR0_BASE + off;
                let general = d.route(paddr, len);
                match d.single_target(paddr, len) {
                    Some(t) => {
                        fast += 1;
                        let pieces = general.expect("a single target routes");
                        assert_eq!(pieces.len(), 1, "{off:#x}+{len}");
                        assert_eq!(pieces[0].target, t, "{off:#x}+{len}");
                        assert_eq!(pieces[0].len, len);
                    }
                    None => {
                        if let Ok(p) = general {
                            // Left to the general path: it spans pieces, or is neither kind.
                            assert!(
                                p.len() > 1
                                    || !matches!(
                                        p[0].target,
                                        Target::Window { .. } | Target::TlbRegs { .. }
                                    ),
                                "{off:#x}+{len} has one window or TLB piece: {p:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(fast >= 15, "the fast path took only {fast} accesses");
        assert_eq!(d.single_target(BAR2_BASE, 4), None);
        assert_eq!(d.single_target(BAR4_BASE, 4), None);
    }
}
