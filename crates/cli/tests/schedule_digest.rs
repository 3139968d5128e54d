//! The fast schedule computes exactly what the reference schedule does: after the firmware
//! boot on 140 tiles and after each kernel launch (NoC stamp, NoC multicast, Tensix pushes with
//! MMIO polling, a private spin loop), a digest of every hart's architectural state (with
//! `cycle` and `instret`), every L1 and local RAM, DRAM and the chip's cycle count is the same
//! under both schedules, and so is every phase's cycle count — with the fast schedule on 1, 2
//! and 4 host threads.
//!
//! Needs the firmware (`scripts/fetch-ttnn.sh`) and the kernels (`scripts/build-kernels.sh`,
//! Debian's `gcc-riscv64-unknown-elf`); skips with a message when either is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1`.
use std::path::{Path, PathBuf};
use std::process::Command;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Firmware, Kernel};
use bhemu_chip::{Chip, ChipConfig, ChipDigest, Schedule, Timing};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn require() -> bool {
    std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1")
}

fn firmware() -> Option<Firmware> {
    let d = root().join(".cache/ttnn/firmware/blackhole-140");
    if !d.join("brisc.elf").is_file() {
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
        return None;
    }
    Some(Firmware::load(&d).expect("load firmware"))
}

fn kernels() -> Option<PathBuf> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("schedule-kernels");
    let status = Command::new("bash")
        .arg(root().join("scripts/build-kernels.sh"))
        .arg(&out)
        .status();
    match status {
        Ok(s) if s.success() => Some(out),
        _ if require() => panic!(
            "BHEMU_REQUIRE_TOOLS=1 but scripts/build-kernels.sh failed (apt-get install gcc-riscv64-unknown-elf)"
        ),
        _ => {
            eprintln!("skipped: scripts/build-kernels.sh failed (no riscv64-unknown-elf-gcc?)");
            None
        }
    }
}

fn kernel(dir: &Path, name: &str) -> Kernel {
    let img = ElfImage::read(&dir.join(format!("{name}.elf"))).expect("kernel ELF");
    Kernel::from_elf(&img).expect("kernel")
}

fn l1(chip: &mut Chip, x: u8, y: u8, addr: u64) -> u32 {
    let mut b = [0u8; 4];
    chip.read_l1(x, y, addr, &mut b).expect("read L1");
    u32::from_le_bytes(b)
}

fn coords(chip: &Chip) -> Vec<(u8, u8)> {
    chip.tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect()
}

/// The spin kernel's checksum for `n` iterations, from its C source's loop.
fn spin_checksum(n: u32) -> u32 {
    let (mut n, mut a, mut b) = (n, 1u32, 2u32);
    let mut c: u32;
    loop {
        n = n.wrapping_sub(1);
        a = a.wrapping_add(n);
        b ^= a;
        c = (b << 1) | a;
        b = b.wrapping_add(c);
        if n == 0 {
            break;
        }
    }
    a ^ b ^ c
}

/// One phase's name, cycle count and the digest after it.
type Phase = (String, u64, ChipDigest);

