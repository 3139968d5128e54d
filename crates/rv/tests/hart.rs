//! Hart behaviour beyond single instructions: CSRs, traps, pauses, `.ttinsn`, stalls, the
//! decode cache and the stop request. Each test is named after the rule it checks.
mod common;

use bhemu_isa::riscv::*;
use bhemu_rv::*;
use common::*;

const A0: u8 = 10;
const A1: u8 = 11;
const A2: u8 = 12;

fn csr(op: CsrOp, rd: u8, csr: u16, src: u8) -> Insn {
    Insn::Csr { op, rd, csr, src }
}
fn sw(rs2: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Store {
        op: StoreOp::Sw,
        rs1,
        rs2,
        offset,
    }
}
fn lw(rd: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Load {
        op: LoadOp::Lw,
        rd,
        rs1,
        offset,
    }
}

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

// ---- .ttinsn and stalls ----

struct Fifo {
    ram: FlatRam,
    stalls_left: u32,
    pushed: Vec<u32>,
}
impl Bus for Fifo {
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
        if self.stalls_left > 0 {
            self.stalls_left -= 1;
            return Access::Stall;
        }
        self.pushed.push(t);
        Access::Done(())
    }
}

#[test]
fn ttinsn_pushes_the_word_rotated_right_by_two() {
    // PushTensixInstruction.md: the 32 bits are rotated right by two and pushed.
    let (mut h, mut ram) = setup(&[
        Insn::Tensix(0x0123_4567),
        Insn::Tensix(0x4000_0001),
        Insn::Ebreak,
    ]);
    assert!(matches!(h.run(&mut ram, 10), RunExit::Halted(_)));
    assert_eq!(ram.pushed_tensix(), &[0x0123_4567, 0x4000_0001]);
    assert_eq!(h.instret(), 3);
}

#[test]
fn a_stalled_ttinsn_retries_and_costs_cycles_but_not_instret() {
    let (mut h, ram) = setup(&[Insn::Tensix(0x1234), Insn::Ebreak]);
    let mut bus = Fifo {
        ram,
        stalls_left: 3,
        pushed: Vec::new(),
    };
    assert_eq!(h.step(&mut bus), StepOutcome::Stalled);
    assert_eq!((h.cycles(), h.instret(), h.pc()), (1, 0, RAM_BASE));
    assert!(matches!(h.run(&mut bus, 10), RunExit::Halted(_)));
    assert_eq!(bus.pushed, vec![0x1234]);
    assert_eq!((h.cycles(), h.instret()), (5, 2));
}

/// `Hart::skip_stalled(n)` leaves the hart exactly as `n` stalled steps do (EM-2: `cycle`
/// advances, `instret` does not, each such cycle takes the out-of-line path), so a scheduler
/// may account a sleeping core's stalls at once.
#[test]
fn skip_stalled_matches_stalled_steps() {
    let fifo = |ram| Fifo {
        ram,
        stalls_left: 6,
        pushed: Vec::new(),
    };
    let (mut stepped, ram) = setup(&[Insn::Tensix(0x1234), Insn::Ebreak]);
    let mut a = fifo(ram);
    let (mut skipped, ram) = setup(&[Insn::Tensix(0x1234), Insn::Ebreak]);
    let mut b = fifo(ram);
    for _ in 0..6 {
        assert_eq!(stepped.step(&mut a), StepOutcome::Stalled);
    }
    // The sleeping core: one real stalled step, five accounted, then the bus's state as the
    // five retries would have left it.
    assert_eq!(skipped.step(&mut b), StepOutcome::Stalled);
    skipped.skip_stalled(5);
    b.stalls_left = 0;
    let counters = |h: &Hart| (h.pc(), h.cycles(), h.instret(), h.events());
    assert_eq!(counters(&stepped), (RAM_BASE, 6, 0, 12));
    assert_eq!(counters(&skipped), counters(&stepped));
    let fold = |h: &Hart| {
        let mut v = Vec::new();
        h.fold_arch_state(&mut |w| v.push(w));
        v
    };
    assert_eq!(fold(&skipped), fold(&stepped));
    assert!(matches!(stepped.run(&mut a, 10), RunExit::Halted(_)));
    assert!(matches!(skipped.run(&mut b, 10), RunExit::Halted(_)));
    assert_eq!(
        counters(&skipped),
        (RAM_BASE + 8, 8, 2, counters(&stepped).3)
    );
    assert_eq!(fold(&skipped), fold(&stepped));
    assert_eq!(b.pushed, a.pushed);
}

