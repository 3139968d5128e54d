//! docs/wait-gate.md (Wait Gate, STALLWAIT, SEMWAIT, block mask B0-B8), one test per rule.
mod common;
use bhemu_tensix::coprocessor::Mode;
use bhemu_tensix::insn::{block, decode};
use bhemu_tensix::wait_gate::{blocked_by_mask, Latch};
use bhemu_tensix::{Arch, ErrorKind};
use common::{asm, Sim};

// docs/wait-gate.md "The Wait Gate": the release lags the condition by one cycle, so the instruction
// right after STALLWAIT is held at least one cycle even if the condition is already met.
#[test]
fn wait_gate_release_lag_one_cycle() {
    let mut s = Sim::new();
    s.prog(0, &["ttstallwait 128, 1", "ttwrcfg 4, 0, 124"]);
    s.must_run();
    let sw = s.at_asm(0, "ttstallwait 128, 1", 0);
    // Nothing in ThCon: C0 is already clear, yet WRCFG leaves two cycles after STALLWAIT.
    assert_eq!(s.at_asm(0, "ttwrcfg 4, 0, 124", 0), sw + 2);
}

// docs/wait-gate.md "Overview": the instruction immediately following STALLWAIT is subject to the block
// mask for at least one cycle; an instruction the mask does not catch is not held.
#[test]
fn stallwait_next_insn_held_only_if_caught() {
    let mut s = Sim::new();
    s.prog(0, &["ttstallwait 128, 1", "ttsfpnop", "ttwrcfg 4, 0, 124"]);
    s.must_run();
    let sw = s.at_asm(0, "ttstallwait 128, 1", 0);
    assert_eq!(
        s.at_asm(0, "ttsfpnop", 0),
        sw + 1,
        "SFPNOP (B8) is not caught by B7"
    );
    assert_eq!(s.at_asm(0, "ttwrcfg 4, 0, 124", 0), sw + 2);
}

// docs/wait-gate.md "The Wait Gate": once the first instruction matching the block mask arrives, no
// further instructions of any kind pass until the condition clears.
#[test]
fn wait_gate_blocked_insn_blocks_everything_behind() {
    let mut s = Sim::new();
    // LOADIND leaves a memory request outstanding (C0) after ThCon lets the thread go; WRCFG
    // (B7) is caught; the SFPNOP behind it is not a CFG instruction but must still wait.
    s.prog(
        0,
        &[
            "ttloadind 0, 0, 0, 0, 0",
            "ttstallwait 128, 1",
            "ttsfpnop",
            "ttwrcfg 4, 0, 124",
            "ttsfpnop",
            "ttnop",
        ],
    );
    s.must_run();
    let words = s.dispatched_words(0);
    let wrcfg = s.at_asm(0, "ttwrcfg 4, 0, 124", 0);
    let sfp_after = s.at_asm(0, "ttsfpnop", 1);
    assert!(sfp_after > wrcfg);
    assert_eq!(words.len(), 6, "in order, nothing lost");
    // The first SFPNOP was not caught and left while C0 was still true.
    assert!(s.at_asm(0, "ttsfpnop", 0) < wrcfg - 1);
}

// docs/wait-gate.md "stall_res": stall_res == 0 means STALL_MATH (B6, 0x40).
#[test]
fn stall_res_zero_means_stall_math() {
    let i = decode(Arch::Blackhole, asm("ttstallwait 0, 1"));
    let l = match i.op {
        bhemu_tensix::insn::Op::StallWait { block, conds } => Latch::StallWait { block, conds },
        other => panic!("{other:?}"),
    };
    assert_eq!(l.block_mask(), 0x40);
    // Behaviour: a Matrix Unit instruction is held while ThCon is busy, a CFG one is not.
    let mut s = Sim::new();
    s.prog(
        0,
        &[
            "ttadddmareg 0, 4, 4, 4",
            "ttstallwait 0, 1",
            "ttsetc16 0, 0",
            "ttzeroacc 0, 0, 0, 0, 0",
        ],
    );
    s.must_run();
    let sw = s.at_asm(0, "ttstallwait 0, 1", 0);
    assert_eq!(s.at_asm(0, "ttsetc16 0, 0", 0), sw + 1);
    assert!(s.at_asm(0, "ttzeroacc 0, 0, 0, 0, 0", 0) >= sw + 2);
}

