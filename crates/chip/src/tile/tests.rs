//! Tile-level tests: small hand-assembled programs on the five harts. Each test names the rule
//! it checks and cites its source.
use bhemu_isa::riscv::asm::{li, lw, spin, sw};
use bhemu_isa::riscv::{encode, ImmOp, Insn};
use bhemu_noc::{Noc, NodeId};

use super::*;
use crate::error::ErrorKind;

const T0: u8 = 5; // t0
const T1: u8 = 6; // t1
const T2: u8 = 7; // t2

/// `*addr = value`, clobbering t0/t1.
fn store(addr: u32, value: u32) -> Vec<Insn> {
    let mut v = li(T0, addr);
    v.extend(li(T1, value));
    v.push(sw(T1, T0));
    v
}

fn load_prog(t: &mut Tile, addr: u32, prog: &[Insn]) {
    let bytes: Vec<u8> = prog.iter().flat_map(|i| encode(i).to_le_bytes()).collect();
    assert!(t.write_l1(u64::from(addr), &bytes).is_ok());
}

fn tile() -> (Tile, Noc) {
    (
        Tile::new(NodeId::new(1, 2), Strictness::Strict),
        Noc::blackhole(),
    )
}

fn run(t: &mut Tile, noc: &mut Noc, from: u64, cycles: u64) -> Result<(), ChipError> {
    for c in from..from + cycles {
        t.step_cores(c, noc)?;
        t.step_coprocessor(c)?;
    }
    Ok(())
}

fn release_brisc(t: &mut Tile) {
    assert!(t.write_reg(0xFFB1_21B0, 0x47000, 0).is_ok());
}

/// SoftReset.md "RISCV soft reset": held cores do not run; on release T_i/NC start at their
/// reset-PC register when the override bit is set, else at 0x6000/0xA000/0xE000/0x12000; B at 0.
#[test]
fn soft_reset_release_uses_reset_pc_override() {
    let (mut t, mut noc) = tile();
    let mut b = Vec::new();
    b.extend(store(0xFFB1_2228, 0x100)); // TRISC0_RESET_PC
    b.extend(store(0xFFB1_2234, 0b001)); // override T0 only
    b.extend(store(0xFFB1_2238, 0x200)); // NCRISC_RESET_PC
    b.extend(store(0xFFB1_223C, 1));
    b.extend(store(0xFFB1_21B0, 0)); // release everyone
    b.push(spin());
    load_prog(&mut t, 0, &b);
    let mut p = store(0x1000, 0x11);
    p.push(spin());
    load_prog(&mut t, 0x100, &p); // T0 (override)
    let mut p = store(0x1004, 0x22);
    p.push(spin());
    load_prog(&mut t, 0x200, &p); // NC (override)
    let mut p = store(0x1008, 0x33);
    p.push(spin());
    load_prog(&mut t, 0xA000, &p); // T1 default
    let mut p = store(0x100C, 0x44);
    p.push(spin());
    load_prog(&mut t, 0xE000, &p); // T2 default

    // Nothing runs while everything is held.
    assert!(run(&mut t, &mut noc, 0, 10).is_ok());
    assert!(Core::ALL
        .iter()
        .all(|&c| t.core_state(c) == CoreState::Reset));
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 10, 60).is_ok());
    for (addr, v) in [
        (0x1000, 0x11),
        (0x1004, 0x22),
        (0x1008, 0x33),
        (0x100C, 0x44),
    ] {
        assert_eq!(t.read_l1_u32(addr).ok(), Some(v), "L1 0x{addr:x}");
    }
    assert!(Core::ALL.iter().all(|&c| t.releases(c) == 1));
    assert_eq!(t.pc(Core::Trisc0) & !0xFF, 0x100);
    assert_eq!(t.pc(Core::Trisc1) & !0xFF, 0xA000);
}

