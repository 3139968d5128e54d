//! Hart behaviour beyond single instructions: CSRs, counters, `ebreak` and traps. Each test is
//! named after the rule it checks. `.ttinsn`, stalls, the stop request, the decode cache and
//! determinism are in `hart_run.rs`.
mod common;

use bhemu_isa::riscv::*;
use bhemu_rv::*;
use common::*;

// ---- Zicsr ----

#[test]
fn csrrw_swaps_the_old_value_into_rd() {
    let (h, _) = run_with(
        &[csr(CsrOp::Rw, 0, 0x340, A1), csr(CsrOp::Rw, A0, 0x340, A2)],
        &[(11, 0x1111), (12, 0x2222)],
    );
    assert_eq!(h.reg(10), 0x1111);
    assert_eq!(h.csr(0x340), Some(0x2222));
}

#[test]
fn csrrs_sets_and_csrrc_clears_the_bits_of_rs1() {
    let (h, _) = run_with(
        &[
            csr(CsrOp::Rw, 0, 0x340, A1),
            csr(CsrOp::Rs, A0, 0x340, A2),
            csr(CsrOp::Rc, 13, 0x340, 14),
        ],
        &[(11, 0b1010), (12, 0b0101), (14, 0b0011)],
    );
    assert_eq!(h.reg(10), 0b1010);
    assert_eq!(h.reg(13), 0b1111);
    assert_eq!(h.csr(0x340), Some(0b1100));
}

#[test]
fn csr_immediate_forms_use_the_zero_extended_5_bit_field() {
    let (h, _) = run_with(
        &[
            csr(CsrOp::Rwi, 0, 0x340, 31),
            csr(CsrOp::Rci, A0, 0x340, 1),
            csr(CsrOp::Rsi, A1, 0x340, 0),
        ],
        &[],
    );
    assert_eq!(h.reg(10), 31);
    assert_eq!(h.reg(11), 30);
    assert_eq!(h.csr(0x340), Some(30));
}

#[test]
fn csrrs_with_rs1_x0_reads_without_writing_so_read_only_csrs_are_readable() {
    // mhartid (0xF14) is read-only: csrr works, csrw is an illegal instruction.
    let (h, _) = run_with(
        &[csr(CsrOp::Rs, A0, 0xf14, 0), csr(CsrOp::Rsi, A1, 0xf14, 0)],
        &[],
    );
    assert_eq!((h.reg(10), h.reg(11)), (0, 0));
    let (mut h, mut ram) = setup(&[csr(CsrOp::Rw, 0, 0xf14, A0)]);
    match h.run(&mut ram, 5) {
        RunExit::Error(e) => assert_eq!(e.kind, HartErrorKind::IllegalInstruction),
        other => panic!("{other:?}"),
    }
}

#[test]
fn csrrw_with_rd_x0_does_not_read_a_custom_csr() {
    // riscv-isa-manual Zicsr: "If rd=x0, then the instruction shall not read the CSR".
    struct Custom {
        ram: FlatRam,
        reads: u32,
        written: Option<u32>,
    }
    impl Bus for Custom {
        fn fetch(&mut self, a: u32) -> Access<u32> {
            self.ram.fetch(a)
        }
        fn load(&mut self, a: u32, w: Width) -> Access<u32> {
            self.ram.load(a, w)
        }
        fn store(&mut self, a: u32, w: Width, v: u32) -> Access<()> {
            self.ram.store(a, w, v)
        }
        fn push_tensix(&mut self, t: u32) -> Access<()> {
            self.ram.push_tensix(t)
        }
        fn read_custom_csr(&mut self, c: u16) -> Option<Access<u32>> {
            (c == 0xbc0).then(|| {
                self.reads += 1;
                Access::Done(0x77)
            })
        }
        fn write_custom_csr(&mut self, c: u16, v: u32) -> Option<Access<()>> {
            (c == 0xbc0).then(|| {
                self.written = Some(v);
                Access::Done(())
            })
        }
    }
    let (mut h, ram) = setup(&[
        csr(CsrOp::Rw, 0, 0xbc0, A1),
        csr(CsrOp::Rs, A0, 0xbc0, 0),
        Insn::Ebreak,
    ]);
    let mut bus = Custom {
        ram,
        reads: 0,
        written: None,
    };
    h.set_reg(11, 5);
    assert!(matches!(h.run(&mut bus, 10), RunExit::Halted(_)));
    assert_eq!((bus.reads, bus.written, h.reg(10)), (1, Some(5), 0x77));
}