// docs/wait-gate.md "wait_res": STALLWAIT wait_res == 0 means 0x0F (C0|C1|C2|C3).
#[test]
fn stallwait_wait_res_zero_means_0x0f() {
    let i = decode(Arch::Blackhole, asm("ttstallwait 64, 0"));
    assert_eq!(
        i.op,
        bhemu_tensix::insn::Op::StallWait {
            block: 0x40,
            conds: 0x0f
        }
    );
    // Behaviour: it waits for the packer (C3).
    let mut s = Sim::new();
    s.prog(
        2,
        &[
            "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1",
            "ttstallwait 64, 0",
            "ttzeroacc 0, 0, 0, 0, 0",
        ],
    );
    s.must_run();
    let pacr = s.at_asm(2, "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1", 0);
    // PACR busy through pacr+3 (4 cycles), released at pacr+4, passes at pacr+5.
    assert_eq!(s.at_asm(2, "ttzeroacc 0, 0, 0, 0, 0", 0), pacr + 4 + 1);
}

// WormholeB0 STALLWAIT.md: on Wormhole, ConditionMask 0 means 0x7F (C0-C6 there: ThCon, both
// unpackers, four packers), which is the same set in Blackhole numbering.
#[test]
fn wormhole_wait_res_zero_means_0x7f() {
    let w = common::asm_for(Arch::WormholeB0, "ttstallwait 64, 0");
    let i = decode(Arch::WormholeB0, w);
    assert_eq!(
        i.op,
        bhemu_tensix::insn::Op::StallWait {
            block: 0x40,
            conds: 0x0f
        }
    );
}

// docs/wait-gate.md "wait_sem_cond": a SEMWAIT with wait_sem_cond == 0 is undefined behaviour; bhemu
// reports it (strict) or, permissive, follows SEMWAIT.md (latch STALLWAIT with 0x0F).
#[test]
fn semwait_cond_zero_is_undefined_behaviour() {
    let mut s = Sim::new();
    s.prog(1, &["ttsemwait 2, 2, 0"]);
    let e = s.run().expect_err("must be reported");
    assert_eq!(e.kind, ErrorKind::Undefined);
    assert_eq!(e.thread, Some(1));
    let mut s = Sim::new();
    s.cp.set_mode(Mode::Permissive);
    s.prog(1, &["ttsemwait 2, 2, 0"]);
    s.steps(2).unwrap(); // SEMWAIT leaves the gate in cycle 1; its latch is in place after it
    assert_eq!(
        s.cp.latch(1),
        Some(Latch::StallWait {
            block: 2,
            conds: 0x0f
        })
    );
    assert_eq!(s.cp.warnings().len(), 1);
    assert_eq!(s.cp.warnings()[0].kind, ErrorKind::Undefined);
}

// docs/wait-gate.md "Special cases": NOP is blocked only if all block bits B0-B8 are set.
#[test]
fn nop_blocked_only_by_all_bits() {
    let nop = decode(Arch::Blackhole, asm("ttnop"));
    assert!(!blocked_by_mask(0x1fe, &nop));
    assert!(!blocked_by_mask(0x0ff, &nop));
    assert!(blocked_by_mask(0x1ff, &nop));
    // Behaviour: with everything but B0 blocked, NOPs still flow while ThCon is busy.
    let mut s = Sim::new();
    s.prog(
        0,
        &[
            "ttadddmareg 0, 4, 4, 4",
            "ttstallwait 510, 1",
            "ttnop",
            "ttstallwait 511, 0",
        ],
    );
    s.must_run();
    let sw = s.at_asm(0, "ttstallwait 510, 1", 0);
    assert_eq!(s.at_asm(0, "ttnop", 0), sw + 1);
    let mut s = Sim::new();
    s.prog(
        0,
        &[
            "ttadddmareg 0, 4, 4, 4",
            "ttatgetm 0",
            "ttstallwait 511, 1",
            "ttnop",
        ],
    );
    s.must_run();
    let sw = s.at_asm(0, "ttstallwait 511, 1", 0);
    assert_eq!(
        s.at_asm(0, "ttnop", 0),
        sw + 2,
        "all of B0-B8: NOP waits for the release"
    );
}

