//! The tt-umd boot without Python: the library's exported functions, called the
//! way tt-umd 0.9.14 calls them (docs/tt-umd-sim-interface.md: every tile access through TLB 0,
//! the entry rewritten before every chunk, one `clock(1)` after every read and none after a
//! write, §3.4 and §6), boot tt-metal's firmware on all 140 tiles of the chip behind the PCIe
//! face (docs/blackhole-facts.md §9), then slow-dispatch `examples/kernels/noc_stamp.c` three times.
//! `tests/umd/acceptance.py` does the same through the real tt-umd wheel.
//!
//! Needs the firmware from `scripts/fetch-ttnn.sh` and the kernel from `scripts/build-kernels.sh`;
//! without them the test prints "skipped", unless `BHEMU_REQUIRE_TOOLS=1`.
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{
    jal_x0, launch_message, Firmware, Kernel, GO_MSG, GO_MSG_INDEX, KERNEL_CONFIG_BASE,
    LAUNCH_BASE, LAUNCH_ENTRIES, LAUNCH_MSG_RD_PTR, LAUNCH_MSG_SIZE, SOFT_RESET_ADDR,
    SOFT_RESET_BRISC_RUN, SUBORDINATE_SYNC,
};
use ttsim::ffi::*;

const WIN: u64 = 2 << 20;
const TLB_CFG: u64 = 0x1FC0_0000;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn require() -> bool {
    std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1")
}

fn skip(why: &str) {
    assert!(!require(), "BHEMU_REQUIRE_TOOLS=1 but {why}");
    eprintln!("skipped: {why}");
}

/// tt-umd's host side: BAR0 from config space, TLB 0 for everything.
struct Umd {
    bar0: u64,
    reads: u64,
}

impl Umd {
    fn open() -> Umd {
        libttsim_init();
        assert_eq!(libttsim_pci_config_rd32(0, 0), 0xB140_1E52);
        let lo = u64::from(libttsim_pci_config_rd32(0, 0x10) & !15);
        let hi = u64::from(libttsim_pci_config_rd32(0, 0x14));
        Umd {
            bar0: hi << 32 | lo,
            reads: 0,
        }
    }

    fn wr_raw(&self, paddr: u64, data: &[u8]) {
        unsafe {
            libttsim_pci_mem_wr_bytes(paddr, data.as_ptr().cast::<c_void>(), data.len() as u32)
        };
    }

    /// TLB 0 → (x, y), window containing `addr` (§3.3: three 4-byte writes, +0, +4, +8).
    fn tlb0(&self, x: u32, y: u32, addr: u64) {
        let off = addr / WIN;
        let w = [
            off as u32,
            ((off >> 32) as u32 & 0x7FF) | x << 11 | y << 17,
            0,
        ];
        for (i, v) in w.iter().enumerate() {
            self.wr_raw(self.bar0 + TLB_CFG + 4 * i as u64, &v.to_le_bytes());
        }
    }

    fn write(&self, x: u32, y: u32, addr: u64, data: &[u8]) {
        let mut done = 0;
        while done < data.len() {
            let a = addr + done as u64;
            let n = ((WIN - a % WIN) as usize).min(data.len() - done);
            self.tlb0(x, y, a);
            self.wr_raw(self.bar0 + a % WIN, &data[done..done + n]);
            done += n;
        }
    }

    fn read(&mut self, x: u32, y: u32, addr: u64, n: usize) -> Vec<u8> {
        let mut out = vec![0u8; n];
        let mut done = 0;
        while done < n {
            let a = addr + done as u64;
            let k = ((WIN - a % WIN) as usize).min(n - done);
            self.tlb0(x, y, a);
            unsafe {
                libttsim_pci_mem_rd_bytes(
                    self.bar0 + a % WIN,
                    out[done..].as_mut_ptr().cast::<c_void>(),
                    k as u32,
                )
            };
            done += k;
        }
        libttsim_clock(1);
        self.reads += 1;
        out
    }

    fn write32(&self, x: u32, y: u32, addr: u32, v: u32) {
        self.write(x, y, u64::from(addr), &v.to_le_bytes());
    }

