//! One test per semantic rule of the PTO pipeline-sync model. Each cites its source.
mod common;
use bhemu_pto::{ErrorKind, Pipe};
use common::*;

// crates/pto/README.md: "The scalar unit issues in program order"; one per cycle.
#[test]
fn scalar_unit_issues_one_op_per_cycle_in_program_order() {
    let r = ok(
        "[aiv0]\nop PIPE_MTE2 5 a\nop PIPE_V 5 b\nop PIPE_MTE3 5 c\n",
        A5,
    );
    assert_eq!(
        [
            span(&r, Aiv0, "a").start,
            span(&r, Aiv0, "b").start,
            span(&r, Aiv0, "c").start
        ],
        [0, 1, 2]
    );
    assert_eq!(r.cycles, 7);
}

// crates/pto/README.md: "per-pipe queues that run asynchronously".
#[test]
fn pipes_run_concurrently() {
    let r = ok("[aiv0]\nop PIPE_MTE2 10 a\nop PIPE_V 10 b\n", A5);
    let (a, b) = (span(&r, Aiv0, "a"), span(&r, Aiv0, "b"));
    assert!(b.start < a.end, "V starts while MTE2 is busy");
    assert_eq!(r.cycles, 11);
}

// "an op occupies its pipe for its cycle count"; queues are in order.
#[test]
fn op_occupies_its_pipe_for_its_cycle_count_in_order() {
    let r = ok("[aiv0]\nop PIPE_V 10 a\nop PIPE_V 5 b\n", A5);
    assert_eq!(
        (span(&r, Aiv0, "a").start, span(&r, Aiv0, "a").end),
        (0, 10)
    );
    assert_eq!(
        (span(&r, Aiv0, "b").start, span(&r, Aiv0, "b").end),
        (10, 15)
    );
    assert_eq!(pipe_of(&r, Aiv0, "b"), Pipe::V);
}

// set-flag.md: the event is "produced by the source pipeline" — it fires when the work issued
// before it on the source pipe has retired.
#[test]
fn set_flag_fires_when_prior_work_on_source_pipe_retired() {
    let src = "[aiv0]\nop PIPE_MTE2 30 load\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n\
               pto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\nop PIPE_V 5 vadd\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "vadd").start, 30);
}

// set-flag.md: only the source pipe's earlier work matters, not other pipes'.
#[test]
fn set_flag_waits_only_for_its_source_pipe() {
    let src = "[aiv0]\nop PIPE_V 50 long\nop PIPE_MTE2 10 load\npto.set_flag PIPE_MTE2, PIPE_MTE3, EVENT_ID0\n\
               pto.wait_flag PIPE_MTE2, PIPE_MTE3, EVENT_ID0\nop PIPE_MTE3 5 store\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "load").end, 11);
    assert_eq!(span(&r, Aiv0, "store").start, 11);
}

// wait-flag.md: "Stalls the destination pipeline … Other pipelines may continue"; the scalar unit
// keeps issuing.
#[test]
fn wait_flag_blocks_only_destination_pipe() {
    let src = "[aiv0]\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\nop PIPE_V 5 vadd\nop PIPE_MTE3 7 store\n\
               op PIPE_MTE2 20 load\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "store").start, 2, "MTE3 is not blocked");
    assert_eq!(
        span(&r, Aiv0, "load").start,
        3,
        "the scalar unit is not blocked"
    );
    assert_eq!(
        span(&r, Aiv0, "vadd").start,
        23,
        "V waits for the load's signal"
    );
}

// an event is a counter; wait_flag "blocks … until the count is non-zero, then
// decrements". vector/pipeline-sync.md Example 3a relies on it (two primes, two drains).
#[test]
fn wait_flag_decrements_the_event_counter() {
    let two = "[aiv0]\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n\
               pto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\nop PIPE_V 3 a\n";
    ok(two, A5);
    let three = format!("{two}pto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n");
    let e = err(&three, A5, ErrorKind::Deadlock);
    assert_eq!(e.line, 7);
    assert_eq!(e.stuck.len(), 1);
    assert_eq!(e.stuck[0].pipe, "aiv0.PIPE_V");
}

