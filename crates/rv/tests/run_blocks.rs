//! `Hart::run_private` runs register-only code as basic blocks (a straight-line body, then the
//! branch or jump that ends it). Blocks must give exactly what single steps give, follow every
//! change to the code they were built from, and honour the cycle budget inside a block.
use bhemu_isa::riscv::{encode, BranchOp, ImmOp, Insn, LoadOp, RegOp, StoreOp, UnaryOp};
use bhemu_rv::{FlatRam, Hart, HartConfig, Step};

fn hart(code: &[Insn]) -> (Hart, FlatRam) {
    let bytes: Vec<u8> = code.iter().flat_map(|i| encode(i).to_le_bytes()).collect();
    let mut ram = FlatRam::new(0, 1 << 16);
    ram.load_bytes(0, &bytes).expect("load");
    (Hart::new(HartConfig::default()), ram)
}

fn addi(rd: u8, rs1: u8, imm: i32) -> Insn {
    Insn::OpImm {
        op: ImmOp::Addi,
        rd,
        rs1,
        imm,
    }
}

/// `lw x0, 0(x0)`: not private, so a run stops before it.
const STOP: Insn = Insn::Load {
    op: LoadOp::Lw,
    rd: 0,
    rs1: 0,
    offset: 0,
};

/// Builds one instruction of a kind from `rd`, `rs1`, `rs2`.
type MakeOp = Box<dyn Fn(u8, u8, u8) -> Insn>;

fn regs(h: &Hart) -> Vec<u32> {
    (0..32).map(|i| h.reg(i)).collect()
}

/// Every straight op kind, with the operands that exercise its corner cases: run as a block it
/// leaves the registers a step-by-step run leaves. (The arithmetic itself is checked against
/// the spec's rules in `alu`'s and the executor's tests; this checks the block's dispatch: the
/// right rule, on the right registers, for each op of a block.)
#[test]
fn em18_every_straight_op_in_a_block_gives_what_single_steps_give() {
    let mut ops: Vec<MakeOp> = Vec::new();
    for op in [
        ImmOp::Addi,
        ImmOp::Slti,
        ImmOp::Sltiu,
        ImmOp::Xori,
        ImmOp::Ori,
        ImmOp::Andi,
    ] {
        ops.push(Box::new(move |rd, rs1, _| Insn::OpImm {
            op,
            rd,
            rs1,
            imm: -3,
        }));
    }
    for op in [
        ImmOp::Slli,
        ImmOp::Srli,
        ImmOp::Srai,
        ImmOp::Rori,
        ImmOp::Grevi,
    ] {
        ops.push(Box::new(move |rd, rs1, _| Insn::OpImm {
            op,
            rd,
            rs1,
            imm: 7,
        }));
    }
    for op in [
        RegOp::Add,
        RegOp::Sub,
        RegOp::Sll,
        RegOp::Slt,
        RegOp::Sltu,
        RegOp::Xor,
        RegOp::Srl,
        RegOp::Sra,
        RegOp::Or,
        RegOp::And,
        RegOp::Mul,
        RegOp::Mulh,
        RegOp::Mulhsu,
        RegOp::Mulhu,
        RegOp::Div,
        RegOp::Divu,
        RegOp::Rem,
        RegOp::Remu,
        RegOp::Sh1add,
        RegOp::Sh2add,
        RegOp::Sh3add,
        RegOp::Andn,
        RegOp::Orn,
        RegOp::Xnor,
        RegOp::Max,
        RegOp::Maxu,
        RegOp::Min,
        RegOp::Minu,
        RegOp::Rol,
        RegOp::Ror,
        RegOp::Pack,
    ] {
        ops.push(Box::new(move |rd, rs1, rs2| Insn::Op { op, rd, rs1, rs2 }));
    }
    for op in [
        UnaryOp::Clz,
        UnaryOp::Ctz,
        UnaryOp::Cpop,
        UnaryOp::SextB,
        UnaryOp::SextH,
        UnaryOp::OrcB,
    ] {
        ops.push(Box::new(move |rd, rs1, _| Insn::Unary { op, rd, rs1 }));
    }
    ops.push(Box::new(|rd, _, _| Insn::Lui {
        rd,
        imm: 0x8765_4000,
    }));
    ops.push(Box::new(|rd, _, _| Insn::Auipc {
        rd,
        imm: 0x0001_2000,
    }));
    ops.push(Box::new(|_, _, _| Insn::Fence {
        fm: 0,
        pred: 15,
        succ: 15,
    }));
    let values = [
        0u32,
        1,
        0xFFFF_FFFF,
        0x8000_0000,
        0x7FFF_FFFF,
        31,
        0x1234_5678,
        0x00FF_0080,
    ];
    for (n, make) in ops.iter().enumerate() {
        // Three ops of the kind chained through their results, then a stop.
        let code = [
            make(5, 6, 7),
            make(8, 5, 6),
            make(9, 8, 5),
            make(0, 9, 8),
            STOP,
        ];
        for &a in &values {
            for &b in &values {
                let (mut stepped, mut ram) = hart(&code);
                let (mut blocked, _) = hart(&code);
                // Decode the code once (run_private runs decoded code only), then start over.
                for _ in 0..4 {
                    assert_eq!(blocked.step_fast(&mut ram), Step::Retired);
                }
                blocked.set_pc(0);
                for h in [&mut stepped, &mut blocked] {
                    h.set_reg(6, a);
                    h.set_reg(7, b);
                    for r in [5, 8, 9] {
                        h.set_reg(r, 0);
                    }
                }
                for _ in 0..4 {
                    assert_eq!(stepped.step_fast(&mut ram), Step::Retired);
                }
                assert_eq!(blocked.run_private(100), 4, "{:?}", code[0]);
                assert_eq!(blocked.pc(), 16);
                assert_eq!(
                    regs(&blocked),
                    regs(&stepped),
                    "op {n} {:?}, a={a:#x} b={b:#x}",
                    code[0]
                );
            }
        }
    }
}

