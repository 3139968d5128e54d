//! The PCIe faces of a system of chips (docs/multi-chip.md) behind the one C ABI: one
//! [`Device`] per chip, each with its own config space, BARs, TLB windows and outbound iATU,
//! and the Ethernet links between the chips.
//!
//! * Enumeration: chip i is PCI device i (bus 0, function 0); other numbers read all-ones, which
//!   ends the host's scan (MC-2).
//! * Addresses: chip i's BARs are chip 0's plus i × 64 GiB ([`DEVICE_STRIDE`]); a `pci_mem`
//!   access goes to the chip its address names. `libttsim_tile_*` name no chip and reach chip 0.
//! * Time: `libttsim_clock(n)` runs every chip n cycles (one clock for the system), through
//!   [`lockstep::run`]: each chip as far as the links allow, on host threads when there are
//!   several and the step is long (MC-10, MC-11).
//! * Links ([`Wires`]): a send issued at cycle s arrives in the peer tile at cycle s +
//!   [`bhemu_chip::system::LINK_LATENCY`], however the host splits its clock calls (MC-6).
//! * Host memory: each chip's requests go through its own iATU; the tags of host reads are
//!   made unique across chips (`tag × chips + chip`).
use bhemu_chip::system::{lockstep, Wires};
use bhemu_chip::SystemKind;

use crate::backend::{make_backend, make_member_backend, BackendConfig, SimBackend};
use crate::config::{ConfigError, DEVICE_STRIDE};
use crate::device::{Device, HostCall};
use crate::error::{BackendError, ErrorKind, Where};

pub struct System {
    kind: SystemKind,
    devs: Vec<Device>,
    wires: Wires,
    /// Host threads the chips are stepped on (each chip's tiles share the rest).
    chip_threads: usize,
}

impl System {
    /// The system `cfg.system` with a backend per chip; `first` replaces chip 0's (tests).
    pub fn build(
        cfg: &BackendConfig,
        first: Option<Box<dyn SimBackend>>,
    ) -> Result<System, BackendError> {
        let kind = cfg.system;
        let many = kind.chips() > 1;
        let threads = bhemu_chip::threads::threads_from_env()
            .map_err(|e| BackendError::new(ErrorKind::Chip, Where::call("init"), e.to_string()))?;
        let (chip_threads, tile_threads) = lockstep::share_threads(threads, kind.chips() as usize);
        let mut devs = Vec::new();
        let mut first = first;
        for i in 0..kind.chips() {
            let backend = match (first.take(), many) {
                (Some(b), _) => b,
                (None, false) => make_backend(cfg)?,
                (None, true) => {
                    let member = kind.member(i).map_err(|e| {
                        BackendError::new(ErrorKind::Chip, Where::call("init"), e.to_string())
                    })?;
                    make_member_backend(cfg, member)?
                }
            };
            let mut dev = Device::of_chip(cfg, backend, i, many);
            if many {
                dev.backend_mut().set_threads(tile_threads);
            }
            devs.push(dev);
        }
        Ok(System {
            kind,
            devs,
            wires: Wires::new(kind),
            chip_threads,
        })
    }

    pub fn kind(&self) -> SystemKind {
        self.kind
    }

    pub fn chips(&self) -> usize {
        self.devs.len()
    }

    /// Chip `i`'s PCIe face.
    pub fn device_mut(&mut self, i: usize) -> Option<&mut Device> {
        self.devs.get_mut(i)
    }

    /// The system's cycle: chip 0's.
    pub fn cycle(&self) -> u64 {
        self.devs.first().map_or(0, Device::cycle)
    }

    pub fn tiles(&self) -> usize {
        self.devs.iter().map(Device::tiles).sum()
    }

    fn first(&mut self) -> &mut Device {
        // `build` makes at least one device (every system has a chip).
        &mut self.devs[0]
    }

    pub fn backend_mut(&mut self) -> &mut dyn SimBackend {
        self.first().backend_mut()
    }

    // ---- config space and memory -------------------------------------------------------------

    /// The device a bdf names, if it is one of the system's (bus 0, function 0).
    fn device_of_bdf(&self, bdf: u32) -> Option<usize> {
        let d = (bdf >> 3) as usize;
        (bdf & 7 == 0 && d < self.devs.len()).then_some(d)
    }

    pub fn config_read32(&self, bdf: u32, offset: u32) -> Result<u32, ConfigError> {
        let d = self.device_of_bdf(bdf).unwrap_or(0);
        self.devs[d].config_read32(bdf, offset)
    }

    pub fn config_write32(&mut self, bdf: u32, offset: u32, data: u32) -> Result<(), ConfigError> {
        let d = self.device_of_bdf(bdf).unwrap_or(0);
        self.devs[d].config_write32(bdf, offset, data)
    }

