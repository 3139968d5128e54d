//! Sync Unit: semaphores (SyncUnit.md, SEMINIT/SEMPOST/SEMGET.md, docs/wait-gate.md) and mutexes
//! (docs/mutexes.md, ATGETM.md, ATRELM.md), one test per rule.
mod common;
use bhemu_tensix::semaphores::Semaphores;
use bhemu_tensix::{Arch, ErrorKind};
use common::{asm, Sim};

// SEMINIT.md: selected semaphores get Value and Max.
#[test]
fn seminit_sets_value_and_max() {
    let mut s = Sim::new();
    s.prog(0, &["ttseminit 3, 1, 6"]); // max 3, value 1, semaphores 1 and 2
    s.must_run();
    let sem = s.cp.semaphores();
    // (value, max)
    assert_eq!(
        (sem[0], sem[1], sem[2], sem[3]),
        ((0, 0), (1, 3), (1, 3), (0, 0))
    );
}

// SEMPOST.md: Value increments unless it is already 15; Max plays no part.
#[test]
fn sempost_saturates_at_15() {
    let mut s = Semaphores::default();
    s.init(1, 14, 2);
    s.post(1);
    assert_eq!(s.sems[0].value, 15, "Max (2) does not limit SEMPOST");
    s.post(1);
    assert_eq!(s.sems[0].value, 15);
}

// SEMGET.md: Value decrements unless it is already 0.
#[test]
fn semget_saturates_at_0() {
    let mut s = Semaphores::default();
    s.init(0b101, 1, 4);
    s.get(0b101);
    s.get(0b101);
    assert_eq!((s.sems[0].value, s.sems[2].value), (0, 0));
}

// SyncUnit.md "RISCV access to semaphores": reads return Value; an even store acts like
// SEMPOST, an odd store like SEMGET (ckernel.h semaphore_post writes 0, semaphore_get 1).
#[test]
fn sem_window_read_write_semantics() {
    let mut s = Sim::new();
    s.cp.set_semaphore(6, 14, 3).unwrap();
    s.cp.sem_window_write(6, 0).unwrap();
    s.cp.sem_window_write(6, 2).unwrap();
    s.steps(2).unwrap();
    assert_eq!(s.cp.sem_window_read(6).unwrap(), 15, "saturates at 15");
    s.cp.sem_window_write(6, 1).unwrap();
    s.step().unwrap();
    assert_eq!(s.cp.sem_window_read(6).unwrap(), 14);
    assert_eq!(
        s.cp.sem_window_read(8).map_err(|e| e.kind),
        Err(ErrorKind::Invalid)
    );
    assert_eq!(
        s.cp.sem_window_write(8, 0).map_err(|e| e.kind),
        Err(ErrorKind::Invalid)
    );
}

// SyncUnit.md throughput: at most one of SEMINIT/SEMPOST/SEMGET/STALLWAIT/SEMWAIT per cycle
// across threads.
#[test]
fn sync_unit_one_semaphore_insn_per_cycle() {
    let mut s = Sim::new();
    s.cp.set_semaphore(0, 0, 15).unwrap();
    for t in 0..3 {
        s.prog(t, &["ttsempost 1"]);
    }
    s.must_run();
    let mut c: Vec<u64> = (0..3).map(|t| s.at_asm(t, "ttsempost 1", 0)).collect();
    c.sort();
    assert_eq!(c, vec![1, 2, 3]);
    assert_eq!(s.cp.semaphores()[0].0, 3);
}

// SyncUnit.md: a RISC-V semaphore write contests that same one-per-cycle slot.
#[test]
fn sem_window_write_takes_the_sync_slot() {
    let mut s = Sim::new();
    s.prog(0, &["ttsempost 1"]);
    s.step().unwrap(); // cycle 0: SEMPOST reaches the gate
    s.cp.sem_window_write(0, 0).unwrap();
    s.must_run();
    assert_eq!(
        s.at_asm(0, "ttsempost 1", 0),
        2,
        "cycle 1's slot went to the RISC-V write"
    );
    assert_eq!(s.cp.semaphores()[0].0, 2);
}