/// SoftReset.md: entering soft reset stops a core; leaving it restarts it from its reset pc
/// with fresh registers.
#[test]
fn reasserting_reset_stops_and_restarts_a_core() {
    let (mut t, mut noc) = tile();
    load_prog(&mut t, 0, &[spin()]);
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 0, 5).is_ok());
    assert_eq!(t.core_state(Core::Brisc), CoreState::Running);
    assert!(t.write_reg(0xFFB1_21B0, 0x47800, 5).is_ok());
    assert_eq!(t.core_state(Core::Brisc), CoreState::Reset);
    release_brisc(&mut t);
    assert_eq!(t.releases(Core::Brisc), 2);
    assert_eq!(t.pc(Core::Brisc), 0);
}

/// PushTensixInstruction.md: "RISCV NC cannot push instructions" — on a strict tile an
/// undefined-behaviour error naming tile, core, pc, address and width.
#[test]
fn ncrisc_push_is_a_typed_error() {
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFB1_2238, 0x300);
    b.extend(store(0xFFB1_223C, 1));
    b.extend(store(0xFFB1_21B0, 0x07000)); // release NC too (clear bit 18)
    b.push(spin());
    load_prog(&mut t, 0, &b);
    let mut nc = li(T0, 0xFFE4_0000);
    nc.push(sw(0, T0));
    load_prog(&mut t, 0x300, &nc);
    release_brisc(&mut t);
    let e = match run(&mut t, &mut noc, 0, 50) {
        Err(e) => e,
        Ok(()) => panic!("NCRISC push was accepted"),
    };
    assert_eq!(e.kind, ErrorKind::Undefined);
    assert_eq!(e.loc.core, Some(Core::Ncrisc));
    assert_eq!(e.loc.tile, Some((1, 2)));
    assert_eq!(e.loc.addr, Some(0xFFE4_0000));
    assert_eq!(e.loc.width, Some(4));
    assert_eq!(e.loc.pc, Some(0x308));
    assert_eq!(t.core_state(Core::Ncrisc), CoreState::Faulted);
}

/// docs/execution-model.md EM-7: permissive mode logs once per address, reads 0 and carries on.
#[test]
fn permissive_mode_warns_once_and_reads_zero() {
    let (mut t, mut noc) = tile();
    t.set_strictness(Strictness::Permissive);
    let mut b = li(T0, 0xFFB0_5000); // gap after local RAM: unmapped
    b.extend(li(T2, 0x2000));
    b.push(lw(T1, T0)); // loop: t1 = *unmapped; *0x2000 = t1 (twice)
    b.push(sw(T1, T2));
    b.push(lw(T1, T0));
    b.push(sw(T1, T2));
    b.push(spin());
    load_prog(&mut t, 0, &b);
    assert!(t.write_l1_u32(0x2000, 0xDEAD).is_ok());
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 0, 20).is_ok());
    assert_eq!(t.read_l1_u32(0x2000).ok(), Some(0));
    assert_eq!(t.warnings().len(), 1);
    assert_eq!(t.warnings()[0].loc.addr, Some(0xFFB0_5000));
}

/// BabyRISCV/README.md "Frontend": instructions can only be fetched from L1.
#[test]
fn fetch_outside_l1_is_an_access_fault() {
    let (mut t, mut noc) = tile();
    let mut b = li(T0, 0xFFB0_0000);
    b.push(Insn::Jalr {
        rd: 0,
        rs1: T0,
        offset: 0,
    });
    load_prog(&mut t, 0, &b);
    release_brisc(&mut t);
    let e = run(&mut t, &mut noc, 0, 10).err();
    assert_eq!(e.as_ref().map(|e| e.kind), Some(ErrorKind::AccessRule));
    assert_eq!(e.and_then(|e| e.loc.addr), Some(0xFFB0_0000));
}

