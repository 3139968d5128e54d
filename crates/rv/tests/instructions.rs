//! One test (at least) per instruction, named after the rule it checks; the rules come from
//! riscv-isa-manual (RV32I, "M", "A"/Zaamo, "B"/Zba/Zbb, Zbkb) and Bitmanip 0.94-draft (grevi).
mod common;

use bhemu_isa::riscv::*;
use common::*;

const A0: u8 = 10;
const A1: u8 = 11;
const A2: u8 = 12;

// ---- RV32I: register-immediate and upper-immediate ----

#[test]
fn addi_sign_extends_its_immediate_and_wraps() {
    assert_eq!(eval_ri(ImmOp::Addi, 5, -6), u32::MAX);
    assert_eq!(eval_ri(ImmOp::Addi, u32::MAX, 1), 0);
    assert_eq!(eval_ri(ImmOp::Addi, 0, -2048), (-2048i32) as u32);
}

#[test]
fn slti_compares_signed_and_sltiu_unsigned_with_sign_extended_immediate() {
    assert_eq!(eval_ri(ImmOp::Slti, (-5i32) as u32, -4), 1);
    assert_eq!(eval_ri(ImmOp::Slti, 3, -4), 0);
    // sltiu x, -1 compares against 0xffffffff: true for everything but 0xffffffff.
    assert_eq!(eval_ri(ImmOp::Sltiu, 0x7fff_ffff, -1), 1);
    assert_eq!(eval_ri(ImmOp::Sltiu, u32::MAX, -1), 0);
    // seqz: sltiu rd, rs, 1
    assert_eq!(eval_ri(ImmOp::Sltiu, 0, 1), 1);
}

#[test]
fn xori_ori_andi_use_the_sign_extended_immediate() {
    assert_eq!(eval_ri(ImmOp::Xori, 0x1234_5678, -1), !0x1234_5678);
    assert_eq!(eval_ri(ImmOp::Ori, 0x1000_0000, -2048), 0xffff_f800);
    assert_eq!(eval_ri(ImmOp::Andi, 0xffff_ffff, -2048), 0xffff_f800);
    assert_eq!(eval_ri(ImmOp::Andi, 0x1234_5678, 0xff), 0x78);
}

#[test]
fn slli_srli_srai_shift_by_the_immediate() {
    assert_eq!(eval_ri(ImmOp::Slli, 1, 31), 0x8000_0000);
    assert_eq!(eval_ri(ImmOp::Srli, 0x8000_0000, 31), 1);
    assert_eq!(eval_ri(ImmOp::Srai, 0x8000_0000, 31), u32::MAX);
    assert_eq!(eval_ri(ImmOp::Srai, 0x4000_0000, 30), 1);
    assert_eq!(eval_ri(ImmOp::Srli, 0xf0, 0), 0xf0);
}

#[test]
fn lui_places_the_immediate_in_the_upper_20_bits() {
    let (h, _) = run_with(
        &[Insn::Lui {
            rd: A0,
            imm: 0xfffff000,
        }],
        &[],
    );
    assert_eq!(h.reg(10), 0xffff_f000);
}

#[test]
fn auipc_adds_the_upper_immediate_to_its_own_pc() {
    let (h, _) = run_with(
        &[
            li(A1, 0),
            Insn::Auipc {
                rd: A0,
                imm: 0x0001_0000,
            },
            Insn::Auipc {
                rd: A2,
                imm: 0xffff_f000,
            },
        ],
        &[],
    );
    assert_eq!(h.reg(10), RAM_BASE + 4 + 0x1_0000);
    assert_eq!(h.reg(12), (RAM_BASE + 8).wrapping_sub(0x1000));
}

// ---- RV32I: register-register ----

#[test]
fn add_and_sub_wrap_around() {
    assert_eq!(eval_rr(RegOp::Add, u32::MAX, 2), 1);
    assert_eq!(eval_rr(RegOp::Sub, 0, 1), u32::MAX);
    assert_eq!(eval_rr(RegOp::Sub, 0x8000_0000, 1), 0x7fff_ffff);
}

