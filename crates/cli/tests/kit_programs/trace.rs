//! `bhemu run --trace` of the kernel kit's programs: the trace does not change the run, and holds
//! kernel spans, CB polls and NoC flows on the tracks its options select.
//!
//! Skips with a message when the firmware or the cross compiler is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1` (then it fails and says what to run).
use crate::kit_common::*;
use std::path::Path;
use std::process::Command;

/// `bhemu run PROGRAM --trace FILE EXTRA...`: the trace read back as JSON.
fn traced_run(program: &Path, name: &str, extra: &[&str]) -> serde_json::Value {
    let kit = kit().expect("kit");
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let o = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .arg("run")
        .arg(program)
        .arg("--kit")
        .arg(&kit)
        .arg("--firmware")
        .arg(root().join(".cache/ttnn/firmware/blackhole-140"))
        .arg("--trace")
        .arg(&file)
        .args(extra)
        .output()
        .expect("run bhemu");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("written to"), "{err}");
    LAST_STDOUT.with(|s| *s.borrow_mut() = String::from_utf8_lossy(&o.stdout).into_owned());
    let text = std::fs::read_to_string(&file).expect("trace file");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("trace is not JSON: {e}"))
}

thread_local! {
    /// stdout of this thread's last `traced_run`.
    static LAST_STDOUT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Tracing changes nothing the program computes or how long it takes in simulated cycles.
#[test]
fn traced_run_has_the_same_cycles_and_verdict_as_untraced() {
    if kit().is_none() {
        return;
    }
    let (code, out, err) = bhemu_run(&program("dataflow_copy.toml"), true);
    assert_eq!(code, 0, "{out}{err}");
    let plain = json_of(&out);
    traced_run(
        &program("dataflow_copy.toml"),
        "same.trace.json",
        &["--json"],
    );
    let traced = json_of(&LAST_STDOUT.with(|s| s.borrow().clone()));
    assert_eq!(traced["cycles"], plain["cycles"]);
    assert_eq!(traced["outputs"], plain["outputs"]);
}

/// The track (pid, tid) named `track` of process `process`.
fn track(v: &serde_json::Value, process: &str, track: &str) -> (u64, u64) {
    let ev = v["traceEvents"].as_array().cloned().unwrap_or_default();
    let pid = ev
        .iter()
        .find(|e| e["name"] == "process_name" && e["args"]["name"] == process)
        .and_then(|e| e["pid"].as_u64())
        .unwrap_or_else(|| panic!("no process {process}"));
    let tid = ev
        .iter()
        .find(|e| e["name"] == "thread_name" && e["pid"] == pid && e["args"]["name"] == track)
        .and_then(|e| e["tid"].as_u64())
        .unwrap_or_else(|| panic!("no track {track} in {process}"));
    (pid, tid)
}

fn slices(v: &serde_json::Value, (pid, tid): (u64, u64)) -> Vec<(String, u64, u64)> {
    v["traceEvents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["ph"] == "X" && e["pid"] == pid && e["tid"] == tid)
        .map(|e| {
            let ts = e["ts"].as_u64().unwrap_or(0);
            (
                e["name"].as_str().unwrap_or("").to_string(),
                ts,
                ts + e["dur"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// The reader/writer copy traced: BRISC's kernel span names the reader's ELF and sits inside
/// firmware spans; NCRISC (writer) polls CB 0's tiles-received counter; each DRAM read of the
/// reader is a flow from tile (1,2)'s NoC0 track to the DRAM node's.
#[test]
fn trace_of_a_kernel_run_has_kernel_spans_cb_polls_and_noc_flows() {
    if kit().is_none() {
        return;
    }
    let v = traced_run(
        &program("dataflow_copy.toml"),
        "dataflow_copy.trace.json",
        &[],
    );
    let brisc = slices(&v, track(&v, "tile (1,2)", "BRISC"));
    let names: Vec<&str> = brisc.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names.len(), 3, "{brisc:?}");
    assert_eq!(names[0], "firmware");
    assert!(
        names[1].starts_with("kernel ") && names[1].ends_with("reader/brisc.elf"),
        "{brisc:?}"
    );
    assert_eq!(names[2], "firmware");
    assert_eq!(
        brisc[0].2, brisc[1].1,
        "the kernel starts where the firmware jumps to it"
    );
    let polls = slices(&v, track(&v, "tile (1,2)", "NCRISC stalls/polls"));
    assert!(
        polls
            .iter()
            .any(|p| p.0 == "polls CB 0 tiles-received counter"),
        "{polls:?}"
    );
    let ev = v["traceEvents"].as_array().cloned().unwrap_or_default();
    let (tile, noc0) = track(&v, "tile (1,2)", "NoC0");
    let (dram, dram_noc0) = track(&v, "node (17,12)", "NoC0");
    let starts: Vec<&serde_json::Value> = ev
        .iter()
        .filter(|e| e["ph"] == "s" && e["pid"] == tile && e["tid"] == noc0)
        .collect();
    let reads: Vec<&&serde_json::Value> = starts
        .iter()
        .filter(|e| e["name"] == "read 2048 B (1,2) -> (17,12)")
        .collect();
    assert_eq!(reads.len(), 8, "one read per page of `in`");
    for s in reads {
        let f = ev
            .iter()
            .find(|e| e["ph"] == "f" && e["id"] == s["id"])
            .unwrap_or_else(|| panic!("flow {} has no end", s["id"]));
        assert_eq!(
            (f["pid"].as_u64(), f["tid"].as_u64()),
            (Some(dram), Some(dram_noc0))
        );
        let kernel = &brisc[1];
        let ts = s["ts"].as_u64().unwrap_or(0);
        assert!(
            ts >= kernel.1 && ts < kernel.2,
            "read at {ts} inside the reader kernel {kernel:?}"
        );
    }
}

/// --trace-cycles and --trace-include narrow what is recorded.
#[test]
fn trace_options_select_cycles_and_track_kinds() {
    if kit().is_none() {
        return;
    }
    let v = traced_run(
        &program("dataflow_copy.toml"),
        "dataflow_copy.noc.trace.json",
        &["--trace-include", "noc", "--trace-cycles", "6400..6600"],
    );
    let ev = v["traceEvents"].as_array().cloned().unwrap_or_default();
    let timed: Vec<&serde_json::Value> = ev.iter().filter(|e| e["ph"] != "M").collect();
    assert!(!timed.is_empty());
    for e in timed {
        assert!(
            ["X", "s", "f"].contains(&e["ph"].as_str().unwrap_or("")),
            "{e}"
        );
        let ts = e["ts"].as_u64().unwrap_or(0);
        assert!((6400..6600).contains(&ts), "{e}");
        assert!(e["tid"] == 20 || e["tid"] == 21, "only NoC tracks: {e}");
    }
}
