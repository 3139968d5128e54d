//! Clauses of docs/execution-model.md about what the fast schedule visits and when, checked by
//! value: when a tile is due again (`Tile::next_due`), where the clock jumps over quiet
//! cycles, which loops never park, and how far a lone core runs ahead. Each test is named after
//! its clause; every run is also compared with the reference schedule.
mod common;
use bhemu_chip::{Chip, Core, Schedule};
use bhemu_isa::riscv::{BranchOp, Insn, LoadOp};
use common::*;

/// The word BRISC polls, and where it records `mcycle` once the word reads non-zero.
const FLAG: u32 = 0x20000;
const OUT: u32 = 0x20100;
/// An L1 word no program reads.
const ELSEWHERE: u64 = 0x30000;
/// The tile's wall clock (low word), an MMIO register that changes every cycle.
const WALL_CLOCK: u32 = 0xFFB1_21F0;

/// BRISC alone on tile (1,2), running `program` from its reset pc 0.
fn brisc_alone(schedule: Schedule, program: &[Insn]) -> Chip {
    let mut c = chip("1,2", schedule);
    c.write_l1(1, 2, 0, &bytes(program)).expect("program");
    c.write_reg(1, 2, 0xFFB1_21B0, 0x47000)
        .expect("release BRISC");
    c
}

fn next_due(c: &Chip) -> u64 {
    c.tile(1, 2).map_or(0, |t| t.next_due(c.cycle()))
}

fn poll_program() -> Vec<Insn> {
    let mut p = poll_then_record(FLAG, 0, OUT);
    p.push(spin());
    p
}

/// EM-10: a tile whose cores are all parked is never due; a write the parked core watches makes
/// it due the next cycle; a write elsewhere leaves it alone.
#[test]
fn em10_a_tile_is_due_only_while_a_core_steps_or_a_watched_write_waits() {
    let mut c = brisc_alone(Schedule::Fast, &poll_program());
    c.clock(1).expect("run");
    assert_eq!(
        next_due(&c),
        c.cycle() + 1,
        "BRISC steps every cycle at first"
    );
    c.clock(200).expect("run");
    assert_eq!(c.park_counts(), (1, 0), "BRISC's poll of L1 parks");
    assert_eq!(next_due(&c), u64::MAX, "every core parked: never due");
    c.write_l1(1, 2, ELSEWHERE, &7u32.to_le_bytes())
        .expect("write elsewhere");
    assert_eq!(
        next_due(&c),
        u64::MAX,
        "a write nobody watches wakes no one"
    );
    c.clock(50).expect("run");
    assert_eq!(c.park_counts(), (1, 0));
    c.write_l1(1, 2, u64::from(FLAG), &1u32.to_le_bytes())
        .expect("set the flag");
    let at = c.cycle();
    assert_eq!(
        next_due(&c),
        at + 1,
        "a watched write is looked at next cycle"
    );
    c.clock(20).expect("run");
    // (Its spin after recording may park again: only the wake is this clause's.)
    assert_eq!(c.park_counts().1, 1, "the write woke BRISC");
    let recorded = c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok());

    // The reference schedule, with the flag set at the same cycle, records the same mcycle.
    let mut r = brisc_alone(Schedule::Reference, &poll_program());
    r.clock(201).expect("run");
    r.write_l1(1, 2, ELSEWHERE, &7u32.to_le_bytes())
        .expect("write elsewhere");
    r.clock(at - 201).expect("run");
    r.write_l1(1, 2, u64::from(FLAG), &1u32.to_le_bytes())
        .expect("set the flag");
    r.clock(20).expect("run");
    let want = r.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok());
    assert!(
        want.is_some_and(|m| m > at as u32),
        "reference recorded {want:?}"
    );
    assert_eq!(recorded, want, "mcycle recorded after the wake");
    assert_eq!(
        c.digest()
            .expect("digest")
            .first_difference(&r.digest().expect("digest")),
        None
    );
}

/// EM-11: with every core parked and the NoC idle, `clock(n)` jumps to the end: after a billion
/// cycles the parked poll has retired one instruction per cycle and stands at the pc of that
/// phase of its two-instruction loop.
#[test]
fn em11_with_every_core_parked_the_clock_jumps_to_the_end_exactly() {
    let mut c = brisc_alone(Schedule::Fast, &poll_program());
    c.clock(100).expect("run");
    assert_eq!(c.park_counts(), (1, 0));
    let n = 1_000_000_000;
    c.clock(n).expect("jump");
    assert_eq!(c.cycle(), 100 + n);
    assert_eq!(c.park_counts(), (1, 0), "nothing woke it");
    c.sync_parked().expect("sync");
    let Some(t) = c.tile(1, 2) else {
        panic!("no tile (1,2)")
    };
    let h = t.hart(Core::Brisc);
    assert_eq!(h.cycles(), 100 + n, "the hart's cycle count");
    assert_eq!(h.instret(), 100 + n, "one instruction retired per cycle");
    // lui, addi (pcs 0, 4), then the loop `lw` at 8, `beq` at 12: instruction k ≥ 2 is at
    // 8 + 4 * (k % 2); the next to execute is instruction 100 + n.
    let k = 100 + n;
    assert_eq!(h.pc(), 8 + 4 * (k % 2) as u32, "pc after {k} instructions");
}

