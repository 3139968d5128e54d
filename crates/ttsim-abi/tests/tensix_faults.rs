//! docs/libttsim-abi.md "Tensix faults": a client is never left polling. Each fault kind runs in
//! a child process of this test binary (the library is a process-wide singleton), driven through
//! the C ABI as tt-umd drives it: TRISC0 of tile (1,2) runs a bare-metal program from its reset
//! pc that pushes Tensix instructions, waits for its FIFO to drain, and writes a marker to L1;
//! the client polls the marker. The parent checks what the client saw, how many reads it took,
//! and the report on stderr.
use std::process::Command;
use std::time::{Duration, Instant};

use ttsim::umd_client::UmdClient;

const CHILD: &str = "BHEMU_FAULT_CHILD";
const MARKER_ADDR: u32 = 0x100;
const MARKER: u32 = 0x600D_F000;
const SOFT_RESET: u32 = 0xFFB1_21B0;
const ALL_IN_RESET: u32 = 0x4_7800;
const TRISC0_RESET: u32 = 0x1000;
/// ZEROACC with `clear_mode` bits 3-4 set: undefined on Blackhole (docs/matrix-unit.md).
const ZEROACC_UNDOCUMENTED: u32 = 0x10C0_0000;
const TTNOP: u32 = 0x0200_0000;

// The few RV32I encodings the program needs (t0 = x5, t1 = x6, t2 = x7, t3 = x28, t4 = x29).
fn lui(rd: u32, imm20: u32) -> u32 {
    (imm20 << 12) | (rd << 7) | 0x37
}
fn sw(rs2: u32, imm: u32, rs1: u32) -> u32 {
    (((imm >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (2 << 12) | ((imm & 0x1f) << 7) | 0x23
}
fn lw(rd: u32, imm: u32, rs1: u32) -> u32 {
    ((imm & 0xfff) << 20) | (rs1 << 15) | (2 << 12) | (rd << 7) | 0x03
}
fn andi(rd: u32, rs1: u32, imm: u32) -> u32 {
    ((imm & 0xfff) << 20) | (rs1 << 15) | (7 << 12) | (rd << 7) | 0x13
}
/// `beq rs1, x0, -8` (back two instructions).
fn beqz_back8(rs1: u32) -> u32 {
    let off = (-8i32) as u32;
    (((off >> 12) & 1) << 31)
        | (((off >> 5) & 0x3f) << 25)
        | (rs1 << 15)
        | (((off >> 1) & 0xf) << 8)
        | (((off >> 11) & 1) << 7)
        | 0x63
}
const SPIN: u32 = 0x0000_006F; // jal x0, 0

/// TRISC0's program: push `words` to its Tensix FIFO, wait until the FIFO is empty
/// (`INSTRN_BUF_STATUS` bit 4), optionally read `load_from` first, then write the marker.
fn program(words: &[u32], load_from: Option<u32>) -> Vec<u32> {
    let mut p = vec![lui(5, 0xFFE40)];
    for &w in words {
        assert_eq!(w & 0xfff, 0, "pushed words must be lui-loadable");
        p.push(lui(6, w >> 12));
        p.push(sw(6, 0, 5));
    }
    if let Some(a) = load_from {
        p.push(lui(7, a >> 12));
        p.push(lw(28, a & 0xfff, 7));
    }
    p.push(lui(7, 0xFFB12));
    p.push(lw(28, 0xA8, 7));
    p.push(andi(28, 28, 16));
    p.push(beqz_back8(28));
    p.push(lui(29, MARKER >> 12));
    p.push(sw(29, MARKER_ADDR, 0));
    p.push(SPIN);
    p
}

/// The child: runs `kind`'s program and prints what the client saw.
fn child(kind: &str) {
    let prog = match kind {
        "tensix-undefined" => program(&[ZEROACC_UNDOCUMENTED, TTNOP], None),
        "core-unmapped" => program(&[TTNOP], Some(0xFFB0_5000)),
        _ => panic!("unknown fault kind {kind}"),
    };
    let mut c = UmdClient::open().expect("a Blackhole");
    let bytes: Vec<u8> = prog.iter().flat_map(|w| w.to_le_bytes()).collect();
    c.write32(1, 2, SOFT_RESET, ALL_IN_RESET);
    c.write(1, 2, 0x6000, &bytes);
    c.write32(1, 2, SOFT_RESET, ALL_IN_RESET & !TRISC0_RESET);
    for reads in 1..=200_000u64 {
        match c.read32(1, 2, MARKER_ADDR) {
            MARKER => {
                println!("client: marker after {reads} reads");
                return;
            }
            u32::MAX => {
                println!("client: device reads all-ones after {reads} reads");
                return;
            }
            _ => {}
        }
    }
    println!("client: still waiting after 200000 reads");
}

/// Runs the child for `kind` with extra environment; returns (stdout, stderr, wall time).
fn run_child(kind: &str, env: &[(&str, &str)]) -> (String, String, Duration) {
    let t0 = Instant::now();
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_entry", "--nocapture", "--test-threads=1"])
        .env(CHILD, kind)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "child failed: {o}\n{e}");
    (o, e, t0.elapsed())
}

/// The child's entry point; does nothing unless started by one of the tests below.
#[test]
fn child_entry() {
    if let Ok(kind) = std::env::var(CHILD) {
        child(&kind);
    }
}

/// Reads the client needed, from the child's line.
fn reads(stdout: &str, what: &str) -> u64 {
    // The test harness may print its own "test child_entry ... " before the child's words.
    let line = stdout
        .lines()
        .filter_map(|l| l.split_once("client: ").map(|(_, rest)| rest))
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no `{what}` line in: {stdout}"));
    line.split_whitespace()
        .rev()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no read count in {line:?}"))
}

#[test]
fn tensix_undefined_behaviour_is_reported_once_and_the_chip_goes_on() {
    let (o, e, wall) = run_child("tensix-undefined", &[]);
    let n = reads(&o, "marker after");
    assert!(n < 1000, "the client waited {n} reads");
    let lines: Vec<&str> = e
        .lines()
        .filter(|l| l.contains("undocumented ZEROACC bits"))
        .collect();
    assert_eq!(lines.len(), 1, "reported once: {e}");
    for part in ["(1,2)", "T0", "0x10c00000", "cycle"] {
        assert!(
            lines[0].contains(part),
            "`{part}` missing from {:?}",
            lines[0]
        );
    }
    assert!(wall < Duration::from_secs(20), "took {wall:?}");
}

/// Runs `kind` (with `env`) expecting a faulted device: the client sees all-ones within a few
/// reads, and stderr has one device-fault line naming `what`.
fn expect_fault_releases_the_client(kind: &str, env: &[(&str, &str)], what: &str) {
    let (o, e, _) = run_child(kind, env);
    let n = reads(&o, "all-ones after");
    assert!(n < 1000, "the client waited {n} reads");
    let fault = e
        .lines()
        .find(|l| l.contains("device fault"))
        .unwrap_or_else(|| panic!("no fault line: {e}"));
    assert!(fault.contains(what), "{fault}");
}

#[test]
fn tensix_undefined_behaviour_under_bhemu_strict_faults_the_device_and_releases_the_client() {
    expect_fault_releases_the_client(
        "tensix-undefined",
        &[("BHEMU_STRICT", "1")],
        "undocumented ZEROACC bits",
    );
}

#[test]
fn a_core_load_from_unmapped_space_faults_the_device_and_releases_the_client() {
    expect_fault_releases_the_client("core-unmapped", &[], "0xffb05000");
}
