//! A native host client that calls the library's exported functions exactly as tt-umd 0.9.14
//! does (docs/tt-umd-sim-interface.md §3.4 and §6): every tile access through TLB window 0,
//! whose 12-byte entry is rewritten (three 4-byte `pci_mem_wr`) before every chunk, and one
//! `libttsim_clock(1)` after every read and none after a write.
//!
//! It is what the crate's own boot test and the `umd_poll` benchmark drive, so that bhemu's
//! share of a polled run can be measured without Python or tt-umd's own per-call cost; and,
//! over a library loaded at run time ([`crate::dynlib::DynSim`]), what `bhemu sim-worker`
//! drives for the differential runner. The calls go through [`SimCalls`], monomorphized.
use crate::sim_calls::{Linked, SimCalls};
use crate::tlb::{TLB_2M_SIZE, TLB_CFG_OFFSET};
use bhemu_chip::host::{
    jal_x0, launch_message, Firmware, Kernel, DISPATCH_MODE_HOST, GO_MSG, GO_MSG_INDEX, GO_SIGNAL,
    KERNEL_CONFIG_BASE, LAUNCH_BASE, LAUNCH_ENTRIES, LAUNCH_MSG_RD_PTR, LAUNCH_MSG_SIZE,
    RUN_MSG_DONE, RUN_MSG_GO, RUN_MSG_INIT, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN,
    SUBORDINATE_SYNC,
};
use bhemu_chip::tile::SOFT_RESET_ALL;
use bhemu_chip::Core;

/// The host side: BAR0's address from config space, TLB 0 for everything, reads counted.
/// `S` says where the calls go: bhemu's linked functions by default.
pub struct UmdClient<S: SimCalls = Linked> {
    sim: S,
    bar0: u64,
    /// Reads made so far, each one clock.
    pub reads: u64,
}

impl UmdClient<Linked> {
    /// [`UmdClient::open_with`] bhemu's own linked library.
    pub fn open() -> Option<UmdClient> {
        UmdClient::open_with(Linked)
    }
}

impl<S: SimCalls> UmdClient<S> {
    /// `libttsim_init`, then BAR0 from config space. `None` if the device does not identify
    /// as a Blackhole (vendor 0x1E52, device 0xB140).
    pub fn open_with(sim: S) -> Option<UmdClient<S>> {
        sim.init();
        if sim.pci_config_rd32(0, 0) != 0xB140_1E52 {
            return None;
        }
        let lo = u64::from(sim.pci_config_rd32(0, 0x10) & !15);
        let hi = u64::from(sim.pci_config_rd32(0, 0x14));
        Some(UmdClient {
            sim,
            bar0: hi << 32 | lo,
            reads: 0,
        })
    }

    /// The library the calls go to.
    pub fn sim(&self) -> &S {
        &self.sim
    }

    fn wr_raw(&self, paddr: u64, data: &[u8]) {
        self.sim.pci_mem_wr(paddr, data);
    }

    /// Points TLB 0 at tile (x, y), window containing `addr` (§3.3: words +0, +4, +8).
    fn tlb0(&self, x: u32, y: u32, addr: u64) {
        let off = addr / TLB_2M_SIZE;
        let w = [
            off as u32,
            ((off >> 32) as u32 & 0x7FF) | x << 11 | y << 17,
            0,
        ];
        for (i, v) in w.iter().enumerate() {
            self.wr_raw(self.bar0 + TLB_CFG_OFFSET + 4 * i as u64, &v.to_le_bytes());
        }
    }

    /// `noc_write`: per window-sized chunk, the TLB entry then the data. No clock.
    pub fn write(&self, x: u32, y: u32, addr: u64, data: &[u8]) {
        let mut done = 0;
        while done < data.len() {
            let a = addr + done as u64;
            let n = ((TLB_2M_SIZE - a % TLB_2M_SIZE) as usize).min(data.len() - done);
            self.tlb0(x, y, a);
            self.wr_raw(self.bar0 + a % TLB_2M_SIZE, &data[done..done + n]);
            done += n;
        }
    }

    /// `noc_read` into `out`: per chunk, the TLB entry then the read; then one clock.
    pub fn read_into(&mut self, x: u32, y: u32, addr: u64, out: &mut [u8]) {
        let mut done = 0;
        while done < out.len() {
            let a = addr + done as u64;
            let k = ((TLB_2M_SIZE - a % TLB_2M_SIZE) as usize).min(out.len() - done);
            self.tlb0(x, y, a);
            self.sim
                .pci_mem_rd(self.bar0 + a % TLB_2M_SIZE, &mut out[done..done + k]);
            done += k;
        }
        self.sim.clock(1);
        self.reads += 1;
    }

