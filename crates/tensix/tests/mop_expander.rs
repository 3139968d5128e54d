//! docs/mop-replay.md (MOP expander) and MOPExpander.md, one test per rule.
mod common;
use bhemu_tensix::{ErrorKind, PushSource};
use common::{asm, Sim};

/// Program MopCfg[0..9] of thread 0.
fn cfg(s: &mut Sim, words: [u32; 9]) {
    for (i, w) in words.iter().enumerate() {
        s.cp.write_mop_cfg(0, i, *w).unwrap();
    }
}

fn nop() -> u32 {
    asm("ttnop")
}

// Distinct, cheap, non-NOP instructions (Vector Unit, 1 cycle, pipelined).
fn op(n: u32) -> u32 {
    asm(&format!("ttsfpmov {n}, 0, 0, 0"))
}

// docs/mop-replay.md MR-6: OuterCount == 1 && IsNop(StartOp) && InnerCount == 0 &&
// !IsNop(EndOp0) => OuterCount += 128.
#[test]
fn mop_template1_outer_count_bug() {
    let mut s = Sim::new();
    cfg(
        &mut s,
        [1, 0, nop(), op(1), nop(), nop(), nop(), nop(), nop()],
    );
    s.prog(0, &["ttmop 1, 0, 0"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![op(1); 129]);
    // Not triggered with OuterCount 2: two EndOp0s.
    let mut s = Sim::new();
    cfg(
        &mut s,
        [2, 0, nop(), op(1), nop(), nop(), nop(), nop(), nop()],
    );
    s.prog(0, &["ttmop 1, 0, 0"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![op(1); 2]);
}

// docs/mop-replay.md MR-8: IsNop recognises only opcode 0x02 — DMANOP and SFPNOP are emitted.
#[test]
fn mop_isnop_only_opcode_02() {
    for (start, emitted) in [
        (asm("ttdmanop"), true),
        (asm("ttsfpnop"), true),
        (nop(), false),
    ] {
        let mut s = Sim::new();
        cfg(
            &mut s,
            [1, 1, start, nop(), nop(), op(5), nop(), op(7), op(8)],
        );
        s.prog(0, &["ttmop 1, 0, 0"]);
        s.must_run();
        let want = if emitted {
            vec![start, op(7)]
        } else {
            vec![op(7)]
        };
        assert_eq!(s.dispatched_words(0), want, "StartOp {start:#x}");
    }
}

// docs/mop-replay.md MR-7: LoopOp1 non-NOP => XOR alternation LoopOp/LoopOp1 and InnerCount
// doubles; the last-iteration override replaces whichever would have been emitted.
#[test]
fn mop_loopop_alternation_doubles_inner_count() {
    let (a, b, l0) = (op(1), op(2), op(9));
    let mut s = Sim::new();
    cfg(&mut s, [1, 3, nop(), nop(), nop(), a, b, l0, op(8)]);
    s.prog(0, &["ttmop 1, 0, 0"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![a, b, a, b, a, l0]);
}

// docs/mop-replay.md Template 1: Loop1Last ends the inner loop of non-last outer iterations, Loop0Last
// the last; StartOp/EndOp0/EndOp1 frame each outer iteration; EndOp1 only with EndOp0.
#[test]
fn mop_template1_double_loop_framing() {
    let (st, e0, e1, lp, l0, l1) = (op(1), op(2), op(3), op(4), op(5), op(6));
    let mut s = Sim::new();
    cfg(&mut s, [2, 2, st, e0, e1, lp, nop(), l0, l1]);
    s.prog(0, &["ttmop 1, 0, 0"]);
    s.must_run();
    assert_eq!(
        s.dispatched_words(0),
        vec![st, lp, l1, e0, e1, st, lp, l0, e0, e1]
    );
    // EndOp1 is skipped when EndOp0 is a NOP.
    let mut s = Sim::new();
    cfg(&mut s, [1, 1, nop(), nop(), e1, lp, nop(), l0, l1]);
    s.prog(0, &["ttmop 1, 0, 0"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![l0]);
}

// docs/mop-replay.md Template 0: per mask bit (low first), 0 => InsnA0 [A1 A2 A3 if HasA123] [B if
// HasB], 1 => SkipA0 [SkipB if HasB]; Count1+1 iterations; MOP_CFG supplies the high 16 bits.
#[test]
fn mop_template0_zmask_with_mop_cfg_high_bits() {
    let (b, a0, a1, a2, a3, sa, sb) = (op(1), op(2), op(3), op(4), op(5), op(6), op(7));
    let mut s = Sim::new();
    cfg(&mut s, [0, 3, b, a0, a1, a2, a3, sa, sb]);
    // 18 iterations; mask = 0x0002_0001: bit 0 and bit 17 set.
    s.prog(0, &["ttmop_cfg 2", "ttmop 0, 17, 1"]);
    s.must_run();
    let w = s.dispatched_words(0);
    let mut want = vec![sa, sb];
    for _ in 1..17 {
        want.extend([a0, a1, a2, a3, b]);
    }
    want.extend([sa, sb]);
    assert_eq!(w, want);
    // Flags 0: just A0 / SkipA0.
    let mut s = Sim::new();
    cfg(&mut s, [0, 0, b, a0, a1, a2, a3, sa, sb]);
    s.prog(0, &["ttmop 0, 2, 2"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![a0, sa, a0]);
}

// MOPExpander.md "Performance" / docs/mop-replay.md table: emission one per cycle during expansion;
// after it, a one-cycle transition penalty unless the next instruction is a MOP.
#[test]
fn mop_transition_penalty_one_cycle() {
    let mut s = Sim::new();
    cfg(
        &mut s,
        [1, 3, nop(), nop(), nop(), op(1), nop(), op(1), op(1)],
    );
    s.prog(0, &["ttmop 1, 0, 0", "ttsfpnop"]);
    s.must_run();
    let c: Vec<u64> = s.log[0].iter().map(|x| x.0).collect();
    assert_eq!(c[1] - c[0], 1);
    assert_eq!(c[2] - c[1], 1);
    assert_eq!(
        c[3] - c[2],
        2,
        "one transition cycle before the next non-MOP instruction"
    );
    // Back-to-back MOPs: no gap.
    let mut s = Sim::new();
    cfg(
        &mut s,
        [1, 2, nop(), nop(), nop(), op(1), nop(), op(1), op(1)],
    );
    s.prog(0, &["ttmop 1, 0, 0", "ttmop 1, 0, 0"]);
    s.must_run();
    let c: Vec<u64> = s.log[0].iter().map(|x| x.0).collect();
    assert_eq!(
        c.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>(),
        vec![1, 1, 1]
    );
}

// docs/mop-replay.md table: ingestion is blocked while expanding (words behind the MOP stay queued).
#[test]
fn mop_ingestion_blocked_while_expanding() {
    let mut s = Sim::new();
    cfg(
        &mut s,
        [1, 20, nop(), nop(), nop(), op(1), nop(), op(1), op(1)],
    );
    s.prog(0, &["ttmop 1, 0, 0", "ttsfpnop", "ttsfpnop", "ttsfpnop"]);
    s.steps(8).unwrap();
    assert_eq!(s.cp.fifo_len(0), 3, "nothing ingested behind the MOP");
    assert!(s.cp.mop_expander(0).unwrap().expanding());
    s.must_run();
    assert_eq!(s.dispatched_words(0)[20..], [asm("ttsfpnop"); 3]);
}

// docs/mop-replay.md MR-10: MopCfg is snapshotted when the expansion starts (bhemu's choice,
// matching the functional model): a write mid-expansion only affects the next MOP.
#[test]
fn mop_cfg_snapshot_at_expansion_start() {
    let mut s = Sim::new();
    cfg(
        &mut s,
        [1, 6, nop(), nop(), nop(), op(1), nop(), op(1), op(1)],
    );
    s.prog(0, &["ttmop 1, 0, 0"]);
    s.steps(3).unwrap();
    s.cp.write_mop_cfg(0, 5, op(2)).unwrap();
    s.cp.write_mop_cfg(0, 7, op(2)).unwrap();
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![op(1); 6]);
    s.prog(0, &["ttmop 1, 0, 0"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0)[6..], [op(2); 6]);
}

// docs/mop-replay.md MR-11 / ManualTTSync.md MOPExpanderDoneCheck: mop_idle is false while a MOP
// is queued before the expander or being expanded.
#[test]
fn mop_sync_waits_for_expander_idle() {
    let mut s = Sim::new();
    cfg(
        &mut s,
        [1, 4, nop(), nop(), nop(), op(1), nop(), op(1), op(1)],
    );
    s.cp.set_trisc_cfg_pending(0, true);
    s.prog(0, &["ttstallwait 511, 1024", "ttsfpnop", "ttmop 1, 0, 0"]);
    s.steps(6).unwrap();
    assert!(!s.cp.mop_idle(0), "a MOP is queued in the FIFO");
    s.cp.set_trisc_cfg_pending(0, false);
    let mut busy_seen = false;
    for _ in 0..20 {
        s.step().unwrap();
        busy_seen |= s.cp.mop_expander(0).unwrap().expanding() && !s.cp.mop_idle(0);
    }
    assert!(busy_seen);
    assert!(s.cp.mop_idle(0));
    assert!(s.cp.mop_idle(1));
}

// docs/mop-replay.md "MOP + Replay Composition": the MOP expander may emit REPLAY, which the Replay
// Expander then expands.
#[test]
fn mop_may_emit_replay() {
    let mut s = Sim::new();
    cfg(
        &mut s,
        [
            1,
            3,
            nop(),
            nop(),
            nop(),
            asm("ttreplay 4, 2, 0, 0"),
            nop(),
            asm("ttreplay 4, 2, 0, 0"),
            nop(),
        ],
    );
    s.prog(
        0,
        &[
            "ttreplay 4, 2, 0, 1",
            "ttsfpmov 1, 0, 0, 0",
            "ttsfpmov 2, 0, 0, 0",
            "ttmop 1, 0, 0",
        ],
    );
    s.must_run();
    assert_eq!(s.dispatched_words(0), [op(1), op(2)].repeat(3));
    // Each REPLAY expands to 2, so the backend sees one instruction per cycle.
    let c: Vec<u64> = s.log[0].iter().map(|x| x.0).collect();
    assert!(c.windows(2).all(|w| w[1] == w[0] + 1), "{c:?}");
}

// docs/mop-replay.md "MOP Expander": BRISC's pushes enter after the MOP expander, so a MOP from BRISC is
// never expanded; it reaches the Wait Gate, which bhemu reports (MOP.md: RISCV B cannot use
// MOP). Ordinary BRISC pushes execute normally.
#[test]
fn brisc_push_enters_after_mop_expander() {
    let mut s = Sim::new();
    s.cp.push(0, PushSource::Brisc, asm("ttsfpnop")).unwrap();
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![asm("ttsfpnop")]);
    let mut s = Sim::new();
    cfg(
        &mut s,
        [1, 1, nop(), nop(), nop(), op(1), nop(), op(1), op(1)],
    );
    s.cp.push(0, PushSource::Brisc, asm("ttmop 1, 0, 0"))
        .unwrap();
    let e = s.run().expect_err("MOP from BRISC reaches the gate");
    assert_eq!(e.kind, ErrorKind::Undefined);
    assert_eq!(e.word, Some(asm("ttmop 1, 0, 0")));
}

// docs/mop-replay.md "MopCfg": nine registers per thread; index 9 does not exist.
#[test]
fn mop_cfg_nine_registers_per_thread() {
    let mut s = Sim::new();
    assert!(s.cp.write_mop_cfg(0, 8, 1).is_ok());
    assert_eq!(
        s.cp.write_mop_cfg(0, 9, 1).map_err(|e| e.kind),
        Err(ErrorKind::Invalid)
    );
    assert_eq!(
        s.cp.write_mop_cfg(3, 0, 1).map_err(|e| e.kind),
        Err(ErrorKind::Invalid)
    );
    s.cp.write_mop_cfg(2, 5, 0x1234).unwrap();
    assert_eq!(s.cp.mop_expander(2).unwrap().cfg(5), Some(0x1234));
    assert_eq!(s.cp.mop_expander(1).unwrap().cfg(5), Some(0));
}

// docs/mop-replay.md MR-5a: Wormhole keeps seven bits of OuterCount / InnerCount; Blackhole
// takes wider counts (tt-llk programs 1000 x 1000 on Blackhole).
#[test]
fn mop_template1_counts_are_seven_bits_on_wormhole_wider_on_blackhole() {
    use bhemu_isa::tensix::Arch;
    // OuterCount 130, InnerCount 3: Blackhole 130 x 3; Wormhole (130 & 127 = 2) x 3.
    for (arch, outer) in [(Arch::Blackhole, 130usize), (Arch::WormholeB0, 2)] {
        let mut s = Sim::with_arch(arch);
        let a = |n: u32| common::asm_for(arch, &format!("ttsfpmov {n}, 0, 0, 0"));
        let nop = common::asm_for(arch, "ttnop");
        for (i, w) in [130, 3, nop, nop, nop, a(1), nop, a(2), a(3)]
            .iter()
            .enumerate()
        {
            s.cp.write_mop_cfg(0, i, *w).unwrap();
        }
        s.prog(0, &["ttmop 1, 0, 0"]);
        s.must_run();
        let got = s.dispatched_words(0);
        let mut want = Vec::new();
        for j in 0..outer {
            want.extend([a(1), a(1), if j + 1 == outer { a(2) } else { a(3) }]);
        }
        assert_eq!(got.len(), want.len(), "{arch:?}");
        assert_eq!(got, want, "{arch:?}");
    }
}