// ---- tohost ----

#[test]
fn store_to_tohost_stops_run_right_after_it_retires() {
    let (mut h, mut ram) = setup(&[li(A0, 1), sw(A0, A1, 0), li(A0, 5), Insn::Ebreak]);
    ram.set_tohost(DATA);
    h.set_reg(11, DATA);
    assert_eq!(h.run(&mut ram, 100), RunExit::Stop);
    assert_eq!(h.instret(), 2);
    assert_eq!(h.pc(), RAM_BASE + 8);
    assert_eq!(ram.tohost_value(), Some(1));
    assert_eq!(h.reg(10), 1);
}

#[test]
fn max_insns_bounds_run() {
    let (mut h, mut ram) = setup(&[Insn::Jal { rd: 0, offset: 0 }]);
    assert_eq!(h.run(&mut ram, 1000), RunExit::MaxInsns);
    assert_eq!((h.instret(), h.cycles()), (1000, 1000));
}

// ---- decode cache ----

#[test]
fn self_modifying_store_invalidates_the_cached_instruction() {
    // Runs `li a0, 1` at L, then overwrites L with `li a0, 2` and jumps back.
    let new = encode(&li(A0, 2));
    let prog = [
        li(A2, 0),                   // 0: a2 = pass counter
        li(A0, 1),                   // 4: L
        opi(ImmOp::Addi, A2, A2, 1), // 8
        Insn::Branch {
            op: BranchOp::Bne,
            rs1: A2,
            rs2: 13,
            offset: 12,
        }, // 12: second pass → end
        sw(A1, 14, 4),               // 16: overwrite L
        Insn::Jal { rd: 0, offset: -16 }, // 20: back to L
        Insn::Ebreak,                // 24
    ];
    let (mut h, mut ram) = setup(&prog);
    h.set_reg(11, new);
    h.set_reg(13, 1);
    h.set_reg(14, RAM_BASE);
    assert!(matches!(h.run(&mut ram, 100), RunExit::Halted(_)));
    assert_eq!(h.reg(10), 2);
}

#[test]
fn invalidate_code_makes_external_writes_visible() {
    let (mut h, mut ram) = setup(&[li(A0, 1), Insn::Jal { rd: 0, offset: -4 }]);
    assert_eq!(h.run(&mut ram, 10), RunExit::MaxInsns);
    ram.write_u32(RAM_BASE, encode(&li(A0, 7))).unwrap();
    h.set_pc(RAM_BASE);
    h.run(&mut ram, 1);
    assert_eq!(
        h.reg(10),
        1,
        "stale until invalidated: external writers must call invalidate_code"
    );
    h.invalidate_code(RAM_BASE, 4);
    h.set_pc(RAM_BASE);
    h.run(&mut ram, 1);
    assert_eq!(h.reg(10), 7);
}

#[test]
fn fence_i_flushes_the_decode_cache() {
    let (mut h, mut ram) = setup(&[li(A0, 1), Insn::FenceI, Insn::Jal { rd: 0, offset: -8 }]);
    h.run(&mut ram, 2);
    ram.write_u32(RAM_BASE, encode(&li(A0, 3))).unwrap();
    h.run(&mut ram, 2);
    assert_eq!(h.reg(10), 3);
}

