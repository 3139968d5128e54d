//! "each program's result must equal the same C source compiled natively
//! and run on the host". Every `examples/riscv/*.c` is built twice — bare-metal RV32 with Debian's
//! `riscv64-unknown-elf-gcc` and natively with `gcc` — and the list of values it reports (see
//! examples/riscv/bhtest.h) must be identical, with `bhemu riscv` exiting 0 (tohost = 1, i.e.
//! every CHECK in the program held on the emulated hart too).
//!
//! Skips with "skipped: riscv64-unknown-elf-gcc not found" when the toolchain is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1` (CI), where that is a failure.
#[path = "common/riscv.rs"]
mod common;

use common::*;

/// Build and run one program both ways; compare.
fn check_program(name: &str) {
    if !have_tools() {
        return;
    }
    let dir = scratch("riscv-programs");
    let elf = build_riscv(name, &dir);
    let native = run_native(&build_native(name, &dir));
    assert!(!native.is_empty(), "{name}: native build reported nothing");

    let out = bhemu()
        .arg("riscv")
        .arg(&elf)
        .args(["--dump", "results_len", "--dump", "results"])
        .output()
        .expect("run bhemu");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{name}: bhemu riscv exited with {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    let len = dumped_words(&stdout, "results_len");
    assert_eq!(
        len.len(),
        1,
        "{name}: no results_len in --dump output:\n{stdout}"
    );
    let mut results = dumped_words(&stdout, "results");
    assert!(
        results.len() >= len[0] as usize,
        "{name}: results shorter than results_len"
    );
    results.truncate(len[0] as usize);
    assert_eq!(
        results, native,
        "{name}: RISC-V results (left) differ from native (right)"
    );
    // The statistics line is part of the contract of `bhemu riscv`.
    for word in ["instructions", "cycles", "MIPS"] {
        assert!(
            stderr.contains(word),
            "{name}: stderr lacks {word:?}:\n{stderr}"
        );
    }
}

macro_rules! programs {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { check_program(stringify!($name)); } )*
        /// Every program of examples/riscv has a test above (so a new one cannot be forgotten).
        #[test]
        fn every_example_is_tested() {
            let listed: Vec<&str> = vec![$(stringify!($name)),*];
            let on_disk = program_names();
            for p in &on_disk {
                assert!(listed.contains(&p.as_str()), "examples/riscv/{p}.c has no test in riscv_programs.rs");
            }
            // The suite keeps at least ten self-checking programs.
            assert!(on_disk.len() >= 10, "only {} programs in examples/riscv", on_disk.len());
        }
    };
}

programs!(
    atomics, bitmanip, crc, demo, fixedpoint, hashtable, int64, matmul, primes, prng, recursion,
    sort, strings,
);

/// The atomics program must really use Zaamo and never LR/SC (Blackhole has none: docs/blackhole-facts.md §10),
/// and the bit-manipulation program must really contain Zba/Zbb instructions — otherwise the
/// comparison above would not test what its name says.
#[test]
fn programs_use_the_instructions_they_are_about() {
    if !have_tools() {
        return;
    }
    let dir = scratch("riscv-programs-isa");
    let mnemonics = |name: &str| -> Vec<String> {
        let elf = build_riscv(name, &dir);
        let out = std::process::Command::new(CROSS_OBJDUMP)
            .arg("-d")
            .arg(&elf)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split('\t').nth(2).map(|m| m.trim().to_string()))
            .collect()
    };
    let atomics = mnemonics("atomics");
    for m in ["amoadd.w", "amoand.w", "amoor.w", "amoxor.w", "amoswap.w"] {
        assert!(
            atomics.iter().any(|x| x.starts_with(m)),
            "atomics.c: no {m}"
        );
    }
    assert!(
        !atomics
            .iter()
            .any(|x| x.starts_with("lr.") || x.starts_with("sc.")),
        "atomics.c uses LR/SC"
    );
    let bits = mnemonics("bitmanip");
    for m in [
        "clz", "ctz", "cpop", "rol", "ror", "min", "max", "minu", "maxu", "andn", "orn", "xnor",
        "sext.b", "sext.h", "zext.h", "rev8", "orc.b", "sh1add", "sh2add", "sh3add",
    ] {
        assert!(bits.iter().any(|x| x == m), "bitmanip.c: no {m}");
    }
    let int64 = std::fs::read(build_riscv("int64", &dir)).unwrap();
    let text = String::from_utf8_lossy(&int64);
    for f in ["__divdi3", "__udivdi3", "__moddi3", "__umoddi3"] {
        assert!(text.contains(f), "int64.c does not link libgcc's {f}");
    }
}

/// `bhemu riscv` reports a failing CHECK through tohost: exit status = failure number (the line).
#[test]
fn failing_program_exits_with_its_failure_number() {
    if !have_tools() {
        return;
    }
    let dir = scratch("riscv-programs-fail");
    let src = dir.join("fail.c");
    std::fs::write(
        &src,
        "#include \"bhtest.h\"\nint main(void) { report(1); return 7; }\n",
    )
    .unwrap();
    let elf = cross_compile(&src, "rv32im", &dir.join("fail.elf"));
    let out = bhemu().arg("riscv").arg(&elf).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("failure 7"));
}

/// The committed `crates/cli/assets/riscv-demo.elf` (what `bhemu demo` runs) still computes what
/// examples/riscv/demo.c computes natively; catches a demo.c edit without
/// scripts/build-riscv-demo.sh. Needs only the host gcc.
#[test]
fn embedded_demo_elf_matches_its_source() {
    let gcc_ok = std::process::Command::new("gcc")
        .arg("--version")
        .output()
        .map(|o| o.status.success());
    if !gcc_ok.unwrap_or(false) {
        assert!(
            std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "BHEMU_REQUIRE_TOOLS=1 but gcc not found"
        );
        eprintln!("skipped: gcc not found");
        return;
    }
    let dir = scratch("riscv-programs-demo");
    let native = run_native(&build_native("demo", &dir));
    let elf = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/riscv-demo.elf");
    let out = bhemu()
        .arg("riscv")
        .arg(&elf)
        .args(["--dump", "results_len", "--dump", "results"])
        .output()
        .expect("run bhemu");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let len = dumped_words(&stdout, "results_len");
    let mut results = dumped_words(&stdout, "results");
    results.truncate(len.first().copied().unwrap_or(0) as usize);
    assert_eq!(
        results, native,
        "assets/riscv-demo.elf is stale: run scripts/build-riscv-demo.sh"
    );
}
