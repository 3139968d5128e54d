//! Stall sleeping is exact (crates/chip/src/tile/stall.rs): cores stalled on a full Tensix
//! instruction FIFO, a TTSync check, a PC buffer or a mailbox are not stepped by the fast
//! schedule until their retry could succeed, and the chip is left exactly as the reference
//! schedule leaves it — digest (harts with cycle/instret, L1s, DRAM), the cycles the cores
//! record when their stalls end, and the stalled access each core reports at every cycle.
mod common;
use bhemu_chip::{Chip, Core, Schedule};
use bhemu_isa::riscv::{BranchOp, Insn, LoadOp};
use bhemu_isa::tensix::{assemble, Arch};
use common::*;

const INSN_PUSH: u32 = 0xFFE4_0000;
/// T_i's side of its PCBuf (PCBufs.md), `CoprocessorDoneCheck` at +4 (ManualTTSync.md),
/// `SemaphoreAccess[i]` at +0x20 + 4i (SyncUnit.md).
const PC_BUF: u32 = 0xFFE8_0000;
/// RISCV B's side of PCBuf 2.
const PC_BUF2_B: u32 = 0xFFEA_0000;
/// Mailboxes.md: region `m` at `MAILBOX + 0x1000 m`.
const MAILBOX: u32 = 0xFFEC_0000;
const OUT: u32 = 0x2_0100;

fn lw(rd: u8, rs1: u8) -> Insn {
    Insn::Load {
        op: LoadOp::Lw,
        rd,
        rs1,
        offset: 0,
    }
}

fn tt(line: &str) -> u32 {
    assemble(Arch::Blackhole, line).expect("tensix word")
}

/// Counts `k` down in a loop whose registers change (never parked).
fn delay(k: u32) -> Vec<Insn> {
    let mut p = li(S0, k + 1);
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -4));
    p
}

/// Stores mcycle at `out`.
fn record(out: u32) -> Vec<Insn> {
    let mut p = vec![mcycle(T1)];
    p.extend(li(T0, out));
    p.push(sw(T1, T0));
    p
}

/// `sw value, addr` through T0/T1.
fn store(addr: u32, value: u32) -> Vec<Insn> {
    let mut p = li(T0, addr);
    p.extend(li(T1, value));
    p.push(sw(T1, T0));
    p
}

/// Delays: T1 posts semaphore 1 after `post1` and semaphore 2 `post2` later; BRISC fills
/// PCBuf 2 after `brisc`; T2 answers BRISC's mailbox `reply` cycles after its PCBuf read.
#[derive(Clone, Copy, Debug)]
struct Delays {
    post1: u32,
    post2: u32,
    brisc: u32,
    reply: u32,
}

/// Loads the cores of tile (1,2) of `c` and releases them:
/// - T0 pushes `SEMWAIT sem1`, 40 NOPs (the FIFO holds 32: T0 stalls on a full FIFO until the
///   semaphore is posted), records, pushes `SEMWAIT sem2`, reads `CoprocessorDoneCheck`
///   (stalls until thread 0 is idle), records;
/// - T1 posts semaphores 1 and 2 through `SemaphoreAccess` after its delays;
/// - BRISC writes PCBuf 2 after a delay (T2's blocking read ends, a core earlier in the order
///   than the waiter), then pops the mailbox from T2 (T2 writes it: a core later in the order);
/// - T2 reads its PCBuf, records, delays, writes the mailbox to BRISC.
fn load(c: &mut Chip, d: Delays) {
    load_with_t1(c, d, None)
}

/// [`load`], with `t1` in place of T1's program when given.
fn load_with_t1(c: &mut Chip, d: Delays, t1_program: Option<Vec<Insn>>) {
    let mut t0 = li(T0, INSN_PUSH);
    t0.extend(li(T1, tt("ttsemwait 511, 2, 1")));
    t0.push(sw(T1, T0));
    t0.extend(li(T1, tt("ttnop")));
    t0.extend(std::iter::repeat_n(sw(T1, T0), 40));
    t0.extend(record(OUT));
    t0.extend(li(T0, INSN_PUSH));
    t0.extend(li(T1, tt("ttsemwait 511, 4, 1")));
    t0.push(sw(T1, T0));
    t0.extend(li(T0, PC_BUF + 4));
    t0.push(lw(T2, T0));
    t0.extend(record(OUT + 4));
    t0.push(spin());

    let mut t1 = delay(d.post1);
    t1.extend(store(PC_BUF + 0x24, 0));
    t1.extend(delay(d.post2));
    t1.extend(store(PC_BUF + 0x28, 0));
    t1.push(spin());
    let t1 = t1_program.unwrap_or(t1);

    let mut b = delay(d.brisc);
    b.extend(store(PC_BUF2_B, 7));
    b.extend(li(T0, MAILBOX + 0x3000));
    b.push(lw(T2, T0));
    b.extend(record(OUT + 8));
    b.push(spin());

    let mut t2 = li(T0, PC_BUF);
    t2.push(lw(T2, T0));
    t2.extend(record(OUT + 12));
    t2.extend(delay(d.reply));
    t2.extend(store(MAILBOX, 9));
    t2.push(spin());

    c.write_l1(1, 2, 0, &bytes(&b)).expect("brisc");
    c.write_l1(1, 2, 0x12000, &bytes(&[spin()]))
        .expect("ncrisc");
    c.write_l1(1, 2, 0x6000, &bytes(&t0)).expect("trisc0");
    c.write_l1(1, 2, 0xA000, &bytes(&t1)).expect("trisc1");
    c.write_l1(1, 2, 0xE000, &bytes(&t2)).expect("trisc2");
    c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
}

