//! The seeds' annotated examples, word by word.
use bhemu_isa::tensix::{assemble, decode, disassemble, from_ttinsn, to_ttinsn, Arch};

/// docs/wait-gate.md "Annotated Disassembly Examples" (matmul T0/T1/T2) and the patterns' decoded
/// lines: each word disassembles exactly as printed and assembles back.
const SEED_000: &[(u32, &str)] = &[
    // T0 (unpack): matmul_trisc0.S
    (0xa240_0001, "ttstallwait 128, 1"),
    (0xb00c_007c, "ttwrcfg 12, 0, 124"),
    (0xa204_0400, "ttstallwait 8, 1024"),
    (0xa210_0006, "ttstallwait 32, 6"),
    // T1 (math): matmul_trisc1.S
    (0xa240_0010, "ttstallwait 128, 16"),
    (0xa201_0810, "ttstallwait 2, 2064"),
    (0xa400_0008, "ttsempost 2"),
    (0xa240_0810, "ttstallwait 128, 2064"),
    (0xa6a1_000a, "ttsemwait 322, 2, 2"),
    // T2 (pack): matmul_trisc2.S
    (0xa240_0001, "ttstallwait 128, 1"),
    (0xb01c_000c, "ttwrcfg 28, 0, 12"),
    (0xa210_8008, "ttstallwait 33, 8"),
    (0xa240_0009, "ttstallwait 128, 9"),
    (0xa600_8009, "ttsemwait 1, 2, 1"),
    (0xa220_0008, "ttstallwait 64, 8"),
    (0xa210_0008, "ttstallwait 32, 8"),
    // Pattern 2 and pattern 3's TTI_SEMWAIT(0x2, 0x4, 0x1).
    (0xa220_0080, "ttstallwait 64, 128"),
    (0xa601_0011, "ttsemwait 2, 4, 1"),
];

#[test]
fn seed_000_matmul_words_disassemble_as_printed() {
    for arch in Arch::ALL {
        for &(word, text) in SEED_000 {
            assert_eq!(disassemble(arch, word), text, "{arch:?} {word:#010x}");
            assert_eq!(assemble(arch, text), Ok(word), "{arch:?} {text}");
        }
    }
}

/// docs/wait-gate.md pattern 4: `ttsemwait 322, 2, 2` is stall_res 0x142 (B1|B6|B8), sem_sel 0x2,
/// cond STALL_ON_MAX.
#[test]
fn seed_000_semwait_fields_by_name() {
    let d = decode(Arch::Blackhole, 0xa6a1_000a);
    assert_eq!(d.field("stall_res"), Some(0x142));
    assert_eq!(d.field("sem_sel"), Some(0x2));
    assert_eq!(d.field("wait_sem_cond"), Some(2));
    assert_eq!(
        d.fields(),
        vec![("stall_res", 0x142), ("sem_sel", 2), ("wait_sem_cond", 2)]
    );
}

/// docs/wait-gate.md pattern 6 writes the wait mask in hex: `ttstallwait 128, 0x810`.
#[test]
fn seed_000_hex_operands_assemble() {
    assert_eq!(
        assemble(Arch::Blackhole, "ttstallwait 128, 0x810"),
        Ok(0xa240_0810)
    );
    assert_eq!(
        disassemble(Arch::Blackhole, 0xa240_0810),
        "ttstallwait 128, 2064"
    );
}

/// docs/wait-gate.md annotated listing puts a `;` comment after the instruction.
#[test]
fn seed_000_annotated_lines_assemble() {
    assert_eq!(
        assemble(
            Arch::Blackhole,
            "ttsemwait    322, 2, 2       ; stall=B1|B6|B8, sem[1]=MATH_PACK"
        ),
        Ok(0xa6a1_000a)
    );
}

/// docs/mop-replay.md "Binary encoding examples": `.ttinsn` words; `rotr(x, 2)` is the Tensix word.
const SEED_002: &[(u32, u32, &str)] = &[
    (0x0600_0000, 0x0180_0000, "ttmop 1, 0, 0"),
    (0x1010_0404, 0x0404_0101, "ttreplay 16, 16, 0, 1"),
    (0x1000_014c, 0x0400_0053, "ttreplay 0, 5, 1, 1"),
    (0x1000_0140, 0x0400_0050, "ttreplay 0, 5, 0, 0"),
];

#[test]
fn seed_002_ttinsn_encoding_table_round_trips() {
    for arch in Arch::ALL {
        for &(ttinsn, word, text) in SEED_002 {
            assert_eq!(from_ttinsn(ttinsn), word);
            assert_eq!(to_ttinsn(word), ttinsn);
            assert_eq!(disassemble(arch, word), text);
            assert_eq!(assemble(arch, text), Ok(word));
        }
    }
}

/// docs/mop-replay.md "Assembly mnemonics" are written without spaces: `ttmop 1,0,0`, and MOP_CFG as
/// `ttmop_cfg 0xABCD` (binutils spells it `ttmopcfg`).
#[test]
fn seed_002_mnemonics_assemble() {
    for arch in Arch::ALL {
        assert_eq!(assemble(arch, "ttmop      1,0,0"), Ok(0x0180_0000));
        assert_eq!(assemble(arch, "ttreplay   16,16,0,1"), Ok(0x0404_0101));
        assert_eq!(assemble(arch, "ttmop_cfg  0xABCD"), Ok(0x0300_abcd));
        assert_eq!(assemble(arch, "ttmopcfg 0xabcd"), Ok(0x0300_abcd));
        assert_eq!(disassemble(arch, 0x0300_abcd), "ttmop_cfg 43981");
    }
}

/// docs/mop-replay.md: `lltt::replay_insn(16, 16)` is `(0x04 << 24) | (16 << 14) | (16 << 4)`.
#[test]
fn seed_002_replay_fields() {
    let d = decode(Arch::Blackhole, (0x04 << 24) | (16 << 14) | (16 << 4));
    assert_eq!(d.field("start_idx"), Some(16));
    assert_eq!(d.field("len"), Some(16));
    assert_eq!(d.field("execute_while_loading"), Some(0));
    assert_eq!(d.field("load_mode"), Some(0));
}
