//! `Hart::run_private` runs exactly what single steps would (same registers, pc, cycle and
//! instret after the same number of cycles) and stops before the first instruction that is not
//! private; `Hart::restore` + a shorter `run_private` lands on any earlier cycle exactly.
use bhemu_rv::{workload, FlatRam, Hart, HartConfig, Step};

fn state(h: &Hart) -> Vec<u64> {
    let mut v = Vec::new();
    h.fold_arch_state(&mut |w| v.push(w));
    v
}

fn setup() -> (Hart, FlatRam) {
    let words = workload::mixed_integer(3);
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut ram = FlatRam::new(0, 1 << 20);
    ram.load_bytes(workload::CODE_BASE, &code).expect("load");
    let hart = Hart::new(HartConfig {
        reset_pc: workload::CODE_BASE,
        ..HartConfig::default()
    });
    (hart, ram)
}

#[test]
fn em17_run_private_matches_single_steps_and_rewinds_exactly() {
    let (mut a, mut ram_a) = setup();
    let (mut b, mut ram_b) = setup();
    let mut batches = 0;
    let mut ahead_total = 0;
    for round in 0..4000u64 {
        // One ordinary step each (fills the decode cache, does the shared accesses).
        let sa = a.step_fast(&mut ram_a);
        let sb = b.step_fast(&mut ram_b);
        assert_eq!(sa, sb, "round {round}");
        if sa == Step::Halted {
            break;
        }
        let cp = b.checkpoint();
        let before = b.cycles();
        let n = b.run_private(1 + round % 50);
        assert_eq!(b.cycles() - before, n);
        // Rewind to a cycle inside the batch and replay: the same as stepping there.
        let back = n / 2;
        let mut c = b.checkpoint();
        if n > 0 {
            b.restore(&cp);
            assert_eq!(b.run_private(back), back);
            for _ in 0..back {
                assert_eq!(a.step_fast(&mut ram_a), Step::Retired);
            }
            assert_eq!(state(&a), state(&b), "round {round}, rewound to +{back}");
            b.restore(&cp);
            assert_eq!(b.run_private(n), n);
            c = b.checkpoint();
            for _ in back..n {
                assert_eq!(a.step_fast(&mut ram_a), Step::Retired);
            }
            batches += 1;
            ahead_total += n;
        }
        assert_eq!(c, b.checkpoint());
        assert_eq!(state(&a), state(&b), "round {round}");
    }
    assert_eq!(ram_a.bytes(), ram_b.bytes());
    assert!(
        batches > 100 && ahead_total > 1000,
        "{batches} batches, {ahead_total} cycles"
    );
}

#[test]
fn em17_run_private_stops_before_memory_csr_and_uncached_instructions() {
    // addi x5, x0, 1; addi x5, x5, 1; lw x6, 0(x0); csrr x7, mcycle; addi x5, x5, 1
    let words = [
        0x0010_0293u32,
        0x0012_8293,
        0x0000_2303,
        0xB000_23F3,
        0x0012_8293,
    ];
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut ram = FlatRam::new(0, 1 << 16);
    ram.load_bytes(0, &code).expect("load");
    let mut h = Hart::new(HartConfig::default());
    // Nothing is decoded yet: nothing runs.
    assert_eq!(h.run_private(10), 0);
    assert_eq!(h.step_fast(&mut ram), Step::Retired);
    // The second addi is not in the decode cache either.
    assert_eq!(h.run_private(10), 0);
    assert_eq!(h.step_fast(&mut ram), Step::Retired);
    assert_eq!(h.step_fast(&mut ram), Step::Retired); // lw
    assert_eq!(h.step_fast(&mut ram), Step::Retired); // csrr
    assert_eq!(h.step_fast(&mut ram), Step::Retired); // addi
    assert_eq!(h.reg(5), 3);
    // Back to the start with everything decoded: runs the two addis, stops at the lw.
    h.set_pc(0);
    assert_eq!(h.run_private(10), 2);
    assert_eq!(h.pc(), 8);
    assert_eq!(h.reg(5), 2);
    assert_eq!((h.cycles(), h.instret()), (7, 7));
}