fn recorded(c: &Chip) -> [u32; 4] {
    std::array::from_fn(|i| {
        c.tile(1, 2)
            .and_then(|t| t.read_l1_u32(OUT + 4 * i as u32).ok())
            .unwrap_or(0)
    })
}

/// One run of `cycles`: the digest, the recorded cycles and the chip's sleep counts.
fn run(schedule: Schedule, d: Delays, cycles: u64) -> (bhemu_chip::ChipDigest, [u32; 4], u64) {
    let mut c = chip("1,2", schedule);
    load(&mut c, d);
    c.clock(cycles).expect("run");
    let out = recorded(&c);
    let slept = c.sleep_counts().1;
    (c.digest().expect("digest"), out, slept)
}

const DELAYS: [Delays; 4] = [
    Delays {
        post1: 60,
        post2: 30,
        brisc: 20,
        reply: 40,
    },
    Delays {
        post1: 61,
        post2: 31,
        brisc: 21,
        reply: 41,
    },
    Delays {
        post1: 150,
        post2: 7,
        brisc: 90,
        reply: 3,
    },
    Delays {
        post1: 5,
        post2: 100,
        brisc: 0,
        reply: 0,
    },
];

#[test]
fn em16_stalled_cores_sleep_until_their_retry_succeeds_exactly() {
    for d in DELAYS {
        let (rd, rout, rslept) = run(Schedule::Reference, d, 1500);
        let (fd, fout, fslept) = run(Schedule::Fast, d, 1500);
        assert!(
            rout.iter().all(|&v| v != 0),
            "{d:?}: every stall ended: {rout:?}"
        );
        assert_eq!(rout, fout, "{d:?}: recorded cycles");
        assert_eq!(rd.first_difference(&fd), None, "{d:?}");
        assert_eq!(rslept, 0, "the reference schedule steps every stall");
        // T0's FIFO stall alone lasts about twice the delay of T1's first post.
        assert!(
            fslept > u64::from(d.post1),
            "{d:?}: the fast schedule slept {fslept} stalled cycles"
        );
    }
}

/// Runs to cycle `at` and returns each core's state and the access it reports
/// (`Tile::last_mmio_at`, the hang report's source) without bringing cores to the cycle.
fn reports(schedule: Schedule, d: Delays, at: u64) -> Vec<String> {
    let mut c = chip("1,2", schedule);
    load(&mut c, d);
    c.clock(at).expect("run");
    let t = c.tile(1, 2).expect("tile");
    Core::ALL
        .iter()
        .map(|&core| {
            format!(
                "{core:?} {:?} {:?}",
                t.core_state(core),
                t.last_mmio_at(core, c.cycle())
            )
        })
        .collect()
}

#[test]
fn em16_a_sleeping_core_reports_its_stalled_access_at_every_cycle() {
    let d = DELAYS[0];
    let mut stalled_seen = 0;
    for at in (20..400).step_by(7) {
        let r = reports(Schedule::Reference, d, at);
        assert_eq!(r, reports(Schedule::Fast, d, at), "cycle {at}");
        stalled_seen += r.iter().filter(|s| s.contains("stalled: true")).count();
    }
    assert!(stalled_seen > 20, "stalls were seen: {stalled_seen}");
}

/// The host overwrites the `lw` T2 is stalled on (its PCBuf read) with `addi t2, x0, 5`: the
/// reference schedule's next retry runs the new instruction, so the write ends the sleep.
#[test]
fn em16_a_write_to_a_sleeping_cores_code_ends_its_sleep() {
    let d = Delays {
        post1: 5,
        post2: 5,
        brisc: 2000,
        reply: 0,
    };
    let at = 0xE000 + 8; // li t0 (2 words), then the lw
    for host_at in [40u64, 41, 97] {
        let mut digests = Vec::new();
        for schedule in [Schedule::Reference, Schedule::Fast] {
            let mut c = chip("1,2", schedule);
            load(&mut c, d);
            c.clock(host_at).expect("run");
            let patch = bytes(&[addi(T2, 0, 5)]);
            c.write_l1(1, 2, at, &patch).expect("patch");
            c.clock(200).expect("run");
            let t2_out = recorded(&c)[3];
            assert!(t2_out as u64 >= host_at, "T2 left its stall: {t2_out}");
            digests.push((c.digest().expect("digest"), t2_out));
        }
        assert_eq!(digests[0].1, digests[1].1, "host at {host_at}");
        assert_eq!(
            digests[0].0.first_difference(&digests[1].0),
            None,
            "host at {host_at}"
        );
    }
}

