//! `bhemu riscv` and `bhemu disasm --riscv` "reject malformed, truncated, 64-bit
//! or non-RISC-V files with a one-line reason" — exit status 2, one stderr line naming the file,
//! and never a panic. Files that need no cross compiler run everywhere; the 64-bit RISC-V file
//! and truncations of a real RV32 program need the toolchain (skip rules in common/riscv.rs).
#[path = "common/riscv.rs"]
mod common;

use std::path::Path;

use common::*;

/// Both commands on `file`: exit 2 and one line on stderr that names the file and contains `why`.
fn assert_refused(file: &Path, why: &str) {
    for args in [vec!["riscv"], vec!["disasm", "--riscv"]] {
        let out = bhemu().args(&args).arg(file).output().expect("run bhemu");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?} {}: {stderr}",
            file.display()
        );
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{args:?}: not one line: {stderr}"
        );
        assert!(
            stderr.contains(&file.display().to_string()),
            "{args:?}: file not named: {stderr}"
        );
        assert!(
            stderr.contains(why),
            "{args:?}: expected {why:?} in {stderr}"
        );
    }
}

#[test]
fn zero_length_file() {
    let f = scratch("riscv-elf-errors").join("empty.elf");
    std::fs::write(&f, b"").unwrap();
    assert_refused(&f, "empty file");
}

#[test]
fn garbage_file() {
    let f = scratch("riscv-elf-errors").join("garbage.elf");
    std::fs::write(&f, b"#!/bin/sh\necho this is not an ELF file\n").unwrap();
    assert_refused(&f, "not an ELF file");
}

#[test]
fn missing_file() {
    let f = scratch("riscv-elf-errors").join("does-not-exist.elf");
    assert_refused(&f, "cannot read file");
}

#[test]
fn truncated_header() {
    let f = scratch("riscv-elf-errors").join("trunc-header.elf");
    // A valid RV32 ident followed by half a header.
    let mut b = vec![0x7f, b'E', b'L', b'F', 1, 1, 1, 0];
    b.resize(30, 0);
    std::fs::write(&f, &b).unwrap();
    assert_refused(&f, "truncated or malformed");
}

#[test]
fn host_x86_binary() {
    let f = Path::new("/bin/true");
    if !f.exists() {
        eprintln!("skipped: no /bin/true");
        return;
    }
    // A 64-bit host binary is refused for its class before its machine is looked at.
    let out = bhemu().arg("riscv").arg(f).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("64-bit ELF") || stderr.contains("is not RISC-V"),
        "{stderr}"
    );
}

#[test]
fn x86_32bit_object_is_refused_for_its_machine() {
    // A hand-made 32-bit little-endian header with e_machine = EM_386 (3).
    let f = scratch("riscv-elf-errors").join("x86.elf");
    let mut b = vec![0x7f, b'E', b'L', b'F', 1, 1, 1, 0];
    b.resize(52, 0);
    b[16] = 2; // ET_EXEC
    b[18] = 3; // EM_386
    b[20] = 1; // e_version
    b[40] = 52; // e_ehsize
    std::fs::write(&f, &b).unwrap();
    assert_refused(&f, "machine 3 (x86) is not RISC-V");
}

#[test]
fn riscv64_and_truncated_programs() {
    if !have_tools() {
        return;
    }
    let dir = scratch("riscv-elf-errors-tools");
    let src = dir.join("t.c");
    std::fs::write(&src, "void _start(void) { for (;;) { } }\n").unwrap();
    let elf64 = dir.join("t64.elf");
    let ok = std::process::Command::new(CROSS_CC)
        .args(["-march=rv64imac", "-mabi=lp64", "-nostdlib", "-O2", "-o"])
        .arg(&elf64)
        .arg(&src)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    assert_refused(&elf64, "64-bit ELF");

    // Every prefix of a real program (sampled) is refused cleanly.
    let full = std::fs::read(build_riscv("sort", &dir)).unwrap();
    let cut = dir.join("cut.elf");
    let step = (full.len() / 40).max(1);
    for len in (1..full.len()).step_by(step) {
        std::fs::write(&cut, &full[..len]).unwrap();
        for args in [vec!["riscv"], vec!["disasm", "--riscv"]] {
            let out = bhemu().args(&args).arg(&cut).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("panicked"), "{args:?} len {len}: {stderr}");
            // Cut in the symbol table or section headers (at the end of the file) is an error;
            // any cut is at least never a crash.
            assert!(
                out.status.code().is_some(),
                "{args:?} len {len}: killed by a signal"
            );
        }
    }
}

#[test]
fn segment_outside_ram_is_an_error() {
    if !have_tools() {
        return;
    }
    let dir = scratch("riscv-elf-errors-ram");
    let elf = build_riscv("sort", &dir);
    let out = bhemu()
        .arg("riscv")
        .arg(&elf)
        .args(["--ram", "0:1M"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("lies outside RAM 0x00000000..0x00100000"),
        "{stderr}"
    );
    let out = bhemu()
        .arg("riscv")
        .arg(&elf)
        .args(["--ram", "nonsense"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let out = bhemu()
        .arg("riscv")
        .arg(&elf)
        .args(["--dump", "no_such_symbol"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no symbol \"no_such_symbol\""));
}
