//! docs/execution-model.md EM-9, without downloads: the fast schedule computes exactly what the
//! reference schedule does on the project's own kernels, on all 140 tiles, with the fast
//! schedule on 1, 2 and 4 host threads (every cycle with 16 tiles with work spread), under
//! functional and per-hop NoC timing. After each phase a digest of every hart's architectural
//! state (with `cycle` and `instret`), every L1 and local RAM, DRAM and the chip's cycle count
//! is the same under every schedule, and so is every phase's cycle count.
//!
//! The phases:
//! 1. `demo`: `bhemu demo`'s chip job from its committed kernels (`crates/cli/demo/*.elf`,
//!    docs/demo.md; no toolchain needed) — BRISC configures the coprocessor and releases the
//!    TRISCs, which unpack, run ELWADD and MVMUL and pack, handing over through Src-bank
//!    ownership and a semaphore; TRISCs stall on full instruction FIFOs and on the
//!    `CoprocessorDoneCheck` read (the fast schedule's stall sleep, EM-16), BRISC and finished
//!    TRISCs idle in `j .` (parking, EM-12). Inputs are chosen so that every output is known
//!    by hand.
//! 2. `ring`: a program assembled here on every BRISC (TRISCs and NCRISC held): a private delay
//!    loop that differs per tile (run-ahead, EM-17), a NoC write of a stamp into the next
//!    tile's L1 with a poll of the write-ack counter, a poll of its own L1 until the previous
//!    tile's stamp lands (parked, woken by the NoC, EM-14), a countdown, then results.
//! 3. `idle`: 5,000 cycles with every core parked (EM-11).
//!
//! The firmware form of this test (boot, NoC and Tensix kernels launched by tt-metal's
//! firmware) is `crates/cli/tests/schedule_digest.rs`.
mod common;
use std::path::Path;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN};
use bhemu_chip::{Chip, ChipConfig, ChipDigest, Schedule, Timing};
use bhemu_isa::riscv::{BranchOp, Insn, LoadOp};
use bhemu_rv::CoreTiming;
use common::*;

/// Every core of a tile held in soft reset.
const SOFT_RESET_ALL: u32 = 0x47800;
const L1_A: u64 = 0x20000;
const L1_B: u64 = 0x20800;
const L1_SUM: u64 = 0x30000;
const L1_PRODUCT: u64 = 0x30800;
const L1_DEMO_DONE: u32 = 0x31000;
const DEMO_DONE: u32 = 0x600D_F00D;

/// The ring program's L1 words.
const RING_SRC: u32 = 0x32000;
const RING_IN: u32 = 0x33000;
const RING_RESULT: u32 = 0x33010;
const RING_DONE: u32 = 0x33018;
/// NoC 0 command buffer 0 and the NIU's write-ack counter (NoC/MemoryMap.md).
const CB0: u32 = 0xFFB2_0000;
const CB1: u32 = 0xFFB2_0800;
/// The word of the first tile's L1 every tile also writes its stamp to: tiles whose delays
/// are equal write it in the same cycle, and the last in tile order wins (docs/noc-lookahead.md
/// clause 4), so the digest shows the order in which requests entered the NoC.
const RING_SHARED: u32 = 0x33100;
const NIU_MST_WR_ACK_RECEIVED: u32 = 0xFFB2_0204;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn bf16(v: f32) -> u16 {
    (v.to_bits() >> 16) as u16
}

/// Tile `i`'s A holds `i % 4 + 1` everywhere, B holds 2: `A + B` is `i % 4 + 3` and `B @ A`
/// (32-term dot products) `64 * (i % 4 + 1)`, all exact in bf16.
fn a_value(i: usize) -> f32 {
    (i % 4 + 1) as f32
}

fn tile_of(v: u16) -> Vec<u8> {
    std::iter::repeat_n(v, 1024)
        .flat_map(|x| x.to_le_bytes())
        .collect()
}

fn coords(chip: &Chip) -> Vec<(u8, u8)> {
    chip.tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect()
}

/// `sw` of a 32-bit `value` to `addr` (through T0/T1).
fn store(addr: u32, value: u32) -> Vec<Insn> {
    let mut v = li(T0, addr);
    v.extend(li(T1, value));
    v.push(sw(T1, T0));
    v
}

