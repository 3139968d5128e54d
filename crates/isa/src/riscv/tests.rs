//! Encoding facts checked against words assembled by GNU as 2.40
//! (`-march=rv32ima_zicsr_zifencei_zba_zbb_zbkb`), and decoder robustness.
use super::*;

#[test]
fn known_words_decode_to_their_instructions() {
    // Words from `riscv64-unknown-elf-as` output (see the riscv_objdump test for the rest).
    let cases: &[(u32, Insn)] = &[
        (
            0x0050_0513,
            Insn::OpImm {
                op: ImmOp::Addi,
                rd: 10,
                rs1: 0,
                imm: 5,
            },
        ),
        (
            0xfff5_c513,
            Insn::OpImm {
                op: ImmOp::Xori,
                rd: 10,
                rs1: 11,
                imm: -1,
            },
        ),
        (
            0xffff_f537,
            Insn::Lui {
                rd: 10,
                imm: 0xffff_f000,
            },
        ),
        (
            0x00b6_252f,
            Insn::Amo {
                op: AmoOp::Add,
                rd: 10,
                rs1: 12,
                rs2: 11,
                aq: false,
                rl: false,
            },
        ),
        (
            0xe6b6_202f,
            Insn::Amo {
                op: AmoOp::Maxu,
                rd: 0,
                rs1: 12,
                rs2: 11,
                aq: true,
                rl: true,
            },
        ),
        (
            0x20c5_a533,
            Insn::Op {
                op: RegOp::Sh1add,
                rd: 10,
                rs1: 11,
                rs2: 12,
            },
        ),
        (
            0x0805_c533,
            Insn::Op {
                op: RegOp::Pack,
                rd: 10,
                rs1: 11,
                rs2: 0,
            },
        ),
        (
            0x6985_d513,
            Insn::OpImm {
                op: ImmOp::Grevi,
                rd: 10,
                rs1: 11,
                imm: 24,
            },
        ),
        (
            0x6875_d513,
            Insn::OpImm {
                op: ImmOp::Grevi,
                rd: 10,
                rs1: 11,
                imm: 7,
            },
        ),
        (
            0x2875_d513,
            Insn::Unary {
                op: UnaryOp::OrcB,
                rd: 10,
                rs1: 11,
            },
        ),
        (
            0x6075_d513,
            Insn::OpImm {
                op: ImmOp::Rori,
                rd: 10,
                rs1: 11,
                imm: 7,
            },
        ),
        (
            0x6005_9513,
            Insn::Unary {
                op: UnaryOp::Clz,
                rd: 10,
                rs1: 11,
            },
        ),
        (
            0x3401_d573,
            Insn::Csr {
                op: CsrOp::Rwi,
                rd: 10,
                csr: 0x340,
                src: 3,
            },
        ),
        (
            0x8330_000f,
            Insn::Fence {
                fm: 8,
                pred: 3,
                succ: 3,
            },
        ),
        (0x0000_100f, Insn::FenceI),
        (0x3020_0073, Insn::Mret),
        (
            0xfe05_1ee3,
            Insn::Branch {
                op: BranchOp::Bne,
                rs1: 10,
                rs2: 0,
                offset: -4,
            },
        ),
        (0xfddf_f0ef, Insn::Jal { rd: 1, offset: -36 }),
        (
            0x0045_05e7,
            Insn::Jalr {
                rd: 11,
                rs1: 10,
                offset: 4,
            },
        ),
        (
            0xfea5_9fa3,
            Insn::Store {
                op: StoreOp::Sh,
                rs1: 11,
                rs2: 10,
                offset: -1,
            },
        ),
    ];
    for &(w, insn) in cases {
        assert_eq!(decode(w), insn, "decode {w:08x}");
        assert_eq!(encode(&insn), w, "encode {insn:?}");
    }
}

#[test]
fn lr_and_sc_are_illegal_on_the_babies() {
    // InstructionSet.md "Zaamo": no lr.w / sc.w.
    assert_eq!(decode(0x1005_a52f), Insn::Illegal(0x1005_a52f)); // lr.w a0,(a1)
    assert_eq!(decode(0x18c5_a52f), Insn::Illegal(0x18c5_a52f)); // sc.w a0,a2,(a1)
}

#[test]
fn unimplemented_extensions_are_illegal() {
    for w in [
        0x1050_0073u32, // wfi
        0x4805_9513,    // bclri (Zbs)
        0x08c5_f533,    // packh (Zbkb, not implemented)
        0x2805_9513,    // gorci other than orc.b
        0x0000_0053,    // fadd.s (F is not modelled)
        0x6035_9513,    // clz family, rs2 = 3 (unassigned)
    ] {
        assert_eq!(decode(w), Insn::Illegal(w), "{w:08x}");
    }
}

#[test]
fn ttinsn_is_the_word_rotated_right_by_two() {
    // PushTensixInstruction.md: encoding is IMM32 rotated left by two bits.
    let tensix = 0x1234_5678u32;
    let w = tensix.rotate_left(2);
    assert_ne!(w & 3, 3);
    assert_eq!(decode(w), Insn::Tensix(tensix));
    assert_eq!(encode(&Insn::Tensix(tensix)), w);
    assert_eq!(decode(0), Insn::Tensix(0));
}

#[test]
fn every_grevi_amount_is_valid_and_round_trips() {
    for sh in 0..32 {
        let i = Insn::OpImm {
            op: ImmOp::Grevi,
            rd: 5,
            rs1: 6,
            imm: sh,
        };
        assert_eq!(decode(encode(&i)), i);
    }
}

#[test]
fn decode_is_total_and_encode_inverts_it() {
    // Fence ignores rd/rs1 (reserved), so only words with those fields zero round-trip.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let w = x as u32;
        let insn = decode(w);
        let _ = disassemble(w, 0x1000);
        let is_fence = matches!(insn, Insn::Fence { .. } | Insn::FenceI);
        if !is_fence {
            assert_eq!(encode(&insn), w, "{w:08x} {insn:?}");
        }
    }
}

#[test]
fn disassembly_of_ttinsn_and_grevi_documents_the_differences() {
    assert_eq!(
        disassemble(0x1234_5678u32.rotate_left(2), 0).to_string(),
        "ttinsn\t0x12345678"
    );
    let g = encode(&Insn::OpImm {
        op: ImmOp::Grevi,
        rd: 10,
        rs1: 11,
        imm: 31,
    });
    assert_eq!(disassemble(g, 0).to_string(), "grevi\ta0,a1,0x1f");
}

#[test]
fn branch_targets_are_absolute() {
    let d = disassemble(0xfe05_1ee3, 0x48);
    assert_eq!(
        (d.mnemonic.as_str(), d.operands.as_str(), d.target),
        ("bnez", "a0,44", Some(0x44))
    );
}