    /// The device a host address names (its 64 GiB slot); addresses past the last slot go to
    /// chip 0, whose BARs refuse them as unmapped.
    fn device_of_paddr(&self, paddr: u64) -> usize {
        let d = (paddr / DEVICE_STRIDE) as usize;
        if d < self.devs.len() {
            d
        } else {
            0
        }
    }

    pub fn mem_read(&mut self, paddr: u64, dst: &mut [u8]) -> Result<(), BackendError> {
        let d = self.device_of_paddr(paddr);
        self.devs[d].mem_read(paddr, dst)
    }

    pub fn mem_write(&mut self, paddr: u64, src: &[u8]) -> Result<(), BackendError> {
        let d = self.device_of_paddr(paddr);
        self.devs[d].mem_write(paddr, src)
    }

    pub fn tile_read(
        &mut self,
        x: u32,
        y: u32,
        a: u64,
        dst: &mut [u8],
    ) -> Result<(), BackendError> {
        self.first().tile_read(x, y, a, dst)
    }

    pub fn tile_write(&mut self, x: u32, y: u32, a: u64, src: &[u8]) -> Result<(), BackendError> {
        self.first().tile_write(x, y, a, src)
    }

    // ---- time ------------------------------------------------------------------------------

    /// Owe every chip `n` cycles (a `libttsim_clock` call).
    pub fn set_clock(&mut self, n: u32) {
        self.devs.iter_mut().for_each(|d| d.clock_remaining = n);
    }

    /// The most cycles a chip is still owed.
    pub fn clock_remaining(&self) -> u32 {
        self.devs
            .iter()
            .map(|d| d.clock_remaining)
            .max()
            .unwrap_or(0)
    }

    /// Drop the cycles still owed; returns the most any chip was owed.
    pub fn take_clock(&mut self) -> u32 {
        let n = self.clock_remaining();
        self.set_clock(0);
        n
    }

    /// Run every chip its owed cycles (each stops early only for host requests), carrying the
    /// links' traffic at the cycles it arrives.
    pub fn clock_step(&mut self) -> Result<(), BackendError> {
        if self.devs.len() == 1 {
            return self.first().clock_step();
        }
        let end: Vec<u64> = self
            .devs
            .iter()
            .map(|d| d.cycle() + u64::from(d.clock_remaining))
            .collect();
        lockstep::run(&mut self.wires, &mut self.devs, &end, self.chip_threads)
    }

    /// Sends still on their way.
    pub fn in_flight(&self) -> usize {
        self.wires.in_flight()
    }

    pub fn work_pending(&self) -> bool {
        self.devs.iter().any(Device::work_pending)
    }

    // ---- warnings and host memory ------------------------------------------------------------

    pub fn has_warnings(&self) -> bool {
        self.devs.iter().any(|d| !d.warnings.is_empty())
    }

    pub fn take_warnings(&mut self) -> Vec<String> {
        self.devs
            .iter_mut()
            .flat_map(|d| std::mem::take(&mut d.warnings))
            .collect()
    }

    pub fn host_calls(&mut self, rd: bool, wr: bool) -> Result<Vec<HostCall>, BackendError> {
        let n = self.devs.len() as u64;
        let mut out = Vec::new();
        for (i, d) in self.devs.iter_mut().enumerate() {
            for mut c in d.host_calls(rd, wr)? {
                if let HostCall::Read { tag, .. } = &mut c {
                    *tag = *tag * n + i as u64;
                }
                out.push(c);
            }
        }
        Ok(out)
    }

    pub fn complete_host_read(&mut self, tag: u64, data: &[u8]) -> Result<(), BackendError> {
        let n = self.devs.len() as u64;
        let d = (tag % n) as usize;
        self.devs[d].complete_host_read(tag / n, data)
    }

    pub fn abandon_host_reads(&mut self) -> Result<usize, BackendError> {
        let mut total = 0;
        for d in &mut self.devs {
            total += d.abandon_host_reads()?;
        }
        Ok(total)
    }
}

impl lockstep::Stepped for Device {
    type Error = BackendError;
    fn cycle(&self) -> u64 {
        Device::cycle(self)
    }
    fn run_to(&mut self, to: u64) -> Result<(), BackendError> {
        self.clock_to(to)
    }
    fn take_sends(&mut self, out: &mut Vec<bhemu_chip::eth::Send>) {
        self.backend_mut().take_eth_sends(out);
    }
    fn deliver(
        &mut self,
        channel: u8,
        payload: &bhemu_chip::eth::Payload,
    ) -> Result<(), BackendError> {
        let r = self.backend_mut().deliver_eth(channel, payload);
        r.map_err(|e| self.stamp(e))
    }
    fn link_error(e: bhemu_chip::ChipError) -> BackendError {
        BackendError::new(ErrorKind::Internal, Where::default(), e.to_string()).on_chip(e.loc.chip)
    }
}

#[cfg(test)]
mod tests;