/// Loops while the word at `addr` reads 0.
fn wait_nonzero(addr: u32) -> Vec<Insn> {
    let mut v = li(T0, addr);
    v.push(Insn::Load {
        op: LoadOp::Lw,
        rd: T2,
        rs1: T0,
        offset: 0,
    });
    v.push(branch(BranchOp::Beq, T2, 0, -4));
    v
}

/// `n` passes of a register-only loop in S0 (n ≥ 1).
fn countdown(n: u32) -> Vec<Insn> {
    let mut v = li(S0, n);
    v.push(addi(S0, S0, -1));
    v.push(branch(BranchOp::Bne, S0, 0, -4));
    v
}

/// Tile `i`'s ring program: delay, write the stamp into `next`'s L1 through NoC 0 (and into
/// `first`'s `RING_SHARED` through a second command buffer) and wait for an ack, wait for the previous tile's stamp, count down, then store what arrived plus the
/// countdown's length at `RING_RESULT` and 1 at `RING_DONE`.
fn ring_program(i: usize, me: (u8, u8), next: (u8, u8), first: (u8, u8)) -> Vec<u8> {
    let xy = |(x, y): (u8, u8)| (u32::from(y) << 6) | u32::from(x);
    let stamp = 0x5A00_0000 | i as u32;
    let tail = 300 + 11 * (i as u32 % 9);
    let mut p = countdown(1 + 37 * (i as u32 % 13));
    p.extend(store(RING_SRC, stamp));
    p.extend(store(CB0 + 0x1C, 2 | (1 << 4) | (1 << 7))); // WR | RESP_MARKED | VC_STATIC
    p.extend(store(CB0, RING_SRC));
    p.extend(store(CB0 + 0x08, xy(me)));
    p.extend(store(CB0 + 0x0C, RING_IN));
    p.extend(store(CB0 + 0x14, xy(next)));
    p.extend(store(CB0 + 0x20, 16));
    p.extend(store(CB0 + 0x40, 1));
    p.extend(store(CB1 + 0x1C, 2 | (1 << 4) | (1 << 7)));
    p.extend(store(CB1, RING_SRC));
    p.extend(store(CB1 + 0x08, xy(me)));
    p.extend(store(CB1 + 0x0C, RING_SHARED));
    p.extend(store(CB1 + 0x14, xy(first)));
    p.extend(store(CB1 + 0x20, 4));
    p.extend(store(CB1 + 0x40, 1));
    p.extend(wait_nonzero(NIU_MST_WR_ACK_RECEIVED));
    p.extend(wait_nonzero(RING_IN)); // leaves the stamp in T2
    p.extend(countdown(tail));
    p.extend(li(S0, tail));
    p.push(Insn::Op {
        op: bhemu_isa::riscv::RegOp::Add,
        rd: T2,
        rs1: T2,
        rs2: S0,
    });
    p.extend(li(T0, RING_RESULT));
    p.push(sw(T2, T0));
    p.extend(store(RING_DONE, 1));
    p.push(spin());
    bytes(&p)
}