/// A loop that polls `FLAG` and, each pass, also does `extra`.
fn impure_loop(extra: Vec<Insn>) -> Vec<Insn> {
    let mut p = li(T0, FLAG);
    let head = p.len();
    p.push(Insn::Load {
        op: LoadOp::Lw,
        rd: T2,
        rs1: T0,
        offset: 0,
    });
    p.extend(extra);
    let back = -4 * (p.len() - head) as i32;
    p.push(branch(BranchOp::Beq, T2, 0, back));
    p.push(spin());
    p
}

/// EM-13: a pass that stores, or reads an MMIO register other than the overlay's stream
/// registers (here the wall clock), is not idle: such loops never park, and run exactly as
/// under the reference schedule.
#[test]
fn em13_loops_that_store_or_read_other_mmio_never_park() {
    let store_each_pass = vec![sw(T2, T0)];
    let mut wall = li(T1, WALL_CLOCK);
    wall.push(Insn::Load {
        op: LoadOp::Lw,
        rd: S0,
        rs1: T1,
        offset: 0,
    });
    for (what, extra) in [("a store", store_each_pass), ("the wall clock", wall)] {
        let prog = impure_loop(extra);
        let mut f = brisc_alone(Schedule::Fast, &prog);
        let mut r = brisc_alone(Schedule::Reference, &prog);
        f.clock(3000).expect("run");
        r.clock(3000).expect("run");
        assert_eq!(f.park_counts(), (0, 0), "{what}: parked");
        assert_eq!(next_due(&f), f.cycle() + 1, "{what}: steps every cycle");
        assert_eq!(
            f.digest()
                .expect("digest")
                .first_difference(&r.digest().expect("digest")),
            None,
            "{what}"
        );
    }
}

/// `n` passes of a two-instruction countdown (`li s0, n` first), then `li t0, OUT; li t1, 7;
/// sw t1, 0(t0); j .`: 2 + 2n + 4 private instructions before the store.
fn countdown_then_store(n: u32) -> Vec<Insn> {
    let mut p = li(S0, n);
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -4));
    p.extend(li(T0, OUT));
    p.extend(li(T1, 7));
    p.push(sw(T1, T0));
    p.push(spin());
    p
}

/// EM-17: a core alone in its tile runs its decoded private instructions ahead of the clock
/// (the tile's code is decoded a window at a time, EM-27): its tile is due again exactly at the
/// cycle of the first instruction that is not private (the store after the loop), and stays so
/// while the chip's clock catches up. A run of fewer than 32 private instructions is undone
/// and the core steps every cycle. Either way the store lands in the same cycle as under the
/// reference schedule.
#[test]
fn em17_a_lone_core_runs_ahead_through_its_decoded_private_code_unless_the_run_is_short() {
    for (n, ahead) in [(1000u32, true), (100, true), (12, false), (5, false)] {
        let after_loop = u64::from(2 + 2 * n);
        // The loop, then `li` (2 instructions) twice: all private.
        let store_at = after_loop + 4;
        let prog = countdown_then_store(n);
        let mut f = brisc_alone(Schedule::Fast, &prog);
        // (cycle after the tick, due) for the first 12 cycles.
        let mut dues = Vec::new();
        for _ in 0..12 {
            f.clock(1).expect("run");
            dues.push((f.cycle(), next_due(&f)));
        }
        let first_ahead = dues.iter().position(|&(c, d)| d > c + 1);
        if ahead {
            let Some(k) = first_ahead else {
                panic!("n = {n}: never ran ahead: {dues:?}")
            };
            assert!(k <= 6, "n = {n}: ran ahead only after {k} cycles: {dues:?}");
            assert!(
                dues[k..].iter().all(|&(_, d)| d == store_at),
                "n = {n}: due at cycle {store_at} from cycle {k} on: {dues:?}"
            );
        } else {
            assert_eq!(
                first_ahead, None,
                "n = {n}: a short run stays undone: {dues:?}"
            );
        }
        // The store retires in cycle `store_at` under both schedules.
        let mut r = brisc_alone(Schedule::Reference, &prog);
        for c in [&mut f, &mut r] {
            let hit = c.run_until_l1(10_000, |c| {
                c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok()) == Some(7)
            });
            assert_eq!(hit.ok(), Some(true), "n = {n}");
            assert_eq!(
                c.cycle(),
                store_at + 1,
                "n = {n}: first cycle after the store"
            );
        }
        assert_eq!(
            f.digest()
                .expect("digest")
                .first_difference(&r.digest().expect("digest")),
            None,
            "n = {n}"
        );
    }
}

