//! The worked patterns of the PTO docs, as traces under examples/pto/, run on every profile.
mod common;
use bhemu_pto::{ErrorKind, Report};
use common::*;

fn s(r: &Report, label: &str) -> bhemu_pto::Span {
    span(r, Aiv0, label)
}

/// The RAW and WAR edges of the ping-pong loop hold (vector/pipeline-sync.md Example 3).
fn assert_pingpong_orders(r: &Report) {
    for i in 0..4 {
        let (load, vabs, store) = (
            s(r, &format!("load{i}")),
            s(r, &format!("vabs{i}")),
            s(r, &format!("store{i}")),
        );
        assert!(vabs.start >= load.end, "RAW in[{i}]");
        assert!(store.start >= vabs.end, "RAW out[{i}]");
        if i + 2 < 4 {
            assert!(
                s(r, &format!("load{}", i + 2)).start >= vabs.end,
                "WAR in[{}]",
                i % 2
            );
            assert!(
                s(r, &format!("vabs{}", i + 2)).start >= store.end,
                "WAR out[{}]",
                i % 2
            );
        }
    }
}

// vector/pipeline-sync.md Example 3a: flags primed before the loop, drained after it.
#[test]
fn pingpong_flags_overlaps_load_and_compute() {
    let src = example("pingpong_flags.pto");
    let hw = ok(&src, A5);
    assert_pingpong_orders(&hw);
    let (load1, vabs0) = (s(&hw, "load1"), s(&hw, "vabs0"));
    assert!(
        load1.start < vabs0.end && vabs0.start < load1.end,
        "double buffering overlaps MTE2 and V"
    );
    assert!(hw.unbalanced.is_empty());
    assert_eq!(hw.cycles, 110);
    assert_eq!(
        ok(&src, A2A3).cycles,
        hw.cycles,
        "no cross-core ops: A2/A3 and A5 agree"
    );
    let cpu = ok(&src, Cpu);
    assert_pingpong_orders(&cpu);
    assert!(
        cpu.cycles > hw.cycles + 4 * 20,
        "the CPU profile runs ops one at a time"
    );
}

// Example 3a: "Without this, the first iteration's wait_flag for reverse deps would deadlock".
#[test]
fn pingpong_flags_without_priming_deadlocks() {
    let src =
        example("pingpong_flags.pto").replacen("pto.set_flag PIPE_V, PIPE_MTE2, EVENT_ID0", "", 1);
    let e = err(&src, A5, ErrorKind::Deadlock);
    assert_eq!(e.stuck[0].pipe, "aiv0.PIPE_MTE2");
    assert!(
        e.stuck[0]
            .waiting_on
            .contains("(PIPE_V, PIPE_MTE2, EVENT_ID0)"),
        "{}",
        e.stuck[0].waiting_on
    );
}

// Example 3a: "After the loop (4 × wait_flag): Drain the matching reverse-dep signals".
#[test]
fn pingpong_flags_without_drain_is_unbalanced() {
    let full = example("pingpong_flags.pto");
    let cut = full.find("# Post-loop").expect("marker");
    let r = run(&full[..cut], A5);
    assert_eq!(r.error.map(|e| e.kind), Some(ErrorKind::Unbalanced));
    assert_eq!(r.unbalanced.len(), 4);
}

// vector/pipeline-sync.md Example 3b: buffer tokens, no priming or draining, same orders.
#[test]
fn pingpong_bufs_needs_no_priming_and_keeps_the_same_orders() {
    let src = example("pingpong_bufs.pto");
    let r = ok(&src, A5);
    assert_pingpong_orders(&r);
    let (load1, vabs0) = (s(&r, "load1"), s(&r, "vabs0"));
    assert!(load1.start < vabs0.end && vabs0.start < load1.end);
    assert!(r.cycles <= ok(&example("pingpong_flags.pto"), A5).cycles);
    assert_pingpong_orders(&ok(&src, Cpu));
}