// docs/mutexes.md: Blackhole valid indices 0, 2, 3, 4; an invalid one hangs and bhemu reports the
// thread, the index and the instruction.
#[test]
fn mutex_invalid_index_hangs_and_is_reported() {
    for idx in [1u32, 5, 7] {
        let mut s = Sim::new();
        s.prog(2, &["ttnop", &format!("ttatgetm {idx}")]);
        let e = s.run().expect_err("hang");
        assert_eq!(e.kind, ErrorKind::Hang);
        assert_eq!(e.thread, Some(2));
        assert_eq!(e.word, Some(asm(&format!("ttatgetm {idx}"))));
        assert!(e.message.contains(&format!("index {idx}")), "{}", e.message);
        assert_eq!(e.threads.len(), 1);
    }
    let mut s = Sim::new();
    s.prog(0, &["ttatrelm 1"]);
    assert_eq!(
        s.run().map_err(|e| e.kind),
        Err(ErrorKind::Hang),
        "ATRELM too"
    );
}

// docs/mutexes.md "Comparison with Wormhole B0": Wormhole has 0, 2-7.
#[test]
fn mutex_wormhole_indices() {
    let mut s = Sim::with_arch(Arch::WormholeB0);
    s.prog(0, &["ttatgetm 7", "ttatrelm 7", "ttatgetm 5"]);
    s.must_run();
    assert_eq!(
        s.cp.mutexes().iter().map(|m| m.0).collect::<Vec<_>>(),
        vec![0, 2, 3, 4, 5, 6, 7]
    );
    assert_eq!(s.cp.mutexes()[4], (5, Some(0)));
    let mut s = Sim::with_arch(Arch::WormholeB0);
    s.prog(0, &["ttatgetm 1"]);
    assert_eq!(s.run().map_err(|e| e.kind), Err(ErrorKind::Hang));
}

// docs/mutexes.md ATGETM: re-entrant — acquiring a mutex already held by the thread proceeds.
#[test]
fn mutex_reentrant_acquire() {
    let mut s = Sim::new();
    s.prog(1, &["ttatgetm 3", "ttatgetm 3", "ttnop"]);
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttatgetm 3", 1),
        s.at_asm(1, "ttatgetm 3", 0) + 1
    );
    assert_eq!(s.cp.mutexes()[2], (3, Some(1)));
}

// docs/mutexes.md ATRELM: release only by the owner; otherwise no effect.
#[test]
fn mutex_release_by_non_owner_no_effect() {
    let mut s = Sim::new();
    s.prog(0, &["ttatgetm 2"]);
    s.prog(1, &["ttnop", "ttnop", "ttatrelm 2"]);
    s.must_run();
    assert_eq!(s.cp.mutexes()[1], (2, Some(0)));
    assert_eq!(s.log[1].len(), 3, "ATRELM completes without effect");
}

// docs/mutexes.md: while another thread holds the mutex, ATGETM waits at the Wait Gate and nothing
// behind it passes.
#[test]
fn atgetm_waits_while_held_by_other() {
    let mut s = Sim::new();
    s.prog(
        0,
        &[
            "ttatgetm 0",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttatrelm 0",
        ],
    );
    s.prog(1, &["ttnop", "ttatgetm 0", "ttsfpnop"]);
    s.must_run();
    let rel = s.at_asm(0, "ttatrelm 0", 0);
    assert_eq!(s.at_asm(1, "ttatgetm 0", 0), rel + 1);
    assert_eq!(s.at_asm(1, "ttsfpnop", 0), rel + 2);
    assert_eq!(s.cp.mutexes()[0], (0, Some(1)));
}