/// EM-26: installing a timeline tracer switches the chip to the reference schedule, first
/// bringing every parked core to the cycle; the traced run then computes what an untraced
/// reference run does, cycle for cycle.
#[test]
fn em26_installing_a_tracer_switches_to_the_reference_schedule_exactly() {
    let mut f = brisc_alone(Schedule::Fast, &poll_program());
    f.clock(200).expect("run");
    assert_eq!(f.park_counts(), (1, 0));
    bhemu_chip::trace::ChipTracer::install(&mut f, bhemu_trace::TraceOptions::default())
        .expect("tracer");
    assert_eq!(f.schedule(), Schedule::Reference);
    assert_eq!(
        f.park_counts(),
        (1, 1),
        "the parked core was brought to the cycle"
    );
    let mut r = brisc_alone(Schedule::Reference, &poll_program());
    r.clock(200).expect("run");
    for c in [&mut f, &mut r] {
        c.clock(33).expect("run");
        c.write_l1(1, 2, u64::from(FLAG), &1u32.to_le_bytes())
            .expect("set the flag");
        c.clock(20).expect("run");
    }
    let recorded = |c: &Chip| c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok());
    assert!(
        recorded(&r).is_some_and(|m| m > 233),
        "reference recorded {:?}",
        recorded(&r)
    );
    assert_eq!(recorded(&f), recorded(&r), "mcycle recorded after the flag");
    assert_eq!(
        f.digest()
            .expect("digest")
            .first_difference(&r.digest().expect("digest")),
        None
    );
    let trace = f.finish_trace();
    assert!(trace.is_some(), "the tracer recorded the run");
}

/// EM-27: tiles whose cores run the same words at the same addresses share one decoded copy;
/// a tile with other words gets its own; each computes what it would alone, in the same cycle
/// under both schedules.
#[test]
fn em27_tiles_booting_the_same_firmware_share_its_decoded_code() {
    let mut outs = Vec::new();
    for schedule in [Schedule::Fast, Schedule::Reference] {
        let mut c = chip("8", schedule);
        // Tile 5 counts down from 30 instead of 20: other words at the same addresses.
        let xy = release_briscs(&mut c, |i| {
            bytes(&countdown_then_store(if i == 5 { 30 } else { 20 }))
        });
        let hit = c.run_until_l1(10_000, |c| {
            xy.iter()
                .all(|&(x, y)| c.tile(x, y).and_then(|t| t.read_l1_u32(OUT).ok()) == Some(7))
        });
        assert_eq!(hit.ok(), Some(true), "{schedule:?}: every tile stores");
        assert_eq!(
            c.code_windows(),
            2,
            "{schedule:?}: one window per distinct program"
        );
        outs.push(c.cycle());
    }
    assert_eq!(
        outs[0], outs[1],
        "the last store in the same cycle under both schedules"
    );
    assert_eq!(outs[0], 2 + 2 * 30 + 4 + 1, "tile 5's store ends the run");
}

/// Where BRISC's own local data RAM starts (fast path) and its slow-path alias for others.
const LOCAL: u32 = 0xFFB0_0000;
const BRISC_SLOW: u32 = 0xFFB1_4000;
/// A local-RAM word the loop below only reads (the host may write it).
const LOCAL_IN: u32 = 0x1F00;

/// `n` passes of: store the counter at the next local-RAM word, load the fixed word
/// `LOCAL_IN`, add it and the counter into t1; then t1 to L1 `OUT` and spin. Every access of
/// the loop is to BRISC's own local RAM (7 instructions a pass: 2 + 2 + 2 + 7n + 2 cycles
/// before the store to L1).
fn local_ram_loop(n: u32) -> Vec<Insn> {
    use bhemu_isa::riscv::RegOp;
    const S1: u8 = 9;
    let mut p = li(S0, n);
    p.extend(li(T0, LOCAL));
    p.extend(li(S1, LOCAL + LOCAL_IN));
    p.push(sw(S0, T0));
    p.push(lw(T2, S1));
    for rs2 in [T2, S0] {
        p.push(Insn::Op {
            op: RegOp::Add,
            rd: T1,
            rs1: T1,
            rs2,
        });
    }
    p.push(addi(T0, T0, 4));
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -24));
    p.extend(li(T0, OUT));
    p.push(sw(T1, T0));
    p.push(spin());
    p
}

/// EM-28: a lone core runs ahead through loads and stores of its own local data RAM too: its
/// tile is next due at the store to L1 after the loop; the loop's stores are in local RAM at
/// once, and the result and every cycle equal the reference schedule's.
#[test]
fn em28_a_lone_core_runs_ahead_through_its_own_local_ram() {
    let n = 1000u32;
    let prog = local_ram_loop(n);
    let store_at = u64::from(2 + 2 + 2 + 7 * n + 2);
    let mut f = brisc_alone(Schedule::Fast, &prog);
    let mut dues = Vec::new();
    for _ in 0..12 {
        f.clock(1).expect("run");
        dues.push((f.cycle(), next_due(&f)));
    }
    assert!(
        dues.iter().any(|&(_, d)| d == store_at),
        "ran ahead to the store at cycle {store_at}: {dues:?}"
    );
    let mut r = brisc_alone(Schedule::Reference, &prog);
    for c in [&mut f, &mut r] {
        let hit = c.run_until_l1(20_000, |c| {
            c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok()) != Some(0)
        });
        assert_eq!(hit.ok(), Some(true));
        assert_eq!(c.cycle(), store_at + 1, "first cycle after the store");
    }
    let want = n * (n + 1) / 2;
    for c in [&f, &r] {
        assert_eq!(
            c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok()),
            Some(want)
        );
    }
    assert_eq!(
        f.digest()
            .expect("digest")
            .first_difference(&r.digest().expect("digest")),
        None
    );
}

