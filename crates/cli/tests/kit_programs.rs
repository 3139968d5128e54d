//! Real tt-metal kernels built by the kernel kit (`scripts/kernel-kit/build.sh`, from the `ttnn`
//! 0.81.1 wheel with Debian's riscv64-unknown-elf-g++) launched through the booted firmware by
//! `bhemu_chip::launch`: reader (BRISC, DRAM → CB) and writer (NCRISC, CB → DRAM) kernels with
//! local circular buffers, and the copy compute kernel on the three TRISCs.
//!
//! Skips with a message when the firmware or the cross compiler is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1` (then it fails and says what to run).
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Firmware};
use bhemu_chip::launch::{self, KernelImage, LocalCb, TileProgram, DATA_BASE};
use bhemu_chip::{grid, Chip, ChipConfig, Core};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn require() -> bool {
    std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1")
}

fn skip(why: &str) -> Option<PathBuf> {
    if require() {
        panic!("BHEMU_REQUIRE_TOOLS=1 but {why}");
    }
    eprintln!("skipped: {why}");
    None
}

/// Builds the kit once per test binary run (into the cargo tmpdir); `None` to skip.
fn kit() -> Option<PathBuf> {
    static ONCE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        if !root().join(".cache/ttnn/firmware/blackhole-140/brisc.elf").is_file() {
            return skip("no firmware in .cache/ttnn (run scripts/fetch-ttnn.sh)");
        }
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kernel-kit");
        let st = Command::new("bash")
            .arg(root().join("scripts/kernel-kit/build.sh"))
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .status();
        match st {
            Ok(s) if s.success() => Some(out),
            _ => skip("scripts/kernel-kit/build.sh failed (apt-get install g++-riscv64-unknown-elf picolibc-riscv64-unknown-elf)"),
        }
    })
    .clone()
}

fn kernel(dir: &Path, name: &str, core: Core, file: &str) -> Arc<KernelImage> {
    let img = ElfImage::read(&dir.join(name).join(file)).expect("kernel ELF");
    Arc::new(KernelImage::from_elf(core, &img).expect("kernel image"))
}

/// A booted chip with `tiles` Tensix tiles.
fn booted(tiles: &str) -> Chip {
    let fw = Firmware::load(&root().join(".cache/ttnn/firmware/blackhole-140")).expect("firmware");
    let cfg = ChipConfig {
        tiles: grid::parse_tiles(tiles).expect("tiles"),
        ..ChipConfig::default()
    };
    let mut chip = Chip::new(&cfg).expect("chip");
    let r = host::boot(&mut chip, &fw, 400_000, &mut |_| {}).expect("boot");
    assert!(r.finished, "boot: {:?}", r.unfinished().next());
    chip
}

/// xorshift32: the tests' seeded input generator.
fn random_bytes(seed: u32, n: usize) -> Vec<u8> {
    let mut s = seed.max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s >> 24) as u8
        })
        .collect()
}

/// DRAM bank 0's NoC coordinates (translated) and how the test lays out each tile's buffers.
const DRAM_X: u32 = 17;
const DRAM_Y: u32 = 12;
const PAGE: u32 = 2048;

struct Plan {
    src: u32,
    dst: u32,
}

fn plan(i: usize, tiles_per_core: u32) -> Plan {
    let span = tiles_per_core * PAGE;
    Plan {
        src: 0x10_0000 + 2 * span * i as u32,
        dst: 0x10_0000 + 2 * span * i as u32 + span,
    }
}

/// Reader (BRISC) → CB 0 → writer (NCRISC): every tile copies its own `n` pages; the outputs
/// are compared byte for byte with the inputs.
fn dataflow_copy(tiles: &str, n: u32) {
    let Some(dir) = kit() else { return };
    let mut chip = booted(tiles);
    let reader = kernel(&dir, "reader", Core::Brisc, "brisc.elf");
    let writer = kernel(&dir, "writer", Core::Ncrisc, "ncrisc.elf");
    let coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    let mut programs = Vec::new();
    let mut inputs = Vec::new();
    for (i, &(x, y)) in coords.iter().enumerate() {
        let p = plan(i, n);
        let data = random_bytes(0x1234 + i as u32, (n * PAGE) as usize);
        chip.dram_mut()
            .write(0, u64::from(p.src), &data)
            .expect("dram write");
        inputs.push(data);
        let mut tp = TileProgram {
            x,
            y,
            ..TileProgram::default()
        };
        tp.kernels = vec![reader.clone(), writer.clone()];
        tp.args[0] = vec![DRAM_X, DRAM_Y, p.src, n, PAGE, 0];
        tp.args[1] = vec![DRAM_X, DRAM_Y, p.dst, n, PAGE, 0];
        tp.cbs = vec![LocalCb {
            index: 0,
            addr: DATA_BASE,
            pages: 2,
            page_size: PAGE,
        }];
        programs.push(tp);
    }
    let r =
        launch::launch_program(&mut chip, &programs, 1, 2_000_000, &mut |_| {}).expect("launch");
    let stuck = launch::stuck_report(&mut chip, &r);
    assert!(
        r.finished,
        "not finished after {} cycles: {stuck:#?}",
        r.cycles
    );
    eprintln!(
        "{} tile(s) × {n} pages: DONE in {} cycles, {:?}",
        coords.len(),
        r.cycles,
        r.wall
    );
    for (i, want) in inputs.iter().enumerate() {
        let mut got = vec![0u8; want.len()];
        chip.dram()
            .read(0, u64::from(plan(i, n).dst), &mut got)
            .expect("dram read");
        assert!(got == *want, "tile {i}: output differs from input");
    }
}

#[test]
fn dataflow_copy_reader_cb_writer_one_tile() {
    dataflow_copy("1", 4);
}