/// PCBufs.md: T_i's read of PC_BUF_BASE blocks until B pushes; B's read blocks until the FIFO
/// is empty, T_i is waiting on it and Tensix T_i is idle.
#[test]
fn pc_buffer_reads_block() {
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFB1_2228, 0x400);
    b.extend(store(0xFFB1_2234, 1));
    b.extend(store(0xFFB1_21B0, 0x46000)); // release T0 (bit 12) too, keep B out of reset
    for _ in 0..20 {
        b.push(Insn::OpImm {
            op: ImmOp::Addi,
            rd: 0,
            rs1: 0,
            imm: 0,
        }); // let T0 block first
    }
    b.extend(store(0xFFE8_0000, 0x55)); // push to PCBuf 0
    b.push(lw(T2, T0)); // B side read: waits for T0 to wait again
    b.extend(store(0x2000, 1));
    b.push(spin());
    load_prog(&mut t, 0, &b);
    let mut t0 = li(T0, 0xFFE8_0000);
    t0.extend(li(T2, 0x2004));
    t0.push(lw(T1, T0));
    t0.push(sw(T1, T2));
    t0.push(lw(T1, T0)); // blocks forever
    t0.push(spin());
    load_prog(&mut t, 0x400, &t0);
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 0, 30).is_ok());
    assert_eq!(t.core_state(Core::Trisc0), CoreState::Stalled);
    assert_eq!(t.read_l1_u32(0x2004).ok(), Some(0));
    assert!(run(&mut t, &mut noc, 30, 40).is_ok());
    assert_eq!(t.read_l1_u32(0x2004).ok(), Some(0x55));
    assert_eq!(t.read_l1_u32(0x2000).ok(), Some(1));
    assert_eq!(t.core_state(Core::Trisc0), CoreState::Stalled);
    let m = t.last_mmio(Core::Trisc0);
    assert_eq!(m.map(|m| (m.addr, m.stalled)), Some((0xFFE8_0000, true)));
}

/// Mailboxes.md: a read of an empty mailbox blocks until the other core writes it.
#[test]
fn mailbox_read_blocks_until_written() {
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFB1_2228, 0x400);
    b.extend(store(0xFFB1_2234, 1));
    b.extend(store(0xFFB1_21B0, 0x46000));
    for _ in 0..10 {
        b.push(Insn::OpImm {
            op: ImmOp::Addi,
            rd: 0,
            rs1: 0,
            imm: 0,
        });
    }
    b.extend(store(0xFFEC_1000, 0x77)); // B -> T0
    b.push(spin());
    load_prog(&mut t, 0, &b);
    let mut t0 = li(T0, 0xFFEC_0000); // T0 reads B -> T0
    t0.extend(li(T2, 0x2008));
    t0.push(lw(T1, T0));
    t0.push(sw(T1, T2));
    t0.push(spin());
    load_prog(&mut t, 0x400, &t0);
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 0, 20).is_ok());
    assert_eq!(t.read_l1_u32(0x2008).ok(), Some(0));
    assert!(run(&mut t, &mut noc, 20, 30).is_ok());
    assert_eq!(t.read_l1_u32(0x2008).ok(), Some(0x77));
}

/// PushTensixInstruction.md: B pushes to any thread (after the MOP expander), a TRISC storing to
/// INSTRN1/2_BUF_BASE would hang — an error here.
#[test]
fn instruction_push_rules() {
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFE6_0000, 0x0200_0000); // NOP to T2 through B's path
    b.extend(store(0xFFB1_222C, 0x400));
    b.extend(store(0xFFB1_2234, 2));
    b.extend(store(0xFFB1_21B0, 0x45000)); // release T1 (bit 13)
    b.push(spin());
    load_prog(&mut t, 0, &b);
    let mut t1 = li(T0, 0xFFE4_0000);
    t1.extend(li(T1, 0x0200_0000));
    t1.push(sw(T1, T0)); // own thread: fine
    t1.extend(li(T0, 0xFFE5_0000));
    t1.push(sw(T1, T0)); // INSTRN1_BUF_BASE from a TRISC: error
    load_prog(&mut t, 0x400, &t1);
    release_brisc(&mut t);
    let e = run(&mut t, &mut noc, 0, 60).err();
    assert_eq!(e.as_ref().and_then(|e| e.loc.core), Some(Core::Trisc1));
    assert_eq!(e.and_then(|e| e.loc.addr), Some(0xFFE5_0000));
}