/// EM-28: whoever looks at or writes a core's local RAM while it is ahead — the host through
/// the slow-path alias, reading or writing, a soft reset — sees it, and leaves it, exactly as
/// under the reference schedule, at any cycle of the run.
#[test]
fn em28_looking_at_local_ram_rewinds_the_core_that_ran_ahead_through_it() {
    use bhemu_chip::NocIndex;
    let prog = local_ram_loop(600);
    for at in [1u64, 7, 40, 41, 42, 43, 700, 1201, 3000] {
        for what in 0..4 {
            let mut seen = Vec::new();
            let mut digests = Vec::new();
            for schedule in [Schedule::Reference, Schedule::Fast] {
                let mut c = brisc_alone(schedule, &prog);
                c.clock(at).expect("run");
                let mut w = [0u8; 8];
                match what {
                    0 => c
                        .host_read(NocIndex::Noc0, 1, 2, u64::from(BRISC_SLOW + 0x100), &mut w)
                        .expect("read"),
                    1 => {
                        c.host_write(
                            NocIndex::Noc0,
                            1,
                            2,
                            u64::from(BRISC_SLOW + LOCAL_IN + 0x100),
                            &3u32.to_le_bytes(),
                        )
                        .expect("write");
                    }
                    2 => {
                        c.write_reg(1, 2, 0xFFB1_21B0, 0x47800)
                            .expect("BRISC into reset");
                        c.clock(10).expect("run");
                        c.write_reg(1, 2, 0xFFB1_21B0, 0x47000).expect("release");
                    }
                    _ => {}
                }
                c.clock(4000).expect("run");
                seen.push((w, c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok())));
                digests.push(c.digest().expect("digest"));
            }
            assert_eq!(seen[0], seen[1], "at {at}, event {what}: reference vs fast");
            assert_eq!(
                digests[0].first_difference(&digests[1]),
                None,
                "at {at}, event {what}"
            );
        }
    }
}

/// EM-28 with other cores stepping: BRISC runs its local-RAM loop ahead while TRISC0 counts
/// down `delay` passes, then reads BRISC's pc snapshot and a word of BRISC's local RAM through
/// the slow path, writes the word BRISC's loop reads, and stores what it read to L1 — or, in a
/// second variant, only stores over an instruction of BRISC's loop. BRISC is
/// brought to the exact cycle before each look: what TRISC0 records, BRISC's result and the
/// digest equal the reference schedule's for every delay.
#[test]
fn em28_another_core_looking_rewinds_the_core_that_ran_ahead() {
    const S1: u8 = 9;
    let looker = |delay: u32, patch: Option<(u32, u32)>| {
        let mut p = li(S0, delay);
        p.push(addi(S0, S0, -1));
        p.push(branch(BranchOp::Bne, S0, 0, -4));
        if let Some((at, word)) = patch {
            // Only a store over an instruction of BRISC's loop (nothing looks at BRISC).
            p.extend(li(T0, at));
            p.extend(li(S1, word));
            p.push(sw(S1, T0));
            p.extend(li(T1, 1));
            p.extend(li(T2, 1));
        } else {
            p.extend(li(T0, 0xFFB1_3138)); // BRISC's pc snapshot
            p.push(lw(T1, T0));
            p.extend(li(T0, BRISC_SLOW + 0x40));
            p.push(lw(T2, T0));
            p.extend(li(T0, BRISC_SLOW + LOCAL_IN));
            p.extend(li(S1, 5));
            p.push(sw(S1, T0));
        }
        p.extend(li(T0, OUT + 0x40));
        p.push(sw(T1, T0));
        p.push(addi(T0, T0, 4));
        p.push(sw(T2, T0));
        p.push(spin());
        p
    };
    use bhemu_isa::riscv::{encode, RegOp};
    let brisc_prog = local_ram_loop(200);
    // The loop's second `add t1, t1, ...` (of s0), patched to `add t1, t1, t1`.
    let add_at = brisc_prog
        .iter()
        .rposition(|i| matches!(i, Insn::Op { op: RegOp::Add, .. }))
        .expect("add") as u32
        * 4;
    let doubled = encode(&Insn::Op {
        op: RegOp::Add,
        rd: T1,
        rs1: T1,
        rs2: T1,
    });
    let mut ran_ahead = 0;
    for (delay, patch) in [1u32, 2, 3, 10, 11, 40, 41, 300, 301]
        .into_iter()
        .flat_map(|d| [(d, None), (d, Some((add_at, doubled)))])
    {
        let mut got = Vec::new();
        let mut digests = Vec::new();
        for schedule in [Schedule::Reference, Schedule::Fast] {
            let mut c = chip("1,2", schedule);
            c.write_l1(1, 2, 0, &bytes(&brisc_prog)).expect("brisc");
            release_with_trisc0(&mut c, &looker(delay, patch));
            // Before TRISC0 looks (its 2 + 2 * delay cycles of counting).
            let before = u64::from(2 * delay).saturating_sub(3).max(1);
            c.clock(before).expect("run");
            // Unsynced, a core ahead of the clock shows more cycles than the chip.
            let brisc = c.tile(1, 2).map_or(0, |t| t.hart(Core::Brisc).cycles());
            if schedule == Schedule::Fast && brisc > c.cycle() {
                ran_ahead += 1;
            }
            c.clock(3000 - before).expect("run");
            let t = c.tile(1, 2).expect("tile");
            let read = |a: u32| t.read_l1_u32(a).unwrap_or(0);
            got.push((read(OUT), read(OUT + 0x40), read(OUT + 0x44)));
            digests.push(c.digest().expect("digest"));
        }
        assert_eq!(
            got[0], got[1],
            "delay {delay}, {patch:?}: reference vs fast"
        );
        assert_ne!(got[0].1, 0, "delay {delay}: TRISC0 read a pc");
        assert_eq!(
            digests[0].first_difference(&digests[1]),
            None,
            "delay {delay}, {patch:?}"
        );
    }
    assert!(ran_ahead > 0, "BRISC never ran ahead while TRISC0 stepped");
}

