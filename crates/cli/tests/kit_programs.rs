//! Real tt-metal kernels built by the kernel kit (`scripts/kernel-kit/build.sh`, from the `ttnn`
//! 0.81.1 wheel with Debian's riscv64-unknown-elf-g++) launched through the booted firmware by
//! `bhemu_chip::launch`: reader (BRISC, DRAM → CB) and writer (NCRISC, CB → DRAM) kernels with
//! local circular buffers, and the copy compute kernel on the three TRISCs. `bhemu run` of the
//! kit's programs is in `kit_programs/run.rs`, its traces in `kit_programs/trace.rs`: modules
//! of this one test binary, so the kit is built once for all of them.
//!
//! Skips with a message when the firmware or the cross compiler is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1` (then it fails and says what to run).
#[path = "common/kit.rs"]
mod kit_common;
#[path = "kit_programs/run.rs"]
mod run;
#[path = "kit_programs/trace.rs"]
mod trace;
use bhemu_chip::host::{self, Firmware};
use bhemu_chip::launch::{self, LocalCb, TileProgram, DATA_BASE};
use bhemu_chip::{grid, Chip, ChipConfig, Core};
use kit_common::*;

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

/// Random bf16 datums with every sign, mantissa and a wide range of exponents, but normal and
/// finite: MOVA2D flushes denormals to +0 and the packer's BF16 "rounding" early conversion
/// turns NaN into infinity (docs/tensix-datapath.md), so only these survive a copy through
/// the Tensix unchanged.
fn random_bf16_normals(seed: u32, n: usize) -> Vec<u8> {
    let raw = random_bytes(seed, n);
    raw.chunks(2)
        .flat_map(|c| {
            let h = u16::from_le_bytes([c[0], *c.get(1).unwrap_or(&0)]);
            let exp = 0x40 + ((h >> 7) & 0x7F); // 2^-63 .. 2^63
            ((h & 0x807F) | (exp << 7)).to_le_bytes()
        })
        .take(n)
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
    let stuck = launch::stuck_report(&chip, &r);
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

#[test]
fn dataflow_copy_reader_cb_writer_140_tiles() {
    dataflow_copy("all", 4);
}

/// Reader (BRISC) → CB 0 → copy compute kernel (TRISC0/1/2) → CB 16 → writer (NCRISC).
/// Returns the chip, the run report, the inputs and each tile's output address.
fn compute_copy(
    tiles: &str,
    reader_pages: u32,
    compute_pages: u32,
) -> Option<(Chip, bhemu_chip::host::RunReport, Vec<Vec<u8>>)> {
    let dir = kit()?;
    let mut chip = booted(tiles);
    let reader = kernel(&dir, "reader", Core::Brisc, "brisc.elf");
    let writer = kernel(&dir, "writer", Core::Ncrisc, "ncrisc.elf");
    let t: Vec<_> = (0..3)
        .map(|i| {
            let core = [Core::Trisc0, Core::Trisc1, Core::Trisc2][i];
            kernel(&dir, "copy", core, &format!("trisc{i}.elf"))
        })
        .collect();
    let coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    let mut programs = Vec::new();
    let mut inputs = Vec::new();
    for (i, &(x, y)) in coords.iter().enumerate() {
        let p = plan(i, compute_pages);
        let data = random_bf16_normals(0x9E37 + i as u32, (compute_pages * PAGE) as usize);
        chip.dram_mut()
            .write(0, u64::from(p.src), &data)
            .expect("dram write");
        inputs.push(data);
        let mut tp = TileProgram {
            x,
            y,
            ..TileProgram::default()
        };
        tp.kernels = vec![
            reader.clone(),
            writer.clone(),
            t[0].clone(),
            t[1].clone(),
            t[2].clone(),
        ];
        tp.args[0] = vec![DRAM_X, DRAM_Y, p.src, reader_pages, PAGE, 0];
        tp.args[1] = vec![DRAM_X, DRAM_Y, p.dst, compute_pages, PAGE, 16];
        for a in &mut tp.args[2..] {
            *a = vec![compute_pages];
        }
        tp.cbs = vec![
            LocalCb {
                index: 0,
                addr: DATA_BASE,
                pages: 2,
                page_size: PAGE,
            },
            LocalCb {
                index: 16,
                addr: DATA_BASE + 2 * PAGE,
                pages: 2,
                page_size: PAGE,
            },
        ];
        programs.push(tp);
    }
    let r = launch::launch_program(&mut chip, &programs, 1, 400_000, &mut |_| {}).expect("launch");
    Some((chip, r, inputs))
}

/// The copy compute kernel's synchronisation: the TRISCs wait for CB 0's tiles, hand the
/// destination register between math and pack, push to CB 16, and the writer drains it; every
/// core returns to the firmware and the tile reads DONE. The unpacker's pop and the packer's
/// push are Tensix STOREREGs to the CB's overlay counters.
#[test]
fn compute_copy_kernel_runs_its_cb_flow_to_completion() {
    let Some((chip, r, _)) = compute_copy("1", 4, 4) else {
        return;
    };
    let stuck = launch::stuck_report(&chip, &r);
    assert!(
        r.finished,
        "not finished after {} cycles: {stuck:#?}",
        r.cycles
    );
    eprintln!(
        "copy compute, 1 tile × 4 pages: DONE in {} cycles, {:?}",
        r.cycles, r.wall
    );
    // Every Tensix instruction the three threads ran has its data effect modelled: no
    // "not modelled" warning (the CB counters themselves are zeroed again by the firmware's
    // INIT_SYNC_REGISTERS once the kernel is done, so DONE is the evidence of 4 pushes/pops).
    let (x, y) = (r.tiles[0].x, r.tiles[0].y);
    let tile = chip
        .tiles()
        .iter()
        .find(|t| (t.node().x, t.node().y) == (x, y))
        .expect("tile");
    // The firmware's boot-time SFPU set-up is the Vector Unit's, still timing only here.
    let warnings: Vec<String> = tile
        .coprocessor()
        .warnings()
        .iter()
        .map(|w| w.to_string())
        .filter(|w| !w.contains(": SFP"))
        .collect();
    assert!(warnings.is_empty(), "{warnings:#?}");
}

/// Unpack to SrcA, MOVA2D to Dst, pack (four read interfaces per PACR) on TRISC0-2: the four
/// bf16 tiles come out bit for bit.
#[test]
fn compute_copy_kernel_output_is_bit_exact() {
    let Some((chip, r, inputs)) = compute_copy("1", 4, 4) else {
        return;
    };
    assert!(r.finished);
    let mut got = vec![0u8; inputs[0].len()];
    chip.dram()
        .read(0, u64::from(plan(0, 4).dst), &mut got)
        .expect("dram read");
    let diffs: Vec<(usize, u16, u16)> = (0..got.len() / 2)
        .map(|i| {
            let w = |b: &[u8]| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
            (i, w(&got), w(&inputs[0]))
        })
        .filter(|(_, g, w)| g != w)
        .collect();
    assert!(
        diffs.is_empty(),
        "{} datums differ, first (index, got, want): {:x?}",
        diffs.len(),
        &diffs[..diffs.len().min(8)]
    );
}

/// A compute kernel waiting for a tile the reader never pushes ends within the cycle limit with
/// a report naming the core, its pc and the CB it waits on.
#[test]
fn cb_deadlock_is_reported_with_core_pc_and_cb() {
    let Some((chip, r, _)) = compute_copy("1", 1, 2) else {
        return;
    };
    assert!(
        !r.finished,
        "a reader that pushes 1 of 2 tiles cannot let the program finish"
    );
    let stuck = launch::stuck_report(&chip, &r);
    let text: Vec<String> = stuck.iter().map(|s| s.to_string()).collect();
    eprintln!("{}", text.join("\n"));
    let unpack = stuck
        .iter()
        .find(|s| s.core == Core::Trisc0)
        .unwrap_or_else(|| panic!("TRISC0 is not reported: {text:?}"));
    let w = unpack.wait.expect("TRISC0 polls a CB");
    assert_eq!((w.cb, w.for_tiles, w.received & 0xFFFF), (0, true, 1));
    assert!(
        (0x2_9000..0x2_D000).contains(&unpack.pc),
        "pc 0x{:x} in TRISC0's kernel",
        unpack.pc
    );
    // The writer waits on CB 16 for the second tile, which the compute kernel never produced.
    let writer = stuck
        .iter()
        .find(|s| s.core == Core::Ncrisc)
        .expect("NCRISC is reported");
    assert_eq!(writer.wait.map(|w| (w.cb, w.for_tiles)), Some((16, true)));
}
