//! The parent's rules: how a child's end is classified, and what a mismatch report says.
use std::ffi::OsString;
use std::path::Path;

use super::compare::{compare, summary, tile_position, Counts, Operand, Output, Relation};
use super::job::Answer;
use super::*;
use crate::cmd_run::Format;

/// A stand-in for a reference child: `sh -c SCRIPT`.
fn fake_child(script: &str) -> Side {
    let args: Vec<OsString> = vec!["-c".into(), script.into()];
    run_child(Path::new("/bin/sh"), &args, "{}", &[]).unwrap()
}

#[test]
fn a_reference_child_exiting_1_with_a_functionality_line_is_a_refusal_not_a_bhemu_failure() {
    let r = fake_child(
        "echo '[0] starting'; echo '[1234] ERROR: UnsupportedFunctionality: tensix: SFPLOADMACRO mode 3'; echo trailing >&2; exit 1",
    );
    assert_eq!(
        r,
        Side::Failed {
            status: "exit status 1".into(),
            message: "[1234] ERROR: UnsupportedFunctionality: tensix: SFPLOADMACRO mode 3".into()
        }
    );
    let runs = classify(Side::Answered(Answer::default()), r);
    assert_eq!(
        runs,
        Runs::ReferenceRefuses {
            message: "[1234] ERROR: UnsupportedFunctionality: tensix: SFPLOADMACRO mode 3".into(),
            bhemu: Ok(Answer::default()),
        }
    );
}

#[test]
fn a_refusal_without_a_category_line_reports_the_last_stderr_line() {
    let r = fake_child("echo out; echo first >&2; echo 'the last word' >&2; exit 3");
    let Side::Failed { status, message } = r else {
        panic!("expected a failure, got {r:?}");
    };
    assert_eq!(
        (status.as_str(), message.as_str()),
        ("exit status 3", "the last word")
    );
    assert_eq!(failure_line("only stdout\n", ""), "only stdout");
    assert_eq!(
        failure_line("x\n", "y: UndefinedBehavior: z\nlast\n"),
        "y: UndefinedBehavior: z"
    );
}

#[test]
fn a_bhemu_child_failing_while_the_reference_answers_is_a_bhemu_failure() {
    let b = fake_child("echo 'bhemu: sim-worker: op 3 (wait): 1 tiles not DONE' >&2; exit 2");
    let runs = classify(b, Side::Answered(Answer::default()));
    assert_eq!(
        runs,
        Runs::BhemuFailed(
            "bhemu: sim-worker: op 3 (wait): 1 tiles not DONE (exit status 2)".into()
        )
    );
}

#[test]
fn a_child_exiting_0_without_an_answer_line_is_a_failure() {
    let r = fake_child("echo hello; exit 0");
    assert!(
        matches!(&r, Side::Failed { message, .. } if message == "exited 0 without an answer line"),
        "{r:?}"
    );
    let ok = fake_child(&format!(
        "echo noise; echo '{}{{\"reads\":[],\"boot_clocks\":1,\"run_clocks\":2,\"clocks\":3}}'",
        worker::ANSWER_MARK
    ));
    assert_eq!(
        ok,
        Side::Answered(Answer {
            reads: vec![],
            boot_clocks: 1,
            run_clocks: 2,
            clocks: 3,
            ..Answer::default()
        })
    );
}

#[test]
fn tile_positions_follow_four_row_major_16x16_faces() {
    assert_eq!(tile_position(0), (0, 0));
    assert_eq!(tile_position(15), (0, 15));
    assert_eq!(tile_position(16), (1, 0));
    assert_eq!(tile_position(256), (0, 16));
    assert_eq!(tile_position(512), (16, 0));
    assert_eq!(tile_position(1023), (31, 31));
}

fn bf16s(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|h| h.to_le_bytes()).collect()
}

