//! The host client over a library loaded at run time (`ttsim::dynlib`): bhemu's own
//! `libttsim.so` — the cdylib this crate builds — opened with `dlopen`, booted, a kernel
//! launched and its outputs read back, exactly as `boot_through_abi.rs` does over the linked
//! functions. This is the path `bhemu sim-worker` takes for the differential runner.
//!
//! Needs the firmware (`scripts/fetch-ttnn.sh`) and `scripts/build-kernels.sh`'s kernel;
//! without them the test prints "skipped", unless `BHEMU_REQUIRE_TOOLS=1`.
use std::path::{Path, PathBuf};
use std::process::Command;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{Firmware, Kernel};
use ttsim::dynlib::{DynLibError, DynSim};
use ttsim::umd_client::UmdClient;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn skip(why: &str) {
    assert!(
        std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "BHEMU_REQUIRE_TOOLS=1 but {why}"
    );
    eprintln!("skipped: {why}");
}

/// The cdylib cargo built beside this test (`target/<profile>/deps/libttsim.so`).
fn own_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    [deps.join("libttsim.so"), deps.join("../libttsim.so")]
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no libttsim.so beside {}", exe.display()))
}

#[test]
fn a_missing_library_is_a_typed_error_naming_the_path() {
    let p = Path::new("/nonexistent/libttsim.so");
    assert_eq!(
        DynSim::load(p).err(),
        Some(DynLibError::Missing(p.to_path_buf()))
    );
    let e = DynSim::load(p).err().unwrap().to_string();
    assert_eq!(e, "/nonexistent/libttsim.so: no such file");
}

#[test]
fn a_file_that_is_not_a_library_fails_to_open_with_dlerror() {
    let f = Path::new(env!("CARGO_TARGET_TMPDIR")).join("not-a-library.so");
    std::fs::write(&f, b"not an ELF").unwrap();
    match DynSim::load(&f) {
        Err(DynLibError::Open { path, why }) => {
            assert_eq!(path, f);
            assert!(!why.is_empty());
        }
        other => panic!("expected an open error, got {other:?}"),
    }
}

#[test]
fn the_dlopened_own_library_boots_runs_a_kernel_and_reads_its_outputs_back() {
    let fw_dir = root().join(".cache/ttnn/firmware/blackhole-140");
    if !fw_dir.join("brisc.elf").is_file() {
        return skip("no firmware (run scripts/fetch-ttnn.sh)");
    }
    let kdir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dynlib-kernels");
    let built = Command::new("bash")
        .arg(root().join("scripts/build-kernels.sh"))
        .arg(&kdir)
        .output()
        .is_ok_and(|o| o.status.success());
    if !built {
        return skip("scripts/build-kernels.sh failed (apt-get install gcc-riscv64-unknown-elf)");
    }
    let fw = Firmware::load(&fw_dir).unwrap();
    let k = Kernel::from_elf(&ElfImage::read(&kdir.join("noc_stamp.elf")).unwrap()).unwrap();

    let sim = DynSim::load(&own_library()).unwrap();
    let mut u = UmdClient::open_with(sim).expect("identifies as a Blackhole");
    let tiles = [(1, 2), (16, 11), (5, 7)];
    let reads = u.boot(&fw, &tiles, 100_000).unwrap();
    assert!((1_000..20_000).contains(&reads), "boot took {reads} reads");
    u.launch(&k, 7, &tiles);
    u.wait_done(&tiles, false, 20_000).unwrap();
    for &(x, y) in &tiles {
        // examples/kernels/noc_stamp.c: value, ~value, x, y at L1 0x30000; the same 16 bytes
        // in DRAM bank (y*17+x) % 8 at 0x10_0000 + 64 * (y*17+x).
        let v = 0xB000_0000 | 7 << 16 | y << 8 | x;
        let want: Vec<u8> = [v, !v, x, y].iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(u.read(x, y, 0x30000, 16), want, "({x},{y}) L1 stamp");
        let idx = y * 17 + x;
        let bank = idx % 8;
        let (dx, dy) = (17 + bank / 4, 12 + 3 * (bank % 4));
        let d = u.read(dx, dy, 0x10_0000 + u64::from(idx) * 64, 16);
        assert_eq!(d, want, "({x},{y}) DRAM bank {bank}");
    }
    u.sim().exit();
}