#[test]
fn register_shifts_use_only_the_low_5_bits_of_rs2() {
    assert_eq!(eval_rr(RegOp::Sll, 1, 33), 2);
    assert_eq!(eval_rr(RegOp::Sll, 1, 32), 1);
    assert_eq!(eval_rr(RegOp::Srl, 0x8000_0000, 0xffff_ffe1), 0x4000_0000);
    assert_eq!(eval_rr(RegOp::Sra, 0x8000_0000, 63), u32::MAX);
    assert_eq!(eval_rr(RegOp::Sra, 0x8000_0000, 32), 0x8000_0000);
}

#[test]
fn slt_is_signed_and_sltu_is_unsigned() {
    assert_eq!(eval_rr(RegOp::Slt, 0xffff_ffff, 0), 1);
    assert_eq!(eval_rr(RegOp::Sltu, 0xffff_ffff, 0), 0);
    assert_eq!(eval_rr(RegOp::Sltu, 0, 5), 1); // snez
    assert_eq!(eval_rr(RegOp::Slt, 5, 5), 0);
}

#[test]
fn xor_or_and_are_bitwise() {
    assert_eq!(eval_rr(RegOp::Xor, 0xff00_ff00, 0x0ff0_0ff0), 0xf0f0_f0f0);
    assert_eq!(eval_rr(RegOp::Or, 0xff00_0000, 0x0000_00ff), 0xff00_00ff);
    assert_eq!(eval_rr(RegOp::And, 0xff00_ff00, 0x0ff0_0ff0), 0x0f00_0f00);
}

#[test]
fn x0_stays_zero_whatever_is_written_to_it() {
    let (h, _) = run_with(
        &[
            li(0, 5),
            op(RegOp::Add, 0, A1, A1),
            Insn::Lui { rd: 0, imm: 0x1000 },
            Insn::Load {
                op: LoadOp::Lw,
                rd: 0,
                rs1: A2,
                offset: 0,
            },
            Insn::Csr {
                op: CsrOp::Rs,
                rd: 0,
                csr: 0xc00,
                src: 0,
            },
            Insn::Jal { rd: 0, offset: 4 },
            op(RegOp::Add, A0, 0, 0),
        ],
        &[(11, 7), (12, DATA)],
    );
    assert_eq!(h.reg(0), 0);
    assert_eq!(h.reg(10), 0);
}

// ---- RV32I: control transfer ----

#[test]
fn jal_links_the_next_pc_and_jumps_relative() {
    let (h, _) = run_with(&[Insn::Jal { rd: 1, offset: 8 }, li(A0, 1), li(A1, 2)], &[]);
    assert_eq!(h.reg(1), RAM_BASE + 4);
    assert_eq!(h.reg(10), 0, "the skipped instruction must not run");
    assert_eq!(h.reg(11), 2);
}

#[test]
fn jalr_clears_bit_zero_of_the_target_and_links_after_reading_rs1() {
    // jalr a0, 1(a0): rd == rs1, target computed from the old value.
    let target = RAM_BASE + 12;
    let (h, _) = run_with(
        &[
            Insn::Jalr {
                rd: A0,
                rs1: A0,
                offset: 1,
            },
            li(A1, 1),
            li(A2, 1),
            li(13, 3),
        ],
        &[(10, target - 1)],
    );
    assert_eq!(h.reg(10), RAM_BASE + 4);
    assert_eq!(h.reg(11), 0);
    assert_eq!(h.reg(12), 0);
    assert_eq!(h.reg(13), 3);
}

fn branch_taken(op: BranchOp, a: u32, b: u32) -> bool {
    let (h, _) = run_with(
        &[
            Insn::Branch {
                op,
                rs1: A1,
                rs2: A2,
                offset: 8,
            },
            li(A0, 1),
        ],
        &[(11, a), (12, b)],
    );
    h.reg(10) == 0
}

#[test]
fn beq_and_bne_compare_for_equality() {
    assert!(branch_taken(BranchOp::Beq, 7, 7));
    assert!(!branch_taken(BranchOp::Beq, 7, 8));
    assert!(branch_taken(BranchOp::Bne, 7, 8));
    assert!(!branch_taken(BranchOp::Bne, 7, 7));
}

