//! Shared helpers of the RISC-V integration tests (`riscv_programs.rs`, `riscv_disasm.rs`,
//! `riscv_elf_errors.rs` include this file with `#[path]`). Cargo also builds it as a test target
//! of its own, which holds no tests.
//!
//! The cross toolchain is Debian's `gcc-riscv64-unknown-elf` (docs/blackhole-facts.md §12). When it is
//! missing the tests skip with a message, unless `BHEMU_REQUIRE_TOOLS=1` (set by scripts/test.sh
//! for CI), in which case they fail: a CI run must not pass by skipping.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const CROSS_CC: &str = "riscv64-unknown-elf-gcc";
pub const CROSS_OBJDUMP: &str = "riscv64-unknown-elf-objdump";

/// The `bhemu` binary built for this test run.
pub fn bhemu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bhemu"))
}

/// `examples/riscv` of the workspace.
pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/riscv")
}

/// A scratch directory under the target dir (`CARGO_TARGET_TMPDIR`), one per test binary and
/// purpose, so parallel test binaries never share outputs.
pub fn scratch(purpose: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(purpose);
    std::fs::create_dir_all(&d).expect("create scratch dir under the target dir");
    d
}

fn tool_works(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// True when the cross tools (and the host gcc) are usable. Otherwise prints the skip message, or
/// panics when `BHEMU_REQUIRE_TOOLS=1`.
pub fn have_tools() -> bool {
    let missing: Vec<&str> = [CROSS_CC, CROSS_OBJDUMP, "gcc"]
        .into_iter()
        .filter(|t| !tool_works(t))
        .collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!(
            "BHEMU_REQUIRE_TOOLS=1 but {} not found; install gcc-riscv64-unknown-elf \
             binutils-riscv64-unknown-elf (Debian) or run scripts/test.sh",
            missing.join(", ")
        );
    }
    eprintln!("skipped: {} not found", missing[0]);
    false
}

/// The programs of `examples/riscv`, sorted by name (without `.c`).
pub fn program_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(examples_dir())
        .expect("read examples/riscv")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_suffix(".c").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// The `-march` a program asks for with a comment "bhemu-march: <isa>"; default rv32im.
pub fn march_of(src: &str) -> String {
    src.lines()
        .find_map(|l| l.split("bhemu-march:").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or("rv32im")
        .to_string()
}

fn run_checked(cmd: &mut Command, what: &str) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Build `examples/riscv/<name>.c` for bare-metal RV32 into `dir/<name>.elf`, with the `-march`
/// its source asks for (`march_of`).
pub fn build_riscv(name: &str, dir: &Path) -> PathBuf {
    let src_path = examples_dir().join(format!("{name}.c"));
    let src = std::fs::read_to_string(&src_path).expect("read program source");
    cross_compile(&src_path, &march_of(&src), &dir.join(format!("{name}.elf")))
}

/// Cross-compile one C file with the examples' start code and linker script into `out` (flags as
/// in examples/riscv/build.sh). libgcc comes from the rv32im/ilp32 multilib because GCC has no
/// multilib for strings like rv32im_zba_zbb.
pub fn cross_compile(src_path: &Path, march: &str, out: &Path) -> PathBuf {
    let ex = examples_dir();
    let libgcc = run_checked(
        Command::new(CROSS_CC).args(["-march=rv32im", "-mabi=ilp32", "-print-libgcc-file-name"]),
        "print-libgcc-file-name",
    );
    let libgcc = String::from_utf8_lossy(&libgcc.stdout).trim().to_string();
    run_checked(
        Command::new(CROSS_CC)
            .arg(format!("-march={march}"))
            .args([
                "-mabi=ilp32",
                "-O2",
                "-nostdlib",
                "-nostartfiles",
                "-ffreestanding",
            ])
            .arg("-Wl,--no-warn-rwx-segments")
            .arg("-I")
            .arg(&ex)
            .arg("-T")
            .arg(ex.join("link.ld"))
            .arg("-o")
            .arg(out)
            .arg(ex.join("start.S"))
            .arg(src_path)
            .arg(libgcc),
        &format!("{CROSS_CC} {}", src_path.display()),
    );
    out.to_path_buf()
}

/// Build `examples/riscv/<name>.c` for the host into `dir/<name>.native`.
pub fn build_native(name: &str, dir: &Path) -> PathBuf {
    let ex = examples_dir();
    let out = dir.join(format!("{name}.native"));
    run_checked(
        Command::new("gcc")
            .args(["-O2", "-I"])
            .arg(&ex)
            .arg("-o")
            .arg(&out)
            .arg(ex.join(format!("{name}.c"))),
        &format!("gcc {name}.c"),
    );
    out
}

/// Run a native build: its decimal result lines (it must exit 0).
pub fn run_native(exe: &Path) -> Vec<u32> {
    let out = run_checked(&mut Command::new(exe), &exe.display().to_string());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            l.trim()
                .parse::<u32>()
                .unwrap_or_else(|_| panic!("bad native output line {l:?}"))
        })
        .collect()
}

/// Parse the words that `bhemu riscv --dump NAME` printed for `name`: the block starts with a
/// line `<name> @ 0x...` and continues with `  ADDR: WORD WORD ...` lines.
pub fn dumped_words(stdout: &str, name: &str) -> Vec<u32> {
    let mut words = Vec::new();
    let mut inside = false;
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix('<') {
            inside = rest.split('>').next() == Some(name);
            continue;
        }
        if !inside || !line.starts_with(' ') {
            inside = inside && line.starts_with(' ');
            continue;
        }
        if let Some((_, ws)) = line.split_once(':') {
            for w in ws.split_whitespace() {
                words.push(u32::from_str_radix(w, 16).expect("hex word in --dump output"));
            }
        }
    }
    words
}
