//! Boots Tenstorrent's own Blackhole firmware (ttnn 0.81.1) on all 140 emulated Tensix tiles,
//! then slow-dispatches a BRISC kernel built from `examples/kernels` three times
//! (protocol in docs/blackhole-facts.md §9).
//!
//! The firmware comes from `scripts/fetch-ttnn.sh` (`.cache/ttnn/firmware/blackhole-140`), the
//! kernel from `scripts/build-kernels.sh` with Debian's `gcc-riscv64-unknown-elf`. When either
//! is missing the test prints "skipped", unless `BHEMU_REQUIRE_TOOLS=1`, in which case it fails
//! and says what to run.
use std::path::{Path, PathBuf};
use std::process::Command;

use bhemu_chip::host::{self, Firmware, Kernel, GO_MSG, SUBORDINATE_SYNC};
use bhemu_chip::{elf::ElfImage, Chip, ChipConfig, Core, CoreState};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn require() -> bool {
    std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1")
}

fn firmware_dir() -> Option<PathBuf> {
    let d = root().join(".cache/ttnn/firmware/blackhole-140");
    if d.join("brisc.elf").is_file() {
        return Some(d);
    }
    if require() {
        panic!(
            "BHEMU_REQUIRE_TOOLS=1 but {} is missing: run scripts/fetch-ttnn.sh",
            d.display()
        );
    }
    eprintln!(
        "skipped: no firmware at {} (run scripts/fetch-ttnn.sh)",
        d.display()
    );
    None
}

/// Builds `examples/kernels/noc_stamp.c`; `None` (skip) when the cross compiler is missing.
fn build_kernel() -> Option<PathBuf> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("boot-kernels");
    let status = Command::new("bash")
        .arg(root().join("scripts/build-kernels.sh"))
        .arg(&out)
        .status();
    match status {
        Ok(s) if s.success() => Some(out.join("noc_stamp.elf")),
        _ if require() => panic!(
            "BHEMU_REQUIRE_TOOLS=1 but scripts/build-kernels.sh failed (apt-get install gcc-riscv64-unknown-elf)"
        ),
        _ => {
            eprintln!("skipped kernel launches: scripts/build-kernels.sh failed (no riscv64-unknown-elf-gcc?)");
            None
        }
    }
}

