//! docs/mop-replay.md (Replay Expander) and REPLAY.md, one test per rule.
mod common;
use bhemu_tensix::{ErrorKind, PushSource};
use common::{asm, Sim};

fn op(n: u32) -> u32 {
    asm(&format!("ttsfpmov {n}, 0, 0, 0"))
}

fn record(s: &mut Sim, start: u32, ops: &[u32], exec: bool) {
    let w = asm(&format!(
        "ttreplay {start}, {}, {}, 1",
        ops.len() % 64,
        exec as u32
    ));
    s.words(0, &[w]);
    s.words(0, ops);
}

// docs/mop-replay.md MR-12: REPLAY Count 0 means 64 (wrapping through the buffer twice).
#[test]
fn replay_len_zero_means_64() {
    let mut s = Sim::new();
    let ops: Vec<u32> = (0..32).map(op).collect();
    record(&mut s, 0, &ops, false);
    s.prog(0, &["ttreplay 0, 0, 0, 0"]);
    s.must_run();
    let got = s.dispatched_words(0);
    assert_eq!(got.len(), 64);
    assert_eq!(got[..32], ops[..]);
    assert_eq!(got[32..], ops[..]);
}

// docs/mop-replay.md MR-12: indices wrap modulo 32.
#[test]
fn replay_index_wraps_mod_32() {
    let mut s = Sim::new();
    record(&mut s, 30, &[op(1), op(2), op(3), op(4)], false);
    s.prog(0, &["ttreplay 0, 2, 0, 0", "ttreplay 30, 4, 0, 0"]);
    s.must_run();
    assert_eq!(
        s.dispatched_words(0),
        vec![op(3), op(4), op(1), op(2), op(3), op(4)]
    );
    let rep = s.cp.replay_expander(0).unwrap();
    assert_eq!(rep.slot(31).word, op(2));
    assert_eq!(rep.slot(0).word, op(3));
}

// REPLAY.md syntax (u5 Index): start_idx uses only its low 5 bits.
#[test]
fn replay_start_index_low_5_bits() {
    let mut s = Sim::new();
    record(&mut s, 1, &[op(7)], false);
    s.prog(0, &["ttreplay 33, 1, 0, 0"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![op(7)]);
}

// docs/mop-replay.md / REPLAY.md: record-and-execute emits while recording, one per cycle.
#[test]
fn replay_record_and_execute() {
    let mut s = Sim::new();
    record(&mut s, 0, &[op(1), op(2), op(3)], true);
    s.prog(0, &["ttreplay 0, 3, 0, 0"]);
    s.must_run();
    assert_eq!(s.dispatched_words(0), [op(1), op(2), op(3)].repeat(2));
}

// docs/mop-replay.md table: record only — ingests one per cycle, emits nothing.
#[test]
fn replay_record_only_emits_nothing() {
    let mut s = Sim::new();
    record(&mut s, 0, &[op(1), op(2)], false);
    s.must_run();
    assert!(s.log[0].is_empty());
    assert_eq!(s.cp.replay_expander(0).unwrap().slot(1).word, op(2));
}

// docs/mop-replay.md table / REPLAY.md: playback emits one per cycle and stalls ingestion; what follows
// the REPLAY leaves after the whole sequence, with no transition penalty.
#[test]
fn replay_playback_stalls_ingestion() {
    let mut s = Sim::new();
    record(&mut s, 0, &[op(1), op(2), op(3), op(4)], false);
    s.prog(0, &["ttreplay 0, 4, 0, 0", "ttsfpnop"]);
    s.must_run();
    assert_eq!(
        s.dispatched_words(0),
        vec![op(1), op(2), op(3), op(4), asm("ttsfpnop")]
    );
    let c: Vec<u64> = s.log[0].iter().map(|x| x.0).collect();
    assert!(c.windows(2).all(|w| w[1] == w[0] + 1), "{c:?}");
}

// docs/mop-replay.md: replayed sequences never contain MOP. From a TRISC a MOP arriving during recording
// is expanded upstream, so its expansion is what gets recorded.
#[test]
fn replay_records_mop_expansion_not_mop() {
    let mut s = Sim::new();
    for (i, w) in [
        1,
        2,
        asm("ttnop"),
        asm("ttnop"),
        asm("ttnop"),
        op(5),
        asm("ttnop"),
        op(6),
        op(6),
    ]
    .iter()
    .enumerate()
    {
        s.cp.write_mop_cfg(0, i, *w).unwrap();
    }
    // The MOP expands to LoopOp, Loop0Last: exactly the two recorded instructions.
    s.prog(
        0,
        &[
            "ttreplay 0, 2, 0, 1",
            "ttmop 1, 0, 0",
            "ttreplay 0, 2, 0, 0",
        ],
    );
    s.must_run();
    assert_eq!(s.dispatched_words(0), vec![op(5), op(6)]);
}

// Judgement call (module docs): a raw MOP can only enter the replay buffer from BRISC (after
// the MOP expander); played back it reaches the Wait Gate and is reported as undefined.
#[test]
fn replayed_mop_is_reported() {
    let mut s = Sim::new();
    s.cp.push(0, PushSource::Brisc, asm("ttreplay 0, 1, 0, 1"))
        .unwrap();
    s.step().unwrap();
    s.cp.push(0, PushSource::Brisc, asm("ttmop 1, 0, 0"))
        .unwrap();
    s.step().unwrap();
    s.prog(0, &["ttreplay 0, 1, 0, 0"]);
    let e = s.run().expect_err("MOP reaching the gate");
    assert_eq!(e.kind, ErrorKind::Undefined);
}