// ordering-and-synchronization.md: "An event is identified by a triple (src_pipe, dst_pipe,
// event_id)".
#[test]
fn event_is_identified_by_src_dst_and_id() {
    let other_id = "[aiv0]\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID1\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n\
                    pto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID1\n";
    let e = err(other_id, A5, ErrorKind::Deadlock);
    assert!(
        e.stuck[0].waiting_on.contains("EVENT_ID0"),
        "{}",
        e.stuck[0].waiting_on
    );
    let other_src = "[aiv0]\npto.set_flag PIPE_MTE3, PIPE_V, EVENT_ID0\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n\
                     pto.wait_flag PIPE_MTE3, PIPE_V, EVENT_ID0\n";
    err(other_src, A5, ErrorKind::Deadlock);
}

// Events are intra-core: wait-flag-dev.md contrasts "wait_flag (intra-core)".
#[test]
fn events_are_per_core() {
    let src = "[aiv0]\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n[aiv1]\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n";
    let e = err(src, A5, ErrorKind::Deadlock);
    assert_eq!(e.stuck[0].pipe, "aiv1.PIPE_V");
}

// pipe-barrier.md: "Drain all previously issued work in one pipeline before allowing later work on
// that same pipeline to begin" — and only that pipeline.
#[test]
fn pipe_barrier_drains_only_the_named_pipe() {
    let src =
        "[aiv0]\nop PIPE_MTE3 10 a\npto.pipe_barrier PIPE_MTE3\nop PIPE_MTE3 5 b\nop PIPE_V 3 c\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "b").start, 10);
    assert_eq!(span(&r, Aiv0, "c").start, 3, "other pipes are not held");
}

// pipe-barrier.md with PIPE_ALL (crates/pto/README.md: "PIPE_ALL: every pipe"): later work on any pipe
// starts after all earlier work on every pipe retired.
#[test]
fn pipe_barrier_all_drains_every_pipe_before_later_work() {
    let src =
        "[aiv0]\nop PIPE_MTE2 20 a\nop PIPE_V 5 b\npto.pipe_barrier PIPE_ALL\nop PIPE_MTE3 3 c\n";
    let r = ok(src, A5);
    let c = span(&r, Aiv0, "c");
    assert!(c.start >= 20, "c starts after a retired: {}", c.start);
    assert_eq!(
        c.start, 21,
        "the barrier completes at 20 and uses that issue slot"
    );
}

// get-buf.md: "Acquiring a buffer that was never released (first iteration) succeeds immediately
// since all slots start free".
#[test]
fn first_get_buf_succeeds_immediately() {
    let r = ok(
        "[aiv0]\npto.get_buf 0, PIPE_MTE2\nop PIPE_MTE2 5 a\npto.rls_buf 0, PIPE_MTE2\n",
        A5,
    );
    assert_eq!(span(&r, Aiv0, "a").start, 1);
}

// get-buf.md: "If the named buffer ID is held by another pipeline, the calling pipeline blocks
// until the holder releases it" (RAW: vector/pipeline-sync.md Example 2).
#[test]
fn get_buf_blocks_until_holder_releases() {
    let src = "[aiv0]\npto.get_buf 0, PIPE_MTE2\nop PIPE_MTE2 20 load\npto.rls_buf 0, PIPE_MTE2\n\
               pto.get_buf 0, PIPE_V\nop PIPE_V 5 vadd\npto.rls_buf 0, PIPE_V\nop PIPE_MTE3 2 other\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "load").end, 21);
    assert_eq!(
        span(&r, Aiv0, "vadd").start,
        21,
        "V acquires when MTE2 releases"
    );
    assert_eq!(
        span(&r, Aiv0, "other").start,
        6,
        "only the acquiring pipe blocks"
    );
}

