//! Assembler and encoder errors: typed, one line, never a panic.
use bhemu_isa::tensix::{assemble, encode, lookup_name, Arch, AsmError, EncodeError};

fn err(line: &str) -> AsmError {
    assemble(Arch::Blackhole, line).expect_err(line)
}

#[test]
fn empty_and_comment_lines_are_errors() {
    assert_eq!(err(""), AsmError::Empty);
    assert_eq!(err("   "), AsmError::Empty);
    assert_eq!(err("# just a comment"), AsmError::Empty);
}

#[test]
fn unknown_mnemonic() {
    assert!(matches!(
        err("ttfrobnicate 1"),
        AsmError::UnknownMnemonic { .. }
    ));
    // Blackhole-only instruction on Wormhole.
    assert!(matches!(
        assemble(Arch::WormholeB0, "ttstreamwait 0, 0, 0, 0"),
        Err(AsmError::UnknownMnemonic { .. })
    ));
}

#[test]
fn bare_name_needs_tt_prefix() {
    assert!(matches!(
        err("stallwait 128, 1"),
        AsmError::MissingPrefix { .. }
    ));
    // binutils' SFPU syntax is not ours.
    assert!(matches!(
        err("sfpload L0,0,0,0"),
        AsmError::MissingPrefix { .. }
    ));
}

#[test]
fn operand_count() {
    assert_eq!(
        err("ttstallwait 128"),
        AsmError::OperandCount {
            mnemonic: "ttstallwait".into(),
            expected: 2,
            found: 1
        }
    );
    assert!(matches!(
        err("ttnop 0"),
        AsmError::OperandCount {
            expected: 0,
            found: 1,
            ..
        }
    ));
    assert!(matches!(
        err("ttstallwait 1, 2, 3"),
        AsmError::OperandCount { found: 3, .. }
    ));
    assert!(matches!(
        err("ttstallwait 1,"),
        AsmError::BadOperand { index: 1, .. }
    ));
}

#[test]
fn bad_operands() {
    for line in [
        "ttstallwait x, 1",
        "ttstallwait -1, 1",
        "ttstallwait 0x, 1",
        "ttstallwait 12a, 1",
        "ttstallwait 1 2, 1",
        "ttstallwait L0, 1",
        "ttstallwait 99999999999999999999999, 1",
    ] {
        assert!(matches!(err(line), AsmError::BadOperand { .. }), "{line}");
    }
}

#[test]
fn value_wider_than_field() {
    // stall_res is 9 bits.
    assert_eq!(
        err("ttstallwait 512, 1"),
        AsmError::TooWide {
            mnemonic: "ttstallwait".into(),
            index: 0,
            field: "stall_res",
            value: 512,
            width: 9,
            max: 511
        }
    );
    assert!(matches!(
        err("ttsemwait 1, 2, 4"),
        AsmError::TooWide { index: 2, .. }
    ));
    assert!(matches!(
        err("ttmop 0x1_0000_0000, 0, 0"),
        AsmError::TooWide { .. }
    ));
}

#[test]
fn bad_word() {
    assert!(matches!(err(".word"), AsmError::BadWord { .. }));
    assert!(matches!(err(".word 0x100000000"), AsmError::BadWord { .. }));
    assert!(matches!(err(".word zz"), AsmError::BadWord { .. }));
    assert_eq!(
        assemble(Arch::Blackhole, ".word 0xa2400001"),
        Ok(0xa240_0001)
    );
    assert_eq!(
        assemble(Arch::Blackhole, ".WORD 2722103297"),
        Ok(0xa240_0001)
    );
}

#[test]
fn messages_are_one_line() {
    for line in [
        "",
        "ttfoo",
        "stallwait 1, 1",
        "ttstallwait 1",
        "ttstallwait x, 1",
        "ttstallwait 999, 1",
        ".word q",
    ] {
        let msg = err(line).to_string();
        assert!(!msg.is_empty() && !msg.contains('\n'), "{msg}");
    }
}

#[test]
fn encode_errors() {
    let sw = lookup_name(Arch::Blackhole, "STALLWAIT").unwrap();
    assert_eq!(encode(sw, &[128, 1]), Ok(0xa240_0001));
    assert_eq!(
        encode(sw, &[128]),
        Err(EncodeError::OperandCount {
            insn: "STALLWAIT",
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        encode(sw, &[0, 1 << 15]),
        Err(EncodeError::TooWide {
            insn: "STALLWAIT",
            field: "wait_res",
            value: 1 << 15,
            width: 15
        })
    );
}

/// Fuzz-ish: arbitrary junk lines never panic.
#[test]
fn junk_never_panics() {
    let pieces = [
        "tt",
        "ttstallwait",
        ",",
        " ",
        "0x",
        "1",
        "é",
        ".word",
        "#",
        ";",
        "ttmop_cfg",
        "\t",
        "-",
        "_",
    ];
    let mut s: u64 = 1;
    for _ in 0..20_000 {
        let mut line = String::new();
        for _ in 0..(s % 7) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            line.push_str(pieces[(s % pieces.len() as u64) as usize]);
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let _ = assemble(Arch::Blackhole, &line);
        let _ = assemble(Arch::WormholeB0, &line);
    }
}