// docs/wait-gate.md "Special cases": MOP, MOP_CFG, REPLAY and RESOURCEDECL are never blocked (handled
// before the Wait Gate).
#[test]
fn mop_never_blocked() {
    for line in [
        "ttmop 1, 0, 0",
        "ttmop_cfg 5",
        "ttreplay 0, 4, 0, 1",
        "ttresourcedecl 0, 0, 0",
    ] {
        let i = decode(Arch::Blackhole, asm(line));
        assert!(!blocked_by_mask(block::ALL, &i), "{line}");
    }
    // Behaviour: with a latch blocking everything (condition C10 held true), MOP_CFG is still
    // consumed, a record-only REPLAY still records, and a MOP still expands.
    let mut s = Sim::new();
    s.cp.set_trisc_cfg_pending(0, true);
    s.prog(
        0,
        &[
            "ttstallwait 511, 1024",
            "ttmop_cfg 7",
            "ttreplay 3, 2, 0, 1",
            "ttsfpnop",
            "ttdmanop",
            "ttmop 0, 0, 0",
        ],
    );
    s.cp.write_mop_cfg(0, 3, asm("ttsfpnop")).unwrap();
    s.cp.write_mop_cfg(0, 1, 0).unwrap();
    s.steps(12).unwrap();
    assert_eq!(s.log[0].len(), 1, "only the STALLWAIT left the gate");
    let mop = s.cp.mop_expander(0).unwrap();
    assert_eq!(mop.mask_hi(), 7);
    assert!(
        !mop.expanding(),
        "the MOP was ingested and expanded into the gate slot"
    );
    let rep = s.cp.replay_expander(0).unwrap();
    assert_eq!(rep.slot(3).word, asm("ttsfpnop"));
    assert_eq!(rep.slot(4).word, asm("ttdmanop"));
    s.cp.set_trisc_cfg_pending(0, false);
    s.must_run();
    assert_eq!(
        s.dispatched_words(0),
        vec![asm("ttstallwait 511, 1024"), asm("ttsfpnop")]
    );
}

// docs/wait-gate.md "Special cases": STALLWAIT and SEMWAIT are blocked by any set block bit.
#[test]
fn stallwait_semwait_blocked_by_any_bit() {
    for line in ["ttstallwait 1, 1", "ttsemwait 1, 1, 1"] {
        let i = decode(Arch::Blackhole, asm(line));
        for b in 0..9 {
            assert!(blocked_by_mask(1 << b, &i), "{line} with B{b}");
        }
    }
    let mut s = Sim::new();
    // Block mask B7 only (CFG); the second STALLWAIT must still wait for ThCon.
    s.prog(
        0,
        &[
            "ttadddmareg 0, 4, 4, 4",
            "ttstallwait 128, 1",
            "ttsemwait 2, 1, 1",
        ],
    );
    s.cp.set_semaphore(0, 1, 1).unwrap();
    s.must_run();
    let add = s.at_asm(0, "ttadddmareg 0, 4, 4, 4", 0);
    let sw = s.at_asm(0, "ttstallwait 128, 1", 0);
    assert_eq!(sw, add + 3, "ThCon holds the thread");
    assert_eq!(s.at_asm(0, "ttsemwait 2, 1, 1", 0), sw + 2);
}

// docs/wait-gate.md "Emulator Implementation Notes" 1: the latch is overwritten by each new
// STALLWAIT/SEMWAIT.
#[test]
fn latch_overwritten_by_new_wait() {
    let mut s = Sim::new();
    s.cp.set_semaphore(5, 0, 1).unwrap();
    s.prog(0, &["ttstallwait 128, 1", "ttsemwait 64, 32, 1"]);
    s.steps(4).unwrap();
    assert_eq!(
        s.cp.latch(0),
        Some(Latch::SemWait {
            block: 64,
            sems: 32,
            cond: 1
        })
    );
}