// get-buf.md: "Buffer IDs use program order … to implicitly resolve RAW and WAR dependencies":
// an acquire issued later cannot overtake an earlier one that is still queued behind work.
#[test]
fn get_buf_is_granted_in_program_order() {
    let src = "[aiv0]\nop PIPE_MTE2 50 busy\npto.get_buf 0, PIPE_MTE2\nop PIPE_MTE2 5 fill\npto.rls_buf 0, PIPE_MTE2\n\
               pto.get_buf 0, PIPE_V\nop PIPE_V 5 use\npto.rls_buf 0, PIPE_V\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "fill").start, 50);
    assert_eq!(
        span(&r, Aiv0, "use").start,
        55,
        "V's get_buf waits for MTE2's earlier acquire and release"
    );
}

// set-intra-block.md: "IDs 0–15 target AIV0; IDs 16–31 target AIV1".
#[test]
fn set_intra_block_ids_0_to_15_target_aiv0_and_16_to_31_aiv1() {
    let src = "[aic]\nop PIPE_FIX 10 w\npto.set_intra_block PIPE_FIX, 16\npto.set_intra_block PIPE_FIX, 3\n\
               [aiv1]\npto.wait_intra_core PIPE_V, 16\nop PIPE_V 5 v1\n\
               [aiv0]\npto.wait_intra_core PIPE_V, 3\nop PIPE_V 5 v0\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv1, "v1").start, 10);
    assert_eq!(span(&r, Aiv0, "v0").start, 10);
}

// set-intra-block.md: "There is no broadcast: to signal both subblocks, two separate
// set_intra_block calls are required".
#[test]
fn set_intra_block_does_not_broadcast() {
    let src = "[aic]\npto.set_intra_block PIPE_FIX, 0\n[aiv0]\npto.wait_intra_core PIPE_V, 0\n\
               [aiv1]\npto.wait_intra_core PIPE_V, 16\n";
    let e = err(src, A5, ErrorKind::Deadlock);
    assert_eq!(e.core, Some(Aiv1));
    assert_eq!(e.stuck.len(), 1);
}

// set-intra-block.md V→C example (both subblocks set id 0; the cube waits on 0 and 16);
// crates/pto/README.md: "a vector subblock sets its own id, the hardware adds 16 for subblock 1".
#[test]
fn vector_subblock_signals_cube_with_its_own_id() {
    let src = "[aiv1]\nop PIPE_V 10 a\npto.set_intra_block PIPE_V, 3\n[aic]\npto.wait_intra_core PIPE_MTE2, 19\nop PIPE_MTE2 5 b\n";
    assert_eq!(span(&ok(src, A5), Aic, "b").start, 10);
    let wrong = src.replace("PIPE_MTE2, 19", "PIPE_MTE2, 3");
    let e = err(&wrong, A5, ErrorKind::Deadlock);
    assert_eq!(e.stuck[0].pipe, "aic.PIPE_MTE2");
}

// wait-intra-core.md: "Only the named pipeline is blocked. All other pipelines continue."
#[test]
fn wait_intra_core_blocks_only_the_named_pipe() {
    let src = "[aic]\nop PIPE_FIX 30 w\npto.set_intra_block PIPE_FIX, 0\n\
               [aiv0]\npto.wait_intra_core PIPE_V, 0\nop PIPE_V 5 vadd\nop PIPE_MTE2 20 load\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "load").start, 2);
    assert_eq!(span(&r, Aiv0, "vadd").start, 30);
}

// wait-intra-core.md: "Decrements the semaphore counter when the event is signaled".
#[test]
fn wait_intra_core_decrements_the_semaphore() {
    let src = "[aic]\npto.set_intra_block PIPE_FIX, 0\n[aiv0]\npto.wait_intra_core PIPE_V, 0\npto.wait_intra_core PIPE_V, 0\n";
    let e = err(src, A5, ErrorKind::Deadlock);
    assert_eq!(e.line, 5);
}

