//! The differential runner end to end through the `bhemu` binary: the hidden `sim-worker`
//! subcommand on bhemu's own `libttsim.so` (and on the reference simulator when one is
//! installed), and `bhemu run PROGRAM --reference LIB` on the `add` kit program.
//!
//! The reference is found through `BHEMU_REFERENCE_LIB`, else `.cache/reference/sim/libttsim.so`
//! (`scripts/build-reference.sh`); without it those tests print "skipped" and pass.
#[path = "common/kit.rs"]
mod kit_common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use kit_common::{kit, root};

fn bhemu() -> &'static str {
    env!("CARGO_BIN_EXE_bhemu")
}

fn reference() -> Option<PathBuf> {
    let p = std::env::var_os("BHEMU_REFERENCE_LIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".cache/reference/sim/libttsim.so"));
    if p.is_file() {
        Some(p)
    } else {
        eprintln!(
            "skipped: no reference simulator at {} (scripts/build-reference.sh, or set BHEMU_REFERENCE_LIB)",
            p.display()
        );
        None
    }
}

/// bhemu's own library, which cargo builds beside the binary (bhemu links the same crate).
fn own_library() -> Option<PathBuf> {
    let dir = Path::new(bhemu()).parent()?;
    [dir.join("deps/libttsim.so"), dir.join("libttsim.so")]
        .into_iter()
        .find(|p| p.is_file())
}

fn worker(lib: &Path, job: &str) -> Output {
    let mut c = Command::new(bhemu())
        .args(["sim-worker", "--lib"])
        .arg(lib)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(job.as_bytes()).unwrap();
    c.wait_with_output().unwrap()
}

#[test]
fn sim_worker_with_a_library_path_that_does_not_exist_fails_with_a_message_not_a_panic() {
    let o = worker(Path::new("/nonexistent/libttsim.so"), r#"{"ops":[]}"#);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        "bhemu: sim-worker: /nonexistent/libttsim.so: no such file"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn sim_worker_is_hidden_from_help() {
    let o = Command::new(bhemu()).arg("--help").output().unwrap();
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("sim-worker"));
}

/// DRAM bank 0 written through its translated port 0 (17,12) reads back through port 1
/// (17,13) and bank 5 at (18,15): the addressing `bhemu run` gives its kernels as `dram_x`,
/// `dram_y`.
const DRAM_JOB: &str = r#"{"ops":[
 {"op":"write","at":{"dram":{"bank":0}},"addr":1048576,"hex":"0123456789abcdeffedcba9876543210"},
 {"op":"read","name":"bank0","at":{"dram":{"bank":0}},"addr":1048576,"len":16},
 {"op":"read","name":"port1","at":{"tile":{"x":17,"y":13}},"addr":1048576,"len":16},
 {"op":"write","at":{"dram":{"bank":5}},"addr":4096,"hex":"aa55"},
 {"op":"read","name":"bank5","at":{"tile":{"x":18,"y":15}},"addr":4096,"len":2}]}"#;

const DRAM_ANSWER: &str = r#"bhemu-sim-worker-answer: {"reads":[{"name":"bank0","hex":"0123456789abcdeffedcba9876543210"},{"name":"port1","hex":"0123456789abcdeffedcba9876543210"},{"name":"bank5","hex":"aa55"}],"boot_clocks":0,"run_clocks":0,"clocks":3,"boot_us":0,"run_us":0}"#;

fn answer_line(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .find(|l| l.starts_with("bhemu-sim-worker-answer: "))
        .unwrap_or("")
        .to_string()
}

#[test]
fn dram_bytes_written_through_the_worker_read_back_on_bhemus_library() {
    let Some(lib) = own_library() else {
        return eprintln!("skipped: no libttsim.so beside {}", bhemu());
    };
    let o = worker(&lib, DRAM_JOB);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(answer_line(&o), DRAM_ANSWER);
}

#[test]
fn dram_bytes_written_through_the_worker_read_back_on_the_reference() {
    let Some(lib) = reference() else { return };
    let o = worker(&lib, DRAM_JOB);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    assert_eq!(answer_line(&o), DRAM_ANSWER);
}

#[test]
fn the_add_program_runs_on_bhemu_and_the_reference_and_every_output_byte_is_counted() {
    let Some(lib) = reference() else { return };
    let Some(kit) = kit() else { return };
    let o = Command::new(bhemu())
        .current_dir(root())
        .args(["run", "examples/kernels/programs/add.toml", "--reference"])
        .arg(&lib)
        .arg("--kit")
        .arg(&kit)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    eprintln!("{out}{}", String::from_utf8_lossy(&o.stderr));
    // 0: all equal, 1: some differ (the Matrix Unit arithmetic is being rewritten; the counts
    // are printed, not asserted). 4 would be a refusal, 2 a bhemu failure.
    assert!(matches!(o.status.code(), Some(0 | 1)), "{:?}", o.status);
    assert!(out.contains("tiles: each of the 1 answers with its own NOC_NODE_ID on both"));
    // 4 pages of 2048 bytes of bf16.
    let total = out.lines().find(|l| l.starts_with("total: ")).unwrap();
    assert!(
        total.starts_with("total: compared 4096 elements (8192 bytes): "),
        "{total}"
    );
}