/// The value `noc_stamp` writes for tile (x, y) and launch `host_id` (see its header comment).
fn stamp(x: u8, y: u8, host_id: u32) -> [u32; 4] {
    let v = 0xB000_0000 | ((host_id & 0xFF) << 16) | (u32::from(y) << 8) | u32::from(x);
    [v, !v, u32::from(x), u32::from(y)]
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn firmware_boots_on_140_tiles_and_runs_a_kernel_three_times() {
    let Some(dir) = firmware_dir() else { return };
    let fw = Firmware::load(&dir).expect("load firmware");
    let mut chip = Chip::new(&ChipConfig::default()).expect("chip");
    assert_eq!(chip.tiles().len(), 140);

    let r = host::boot(&mut chip, &fw, 200_000, &mut |_| {}).expect("boot");
    eprintln!(
        "boot: 140 tiles DONE in {} simulated cycles, {:?} wall",
        r.cycles, r.wall
    );
    assert!(
        r.finished,
        "boot did not finish: {:#?}",
        r.unfinished().next()
    );
    for t in chip.tiles() {
        let n = t.node();
        let at = format!("tile ({},{})", n.x, n.y);
        // dev_msgs.h: go_messages[0].signal == RUN_MSG_DONE; every subordinate checked in.
        assert_eq!(
            t.read_l1_u32(GO_MSG).ok().map(|w| w >> 24),
            Some(0),
            "{at}: go signal"
        );
        assert_eq!(
            t.read_l1_u32(SUBORDINATE_SYNC).ok(),
            Some(0),
            "{at}: sync word"
        );
        for c in Core::ALL {
            assert_eq!(t.releases(c), 1, "{at}: {c} released once");
            assert_ne!(t.core_state(c), CoreState::Reset, "{at}: {c} out of reset");
            assert_ne!(t.core_state(c), CoreState::Faulted, "{at}: {c}");
        }
        // BRISC's firmware programmed the others' reset PCs (docs/blackhole-facts.md §9).
        let d = t.debug_regs();
        assert_eq!(d.reset_pc(Core::Ncrisc), 0x5CE0, "{at}");
        assert_eq!(d.reset_pc(Core::Trisc0), 0x66E0, "{at}");
        assert_eq!(d.reset_pc(Core::Trisc1), 0x70E0, "{at}");
        assert_eq!(d.reset_pc(Core::Trisc2), 0x7AE0, "{at}");
        assert_eq!(
            d.soft_reset() & 0x47800,
            0,
            "{at}: all five cores out of reset"
        );
    }

    let Some(kpath) = build_kernel() else { return };
    let kernel = Kernel::from_elf(&ElfImage::read(&kpath).expect("kernel ELF")).expect("kernel");
    for host_id in 1..=3u32 {
        let r = host::launch(&mut chip, &kernel, host_id, 200_000, &mut |_| {}).expect("launch");
        eprintln!(
            "launch {host_id}: DONE in {} simulated cycles, {:?} wall",
            r.cycles, r.wall
        );
        assert!(
            r.finished,
            "launch {host_id} did not finish: {:#?}",
            r.unfinished().next()
        );
        let coords: Vec<(u8, u8)> = chip
            .tiles()
            .iter()
            .map(|t| (t.node().x, t.node().y))
            .collect();
        for (x, y) in coords {
            let at = format!("launch {host_id}, tile ({x},{y})");
            let want = stamp(x, y, host_id);
            let mut l1 = [0u8; 36];
            chip.read_l1(x, y, 0x30000, &mut l1).expect("read L1");
            let l1 = words(&l1);
            assert_eq!(&l1[0..4], &want, "{at}: L1 stamp");
            assert_eq!(&l1[4..8], &want, "{at}: DRAM read back into L1");
            assert_eq!(l1[8], 0x600D_F00D ^ host_id, "{at}: kernel finished");
            let idx = u64::from(y) * 17 + u64::from(x);
            let mut d = [0u8; 16];
            chip.dram()
                .read((idx % 8) as usize, 0x10_0000 + idx * 64, &mut d)
                .expect("DRAM");
            assert_eq!(words(&d), want, "{at}: DRAM bank {}", idx % 8);
        }
    }
}

/// `bhemu boot` end to end, once the lead has wired `cmd_boot` into main.rs; until then the
/// subcommand does not exist and the test says so.
#[test]
fn bhemu_boot_command() {
    let Some(dir) = firmware_dir() else { return };
    let help = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .args(["boot", "--help"])
        .output()
        .expect("run bhemu");
    if !help.status.success() {
        eprintln!("skipped: `bhemu boot` is not wired into main.rs yet");
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .args(["boot", "--tiles", "1,2;16,11", "--firmware"])
        .arg(&dir)
        .output()
        .expect("run bhemu boot");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("boot: 2/2 tiles DONE"), "{stdout}");
    // A cycle limit is exit status 3 with a per-core report.
    let out = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .args(["boot", "--tiles", "1", "--max-cycles", "100", "--firmware"])
        .arg(&dir)
        .output()
        .expect("run bhemu boot");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("BRISC") && stdout.contains("running"),
        "{stdout}"
    );
}

