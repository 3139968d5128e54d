//! Quanta under per-hop NoC timing (docs/noc-lookahead.md, "The quantum"; crates/chip/src/chip/
//! quantum.rs): how long they are, and that an error inside one is the per-cycle schedule's
//! first error, at its cycle. That results and cycle counts match the reference schedule on the
//! firmware and kernels is `crates/cli/tests/schedule_digest.rs`.
mod common;
use bhemu_chip::{grid, Chip, ChipConfig, Schedule, Timing};
use bhemu_isa::riscv::{BranchOp, Insn};
use common::*;

/// A countdown from `n` that stores every pass (so the core steps every cycle), then `tail`.
fn countdown(n: i32, tail: Insn) -> Vec<u8> {
    let p = [
        Insn::Lui {
            rd: T0,
            imm: 0x20000,
        },
        addi(S0, 0, n),
        sw(S0, T0),
        addi(S0, S0, -1),
        branch(BranchOp::Bne, S0, 0, -8),
        tail,
    ];
    bytes(&p)
}

/// A load from 0xFFFF_F800 (x0 - 2048), where no tile maps anything: a core error.
fn illegal() -> Insn {
    Insn::Load {
        op: bhemu_isa::riscv::LoadOp::Lw,
        rd: T1,
        rs1: 0,
        offset: -2048,
    }
}

/// 32 tiles under `timing` and `schedule` on `threads` threads, tile `i`'s BRISC released on
/// `program(i)`.
fn chip(
    timing: Timing,
    schedule: Schedule,
    threads: usize,
    program: impl Fn(usize) -> Vec<u8>,
) -> Chip {
    let mut c = Chip::new(&ChipConfig {
        tiles: grid::parse_tiles("32").expect("tiles"),
        timing,
        ..ChipConfig::default()
    })
    .expect("chip");
    c.set_schedule(schedule).expect("schedule");
    c.set_threads(threads);
    release_briscs(&mut c, program);
    c
}

/// With no NoC traffic a quantum is the NoC's lookahead (20 cycles under `Timing::BLACKHOLE`);
/// with functional timing (lookahead 1) there are none. Same state either way as cycle by
/// cycle.
#[test]
fn em25_a_quantum_is_the_noc_lookahead_when_nothing_is_in_flight() {
    let prog = |_| countdown(2000, spin());
    let mut hops = chip(Timing::BLACKHOLE, Schedule::Fast, 1, prog);
    hops.clock(1000).expect("run");
    assert_eq!(hops.quanta(), (50, 1000));
    let mut stepped = chip(Timing::BLACKHOLE, Schedule::Fast, 1, prog);
    for _ in 0..1000 {
        stepped.clock(1).expect("one cycle");
    }
    assert_eq!(stepped.quanta(), (0, 0), "clock(1) is never a quantum");
    let (a, b) = (
        hops.digest().expect("digest"),
        stepped.digest().expect("digest"),
    );
    assert_eq!(a.first_difference(&b), None);
    let mut functional = chip(Timing::Functional, Schedule::Fast, 1, prog);
    functional.clock(1000).expect("run");
    assert_eq!(functional.quanta(), (0, 0));
}

/// Cores of tiles 9 and 5 fail inside a quantum, tile 9 first (a shorter countdown); then both
/// in the same cycle (tile 5 first in slot order). On 1 and 2 threads the error is the
/// reference schedule's — same kind, place, message and cycle — and the chip stops at its cycle.
#[test]
fn em25_an_error_inside_a_quantum_is_the_per_cycle_schedules_first() {
    for (n5, n9) in [(40, 25), (30, 30)] {
        let prog = |i: usize| match i {
            5 => countdown(n5, illegal()),
            9 => countdown(n9, illegal()),
            _ => countdown(1000, spin()),
        };
        let run = |schedule, threads| {
            let mut c = chip(Timing::BLACKHOLE, schedule, threads, prog);
            let e = c.clock(500).expect_err("a core error");
            (e, c.cycle(), c.quanta().0)
        };
        let (want, at, _) = run(Schedule::Reference, 1);
        let failing = if n9 < n5 { 9 } else { 5 };
        let xy = {
            let c = chip(Timing::BLACKHOLE, Schedule::Reference, 1, prog);
            let n = c.tiles()[failing].node();
            (n.x, n.y)
        };
        assert_eq!(want.loc.tile, Some(xy), "{want}");
        for threads in [1, 2] {
            let (got, got_at, quanta) = run(Schedule::Fast, threads);
            assert!(quanta >= 1, "quanta ran before the one that failed");
            assert_eq!(
                (got.kind, got.loc, got.message.as_str(), got_at),
                (want.kind, want.loc, want.message.as_str(), at),
                "{threads} threads"
            );
        }
    }
}