#[test]
fn unknown_csrs_are_illegal_instructions_when_the_bus_has_none() {
    let (mut h, mut ram) = setup(&[csr(CsrOp::Rs, A0, 0x7c0, 0)]);
    match h.run(&mut ram, 5) {
        RunExit::Error(e) => {
            assert_eq!(e.kind, HartErrorKind::IllegalInstruction);
            assert_eq!(e.pc, RAM_BASE);
            assert_eq!(e.insn, encode(&csr(CsrOp::Rs, A0, 0x7c0, 0)));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn time_csr_does_not_exist() {
    // InstructionSet.md: "cycle and instret are available, but time is not".
    let (mut h, mut ram) = setup(&[csr(CsrOp::Rs, A0, 0xc01, 0)]);
    assert!(
        matches!(h.run(&mut ram, 5), RunExit::Error(e) if e.kind == HartErrorKind::IllegalInstruction)
    );
}

#[test]
fn misa_and_mstatus_read_the_babies_fixed_values() {
    // CSRs.md: misa = 0x40201123; mstatus = 0x80006600 (plus MIE/MPIE, which bhemu models).
    let (h, _) = run_with(
        &[csr(CsrOp::Rs, A0, 0x301, 0), csr(CsrOp::Rs, A1, 0x300, 0)],
        &[],
    );
    assert_eq!(h.reg(10), 0x4020_1123);
    assert_eq!(h.reg(11), 0x8000_6600);
}

// ---- Zicntr and timing ----

#[test]
fn one_instruction_retires_per_cycle() {
    // docs/execution-model.md EM-2: each hart executes at most one instruction per cycle.
    let (h, _) = run_with(&[li(A0, 1), li(A1, 2), li(A2, 3)], &[]);
    assert_eq!(h.instret(), 4);
    assert_eq!(h.cycles(), 4);
}

#[test]
fn rdcycle_and_rdinstret_count_what_completed_before_them() {
    let (h, _) = run_with(
        &[
            li(A1, 0),
            li(A1, 0),
            csr(CsrOp::Rs, A0, 0xc00, 0),
            csr(CsrOp::Rs, A1, 0xc02, 0),
            csr(CsrOp::Rs, A2, 0xc80, 0),
        ],
        &[],
    );
    assert_eq!((h.reg(10), h.reg(11), h.reg(12)), (2, 3, 0));
}

#[test]
fn writing_minstret_sets_what_the_next_instruction_reads() {
    let (h, _) = run_with(
        &[
            csr(CsrOp::Rw, 0, 0xb02, A1),
            csr(CsrOp::Rs, A0, 0xb02, 0),
            csr(CsrOp::Rw, 0, 0xc80, A1),
            csr(CsrOp::Rs, A2, 0xb80, 0),
        ],
        &[(11, 100)],
    );
    assert_eq!(h.reg(10), 100);
    assert_eq!(h.reg(12), 100);
}

#[test]
fn counters_wrap_around_at_64_bits_without_failing() {
    // Software may write any value to mcycle/minstret (riscv-privileged, "Hardware Performance
    // Monitor"); the next increment wraps to zero.
    let (h, _) = run_with(
        &[
            csr(CsrOp::Rw, 0, 0xb80, A1),
            csr(CsrOp::Rw, 0, 0xb00, A1),
            csr(CsrOp::Rw, 0, 0xb82, A1),
            csr(CsrOp::Rw, 0, 0xb02, A1),
            li(A0, 1),
            csr(CsrOp::Rs, A2, 0xb02, 0),
        ],
        &[(11, u32::MAX)],
    );
    assert_eq!(h.reg(12), 0);
    assert_eq!(h.instret(), 2);
}

// ---- ebreak ----

#[test]
fn ebreak_retires_and_pauses_the_hart() {
    let (mut h, mut ram) = setup(&[li(A0, 1), Insn::Ebreak, li(A0, 2)]);
    let exit = h.run(&mut ram, 100);
    assert_eq!(
        exit,
        RunExit::Halted(HaltReason::Ebreak { pc: RAM_BASE + 4 })
    );
    assert_eq!(h.pc(), RAM_BASE + 8);
    assert_eq!(h.instret(), 2);
    // Still paused: nothing runs until resume.
    assert_eq!(
        h.run(&mut ram, 100),
        RunExit::Halted(HaltReason::Ebreak { pc: RAM_BASE + 4 })
    );
    assert_eq!(h.reg(10), 1);
    h.resume();
    assert_eq!(h.step(&mut ram), StepOutcome::Retired);
    assert_eq!(h.reg(10), 2);
}

// ---- traps ----

#[test]
fn illegal_instruction_without_handler_is_an_error_with_pc_and_word() {
    let (mut h, mut ram) = setup(&[li(A0, 1), Insn::Illegal(0xffff_ffff)]);
    match h.run(&mut ram, 10) {
        RunExit::Error(e) => {
            assert_eq!(e.kind, HartErrorKind::IllegalInstruction);
            assert_eq!(
                (e.pc, e.insn, e.cycle, e.instret),
                (RAM_BASE + 4, 0xffff_ffff, 1, 1)
            );
            let text = e.to_string();
            assert!(
                text.contains("hart 0")
                    && text.contains("0x00001004")
                    && text.contains("0xffffffff"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// A program whose handler (at +0x100) records mcause/mepc/mtval in s2..s4, then returns past
/// the trapping instruction.
fn with_handler(body: &[Insn]) -> Vec<Insn> {
    let mut p = vec![
        Insn::Auipc { rd: 5, imm: 0 },
        opi(ImmOp::Addi, 5, 5, 0x100),
        csr(CsrOp::Rw, 0, 0x305, 5),
    ];
    p.extend_from_slice(body);
    p.push(Insn::Ebreak);
    while p.len() < 0x40 {
        p.push(Insn::Illegal(0xffff_ffff));
    }
    p.extend([
        csr(CsrOp::Rs, 18, 0x342, 0),
        csr(CsrOp::Rs, 19, 0x341, 0),
        csr(CsrOp::Rs, 20, 0x343, 0),
        csr(CsrOp::Rs, 21, 0x300, 0),
        opi(ImmOp::Addi, 6, 19, 4),
        csr(CsrOp::Rw, 0, 0x341, 6),
        Insn::Mret,
    ]);
    p
}

fn run_handled(body: &[Insn], regs: &[(usize, u32)]) -> Hart {
    let (mut h, mut ram) = setup(&with_handler(body));
    for &(r, v) in regs {
        h.set_reg(r, v);
    }
    let exit = h.run(&mut ram, 1000);
    assert!(matches!(exit, RunExit::Halted(_)), "{exit:?}");
    h
}

#[test]
fn illegal_instruction_with_handler_sets_mepc_mcause_mtval() {
    let h = run_handled(&[Insn::Illegal(0x0000_007f), li(A0, 9)], &[]);
    assert_eq!(h.reg(18), 2);
    assert_eq!(h.reg(19), RAM_BASE + 12);
    assert_eq!(h.reg(20), 0x7f);
    assert_eq!(h.reg(10), 9, "mret resumes after the trapping instruction");
}

#[test]
fn ecall_traps_with_cause_11_and_mepc_at_the_ecall() {
    let h = run_handled(&[Insn::Ecall], &[]);
    assert_eq!((h.reg(18), h.reg(19)), (11, RAM_BASE + 12));
}

#[test]
fn ecall_without_handler_is_an_error() {
    let (mut h, mut ram) = setup(&[Insn::Ecall]);
    assert!(
        matches!(h.run(&mut ram, 10), RunExit::Error(e) if e.kind == HartErrorKind::EnvironmentCall)
    );
}

#[test]
fn trap_entry_saves_mie_in_mpie_and_mret_restores_it() {
    // mstatus.MIE = 1 before the trap; the handler sees MIE = 0, MPIE = 1; after mret MIE = 1.
    let h = run_handled(
        &[
            csr(CsrOp::Rsi, 0, 0x300, 8),
            Insn::Ecall,
            csr(CsrOp::Rs, A0, 0x300, 0),
        ],
        &[],
    );
    assert_eq!(h.reg(21) & 0x88, 0x80);
    assert_eq!(h.reg(10) & 0x88, 0x88);
}

#[test]
fn misaligned_load_traps_with_cause_4_and_the_address() {
    let h = run_handled(&[lw(A0, A1, 1)], &[(11, DATA)]);
    assert_eq!((h.reg(18), h.reg(20)), (4, DATA + 1));
}

#[test]
fn misaligned_store_traps_with_cause_6() {
    let h = run_handled(
        &[Insn::Store {
            op: StoreOp::Sh,
            rs1: A1,
            rs2: 0,
            offset: 1,
        }],
        &[(11, DATA)],
    );
    assert_eq!((h.reg(18), h.reg(20)), (6, DATA + 1));
}

#[test]
fn misaligned_amo_traps_with_cause_6() {
    let h = run_handled(
        &[Insn::Amo {
            op: AmoOp::Add,
            rd: A0,
            rs1: A1,
            rs2: 0,
            aq: false,
            rl: false,
        }],
        &[(11, DATA + 2)],
    );
    assert_eq!(h.reg(18), 6);
}

#[test]
fn misaligned_accesses_round_down_when_configured_like_wormhole() {
    // WormholeB0/TensixTile/BabyRISCV/README.md "Faults / exceptions".
    let (_, mut ram) = setup(&[lw(A0, A1, 2), Insn::Ebreak]);
    let mut h = Hart::new(HartConfig {
        reset_pc: RAM_BASE,
        misaligned: MisalignedAccess::RoundDown,
        ..HartConfig::default()
    });
    ram.write_u32(DATA, 0xcafe_f00d).unwrap();
    h.set_reg(11, DATA);
    assert!(matches!(h.run(&mut ram, 10), RunExit::Halted(_)));
    assert_eq!(h.reg(10), 0xcafe_f00d);
}

#[test]
fn load_outside_ram_is_an_access_fault_with_cause_5() {
    let h = run_handled(&[lw(A0, A1, 0)], &[(11, 0x4000_0000)]);
    assert_eq!((h.reg(18), h.reg(20)), (5, 0x4000_0000));
    let (mut h, mut ram) = setup(&[lw(A0, A1, 0)]);
    h.set_reg(11, 0x4000_0000);
    match h.run(&mut ram, 10) {
        RunExit::Error(e) => {
            assert_eq!(e.kind, HartErrorKind::LoadFault);
            assert!(e.message.contains("outside RAM"), "{}", e.message);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn store_outside_ram_is_an_access_fault_with_cause_7() {
    let h = run_handled(&[sw(0, A1, 0)], &[(11, 0x4000_0000)]);
    assert_eq!(h.reg(18), 7);
}

#[test]
fn jump_to_a_misaligned_target_traps_on_the_jump() {
    // IALIGN = 32: cause 0, mepc = the jump, mtval = the target.
    let h = run_handled(
        &[Insn::Jalr {
            rd: 0,
            rs1: A1,
            offset: 2,
        }],
        &[(11, RAM_BASE)],
    );
    assert_eq!(
        (h.reg(18), h.reg(19), h.reg(20)),
        (0, RAM_BASE + 12, RAM_BASE + 2)
    );
}

#[test]
fn fetch_outside_ram_is_an_instruction_access_fault() {
    let (mut h, mut ram) = setup(&[Insn::Jalr {
        rd: 0,
        rs1: A1,
        offset: 0,
    }]);
    h.set_reg(11, 0x4000_0000);
    match h.run(&mut ram, 10) {
        RunExit::Error(e) => assert_eq!((e.kind, e.pc), (HartErrorKind::FetchFault, 0x4000_0000)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn set_pc_to_a_misaligned_address_is_a_misaligned_fetch() {
    let (mut h, mut ram) = setup(&[]);
    h.set_pc(RAM_BASE + 2);
    assert!(
        matches!(h.step(&mut ram), StepOutcome::Error(e) if e.kind == HartErrorKind::MisalignedFetch)
    );
}