#[test]
fn blt_and_bge_are_signed() {
    assert!(branch_taken(BranchOp::Blt, 0xffff_ffff, 0));
    assert!(!branch_taken(BranchOp::Blt, 0, 0xffff_ffff));
    assert!(branch_taken(BranchOp::Bge, 0, 0xffff_ffff));
    assert!(branch_taken(BranchOp::Bge, 5, 5));
}

#[test]
fn bltu_and_bgeu_are_unsigned() {
    assert!(!branch_taken(BranchOp::Bltu, 0xffff_ffff, 0));
    assert!(branch_taken(BranchOp::Bltu, 0, 0xffff_ffff));
    assert!(branch_taken(BranchOp::Bgeu, 0xffff_ffff, 0));
    assert!(branch_taken(BranchOp::Bgeu, 5, 5));
}

#[test]
fn backward_branches_loop() {
    // a0 = 10; do { a1 += 3; a0 -= 1 } while a0 != 0
    let (h, _) = run_with(
        &[
            li(A0, 10),
            opi(ImmOp::Addi, A1, A1, 3),
            opi(ImmOp::Addi, A0, A0, -1),
            Insn::Branch {
                op: BranchOp::Bne,
                rs1: A0,
                rs2: 0,
                offset: -8,
            },
        ],
        &[],
    );
    assert_eq!(h.reg(11), 30);
}

// ---- RV32I: loads and stores ----

fn load(op: LoadOp, bytes: [u8; 4], offset: i32) -> u32 {
    let (mut h, mut ram) = setup(&[
        Insn::Load {
            op,
            rd: A0,
            rs1: A1,
            offset,
        },
        Insn::Ebreak,
    ]);
    ram.load_bytes(DATA, &bytes).unwrap();
    h.set_reg(11, DATA);
    h.run(&mut ram, 10);
    h.reg(10)
}

#[test]
fn lb_sign_extends_and_lbu_zero_extends() {
    assert_eq!(load(LoadOp::Lb, [0x80, 0, 0, 0], 0), 0xffff_ff80);
    assert_eq!(load(LoadOp::Lb, [0, 0x7f, 0, 0], 1), 0x7f);
    assert_eq!(load(LoadOp::Lbu, [0x80, 0, 0, 0], 0), 0x80);
}

#[test]
fn lh_sign_extends_and_lhu_zero_extends() {
    assert_eq!(load(LoadOp::Lh, [0x00, 0x80, 0, 0], 0), 0xffff_8000);
    assert_eq!(load(LoadOp::Lh, [0, 0, 0xff, 0x7f], 2), 0x7fff);
    assert_eq!(load(LoadOp::Lhu, [0x00, 0x80, 0, 0], 0), 0x8000);
}

#[test]
fn lw_is_little_endian() {
    assert_eq!(load(LoadOp::Lw, [0x78, 0x56, 0x34, 0x12], 0), 0x1234_5678);
}

#[test]
fn loads_add_a_negative_offset() {
    let (mut h, mut ram) = setup(&[
        Insn::Load {
            op: LoadOp::Lw,
            rd: A0,
            rs1: A1,
            offset: -4,
        },
        Insn::Ebreak,
    ]);
    ram.write_u32(DATA, 0xdead_beef).unwrap();
    h.set_reg(11, DATA + 4);
    h.run(&mut ram, 10);
    assert_eq!(h.reg(10), 0xdead_beef);
}

#[test]
fn sb_sh_sw_store_the_low_bytes_only() {
    let (_, ram) = run_with(
        &[
            Insn::Store {
                op: StoreOp::Sw,
                rs1: A1,
                rs2: A2,
                offset: 0,
            },
            Insn::Store {
                op: StoreOp::Sh,
                rs1: A1,
                rs2: A2,
                offset: 4,
            },
            Insn::Store {
                op: StoreOp::Sb,
                rs1: A1,
                rs2: A2,
                offset: 8,
            },
        ],
        &[(11, DATA), (12, 0x1122_3344)],
    );
    assert_eq!(ram.read_u32(DATA).unwrap(), 0x1122_3344);
    assert_eq!(ram.read_u32(DATA + 4).unwrap(), 0x3344);
    assert_eq!(ram.read_u32(DATA + 8).unwrap(), 0x44);
}

