//! docs/execution-model.md EM-7: in permissive mode a warning is recorded and the run goes on;
//! the chip hands each one out once, after the clock whose cycle recorded it — the same clock
//! under both schedules, also when a clock stepped no tile.
mod common;
use bhemu_chip::{Chip, ChipConfig, Schedule, Strictness, Timing};
use bhemu_isa::riscv::{BranchOp, Insn};
use common::*;

/// A gap after BRISC's local RAM: nothing is mapped there (docs/blackhole-facts.md).
const UNMAPPED: u32 = 0xFFB0_5000;

/// Counts down `n`, loads the unmapped word, then spins (parks) forever.
fn late_bad_load(n: u32) -> Vec<Insn> {
    let mut p = li(S0, n);
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -4));
    p.extend(li(T0, UNMAPPED));
    p.push(lw(T1, T0));
    p.push(spin());
    p
}

/// Per-hop NoC timing makes the fast schedule run quanta of several cycles.
fn permissive_chip(schedule: Schedule, timing: Timing) -> Chip {
    let mut c = Chip::new(&ChipConfig {
        tiles: bhemu_chip::grid::parse_tiles("1,2").expect("tiles"),
        strictness: Strictness::Permissive,
        timing,
        ..ChipConfig::default()
    })
    .expect("chip");
    c.set_schedule(schedule).expect("schedule");
    c.write_l1(1, 2, 0, &bytes(&late_bad_load(300)))
        .expect("program");
    c.write_reg(1, 2, 0xFFB1_21B0, 0x47000)
        .expect("release BRISC");
    c
}

/// Clocks one cycle at a time for `cycles`, then once for `idle` more; returns, per clock
/// call, the cycle after it and the addresses of the warnings taken after it.
fn warnings_per_clock(
    schedule: Schedule,
    timing: Timing,
    cycles: u64,
    idle: u64,
) -> Vec<(u64, Vec<u32>)> {
    let mut c = permissive_chip(schedule, timing);
    let mut out = Vec::new();
    let take = |c: &mut Chip| {
        let w: Vec<u32> = c
            .take_warnings()
            .iter()
            .map(|e| e.loc.addr.unwrap_or(0))
            .collect();
        (c.cycle(), w)
    };
    for _ in 0..cycles {
        c.clock(1).expect("clock");
        out.push(take(&mut c));
    }
    c.clock(idle).expect("clock");
    out.push(take(&mut c));
    for _ in 0..5 {
        c.clock(1).expect("clock");
        out.push(take(&mut c));
    }
    out
}

#[test]
fn em7_each_warning_is_handed_out_once_after_the_clock_that_recorded_it() {
    for timing in [Timing::Functional, Timing::BLACKHOLE] {
        let fast = warnings_per_clock(Schedule::Fast, timing, 700, 10_000);
        let reference = warnings_per_clock(Schedule::Reference, timing, 700, 10_000);
        let with: Vec<_> = fast.iter().filter(|(_, w)| !w.is_empty()).collect();
        assert_eq!(
            with.len(),
            1,
            "{timing:?}: one clock hands out a warning: {with:?}"
        );
        assert_eq!(
            with[0].1,
            vec![UNMAPPED],
            "{timing:?}: once, naming the address"
        );
        // The countdown of 300 takes about 600 cycles; the load comes right after it.
        assert!(
            (600..700).contains(&with[0].0),
            "{timing:?}: after the clock of the load's cycle: {with:?}"
        );
        assert_eq!(
            fast, reference,
            "{timing:?}: the same clock under both schedules"
        );

        // A clock of many cycles that contains the load hands it out after that clock.
        let mut c = permissive_chip(Schedule::Fast, timing);
        c.clock(5_000).expect("clock");
        let w = c.take_warnings();
        assert_eq!(w.len(), 1, "{timing:?}: {w:?}");
        assert_eq!(w[0].loc.addr, Some(UNMAPPED));
        c.clock(5_000).expect("clock");
        assert!(c.take_warnings().is_empty(), "{timing:?}: not again");
    }
}