/// Puts `trisc0` at TRISC0's reset pc (0x6000) and a spin at NCRISC's, TRISC1's and TRISC2's,
/// then releases every core of tile (1,2) (BRISC's code is the caller's).
fn release_with_trisc0(c: &mut Chip, trisc0: &[Insn]) {
    c.write_l1(1, 2, 0x6000, &bytes(trisc0)).expect("trisc0");
    for pc in [0x12000u64, 0xA000, 0xE000] {
        c.write_l1(1, 2, pc, &bytes(&[spin()])).expect("others");
    }
    c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
}

/// Runs `run` under the reference schedule, then the fast one, and asserts that what it read
/// back and the chips' digests are the same (`what` names the case).
fn schedules_agree<T: PartialEq + std::fmt::Debug>(
    what: &str,
    run: impl Fn(Schedule) -> (T, Chip),
) {
    let (want, mut r) = run(Schedule::Reference);
    let (got, mut f) = run(Schedule::Fast);
    assert_eq!(want, got, "{what}: reference vs fast");
    assert_eq!(
        r.digest()
            .expect("digest")
            .first_difference(&f.digest().expect("digest")),
        None,
        "{what}"
    );
}

/// Where [`l1_sum_loop`] reads its words: L1, away from the code and `OUT`.
const SRC: u32 = 0x40000;

/// `n` passes of: load the next L1 word at `SRC`, add it to t1, store t1 in BRISC's local
/// RAM; then t1 to L1 `OUT` and spin (6 instructions a pass: 2 + 2 + 2 + 6n + 2 cycles before
/// the store to L1). With `then_poll`, a poll of `FLAG` follows instead of the spin.
fn l1_sum_loop(n: u32, then_poll: bool) -> Vec<Insn> {
    use bhemu_isa::riscv::RegOp;
    const S1: u8 = 9;
    let mut p = li(S0, n);
    p.extend(li(T0, LOCAL));
    p.extend(li(S1, SRC));
    p.push(lw(T2, S1));
    p.push(Insn::Op {
        op: RegOp::Add,
        rd: T1,
        rs1: T1,
        rs2: T2,
    });
    p.push(sw(T1, T0));
    p.push(addi(S1, S1, 4));
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -20));
    p.extend(li(T0, OUT));
    p.push(sw(T1, T0));
    if then_poll {
        p.extend(poll_program());
    } else {
        p.push(spin());
    }
    p
}

/// BRISC alone running `program` with the words `SRC + 4k` holding `k + 1`.
fn summing_chip(schedule: Schedule, program: &[Insn], n: u32) -> Chip {
    let mut c = brisc_alone(schedule, program);
    let words: Vec<u8> = (1..=n).flat_map(|k| k.to_le_bytes()).collect();
    c.write_l1(1, 2, u64::from(SRC), &words).expect("words");
    c
}

