//! bhemu's own share of a run polled the way tt-umd polls: a native client
//! ([`ttsim::umd_client`]) calls the exported functions exactly as tt-umd 0.9.14 does — three
//! TLB writes, a read and `libttsim_clock(1)` per poll — with none of Python's or tt-umd's own
//! cost per call. It boots the firmware on 140 tiles, slow-dispatches the spin kernel
//! (`examples/kernels/spin.c`) to every tile, polls until all are DONE, checks every tile's
//! checksum, then makes the same number of reads on the idle chip.
//!
//! ```sh
//! cargo run --release -p bhemu-ttsim-abi --example umd_poll -- \
//!     .cache/ttnn/firmware/blackhole-140 target/kernels/spin.elf [ITERATIONS]
//! ```
//! Prints clocks, wall time and ns per tile-clock of each phase. Exit status 0 when every tile
//! finished with the right checksum.
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{Firmware, Kernel, GO_MSG, SUBORDINATE_SYNC};
use ttsim::ffi::libttsim_exit;
use ttsim::umd_client::{tensix_tiles, UmdClient};

/// Where the spin kernel takes its iteration count and leaves its checksum (spin.c).
const L1_ARG: u32 = 0x30040;
const L1_OUT: u32 = 0x30000;

/// The loop of examples/kernels/spin.c, restated.
fn checksum(mut n: u32) -> u32 {
    let (mut a, mut b) = (1u32, 2u32);
    loop {
        n = n.wrapping_sub(1);
        a = a.wrapping_add(n);
        b ^= a;
        let c = (b << 1) | a;
        b = b.wrapping_add(c);
        if n == 0 {
            return a ^ b ^ c;
        }
    }
}

fn run(fw_dir: &Path, spin: &Path, iterations: u32) -> Result<(), String> {
    let fw = Firmware::load(fw_dir).map_err(|e| format!("firmware: {e}"))?;
    let img = ElfImage::read(spin).map_err(|e| format!("{}: {e}", spin.display()))?;
    let k = Kernel::from_elf(&img).map_err(|e| format!("{}: {e}", spin.display()))?;
    let tiles = tensix_tiles();
    let n = tiles.len() as f64;
    let mut u = UmdClient::open().ok_or("the library does not identify as a Blackhole")?;
    let report = |what: &str, reads: u64, secs: f64| {
        println!(
            "{what}: {reads} clocks (reads) in {secs:.3} s: {:.2} ns per tile-clock, {:.3} us per read",
            secs * 1e9 / (reads as f64 * n),
            secs * 1e6 / reads as f64
        );
    };

    let t = Instant::now();
    let reads = u.boot(&fw, &tiles, 100_000)?;
    report("boot, 140 tiles", reads, t.elapsed().as_secs_f64());

    for &(x, y) in &tiles {
        u.write32(x, y, L1_ARG, iterations);
    }
    u.launch(&k, 1, &tiles);
    let t = Instant::now();
    let reads = u.wait_done(&tiles, false, 8 * u64::from(iterations) + 100_000)?;
    let spin_secs = t.elapsed().as_secs_f64();
    report("spin, 140 tiles", reads, spin_secs);
    let want = checksum(iterations);
    let bad: Vec<_> = tiles
        .iter()
        .filter(|&&(x, y)| u.read32(x, y, L1_OUT) != want)
        .collect();
    if !bad.is_empty() {
        return Err(format!(
            "{} tiles with a wrong checksum, e.g. {:?}",
            bad.len(),
            bad[0]
        ));
    }

    let (x, y) = tiles[0];
    let mut b = vec![0u8; (GO_MSG + 4 - SUBORDINATE_SYNC) as usize];
    let t = Instant::now();
    for _ in 0..reads {
        u.read_into(x, y, u64::from(SUBORDINATE_SYNC), &mut b);
    }
    let idle = t.elapsed().as_secs_f64();
    report("the same reads on the idle chip", reads, idle);
    println!(
        "spin less the idle reads: {:.2} ns per tile-clock",
        (spin_secs - idle) * 1e9 / (reads as f64 * n)
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 || args.len() > 3 {
        eprintln!("usage: umd_poll FIRMWARE_DIR SPIN_ELF [ITERATIONS (default 100000)]");
        return ExitCode::from(2);
    }
    let iterations = match args.get(2).map(|s| s.parse::<u32>()) {
        None => 100_000,
        Some(Ok(v)) if v > 0 => v,
        Some(_) => {
            eprintln!(
                "umd_poll: ITERATIONS must be a positive integer, not {}",
                args[2]
            );
            return ExitCode::from(2);
        }
    };
    // A kernel this long is expected: tell the library's hang watchdog (docs/libttsim-abi.md).
    if std::env::var_os("BHEMU_HANG_CYCLES").is_none() {
        std::env::set_var(
            "BHEMU_HANG_CYCLES",
            (8 * u64::from(iterations) + 100_000).to_string(),
        );
    }
    let r = run(Path::new(&args[0]), Path::new(&args[1]), iterations);
    libttsim_exit();
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("umd_poll: {e}");
            ExitCode::FAILURE
        }
    }
}
