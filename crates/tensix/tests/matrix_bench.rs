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

#[test]
fn mvmul_through_a_coprocessor_thread_issues_one_per_cycle() {
    // MatrixUnit.md: MVMUL throughput 1 per cycle; pushed one per cycle into T1's FIFO, 1000
    // MVMULs take 1000 cycles plus the pipeline's fill and drain (SETDVALID, FIFO, latency 5).
    let w = bhemu_isa::tensix::blackhole::Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    let (cycles, _) = bench::through_coprocessor(w, 1000).unwrap_or_else(|e| panic!("{e:?}"));
    assert!((1000..=1010).contains(&cycles), "{cycles} cycles");
    let b = bench::run(64).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!((b.elwadds, b.cp_mvmuls), (64, 16));
    assert!(b.to_text().contains("ELWADD/s"), "{}", b.to_text());
}