/// EM-29: a lone core runs ahead through its loads of L1 too: its tile is next due at the
/// store to L1 after the loop, and the sum and every cycle equal the reference schedule's.
/// A poll of L1 after it (a pass that loads L1 and stores nothing) still parks.
#[test]
fn em29_a_lone_core_runs_ahead_through_its_loads_of_l1() {
    let n = 1000u32;
    let prog = l1_sum_loop(n, true);
    let store_at = u64::from(2 + 2 + 2 + 6 * n + 2);
    let mut f = summing_chip(Schedule::Fast, &prog, n);
    let mut dues = Vec::new();
    for _ in 0..12 {
        f.clock(1).expect("run");
        dues.push((f.cycle(), next_due(&f)));
    }
    assert!(
        dues.iter().any(|&(_, d)| d == store_at),
        "ran ahead to the store at cycle {store_at}: {dues:?}"
    );
    let mut r = summing_chip(Schedule::Reference, &prog, n);
    for c in [&mut f, &mut r] {
        let hit = c.run_until_l1(20_000, |c| {
            c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok()) != Some(0)
        });
        assert_eq!(hit.ok(), Some(true));
        assert_eq!(c.cycle(), store_at + 1, "first cycle after the store");
        c.clock(200).expect("run");
    }
    let want = n * (n + 1) / 2;
    for c in [&f, &r] {
        assert_eq!(
            c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok()),
            Some(want)
        );
    }
    assert_eq!(
        next_due(&f),
        u64::MAX,
        "the poll of FLAG after the loop parked"
    );
    assert_eq!(
        f.digest()
            .expect("digest")
            .first_difference(&r.digest().expect("digest")),
        None
    );
}

/// EM-29: a write under a load a core ran ahead through — by the host between cycles, or by
/// another core of the tile within a cycle — rewinds it to the exact cycle: loads before the
/// write get the old value, loads after it the new one, and the sum and digest equal the
/// reference schedule's at any cycle of the run; a write to a line it did not read changes
/// nothing.
#[test]
fn em29_a_write_under_a_load_rewinds_the_core_that_ran_ahead_through_it() {
    let n = 600u32;
    let prog = l1_sum_loop(n, false);
    // The host writes word k at cycle `at` (or a word on a line the loop never reads).
    for at in [1u64, 7, 40, 41, 42, 43, 700, 1201, 3000] {
        for k in [0u32, 5, 100, 300, 599, 5000] {
            schedules_agree(&format!("host write of word {k} at {at}"), |schedule| {
                let mut c = summing_chip(schedule, &prog, n);
                c.clock(at).expect("run");
                c.write_l1(1, 2, u64::from(SRC + 4 * k), &1000u32.to_le_bytes())
                    .expect("write");
                c.clock(4000).expect("run");
                (c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok()), c)
            });
        }
    }
    // TRISC0 counts down `delay` passes, then stores over word k; BRISC sums meanwhile.
    let writer = |delay: u32, k: u32| {
        let mut p = li(S0, delay);
        p.push(addi(S0, S0, -1));
        p.push(branch(BranchOp::Bne, S0, 0, -4));
        p.extend(li(T0, SRC + 4 * k));
        p.extend(li(T1, 77));
        p.push(sw(T1, T0));
        p.push(spin());
        p
    };
    let ran_ahead = std::cell::Cell::new(0);
    for delay in [1u32, 2, 3, 10, 11, 40, 41, 300, 301, 1500] {
        for k in [0u32, 20, 200, 599] {
            schedules_agree(
                &format!("TRISC0's store of word {k} after {delay}"),
                |schedule| {
                    let mut c = summing_chip(schedule, &prog, n);
                    release_with_trisc0(&mut c, &writer(delay, k));
                    let before = u64::from(2 * delay).saturating_sub(3).max(1);
                    c.clock(before).expect("run");
                    let brisc = c.tile(1, 2).map_or(0, |t| t.hart(Core::Brisc).cycles());
                    if schedule == Schedule::Fast && brisc > c.cycle() {
                        ran_ahead.set(ran_ahead.get() + 1);
                    }
                    c.clock(5000 - before).expect("run");
                    (c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok()), c)
                },
            );
        }
    }
    assert!(
        ran_ahead.get() > 0,
        "BRISC never ran ahead while TRISC0 stepped"
    );
}

/// Reads the wall clock's low word, then waits until it reaches that reading + `delay`,
/// reading the latched high word every pass too (as tt-metal's TRISC firmware waits at
/// start-up); then stores the last low word at `out` and spins.
fn wall_clock_wait(delay: u32, out: u32) -> Vec<Insn> {
    use bhemu_isa::riscv::RegOp;
    let mut p = li(T1, WALL_CLOCK);
    p.push(lw(T2, T1));
    p.extend(li(S0, delay));
    p.push(Insn::Op {
        op: RegOp::Add,
        rd: S0,
        rs1: S0,
        rs2: T2,
    });
    p.push(lw(T0, T1));
    p.push(Insn::Load {
        op: LoadOp::Lw,
        rd: T2,
        rs1: T1,
        offset: 8,
    });
    p.push(branch(BranchOp::Bltu, T0, S0, -8));
    p.extend(li(T2, out));
    p.push(sw(T0, T2));
    p.push(spin());
    p
}

fn out_word(c: &Chip, addr: u32) -> Option<u32> {
    c.tile(1, 2).and_then(|t| t.read_l1_u32(addr).ok())
}

