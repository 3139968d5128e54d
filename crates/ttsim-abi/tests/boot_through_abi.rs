//! The tt-umd boot without Python: the library's exported functions, called the
//! way tt-umd 0.9.14 calls them (docs/tt-umd-sim-interface.md: every tile access through TLB 0,
//! the entry rewritten before every chunk, one `clock(1)` after every read and none after a
//! write, §3.4 and §6), boot tt-metal's firmware on all 140 tiles of the chip behind the PCIe
//! face (docs/blackhole-facts.md §9), then slow-dispatch `examples/kernels/noc_stamp.c` three times.
//! `tests/umd/acceptance.py` does the same through the real tt-umd wheel.
//!
//! Needs the firmware from `scripts/fetch-ttnn.sh` and the kernel from `scripts/build-kernels.sh`;
//! without them the test prints "skipped", unless `BHEMU_REQUIRE_TOOLS=1`.
use std::path::{Path, PathBuf};
use std::process::Command;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{Firmware, Kernel, SOFT_RESET_ADDR};
use ttsim::ffi::libttsim_exit;
use ttsim::umd_client::{tensix_tiles, UmdClient};

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

    let mut u = UmdClient::open().expect("the library identifies as a Blackhole");
    let tiles = tensix_tiles();
    let reads = u
        .boot(&fw, &tiles, 100_000)
        .unwrap_or_else(|e| panic!("boot: {e}"));
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
        u.launch(&k, host_id, &tiles);
        let r = u
            .wait_done(&tiles, false, 20_000)
            .unwrap_or_else(|e| panic!("launch {host_id}: {e}"));
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
