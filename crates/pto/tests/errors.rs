//! One test per error kind and per checked constraint or exception of the PTO docs.
//! Every error names the core, the trace line and the op.
mod common;
use bhemu_pto::ErrorKind::{self, *};
use common::*;

fn at(
    src: &str,
    p: bhemu_pto::Profile,
    kind: ErrorKind,
    core: Option<bhemu_pto::CoreId>,
    line: usize,
) -> bhemu_pto::PtoError {
    let e = err(src, p, kind);
    assert_eq!((e.core, e.line), (core, line), "{e}");
    e
}

// crates/pto/README.md "src == dst is illegal"; set-flag.md "The event protocol is directional".
#[test]
fn set_flag_src_equals_dst_is_invalid() {
    let e = at(
        "[aiv0]\nop PIPE_V 1 a\npto.set_flag PIPE_V, PIPE_V, EVENT_ID0\n",
        A5,
        Invalid,
        Some(Aiv0),
        3,
    );
    assert_eq!(e.op, "pto.set_flag PIPE_V, PIPE_V, EVENT_ID0");
}

#[test]
fn wait_flag_src_equals_dst_is_invalid() {
    at(
        "[aic]\npto.wait_flag PIPE_M, PIPE_M, EVENT_ID1\n",
        A2A3,
        Invalid,
        Some(Aic),
        2,
    );
}

// set-flag.md Exceptions: "unsupported pipe or event identifiers" are rejected.
#[test]
fn unknown_pipe_is_invalid() {
    let e = at(
        "[aiv1]\n\npto.set_flag PIPE_MTE9, PIPE_V, EVENT_ID0\n",
        A5,
        Invalid,
        Some(Aiv1),
        3,
    );
    assert!(e.message.contains("PIPE_MTE9"));
}