/// EM-30: a core runs ahead through its reads of the wall clock, each reading the cycle it
/// executes in; while it is ahead, its last MMIO access as a hang report shows it
/// (`Tile::last_mmio_at`) is the reference schedule's at every cycle, and the wait ends with
/// the same reading, in the same cycle, as under the reference schedule.
#[test]
fn em30_a_core_runs_ahead_through_its_reads_of_the_wall_clock() {
    for delay in [100u32, 600, 5000] {
        let prog = wall_clock_wait(delay, OUT);
        let mut f = brisc_alone(Schedule::Fast, &prog);
        let mut r = brisc_alone(Schedule::Reference, &prog);
        let mut ahead = 0;
        while f.cycle() < u64::from(delay) + 100 {
            f.clock(7).expect("run");
            r.clock(7).expect("run");
            if next_due(&f) > f.cycle() + 1 {
                ahead += 1;
            }
            let seen = f
                .tile(1, 2)
                .and_then(|t| t.last_mmio_at(Core::Brisc, f.cycle()));
            let want = r.tile(1, 2).and_then(|t| t.last_mmio(Core::Brisc));
            assert_eq!(seen, want, "delay {delay}, cycle {}", f.cycle());
        }
        assert!(
            ahead * 7 > delay / 2,
            "delay {delay}: ahead at {ahead} looks"
        );
        let got = out_word(&f, OUT);
        assert_eq!(got, out_word(&r, OUT), "delay {delay}");
        assert!(got.is_some_and(|v| v >= delay), "delay {delay}: {got:?}");
        assert_eq!(
            f.digest()
                .expect("digest")
                .first_difference(&r.digest().expect("digest")),
            None,
            "delay {delay}"
        );
    }
}

/// EM-30: looking at a core that ran ahead through the wall clock — the host bringing every
/// core to the cycle, at any phase of the wait — rewinds and replays it exactly: its pc, its
/// last MMIO access and everything after equal the reference schedule's.
#[test]
fn em30_looking_at_a_core_ahead_through_the_wall_clock_rewinds_it_exactly() {
    let prog = wall_clock_wait(600, OUT);
    for at in [1u64, 5, 8, 9, 10, 30, 31, 32, 200, 599, 600, 601, 605, 700] {
        schedules_agree(&format!("looked at after {at} cycles"), |schedule| {
            let mut c = brisc_alone(schedule, &prog);
            c.clock(at).expect("run");
            c.sync_parked().expect("sync");
            let t = c.tile(1, 2);
            let seen = (
                t.map(|t| t.pc(Core::Brisc)),
                t.and_then(|t| t.last_mmio(Core::Brisc)),
            );
            c.clock(1000).expect("run");
            ((seen, out_word(&c, OUT)), c)
        });
    }
}

/// EM-10: a tile whose stepping cores have all run ahead (here BRISC and TRISC0, each in a
/// wait on the wall clock, the other cores parked on their spins) is not visited until the
/// first of them is due; both waits end as under the reference schedule.
#[test]
fn em10_a_tile_whose_stepping_cores_all_ran_ahead_is_due_when_the_first_of_them_is() {
    let run = |schedule| {
        let mut c = brisc_alone(schedule, &wall_clock_wait(600, OUT));
        release_with_trisc0(&mut c, &wall_clock_wait(900, OUT + 4));
        let mut skipped = 0;
        for _ in 0..1200 {
            c.clock(1).expect("run");
            let both_ahead = c.tile(1, 2).is_some_and(|t| t.awake_cores() == 0b101);
            if both_ahead && next_due(&c) > c.cycle() + 1 {
                skipped += 1;
            }
        }
        ((out_word(&c, OUT), out_word(&c, OUT + 4)), skipped, c)
    };
    let (want, _, mut r) = run(Schedule::Reference);
    let (got, skipped, mut f) = run(Schedule::Fast);
    assert_eq!(got, want);
    assert!(
        skipped > 500,
        "due every cycle while both ran ahead: {skipped} skips"
    );
    assert_eq!(
        f.digest()
            .expect("digest")
            .first_difference(&r.digest().expect("digest")),
        None
    );
}

/// EM-17: a core backing off after short runs (here a loop of stores to L1, which cannot run
/// ahead) tries again as soon as it steps past the highest pc at which those runs started or
/// stopped: the countdown after the loop runs ahead at once, not after the rest of the
/// backoff, and the store after it lands in the reference schedule's cycle.
#[test]
fn em17_a_core_that_steps_past_its_short_runs_tries_again_at_once() {
    let passes = 40u32;
    let mut prog = li(T1, ELSEWHERE as u32);
    prog.extend(li(S0, passes));
    prog.push(sw(S0, T1));
    prog.push(addi(T1, T1, 4));
    prog.push(addi(S0, S0, -1));
    prog.push(branch(BranchOp::Bne, S0, 0, -12));
    let loop_end = u64::from(4 + 4 * passes);
    let n = 1000u32;
    prog.extend(countdown_then_store(n));
    let store_at = loop_end + u64::from(2 + 2 * n + 4);
    let mut f = brisc_alone(Schedule::Fast, &prog);
    let mut first_ahead = None;
    while f.cycle() < loop_end + 200 {
        f.clock(1).expect("run");
        if next_due(&f) > f.cycle() + 1 {
            first_ahead = Some(f.cycle());
            break;
        }
    }
    let Some(at) = first_ahead else {
        panic!("never ran ahead by cycle {}", f.cycle())
    };
    assert!(
        (loop_end..=loop_end + 3).contains(&at),
        "ran ahead from cycle {at}; the store loop ended at {loop_end}"
    );
    let mut r = brisc_alone(Schedule::Reference, &prog);
    for c in [&mut f, &mut r] {
        let hit = c.run_until_l1(10_000, |c| out_word(c, OUT) == Some(7));
        assert_eq!(hit.ok(), Some(true));
        assert_eq!(c.cycle(), store_at + 1, "first cycle after the store");
    }
    assert_eq!(
        f.digest()
            .expect("digest")
            .first_difference(&r.digest().expect("digest")),
        None
    );
}

