//! FIFO back-pressure, qstatus, coprocessor-done (docs/mop-replay.md, docs/execution-model.md), one test per rule.
mod common;
use bhemu_tensix::qstatus;
use bhemu_tensix::Arch;
use bhemu_tensix::{Coprocessor, PushSource, Pushed, FIFO_SLOTS};
use common::{asm, Sim};

// docs/mop-replay.md diagram / docs/execution-model.md: the instruction FIFO holds 32; a push to a full FIFO answers
// Full (the pushing core stalls) until space frees up.
#[test]
fn fifo_backpressure_32_slots() {
    assert_eq!(FIFO_SLOTS, 32);
    let mut cp = Coprocessor::new(Arch::Blackhole);
    let nop = asm("ttnop");
    for i in 0..32 {
        assert_eq!(
            cp.push(0, PushSource::Trisc, nop).unwrap(),
            Pushed::Accepted,
            "push {i}"
        );
    }
    assert_eq!(cp.push(0, PushSource::Trisc, nop).unwrap(), Pushed::Full);
    assert_eq!(
        cp.push(1, PushSource::Trisc, nop).unwrap(),
        Pushed::Accepted,
        "per-thread FIFOs"
    );
    cp.step(0).unwrap(); // one word moves to the Wait Gate
    assert_eq!(
        cp.push(0, PushSource::Trisc, nop).unwrap(),
        Pushed::Accepted
    );
    assert_eq!(cp.push(0, PushSource::Trisc, nop).unwrap(), Pushed::Full);
    assert!(cp.push(3, PushSource::Trisc, nop).is_err(), "no thread 3");
}

// `push_blocked` (asked by a core sleeping on a stalled push, docs/execution-model.md EM-3)
// answers whether a push would be Full, per thread and per queue (TRISC FIFO, BRISC's queue),
// without pushing.
#[test]
fn push_blocked_tells_a_full_queue_without_pushing() {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    let nop = asm("ttnop");
    for source in [PushSource::Trisc, PushSource::Brisc] {
        for _ in 0..32 {
            assert!(!cp.push_blocked(2, source));
            assert_eq!(cp.push(2, source, nop).unwrap(), Pushed::Accepted);
        }
        assert!(cp.push_blocked(2, source));
        assert!(cp.push_blocked(2, source), "asking pushes nothing");
        assert_eq!(cp.push(2, source, nop).unwrap(), Pushed::Full);
    }
    assert!(!cp.push_blocked(1, PushSource::Trisc), "per-thread queues");
    assert!(
        !cp.push_blocked(3, PushSource::Trisc),
        "no thread 3: the push reports it"
    );
}

// docs/execution-model.md: a thread blocked at its Wait Gate keeps accepting pushes until its FIFO is full.
#[test]
fn fifo_fills_behind_a_blocked_gate() {
    let mut s = Sim::new();
    s.cp.set_trisc_cfg_pending(0, true);
    s.prog(0, &["ttstallwait 511, 1024"]);
    s.prog(0, &["ttnop"; 40]);
    s.steps(60).unwrap();
    assert_eq!(s.cp.fifo_len(0), 32);
    assert_eq!(
        s.queue[0].len(),
        40 - 32 - 1,
        "one NOP waits at the gate, the rest stall the pusher"
    );
    s.cp.set_trisc_cfg_pending(0, false);
    s.must_run();
    assert_eq!(s.log[0].len(), 41);
}

