//! The kernel kit for the tests that run tt-metal programs: the repository root, the skip rule
//! (a message, or a failure under `BHEMU_REQUIRE_TOOLS=1`), and the kit built once per test
//! binary into the cargo tmpdir.
#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn require() -> bool {
    std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1")
}

/// `None`, saying why — or a failure when the tools are required.
pub fn skip(why: &str) -> Option<PathBuf> {
    if require() {
        panic!("BHEMU_REQUIRE_TOOLS=1 but {why}");
    }
    eprintln!("skipped: {why}");
    None
}

/// Builds the kit once per test binary run (into the cargo tmpdir); `None` to skip.
pub fn kit() -> Option<PathBuf> {
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
            _ => skip("scripts/kernel-kit/build.sh failed (apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf)"),
        }
    })
    .clone()
}

/// `bhemu run PROGRAM --kit KIT --firmware FW [--json]`: exit code, stdout, stderr.
pub fn bhemu_run(program: &Path, json: bool) -> (i32, String, String) {
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

/// An example program of `examples/kernels/programs`.
pub fn program(name: &str) -> PathBuf {
    root().join("examples/kernels/programs").join(name)
}

/// A copy of an example program with `tiles` replaced.
pub fn on_tiles(name: &str, tiles: &str) -> PathBuf {
    let text = std::fs::read_to_string(program(name)).expect("program");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{tiles}-{name}"));
    std::fs::write(
        &out,
        text.replace("tiles = \"1\"", &format!("tiles = \"{tiles}\"")),
    )
    .expect("write");
    out
}

/// `bhemu run --json`'s report, parsed (panics naming the text when it is not JSON).
pub fn json_of(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// The kit's build of kernel `name`'s `file` for `core`, as a launchable image.
pub fn kernel(
    dir: &Path,
    name: &str,
    core: bhemu_chip::Core,
    file: &str,
) -> std::sync::Arc<bhemu_chip::launch::KernelImage> {
    let img = bhemu_chip::elf::ElfImage::read(&dir.join(name).join(file)).expect("kernel ELF");
    std::sync::Arc::new(
        bhemu_chip::launch::KernelImage::from_elf(core, &img).expect("kernel image"),
    )
}