/// A run alternates `run_private` with single steps for the rest, as the chip does.
fn run(h: &mut Hart, ram: &mut FlatRam, until: impl Fn(&Hart) -> bool) -> u64 {
    let mut ran_ahead = 0;
    for _ in 0..10_000 {
        if until(h) {
            return ran_ahead;
        }
        let n = h.run_private(1_000);
        ran_ahead += n;
        if n == 0 && !until(h) {
            assert_eq!(h.step_fast(ram), Step::Retired, "pc {:#x}", h.pc());
        }
    }
    panic!("never reached the end: pc {:#x}", h.pc());
}

/// A store over an instruction of a loop body (the hart's own `sw`, and a write from outside
/// announced with `invalidate_code`, as the NoC and the host do) drops the blocks built from
/// it: the next passes run the new instruction.
#[test]
fn em18_a_store_over_code_drops_the_blocks_built_from_it() {
    let new_word = encode(&addi(6, 6, 5));
    // x6 += 2 until x5 reaches x7.
    let lp = [
        addi(5, 5, 1),
        addi(6, 6, 2),
        Insn::Branch {
            op: BranchOp::Bne,
            rs1: 5,
            rs2: 7,
            offset: -8,
        },
    ];
    let code = [
        lp[0],
        lp[1],
        lp[2],
        // Overwrite the loop's second instruction, then run the loop again from x5 = 0.
        Insn::Store {
            op: StoreOp::Sw,
            rs1: 0,
            rs2: 10,
            offset: 4,
        },
        addi(5, 0, 0),
        Insn::Jal { rd: 0, offset: -20 },
    ];
    // Own store: 4 passes adding 2, then 4 adding 5.
    let (mut h, mut ram) = hart(&code);
    h.set_reg(7, 4);
    h.set_reg(10, new_word);
    run(&mut h, &mut ram, |h| h.pc() == 12 && h.reg(6) > 8);
    assert_eq!((h.reg(5), h.reg(6)), (4, 4 * 2 + 4 * 5));

    // A write from outside: loop to x5 = 40 adding 2, patch to +5, loop on to 80.
    let code = [lp[0], lp[1], lp[2], STOP];
    let (mut h, mut ram) = hart(&code);
    h.set_reg(7, 40);
    let ahead = run(&mut h, &mut ram, |h| h.pc() == 12);
    assert!(
        ahead > 100,
        "the loop ran as blocks: {ahead} instructions ahead"
    );
    assert_eq!(h.reg(6), 80);
    ram.load_bytes(4, &new_word.to_le_bytes()).expect("patch");
    h.invalidate_code(4, 4);
    h.set_pc(0);
    h.set_reg(7, 80);
    run(&mut h, &mut ram, |h| h.pc() == 12);
    assert_eq!(h.reg(6), 80 + 40 * 5);
}