#[test]
fn code_beyond_the_cache_window_still_runs_uncached() {
    // The decode cache covers at most 4 MiB of code; farther code is decoded on every run.
    let far = 0x0060_0000u32;
    let mut ram = FlatRam::new(0, 0x0080_0000);
    let near = words(&[
        Insn::Lui { rd: 5, imm: far },
        Insn::Jalr {
            rd: 1,
            rs1: 5,
            offset: 0,
        },
        Insn::Ebreak,
    ]);
    let away = words(&[
        opi(ImmOp::Addi, A0, A0, 1),
        csr(CsrOp::Rs, A1, 0xc02, 0),
        Insn::Jalr {
            rd: 0,
            rs1: 1,
            offset: 0,
        },
    ]);
    let bytes = |w: Vec<u32>| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
    ram.load_bytes(0, &bytes(near)).unwrap();
    ram.load_bytes(far, &bytes(away)).unwrap();
    let mut h = Hart::new(HartConfig::default());
    assert!(matches!(h.run(&mut ram, 100), RunExit::Halted(_)));
    assert_eq!((h.reg(10), h.reg(11)), (1, 3));
}

// ---- tracing, determinism, robustness ----

#[test]
fn trace_hook_sees_each_executed_instruction() {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let (mut h, mut ram) = setup(&[li(A0, 1), li(A1, 2), Insn::Ebreak]);
    h.set_trace_hook(Some(Box::new(move |t: &TraceRecord| {
        s2.lock().unwrap().push((t.pc, t.word))
    })));
    assert!(matches!(h.run(&mut ram, 10), RunExit::Halted(_)));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[1], (RAM_BASE + 4, encode(&li(A1, 2))));
}

#[test]
fn step_and_run_agree_and_are_deterministic() {
    let words = bhemu_rv::workload::mixed_integer(3);
    let load = |ram: &mut FlatRam| {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        ram.load_bytes(0, &bytes).unwrap();
    };
    let mut r1 = FlatRam::new(0, 1 << 16);
    let mut r2 = FlatRam::new(0, 1 << 16);
    load(&mut r1);
    load(&mut r2);
    let mut h1 = Hart::new(HartConfig::default());
    let mut h2 = Hart::new(HartConfig::default());
    assert!(matches!(h1.run(&mut r1, u64::MAX), RunExit::Halted(_)));
    while !matches!(h2.step(&mut r2), StepOutcome::Halted(_)) {}
    assert_eq!(h1.instret(), 3 * bhemu_rv::workload::INSNS_PER_OUTER + 5);
    assert_eq!(
        (h1.instret(), h1.cycles(), h1.pc()),
        (h2.instret(), h2.cycles(), h2.pc())
    );
    for i in 0..32 {
        assert_eq!(h1.reg(i), h2.reg(i));
    }
    assert_eq!(r1.bytes(), r2.bytes());
}

#[test]
fn random_words_never_panic_the_hart() {
    let mut rng = Rng(0xfeed);
    for round in 0..200 {
        let mut ram = FlatRam::new(RAM_BASE, 0x2000);
        let bytes: Vec<u8> = (0..0x800).map(|_| rng.next() as u8).collect();
        ram.load_bytes(RAM_BASE, &bytes).unwrap();
        let mut h = Hart::new(HartConfig {
            reset_pc: RAM_BASE,
            ..HartConfig::default()
        });
        for r in 1..32 {
            h.set_reg(r, rng.next() as u32);
        }
        if round % 2 == 0 {
            // Install a handler inside the random code so that traps keep the hart running.
            let pre = words(&[
                Insn::Auipc { rd: 5, imm: 0 },
                opi(ImmOp::Addi, 5, 5, 0x100),
                Insn::Csr {
                    op: CsrOp::Rw,
                    rd: 0,
                    csr: 0x305,
                    src: 5,
                },
            ]);
            let bytes: Vec<u8> = pre.iter().flat_map(|w| w.to_le_bytes()).collect();
            ram.load_bytes(RAM_BASE, &bytes).unwrap();
        }
        for _ in 0..50 {
            match h.run(&mut ram, 200) {
                RunExit::Halted(_) => h.resume(),
                RunExit::Error(_) => h.set_pc(RAM_BASE + (rng.below(0x200) as u32) * 4),
                _ => {}
            }
        }
    }
}

