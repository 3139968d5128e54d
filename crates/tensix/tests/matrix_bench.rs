//! The matrix-unit benchmark's simulated-cycle figure is deterministic, so its value is
//! checked here; the host-time figure is printed by `cargo bench -p bhemu-tensix --bench matrix`.
use bhemu_tensix::matrix::bench;

#[test]
fn tile_matmul_issues_one_mvmul_per_cycle_per_fidelity_phase() {
    // MatrixUnit.md: MVMUL throughput 1 per cycle; a 32x32x32 tile is 16 MVMULs per phase.
    for phases in [1, 4] {
        let cycles = bench::tile_cycles(phases).unwrap_or_else(|e| panic!("{e:?}"));
        println!("{phases} phase(s): {cycles} cycles of MVMUL issue");
        assert_eq!(cycles, bench::MVMULS_PER_TILE * phases);
    }
}

#[test]
fn bench_report_has_the_documented_figure() {
    let b = bench::run(64).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!((b.mvmuls, b.phases, b.documented_cycles), (64, 4, 64));
    assert!(b.to_text().contains("MVMUL/s"), "{}", b.to_text());
}