// tt-llk ckernel.h `qstatus_u` / CSRs.md tt_cfg_qstatus: bit 0 replay, 1 MOP, 2 thcon, 3 xmov,
// 4 unpack, 5 pack, 6 cfg, 7 sync, 8 tdma, 9 sfpu, 10 fpu of this thread; bits 13+ the same
// over all threads (13 any replay, 14 any MOP, docs/mop-replay.md).
#[test]
fn qstatus_bits() {
    let cases: [(&str, u32); 10] = [
        ("ttsetdmareg 0, 0, 0, 4", qstatus::THCON | qstatus::TDMA),
        ("ttxmov 0, 0", qstatus::XMOV | qstatus::TDMA),
        (
            "ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1",
            qstatus::UNPACK | qstatus::TDMA,
        ),
        (
            "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1",
            qstatus::PACK | qstatus::TDMA,
        ),
        ("ttwrcfg 4, 0, 124", qstatus::CFG),
        ("ttsempost 1", qstatus::SYNC),
        ("ttsetadcxy 0, 0, 0, 0, 0, 1", qstatus::TDMA),
        ("ttsfpmad 0, 0, 0, 0, 0", qstatus::SFPU),
        ("ttzeroacc 0, 0, 0, 0, 0", qstatus::FPU),
        ("ttmop 1, 0, 0", qstatus::MOP),
    ];
    for (line, bits) in cases {
        let mut cp = Coprocessor::new(Arch::Blackhole);
        cp.push(1, PushSource::Trisc, asm(line)).unwrap();
        assert_eq!(cp.qstatus(1), bits | (bits << 13), "{line}");
        assert_eq!(
            cp.qstatus(0),
            bits << 13,
            "{line}: other threads see only the global copy"
        );
    }
    assert_eq!(qstatus::REPLAY, 1);
    assert_eq!(qstatus::MOP, 2);
    assert_eq!(qstatus::FPU, 1 << 10);
}

// docs/mop-replay.md "CSR 0xBC0": bits 0/1 while this thread's replay/MOP expander is busy, 13/14 any.
#[test]
fn qstatus_expander_busy_bits() {
    let mut s = Sim::new();
    for (i, w) in [
        1,
        20,
        asm("ttnop"),
        asm("ttnop"),
        asm("ttnop"),
        asm("ttsfpnop"),
        asm("ttnop"),
        asm("ttsfpnop"),
        asm("ttnop"),
    ]
    .iter()
    .enumerate()
    {
        s.cp.write_mop_cfg(2, i, *w).unwrap();
    }
    s.prog(2, &["ttmop 1, 0, 0"]);
    s.steps(4).unwrap();
    assert_eq!(s.cp.qstatus(2) & 0b11, qstatus::MOP);
    assert_ne!(s.cp.qstatus(0) & (1 << 14), 0);
    assert_eq!(s.cp.qstatus(0) & 0b11, 0);
    s.must_run();
    let mut s = Sim::new();
    s.prog(
        0,
        &["ttreplay 0, 1, 0, 1", "ttsfpnop", "ttreplay 0, 0, 0, 0"],
    );
    s.steps(6).unwrap();
    assert_eq!(
        s.cp.qstatus(0) & qstatus::REPLAY,
        qstatus::REPLAY,
        "playing back"
    );
    assert_ne!(s.cp.qstatus(1) & (1 << 13), 0);
    s.must_run();
    assert_eq!(s.cp.qstatus(0), 0);
}

// ManualTTSync.md CoprocessorDoneCheck / docs/execution-model.md "PCBuf blocking read": a thread is idle
// only when nothing it issued is in flight anywhere, backend included.
#[test]
fn thread_idle_waits_for_backend() {
    let mut s = Sim::new();
    s.prog(2, &["ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1"]);
    assert!(!s.cp.thread_idle(2) || !s.queue[2].is_empty());
    s.steps(2).unwrap();
    assert!(
        s.cp.fifo_len(2) == 0 && !s.cp.thread_idle(2),
        "PACR in the packer"
    );
    assert!(s.cp.thread_idle(0));
    // PACR left the gate in cycle 1 and is busy 4 cycles (1-4): idle from cycle 5 on.
    s.steps(2).unwrap();
    assert!(!s.cp.thread_idle(2));
    s.step().unwrap();
    assert!(s.cp.thread_idle(2));
}