/// Boot, then each launch, under `schedule` with NoC `timing`; checks what each kernel must
/// have computed.
fn run(
    schedule: Schedule,
    threads: usize,
    timing: Timing,
    fw: &Firmware,
    dir: &Path,
) -> (Vec<Phase>, (u64, u64), u64) {
    let cfg = ChipConfig {
        timing,
        ..ChipConfig::default()
    };
    let mut chip = Chip::new(&cfg).expect("chip");
    chip.set_schedule(schedule).expect("schedule");
    chip.set_threads(threads);
    // Spread every cycle with enough busy tiles, however cheap: the point is to exercise the
    // threads (by default only cycles costing SPREAD_MIN_NS of host time are spread).
    chip.set_spread_threshold(0);
    let mut phases = Vec::new();
    let r = host::boot(&mut chip, fw, 200_000, &mut |_| {}).expect("boot");
    assert!(r.finished, "{schedule:?}: boot did not finish");
    phases.push(("boot".to_string(), r.cycles, chip.digest().expect("digest")));
    let tiles = coords(&chip);

    let stamp = kernel(dir, "noc_stamp");
    for id in 1..=2 {
        let r = host::launch(&mut chip, &stamp, id, 200_000, &mut |_| {}).expect("noc_stamp");
        assert!(r.finished, "{schedule:?}: noc_stamp {id} did not finish");
        for &(x, y) in &tiles {
            assert_eq!(l1(&mut chip, x, y, 0x30020), 0x600D_F00D ^ id, "({x},{y})");
        }
        phases.push((
            format!("noc_stamp {id}"),
            r.cycles,
            chip.digest().expect("digest"),
        ));
    }

    let mc = kernel(dir, "noc_multicast");
    for (i, &(x, y)) in tiles.iter().enumerate() {
        chip.write_l1(x, y, 0x30040, &(tiles.len() as u32).to_le_bytes())
            .expect("arg");
        chip.write_l1(x, y, 0x30044, &(i as u32).to_le_bytes())
            .expect("arg");
    }
    let r = host::launch(&mut chip, &mc, 3, 400_000, &mut |_| {}).expect("noc_multicast");
    assert!(r.finished, "{schedule:?}: noc_multicast did not finish");
    for &(x, y) in &tiles {
        assert_eq!(l1(&mut chip, x, y, 0x30000), 0x600D_F00D ^ 3, "({x},{y})");
        for i in 0..tiles.len() as u64 {
            assert_eq!(l1(&mut chip, x, y, 0x40000 + 64 * i + 12), i as u32);
        }
    }
    phases.push((
        "noc_multicast".to_string(),
        r.cycles,
        chip.digest().expect("digest"),
    ));

    let tp = kernel(dir, "tensix_poll");
    let r = host::launch(&mut chip, &tp, 4, 200_000, &mut |_| {}).expect("tensix_poll");
    assert!(r.finished, "{schedule:?}: tensix_poll did not finish");
    for &(x, y) in &tiles {
        assert_eq!(l1(&mut chip, x, y, 0x30008), 0x600D_F00D ^ 4, "({x},{y})");
    }
    phases.push((
        "tensix_poll".to_string(),
        r.cycles,
        chip.digest().expect("digest"),
    ));

    let spin = kernel(dir, "spin");
    let n: u32 = 3000;
    for &(x, y) in &tiles {
        chip.write_l1(x, y, 0x30040, &n.to_le_bytes()).expect("arg");
    }
    let r = host::launch(&mut chip, &spin, 5, 200_000, &mut |_| {}).expect("spin");
    assert!(r.finished, "{schedule:?}: spin did not finish");
    for &(x, y) in &tiles {
        assert_eq!(l1(&mut chip, x, y, 0x30000), spin_checksum(n), "({x},{y})");
    }
    phases.push(("spin".to_string(), r.cycles, chip.digest().expect("digest")));
    // A few thousand idle cycles after the last launch: parked cores must still be exact.
    chip.clock(5000).expect("idle");
    let c = chip.cycle();
    phases.push(("idle".to_string(), c, chip.digest().expect("digest")));
    (phases, chip.park_counts(), chip.spread_cycles())
}

/// The reference run and the fast runs on 1, 2 and 4 threads under `timing`, compared.
fn compare(timing: Timing, fw: &Firmware, dir: &Path) {
    let (reference, none, _) = run(Schedule::Reference, 1, timing, fw, dir);
    assert_eq!(none, (0, 0), "the reference schedule never parks");
    // Host threads (crates/chip/src/threads.rs): the same digests and cycle counts on 1, 2
    // and 4 threads, whatever the machine's core count.
    for threads in [1, 2, 4] {
        let (fast, (parks, wakes), spread) = run(Schedule::Fast, threads, timing, fw, dir);
        eprintln!(
            "{timing:?}, fast schedule, {threads} threads: {parks} parks, {wakes} wakes, {spread} cycles spread"
        );
        // The multi-thread path is taken (boot and launches keep all 140 tiles busy).
        assert_eq!(
            spread > 0,
            threads > 1,
            "{threads} threads: {spread} cycles spread"
        );
        // Every tile's four idle cores park after boot and wake at each launch.
        assert!(
            parks >= 4 * 140 && wakes >= 4 * 140,
            "{threads} threads: {parks} parks, {wakes} wakes"
        );
        assert_eq!(reference.len(), fast.len());
        for ((name, rc, rd), (_, fc, fd)) in reference.iter().zip(&fast) {
            eprintln!("{name}: {rc} cycles, digest {:016x}", rd.total());
            assert_eq!(rc, fc, "{name}, {threads} threads: cycle count");
            assert_eq!(
                rd.first_difference(fd),
                None,
                "{name}, {threads} threads: first differing part"
            );
        }
    }
}

#[test]
fn em9_fast_schedule_matches_reference_digest_on_boot_and_kernels() {
    let Some(fw) = firmware() else { return };
    let Some(dir) = kernels() else { return };
    compare(Timing::Functional, &fw, &dir);
}

/// docs/noc-lookahead.md, the quantum: under per-hop NoC timing the fast schedule runs up to
/// 20 cycles between barriers (tiles stopping at their own NoC requests and, while the host
/// waits for every tile, at becoming done) and still matches the reference cycle for cycle.
#[test]
fn em25_quanta_under_hop_timing_match_reference_digest_on_boot_and_kernels() {
    let Some(fw) = firmware() else { return };
    let Some(dir) = kernels() else { return };
    compare(Timing::BLACKHOLE, &fw, &dir);
}