// wait-intra-core.md: on A5 "Only the named pipeline is blocked": the vector core's MTE2 load runs
// while its V pipe waits for the cube.
#[test]
fn handoff_on_a5_vector_mte2_proceeds_while_v_waits() {
    let r = ok(&example("handoff.pto"), A5);
    let write_c = span(&r, Aic, "write_c");
    for core in [Aiv0, Aiv1] {
        let (bias, vadd) = (span(&r, core, "load_bias"), span(&r, core, "vadd_bias"));
        assert_eq!(bias.start, 1, "{core}: MTE2 starts at once");
        assert!(
            bias.end <= write_c.end,
            "{core}: the load is done before the cube's signal"
        );
        assert_eq!(
            vadd.start, write_c.end,
            "{core}: V waits for the cube's signal, no longer"
        );
    }
    assert!(
        span(&r, Aic, "load_next").start >= span(&r, Aiv1, "store").end,
        "the cube waits for both replies"
    );
}

// wait-flag-dev.md: on A2/A3 the whole scalar unit stalls: the load is not issued before the
// cube's signal.
#[test]
fn handoff_on_a2a3_whole_vector_core_stalls() {
    let r = ok(&example("handoff.pto"), A2A3);
    let write_c = span(&r, Aic, "write_c");
    for core in [Aiv0, Aiv1] {
        let bias = span(&r, core, "load_bias");
        assert!(
            bias.start > write_c.end,
            "{core}: MTE2 waits with the rest of the core ({} vs {})",
            bias.start,
            write_c.end
        );
    }
    // Reduce: the cube's one wait_flag_dev needs both subblocks' replies.
    let last_store = span(&r, Aiv0, "store").end.max(span(&r, Aiv1, "store").end);
    assert!(span(&r, Aic, "load_next").start > last_store);
}

// The profiles' difference (crates/pto/README.md), shown by the timelines of one trace on both.
#[test]
fn handoff_timelines_differ_between_a5_and_a2a3() {
    let src = example("handoff.pto");
    let (a5, a2) = (ok(&src, A5), ok(&src, A2A3));
    assert_eq!(
        span(&a5, Aic, "write_c"),
        span(&a2, Aic, "write_c"),
        "the cube's side is the same"
    );
    let (b5, b2) = (span(&a5, Aiv0, "load_bias"), span(&a2, Aiv0, "load_bias"));
    assert_eq!(b5.end - b5.start, b2.end - b2.start);
    assert_eq!(
        b2.start - b5.start,
        71,
        "A2/A3 starts the bias load 71 cycles later"
    );
    assert_eq!((a5.cycles, a2.cycles), (115, 144));
    ok(&src, Cpu);
}

// A trace that deadlocks on one profile but not another: wait_flag_dev stops issue before the
// subblock's own signal to the cube; wait_intra_core does not.
#[test]
fn handoff_deadlock_deadlocks_on_a2a3_not_on_a5() {
    let src = example("handoff_deadlock.pto");
    let r = ok(&src, A5);
    assert!(span(&r, Aiv0, "load_bias").end <= span(&r, Aic, "load_ab_and_bias").start);
    let e = err(&src, A2A3, ErrorKind::Deadlock);
    let pipes: Vec<&str> = e.stuck.iter().map(|s| s.pipe.as_str()).collect();
    assert_eq!(pipes, ["aic.PIPE_S", "aiv0.PIPE_S", "aiv1.PIPE_S"]);
    assert!(e
        .stuck
        .iter()
        .all(|s| s.waiting_on.contains("wait_flag_dev")));
    ok(&src, Cpu);
}

// A wait before its set in program order: concurrent pipes cope, a synchronous run cannot.
#[test]
fn wait_before_set_deadlocks_on_cpu_only() {
    let src = example("wait_before_set.pto");
    let r = ok(&src, A5);
    assert_eq!(span(&r, Aiv0, "vadd").start, span(&r, Aiv0, "load").end);
    ok(&src, A2A3);
    let e = err(&src, Cpu, ErrorKind::Deadlock);
    assert_eq!((e.core, e.stuck.len()), (Some(Aiv0), 1));
}
