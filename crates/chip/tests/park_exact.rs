//! Idle-core parking is exact: cores polling L1 in a loop are parked by the fast schedule and
//! woken by a write from a core before them in the order, a core after them, or the host, at
//! every phase of their loop; the digest of the whole chip (harts with cycle/instret, L1s,
//! DRAM) matches the reference schedule's after every run, and so do the cycles the cores
//! record when they leave their loops.
mod common;
use bhemu_chip::{Chip, Schedule};
use bhemu_isa::riscv::{encode, BranchOp, Insn, LoadOp};
use common::*;

/// Counts `k` down in a loop whose registers change (never parked), then stores 1 at `flag`.
fn delay_then_set(k: u32, flag: u32) -> Vec<Insn> {
    let mut p = li(S0, k + 1);
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -4));
    p.extend(li(T0, flag));
    p.extend(li(T1, 1));
    p.push(sw(T1, T0));
    p
}

const FLAG_A: u32 = 0x2_0000; // BRISC → NCRISC (writer before the poller)
const FLAG_B: u32 = 0x2_0040; // TRISC0 → BRISC (writer after the poller)
const FLAG_C: u32 = 0x2_0080; // host → TRISC0
const OUT: u32 = 0x2_0100;

/// One run: returns the digest and what the cores recorded.
fn run(
    schedule: Schedule,
    k: u32,
    k2: u32,
    host_at: u64,
) -> (bhemu_chip::ChipDigest, [u32; 3], (u64, u64)) {
    let mut c = chip("1,2;2,2", schedule);
    for (x, y) in [(1u8, 2u8), (2, 2)] {
        let mut b = delay_then_set(k, FLAG_A);
        b.extend(poll_then_record(FLAG_B, 1, OUT));
        b.push(spin());
        let mut nc = poll_then_record(FLAG_A, 2, OUT + 4);
        nc.push(spin());
        let mut t0 = delay_then_set(k2, FLAG_B);
        t0.extend(poll_then_record(FLAG_C, 0, OUT + 8));
        t0.push(spin());
        c.write_l1(x, y, 0, &bytes(&b)).expect("brisc");
        c.write_l1(x, y, 0x12000, &bytes(&nc)).expect("ncrisc");
        c.write_l1(x, y, 0x6000, &bytes(&t0)).expect("trisc0");
        c.write_l1(x, y, 0xA000, &bytes(&[spin()])).expect("trisc1");
        c.write_l1(x, y, 0xE000, &bytes(&[spin()])).expect("trisc2");
        c.write_reg(x, y, 0xFFB1_21B0, 0).expect("release all");
    }
    c.clock(host_at).expect("run");
    c.write_l1(1, 2, u64::from(FLAG_C), &1u32.to_le_bytes())
        .expect("host write");
    c.write_reg(2, 2, 0xFFB1_21B0, 0x800)
        .expect("TRISC0 of (2,2) into reset");
    c.clock(300).expect("run");
    let mut out = [0u32; 3];
    for (i, o) in out.iter_mut().enumerate() {
        *o = c
            .tile(1, 2)
            .and_then(|t| t.read_l1_u32(OUT + 4 * i as u32).ok())
            .unwrap_or(0);
    }
    let counts = c.park_counts();
    (c.digest().expect("digest"), out, counts)
}

#[test]
fn em14_parked_cores_wake_exactly_at_every_loop_phase() {
    let mut parks = 0;
    let mut wakes = 0;
    for k in 0..6 {
        for (k2, host_at) in [(10, 120), (23, 121), (40, 157), (41, 158)] {
            let (rd, rout, _) = run(Schedule::Reference, k, k2, host_at);
            let (fd, fout, (p, w)) = run(Schedule::Fast, k, k2, host_at);
            parks += p;
            wakes += w;
            assert_eq!(
                rout, fout,
                "k {k}, k2 {k2}, host at {host_at}: recorded cycles"
            );
            assert!(rout.iter().all(|&v| v != 0), "every poll ended: {rout:?}");
            assert_eq!(
                rd.first_difference(&fd),
                None,
                "k {k}, k2 {k2}, host at {host_at}"
            );
        }
    }
    assert!(
        parks > 100 && wakes > 100,
        "parking was exercised: {parks} parks, {wakes} wakes"
    );
}