/// docs/execution-model.md: decoded code is invalidated when any agent overwrites it — here BRISC
/// patches the loop TRISC0 is spinning in.
#[test]
fn cross_core_code_patch_is_seen() {
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFB1_2228, 0x400);
    b.extend(store(0xFFB1_2234, 1));
    b.extend(store(0xFFB1_21B0, 0x46000));
    for _ in 0..10 {
        b.push(Insn::OpImm {
            op: ImmOp::Addi,
            rd: 0,
            rs1: 0,
            imm: 0,
        });
    }
    // Patch T0's `j .` at 0x40C into `sw t1, 0(t0)` ... then it falls into the next spin.
    b.extend(store(0x40C, encode(&sw(T1, T0))));
    b.push(spin());
    load_prog(&mut t, 0, &b);
    let mut t0 = li(T0, 0x2010);
    t0.push(Insn::OpImm {
        op: ImmOp::Addi,
        rd: T1,
        rs1: 0,
        imm: 9,
    });
    t0.push(spin()); // 0x40C
    t0.push(spin());
    load_prog(&mut t, 0x400, &t0);
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 0, 60).is_ok());
    assert_eq!(t.read_l1_u32(0x2010).ok(), Some(9));
}

/// Reads the wall clock's low word (lui+addi, then the load at pc 8), stores it at `at`
/// (lui+addi, then the store at pc 20), then spins.
fn wall_clock_to_l1(at: u32) -> Vec<Insn> {
    let mut b = li(T0, 0xFFB1_21F0);
    b.push(lw(T1, T0));
    b.extend(li(T2, at));
    b.push(sw(T1, T2));
    b.push(spin());
    b
}

/// DebugTimestamper.md: the wall clock reads the chip cycle.
#[test]
fn wall_clock_reads_the_cycle() {
    let (mut t, mut noc) = tile();
    load_prog(&mut t, 0, &wall_clock_to_l1(0x2000));
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 1000, 10).is_ok());
    // lui+addi (2) then the load executes in the third cycle: cycle 1002.
    assert_eq!(t.read_l1_u32(0x2000).ok(), Some(1002));
}

/// BabyRISCV/README.md memory map: MOP expander configuration at 0xFFB80000 is per TRISC (the
/// writing TRISC selects the thread) and unmapped for RISCV B.
#[test]
fn mop_cfg_is_routed_by_the_writing_trisc() {
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFB1_2230, 0x400); // TRISC2_RESET_PC
    b.extend(store(0xFFB1_2234, 4));
    b.extend(store(0xFFB1_21B0, 0x43000)); // release T2 (bit 14)
    b.push(spin());
    load_prog(&mut t, 0, &b);
    let mut t2 = store(0xFFB8_0004, 0xABCD);
    t2.push(spin());
    load_prog(&mut t, 0x400, &t2);
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 0, 40).is_ok());
    let cp = t.coprocessor();
    assert_eq!(cp.mop_expander(2).and_then(|m| m.cfg(1)), Some(0xABCD));
    assert_eq!(cp.mop_expander(0).and_then(|m| m.cfg(1)), Some(0));

    let (mut t, mut noc) = tile();
    let mut b = store(0xFFB8_0004, 1);
    b.push(spin());
    load_prog(&mut t, 0, &b);
    release_brisc(&mut t);
    let e = run(&mut t, &mut noc, 0, 20).err();
    assert_eq!(
        e.map(|e| (e.kind, e.loc.core)),
        Some((ErrorKind::Unmapped, Some(Core::Brisc)))
    );
}