/// A straight run longer than one block's body runs through to its end, and a budget that
/// ends inside a block runs exactly that many instructions of it.
#[test]
fn em18_long_straight_runs_and_budgets_inside_a_block_are_exact() {
    let mut code = vec![addi(5, 5, 1); 150];
    code.push(STOP);
    let (mut h, mut ram) = hart(&code);
    for _ in 0..150 {
        assert_eq!(h.step_fast(&mut ram), Step::Retired);
    }
    h.set_pc(0);
    h.set_reg(5, 0);
    let c0 = h.cycles();
    assert_eq!(h.run_private(1_000), 150);
    assert_eq!((h.pc(), h.reg(5), h.cycles() - c0), (600, 150, 150));
    for budget in [1u64, 3, 63, 64, 65, 70, 128, 149] {
        h.set_pc(0);
        h.set_reg(5, 0);
        assert_eq!(h.run_private(budget), budget);
        assert_eq!((h.pc(), h.reg(5)), (4 * budget as u32, budget as u32));
    }
}

/// A block built while the code after it was not decoded yet stops there; once that code is
/// decoded, the run goes on through it.
#[test]
fn em18_a_run_goes_on_through_code_decoded_after_its_block_was_built() {
    let code = [addi(5, 5, 1), addi(5, 5, 1), addi(5, 5, 1), STOP];
    let (mut h, mut ram) = hart(&code);
    assert_eq!(h.step_fast(&mut ram), Step::Retired);
    h.set_pc(0);
    assert_eq!(h.run_private(10), 1, "only the first addi is decoded");
    for _ in 0..2 {
        assert_eq!(h.step_fast(&mut ram), Step::Retired);
    }
    h.set_pc(0);
    h.set_reg(5, 0);
    assert_eq!(h.run_private(10), 3);
    assert_eq!((h.pc(), h.reg(5)), (12, 3));
}

/// Two loops whose blocks land on the same entry of the block index (their first instructions
/// 256 words apart), run in turn: each finds its own block or builds it again, never the other's.
#[test]
fn em18_loops_that_share_an_index_entry_each_run_their_own_code() {
    let bne = |rs1, rs2, offset| Insn::Branch {
        op: BranchOp::Bne,
        rs1,
        rs2,
        offset,
    };
    let mut code = vec![
        addi(5, 5, 1),
        bne(5, 7, -4),
        Insn::Jal {
            rd: 0,
            offset: 1016,
        },
    ];
    code.resize(256, addi(0, 0, 0));
    code.extend([
        addi(6, 6, 3),
        bne(6, 8, -4),
        addi(7, 7, 100),
        addi(8, 8, 300),
        addi(9, 9, -1),
        bne(9, 0, -1044),
        STOP,
    ]);
    let start = |h: &mut Hart| {
        h.set_reg(7, 100);
        h.set_reg(8, 300);
        h.set_reg(9, 5);
    };
    let (mut h, mut ram) = hart(&code);
    start(&mut h);
    let ahead = run(&mut h, &mut ram, |h| h.pc() == 1048);
    assert!(ahead > 1000, "{ahead} instructions ahead");
    // Five rounds: x5 counts to 100, 200, …, 500 by 1; x6 to 300, …, 1500 by 3.
    assert_eq!(
        (h.reg(5), h.reg(6), h.reg(7), h.reg(8)),
        (500, 1500, 600, 1800)
    );
    let (mut stepped, mut ram) = hart(&code);
    start(&mut stepped);
    while stepped.pc() != 1048 {
        assert_eq!(stepped.step_fast(&mut ram), Step::Retired);
    }
    assert_eq!(regs(&h), regs(&stepped));
    assert_eq!(h.cycles(), stepped.cycles());
}