/// BRISC counts down a private loop (registers only) and stores its result; the other cores
/// sit in one-instruction loops. Returns the program and the address of the loop's `addi t1`.
fn private_loop(n: u32) -> (Vec<Insn>, u32) {
    let mut p = li(S0, n);
    p.extend(li(T1, 0));
    let at = 4 * p.len() as u32;
    p.push(addi(T1, T1, 3));
    p.push(Insn::Op {
        op: bhemu_isa::riscv::RegOp::Xor,
        rd: T2,
        rs1: T2,
        rs2: T1,
    });
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -12));
    p.extend(li(T0, OUT));
    p.push(sw(T2, T0));
    p.push(spin());
    (p, at)
}

/// What the host does to the chip at cycle `at`.
#[derive(Clone, Copy, Debug)]
enum Event {
    /// Only look (the digest brings every core to the cycle).
    Look,
    /// Put BRISC into soft reset, then release it again 50 cycles later.
    Reset,
    /// Overwrite the loop's `addi t1, t1, 3` with `addi t1, t1, 5`.
    Patch,
}

fn run_private_loop(schedule: Schedule, at: u64, ev: Event) -> Vec<bhemu_chip::ChipDigest> {
    let mut c = chip("1,2", schedule);
    let (prog, addi_at) = private_loop(400);
    c.write_l1(1, 2, 0, &bytes(&prog)).expect("brisc");
    for pc in [0x12000u64, 0x6000, 0xA000, 0xE000] {
        c.write_l1(1, 2, pc, &bytes(&[spin()])).expect("others");
    }
    c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
    let mut digests = Vec::new();
    c.clock(at).expect("run");
    digests.push(c.digest().expect("digest"));
    match ev {
        Event::Look => {}
        Event::Reset => {
            c.write_reg(1, 2, 0xFFB1_21B0, 0x40000)
                .expect("BRISC into reset");
            c.clock(50).expect("run");
            digests.push(c.digest().expect("digest"));
            c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release");
        }
        Event::Patch => {
            let w = encode(&addi(T1, T1, 5));
            c.write_l1(1, 2, u64::from(addi_at), &w.to_le_bytes())
                .expect("patch");
        }
    }
    c.clock(2000).expect("run");
    digests.push(c.digest().expect("digest"));
    digests
}

#[test]
fn em17_cores_run_ahead_rewind_exactly_when_looked_at_reset_or_patched() {
    for ev in [Event::Look, Event::Reset, Event::Patch] {
        for at in [3, 40, 41, 42, 43, 777, 1200, 1650] {
            let r = run_private_loop(Schedule::Reference, at, ev);
            let f = run_private_loop(Schedule::Fast, at, ev);
            assert_eq!(r.len(), f.len());
            for (k, (a, b)) in r.iter().zip(&f).enumerate() {
                assert_eq!(a.first_difference(b), None, "{ev:?} at {at}, digest {k}");
            }
        }
    }
}