/// docs/execution-model.md EM-7: an illegal instruction stops the chip in strict mode; in
/// permissive mode only the core that reached it stops, with one warning naming it, and the
/// tile's other cores go on.
#[test]
fn illegal_instruction_stops_only_its_core_when_permissive() {
    const ILLEGAL: u32 = 0xFFFF_FFFF;
    for strictness in [Strictness::Strict, Strictness::Permissive] {
        let (mut t, mut noc) = tile();
        t.set_strictness(strictness);
        // BRISC (reset pc 0): a word that is no instruction.
        assert!(t.write_l1(0, &ILLEGAL.to_le_bytes()).is_ok());
        // TRISC0 (reset pc 0x6000): stores a value, then spins.
        let mut t0 = store(0x3_0000, 0x1234);
        t0.push(spin());
        load_prog(&mut t, 0x6000, &t0);
        // Release BRISC and TRISC0.
        assert!(t.write_reg(0xFFB1_21B0, 0x46000, 0).is_ok());
        let r = run(&mut t, &mut noc, 0, 50);
        assert_eq!(t.core_state(Core::Brisc), CoreState::Faulted);
        match strictness {
            Strictness::Strict => {
                let e = r.expect_err("strict: the illegal instruction stops the chip");
                assert_eq!(
                    (e.kind, e.loc.core, e.loc.pc, e.loc.insn),
                    (
                        ErrorKind::Exception,
                        Some(Core::Brisc),
                        Some(0),
                        Some(ILLEGAL)
                    ),
                    "{e}"
                );
            }
            Strictness::Permissive => {
                assert!(r.is_ok(), "permissive: the chip goes on: {r:?}");
                assert_eq!(t.read_l1_u32(0x3_0000).ok(), Some(0x1234), "TRISC0 ran");
                assert_eq!(t.core_state(Core::Trisc0), CoreState::Running);
                let w = t.warnings();
                assert_eq!(w.len(), 1, "{w:?}");
                assert_eq!(
                    (w[0].kind, w[0].loc.core, w[0].loc.pc, w[0].loc.insn),
                    (
                        ErrorKind::Exception,
                        Some(Core::Brisc),
                        Some(0),
                        Some(ILLEGAL)
                    )
                );
            }
        }
    }
}

/// Fetching outside L1 faults even in permissive mode: there is no instruction to make up.
#[test]
fn permissive_mode_still_faults_fetches() {
    let (mut t, mut noc) = tile();
    t.set_strictness(Strictness::Permissive);
    let mut b = li(T0, 0xFFB0_0000);
    b.push(Insn::Jalr {
        rd: 0,
        rs1: T0,
        offset: 0,
    });
    load_prog(&mut t, 0, &b);
    release_brisc(&mut t);
    assert_eq!(
        run(&mut t, &mut noc, 0, 10).err().map(|e| e.kind),
        Some(ErrorKind::AccessRule)
    );
}

/// PushTensixInstruction.md: INSTRN_BUF_STATUS reads "not full" and "empty" for idle threads.
#[test]
fn instruction_buffer_status_when_idle() {
    let (mut t, mut noc) = tile();
    let mut b = li(T0, 0xFFB1_20A8);
    b.push(lw(T1, T0));
    b.extend(li(T2, 0x2000));
    b.push(sw(T1, T2));
    b.push(spin());
    load_prog(&mut t, 0, &b);
    release_brisc(&mut t);
    assert!(run(&mut t, &mut noc, 0, 20).is_ok());
    assert_eq!(t.read_l1_u32(0x2000).ok(), Some(0x77));
}

/// SoftReset.md "RISCV soft reset": upon entering soft reset, "for RISCV T_i, any Tensix
/// instructions either in the T_i MOP Expander or in the FIFO preceding the MOP Expander will be
/// discarded"; other threads' queues are untouched.
#[test]
fn trisc_entering_soft_reset_discards_its_tensix_fifo() {
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFB1_2228, 0x400); // TRISC0_RESET_PC
    b.extend(store(0xFFB1_222C, 0x800)); // TRISC1_RESET_PC
    b.extend(store(0xFFB1_2234, 0b011));
    b.extend(store(0xFFB1_21B0, 0x44000)); // release T0 and T1 (bits 12, 13)
    b.push(spin());
    load_prog(&mut t, 0, &b);
    // Each TRISC pushes three NOPs into its own thread, then spins.
    for pc in [0x400, 0x800] {
        let mut p = li(T0, 0xFFE4_0000);
        p.extend(li(T1, 0x0200_0000));
        p.extend([sw(T1, T0), sw(T1, T0), sw(T1, T0), spin()]);
        load_prog(&mut t, pc, &p);
    }
    release_brisc(&mut t);
    // Step only the harts, so the pushed instructions stay queued in the FIFOs.
    for c in 0..80 {
        assert!(t.step_cores(c, &mut noc).is_ok());
    }
    assert_eq!(t.coprocessor().fifo_len(0), 3);
    assert_eq!(t.coprocessor().fifo_len(1), 3);
    // Hold T0 in reset again (bit 12), leave T1 running.
    assert!(t.write_reg(0xFFB1_21B0, 0x44000 | (1 << 12), 80).is_ok());
    assert_eq!(t.core_state(Core::Trisc0), CoreState::Reset);
    assert_eq!(t.coprocessor().fifo_len(0), 0);
    assert!(t.coprocessor().mop_idle(0));
    assert_eq!(t.coprocessor().fifo_len(1), 3);
}