// ---- M ----

#[test]
fn mul_returns_the_low_32_bits() {
    assert_eq!(eval_rr(RegOp::Mul, 0x1_0001, 0x1_0001), 0x0002_0001);
    assert_eq!(eval_rr(RegOp::Mul, u32::MAX, u32::MAX), 1);
}

#[test]
fn mulh_mulhsu_mulhu_return_the_high_bits_with_their_signedness() {
    // -1 * -1 = 1: high word 0 (signed×signed).
    assert_eq!(eval_rr(RegOp::Mulh, u32::MAX, u32::MAX), 0);
    // -1 (signed) * 0xffffffff (unsigned) = -0xffffffff: high word 0xffffffff.
    assert_eq!(eval_rr(RegOp::Mulhsu, u32::MAX, u32::MAX), u32::MAX);
    // 0xffffffff² = 0xfffffffe_00000001.
    assert_eq!(eval_rr(RegOp::Mulhu, u32::MAX, u32::MAX), 0xffff_fffe);
    assert_eq!(eval_rr(RegOp::Mulh, 0x8000_0000, 0x8000_0000), 0x4000_0000);
    assert_eq!(eval_rr(RegOp::Mulhsu, 0x8000_0000, 2), u32::MAX);
}

#[test]
fn div_by_zero_returns_all_ones() {
    assert_eq!(eval_rr(RegOp::Div, 7, 0), u32::MAX);
    assert_eq!(eval_rr(RegOp::Divu, 7, 0), u32::MAX);
}

#[test]
fn rem_by_zero_returns_the_dividend() {
    assert_eq!(eval_rr(RegOp::Rem, 7, 0), 7);
    assert_eq!(eval_rr(RegOp::Remu, 0xffff_fff9, 0), 0xffff_fff9);
}

#[test]
fn signed_division_overflow_returns_the_dividend_and_remainder_zero() {
    assert_eq!(eval_rr(RegOp::Div, 0x8000_0000, u32::MAX), 0x8000_0000);
    assert_eq!(eval_rr(RegOp::Rem, 0x8000_0000, u32::MAX), 0);
}

#[test]
fn division_rounds_towards_zero_and_remainder_takes_the_dividend_sign() {
    assert_eq!(eval_rr(RegOp::Div, (-7i32) as u32, 2), (-3i32) as u32);
    assert_eq!(eval_rr(RegOp::Rem, (-7i32) as u32, 2), (-1i32) as u32);
    assert_eq!(eval_rr(RegOp::Divu, (-7i32) as u32, 2), 0x7fff_fffc);
    assert_eq!(eval_rr(RegOp::Remu, (-7i32) as u32, 2), 1);
}

// ---- Zba ----

#[test]
fn sh1add_sh2add_sh3add_shift_rs1_then_add_rs2() {
    assert_eq!(eval_rr(RegOp::Sh1add, 3, 100), 106);
    assert_eq!(eval_rr(RegOp::Sh2add, 3, 100), 112);
    assert_eq!(eval_rr(RegOp::Sh3add, 3, 100), 124);
    assert_eq!(eval_rr(RegOp::Sh3add, 0x2000_0000, 1), 1, "wraps");
}

// ---- Zbb ----

#[test]
fn andn_orn_xnor_invert_rs2() {
    assert_eq!(eval_rr(RegOp::Andn, 0xff, 0x0f), 0xf0);
    assert_eq!(eval_rr(RegOp::Orn, 0, 0xffff_fff0), 0xf);
    assert_eq!(eval_rr(RegOp::Xnor, 0xf0f0_f0f0, 0xff00_ff00), 0xf00f_f00f);
}

