//! Real tt-metal kernels built by the kernel kit (`scripts/kernel-kit/build.sh`, from the `ttnn`
//! 0.81.1 wheel with Debian's riscv64-unknown-elf-g++) launched through the booted firmware by
//! `bhemu_chip::launch`: reader (BRISC, DRAM → CB) and writer (NCRISC, CB → DRAM) kernels with
//! local circular buffers, and the copy compute kernel on the three TRISCs.
//!
//! Skips with a message when the firmware or the cross compiler is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1` (then it fails and says what to run).
#[path = "common/kit.rs"]
mod kit_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use kit_common::{kit, root};
use std::sync::Arc;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Firmware};
use bhemu_chip::launch::{self, KernelImage, LocalCb, TileProgram, DATA_BASE};
use bhemu_chip::{grid, Chip, ChipConfig, Core};

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

/// `bhemu run PROGRAM --json` with the kit built for this test run; (exit code, stdout, stderr).
fn bhemu_run(program: &Path, json: bool) -> (i32, String, String) {
    let kit = kit().expect("kit");
    let mut c = Command::new(env!("CARGO_BIN_EXE_bhemu"));
    c.arg("run").arg(program).arg("--kit").arg(&kit);
    c.arg("--firmware")
        .arg(root().join(".cache/ttnn/firmware/blackhole-140"));
    if json {
        c.arg("--json");
    }
    let o = c.output().expect("run bhemu");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn program(name: &str) -> PathBuf {
    root().join("examples/kernels/programs").join(name)
}

/// A copy of an example program with `tiles` replaced.
fn on_tiles(name: &str, tiles: &str) -> PathBuf {
    let text = std::fs::read_to_string(program(name)).expect("program");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{tiles}-{name}"));
    std::fs::write(
        &out,
        text.replace("tiles = \"1\"", &format!("tiles = \"{tiles}\"")),
    )
    .expect("write");
    out
}

fn json_of(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn run_dataflow_copy_program_is_bit_exact_on_one_and_140_tiles() {
    if kit().is_none() {
        return;
    }
    for (path, tiles) in [
        (program("dataflow_copy.toml"), 1),
        (on_tiles("dataflow_copy.toml", "all"), 140),
    ] {
        let (code, out, err) = bhemu_run(&path, true);
        assert_eq!(code, 0, "{out}{err}");
        let v = json_of(&out);
        assert_eq!(v["tiles"], tiles);
        assert_eq!(v["finished"], true);
        assert_eq!(v["outputs"][0]["bit_exact"], true, "{out}");
        assert_eq!(v["outputs"][0]["max_ulp"], 0);
        assert_eq!(v["outputs"][0]["pcc"], 1.0);
        assert!(v["cycles"].as_u64().unwrap_or(0) > 0, "{out}");
    }
}

#[test]
fn run_reports_a_cb_deadlock_naming_core_pc_and_cb() {
    if kit().is_none() {
        return;
    }
    let (code, out, err) = bhemu_run(&program("cb_deadlock.toml"), false);
    assert_eq!(code, 3, "{out}{err}");
    let line = out
        .lines()
        .find(|l| l.contains("TRISC0"))
        .unwrap_or_else(|| panic!("no TRISC0 line: {out}"));
    assert!(line.contains("at pc 0x0002"), "{line}");
    assert!(
        line.contains(
            "in `kernel_main()` waits on CB 0: waits for tiles; 1 pushed, 1 popped (0 in the CB)"
        ),
        "{line}"
    );
    // The culprit: the reader already left its kernel; nothing will push the second tile.
    assert!(
        line.contains("finished their kernel without pushing more: BRISC ("),
        "{line}"
    );
    assert!(line.contains("reader/brisc.elf)"), "{line}");
    // Pack (T2) waits for math to post MATH_PACK, which math never does.
    let t2 = out
        .lines()
        .find(|l| l.contains("TRISC2"))
        .unwrap_or_else(|| panic!("no TRISC2 line: {out}"));
    assert!(
        t2.contains("semaphore 1 (MATH_PACK) is 0: nothing posted it (SEMPOST)"),
        "{t2}"
    );
}

#[test]
fn run_compute_copy_program_is_bit_exact_on_one_and_140_tiles() {
    if kit().is_none() {
        return;
    }
    for (path, tiles) in [
        (program("compute_copy.toml"), 1),
        (on_tiles("compute_copy.toml", "all"), 140),
    ] {
        let (code, out, err) = bhemu_run(&path, true);
        assert_eq!(code, 0, "{out}{err}");
        let v = json_of(&out);
        assert_eq!(v["tiles"], tiles);
        assert_eq!(v["outputs"][0]["bit_exact"], true, "{out}");
        assert_eq!(v["outputs"][0]["max_ulp"], 0, "{out}");
    }
}

/// Mistakes in the description end in one line naming the field.
#[test]
fn run_errors_name_the_field() {
    if kit().is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let base = std::fs::read_to_string(program("dataflow_copy.toml")).expect("program");
    for (bad, field) in [
        (
            base.replace("\"in.pages\"", "\"inn.pages\""),
            "args.brisc[3]",
        ),
        (
            base.replace(
                "format = \"bf16\"\npages = 8\nrandom",
                "format = \"bf17\"\npages = 8\nrandom",
            ),
            "input[0].format",
        ),
        (
            base.replace("copy(in)", "copy(nope)"),
            "output[0].reference",
        ),
        (
            base.replace("random = 1", "random = 1\nvalues = [1.0]"),
            "input[0] (in)",
        ),
        (
            base.replace("brisc = \"reader\"", "brisc = \"no_such_kernel\""),
            "kernels.brisc",
        ),
    ] {
        let path = dir.join("bad.toml");
        std::fs::write(&path, bad).expect("write");
        let (code, out, err) = bhemu_run(&path, false);
        assert_eq!(code, 2, "{field}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{field}: one line: {err}");
        assert!(err.contains(field), "{field}: {err}");
    }
}

/// Every kernel the kit builds is entered at its core's text base and fits its window.
#[test]
fn kit_builds_every_example_kernel_for_its_cores() {
    let Some(dir) = kit() else { return };
    for name in [
        "copy",
        "add",
        "sub",
        "mul",
        "matmul",
        "relu_sfpu",
        "mul_lofi",
        "matmul_lofi",
        "mul_fp32dst",
        "matmul_fp32dst",
        "matmul_block",
        "sfpu_add_const",
        "sfpu_square_plus_c",
        "sfpu_shift_add",
        "sfpu_lut",
        "sfpu_swap",
        "sfpu_loadmacro",
        "sfpu_int_shift_add",
    ] {
        for (i, core) in [Core::Trisc0, Core::Trisc1, Core::Trisc2]
            .into_iter()
            .enumerate()
        {
            let k = kernel(&dir, name, core, &format!("trisc{i}.elf"));
            assert_eq!(k.writes[0].0, launch::text_base(core), "{name} trisc{i}");
        }
    }
    for name in ["reader", "reader_binary", "writer"] {
        for (core, file) in [(Core::Brisc, "brisc.elf"), (Core::Ncrisc, "ncrisc.elf")] {
            let k = kernel(&dir, name, core, file);
            assert_eq!(k.writes[0].0, launch::text_base(core), "{name} {file}");
        }
    }
}

/// The compute examples (FPU element-wise add/sub/mul, tile matmul at HiFi4 and LoFi with a
/// BF16 or an FP32 `Dst`, and a 2x2x2-tile block matmul through tt-llk's `matmul_block`), checked bit for bit against `bhemu run`'s Matrix Unit references,
/// on random inputs in [-2, 2).
/// relu_sfpu.toml is checked with the other Vector Unit (SFPU) kernels below.
#[test]
fn run_compute_examples_are_bit_exact() {
    if kit().is_none() {
        return;
    }
    for name in [
        "add.toml",
        "sub.toml",
        "mul.toml",
        "matmul.toml",
        "mul_lofi.toml",
        "matmul_lofi.toml",
        "mul_fp32dst.toml",
        "matmul_fp32dst.toml",
        "matmul_block.toml",
    ] {
        let (code, out, err) = bhemu_run(&program(name), true);
        assert_eq!(code, 0, "{name}: {out}{err}");
        let v = json_of(&out);
        assert_eq!(v["outputs"][0]["bit_exact"], true, "{name}: {out}");
        assert_eq!(v["outputs"][0]["max_ulp"], 0, "{name}: {out}");
    }
}

/// The eltwise and matmul kernels on all 140 tiles at once, each tile with its own random
/// inputs, bit for bit against the Matrix Unit model.
#[test]
fn run_compute_examples_are_bit_exact_on_140_tiles() {
    if kit().is_none() {
        return;
    }
    for name in [
        "add.toml",
        "sub.toml",
        "mul.toml",
        "matmul.toml",
        "matmul_block.toml",
    ] {
        let (code, out, err) = bhemu_run(&on_tiles(name, "all"), true);
        assert_eq!(code, 0, "{name} on 140 tiles: {out}{err}");
        let v = json_of(&out);
        assert_eq!(v["outputs"][0]["bit_exact"], true, "{name}: {out}");
        assert_eq!(v["outputs"][0]["mismatched_tiles"], 0, "{name}: {out}");
    }
}

/// The math settings are real: the LoFi kernels' outputs differ from the HiFi4 model and the
/// FP32-`Dst` kernels' from the BF16-`Dst` model (so the bit-exact matches above are not
/// vacuous).
#[test]
fn lofi_and_fp32_dst_kernels_differ_from_the_hifi4_bf16_model() {
    if kit().is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (name, from, to) in [
        (
            "mul_lofi.toml",
            "fidelity = \"LoFi\"",
            "fidelity = \"HiFi4\"",
        ),
        (
            "matmul_lofi.toml",
            "fidelity = \"LoFi\"",
            "fidelity = \"HiFi4\"",
        ),
        ("mul_fp32dst.toml", "dst = \"fp32\"", "dst = \"bf16\""),
        ("matmul_fp32dst.toml", "dst = \"fp32\"", "dst = \"bf16\""),
    ] {
        let text = std::fs::read_to_string(program(name)).expect("program");
        assert!(text.contains(from), "{name}");
        let path = dir.join(format!("other-model-{name}"));
        std::fs::write(&path, text.replace(from, to)).expect("write");
        let (code, out, err) = bhemu_run(&path, true);
        assert_eq!(code, 1, "{name}: {out}{err}");
        let v = json_of(&out);
        assert_eq!(v["outputs"][0]["bit_exact"], false, "{name}: {out}");
        assert!(
            v["outputs"][0]["max_ulp"].as_u64().unwrap_or(0) >= 1,
            "{out}"
        );
    }
}

/// The raw-SFPU examples (add a constant, ReLU by predication, x*x+c by SFPMAD, integer
/// shift/add on BF16 bits and on Int32 tiles in a 32-bit Dst, SFPLUT, SFPSWAP, SFPLOADMACRO),
/// bit for bit against `bhemu run`'s references (crates/cli/src/sfpu_ref.rs), on one tile and
/// on all 140. The shift/add of a negative BF16 input lands on a NaN in `Dst`, which the
/// packer writes as infinity (its early conversion's rounding, `sfpu_ref::packed`).
#[test]
fn run_sfpu_examples_are_bit_exact_on_one_and_140_tiles() {
    if kit().is_none() {
        return;
    }
    for name in [
        "relu_sfpu.toml",
        "sfpu_add_const.toml",
        "sfpu_square_plus_c.toml",
        "sfpu_shift_add.toml",
        "sfpu_lut.toml",
        "sfpu_swap.toml",
        "sfpu_loadmacro.toml",
        "sfpu_int_shift_add.toml",
    ] {
        for tiles in ["1", "140"] {
            let (code, out, err) = bhemu_run(&on_tiles(name, tiles), true);
            assert_eq!(code, 0, "{name} on {tiles}: {out}{err}");
            assert_eq!(
                json_of(&out)["outputs"][0]["bit_exact"],
                true,
                "{name} on {tiles}: {out}"
            );
        }
    }
}

/// The compatibility layer's `.ttinsn W` emits W rotated left by 2 (the form in which a Tensix
/// instruction travels through a RISC-V core's instruction stream), for any W.
#[test]
fn ttinsn_macro_emits_the_word_rotated_left_by_two() {
    if kit().is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ttinsn");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let words = [0x0200_0000u32, 0xB20D_0000, 0x7000_E000, 0xC000_0003];
    let body: String = words
        .iter()
        .map(|w| format!("__asm__ __volatile__(\".ttinsn %0\" :: \"n\"(0x{w:08x}u));\n"))
        .collect();
    let src = dir.join("t.cc");
    std::fs::write(&src, format!("extern \"C\" void _start() {{\n{body}}}\n")).expect("write");
    let elf = dir.join("t.elf");
    let st = Command::new("riscv64-unknown-elf-g++")
        .args([
            "-march=rv32im_zicsr",
            "-mabi=ilp32",
            "-O2",
            "-nostdlib",
            "-nostartfiles",
        ])
        .args([
            "-Wl,-Ttext=0x1000",
            "-Wl,--no-warn-rwx-segments",
            "-include",
        ])
        .arg(root().join("scripts/kernel-kit/compat/ttinsn.h"))
        .arg(&src)
        .arg("-o")
        .arg(&elf)
        .status()
        .expect("run g++");
    assert!(st.success(), "g++ failed on {}", src.display());
    let img = ElfImage::read(&elf).expect("elf");
    let text = &img.code_sections[0].data;
    let got: Vec<u32> = text
        .chunks_exact(4)
        .take(words.len())
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let want: Vec<u32> = words.iter().map(|w| w.rotate_left(2)).collect();
    assert_eq!(got, want);
}

/// `bhemu run PROGRAM --trace FILE EXTRA...`: the trace read back as JSON.
fn traced_run(program: &Path, name: &str, extra: &[&str]) -> serde_json::Value {
    let kit = kit().expect("kit");
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let o = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .arg("run")
        .arg(program)
        .arg("--kit")
        .arg(&kit)
        .arg("--firmware")
        .arg(root().join(".cache/ttnn/firmware/blackhole-140"))
        .arg("--trace")
        .arg(&file)
        .args(extra)
        .output()
        .expect("run bhemu");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("written to"), "{err}");
    LAST_STDOUT.with(|s| *s.borrow_mut() = String::from_utf8_lossy(&o.stdout).into_owned());
    let text = std::fs::read_to_string(&file).expect("trace file");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("trace is not JSON: {e}"))
}

