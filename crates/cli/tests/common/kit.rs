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