/// One phase's name, cycle count and the digest after it.
type Phase = (&'static str, u64, ChipDigest);

/// What a run did beyond its phases: parks and wakes, stall sleeps, spread cycles.
struct Counts {
    parks: (u64, u64),
    sleeps: (u64, u64),
    spread: u64,
    /// Quanta run (per-hop timing only) and the cycles they covered.
    quanta: (u64, u64),
}

fn run(schedule: Schedule, threads: usize, timing: Timing) -> (Vec<Phase>, Counts) {
    run_timed(schedule, threads, timing, CoreTiming::OnePerCycle)
}

fn run_timed(
    schedule: Schedule,
    threads: usize,
    timing: Timing,
    core_timing: CoreTiming,
) -> (Vec<Phase>, Counts) {
    let mut chip = Chip::new(&ChipConfig {
        timing,
        ..ChipConfig::default()
    })
    .expect("chip");
    chip.set_core_timing(core_timing).expect("core timing");
    chip.set_schedule(schedule).expect("schedule");
    if core_timing == CoreTiming::Pipeline {
        assert_eq!(
            chip.schedule(),
            Schedule::Reference,
            "the pipeline runs on the reference schedule"
        );
    }
    chip.set_threads(threads);
    // Spread every cycle with 16 tiles with work, however cheap (by default only cycles worth
    // SPREAD_MIN_NS of host time per thread are): the point is to exercise the threads.
    chip.set_spread_threshold(0);
    let tiles = coords(&chip);
    let mut phases = Vec::new();

    // 1. The demo's chip job.
    let images: Vec<ElfImage> = ["brisc", "trisc0", "trisc1", "trisc2"]
        .iter()
        .map(|name| {
            let path = repo().join(format!("crates/cli/demo/{name}.elf"));
            ElfImage::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect();
    for (i, &(x, y)) in tiles.iter().enumerate() {
        for img in &images {
            for s in &img.segments {
                let mut data = s.data.clone();
                data.resize(s.mem_size.max(data.len() as u32) as usize, 0);
                chip.write_l1(x, y, u64::from(s.addr), &data)
                    .expect("kernel");
            }
        }
        chip.write_l1(x, y, L1_A, &tile_of(bf16(a_value(i))))
            .expect("A");
        chip.write_l1(x, y, L1_B, &tile_of(bf16(2.0))).expect("B");
    }
    let c0 = chip.cycle();
    for &(x, y) in &tiles {
        chip.write_reg(x, y, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)
            .expect("release BRISC");
    }
    let demo_done = |t: &bhemu_chip::Tile| t.read_l1_u32(L1_DEMO_DONE).ok() == Some(DEMO_DONE);
    let done = chip.run_until_tiles(200_000, &demo_done).expect("demo");
    assert!(
        done,
        "{schedule:?}, {threads} threads: the demo job did not finish"
    );
    for (i, &(x, y)) in tiles.iter().enumerate() {
        for (what, addr, want) in [
            ("A + B", L1_SUM, bf16(a_value(i) + 2.0)),
            ("B @ A", L1_PRODUCT, bf16(64.0 * a_value(i))),
        ] {
            let mut raw = vec![0u8; 2048];
            chip.read_l1(x, y, addr, &mut raw).expect("output");
            let bad = raw
                .chunks_exact(2)
                .position(|p| u16::from_le_bytes([p[0], p[1]]) != want);
            assert_eq!(
                bad, None,
                "{schedule:?}, {threads} threads, tile ({x},{y}) {what}: first datum not {want:#06x}"
            );
        }
    }
    phases.push(("demo", chip.cycle() - c0, chip.digest().expect("digest")));

    // 2. The ring.
    let n = tiles.len();
    for (i, &(x, y)) in tiles.iter().enumerate() {
        chip.write_reg(x, y, SOFT_RESET_ADDR, SOFT_RESET_ALL)
            .expect("hold");
        chip.write_l1(
            x,
            y,
            0,
            &ring_program(i, (x, y), tiles[(i + 1) % n], tiles[0]),
        )
        .expect("ring program");
    }
    let c0 = chip.cycle();
    for &(x, y) in &tiles {
        chip.write_reg(x, y, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)
            .expect("release BRISC");
    }
    let ring_done = |t: &bhemu_chip::Tile| t.read_l1_u32(RING_DONE).ok() == Some(1);
    let done = chip.run_until_tiles(200_000, &ring_done).expect("ring");
    assert!(
        done,
        "{schedule:?}, {threads} threads: the ring did not finish"
    );
    for (i, &(x, y)) in tiles.iter().enumerate() {
        let prev = (i + n - 1) % n;
        let want = (0x5A00_0000 | prev as u32) + 300 + 11 * (i as u32 % 9);
        let got = chip
            .tile(x, y)
            .and_then(|t| t.read_l1_u32(RING_RESULT).ok());
        assert_eq!(
            got,
            Some(want),
            "{schedule:?}, {threads} threads, tile ({x},{y})"
        );
    }
    phases.push(("ring", chip.cycle() - c0, chip.digest().expect("digest")));

    // 3. Idle.
    let c0 = chip.cycle();
    chip.clock(5000).expect("idle");
    phases.push(("idle", chip.cycle() - c0, chip.digest().expect("digest")));
    let counts = Counts {
        parks: chip.park_counts(),
        sleeps: chip.sleep_counts(),
        spread: chip.spread_cycles(),
        quanta: chip.quanta(),
    };
    (phases, counts)
}

/// The reference run and the fast runs on 1, 2 and 4 threads under `timing`, compared phase
/// by phase.
fn compare(timing: Timing) {
    let (reference, none) = run(Schedule::Reference, 1, timing);
    assert_eq!(none.parks, (0, 0), "the reference schedule never parks");
    assert_eq!(none.sleeps, (0, 0), "the reference schedule never sleeps");
    for threads in [1, 2, 4] {
        let (fast, c) = run(Schedule::Fast, threads, timing);
        eprintln!(
            "{timing:?}, fast schedule, {threads} threads: {:?} parks/wakes, {:?} sleeps/slept cycles, {} cycles spread, {:?} quanta/cycles",
            c.parks, c.sleeps, c.spread, c.quanta
        );
        // Each mechanism was exercised: idle cores parked and were woken (by the host's
        // soft reset and program writes, and by the NoC), stalled TRISCs slept, and with more
        // than one thread cycles were spread.
        assert!(
            c.parks.0 >= 140 && c.parks.1 >= 140,
            "{threads} threads: {:?} parks/wakes",
            c.parks
        );
        assert!(c.sleeps.0 > 0, "{threads} threads: no stall slept");
        assert_eq!(
            c.spread > 0,
            threads > 1,
            "{threads} threads: {} cycles spread",
            c.spread
        );
        // Under per-hop timing the fast schedule runs quanta of several cycles; under
        // functional timing none.
        assert_eq!(
            c.quanta.0 > 0,
            timing != Timing::Functional,
            "{threads} threads: {:?} quanta/cycles",
            c.quanta
        );
        assert_eq!(reference.len(), fast.len());
        for ((name, rc, rd), (_, fc, fd)) in reference.iter().zip(&fast) {
            eprintln!("{name}: {rc} cycles, digest {:016x}", rd.total());
            assert_eq!(rc, fc, "{name}, {threads} threads: cycle count");
            assert_eq!(
                rd.first_difference(fd),
                None,
                "{name}, {threads} threads: first differing part"
            );
        }
    }
}

#[test]
fn em9_fast_schedule_matches_reference_digest_on_the_projects_own_kernels() {
    compare(Timing::Functional);
}

/// docs/execution-model.md EM-25 (docs/noc-lookahead.md, "The quantum under hop timing"): in
/// quanta of up to 20 cycles the fast schedule still matches the reference cycle for cycle.
#[test]
fn em25_quanta_under_hop_timing_match_reference_digest_on_the_projects_own_kernels() {
    compare(Timing::BLACKHOLE);
}

/// docs/core-timing.md CT-10: under the pipeline timing the same kernels compute the same
/// results (checked inside the run: every tile's sums, products and ring stamps) in more
/// cycles, on the reference schedule whatever schedule and thread count are asked for, and
/// the same run twice is the same digest and cycle count.
#[test]
fn ct10_the_pipeline_timing_runs_on_the_reference_schedule_with_the_same_results() {
    let (one, _) = run(Schedule::Reference, 1, Timing::Functional);
    let (piped, counts) = run_timed(Schedule::Fast, 2, Timing::Functional, CoreTiming::Pipeline);
    let (again, _) = run_timed(Schedule::Fast, 1, Timing::Functional, CoreTiming::Pipeline);
    assert_eq!(
        counts.parks,
        (0, 0),
        "nothing parks on the reference schedule"
    );
    for ((name, oc, _), ((_, pc, pd), (_, ac, ad))) in one.iter().zip(piped.iter().zip(&again)) {
        eprintln!("{name}: {oc} cycles one per cycle, {pc} pipelined");
        assert_eq!(pc, ac, "{name}: cycle count of two pipelined runs");
        assert_eq!(pd.first_difference(ad), None, "{name}: two pipelined runs");
    }
    assert!(piped[0].1 > one[0].1, "the demo takes longer pipelined");
    assert!(piped[1].1 > one[1].1, "the ring takes longer pipelined");
}
