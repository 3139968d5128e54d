//! `bhemu riscv` behaviours beyond pass/fail: `--max-insns` (exit status 3),
//! `--trace`, `ebreak` (a debug pause on Blackhole: the hart halts and bhemu reports it), a hart
//! error (exit status 2, never a panic), `--ram`, `--dump`, and `bhemu demo`'s embedded program.
#[path = "common/riscv.rs"]
mod common;

use std::path::PathBuf;

use common::*;

/// Assemble a tiny bare-metal program (entry `_start` at 0x80000000) with a `tohost` symbol.
fn assemble(name: &str, body: &str) -> Option<PathBuf> {
    if !have_tools() {
        return None;
    }
    let dir = scratch("riscv-cli");
    let src = dir.join(format!("{name}.S"));
    let text = format!(
        "    .section .text.init, \"ax\"\n    .globl _start\n_start:\n{body}\n\
         \n    .section .tohost, \"aw\"\n    .balign 8\n    .globl tohost\ntohost: .dword 0\n\
         \n    .data\n    .globl value\nvalue: .word 0x11223344, 0x55667788\n"
    );
    std::fs::write(&src, text).unwrap();
    let elf = dir.join(format!("{name}.elf"));
    let ok = std::process::Command::new(CROSS_CC)
        .args(["-march=rv32im", "-mabi=ilp32", "-nostdlib", "-nostartfiles"])
        .arg("-Wl,--no-warn-rwx-segments")
        .arg("-T")
        .arg(examples_dir().join("link.ld"))
        .arg("-o")
        .arg(&elf)
        .arg(&src)
        .status()
        .unwrap()
        .success();
    assert!(ok, "assembling {name}.S");
    Some(elf)
}

fn run(args: &[&str], elf: &PathBuf) -> (Option<i32>, String, String) {
    let out = bhemu().arg("riscv").arg(elf).args(args).output().unwrap();
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(!e.contains("panicked"), "{e}");
    (out.status.code(), o, e)
}

#[test]
fn max_insns_exits_with_status_3() {
    let Some(elf) = assemble("spin", "1:  j 1b") else {
        return;
    };
    let (code, _, e) = run(&["--max-insns", "1000"], &elf);
    assert_eq!(code, Some(3), "{e}");
    assert!(
        e.contains("--max-insns") && e.contains("1,000 instructions retired"),
        "{e}"
    );
}

#[test]
fn ebreak_halts_and_is_reported() {
    let Some(elf) = assemble("brk", "    li a0, 5\n    ebreak") else {
        return;
    };
    let (code, _, e) = run(&[], &elf);
    assert_eq!(code, Some(0), "{e}");
    assert!(e.contains("halted at ebreak, pc=0x80000004"), "{e}");
}

#[test]
fn hart_error_exits_with_status_2() {
    // A load from an address outside RAM with no trap handler installed: a typed hart error.
    let Some(elf) = assemble("fault", "    li t0, 0x10\n    lw a0, 0(t0)\n1:  j 1b") else {
        return;
    };
    let (code, _, e) = run(&[], &elf);
    assert_eq!(code, Some(2), "{e}");
    assert!(e.contains("hart error"), "{e}");
    assert!(
        e.contains("instructions retired"),
        "statistics still printed: {e}"
    );
}

#[test]
fn tohost_failure_code_and_clamping() {
    let body = "    li t0, (300 << 1) | 1\n    la t1, tohost\n    sw t0, 0(t1)\n1:  j 1b";
    let Some(elf) = assemble("fail300", body) else {
        return;
    };
    let (code, _, e) = run(&[], &elf);
    assert_eq!(code, Some(255), "{e}");
    assert!(e.contains("failure 300"), "{e}");
}

#[test]
fn trace_prints_each_instruction() {
    let body = "    li a0, 1\n    la t1, tohost\n    sw a0, 0(t1)\n1:  j 1b";
    let Some(elf) = assemble("trace", body) else {
        return;
    };
    let (code, o, e) = run(&["--trace"], &elf);
    assert_eq!(code, Some(0), "{e}");
    let lines: Vec<&str> = o.lines().collect();
    assert!(lines.len() >= 4, "{o}");
    assert!(
        lines[0].starts_with("80000000:\t00100513\tli\t")
            || lines[0].starts_with("80000000:\t00100513\taddi\t"),
        "{o}"
    );
    assert!(o.contains("\tsw\t"), "{o}");
}

#[test]
fn dump_prints_symbol_words() {
    let body = "    li a0, 1\n    la t1, tohost\n    sw a0, 0(t1)\n1:  j 1b";
    let Some(elf) = assemble("dump", body) else {
        return;
    };
    let (code, o, e) = run(&["--dump", "value:8", "--dump", "tohost"], &elf);
    assert_eq!(code, Some(0), "{e}");
    assert_eq!(
        dumped_words(&o, "value"),
        vec![0x1122_3344, 0x5566_7788],
        "{o}"
    );
    assert_eq!(dumped_words(&o, "tohost"), vec![1], "{o}");
}

#[test]
fn ram_option_moves_and_sizes_the_ram() {
    let body = "    li a0, 1\n    la t1, tohost\n    sw a0, 0(t1)\n1:  j 1b";
    let Some(elf) = assemble("ramok", body) else {
        return;
    };
    let (code, _, e) = run(&["--ram", "0x80000000:0x100000"], &elf);
    assert_eq!(code, Some(0), "{e}");
    // 64 KiB is too small for link.ld's layout (the stack symbol is at +1 MiB, but this program
    // only needs its code and data): still fine, since nothing touches the stack.
    let (code, _, e) = run(&["--ram", "0x80000000:64K"], &elf);
    assert_eq!(code, Some(0), "{e}");
}

#[test]
fn demo_runs_and_passes() {
    // The embedded demo needs no toolchain.
    let out = bhemu().arg("demo").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("result: PASS (every self-check held")
            && stdout.contains("0xcbf43926")
            && stdout.contains("MIPS"),
        "{stdout}"
    );
}