// set-cross-core.md: "One set_cross_core from the Cube (AIC) atomically increments the semaphore
// for both AIV0 and AIV1 subblocks".
#[test]
fn set_cross_core_from_cube_reaches_both_subblocks() {
    let src = "[aic]\nop PIPE_FIX 10 w\npto.set_cross_core PIPE_FIX, 0\n\
               [aiv0]\npto.wait_flag_dev 0\nop PIPE_V 5 v\n[aiv1]\npto.wait_flag_dev 0\nop PIPE_V 5 v\n";
    let r = ok(src, A2A3);
    let (a, b) = (span(&r, Aiv0, "v"), span(&r, Aiv1, "v"));
    assert_eq!(a.start, b.start);
    assert_eq!(
        a.start, 12,
        "signal at 10, wait completes at 11, next op issued at 12"
    );
}

// wait-flag-dev.md: "Mode2 reduce semantics … both AIV0 and AIV1 must have called set_cross_core
// before the Cube unblocks".
#[test]
fn wait_flag_dev_on_cube_waits_for_both_subblocks() {
    let src = "[aiv0]\nop PIPE_V 10 a\npto.set_cross_core PIPE_V, 1\n[aiv1]\nop PIPE_V 30 b\npto.set_cross_core PIPE_V, 1\n\
               [aic]\npto.wait_flag_dev 1\nop PIPE_MTE2 5 c\n";
    let r = ok(src, A2A3);
    assert_eq!(span(&r, Aic, "c").start, 32, "after aiv1's signal at 30");
    let one = src.replace(
        "op PIPE_V 30 b\npto.set_cross_core PIPE_V, 1\n",
        "op PIPE_V 30 b\n",
    );
    let e = err(&one, A2A3, ErrorKind::Deadlock);
    assert!(
        e.stuck[0].waiting_on.contains("from aiv1"),
        "{}",
        e.stuck[0].waiting_on
    );
}

// wait-flag-dev.md: "Blocks the entire SU (all pipelines)": later ops are not even issued, on any
// pipe. The same trace with A5's per-pipe wait lets MTE2 start at once.
#[test]
fn wait_flag_dev_blocks_whole_scalar_unit() {
    let a2 = "[aic]\nop PIPE_FIX 30 w\npto.set_cross_core PIPE_FIX, 0\n[aiv0]\npto.wait_flag_dev 0\nop PIPE_MTE2 20 load\n\
              [aiv1]\npto.wait_flag_dev 0\n";
    let r = ok(a2, A2A3);
    assert_eq!(span(&r, Aiv0, "load").start, 32);
    let a5 = "[aic]\nop PIPE_FIX 30 w\npto.set_intra_block PIPE_FIX, 0\n[aiv0]\npto.wait_intra_core PIPE_V, 0\nop PIPE_MTE2 20 load\n";
    assert_eq!(span(&ok(a5, A5), Aiv0, "load").start, 1);
}

// wait-flag-dev.md stalls the SU; ops already issued to a pipe still drain.
#[test]
fn wait_flag_dev_lets_already_issued_work_drain() {
    let src = "[aiv0]\nop PIPE_MTE2 20 load\npto.wait_flag_dev 0\nop PIPE_V 5 v\n\
               [aic]\nop PIPE_FIX 5 w\npto.set_cross_core PIPE_FIX, 0\n[aiv1]\npto.wait_flag_dev 0\n";
    let r = ok(src, A2A3);
    assert_eq!(
        (span(&r, Aiv0, "load").start, span(&r, Aiv0, "load").end),
        (0, 20)
    );
    assert_eq!(span(&r, Aiv0, "v").start, 7);
}

// The scalar pipe is the scalar unit (execution-agents.md "Scalar Unit - Control flow"): scalar
// work holds issue for its cycles.
#[test]
fn scalar_pipe_work_holds_issue() {
    let r = ok("[aiv0]\nop PIPE_S 10 s\nop PIPE_V 5 v\n", A5);
    assert_eq!(
        (span(&r, Aiv0, "s").start, span(&r, Aiv0, "s").end),
        (0, 10)
    );
    assert_eq!(pipe_of(&r, Aiv0, "s"), Pipe::S);
    assert_eq!(span(&r, Aiv0, "v").start, 10);
}

