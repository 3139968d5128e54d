//! `bhemu run` of the kernel kit's example programs (`examples/kernels/programs`): bit-exact
//! verdicts on one and 140 tiles, the errors it reports (CB deadlocks, bad fields), the kit's
//! build of every example kernel, and options that change the run.
//!
//! Skips with a message when the firmware or the cross compiler is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1` (then it fails and says what to run).
use crate::kit_common::*;
use bhemu_chip::elf::ElfImage;
use bhemu_chip::launch::{self};
use bhemu_chip::Core;
use std::path::Path;
use std::process::Command;

/// `bhemu run --json` of `path`, which must end with exit status 0 and every output bit for
/// bit equal to its reference on every tile (`what` names the run in failures); its JSON.
fn run_bit_exact(path: &Path, what: &str) -> serde_json::Value {
    let (code, out, err) = bhemu_run(path, true);
    assert_eq!(code, 0, "{what}: {out}{err}");
    let v = json_of(&out);
    let outputs = v["outputs"].as_array().cloned().unwrap_or_default();
    assert!(!outputs.is_empty(), "{what}: no outputs: {out}");
    for o in &outputs {
        assert_eq!(o["bit_exact"], true, "{what}: {out}");
        if !o["max_ulp"].is_null() {
            assert_eq!(o["max_ulp"], 0, "{what}: {out}"); // float outputs only
        }
        assert_eq!(o["mismatched_tiles"], 0, "{what}: {out}");
    }
    v
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
        let v = run_bit_exact(&path, "dataflow_copy");
        assert_eq!(v["tiles"], tiles);
        assert_eq!(v["finished"], true);
        assert_eq!(v["outputs"][0]["pcc"], 1.0);
        assert!(v["cycles"].as_u64().unwrap_or(0) > 0, "{v}");
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
        let v = run_bit_exact(&path, "compute_copy");
        assert_eq!(v["tiles"], tiles);
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
        run_bit_exact(&program(name), name);
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
        run_bit_exact(&on_tiles(name, "all"), &format!("{name} on 140 tiles"));
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
/// bit for bit against `bhemu run`'s references (crates/refmath/src/sfpu.rs), on one tile and
/// on all 140. The shift/add of a negative BF16 input lands on a NaN in `Dst`, which the
/// packer writes as infinity (its early conversion's rounding, `bhemu_refmath::sfpu::packed`).
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
            run_bit_exact(&on_tiles(name, tiles), &format!("{name} on {tiles}"));
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