#[test]
fn clz_ctz_cpop_of_zero_are_32_32_0() {
    assert_eq!(eval_unary(UnaryOp::Clz, 0), 32);
    assert_eq!(eval_unary(UnaryOp::Ctz, 0), 32);
    assert_eq!(eval_unary(UnaryOp::Cpop, 0), 0);
}

#[test]
fn clz_ctz_cpop_count_bits() {
    assert_eq!(eval_unary(UnaryOp::Clz, 1), 31);
    assert_eq!(eval_unary(UnaryOp::Clz, 0x8000_0000), 0);
    assert_eq!(eval_unary(UnaryOp::Ctz, 0x8000_0000), 31);
    assert_eq!(eval_unary(UnaryOp::Ctz, 0x10), 4);
    assert_eq!(eval_unary(UnaryOp::Cpop, u32::MAX), 32);
    assert_eq!(eval_unary(UnaryOp::Cpop, 0x8000_0101), 3);
}

#[test]
fn max_min_are_signed_and_maxu_minu_unsigned() {
    let neg = (-1i32) as u32;
    assert_eq!(eval_rr(RegOp::Max, neg, 1), 1);
    assert_eq!(eval_rr(RegOp::Min, neg, 1), neg);
    assert_eq!(eval_rr(RegOp::Maxu, neg, 1), neg);
    assert_eq!(eval_rr(RegOp::Minu, neg, 1), 1);
}

#[test]
fn sext_b_and_sext_h_sign_extend_the_low_byte_or_half() {
    assert_eq!(eval_unary(UnaryOp::SextB, 0x1234_5680), 0xffff_ff80);
    assert_eq!(eval_unary(UnaryOp::SextB, 0x1234_567f), 0x7f);
    assert_eq!(eval_unary(UnaryOp::SextH, 0x1234_8000), 0xffff_8000);
    assert_eq!(eval_unary(UnaryOp::SextH, 0x1234_7fff), 0x7fff);
}

#[test]
fn zext_h_is_pack_with_x0_and_clears_the_upper_half() {
    assert_eq!(eval_rr(RegOp::Pack, 0xffff_8001, 0), 0x8001);
    let (h, _) = run_with(&[op(RegOp::Pack, A0, A1, 0)], &[(11, 0xabcd_1234)]);
    assert_eq!(h.reg(10), 0x1234);
}

#[test]
fn rol_ror_rotate_by_the_low_5_bits_of_rs2() {
    assert_eq!(eval_rr(RegOp::Rol, 0x8000_0001, 1), 0x0000_0003);
    assert_eq!(eval_rr(RegOp::Ror, 0x8000_0001, 1), 0xc000_0000);
    assert_eq!(eval_rr(RegOp::Rol, 0x1234_5678, 36), 0x2345_6781);
    assert_eq!(eval_rr(RegOp::Ror, 0x1234_5678, 32), 0x1234_5678);
}

#[test]
fn rori_rotates_right_by_the_immediate() {
    assert_eq!(eval_ri(ImmOp::Rori, 0x1234_5678, 8), 0x7812_3456);
    assert_eq!(eval_ri(ImmOp::Rori, 0x1234_5678, 0), 0x1234_5678);
}

#[test]
fn orc_b_sets_each_nonzero_byte_to_ff() {
    assert_eq!(eval_unary(UnaryOp::OrcB, 0x0010_0001), 0x00ff_00ff);
    assert_eq!(eval_unary(UnaryOp::OrcB, 0x8000_0000), 0xff00_0000);
    assert_eq!(eval_unary(UnaryOp::OrcB, 0), 0);
}

#[test]
fn rev8_reverses_the_byte_order() {
    // rev8 is grevi 24 on RV32.
    assert_eq!(eval_ri(ImmOp::Grevi, 0x1122_3344, 24), 0x4433_2211);
}

// ---- Zbkb ----

#[test]
fn pack_joins_the_low_halves_of_rs1_and_rs2() {
    assert_eq!(eval_rr(RegOp::Pack, 0xaaaa_1234, 0xbbbb_5678), 0x5678_1234);
}

#[test]
fn brev8_reverses_the_bits_of_each_byte() {
    // brev8 is grevi 7.
    assert_eq!(eval_ri(ImmOp::Grevi, 0x0102_80f0, 7), 0x8040_010f);
}