/// Dst.md "RISCV access to Dst", BackendConfiguration.md, ScalarUnit.md "RISCV access to
/// GPRs": the harts' windows read and write the coprocessor's own state.
#[test]
fn riscv_windows_reach_dst_config_and_gprs() {
    let (mut t, mut noc) = tile();
    let mut b = Vec::new();
    b.extend(store(0xFFB1_2228, 0x100)); // TRISC0_RESET_PC
    b.extend(store(0xFFB1_2234, 0b001));
    b.extend(store(0xFFEF_0000 + 4 * 10, 0x1234_5678)); // Config[0][10]
    b.extend(store(0xFFE0_0000 + 4 * (64 + 3), 0xaaaa)); // B's view: GPRs[1][3]
    b.extend(store(0xFFB1_21B0, 0x46000)); // release T0 only (T1, T2, NC held)
    b.push(spin());
    load_prog(&mut t, 0, &b);
    // T0: Dst32b[0][2] = 1.5f + 1 ulp (fmt 0 = FP32, the reset value), GPRs[0][5] = 0x55,
    // then read Dst back into L1 0x2000.
    let mut p = store(0xFFBD_8000 + 8, 0x3fc0_0001);
    p.extend(store(0xFFE0_0000 + 4 * 5, 0x55));
    p.extend(li(T0, 0xFFBD_8008));
    p.push(lw(T2, T0));
    p.extend(li(T0, 0x2000));
    p.push(sw(T2, T0));
    p.push(spin());
    load_prog(&mut t, 0x100, &p);
    release_brisc(&mut t);
    if let Err(e) = run(&mut t, &mut noc, 0, 200) {
        panic!("{e}");
    }
    let st = t.coprocessor().state();
    assert_eq!(st.cfg.word(0, 10), Some(0x1234_5678));
    assert_eq!(st.gprs[1][3], 0xaaaa);
    assert_eq!(st.gprs[0][5], 0x55);
    // Dst32b FP32 layout: ManHi 0x40 at 30..24, Exp 0x7f at 23..16; low half 8 rows on.
    assert_eq!(st.dst.bits()[0][2], 0x407f);
    assert_eq!(st.dst.bits()[8][2], 0x0001);
    assert_eq!(t.read_l1_u32(0x2000).ok(), Some(0x3fc0_0001));
}

