use super::*;

#[test]
fn thread_counts_parse_as_positive_integers() {
    assert_eq!(parse_threads("4").ok(), Some(4));
    assert_eq!(parse_threads(" 1 ").ok(), Some(1));
    assert_eq!(parse_threads("cores").ok(), Some(machine_threads()));
    for bad in ["0", "-1", "two", ""] {
        let e = parse_threads(bad).expect_err("not a thread count");
        assert_eq!(e.kind, ErrorKind::InvalidInput);
        assert!(e.message.contains(&format!("`{bad}`")), "{}", e.message);
    }
}

/// Tiles move to the threads that step them, and libttsim may hold the chip on any
/// thread: both must be `Send` (a compile-time check).
#[test]
fn chip_and_tiles_are_send() {
    fn send<T: Send>() {}
    send::<Tile>();
    send::<crate::Chip>();
    send::<TileNoc<'static>>();
}

#[test]
fn em20_wide_cycles_spread_over_as_many_threads_as_their_cost_pays_for() {
    let due = vec![0u64; 4 * MIN_TILES_PER_THREAD];
    let busy = vec![false; 4 * MIN_TILES_PER_THREAD];
    let p = |threads, last| plan_spread(threads, last, SPREAD_MIN_NS, &due, &busy, 5);
    let wide = |threads| Plan {
        threads,
        wide: true,
    };
    assert_eq!(
        p(2, 2 * SPREAD_MIN_NS - 1),
        wide(1),
        "a light estimate: one thread"
    );
    assert_eq!(p(2, 2 * SPREAD_MIN_NS), wide(2), "a heavy estimate");
    assert_eq!(p(16, 3 * SPREAD_MIN_NS + 5), wide(3), "no finer than pays");
    assert_eq!(
        p(16, u64::MAX),
        wide(4),
        "at most tiles / MIN_TILES_PER_THREAD"
    );
    assert_eq!(p(1, u64::MAX), Plan::ONE, "one thread");
    assert_eq!(plan_spread(2, 0, 0, &due, &busy, 5), wide(2), "threshold 0");
}

#[test]
fn em22_the_rest_of_a_cycle_goes_to_as_many_threads_as_its_promised_work_pays_for() {
    // One tile took 1 ms: 139 more are worth 139 ms.
    assert_eq!(handoff(1_000_000, 1, 139, 16, SPREAD_MIN_NS), Some(16));
    // 100 ns each: 139 more are worth 13.9 µs, one thread's worth.
    assert_eq!(handoff(100, 1, 139, 16, SPREAD_MIN_NS), None);
    // 40 µs over 4 tiles, 3 more: 30 µs, three threads' worth, and three tiles.
    assert_eq!(handoff(40_000, 4, 3, 16, SPREAD_MIN_NS), Some(3));
    assert_eq!(
        handoff(40_000, 4, 1, 16, SPREAD_MIN_NS),
        None,
        "one tile left"
    );
    assert_eq!(
        handoff(u64::MAX, 1, 139, 1, SPREAD_MIN_NS),
        None,
        "one thread"
    );
    assert_eq!(handoff(u64::MAX, 0, 139, 16, SPREAD_MIN_NS), None);
    assert_eq!(handoff(0, 1, 5, 4, 0), Some(4), "threshold 0: every thread");
}

/// Feeds `n` wide cycles the plan would spread, spread ones taking `spread_ns` and the
/// others `single_ns`; returns how many were spread.
fn feed(p: &mut Payoff, n: u64, single_ns: u64, spread_ns: u64) -> u64 {
    let mut spread = 0;
    for _ in 0..n {
        let s = p.allow(true);
        spread += u64::from(s);
        p.record(s, if s { spread_ns } else { single_ns });
    }
    spread
}

#[test]
fn em23_spreading_that_pays_goes_on_with_one_probe_in_sixteen() {
    let mut p = Payoff::default();
    for _ in 0..Payoff::MIN_SAMPLES {
        p.record(false, 60_000);
    }
    assert_eq!(
        feed(&mut p, 160, 60_000, 25_000),
        150,
        "every 16th on one thread"
    );
    assert!(
        !p.allow(false),
        "a cycle the plan keeps on one thread stays there"
    );
}

#[test]
fn em23_spreading_slower_than_one_thread_backs_off_longer_each_time() {
    let mut p = Payoff::default();
    for _ in 0..Payoff::MIN_SAMPLES {
        p.record(false, 10_000);
    }
    // Four spread cycles at 20 µs against 10 µs on one thread: off for 64 wide cycles.
    assert_eq!(feed(&mut p, 4, 10_000, 20_000), 4);
    assert_eq!(feed(&mut p, 63, 10_000, 20_000), 0, "backing off");
    // Spread again (less the probes) until four spread samples show it still loses ...
    let again = feed(&mut p, 5, 10_000, 20_000);
    assert_eq!(again, 4);
    // ... then off for 128 (the back-off counts from the cycle that judged it, the 4th).
    assert_eq!(feed(&mut p, 126, 10_000, 20_000), 0);
    assert!(feed(&mut p, 8, 10_000, 20_000) > 0);
    // Once spreading pays again, the back-off starts from 64 next time.
    let mut q = Payoff::default();
    for _ in 0..Payoff::MIN_SAMPLES {
        q.record(false, 10_000);
    }
    feed(&mut q, 4, 10_000, 20_000);
    feed(&mut q, 63, 10_000, 20_000);
    feed(&mut q, 40, 10_000, 5_000);
    assert_eq!(q.backoff, 0);
}

#[test]
fn spread_summary_divides_by_cycles_and_threads() {
    assert_eq!(SpreadTotals::default().summary(), "no cycle spread");
    let t = SpreadTotals {
        cycles: 10,
        handed_off: 3,
        threads: 40,
        tick_ns: 300_000,
        pool_ns: 200_000,
        work_ns: 600_000,
    };
    // 30 µs per cycle, 20 in the pool; 4 threads x 20 µs = 80 µs of thread-time, 60 work.
    assert_eq!(
        t.summary(),
        "10 cycles spread (3 of them from the middle) over 4.0 threads on average: 30.0 µs \
         each, 20.0 µs of it in the pool, whose threads worked 75 % of that time (60.0 µs of \
         work)"
    );
}

#[test]
fn em20_narrow_cycles_stay_on_one_thread_and_are_not_timed() {
    let due = vec![0u64; 2 * MIN_TILES_PER_THREAD];
    let idle = vec![u64::MAX; 2 * MIN_TILES_PER_THREAD];
    let busy = vec![false; 2 * MIN_TILES_PER_THREAD];
    let cp = vec![true; 2 * MIN_TILES_PER_THREAD];
    let wide2 = Plan {
        threads: 2,
        wide: true,
    };
    assert_eq!(plan_spread(2, 0, 0, &due, &busy, 5), wide2);
    assert_eq!(
        plan_spread(2, 0, 0, &idle, &cp, 5),
        wide2,
        "busy coprocessors count"
    );
    assert_eq!(plan_spread(2, 0, 0, &due[1..], &busy[1..], 5), Plan::ONE);
    assert_eq!(plan_spread(2, 0, 0, &idle, &busy, 5), Plan::ONE);
    assert_eq!(plan_spread(2, 0, 0, &due, &busy, 6 + u64::MAX / 2), wide2);
    assert_eq!(plan_spread(2, 0, 0, &idle, &busy, u64::MAX - 1), Plan::ONE);
}