    fn read32(&mut self, x: u32, y: u32, addr: u32) -> u32 {
        let b = self.read(x, y, u64::from(addr), 4);
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Polls every unfinished tile once per round (one read of 0x68..0x4F4, one clock) until
    /// its go signal is DONE (and its sync word 0 when `sync`). Returns the reads used.
    fn wait_done(&mut self, tiles: &[(u32, u32)], sync: bool, budget: u64) -> u64 {
        let start = self.reads;
        let mut left: Vec<(u32, u32)> = tiles.to_vec();
        let span = (GO_MSG + 4 - SUBORDINATE_SYNC) as usize;
        while !left.is_empty() {
            assert!(
                self.reads - start < budget,
                "{} tiles not DONE after {budget} reads, e.g. {:?}",
                left.len(),
                left[0]
            );
            let mut still = Vec::new();
            for &(x, y) in &left {
                let b = self.read(x, y, u64::from(SUBORDINATE_SYNC), span);
                let go = b[(GO_MSG + 3 - SUBORDINATE_SYNC) as usize];
                let s = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                assert_ne!(s, u32::MAX, "({x},{y}): device faulted (all-ones)");
                if go != 0 || (sync && s != 0) {
                    still.push((x, y));
                }
            }
            left = still;
        }
        self.reads - start
    }
}

#[test]
fn firmware_boots_on_140_tiles_through_the_tlb_window_and_runs_a_kernel_three_times() {
    let fw_dir = root().join(".cache/ttnn/firmware/blackhole-140");
    if !fw_dir.join("brisc.elf").is_file() {
        return skip(&format!(
            "no firmware at {} (run scripts/fetch-ttnn.sh)",
            fw_dir.display()
        ));
    }
    let fw = Firmware::load(&fw_dir).expect("firmware");
    let kdir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi-kernels");
    let built = Command::new("bash")
        .arg(root().join("scripts/build-kernels.sh"))
        .arg(&kdir)
        .output()
        .is_ok_and(|o| o.status.success());
    let kernel = if built {
        let img = ElfImage::read(&kdir.join("noc_stamp.elf")).expect("kernel ELF");
        Some(Kernel::from_elf(&img).expect("kernel"))
    } else {
        skip("scripts/build-kernels.sh failed (apt-get install gcc-riscv64-unknown-elf); booting only");
        None
    };

    let mut u = Umd::open();
    let tiles: Vec<(u32, u32)> = (2..=11)
        .flat_map(|y| (1..=7).chain(10..=16).map(move |x| (x, y)))
        .collect();
    let brisc = fw.text_addr(bhemu_chip::Core::Brisc).expect("BRISC text");
    let mut ring = vec![0u8; (LAUNCH_MSG_SIZE * LAUNCH_ENTRIES) as usize];
    for i in 0..LAUNCH_ENTRIES {
        ring[(i * LAUNCH_MSG_SIZE + 48) as usize] = 1; // host dispatch
    }
    // docs/blackhole-facts.md §9 steps 1-5, per tile.
    for &(x, y) in &tiles {
        u.write32(x, y, SOFT_RESET_ADDR, 0x47800);
        for c in &fw.cores {
            for (addr, data) in &c.writes {
                u.write(x, y, u64::from(*addr), data);
            }
        }
        u.write32(x, y, GO_MSG, 0x40 << 24);
        u.write32(x, y, LAUNCH_MSG_RD_PTR, 0);
        u.write32(x, y, GO_MSG_INDEX, 0);
        u.write(x, y, u64::from(LAUNCH_BASE), &ring);
        u.write32(x, y, 0, jal_x0(brisc));
        u.write32(x, y, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN);
    }
    let reads = u.wait_done(&tiles, true, 100_000);
    eprintln!("boot: 140 tiles DONE after {reads} reads (= clocks)");
    assert!(
        (3_000..20_000).contains(&reads),
        "boot took {reads} clocks; docs/blackhole-facts.md §9 says about 6,000"
    );
    for &(x, y) in &tiles {
        assert_eq!(
            u.read32(x, y, SOFT_RESET_ADDR) & 0x47800,
            0,
            "({x},{y}) all cores released"
        );
    }

    let Some(k) = kernel else {
        libttsim_exit();
        return;
    };
    for host_id in 1..=3u32 {
        let msg = launch_message(&k, host_id);
        for &(x, y) in &tiles {
            u.write(x, y, u64::from(KERNEL_CONFIG_BASE), &k.image);
            u.write(x, y, u64::from(LAUNCH_BASE), &msg);
        }
        for &(x, y) in &tiles {
            u.write32(x, y, GO_MSG, 0x80 << 24);
        }
        let r = u.wait_done(&tiles, false, 20_000);
        eprintln!("launch {host_id}: DONE after {r} reads");
        for &(x, y) in &tiles {
            // examples/kernels/noc_stamp.c: value, ~value, x, y at L1 0x30000, the DRAM
            // read-back at 0x30010, 0x600DF00D ^ host_id at 0x30020; DRAM bank (y*17+x) % 8.
            let v = 0xB000_0000 | (host_id & 0xFF) << 16 | y << 8 | x;
            let want: Vec<u8> = [v, !v, x, y].iter().flat_map(|w| w.to_le_bytes()).collect();
            let l1 = u.read(x, y, 0x30000, 36);
            assert_eq!(&l1[0..16], &want[..], "launch {host_id} ({x},{y}) L1 stamp");
            assert_eq!(
                &l1[16..32],
                &want[..],
                "launch {host_id} ({x},{y}) DRAM read-back"
            );
            assert_eq!(
                u32::from_le_bytes([l1[32], l1[33], l1[34], l1[35]]),
                0x600D_F00D ^ host_id
            );
            let idx = y * 17 + x;
            let bank = idx % 8;
            // Translated DRAM coordinates of the bank's port 0 (docs/blackhole-facts.md §4).
            let (dx, dy) = (17 + bank / 4, 12 + 3 * (bank % 4));
            let d = u.read(dx, dy, 0x10_0000 + u64::from(idx) * 64, 16);
            assert_eq!(d, want, "launch {host_id} ({x},{y}) DRAM bank {bank}");
        }
    }
    libttsim_exit();
}