/// docs/execution-model.md EM-7 holds for the coprocessor too: an instruction's undefined
/// behaviour (BITWOPDMAREG's reserved mode 3) that BRISC pushes stops a strict tile with a
/// Tensix error naming the tile and the word; a permissive tile records it once as a tile
/// warning and the thread goes on to the next instruction.
#[test]
fn permissive_mode_reaches_the_coprocessor() {
    use bhemu_isa::tensix::{assemble, Arch};
    let bad = assemble(Arch::Blackhole, "ttbitwopdmareg 0, 3, 3, 5, 2").unwrap();
    let or = assemble(Arch::Blackhole, "ttbitwopdmareg 0, 1, 4, 5, 2").unwrap();
    let start = |t: &mut Tile| {
        let gprs = &mut t.coprocessor_mut().state_mut().gprs[0];
        (gprs[2], gprs[5]) = (0b1100, 0b1010);
        let mut b = store(0xFFE4_0000, bad); // BRISC's push to thread 0
        b.extend(store(0xFFE4_0000, bad));
        b.extend(store(0xFFE4_0000, or));
        b.push(spin());
        load_prog(t, 0, &b);
        release_brisc(t);
    };

    let (mut t, mut noc) = tile();
    start(&mut t);
    let e = run(&mut t, &mut noc, 0, 80).err();
    assert_eq!(e.as_ref().map(|e| e.kind), Some(ErrorKind::Tensix));
    assert_eq!(e.as_ref().and_then(|e| e.loc.tile), Some((1, 2)));
    assert_eq!(e.and_then(|e| e.loc.insn), Some(bad));
    assert_eq!(
        t.coprocessor().state().gprs[0][4],
        0,
        "strict: stopped before the OR"
    );

    let (mut t, mut noc) = tile();
    t.set_strictness(Strictness::Permissive);
    start(&mut t);
    assert!(run(&mut t, &mut noc, 0, 80).is_ok());
    assert_eq!(t.coprocessor().dispatched(), [3, 0, 0]);
    assert_eq!(t.coprocessor().state().gprs[0][4], 0b1110, "the OR ran");
    assert_eq!(t.warnings().len(), 1, "reported once: {:?}", t.warnings());
    assert_eq!(t.warnings()[0].kind, ErrorKind::Tensix);
    assert_eq!(t.warnings()[0].loc.insn, Some(bad));
    assert_eq!(t.warnings()[0].loc.tile, Some((1, 2)));
    // A tile made permissive from the start (as `Chip::new` makes them) behaves the same.
    let mut t = Tile::new(NodeId::new(1, 2), Strictness::Permissive);
    start(&mut t);
    assert!(run(&mut t, &mut noc, 0, 80).is_ok());
    assert_eq!(t.coprocessor().state().gprs[0][4], 0b1110);
}

/// docs/libttsim-abi.md "Tensix faults": a report about a Tensix instruction names the pc of
/// the RISC-V store that pushed it; for an instruction a REPLAY (or MOP) produced, the pc of
/// the store that pushed the REPLAY (MOP).
#[test]
fn tensix_reports_name_the_pc_that_pushed_the_instruction() {
    use bhemu_isa::tensix::{assemble, Arch};
    let asm = |s: &str| assemble(Arch::Blackhole, s).unwrap();
    let bad = asm("ttbitwopdmareg 0, 3, 3, 5, 2"); // reserved mode 3: undefined
                                                   // BRISC pushes it directly: its second store (pc 0x10, after li t0 / li t1).
    let (mut t, mut noc) = tile();
    let mut b = store(0xFFE4_0000, bad);
    b.push(spin());
    load_prog(&mut t, 0, &b);
    release_brisc(&mut t);
    let e = run(&mut t, &mut noc, 0, 80).expect_err("strict: undefined behaviour stops");
    assert_eq!((e.loc.insn, e.loc.pc), (Some(bad), Some(0x10)), "{e}");

    // TRISC0 records it into the replay buffer (not executed), then plays it back: the report
    // names the pc of the store that pushed the playing REPLAY (0x6000 + 2 * 20 + 16).
    for strictness in [Strictness::Strict, Strictness::Permissive] {
        let (mut t, mut noc) = tile();
        t.set_strictness(strictness);
        let mut t0 = store(0xFFE4_0000, asm("ttreplay 0, 1, 0, 1"));
        t0.extend(store(0xFFE4_0000, bad));
        t0.extend(store(0xFFE4_0000, asm("ttreplay 0, 1, 0, 0")));
        t0.push(spin());
        load_prog(&mut t, 0x6000, &t0);
        assert!(t.write_reg(0xFFB1_21B0, 0x46800, 0).is_ok()); // release TRISC0 only
        let r = run(&mut t, &mut noc, 0, 120);
        let e = match strictness {
            Strictness::Strict => r.expect_err("strict: undefined behaviour stops"),
            Strictness::Permissive => {
                assert!(r.is_ok(), "{r:?}");
                assert_eq!(t.warnings().len(), 1, "{:?}", t.warnings());
                t.warnings()[0].clone()
            }
        };
        assert_eq!(
            (e.loc.thread, e.loc.insn, e.loc.pc),
            (Some(0), Some(bad), Some(0x6038)),
            "{e}"
        );
    }
}