/// A random straight-line-ish program (ALU, bit manipulation, M, loads/stores/AMOs on a data
/// area addressed by s1, forward branches, counter and scratch CSRs), ending in ebreak.
fn random_program(rng: &mut Rng, len: usize) -> Vec<Insn> {
    const BASE: u8 = 9; // s1, never written
    let rd = |rng: &mut Rng| loop {
        let r = rng.below(32) as u8;
        if r != BASE {
            return r;
        }
    };
    let mut p = Vec::new();
    for i in 0..len {
        let left = (len - i) as i32;
        let insn = match rng.below(10) {
            0..=2 => op(
                REG_OPS[rng.below(31) as usize],
                rd(rng),
                rng.reg(),
                rng.reg(),
            ),
            3 => {
                let o = IMM_OPS[rng.below(11) as usize];
                let imm = match o {
                    ImmOp::Slli | ImmOp::Srli | ImmOp::Srai | ImmOp::Rori | ImmOp::Grevi => {
                        rng.below(32) as i32
                    }
                    _ => rng.imm12(),
                };
                opi(o, rd(rng), rng.reg(), imm)
            }
            4 => Insn::Unary {
                op: UNARY_OPS[rng.below(6) as usize],
                rd: rd(rng),
                rs1: rng.reg(),
            },
            5 => Insn::Load {
                op: LOAD_OPS[rng.below(5) as usize],
                rd: rd(rng),
                rs1: BASE,
                offset: (rng.below(64) * 4) as i32,
            },
            6 => Insn::Store {
                op: STORE_OPS[rng.below(3) as usize],
                rs1: BASE,
                rs2: rng.reg(),
                offset: (rng.below(64) * 4) as i32,
            },
            7 => Insn::Amo {
                op: AMO_OPS[rng.below(9) as usize],
                rd: rd(rng),
                rs1: BASE,
                rs2: rng.reg(),
                aq: false,
                rl: false,
            },
            8 => Insn::Branch {
                op: BRANCH_OPS[rng.below(6) as usize],
                rs1: rng.reg(),
                rs2: rng.reg(),
                offset: 4 * (1 + rng.below(3) as i32).min(left),
            },
            _ => {
                let c = [0xc00u16, 0xc02, 0xb00, 0xb02, 0x340][rng.below(5) as usize];
                csr(
                    CSR_OPS[rng.below(6) as usize],
                    rd(rng),
                    c,
                    rng.below(32) as u8,
                )
            }
        };
        p.push(insn);
    }
    p.push(Insn::Ebreak);
    p
}

#[test]
fn run_and_step_agree_on_random_programs() {
    let mut rng = Rng(0xabcdef);
    for _ in 0..300 {
        let prog = random_program(&mut rng, 60);
        let regs: Vec<(usize, u32)> = (1..32).map(|r| (r, rng.next() as u32)).collect();
        let start = |regs: &[(usize, u32)]| {
            let (mut h, ram) = setup(&prog);
            for &(r, v) in regs {
                h.set_reg(r, v);
            }
            h.set_reg(9, DATA);
            (h, ram)
        };
        let (mut h1, mut r1) = start(&regs);
        let (mut h2, mut r2) = start(&regs);
        let e1 = h1.run(&mut r1, 1000);
        let e2 = loop {
            match h2.step(&mut r2) {
                StepOutcome::Halted(h) => break RunExit::Halted(h),
                StepOutcome::Error(e) => break RunExit::Error(e),
                _ => {}
            }
        };
        assert_eq!(e1, e2);
        assert_eq!(
            (h1.pc(), h1.instret(), h1.cycles()),
            (h2.pc(), h2.instret(), h2.cycles())
        );
        for i in 0..32 {
            assert_eq!(h1.reg(i), h2.reg(i), "x{i}");
        }
        assert_eq!(r1.bytes(), r2.bytes());
    }
}