// pipe-barrier.md "The selected pipe identifier MUST be valid"; the cube has no V, a vector
// subblock no M (crates/pto/README.md).
#[test]
fn pipe_the_core_does_not_have_is_invalid() {
    at("[aic]\nop PIPE_V 3 x\n", A5, Invalid, Some(Aic), 2);
    at(
        "[aiv0]\npto.pipe_barrier PIPE_M\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
    at(
        "[aiv0]\npto.get_buf 0, PIPE_FIX\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
}

#[test]
fn pipe_all_outside_pipe_barrier_is_invalid() {
    at(
        "[aiv0]\npto.set_flag PIPE_ALL, PIPE_V, EVENT_ID0\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
}

// event ids EVENT_ID0–EVENT_ID7.
#[test]
fn event_id_out_of_range() {
    at(
        "[aiv0]\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID8\n",
        A5,
        OutOfRange,
        Some(Aiv0),
        2,
    );
    at(
        "[aiv0]\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_IDX\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
}

// get-buf.md "Buffer IDs MUST be in the range [0, B)", B = 32.
#[test]
fn buffer_id_out_of_range() {
    at(
        "[aiv0]\npto.get_buf 32, PIPE_V\n",
        A5,
        OutOfRange,
        Some(Aiv0),
        2,
    );
    ok(
        "[aiv0]\npto.get_buf 31, PIPE_V\npto.rls_buf 31, PIPE_V\n",
        A5,
    );
}

// set-intra-block.md "IDs outside 0–31 are illegal"; a subblock signals with its own id 0–15.
#[test]
fn intra_block_id_out_of_range() {
    at(
        "[aic]\npto.set_intra_block PIPE_FIX, 32\n",
        A5,
        OutOfRange,
        Some(Aic),
        2,
    );
    at(
        "[aiv1]\npto.set_intra_block PIPE_V, 16\n",
        A5,
        OutOfRange,
        Some(Aiv1),
        2,
    );
    at(
        "[aic]\npto.wait_intra_core PIPE_MTE2, 40\n",
        A5,
        OutOfRange,
        Some(Aic),
        2,
    );
}

// set-cross-core.md / wait-flag-dev.md "Illegal if %event_id is outside the valid range (0–15)".
#[test]
fn cross_core_id_out_of_range() {
    at(
        "[aic]\npto.set_cross_core PIPE_FIX, 16\n",
        A2A3,
        OutOfRange,
        Some(Aic),
        2,
    );
    at(
        "[aiv0]\npto.wait_flag_dev 16\n",
        A2A3,
        OutOfRange,
        Some(Aiv0),
        2,
    );
}

// set-cross-core.md "core_id = 0 targets AIV0 … 1 targets AIV1. Other values are illegal."
#[test]
fn cross_core_core_id_out_of_range() {
    at(
        "[aic]\npto.set_cross_core %c2_i64, %c0_i64 : i64, i64\n",
        A2A3,
        OutOfRange,
        Some(Aic),
        2,
    );
    at(
        "[aiv0]\npto.wait_flag_dev %c5_i64, %c0_i64 : i64, i64\n",
        A2A3,
        OutOfRange,
        Some(Aiv0),
        2,
    );
    // The docs' own form runs: the cube broadcasts, both subblocks wait and reply, the cube reduces.
    let src = "[aic]\npto.set_cross_core %c0_i64, %c0_i64 : i64, i64\npto.wait_flag_dev %c1_i64 : i64\n\
               [aiv0]\npto.wait_flag_dev %c0_i64 : i64\npto.set_cross_core %c0_i64, %c1_i64 : i64, i64\n\
               [aiv1]\npto.wait_flag_dev %c0_i64 : i64\npto.set_cross_core %c1_i64, %c1_i64 : i64, i64\n";
    ok(src, A2A3);
}

// wait-intra-core.md "IDs 0–15 target AIV0; IDs 16–31 target AIV1".
#[test]
fn subblock_waiting_on_the_other_subblocks_id_is_invalid() {
    at(
        "[aiv1]\npto.wait_intra_core PIPE_V, 0\n",
        A5,
        Invalid,
        Some(Aiv1),
        2,
    );
    at(
        "[aiv0]\npto.wait_intra_core PIPE_V, 16\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
}

// Target-Profile Restrictions tables: set_intra_block / wait_intra_core are A5 only;
// set_cross_core / wait_flag_dev are A2/A3 only; the CPU simulator has none of them.
#[test]
fn set_intra_block_unsupported_on_a2a3() {
    at(
        "[aic]\npto.set_intra_block PIPE_FIX, 0\n",
        A2A3,
        UnsupportedOnProfile,
        Some(Aic),
        2,
    );
}

#[test]
fn wait_intra_core_unsupported_on_cpu() {
    at(
        "[aiv0]\npto.wait_intra_core PIPE_V, 0\n",
        Cpu,
        UnsupportedOnProfile,
        Some(Aiv0),
        2,
    );
}

#[test]
fn set_cross_core_unsupported_on_a5() {
    at(
        "[aic]\npto.set_cross_core PIPE_FIX, 0\n",
        A5,
        UnsupportedOnProfile,
        Some(Aic),
        2,
    );
}

#[test]
fn wait_flag_dev_unsupported_on_cpu() {
    let e = at(
        "[aiv0]\nop PIPE_V 2 a\npto.wait_flag_dev 0\n",
        Cpu,
        UnsupportedOnProfile,
        Some(Aiv0),
        3,
    );
    assert!(e.message.contains("CPU"), "{}", e.message);
}

// set-cross-core.md "4-bit counter (0–15)", "Illegal if the hardware counter would overflow";
// bhemu gives set_flag events the same width.
#[test]
fn event_counter_overflow_past_15() {
    let set = "pto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n";
    let wait = "pto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n";
    ok(
        &format!("[aiv0]\n{}{}", set.repeat(15), wait.repeat(15)),
        A5,
    );
    let r = run(
        &format!("[aiv0]\n{}{}", set.repeat(16), wait.repeat(16)),
        A5,
    );
    let e = r.error.expect("overflow");
    assert_eq!((e.kind, e.core, e.line), (Overflow, Some(Aiv0), 17));
}

#[test]
fn cross_core_semaphore_overflow_past_15() {
    let e = at(
        &format!("[aic]\n{}", "pto.set_intra_block PIPE_FIX, 0\n".repeat(16)),
        A5,
        Overflow,
        Some(Aic),
        17,
    );
    assert!(e.message.contains("15"));
    // A2/A3 broadcast: one set raises both subblocks' counters.
    at(
        &format!("[aic]\n{}", "pto.set_cross_core PIPE_FIX, 4\n".repeat(16)),
        A2A3,
        Overflow,
        Some(Aic),
        17,
    );
}

// get-buf.md "Acquiring the same buffer ID twice on the same pipeline without an intervening
// rls_buf is illegal".
#[test]
fn double_get_buf_is_error() {
    let e = at(
        "[aiv0]\npto.get_buf 3, PIPE_V\nop PIPE_V 2 a\npto.get_buf 3, PIPE_V\n",
        A5,
        Invalid,
        Some(Aiv0),
        4,
    );
    assert!(e.message.contains("double get_buf"));
    // Another pipe may queue for the same id.
    ok("[aiv0]\npto.get_buf 3, PIPE_V\npto.get_buf 3, PIPE_MTE3\npto.rls_buf 3, PIPE_V\npto.rls_buf 3, PIPE_MTE3\n", A5);
}

// rls-buf.md "Releasing a buffer that was never acquired is illegal"; "Illegal if %buf_id was not
// previously acquired by the calling pipeline".
#[test]
fn rls_buf_without_get_buf_is_error() {
    at(
        "[aiv0]\npto.rls_buf 3, PIPE_V\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
    at(
        "[aiv0]\npto.get_buf 3, PIPE_MTE2\npto.rls_buf 3, PIPE_V\n",
        A5,
        Invalid,
        Some(Aiv0),
        3,
    );
    at(
        "[aiv0]\npto.get_buf 3, PIPE_V\npto.rls_buf 3, PIPE_V\npto.rls_buf 3, PIPE_V\n",
        A5,
        Invalid,
        Some(Aiv0),
        4,
    );
}

// wait-flag.md "Waiting on an event that is never signaled is an illegal PTO program": the
// deadlock error lists every stuck pipe and what it waits on.
#[test]
fn wait_never_signalled_is_deadlock_listing_every_stuck_pipe() {
    let src =
        "[aiv0]\nop PIPE_MTE2 5 a\npto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\nop PIPE_V 3 b\n\
               pto.wait_flag PIPE_V, PIPE_MTE3, EVENT_ID1\n[aic]\npto.wait_flag_dev 0\n";
    let r = run(src, A2A3);
    let e = r.error.clone().expect("deadlock");
    assert_eq!(e.kind, Deadlock);
    let pipes: Vec<&str> = e.stuck.iter().map(|s| s.pipe.as_str()).collect();
    assert_eq!(pipes, ["aic.PIPE_S", "aiv0.PIPE_V", "aiv0.PIPE_MTE3"]);
    assert!(
        e.stuck[1].waiting_on.contains("line 3") && e.stuck[1].waiting_on.contains("queued behind")
    );
    assert!(e.stuck[0].waiting_on.contains("scalar unit"));
    assert_eq!((e.core, e.line), (Some(Aic), 7));
    assert_eq!(
        span(&r, Aiv0, "a").end,
        5,
        "the timeline up to the deadlock is kept"
    );
}

// get-buf.md Exceptions: "Illegal if the buffer ID was never released … (the acquire will block
// indefinitely, which is treated as a protocol error)".
#[test]
fn get_buf_of_a_buffer_never_released_is_deadlock() {
    let e = err(
        "[aiv0]\npto.get_buf 1, PIPE_MTE2\npto.get_buf 1, PIPE_V\n",
        A5,
        Deadlock,
    );
    assert_eq!(e.stuck[0].pipe, "aiv0.PIPE_V");
    assert!(
        e.stuck[0].waiting_on.contains("held by PIPE_MTE2"),
        "{}",
        e.stuck[0].waiting_on
    );
}

// set-flag.md / wait-flag.md "Portable code MUST pair event signaling with the corresponding
// wait" (Exceptions: "Any additional illegality stated in the constraints section is also part of
// the contract"); vector/pipeline-sync.md 3a "Every set_flag must be paired with a wait_flag".
#[test]
fn event_still_set_at_end_is_unbalanced() {
    let r = run(
        "[aiv0]\nop PIPE_V 4 a\npto.set_flag PIPE_V, PIPE_MTE3, EVENT_ID2\n",
        A5,
    );
    let e = r.error.clone().expect("unbalanced");
    assert_eq!((e.kind, e.core, e.line), (Unbalanced, Some(Aiv0), 3));
    assert_eq!(r.unbalanced.len(), 1);
    assert!(r.unbalanced[0].message.contains("EVENT_ID2"));
    assert_eq!(r.cycles, 4, "the run itself completed");
}

// rls-buf.md "Each get_buf MUST be matched by exactly one rls_buf … missing releases are
// illegal".
#[test]
fn buffer_still_held_at_end_is_unbalanced() {
    let r = run("[aiv1]\npto.get_buf 5, PIPE_MTE3\n", A5);
    assert_eq!(
        r.error.as_ref().map(|e| (e.kind, e.line)),
        Some((Unbalanced, 2))
    );
    assert!(r.unbalanced[0].message.contains("buffer 5"));
}

#[test]
fn semaphore_still_counting_at_end_is_unbalanced() {
    let r = run("[aic]\npto.set_intra_block PIPE_FIX, 17\n", A5);
    let e = r.error.clone().expect("unbalanced");
    assert_eq!((e.kind, e.core, e.line), (Unbalanced, Some(Aic), 2));
    assert!(
        r.unbalanced[0].message.contains("aiv1"),
        "{}",
        r.unbalanced[0].message
    );
}

#[test]
fn zero_or_huge_cycle_count_is_out_of_range() {
    at("[aiv0]\nop PIPE_V 0 a\n", A5, OutOfRange, Some(Aiv0), 2);
    at(
        "[aiv0]\nop PIPE_V 99999999999999999999999 a\n",
        A5,
        OutOfRange,
        Some(Aiv0),
        2,
    );
}

#[test]
fn malformed_lines_are_invalid() {
    at("op PIPE_V 3 a\n", A5, Invalid, None, 1);
    at("[aiv2]\n", A5, Invalid, None, 1);
    at(
        "[aiv0]\npto.frobnicate PIPE_V\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
    at(
        "[aiv0]\npto.set_flag PIPE_V, PIPE_MTE3\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
    at(
        "[aiv0]\npto.get_buf -1, PIPE_V\n",
        A5,
        Invalid,
        Some(Aiv0),
        2,
    );
    at("[aiv0]\n@a6 op PIPE_V 3 a\n", A5, Invalid, Some(Aiv0), 2);
    at("[aic]\npto.mem_bar VV_ALL\n", A5, Invalid, Some(Aic), 2);
}

// The first error in file order is the one reported.
#[test]
fn first_error_in_file_order_wins() {
    at("[aiv1]\nop PIPE_V 3 a\npto.set_flag PIPE_V, PIPE_V, EVENT_ID0\n[aiv0]\npto.get_buf 40, PIPE_V\n", A5, Invalid, Some(Aiv1), 3);
}

// The docs' own spellings parse: brackets and quotes, SSA numbers, type lists, either get_buf
// operand order, the C++ name wait_intra_block.
#[test]
fn docs_spellings_parse() {
    let src = "[aiv0]\npto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\npto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n\
               pto.get_buf \"PIPE_V\", %c3_i64, %c0_i64 : i64, i64\npto.rls_buf %c3_i64, \"PIPE_V\", %c0_i64 : i64, i64\n\
               pto.pipe_barrier \"PIPE_MTE3\"\n[aic]\npto.set_intra_block \"PIPE_MTE2\", %c0_i64 : i64, i64\n\
               [aiv0]\nwait_intra_block PIPE_V, 0\n";
    ok(src, A5);
}

// No input makes the engine panic.
#[test]
fn malformed_input_never_panics() {
    let inputs = [
        "",
        "[",
        "]",
        "[]",
        "[aic",
        "@",
        "@a5",
        "@ op",
        "[aic]\nop",
        "[aic]\nop PIPE_M",
        "[aic]\nop PIPE_M x",
        "[aic]\npto.",
        "[aic]\npto.set_flag",
        "[aic]\npto.set_flag[",
        "[aic]\npto.wait_flag_dev",
        "[aic]\npto.wait_flag_dev a b c",
        "[aiv0]\npto.get_buf PIPE_V PIPE_V",
        "[aiv0]\npto.get_buf 1 2",
        "[aiv0]\npto.rls_buf 99999999999999999999999, PIPE_V",
        "[aiv0]\n:::",
        "[aiv0]\n\u{0}\u{1f600}",
        "[aiv0]\nop PIPE_V 18446744073709551615 a",
        "[aiv0]\n%c_i64",
        "[aiv0]\npto.set_flag PIPE_S, PIPE_V, EVENT_ID",
        "[aic]\npto.wait_intra_core PIPE_MTE2, %c",
    ];
    for src in inputs {
        for p in [A2A3, A5, Cpu] {
            let _ = run(src, p).render_text();
        }
    }
}