mod debug_windows;

/// docs/core-timing.md CT-1, CT-10: under the pipeline timing a core waiting in EX1 is running,
/// not stalled — the chip's deadlock check (nothing can change any more) must not fire while
/// the only running core waits for its own load — and the wall clock it reads is the cycle
/// the load executed, its use seven cycles later.
#[test]
fn ct10_a_core_waiting_on_its_pipeline_is_running_and_never_quiescent() {
    let (mut t, mut noc) = tile();
    t.set_core_timing(bhemu_rv::CoreTiming::Pipeline);
    load_prog(&mut t, 0, &wall_clock_to_l1(0x2000));
    release_brisc(&mut t);
    let mut waited = 0;
    for c in 1000..1020 {
        assert!(t.step_cores_reference(c, &mut noc).is_ok());
        assert!(t.step_coprocessor(c).is_ok());
        assert_eq!(t.core_state(Core::Brisc), CoreState::Running, "cycle {c}");
        assert!(!t.quiescent(), "cycle {c}");
        if t.pc(Core::Brisc) == 4 * 5 {
            waited += 1;
        }
    }
    // lui+addi (2), the load in the third cycle (1002), `li 0x2000` (lui+addi), then the
    // store at pc 20 waits for the load's value until 1002 + 7.
    assert_eq!(t.read_l1_u32(0x2000).ok(), Some(1002));
    assert!(waited >= 5, "the store waited {waited} cycles at its pc");
}

/// docs/execution-model.md EM-31: a coprocessor in a quiet stretch (an instruction counting
/// down to its retirement, nothing else to do) is counted, not computed, on the fast schedule;
/// it stays busy for exactly the cycles it does when every cycle is computed (idleness depends
/// on the cycle: an instruction whose retirement changes nothing is done at its `done_at`), and
/// shows the same units occupied and the same STALLWAIT conditions after every cycle.
#[test]
fn em31_a_quiet_stretch_keeps_the_coprocessor_busy_exactly_as_long_as_every_cycle_would() {
    use bhemu_isa::tensix::{assemble, Arch};
    use bhemu_tensix::PushSource;
    let mut longest = 0;
    for line in [
        "ttzeroacc 0, 0, 0, 0, 0",
        "ttloadind 0, 0, 0, 0, 0",
        "ttwrcfg 4, 0, 124",
        "ttsfpnop",
    ] {
        let word = assemble(Arch::Blackhole, line).expect("the test's line assembles");
        let (mut fast, _) = tile();
        let (mut every, _) = tile();
        for t in [&mut fast, &mut every] {
            assert!(t.p.cp.push(0, PushSource::Trisc, word).is_ok());
            t.p.cp_active = true;
        }
        let mut busy = 0;
        for c in 0..40 {
            assert!(fast.step_coprocessor(c).is_ok());
            assert!(every.step_coprocessor_every_cycle(c).is_ok());
            assert_eq!(
                fast.coprocessor_busy(),
                every.coprocessor_busy(),
                "{line}: busy after cycle {c}"
            );
            assert_eq!(
                fast.p.cp.unit_occupancy(),
                every.p.cp.unit_occupancy(),
                "{line}: units after cycle {c}"
            );
            assert_eq!(
                fast.p.cp.conditions(0),
                every.p.cp.conditions(0),
                "{line}: {c}"
            );
            busy += u32::from(fast.coprocessor_busy());
        }
        longest = longest.max(busy);
    }
    // LOADIND's load tail makes a stretch of several cycles (else the test proves nothing).
    assert!(
        longest >= 5,
        "the longest busy stretch was {longest} cycles"
    );
}