/// EM-28: a write over code rewinds only the cores ahead whose decoded code it reaches. BRISC
/// runs ahead through its local-RAM loop while TRISC0 counts down; then TRISC0 (at its place in
/// the order) overwrites its own first instruction, long executed, or the host (between
/// cycles) overwrites that instruction after TRISC0 jumped to a window of its own far away,
/// where it counts down ahead of the clock too. BRISC stays ahead through the next 20 cycles
/// (a rewind would have it step for its next 32 visits), and so does TRISC0 after the host's
/// write; what the cores compute and every cycle equal the reference schedule's.
#[test]
fn em28_a_write_over_code_rewinds_only_the_cores_whose_decoded_code_it_reaches() {
    const S1: u8 = 9;
    const NOP: u32 = 0x0000_0013;
    // TRISC0's far code: more than a chunk (4 KiB) past the end of its first window, so the
    // jump there starts a new decode window and leaves 0x6000 in none.
    const FAR: u32 = 0x9000;
    let countdown = |delay: u32| {
        let mut p = li(S0, delay);
        p.push(addi(S0, S0, -1));
        p.push(branch(BranchOp::Bne, S0, 0, -4));
        p
    };
    let setup = |schedule: Schedule, by_host: bool| {
        let mut c = chip("1,2", schedule);
        c.write_l1(1, 2, 0, &bytes(&local_ram_loop(200)))
            .expect("brisc");
        let trisc0 = if by_host {
            let mut far = countdown(400);
            far.push(spin());
            c.write_l1(1, 2, u64::from(FAR), &bytes(&far)).expect("far");
            let mut p = countdown(10);
            p.push(Insn::Jal {
                rd: 0,
                offset: (FAR - 0x6000 - 4 * p.len() as u32) as i32,
            });
            p
        } else {
            let mut p = countdown(40);
            p.extend(li(T0, 0x6000));
            p.extend(li(S1, NOP));
            p.push(sw(S1, T0));
            p.push(spin());
            p
        };
        release_with_trisc0(&mut c, &trisc0);
        c
    };
    let overwritten = |c: &Chip| {
        c.tile(1, 2)
            .and_then(|t| t.read_l1_u32(0x6000).ok())
            .is_some_and(|w| w == NOP)
    };
    let ahead =
        |c: &Chip, core: Core| c.tile(1, 2).map_or(0, |t| t.hart(core).cycles()) > c.cycle();
    for by_host in [false, true] {
        // The cycle the write lands in: TRISC0's store as the reference schedule runs it, or
        // a cycle of the host's choosing while both cores count.
        let at = if by_host {
            60
        } else {
            let mut c = setup(Schedule::Reference, false);
            let mut n = 0;
            while !overwritten(&c) {
                c.clock(1).expect("run");
                n += 1;
                assert!(n < 1000, "TRISC0 never stored");
            }
            n
        };
        let mut results = Vec::new();
        for schedule in [Schedule::Reference, Schedule::Fast] {
            let mut c = setup(schedule, by_host);
            c.clock(at).expect("run");
            if by_host {
                if schedule == Schedule::Fast {
                    assert!(ahead(&c, Core::Trisc0), "TRISC0 ahead in its far countdown");
                }
                c.write_l1(1, 2, 0x6000, &NOP.to_le_bytes()).expect("host");
            } else {
                assert!(overwritten(&c), "TRISC0 stored by cycle {at}");
            }
            for k in 1..=20 {
                c.clock(1).expect("run");
                if schedule == Schedule::Fast {
                    assert!(
                        ahead(&c, Core::Brisc),
                        "by host {by_host}: BRISC not ahead {k} cycles after the write"
                    );
                    if by_host {
                        assert!(
                            ahead(&c, Core::Trisc0),
                            "TRISC0 not ahead {k} cycles after the write"
                        );
                    }
                }
            }
            c.clock(3000).expect("run");
            let out = c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok());
            results.push((out, c.digest().expect("digest")));
        }
        assert_eq!(
            results[0].0, results[1].0,
            "by host {by_host}: reference vs fast"
        );
        assert_ne!(results[0].0, Some(0), "BRISC's loop stored its sum");
        assert_eq!(
            results[0].1.first_difference(&results[1].1),
            None,
            "by host {by_host}"
        );
    }
}