// wait-flag.md: the wait blocks its destination pipe; when that is PIPE_S, the scalar unit stops
// issuing until the signal arrives.
#[test]
fn wait_flag_with_scalar_destination_stalls_issue() {
    let src = "[aiv0]\nop PIPE_V 20 v\npto.set_flag PIPE_V, PIPE_S, EVENT_ID0\npto.wait_flag PIPE_V, PIPE_S, EVENT_ID0\nop PIPE_MTE2 5 m\n";
    let r = ok(src, A5);
    assert_eq!(span(&r, Aiv0, "m").start, 22);
}

// mem-bar.md: orders UB accesses inside the vector scope; "does not establish cross-stage ordering
// on its own".
#[test]
fn mem_bar_does_not_order_other_pipes() {
    let r = ok(
        "[aiv0]\nop PIPE_V 10 a\npto.mem_bar VST_VLD\nop PIPE_MTE2 5 b\nop PIPE_V 2 c\n",
        A5,
    );
    assert_eq!(span(&r, Aiv0, "b").start, 2);
    assert_eq!(span(&r, Aiv0, "c").start, 10);
}

// execution-agents.md "CPU Simulator"; crates/pto/README.md: "ops run synchronously".
#[test]
fn cpu_profile_runs_ops_one_at_a_time() {
    let src = "[aiv0]\nop PIPE_MTE2 10 a\nop PIPE_V 10 b\n";
    assert_eq!(span(&ok(src, Cpu), Aiv0, "b").start, 10);
    assert_eq!(span(&ok(src, A5), Aiv0, "b").start, 1);
}

// set-flag.md: "CPU simulation preserves the visible event protocol": a wait whose signal only a
// later op would produce cannot be satisfied by a synchronous run.
#[test]
fn cpu_wait_before_its_set_in_program_order_deadlocks() {
    let src = "[aiv0]\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\nop PIPE_MTE2 20 load\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n";
    let e = err(src, Cpu, ErrorKind::Deadlock);
    assert_eq!(e.stuck[0].pipe, "aiv0.PIPE_S");
    ok(src, A5);
}

// set-flag.md "CPU simulation preserves the visible event protocol": misuse is still reported.
#[test]
fn cpu_profile_keeps_the_event_protocol() {
    err(
        "[aiv0]\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n",
        Cpu,
        ErrorKind::Unbalanced,
    );
    ok("[aiv0]\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n", Cpu);
}

// set-cross-core.md: "Programs that use this operation MUST provide a fallback path for other
// profiles" — `@profile` guards select the lines of each profile.
#[test]
fn profile_guard_selects_lines() {
    let src = "[aiv0]\n@cpu op PIPE_V 5 only_cpu\n@a5,a2a3 op PIPE_V 7 hw\nop PIPE_MTE2 1 all\n";
    let r = ok(src, A5);
    assert!(r.timeline.find(Aiv0, "only_cpu").is_none());
    assert_eq!(span(&r, Aiv0, "hw").end, 7);
    let c = ok(src, Cpu);
    assert!(c.timeline.find(Aiv0, "hw").is_none());
    assert_eq!(span(&c, Aiv0, "only_cpu").end, 5);
}

// docs/execution-model.md EM-2: the same inputs give the same state and cycle count, always.
#[test]
fn same_trace_gives_same_cycles() {
    for name in [
        "handoff.pto",
        "pingpong_flags.pto",
        "pingpong_bufs.pto",
        "handoff_deadlock.pto",
    ] {
        let src = example(name);
        for p in [A2A3, A5, Cpu] {
            assert_eq!(run(&src, p), run(&src, p), "{name} on {p}");
        }
    }
}

// Timing: a run ends when every core has issued and retired everything.
#[test]
fn cycles_cover_the_last_retirement() {
    let r = ok("[aic]\nop PIPE_M 40 mm\n[aiv1]\nop PIPE_V 10 v\n", A5);
    assert_eq!(r.cycles, 40);
    assert_eq!(ok("", A5).cycles, 0);
}