// docs/wait-gate.md "Per-thread independence": a STALLWAIT in T0 blocks only T0.
#[test]
fn per_thread_independence() {
    let mut s = Sim::new();
    s.cp.set_trisc_cfg_pending(0, true);
    s.prog(0, &["ttstallwait 511, 1024", "ttnop", "ttnop"]);
    s.prog(1, &["ttnop", "ttnop", "ttnop", "ttnop"]);
    s.prog(2, &["ttsfpnop", "ttsfpnop", "ttsfpnop"]);
    s.steps(10).unwrap();
    assert_eq!(s.log[0].len(), 1, "T0 stuck behind its latch");
    assert_eq!(
        s.log[1].iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![1, 2, 3, 4],
        "T1 flows one per cycle"
    );
    assert_eq!(
        s.log[2].iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    s.cp.set_trisc_cfg_pending(0, false);
    s.must_run();
    assert_eq!(s.log[0].len(), 3);
}

// docs/wait-gate.md "SEMWAIT vs STALLWAIT": SEMWAIT is cleared by SEMPOST from any thread.
#[test]
fn semwait_released_by_other_threads_sempost() {
    let mut s = Sim::new();
    s.cp.set_semaphore(3, 0, 4).unwrap();
    s.prog(0, &["ttsemwait 2, 8, 1", "ttsemget 8"]);
    s.prog(
        2,
        &["ttnop", "ttnop", "ttnop", "ttnop", "ttnop", "ttsempost 8"],
    );
    s.must_run();
    let post = s.at_asm(2, "ttsempost 8", 0);
    // Posted at the end of `post`; the latch sees it at post+1; SEMGET passes at post+2.
    assert_eq!(s.at_asm(0, "ttsemget 8", 0), post + 2);
    assert_eq!(s.cp.semaphores()[3], (0, 4));
}

// docs/wait-gate.md pattern 4 / SEMWAIT.md C1: STALL_ON_MAX keeps waiting while Value >= Max.
#[test]
fn semwait_stall_on_max() {
    let mut s = Sim::new();
    s.cp.set_semaphore(1, 2, 2).unwrap();
    s.prog(1, &["ttsemwait 322, 2, 2", "ttzeroacc 0, 0, 0, 0, 0"]);
    s.prog(
        2,
        &[
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttsemget 2",
        ],
    );
    s.must_run();
    let get = s.at_asm(2, "ttsemget 2", 0);
    assert_eq!(s.at_asm(1, "ttzeroacc 0, 0, 0, 0, 0", 0), get + 2);
}

// docs/wait-gate.md SEMWAIT C0 STALL_ON_ZERO: keeps waiting while Value == 0.
#[test]
fn semwait_stall_on_zero() {
    let mut s = Sim::new();
    s.prog(1, &["ttsemwait 64, 1, 1", "ttzeroacc 0, 0, 0, 0, 0"]);
    s.steps(8).unwrap();
    assert_eq!(s.log[1].len(), 1);
    s.cp.sem_window_write(0, 0).unwrap(); // RISC-V post
    s.must_run();
    // The Sync Unit serves the write in cycle 8; the latch releases then; ZEROACC passes at 9.
    assert_eq!(s.at_asm(1, "ttzeroacc 0, 0, 0, 0, 0", 0), 9);
}

// docs/wait-gate.md "The Wait Gate": a thread moves at most one instruction through its gate per cycle
// (docs/execution-model.md).
#[test]
fn one_instruction_per_thread_per_cycle() {
    let mut s = Sim::new();
    s.prog(0, &["ttnop"; 6]);
    s.must_run();
    let cycles: Vec<u64> = s.log[0].iter().map(|x| x.0).collect();
    assert_eq!(cycles, vec![1, 2, 3, 4, 5, 6]);
}

// docs/wait-gate.md "stall_res" table (STALLWAIT.md): each block bit catches its category.
#[test]
fn block_mask_categories() {
    let caught = |line: &str| -> Vec<u32> {
        let i = decode(Arch::Blackhole, asm(line));
        (0..9).filter(|b| blocked_by_mask(1 << b, &i)).collect()
    };
    assert_eq!(
        caught("ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1"),
        vec![0, 3]
    );
    assert_eq!(
        caught("ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1"),
        vec![0, 2]
    );
    assert_eq!(caught("ttxmov 0, 0"), vec![0, 4]);
    assert_eq!(caught("ttsetdmareg 0, 0, 0, 4"), vec![0, 5]);
    assert_eq!(caught("ttsetadcxy 0, 0, 0, 0, 0, 1"), vec![0]);
    assert_eq!(caught("ttsempost 1"), vec![1]);
    assert_eq!(caught("ttatgetm 0"), vec![1]);
    assert_eq!(caught("ttmvmul 0, 0, 0, 0"), vec![6]);
    assert_eq!(caught("ttwrcfg 4, 0, 124"), vec![7]);
    assert_eq!(caught("ttsfpmad 0, 0, 0, 0, 0"), vec![8]);
}

// docs/wait-gate.md "sem_sel": several semaphores may be selected; the SEMWAIT releases only when the
// condition has cleared on all of them (SEMWAIT.md C0/C1 "any of the semaphores").
#[test]
fn semwait_multiple_semaphores_all_must_clear() {
    let mut s = Sim::new();
    s.prog(1, &["ttsemwait 2, 3, 1", "ttsemget 3"]);
    s.steps(5).unwrap();
    s.cp.sem_window_write(0, 0).unwrap();
    s.steps(5).unwrap();
    assert_eq!(s.log[1].len(), 1, "semaphore 1 is still zero");
    s.cp.sem_window_write(1, 0).unwrap();
    s.must_run();
    assert_eq!(s.at_asm(1, "ttsemget 3", 0), 11);
    assert_eq!((s.cp.semaphores()[0].0, s.cp.semaphores()[1].0), (0, 0));
}

// docs/execution-model.md EM-7: an unknown opcode reaching the gate is an error naming the
// thread and word, never a panic.
#[test]
fn unknown_opcode_reported() {
    let mut s = Sim::new();
    s.words(2, &[0xff00_0000]);
    let e = s.run().expect_err("unknown");
    assert_eq!(
        (e.kind, e.thread, e.word),
        (ErrorKind::Invalid, Some(2), Some(0xff00_0000))
    );
}

// docs/mutexes.md "Per-Core Access": BRISC cannot push ATGETM/ATRELM; bhemu reports it.
#[test]
fn brisc_cannot_use_mutexes() {
    let mut s = Sim::new();
    s.cp.push(0, bhemu_tensix::PushSource::Brisc, asm("ttatgetm 0"))
        .unwrap();
    let e = s.run().expect_err("BRISC mutex");
    assert_eq!(e.kind, ErrorKind::Undefined);
    assert_eq!(s.cp.mutexes()[0], (0, None));
}

// STALLWAIT.md (Blackhole tip): Blackhole renumbers the condition bits; on Wormhole bit 7 is
// MATH (C7), on Blackhole bit 7 is SRCA_VLD. The same word waits on different signals.
#[test]
fn wormhole_condition_bits_renumbered() {
    let mut s = Sim::with_arch(Arch::WormholeB0);
    s.prog(
        1,
        &[
            "ttsetdvalid 3",
            "ttmvmul 0, 0, 0, 0",
            "ttstallwait 2, 128",
            "ttsempost 1",
        ],
    );
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttsempost 1", 0),
        s.at_asm(1, "ttmvmul 0, 0, 0, 0", 0) + 5 + 1,
        "Wormhole C7 = Matrix Unit busy"
    );
    let mut s = Sim::new();
    s.prog(
        1,
        &[
            "ttsetdvalid 3",
            "ttmvmul 0, 0, 0, 0",
            "ttstallwait 2, 128",
            "ttsempost 1",
        ],
    );
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttsempost 1", 0),
        s.at_asm(1, "ttstallwait 2, 128", 0) + 2,
        "Blackhole C7 = SrcA valid: already true"
    );
}