// ---- Bitmanip 0.94 grevi ----

#[test]
fn grevi_swaps_blocks_for_each_set_bit_of_the_amount() {
    assert_eq!(eval_ri(ImmOp::Grevi, 0x1234_5678, 0), 0x1234_5678);
    assert_eq!(eval_ri(ImmOp::Grevi, 0b1010, 1), 0b0101); // swap adjacent bits
    assert_eq!(eval_ri(ImmOp::Grevi, 0x1234_5678, 4), 0x2143_6587); // swap nibbles
    assert_eq!(eval_ri(ImmOp::Grevi, 0x1234_5678, 8), 0x3412_7856); // rev8.h
    assert_eq!(eval_ri(ImmOp::Grevi, 0x1234_5678, 16), 0x5678_1234); // swap halves
    assert_eq!(eval_ri(ImmOp::Grevi, 1, 31), 0x8000_0000); // full bit reverse
    assert_eq!(
        eval_ri(ImmOp::Grevi, 0x1234_5678, 31),
        0x1234_5678u32.reverse_bits()
    );
}

// ---- Zaamo ----

fn amo(op: AmoOp, mem: u32, src: u32) -> (u32, u32) {
    let (mut h, mut ram) = setup(&[
        Insn::Amo {
            op,
            rd: A0,
            rs1: A1,
            rs2: A2,
            aq: true,
            rl: false,
        },
        Insn::Ebreak,
    ]);
    ram.write_u32(DATA, mem).unwrap();
    h.set_reg(11, DATA);
    h.set_reg(12, src);
    h.run(&mut ram, 10);
    (h.reg(10), ram.read_u32(DATA).unwrap())
}

#[test]
fn amos_return_the_old_value_and_store_the_combination() {
    assert_eq!(amo(AmoOp::Swap, 5, 9), (5, 9));
    assert_eq!(amo(AmoOp::Add, 5, 9), (5, 14));
    assert_eq!(amo(AmoOp::Add, u32::MAX, 2), (u32::MAX, 1));
    assert_eq!(amo(AmoOp::Xor, 0b1100, 0b1010), (0b1100, 0b0110));
    assert_eq!(amo(AmoOp::And, 0b1100, 0b1010), (0b1100, 0b1000));
    assert_eq!(amo(AmoOp::Or, 0b1100, 0b1010), (0b1100, 0b1110));
}

#[test]
fn amomin_amomax_are_signed_and_amominu_amomaxu_unsigned() {
    let neg = (-2i32) as u32;
    assert_eq!(amo(AmoOp::Min, neg, 3), (neg, neg));
    assert_eq!(amo(AmoOp::Max, neg, 3), (neg, 3));
    assert_eq!(amo(AmoOp::Minu, neg, 3), (neg, 3));
    assert_eq!(amo(AmoOp::Maxu, neg, 3), (neg, neg));
}

#[test]
fn amo_with_rd_equal_rs2_uses_the_source_before_overwriting() {
    let (mut h, mut ram) = setup(&[
        Insn::Amo {
            op: AmoOp::Add,
            rd: A2,
            rs1: A1,
            rs2: A2,
            aq: false,
            rl: false,
        },
        Insn::Ebreak,
    ]);
    ram.write_u32(DATA, 10).unwrap();
    h.set_reg(11, DATA);
    h.set_reg(12, 5);
    h.run(&mut ram, 10);
    assert_eq!((h.reg(12), ram.read_u32(DATA).unwrap()), (10, 15));
}

// ---- fences ----

#[test]
fn fence_is_a_no_op_for_a_single_hart() {
    let (h, _) = run_with(
        &[
            Insn::Fence {
                fm: 0,
                pred: 15,
                succ: 15,
            },
            li(A0, 1),
        ],
        &[],
    );
    assert_eq!(h.reg(10), 1);
}

#[test]
fn every_instruction_form_round_trips_through_encode_and_decode() {
    for insn in every_instruction(42, 30) {
        assert_eq!(decode(encode(&insn)), insn);
    }
}