/// `run_until_l1` stops at the same cycle as `run_until` with the same L1-only condition, under
/// both schedules.
#[test]
fn em19_run_until_l1_stops_at_the_same_cycle_as_run_until() {
    let mut cycles = Vec::new();
    for schedule in [Schedule::Reference, Schedule::Fast] {
        for only_l1 in [false, true] {
            let mut c = chip("1,2;2,2", schedule);
            c.write_l1(2, 2, 0, &bytes(&private_loop(300).0))
                .expect("brisc");
            for pc in [0x12000u64, 0x6000, 0xA000, 0xE000] {
                c.write_l1(2, 2, pc, &bytes(&[spin()])).expect("others");
            }
            c.write_reg(2, 2, 0xFFB1_21B0, 0).expect("release all");
            let done = |c: &Chip| c.tile(2, 2).and_then(|t| t.read_l1_u32(OUT).ok()) != Some(0);
            let hit = if only_l1 {
                c.run_until_l1(5000, done)
            } else {
                c.run_until(5000, done)
            };
            assert_eq!(hit.ok(), Some(true), "{schedule:?}, only_l1 {only_l1}");
            cycles.push(c.cycle());
        }
    }
    // li s0 (2) + li t1 (2) + 300 passes of 4 + li t0 (2) + sw = 1207 instructions, one per
    // cycle: the store retires in cycle 1206 (counting from 0), so the condition first holds
    // before cycle 1207.
    assert_eq!(cycles, vec![1207; 4]);
}

/// A core reading another's PC snapshot (`0xFFB1_3138 + 4 * core`) sees the pc the reference
/// schedule shows, also while that core is parked: TRISC0 (after the poller in the order) and
/// BRISC (before it) sample NCRISC's snapshot while NCRISC polls an L1 word nobody writes.
#[test]
fn em19_pc_snapshots_of_parked_cores_match_the_reference() {
    for delay in [20u32, 21, 22, 23, 50, 51] {
        let mut got = Vec::new();
        for schedule in [Schedule::Reference, Schedule::Fast] {
            let mut c = chip("1,2", schedule);
            // BRISC and TRISC0: wait `delay` passes, load NCRISC's snapshot, store it.
            let sampler = |out: u32, d: u32| {
                let mut p = li(S0, d);
                p.push(addi(S0, S0, -1));
                p.push(branch(BranchOp::Bne, S0, 0, -4));
                p.extend(li(T0, 0xFFB1_3138 + 4));
                p.push(Insn::Load {
                    op: LoadOp::Lw,
                    rd: T2,
                    rs1: T0,
                    offset: 0,
                });
                p.extend(li(T0, out));
                p.push(sw(T2, T0));
                p.push(spin());
                p
            };
            let mut nc = poll_then_record(FLAG_A, 3, OUT + 16);
            nc.push(spin());
            c.write_l1(1, 2, 0, &bytes(&sampler(OUT, delay)))
                .expect("brisc");
            c.write_l1(1, 2, 0x12000, &bytes(&nc)).expect("ncrisc");
            c.write_l1(1, 2, 0x6000, &bytes(&sampler(OUT + 4, delay + 1)))
                .expect("trisc0");
            for pc in [0xA000u64, 0xE000] {
                c.write_l1(1, 2, pc, &bytes(&[spin()])).expect("others");
            }
            c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
            c.clock(400).expect("run");
            let t = c.tile(1, 2).expect("tile");
            let v = (
                t.read_l1_u32(OUT).expect("out"),
                t.read_l1_u32(OUT + 4).expect("out"),
            );
            // Both samples land inside NCRISC's poll loop (0x12000 + 8 .. + 0x18).
            assert!(
                (0x12008..0x12020).contains(&v.0) && (0x12008..0x12020).contains(&v.1),
                "{schedule:?}, delay {delay}: {v:x?}"
            );
            got.push(v);
        }
        assert_eq!(got[0], got[1], "delay {delay}: reference vs fast");
    }
}

