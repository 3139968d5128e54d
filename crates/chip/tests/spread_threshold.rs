//! Host threads spread only cycles heavy enough to pay for the threads
//! (`bhemu_chip::threads::SPREAD_MIN_NS`, the rule itself is unit-tested in `threads.rs`); with
//! the threshold at 0 every wide cycle (16 tiles with work) is spread. Either way the chip ends in
//! the same state as on one thread.
mod common;
use bhemu_chip::{grid, Chip, ChipConfig, Core};
use bhemu_isa::riscv::{BranchOp, Insn};
use common::*;

/// Stores a countdown from 300 at 0x20000 every pass (a store per pass keeps the core from
/// running ahead, so its tile is busy every cycle), then loops forever on `j .`.
fn program() -> Vec<u8> {
    let p = [
        Insn::Lui {
            rd: T0,
            imm: 0x20000,
        },
        addi(S0, 0, 300),
        sw(S0, T0),
        addi(S0, S0, -1),
        branch(BranchOp::Bne, S0, 0, -8),
        spin(),
    ];
    bytes(&p)
}

/// 32 tiles on `threads` host threads, tile `i`'s BRISC released on `program(i)`; and the
/// tiles' coordinates.
fn started(threads: usize, program: impl Fn(usize) -> Vec<u8>) -> (Chip, Vec<(u8, u8)>) {
    let mut c = Chip::new(&ChipConfig {
        tiles: grid::parse_tiles("32").expect("tiles"),
        ..ChipConfig::default()
    })
    .expect("chip");
    c.set_threads(threads);
    let xy = release_briscs(&mut c, program);
    (c, xy)
}

fn run(
    threads: usize,
    threshold: Option<u64>,
) -> (bhemu_chip::ChipDigest, bhemu_chip::threads::SpreadTotals) {
    let (mut c, _) = started(threads, |_| program());
    if let Some(ns) = threshold {
        c.set_spread_threshold(ns);
    }
    c.clock(1000).expect("run");
    assert_eq!(c.spread().cycles, c.spread_cycles());
    (c.digest().expect("digest"), c.spread())
}

/// Whether a cycle is spread depends on host time (how long the last wide one took), so the
/// count of spread cycles is not deterministic; the chip's state is.
#[test]
fn em20_spreading_by_host_time_leaves_the_result_alone() {
    let (one, none) = run(1, None);
    assert_eq!(none, Default::default(), "one thread never spreads");
    let (two, _) = run(2, None);
    assert_eq!(one.first_difference(&two), None);
}

#[test]
fn em20_threshold_zero_spreads_every_busy_cycle_with_the_same_result() {
    let (one, _) = run(1, None);
    let (two, spread) = run(2, Some(0));
    assert!(
        spread.cycles >= 600,
        "{spread:?}: cycles spread of about 900 busy ones"
    );
    assert_eq!(one.first_difference(&two), None);
}

/// The spread cycles' host time is accounted as the bench prints it: each cycle counts its
/// threads, the pool's part lies within the whole cycle, and the threads did some work.
#[test]
fn em20_spread_cycles_account_their_threads_and_host_time() {
    let (_, s) = run(2, Some(0));
    assert_eq!(s.threads, 2 * s.cycles, "{s:?}");
    assert!(s.handed_off <= s.cycles, "{s:?}");
    assert!(
        s.tick_ns >= s.pool_ns && s.pool_ns > 0 && s.work_ns > 0,
        "{s:?}"
    );
}

/// BRISC counts down from 200,000 in registers alone in its tile (the fast schedule runs such
/// private instructions ahead of the clock, all of them in the first cycle it is due), stores
/// the result at 0x20000 and loops forever on `j .`.
fn private_loop() -> Vec<u8> {
    let mut p = li(S0, 200_000);
    p.extend([
        addi(S0, S0, -1),
        branch(BranchOp::Bne, S0, 0, -4),
        Insn::Lui {
            rd: T0,
            imm: 0x20000,
        },
        addi(T1, 0, 7),
        sw(T1, T0),
        spin(),
    ]);
    bytes(&p)
}

/// A cycle the plan keeps on one thread (nothing before it was heavy) but whose first tile
/// runs 200,000 instructions ahead: the calling thread hands the other tiles to the pool
/// (crates/chip/src/chip/fast_cycle.rs), with the same result as one thread.
#[test]
fn em22_a_cycle_that_turns_out_heavy_is_handed_to_the_pool() {
    let run = |threads: usize| {
        let (mut c, xy) = started(threads, |_| private_loop());
        c.clock(700_000).expect("run");
        for &(x, y) in &xy {
            let mut b = [0u8; 4];
            c.read_l1(x, y, 0x20000, &mut b).expect("read");
            assert_eq!(u32::from_le_bytes(b), 7, "tile ({x},{y}) finished its loop");
        }
        (c.digest().expect("digest"), c.spread())
    };
    let (one, _) = run(1);
    let (two, spread) = run(2);
    assert!(spread.handed_off >= 1, "{spread:?}");
    assert_eq!(one.first_difference(&two), None);
}

/// A load from 0xFFFF_F800 (x0 - 2048), where no tile maps anything: a core error at the first
/// instruction.
fn illegal() -> Vec<u8> {
    bytes(&[Insn::Load {
        op: bhemu_isa::riscv::LoadOp::Lw,
        rd: T1,
        rs1: 0,
        offset: -2048,
    }])
}

/// The heavy first tile hands the rest of the cycle to the pool, where two later tiles' cores
/// fail: the error is the first the one-thread loop stops at (crates/chip/src/chip/fast_cycle.rs;
/// tiles after it may have run the cycle, docs/noc-lookahead.md clause 5).
#[test]
fn em24_a_core_error_after_a_hand_off_is_the_one_thread_error() {
    let run = |threads: usize| {
        let (mut c, xy) = started(threads, |i| match i {
            0 => private_loop(),
            5 | 9 => illegal(),
            _ => bytes(&[spin()]),
        });
        let e = c.clock(700_000).expect_err("a core error");
        // Tile 20's BRISC (`j .`) has run cycle 0 only if tiles after the failing one were
        // stepped: on the pool's threads, after the hand-off.
        let later = c.tiles()[20].hart(Core::Brisc).cycles();
        (e, later, xy[5])
    };
    let (one, later_one, (x, y)) = run(1);
    let (two, later_two, _) = run(2);
    assert_eq!((later_one, later_two), (0, 1), "the hand-off happened");
    assert_eq!(one.loc.tile, Some((x, y)), "{one}");
    assert_eq!(one.loc.cycle, Some(0), "{one}");
    assert_eq!(
        (two.kind, two.loc, two.message.as_str()),
        (one.kind, one.loc, one.message.as_str())
    );
}