thread_local! {
    /// stdout of this thread's last `traced_run`.
    static LAST_STDOUT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Tracing changes nothing the program computes or how long it takes in simulated cycles.
#[test]
fn traced_run_has_the_same_cycles_and_verdict_as_untraced() {
    if kit().is_none() {
        return;
    }
    let (code, out, err) = bhemu_run(&program("dataflow_copy.toml"), true);
    assert_eq!(code, 0, "{out}{err}");
    let plain = json_of(&out);
    traced_run(
        &program("dataflow_copy.toml"),
        "same.trace.json",
        &["--json"],
    );
    let traced = json_of(&LAST_STDOUT.with(|s| s.borrow().clone()));
    assert_eq!(traced["cycles"], plain["cycles"]);
    assert_eq!(traced["outputs"], plain["outputs"]);
}

/// The track (pid, tid) named `track` of process `process`.
fn track(v: &serde_json::Value, process: &str, track: &str) -> (u64, u64) {
    let ev = v["traceEvents"].as_array().cloned().unwrap_or_default();
    let pid = ev
        .iter()
        .find(|e| e["name"] == "process_name" && e["args"]["name"] == process)
        .and_then(|e| e["pid"].as_u64())
        .unwrap_or_else(|| panic!("no process {process}"));
    let tid = ev
        .iter()
        .find(|e| e["name"] == "thread_name" && e["pid"] == pid && e["args"]["name"] == track)
        .and_then(|e| e["tid"].as_u64())
        .unwrap_or_else(|| panic!("no track {track} in {process}"));
    (pid, tid)
}

fn slices(v: &serde_json::Value, (pid, tid): (u64, u64)) -> Vec<(String, u64, u64)> {
    v["traceEvents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["ph"] == "X" && e["pid"] == pid && e["tid"] == tid)
        .map(|e| {
            let ts = e["ts"].as_u64().unwrap_or(0);
            (
                e["name"].as_str().unwrap_or("").to_string(),
                ts,
                ts + e["dur"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// The reader/writer copy traced: BRISC's kernel span names the reader's ELF and sits inside
/// firmware spans; NCRISC (writer) polls CB 0's tiles-received counter; each DRAM read of the
/// reader is a flow from tile (1,2)'s NoC0 track to the DRAM node's.
#[test]
fn trace_of_a_kernel_run_has_kernel_spans_cb_polls_and_noc_flows() {
    if kit().is_none() {
        return;
    }
    let v = traced_run(
        &program("dataflow_copy.toml"),
        "dataflow_copy.trace.json",
        &[],
    );
    let brisc = slices(&v, track(&v, "tile (1,2)", "BRISC"));
    let names: Vec<&str> = brisc.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names.len(), 3, "{brisc:?}");
    assert_eq!(names[0], "firmware");
    assert!(
        names[1].starts_with("kernel ") && names[1].ends_with("reader/brisc.elf"),
        "{brisc:?}"
    );
    assert_eq!(names[2], "firmware");
    assert_eq!(
        brisc[0].2, brisc[1].1,
        "the kernel starts where the firmware jumps to it"
    );
    let polls = slices(&v, track(&v, "tile (1,2)", "NCRISC stalls/polls"));
    assert!(
        polls
            .iter()
            .any(|p| p.0 == "polls CB 0 tiles-received counter"),
        "{polls:?}"
    );
    let ev = v["traceEvents"].as_array().cloned().unwrap_or_default();
    let (tile, noc0) = track(&v, "tile (1,2)", "NoC0");
    let (dram, dram_noc0) = track(&v, "node (17,12)", "NoC0");
    let starts: Vec<&serde_json::Value> = ev
        .iter()
        .filter(|e| e["ph"] == "s" && e["pid"] == tile && e["tid"] == noc0)
        .collect();
    let reads: Vec<&&serde_json::Value> = starts
        .iter()
        .filter(|e| e["name"] == "read 2048 B (1,2) -> (17,12)")
        .collect();
    assert_eq!(reads.len(), 8, "one read per page of `in`");
    for s in reads {
        let f = ev
            .iter()
            .find(|e| e["ph"] == "f" && e["id"] == s["id"])
            .unwrap_or_else(|| panic!("flow {} has no end", s["id"]));
        assert_eq!(
            (f["pid"].as_u64(), f["tid"].as_u64()),
            (Some(dram), Some(dram_noc0))
        );
        let kernel = &brisc[1];
        let ts = s["ts"].as_u64().unwrap_or(0);
        assert!(
            ts >= kernel.1 && ts < kernel.2,
            "read at {ts} inside the reader kernel {kernel:?}"
        );
    }
}

/// --trace-cycles and --trace-include narrow what is recorded.
#[test]
fn trace_options_select_cycles_and_track_kinds() {
    if kit().is_none() {
        return;
    }
    let v = traced_run(
        &program("dataflow_copy.toml"),
        "dataflow_copy.noc.trace.json",
        &["--trace-include", "noc", "--trace-cycles", "6400..6600"],
    );
    let ev = v["traceEvents"].as_array().cloned().unwrap_or_default();
    let timed: Vec<&serde_json::Value> = ev.iter().filter(|e| e["ph"] != "M").collect();
    assert!(!timed.is_empty());
    for e in timed {
        assert!(
            ["X", "s", "f"].contains(&e["ph"].as_str().unwrap_or("")),
            "{e}"
        );
        let ts = e["ts"].as_u64().unwrap_or(0);
        assert!((6400..6600).contains(&ts), "{e}");
        assert!(e["tid"] == 20 || e["tid"] == 21, "only NoC tracks: {e}");
    }
}

/// `bhemu run --check-hazards --json` on real kernels: the `hazards` field is present and
/// empty. The SFPU kernels read Dst (SFPLOAD / SFPLOADMACRO) after tt-llk's
/// `STALLWAIT(STALL_SFPU, MATH)` following the MOVA2D copy into Dst, so none of their reads
/// falls in a write's four-cycle shadow (Dst.md, Instruction scheduling); the Matrix Unit
/// kernels' Dst readers (the Matrix Unit itself, the packer) are stalled by the hardware.
#[test]
fn kit_programs_raise_no_dst_hazard() {
    let Some(kit) = kit() else {
        return;
    };
    for name in [
        "relu_sfpu.toml",
        "sfpu_loadmacro.toml",
        "sfpu_lut.toml",
        "add.toml",
        "matmul.toml",
        "matmul_fp32dst.toml",
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_bhemu"))
            .arg("run")
            .arg(program(name))
            .arg("--kit")
            .arg(&kit)
            .arg("--firmware")
            .arg(root().join(".cache/ttnn/firmware/blackhole-140"))
            .args(["--json", "--check-hazards"])
            .output()
            .expect("run bhemu");
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{name}: {out}");
        let v = json_of(&out);
        assert_eq!(v["hazards"], serde_json::json!([]), "{name}: {out}");
        assert_eq!(v["outputs"][0]["bit_exact"], true, "{name}: {out}");
    }
}

/// `bhemu run --tiles` overrides the program's `tiles`: the copy runs on the two tiles named,
/// each with its own inputs, and stays bit-exact.
#[test]
fn run_tiles_option_overrides_the_programs_tiles() {
    let Some(kit) = kit() else { return };
    let o = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .arg("run")
        .arg(program("dataflow_copy.toml"))
        .arg("--kit")
        .arg(&kit)
        .arg("--firmware")
        .arg(root().join(".cache/ttnn/firmware/blackhole-140"))
        .args(["--tiles", "1,2;3,4", "--json"])
        .output()
        .expect("run bhemu");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = json_of(&out);
    assert_eq!(v["tiles"], 2, "{out}");
    assert_eq!(v["outputs"][0]["bit_exact"], true, "{out}");
}