// docs/mutexes.md "Round-robin fairness": when thread i releases and both others wait, thread
// (i + 1) % 3 acquires.
#[test]
fn mutex_round_robin_handover() {
    // T1 holds mutex 4; T0 and T2 both wait; T1 releases => T2 (not the lower-numbered T0).
    let mut s = Sim::new();
    s.prog(
        1,
        &[
            "ttatgetm 4",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttatrelm 4",
        ],
    );
    s.prog(0, &["ttnop", "ttnop", "ttatgetm 4", "ttnop", "ttatrelm 4"]);
    s.prog(2, &["ttnop", "ttnop", "ttatgetm 4", "ttnop", "ttatrelm 4"]);
    s.must_run();
    let t2 = s.at_asm(2, "ttatgetm 4", 0);
    let t0 = s.at_asm(0, "ttatgetm 4", 0);
    assert_eq!(t2, s.at_asm(1, "ttatrelm 4", 0) + 1);
    assert!(
        t0 > s.at_asm(2, "ttatrelm 4", 0),
        "T0 only after T2 released"
    );
    // T2 releases with T0 and T1 waiting => T0 ((2 + 1) % 3).
    let mut s = Sim::new();
    s.prog(
        2,
        &[
            "ttatgetm 0",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttatrelm 0",
        ],
    );
    s.prog(0, &["ttnop", "ttnop", "ttatgetm 0", "ttatrelm 0"]);
    s.prog(1, &["ttnop", "ttnop", "ttatgetm 0", "ttatrelm 0"]);
    s.must_run();
    assert!(s.at_asm(0, "ttatgetm 0", 0) < s.at_asm(1, "ttatgetm 0", 0));
}

// docs/mutexes.md "Interaction with STALLWAIT": ATGETM/ATRELM are Sync Unit instructions, blocked by
// B1.
#[test]
fn mutex_ops_blocked_by_stall_sync() {
    let mut s = Sim::new();
    s.prog(
        0,
        &[
            "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1",
            "ttstallwait 2, 8",
            "ttatgetm 0",
        ],
    );
    s.must_run();
    let pacr = s.at_asm(0, "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1", 0);
    assert_eq!(s.at_asm(0, "ttatgetm 0", 0), pacr + 4 + 1);
}

// docs/mutexes.md "Timing": up to three ATGETM/ATRELM per cycle if they name different mutexes, and
// mutex instructions do not take the semaphore slot.
#[test]
fn mutex_ops_three_per_cycle() {
    let mut s = Sim::new();
    s.prog(0, &["ttatgetm 0"]);
    s.prog(1, &["ttatgetm 2"]);
    s.prog(2, &["ttatgetm 3"]);
    s.must_run();
    assert_eq!(
        (0..3).map(|t| s.log[t][0].0).collect::<Vec<_>>(),
        vec![1, 1, 1]
    );
}

// docs/wait-gate.md "Overview": STALLWAIT and SEMWAIT go through the Sync Unit's one-per-cycle slot
// shared with SEMINIT/SEMPOST/SEMGET.
#[test]
fn stallwait_semwait_share_the_sync_slot() {
    let mut s = Sim::new();
    s.cp.set_semaphore(0, 1, 4).unwrap();
    s.prog(0, &["ttstallwait 2, 1"]);
    s.prog(1, &["ttsemwait 2, 1, 1"]);
    s.prog(2, &["ttseminit 4, 1, 2"]);
    s.must_run();
    let mut c: Vec<u64> = (0..3).map(|t| s.log[t][0].0).collect();
    c.sort();
    assert_eq!(c, vec![1, 2, 3]);
}

// docs/mutexes.md "Hardware State": at reset every mutex is held by nobody.
#[test]
fn mutexes_free_at_reset() {
    let s = Sim::new();
    assert!(s.cp.mutexes().iter().all(|m| m.1.is_none()));
    assert_eq!(s.cp.mutexes().len(), 4);
}