/// `bhemu boot --firmware` accepts tt-metal's per-core layout (`DIR/brisc/brisc.elf`, ... as in
/// the wheel's `pre-compiled/<key>/`): the same ELFs laid out that way load to the same writes.
#[test]
fn firmware_loads_from_tt_metal_per_core_layout() {
    let Some(dir) = firmware_dir() else { return };
    let nested = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fw-per-core");
    for core in ["brisc", "ncrisc", "trisc0", "trisc1", "trisc2"] {
        std::fs::create_dir_all(nested.join(core)).expect("mkdir");
        std::fs::copy(
            dir.join(format!("{core}.elf")),
            nested.join(core).join(format!("{core}.elf")),
        )
        .expect("copy");
    }
    let flat = Firmware::load(&dir).expect("flat layout");
    let per_core = Firmware::load(&nested).expect("per-core layout");
    assert_eq!(flat.cores.len(), 5);
    for (a, b) in flat.cores.iter().zip(&per_core.cores) {
        assert_eq!(a.core, b.core);
        assert_eq!(a.text_addr, b.text_addr);
        assert_eq!(a.writes, b.writes);
    }
    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fw-none");
    std::fs::create_dir_all(&missing).expect("mkdir");
    let err = Firmware::load(&missing).expect_err("no firmware there");
    assert!(err.to_string().contains("brisc.elf"), "{err}");
}

/// The T0, T1, T2 counts of `bhemu boot`'s coprocessor line.
fn coprocessor_counts(stdout: &str, mode: &str) -> [u64; 3] {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&format!("coprocessor ({mode}): ")))
        .unwrap_or_else(|| panic!("no `coprocessor ({mode})` line in\n{stdout}"));
    let count = |t: &str| -> u64 {
        let rest = &line[line.find(&format!("{t} ")).expect(t) + 3..];
        rest.split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a count")
    };
    [count("T0"), count("T1"), count("T2")]
}

/// `bhemu boot --permissive` puts the coprocessors in permissive mode too (docs/execution-model.md
/// EM-7), and they execute what the firmware pushes: during boot it sends Tensix instructions
/// to thread 0 of every tile (BRISC's push address is in its code), as many as in a strict
/// boot.
#[test]
fn bhemu_boot_permissive_reaches_the_coprocessor() {
    let Some(dir) = firmware_dir() else { return };
    let boot = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_bhemu"))
            .args(["boot", "--tiles", "1,2;16,11"])
            .args(extra)
            .arg("--firmware")
            .arg(&dir)
            .output()
            .expect("run bhemu boot");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    let permissive = boot(&["--permissive"]);
    assert!(
        permissive.contains("coprocessor (permissive): 2/2 tiles executed Tensix instructions"),
        "{permissive}"
    );
    let p = coprocessor_counts(&permissive, "permissive");
    assert!(
        p[0] >= 2,
        "T0 ran the firmware's instructions on both tiles: {p:?}"
    );
    let strict = boot(&[]);
    assert_eq!(coprocessor_counts(&strict, "strict"), p);
}

/// docs/multi-chip.md MC-11: `bhemu boot --system p300` boots both chips, one per host thread
/// with `--threads 2`, and prints the same reports, in chip order, as on one thread.
#[test]
fn mc11_system_boot_is_the_same_on_one_and_two_threads() {
    let Some(dir) = firmware_dir() else { return };
    let boot = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_bhemu"))
            .args([
                "boot",
                "--system",
                "p300",
                "--tiles",
                "1,2;16,11",
                "--threads",
                threads,
            ])
            .arg("--firmware")
            .arg(&dir)
            .output()
            .expect("run bhemu boot");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Everything but host times.
        stdout
            .lines()
            .map(|l| l.split(" simulated cycles").next().unwrap_or(l).to_string())
            .filter(|l| !l.contains("host time"))
            .collect::<Vec<_>>()
    };
    let one = boot("1");
    let two = boot("2");
    assert_eq!(one, two);
    let chip0 = one.iter().position(|l| l == "chip 0 of a p300:");
    let chip1 = one.iter().position(|l| l == "chip 1 of a p300:");
    assert!(
        matches!((chip0, chip1), (Some(a), Some(b)) if a < b),
        "{one:#?}"
    );
    let booted: Vec<&String> = one
        .iter()
        .filter(|l| l.starts_with("boot: 2/2 tiles DONE in"))
        .collect();
    assert_eq!(booted.len(), 2, "{one:#?}");
}
