//! The official RISC-V ISA tests (github.com/riscv-software-src/riscv-tests, "p" environment)
//! on the hart, when `BHEMU_RISCV_TESTS` names a checkout (with `env/` from riscv-test-env) and
//! the cross gcc is installed; skipped otherwise, as CI does not fetch them.
//!
//! Every test of rv32ui, rv32um, rv32ua, rv32uzba, rv32uzbb, rv32uzbkb and rv32mi must pass
//! except those in [`EXPECTED_FAILURES`], each of which tests something the babies do not have.
use std::path::{Path, PathBuf};
use std::process::Command;

use bhemu_rv::{FlatRam, Hart, HartConfig, RunExit};

const SUITES: [&str; 7] = [
    "rv32ui",
    "rv32um",
    "rv32ua",
    "rv32uzba",
    "rv32uzbb",
    "rv32uzbkb",
    "rv32mi",
];

/// (suite-test, why it cannot pass on a baby core).
const EXPECTED_FAILURES: [(&str, &str); 10] = [
    (
        "rv32ui-ma_data",
        "misaligned data accesses trap (MisalignedAccess::Trap)",
    ),
    ("rv32ua-lrsc", "no LR/SC (InstructionSet.md, Zaamo)"),
    (
        "rv32uzbkb-packh",
        "packh not implemented (InstructionSet.md)",
    ),
    ("rv32uzbkb-zip", "zip not implemented (InstructionSet.md)"),
    (
        "rv32uzbkb-unzip",
        "unzip not implemented (InstructionSet.md)",
    ),
    (
        "rv32mi-sbreak",
        "ebreak pauses the core instead of trapping",
    ),
    ("rv32mi-breakpoint", "no trigger CSRs (tselect, tdata*)"),
    ("rv32mi-pmpaddr", "no PMP"),
    (
        "rv32mi-illegal",
        "the all-zero word is a .ttinsn, not an illegal instruction",
    ),
    (
        "rv32mi-csr",
        "misa reads 0x40201123 (claims F) as on hardware (CSRs.md)",
    ),
];

fn le32(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn le16(b: &[u8], o: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?) as usize)
}

/// Loads the PT_LOAD segments of a 32-bit little-endian ELF; returns the entry point.
fn load_elf(elf: &[u8], ram: &mut FlatRam) -> Option<u32> {
    let (phoff, phentsize, phnum) = (le32(elf, 28)? as usize, le16(elf, 42)?, le16(elf, 44)?);
    for i in 0..phnum {
        let p = phoff + i * phentsize;
        if le32(elf, p)? == 1 {
            let (off, vaddr, filesz) = (
                le32(elf, p + 4)? as usize,
                le32(elf, p + 8)?,
                le32(elf, p + 16)?,
            );
            ram.load_bytes(vaddr, elf.get(off..off + filesz as usize)?)
                .ok()?;
        }
    }
    le32(elf, 24)
}

fn run_one(elf_path: &Path) -> Result<(), String> {
    let nm = Command::new("riscv64-unknown-elf-nm")
        .arg(elf_path)
        .output()
        .map_err(|e| e.to_string())?;
    let tohost = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .find_map(|l| {
            l.strip_suffix(" D tohost")
                .and_then(|a| u32::from_str_radix(a, 16).ok())
        })
        .ok_or("no tohost symbol")?;
    let elf = std::fs::read(elf_path).map_err(|e| e.to_string())?;
    let mut ram = FlatRam::new(0x8000_0000, 1 << 20);
    let entry = load_elf(&elf, &mut ram).ok_or("bad ELF")?;
    ram.set_tohost(tohost);
    let mut hart = Hart::new(HartConfig {
        reset_pc: entry,
        ..HartConfig::default()
    });
    match (hart.run(&mut ram, 1_000_000), ram.tohost_value()) {
        (RunExit::Stop, Some(1)) => Ok(()),
        (RunExit::Stop, Some(v)) => Err(format!("failed test {}", v >> 1)),
        (exit, _) => Err(format!("{exit:?}")),
    }
}

#[test]
fn official_riscv_tests_pass_except_what_the_babies_lack() {
    let Ok(root) = std::env::var("BHEMU_RISCV_TESTS") else {
        eprintln!("skipped: set BHEMU_RISCV_TESTS to a riscv-tests checkout");
        return;
    };
    let root = PathBuf::from(root);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("riscv-tests");
    std::fs::create_dir_all(&out).unwrap();
    let mut problems = Vec::new();
    let mut passed = 0;
    for suite in SUITES {
        let mut sources: Vec<PathBuf> = std::fs::read_dir(root.join("isa").join(suite))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "S"))
            .collect();
        sources.sort();
        for src in sources {
            let name = format!("{suite}-{}", src.file_stem().unwrap().to_string_lossy());
            let elf = out.join(&name);
            let st = Command::new("riscv64-unknown-elf-gcc")
                .args([
                    "-march=rv32ima_zicsr_zifencei_zba_zbb_zbkb",
                    "-mabi=ilp32",
                    "-static",
                ])
                .args([
                    "-mcmodel=medany",
                    "-fvisibility=hidden",
                    "-nostdlib",
                    "-nostartfiles",
                ])
                .arg("-I")
                .arg(root.join("env/p"))
                .arg("-I")
                .arg(root.join("isa/macros/scalar"))
                .arg("-T")
                .arg(root.join("env/p/link.ld"))
                .arg(&src)
                .arg("-o")
                .arg(&elf)
                .status()
                .unwrap();
            assert!(st.success(), "building {name}");
            let expected_fail = EXPECTED_FAILURES.iter().any(|(n, _)| *n == name);
            match (run_one(&elf), expected_fail) {
                (Ok(()), false) => passed += 1,
                (Err(_), true) => {}
                (Ok(()), true) => problems.push(format!("{name}: passes but is listed as failing")),
                (Err(e), false) => problems.push(format!("{name}: {e}")),
            }
        }
    }
    eprintln!(
        "riscv-tests: {passed} passed, {} expected failures",
        EXPECTED_FAILURES.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