    /// [`UmdClient::read_into`] a new buffer of `n` bytes.
    pub fn read(&mut self, x: u32, y: u32, addr: u64, n: usize) -> Vec<u8> {
        let mut out = vec![0u8; n];
        self.read_into(x, y, addr, &mut out);
        out
    }

    pub fn write32(&self, x: u32, y: u32, addr: u32, v: u32) {
        self.write(x, y, u64::from(addr), &v.to_le_bytes());
    }

    pub fn read32(&mut self, x: u32, y: u32, addr: u32) -> u32 {
        let b = self.read(x, y, u64::from(addr), 4);
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// The 140 Tensix tiles in translated coordinates: x 1–7 and 10–16, y 2–11
/// (docs/blackhole-facts.md §4).
pub fn tensix_tiles() -> Vec<(u32, u32)> {
    (2..=11)
        .flat_map(|y| (1..=7).chain(10..=16).map(move |x| (x, y)))
        .collect()
}

impl<S: SimCalls> UmdClient<S> {
    /// The firmware boot of docs/blackhole-facts.md §9, steps 1–5 on every tile in `tiles`;
    /// then polls until all are DONE. Returns the reads (clocks) the poll took.
    pub fn boot(
        &mut self,
        fw: &Firmware,
        tiles: &[(u32, u32)],
        budget: u64,
    ) -> Result<u64, String> {
        let brisc = fw
            .text_addr(Core::Brisc)
            .ok_or("the firmware has no BRISC text")?;
        let mut ring = vec![0u8; (LAUNCH_MSG_SIZE * LAUNCH_ENTRIES) as usize];
        for i in 0..LAUNCH_ENTRIES {
            ring[(i * LAUNCH_MSG_SIZE + 48) as usize] = DISPATCH_MODE_HOST;
        }
        for &(x, y) in tiles {
            self.write32(x, y, SOFT_RESET_ADDR, SOFT_RESET_ALL);
            for c in &fw.cores {
                for (addr, data) in &c.writes {
                    self.write(x, y, u64::from(*addr), data);
                }
            }
            self.write32(x, y, GO_MSG, u32::from(RUN_MSG_INIT) << 24);
            self.write32(x, y, LAUNCH_MSG_RD_PTR, 0);
            self.write32(x, y, GO_MSG_INDEX, 0);
            self.write(x, y, u64::from(LAUNCH_BASE), &ring);
            self.write32(x, y, 0, jal_x0(brisc));
            self.write32(x, y, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN);
        }
        self.wait_done(tiles, true, budget)
    }

    /// Slow dispatch of `k` to every tile in `tiles` (kernel image, launch message, then the
    /// go signals), without waiting.
    pub fn launch(&self, k: &Kernel, host_id: u32, tiles: &[(u32, u32)]) {
        let msg = launch_message(k, host_id);
        for &(x, y) in tiles {
            self.write(x, y, u64::from(KERNEL_CONFIG_BASE), &k.image);
            self.write(x, y, u64::from(LAUNCH_BASE), &msg);
        }
        for &(x, y) in tiles {
            self.write32(x, y, GO_MSG, u32::from(RUN_MSG_GO) << 24);
        }
    }

    /// Polls every unfinished tile once per round (one read of `subordinate_sync` through the
    /// go message, one clock) until its go signal reads DONE (and its sync word 0 when `sync`).
    /// Returns the reads used; an error names a tile still running after `budget` reads, or
    /// one that reads all-ones (the device faulted).
    pub fn wait_done(
        &mut self,
        tiles: &[(u32, u32)],
        sync: bool,
        budget: u64,
    ) -> Result<u64, String> {
        let start = self.reads;
        let mut left: Vec<(u32, u32)> = tiles.to_vec();
        let mut b = vec![0u8; (GO_MSG + 4 - SUBORDINATE_SYNC) as usize];
        while !left.is_empty() {
            if self.reads - start >= budget {
                return Err(format!(
                    "{} tiles not DONE after {budget} reads, e.g. {:?}",
                    left.len(),
                    left[0]
                ));
            }
            let mut i = 0;
            while i < left.len() {
                let (x, y) = left[i];
                self.read_into(x, y, u64::from(SUBORDINATE_SYNC), &mut b);
                let go = b[(GO_SIGNAL - SUBORDINATE_SYNC) as usize];
                let s = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if s == u32::MAX {
                    return Err(format!("({x},{y}): the device faulted (reads all-ones)"));
                }
                if go != RUN_MSG_DONE || (sync && s != 0) {
                    i += 1;
                } else {
                    left.remove(i);
                }
            }
        }
        Ok(self.reads - start)
    }
}
