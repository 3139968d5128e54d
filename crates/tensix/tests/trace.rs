//! Timeline traces of `.tsx` runs: the trace JSON is read back with serde_json and checked
//! against the run's own dispatch log.
use bhemu_isa::tensix::assemble;
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{RunOptions, RunResult};
use bhemu_tensix::trace::run_traced;
use bhemu_tensix::Arch;
use bhemu_trace::TraceOptions;
use serde_json::Value;

fn traced(name: &str, options: &TraceOptions) -> (RunResult, Value) {
    let path = format!(
        "{}/../../examples/tensix/{name}.tsx",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let p = parse(Arch::Blackhole, &path, &text).unwrap_or_else(|e| panic!("{e}"));
    let (r, t) = run_traced(&p, RunOptions::default(), options);
    // Through text, as a viewer would read the file.
    let v: Value = serde_json::from_str(&t.to_json().to_string()).unwrap_or_else(|e| panic!("{e}"));
    (r, v)
}

fn events(v: &Value) -> Vec<Value> {
    v["traceEvents"].as_array().cloned().unwrap_or_default()
}

fn dispatches(r: &RunResult, t: usize, line: &str) -> Vec<u64> {
    let w = assemble(Arch::Blackhole, line).unwrap_or_else(|e| panic!("{e}"));
    r.dispatched[t]
        .iter()
        .filter(|x| x.1 == w)
        .map(|x| x.0)
        .collect()
}

/// docs/wait-gate.md pattern 4: math (T1) may run at most two Dst halves ahead of pack (T2).
/// Its third tile's TTMVMUL, held by the SEMWAIT latch (STALL_ON_MAX on semaphore 1 at
/// 2/2), shows on T1's track as a stall ending at the cycle the dispatch log gives.
#[test]
fn trace_shows_pattern4_semwait_stall_on_t1_at_dispatch_log_cycles() {
    let (r, v) = traced("pattern4", &TraceOptions::default());
    assert!(r.error.is_none(), "{:?}", r.error);
    let ev = events(&v);
    let t1_stalls: Vec<&Value> = ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["pid"] == 1 && e["tid"] == 2)
        .filter(|e| e["name"].as_str().is_some_and(|n| n.starts_with("stall: ")))
        .collect();
    let semwait_stalls: Vec<&Value> = t1_stalls
        .iter()
        .copied()
        .filter(|e| {
            e["name"]
                .as_str()
                .is_some_and(|n| n.contains("STALL_ON_MAX on sem1=2/2"))
        })
        .collect();
    assert!(!semwait_stalls.is_empty(), "{t1_stalls:#?}");
    let mvmul = dispatches(&r, 1, "ttmvmul 3, 0, 0, 0");
    let semwait = dispatches(&r, 1, "ttsemwait 322, 2, 2");
    for s in &semwait_stalls {
        let name = s["name"].as_str().unwrap_or("");
        assert!(
            name.starts_with("stall: ttmvmul 3, 0, 0, 0 — blocked by SEMWAIT block 0x142"),
            "{name}"
        );
        let end = s["ts"].as_u64().unwrap_or(0) + s["dur"].as_u64().unwrap_or(0);
        assert!(
            mvmul.contains(&end),
            "stall ends at {end}, TTMVMUL dispatched at {mvmul:?}"
        );
        let k = mvmul.iter().position(|&c| c == end).unwrap_or(0);
        assert!(
            k >= 2,
            "only the third and fourth tiles wait for pack (tile {k})"
        );
        // It waited from the cycle after its SEMWAIT passed and it reached the gate.
        let start = s["ts"].as_u64().unwrap_or(0);
        assert!(start > semwait[k], "{start} vs SEMWAIT at {}", semwait[k]);
        assert_eq!(s["args"]["cycles"].as_u64(), Some(end - start));
    }
    // Pack's SEMGET of tile k-2 frees the half the stalled math waits for.
    let get = dispatches(&r, 2, "ttsemget 2");
    let first = semwait_stalls[0];
    let end = first["ts"].as_u64().unwrap_or(0) + first["dur"].as_u64().unwrap_or(0);
    assert!(
        end > get[0],
        "math resumed at {end}, after pack's first SEMGET at {}",
        get[0]
    );
}

/// Each dispatched instruction is a one-cycle slice named by its disassembly; each backend
/// unit's track holds its instructions from dispatch to retirement; semaphore 1 is a counter.
#[test]
fn trace_has_dispatch_unit_and_counter_tracks() {
    let (r, v) = traced("pattern4", &TraceOptions::default());
    let ev = events(&v);
    let mvmul = dispatches(&r, 1, "ttmvmul 3, 0, 0, 0");
    let on_t1: Vec<u64> = ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["tid"] == 2 && e["name"] == "ttmvmul 3, 0, 0, 0")
        .filter_map(|e| e["ts"].as_u64())
        .collect();
    assert_eq!(on_t1, mvmul);
    let names: Vec<(u64, String)> = ev
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| {
            (
                e["tid"].as_u64().unwrap_or(0),
                e["args"]["name"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let matrix_tid = names
        .iter()
        .find(|(_, n)| n == "Matrix Unit (FPU)")
        .map(|x| x.0);
    assert!(matrix_tid.is_some(), "{names:?}");
    let in_matrix: Vec<(u64, u64)> = ev
        .iter()
        .filter(|e| {
            e["ph"] == "X" && e["tid"].as_u64() == matrix_tid && e["name"] == "ttmvmul 3, 0, 0, 0"
        })
        .map(|e| {
            (
                e["ts"].as_u64().unwrap_or(0),
                e["dur"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(in_matrix.iter().map(|x| x.0).collect::<Vec<_>>(), mvmul);
    assert!(
        in_matrix.iter().all(|x| x.1 >= 5),
        "MVMUL occupies the unit 5 cycles: {in_matrix:?}"
    );
    let sem1: Vec<f64> = ev
        .iter()
        .filter(|e| e["ph"] == "C" && e["name"] == "semaphore 1")
        .filter_map(|e| e["args"]["value"].as_f64())
        .collect();
    assert_eq!(sem1.iter().copied().fold(0.0, f64::max), 2.0, "{sem1:?}");
    assert_eq!(sem1.last(), Some(&0.0));
}

/// A cycle window keeps only what happened inside it.
#[test]
fn trace_window_keeps_only_its_cycles() {
    let opts = TraceOptions {
        window: Some((20, 40)),
        ..TraceOptions::default()
    };
    let (_, v) = traced("pattern4", &opts);
    for e in events(&v)
        .iter()
        .filter(|e| e["ph"] == "X" || e["ph"] == "C")
    {
        let ts = e["ts"].as_u64().unwrap_or(0);
        let end = ts + e["dur"].as_u64().unwrap_or(0);
        assert!(ts >= 20 && end <= 40, "{e}");
    }
}

/// The mutex hang: T1's ATGETM on invalid index 1 stalls to the end of the run, named.
#[test]
fn trace_names_the_invalid_mutex_stall() {
    let (r, v) = traced("mutex_hang", &TraceOptions::default());
    assert!(r.error.is_some());
    let s: Vec<String> = events(&v)
        .iter()
        .filter(|e| e["tid"] == 2 && e["name"].as_str().is_some_and(|n| n.starts_with("stall:")))
        .map(|e| e["name"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        s,
        vec!["stall: ttatgetm 1 — invalid mutex index 1: waits forever".to_string()]
    );
}