// docs/execution-model.md: threads advance concurrently; different backend units accept instructions from
// different threads in the same cycle, while a shared unit takes one per cycle.
#[test]
fn threads_share_units_one_per_cycle() {
    let mut s = Sim::new();
    s.prog(0, &["ttsfpmad 0, 0, 0, 0, 0"]);
    // Reads and writes LReg1 only: no SFPMAD result hazard on the other thread's LReg0.
    s.prog(1, &["ttsfpmad 1, 1, 1, 1, 0"]);
    s.prog(2, &["ttzeroacc 0, 0, 0, 0, 0"]);
    s.must_run();
    let a = s.log[0][0].0;
    let b = s.log[1][0].0;
    assert_eq!(s.log[2][0].0, 1, "Matrix Unit free");
    assert_eq!(
        (a.min(b), a.max(b)),
        (1, 2),
        "one Vector Unit instruction per cycle"
    );
}

// ScalarUnit.md: ThCon runs one instruction at a time, and the issuing thread passes nothing
// else through its gate until it completes.
#[test]
fn thcon_holds_issuing_thread() {
    let mut s = Sim::new();
    s.prog(0, &["ttatcas 0, 0, 0, 0, 0, 0", "ttsfpnop"]);
    s.prog(1, &["ttnop", "ttsetdmareg 0, 0, 0, 4", "ttsfpnop"]);
    s.must_run();
    let cas = s.at_asm(0, "ttatcas 0, 0, 0, 0, 0, 0", 0);
    assert_eq!(s.at_asm(0, "ttsfpnop", 0), cas + 15, "ATCAS >= 15 cycles");
    assert_eq!(
        s.at_asm(1, "ttsetdmareg 0, 0, 0, 4", 0),
        cas + 15,
        "ThCon busy for T1 too"
    );
}

// MOVD2A.md: the cycle after a MOVD2A the Matrix Unit only accepts MOVD2A/MOVB2A; any other
// Matrix Unit instruction is stalled one cycle.
#[test]
fn movd2a_next_cycle_restriction() {
    let mut s = Sim::new();
    s.prog(1, &["ttmovd2a 0, 0, 0, 0, 0", "ttzeroacc 0, 0, 0, 0, 0"]);
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttzeroacc 0, 0, 0, 0, 0", 0),
        s.at_asm(1, "ttmovd2a 0, 0, 0, 0, 0", 0) + 2
    );
    let mut s = Sim::new();
    s.prog(1, &["ttmovd2a 0, 0, 0, 0, 0", "ttmovd2a 0, 0, 0, 0, 0"]);
    s.must_run();
    assert_eq!(s.log[1][1].0, s.log[1][0].0 + 1);
}

// docs/wait-gate.md "Special cases" / YAML: RESOURCEDECL is consumed before the Wait Gate and never
// appears in the dispatch log.
#[test]
fn resourcedecl_consumed_before_gate() {
    let mut s = Sim::new();
    s.prog(0, &["ttresourcedecl 0, 0, 0", "ttnop"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![asm("ttnop")]);
}

// Status reports count the instructions each thread dispatched past its Wait Gate; words
// still waiting (in the FIFO or at the gate) do not count.
#[test]
fn dispatched_counts_instructions_leaving_each_wait_gate() {
    let mut s = Sim::new();
    s.prog(0, &["ttnop", "ttnop", "ttnop"]);
    s.prog(2, &["ttnop"]);
    s.must_run();
    assert_eq!(s.cp.dispatched(), [3, 0, 1]);
    s.cp.set_trisc_cfg_pending(1, true);
    s.prog(1, &["ttstallwait 511, 1024", "ttnop"]);
    s.steps(20).unwrap();
    // The STALLWAIT dispatches and latches; the NOP behind it waits at the gate.
    assert_eq!(
        s.cp.dispatched(),
        [3, 1, 1],
        "held at the gate: not dispatched"
    );
    s.cp.set_trisc_cfg_pending(1, false);
    s.must_run();
    assert_eq!(s.cp.dispatched(), [3, 2, 1]);
}
