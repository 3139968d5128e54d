//! The fast schedule runs the kit's tt-metal compute programs exactly as the reference
//! schedule does: their circular-buffer waits poll the NoC overlay's counters (parked by the
//! fast schedule, woken by the TRISCs' stores and the packer's `STOREREG`), so on 140 tiles
//! `bhemu run --json` reports the same boot and launch cycles, verdicts and stuck cores under
//! `BHEMU_SCHEDULE=reference` and `fast` (wall times aside), also with every busy cycle spread over
//! four host threads (`BHEMU_THREADS=4`, `BHEMU_SPREAD_NS=0`); and so they do under per-hop NoC
//! timing (`--noc-hops`), where the fast schedule runs quanta of up to 20 cycles.
//!
//! Skips with a message when the firmware or the cross compiler is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1`.
#[path = "common/kit.rs"]
mod kit_common;

use std::path::Path;
use std::process::Command;

use kit_common::{kit, root};

/// `bhemu run PROGRAM --json --tiles all` under `schedule` on `threads` host threads (with
/// `BHEMU_SPREAD_NS=0`: every cycle with enough busy tiles spread over all of them), with
/// `--noc-hops` when `hops`, wall times removed.
fn run(kit: &Path, program: &str, schedule: &str, threads: usize, hops: bool) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .current_dir(root())
        .env("BHEMU_SCHEDULE", schedule)
        .env("BHEMU_THREADS", threads.to_string())
        .env("BHEMU_SPREAD_NS", "0")
        .args(["run", program, "--json", "--tiles", "all", "--kit"])
        .arg(kit)
        .args(hops.then_some("--noc-hops"))
        .output()
        .expect("run bhemu");
    let out = String::from_utf8_lossy(&o.stdout);
    let mut v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!(
            "{program} ({schedule}): not JSON ({e}): {out}{}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    let m = v.as_object_mut().expect("an object");
    for k in [
        "wall_s",
        "run_wall_s",
        "simulated_cycles_per_s",
        "simulated_tile_cycles_per_s",
    ] {
        assert!(m.remove(k).is_some(), "{program}: no `{k}`");
    }
    v
}

/// The reference run, then the fast schedule on one and on four threads, compared.
fn compare(kit: &Path, hops: bool, programs: &[&str]) {
    for &name in programs {
        let program = format!("examples/kernels/programs/{name}.toml");
        let r = run(kit, &program, "reference", 1, hops);
        let f = run(kit, &program, "fast", 1, hops);
        assert_eq!(r, f, "{name}");
        let spread = run(kit, &program, "fast", 4, hops);
        assert_eq!(r, spread, "{name}, 4 host threads");
        assert_eq!(r["tiles"], 140, "{name}");
        assert_eq!(r["finished"], true, "{name}");
        assert!(
            r["cycles"].as_u64().is_some_and(|c| c > 1000),
            "{name}: {r}"
        );
        let outs = r["outputs"].as_array().expect("outputs");
        assert!(
            !outs.is_empty() && outs.iter().all(|o| o["bit_exact"] == true),
            "{name}: {r}"
        );
    }
}

/// With the side-by-side benchmark's workloads (docs/performance.md): 128 tiles streamed per
/// core, and a grid of 16 block matmuls per core.
#[test]
fn em9_kit_compute_programs_match_the_reference_schedule_on_140_tiles() {
    let Some(kit) = kit() else {
        return;
    };
    compare(
        &kit,
        false,
        &["add", "matmul", "matmul_block", "add_stream", "matmul_grid"],
    );
}

/// docs/noc-lookahead.md, the quantum under hop timing.
#[test]
fn em25_kit_compute_programs_in_quanta_under_hop_timing_match_the_reference_schedule() {
    let Some(kit) = kit() else {
        return;
    };
    compare(&kit, true, &["add", "matmul", "matmul_block"]);
}