/// An AMO on a mailbox (Mailboxes.md) whose load pops a word and whose store stalls (BRISC's
/// four outgoing words are in flight): each retry of the reference schedule pops again, so
/// such a step must not put the core to sleep. BRISC's AMO ends with the word T0 sends once
/// it has taken one of BRISC's words.
#[test]
fn em16_a_stall_after_another_mmio_access_of_the_step_is_not_slept() {
    for late in [60u32, 61, 97] {
        let mut runs = Vec::new();
        for schedule in [Schedule::Reference, Schedule::Fast] {
            let mut c = chip("1,2", schedule);
            let mut b = Vec::new();
            for v in 1..=4 {
                b.extend(store(MAILBOX + 0x1000, v)); // B → T0, four words: B's limit
            }
            b.extend(delay(30));
            b.extend(li(T0, MAILBOX + 0x1000));
            b.extend(li(T1, 0xAA));
            b.push(Insn::Amo {
                op: bhemu_isa::riscv::AmoOp::Swap,
                rd: T2,
                rs1: T0,
                rs2: T1,
                aq: false,
                rl: false,
            });
            b.extend(li(T0, OUT));
            b.push(sw(T2, T0));
            b.extend(record(OUT + 4));
            b.push(spin());
            let mut t0 = Vec::new();
            for v in 0x11..=0x13 {
                t0.extend(store(MAILBOX, v)); // T0 → B
            }
            t0.extend(delay(late));
            t0.extend(li(T0, MAILBOX));
            t0.push(lw(T2, T0)); // takes one of B's words
            t0.extend(store(MAILBOX, 0x55));
            t0.push(spin());
            c.write_l1(1, 2, 0, &bytes(&b)).expect("brisc");
            c.write_l1(1, 2, 0x6000, &bytes(&t0)).expect("trisc0");
            for (pc, _) in [(0x12000u64, 0), (0xA000, 1), (0xE000, 2)] {
                c.write_l1(1, 2, pc, &bytes(&[spin()])).expect("spin");
            }
            c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
            c.clock(600).expect("run");
            let out = recorded(&c);
            runs.push((c.digest().expect("digest"), out));
        }
        // The retries popped 0x11..0x13 and then waited for T0's next word.
        assert_eq!(runs[0].1[0], 0x55, "late {late}: BRISC's AMO read");
        assert_eq!(runs[0].1, runs[1].1, "late {late}");
        assert_eq!(runs[0].0.first_difference(&runs[1].0), None, "late {late}");
    }
}

/// `RISCV_DEBUG_REG_SOFT_RESET_0` and its T0 / T2 bits (SoftReset.md).
const SOFT_RESET: u32 = 0xFFB1_21B0;
const T0_T2: u32 = (1 << 12) | (1 << 14);

/// Cores asleep on a stall (T0 on a full FIFO, T2 on its PCBuf read) are put into soft reset
/// and released again, by the host between cycles or by T1 — after T0 in the order, before
/// T2 — at several points of their sleeps: each is brought to the cycle the write finds it at.
#[test]
fn em16_a_sleeping_core_entering_soft_reset_is_brought_to_the_cycle() {
    let d = Delays {
        post1: 3000,
        post2: 5,
        brisc: 3000,
        reply: 0,
    };
    for at in [90u64, 91, 150] {
        for by_t1 in [false, true] {
            let mut runs = Vec::new();
            for schedule in [Schedule::Reference, Schedule::Fast] {
                let mut c = chip("1,2", schedule);
                if by_t1 {
                    let mut t1 = delay(at as u32 / 2);
                    t1.extend(store(SOFT_RESET, T0_T2));
                    t1.extend(delay(20));
                    t1.extend(store(SOFT_RESET, 0));
                    t1.push(spin());
                    load_with_t1(&mut c, d, Some(t1));
                    c.clock(400).expect("run");
                } else {
                    load(&mut c, d);
                    c.clock(at).expect("run");
                    c.write_reg(1, 2, SOFT_RESET, T0_T2).expect("reset");
                    c.clock(17).expect("run");
                    c.write_reg(1, 2, SOFT_RESET, 0).expect("release");
                    c.clock(300).expect("run");
                }
                let t = c.tile(1, 2).expect("tile");
                let releases = (t.releases(Core::Trisc0), t.releases(Core::Trisc2));
                runs.push((c.digest().expect("digest"), releases, c.sleep_counts().0));
            }
            let what = format!("at {at}, by T1 {by_t1}");
            assert_eq!(runs[0].1, (2, 2), "{what}: both cores restarted");
            assert_eq!(runs[0].1, runs[1].1, "{what}");
            assert_eq!(runs[0].0.first_difference(&runs[1].0), None, "{what}");
            assert!(
                runs[1].2 >= 4,
                "{what}: both slept before and after: {}",
                runs[1].2
            );
        }
    }
}