/// A core alone in its tile (the others held in reset) polling L1 with a few private
/// instructions between the loads, whose first passes differ: the loop also counts a register
/// down to zero, so the detector's first candidates in this very loop fail and it backs off.
/// The fast schedule may let a lone core run ahead, but runs this short are undone, so the
/// detector still sees each backward branch, ends its back-off once the count is done and
/// parks BRISC; the host's write wakes it at the cycle the reference schedule gives.
#[test]
fn em12_lone_core_polling_l1_with_private_steps_is_parked() {
    // li t0, FLAG_C; li s0, k
    // L0: lw t2, 0(t0); beq s0, x0, L3; addi s0, s0, -1; L3: beq t2, x0, L0
    // then record mcycle at OUT and spin.
    let program = |k: u32| {
        let mut p = li(T0, FLAG_C);
        p.extend(li(S0, k));
        p.push(Insn::Load {
            op: LoadOp::Lw,
            rd: T2,
            rs1: T0,
            offset: 0,
        });
        p.push(branch(BranchOp::Beq, S0, 0, 8));
        p.push(addi(S0, S0, -1));
        p.push(branch(BranchOp::Beq, T2, 0, -12));
        p.push(mcycle(T1));
        p.extend(li(T0, OUT));
        p.push(sw(T1, T0));
        p.push(spin());
        p
    };
    let run = |schedule: Schedule, k: u32, host_at: u64| {
        let mut c = chip("1,2", schedule);
        c.write_l1(1, 2, 0, &bytes(&program(k))).expect("brisc");
        // Release BRISC only: TRISC0-2 (bits 12-14) and NCRISC (bit 18) stay in reset.
        c.write_reg(1, 2, 0xFFB1_21B0, 0x47000).expect("release");
        c.clock(host_at).expect("run");
        let awake = c.tile(1, 2).map(|t| t.awake_cores());
        c.write_l1(1, 2, u64::from(FLAG_C), &1u32.to_le_bytes())
            .expect("host write");
        c.clock(100).expect("run");
        let out = c.tile(1, 2).and_then(|t| t.read_l1_u32(OUT).ok());
        (c.digest().expect("digest"), out, awake)
    };
    for k in [3, 20, 200] {
        for host_at in [4000, 4001, 4002, 4003, 4004] {
            let (rd, rout, _) = run(Schedule::Reference, k, host_at);
            let (fd, fout, awake) = run(Schedule::Fast, k, host_at);
            assert_eq!(
                awake,
                Some(0),
                "k {k}: BRISC parked before the host's write"
            );
            assert_eq!(rout, fout, "k {k}, host at {host_at}: recorded cycle");
            assert!(rout.is_some_and(|v| v > host_at as u32), "{rout:?}");
            assert_eq!(rd.first_difference(&fd), None, "k {k}, host at {host_at}");
        }
    }
}

/// The idle-loop detector backs off on a loop whose passes differ (a counting loop), but a
/// backward jump outside the code of its failed passes is another loop, tried at once: BRISC
/// counts 600 passes down, then polls an L1 word nobody writes; 40 cycles after the count ends
/// it is parked (with the three TRISCs' one-instruction spins: 4 parks), and the chip matches
/// the reference schedule.
#[test]
fn em15_a_poll_after_a_counting_loop_parks_without_waiting_out_its_backoff() {
    let mut digests = Vec::new();
    for schedule in [Schedule::Reference, Schedule::Fast] {
        let mut c = chip("1,2", schedule);
        let mut b = delay_then_set(600, FLAG_B);
        b.extend(poll_then_record(FLAG_A, 0, OUT));
        b.push(spin());
        c.write_l1(1, 2, 0, &bytes(&b)).expect("brisc");
        // NCRISC counts too (never parked), so BRISC is not alone and never runs ahead: the
        // detector sees each of its passes.
        let mut nc = delay_then_set(100_000, FLAG_C);
        nc.push(spin());
        c.write_l1(1, 2, 0x12000, &bytes(&nc)).expect("ncrisc");
        for pc in [0x6000u64, 0xA000, 0xE000] {
            c.write_l1(1, 2, pc, &bytes(&[spin()])).expect("others");
        }
        c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
        // li (2) + 601 passes of 2 + the store (5): BRISC starts its poll in cycle 1209.
        c.clock(1209 + 40).expect("run");
        if schedule == Schedule::Fast {
            assert_eq!(c.park_counts(), (4, 0), "BRISC's poll is parked");
        }
        digests.push(c.digest().expect("digest"));
    }
    assert_eq!(digests[0].first_difference(&digests[1]), None);
}