#[test]
fn a_bf16_mismatch_names_the_tile_row_column_both_values_and_the_inputs() {
    // Element 17 = row 1, col 1 of the first 32x32 tile.
    let mut b = vec![0x3F80u16; 1024];
    let mut r = b.clone();
    b[17] = 0x405A;
    r[17] = 0x405B;
    let (a_in, b_in) = (vec![0x3FDAu16; 1024], vec![0x3FDBu16; 1024]);
    let (bb, rb, ab, bbi) = (bf16s(&b), bf16s(&r), bf16s(&a_in), bf16s(&b_in));
    let o = Output {
        name: "out",
        tile: 3,
        xy: (5, 2),
        format: Format::Bf16,
        bhemu: &bb,
        reference: &rb,
        inputs: vec![
            Operand {
                name: "a",
                format: Format::Bf16,
                bytes: &ab,
            },
            Operand {
                name: "b",
                format: Format::Bf16,
                bytes: &bbi,
            },
        ],
        relation: Relation::Elementwise,
    };
    let mut lines = Vec::new();
    let c = compare(&o, 8, &mut lines);
    assert_eq!(
        lines,
        ["out of tile 3 at (5,2): element 17 (32x32 tile 0, row 1, col 1): bhemu 0x405a (3.40625) != reference 0x405b (3.421875); a = 0x3fda (1.703125), b = 0x3fdb (1.7109375)"]
    );
    assert_eq!(
        c,
        Counts {
            elements: 1024,
            equal: 1023,
            different: 1,
            bytes: 2048,
            bytes_different: 1
        }
    );
    assert_eq!(
        summary(&c),
        "compared 1024 elements (2048 bytes): 1023 equal, 1 different (1 bytes differ)"
    );
}

#[test]
fn an_fp32_matmul_mismatch_names_the_row_of_a_and_the_column_of_b() {
    // A 2x1 block of output tiles (mkn [2, 1, 1]): element 1024 + 300 is tile 1 of the
    // block, face 1 (row 2, col 28) → row 34 of A, column 28 of B.
    let n = 2048;
    let b: Vec<u8> = (0..n).flat_map(|_| 1.0f32.to_le_bytes()).collect();
    let mut r = b.clone();
    r[4 * 1324..4 * 1325].copy_from_slice(&(-2.5f32).to_le_bytes());
    let o = Output {
        name: "c",
        tile: 0,
        xy: (1, 2),
        format: Format::Fp32,
        bhemu: &b,
        reference: &r,
        inputs: vec![
            Operand {
                name: "a",
                format: Format::Bf16,
                bytes: &[],
            },
            Operand {
                name: "b",
                format: Format::Bf16,
                bytes: &[],
            },
        ],
        relation: Relation::Matmul { mkn: [2, 1, 1] },
    };
    let mut lines = Vec::new();
    let c = compare(&o, 8, &mut lines);
    assert_eq!(
        lines,
        ["c of tile 0 at (1,2): element 1324 (32x32 tile 1, row 2, col 28): bhemu 0x3f800000 (1) != reference 0xc0200000 (-2.5); row 34 of a and column 28 of b (block 0)"]
    );
    assert_eq!((c.different, c.bytes_different), (1, 2));
}

#[test]
fn a_length_difference_is_reported_and_counts_as_different() {
    let o = Output {
        name: "out",
        tile: 0,
        xy: (1, 2),
        format: Format::U32,
        bhemu: &[1, 0, 0, 0, 2, 0, 0, 0],
        reference: &[1, 0, 0, 0],
        inputs: vec![],
        relation: Relation::Unknown,
    };
    let mut lines = Vec::new();
    let c = compare(&o, 8, &mut lines);
    assert_eq!(
        lines[0],
        "out of tile 0 at (1,2): lengths differ, bhemu 8 bytes, reference 4"
    );
    assert_eq!(
        lines[1],
        "out of tile 0 at (1,2): element 1 (32x32 tile 0, row 0, col 1): bhemu 0x00000002 (2) != reference (missing); inputs unknown"
    );
    assert_eq!(
        (c.elements, c.equal, c.different, c.bytes_different),
        (2, 1, 1, 4)
    );
}

/// `bhemu run --reference --threads N` hands N to bhemu's child as `BHEMU_THREADS`.
#[test]
fn a_child_gets_the_environment_it_is_given() {
    let args: Vec<OsString> = vec![
        "-c".into(),
        "echo \"threads $BHEMU_THREADS\" >&2; exit 2".into(),
    ];
    let r = run_child(Path::new("/bin/sh"), &args, "{}", &[("BHEMU_THREADS", "3")]).unwrap();
    assert_eq!(
        r,
        Side::Failed {
            status: "exit status 2".into(),
            message: "threads 3".into()
        }
    );
}
