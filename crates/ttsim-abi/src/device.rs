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

mod host_memory;

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
    /// The chip's index when it is one of several (errors name it).
    chip: Option<u32>,
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
        Self::of_chip(cfg, backend, 0, false)
    }

    /// The PCIe face of chip `index` of a system: PCI device `index`, BARs shifted by
    /// `index` × 64 GiB ([`crate::config::DEVICE_STRIDE`]); `named` makes errors name the chip.
    pub fn of_chip(
        cfg: &BackendConfig,
        backend: Box<dyn SimBackend>,
        index: u32,
        named: bool,
    ) -> Device {
        Device {
            mode: cfg.mmio,
            config: ConfigSpace::of_device(index),
            tlb: TlbRegs::default(),
            iatu: Iatu::default(),
            niu_cfg0: 0,
            backend,
            clock_remaining: 0,
            outstanding_reads: Vec::new(),
            warnings: Vec::new(),
            pieces: Vec::new(),
            chip: named.then_some(index),
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

    pub(crate) fn stamp(&self, mut e: BackendError) -> BackendError {
        let c = self.backend.cycle();
        if let Some(chip) = self.chip {
            e = e.on_chip(chip);
        }
        e.at_cycle(c)
    }
}

#[cfg(test)]
mod tests;