/// A loop that branches back to its own block (the spin workload's) stops on exactly the
/// cycle its budget ends, wherever in a pass that is, with what single steps leave.
#[test]
fn em18_a_loop_stops_on_the_cycle_its_budget_ends() {
    let code = [
        addi(10, 10, -1),
        Insn::Op {
            op: RegOp::Add,
            rd: 11,
            rs1: 11,
            rs2: 10,
        },
        Insn::Op {
            op: RegOp::Xor,
            rd: 12,
            rs1: 12,
            rs2: 11,
        },
        Insn::OpImm {
            op: ImmOp::Slli,
            rd: 13,
            rs1: 12,
            imm: 1,
        },
        Insn::Op {
            op: RegOp::Or,
            rd: 13,
            rs1: 13,
            rs2: 11,
        },
        Insn::Op {
            op: RegOp::Add,
            rd: 12,
            rs1: 12,
            rs2: 13,
        },
        Insn::Branch {
            op: BranchOp::Bne,
            rs1: 10,
            rs2: 0,
            offset: -24,
        },
        STOP,
    ];
    for budget in 1..=45u64 {
        let (mut blocked, mut ram) = hart(&code);
        let (mut stepped, mut ram2) = hart(&code);
        for h in [&mut blocked, &mut stepped] {
            h.set_reg(10, 5);
        }
        // One pass decodes the loop.
        for _ in 0..7 {
            assert_eq!(blocked.step_fast(&mut ram), Step::Retired);
            assert_eq!(stepped.step_fast(&mut ram2), Step::Retired);
        }
        let ran = blocked.run_private(budget);
        // Four passes are left (28 instructions), then the stop.
        assert_eq!(ran, budget.min(28), "budget {budget}");
        for _ in 0..ran {
            assert_eq!(stepped.step_fast(&mut ram2), Step::Retired);
        }
        assert_eq!(blocked.pc(), stepped.pc(), "budget {budget}");
        assert_eq!(regs(&blocked), regs(&stepped), "budget {budget}");
        assert_eq!(blocked.cycles(), stepped.cycles(), "budget {budget}");
    }
}

/// A jump to a misaligned target ends the run before it, unexecuted: its link register is
/// not written, and the ordinary step that follows raises the exception.
#[test]
fn em18_a_jump_to_a_misaligned_target_is_left_to_the_ordinary_step() {
    let code = [
        addi(5, 5, 1),
        Insn::Jalr {
            rd: 7,
            rs1: 6,
            offset: 2,
        },
        STOP,
    ];
    // Run both once so both are decoded: the jalr to 2 traps.
    let (mut h, mut ram) = hart(&code);
    assert_eq!(h.step_fast(&mut ram), Step::Retired);
    assert_ne!(h.step_fast(&mut ram), Step::Retired, "jalr to 2 traps");
    h.resume();
    h.set_pc(0);
    h.set_reg(5, 0);
    let ran = h.run_private(10);
    assert_eq!((ran, h.pc(), h.reg(5), h.reg(7)), (1, 4, 1, 0));
}
