//! docs/wait-gate.md "wait_res": every STALLWAIT condition C0-C12 has a real signal behind it. Each
//! test makes the signal true through real unit activity, and shows a STALLWAIT waiting on it.
mod common;
use bhemu_tensix::insn::cond;
use bhemu_tensix::{Src, SrcClient};
use common::Sim;

const UNP0: &str = "ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1";
const UNP0_FLIP: &str = "ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1";
const UNP1: &str = "ttunpacr 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1";
const PACR: &str = "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1";

// C0: ThCon has a memory request outstanding for this thread (LOADIND: 3 cycles in ThCon,
// then the load result outstanding, ScalarUnit.md †).
#[test]
fn c0_thcon_memory_outstanding() {
    let mut s = Sim::new();
    s.prog(
        0,
        &[
            "ttloadind 0, 0, 0, 0, 0",
            "ttstallwait 128, 1",
            "ttwrcfg 4, 0, 124",
        ],
    );
    s.steps(6).unwrap();
    assert_ne!(s.cp.conditions(0) & cond::THCON, 0);
    assert_eq!(s.cp.conditions(1) & cond::THCON, 0, "per thread");
    s.must_run();
    let ld = s.at_asm(0, "ttloadind 0, 0, 0, 0, 0", 0);
    assert_eq!(
        s.at_asm(0, "ttstallwait 128, 1", 0),
        ld + 3,
        "ThCon holds the thread 3 cycles"
    );
    assert_eq!(
        s.at_asm(0, "ttwrcfg 4, 0, 124", 0),
        ld + 3 + 4 + 1,
        "then 4 cycles of load tail, then the lag"
    );
}

// C1: this thread has an instruction in Unpacker 0; another thread's does not count.
#[test]
fn c1_unpacker0_busy_this_thread() {
    let mut s = Sim::new();
    s.prog(0, &[UNP0, "ttstallwait 2, 2", "ttsempost 1"]);
    s.must_run();
    let u = s.at_asm(0, UNP0, 0);
    assert_eq!(s.at_asm(0, "ttsempost 1", 0), u + 4 + 1);
    let mut s = Sim::new();
    s.prog(1, &[UNP0]);
    s.prog(0, &["ttstallwait 2, 2", "ttsempost 1"]);
    s.must_run();
    assert_eq!(
        s.at_asm(0, "ttsempost 1", 0),
        s.at_asm(0, "ttstallwait 2, 2", 0) + 2
    );
}

// C2: this thread has an instruction in Unpacker 1.
#[test]
fn c2_unpacker1_busy_this_thread() {
    let mut s = Sim::new();
    s.prog(0, &[UNP1, "ttstallwait 2, 4", "ttsempost 1"]);
    s.must_run();
    assert_eq!(s.at_asm(0, "ttsempost 1", 0), s.at_asm(0, UNP1, 0) + 4 + 1);
}

// C3: this thread has an instruction in the Packer.
#[test]
fn c3_packer_busy_this_thread() {
    let mut s = Sim::new();
    s.prog(2, &[PACR, "ttstallwait 2, 8", "ttsempost 1"]);
    s.must_run();
    assert_eq!(s.at_asm(2, "ttsempost 1", 0), s.at_asm(2, PACR, 0) + 4 + 1);
}

// C4: this thread has an instruction in the Matrix Unit (MVMUL: 5 cycles, MatrixUnit.md);
// another thread's does not count.
#[test]
fn c4_matrix_unit_busy_this_thread() {
    let mut s = Sim::new();
    s.prog(
        1,
        &[
            "ttsetdvalid 3",
            "ttmvmul 0, 0, 0, 0",
            "ttstallwait 2, 16",
            "ttsempost 1",
        ],
    );
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttsempost 1", 0),
        s.at_asm(1, "ttmvmul 0, 0, 0, 0", 0) + 5 + 1
    );
    let mut s = Sim::new();
    s.prog(1, &["ttsetdvalid 3", "ttmvmul 0, 0, 0, 0"]);
    s.prog(0, &["ttnop", "ttnop", "ttstallwait 2, 16", "ttsempost 1"]);
    s.must_run();
    assert_eq!(
        s.at_asm(0, "ttsempost 1", 0),
        s.at_asm(0, "ttstallwait 2, 16", 0) + 2
    );
}

// C5: SrcA[Unpackers[0].SrcBank].AllowedClient != Unpackers. Two SETDVALIDs give both SrcA
// banks to the Matrix Unit; CLEARDVALID (from another thread) gives one back.
#[test]
fn c5_srca_unpack_bank_not_unpackers() {
    let mut s = Sim::new();
    s.prog(0, &["ttsetdvalid 1", "ttsetdvalid 1"]);
    s.prog(
        1,
        &[
            "ttnop",
            "ttnop",
            "ttnop",
            "ttstallwait 2, 32",
            "ttsempost 1",
        ],
    );
    s.prog(
        2,
        &[
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttcleardvalid 1, 0",
        ],
    );
    s.must_run();
    let clr = s.at_asm(2, "ttcleardvalid 1, 0", 0);
    assert_eq!(s.at_asm(1, "ttsempost 1", 0), clr + 2);
    assert_eq!(s.cp.bank_owner(Src::A, 0), SrcClient::Unpackers);
}

// C6: the same for SrcB.
#[test]
fn c6_srcb_unpack_bank_not_unpackers() {
    let mut s = Sim::new();
    s.prog(0, &["ttsetdvalid 2", "ttsetdvalid 2"]);
    s.prog(
        1,
        &[
            "ttnop",
            "ttnop",
            "ttnop",
            "ttstallwait 2, 64",
            "ttsempost 1",
        ],
    );
    s.prog(
        2,
        &[
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttcleardvalid 2, 0",
        ],
    );
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttsempost 1", 0),
        s.at_asm(2, "ttcleardvalid 2, 0", 0) + 2
    );
}

// C7: SrcA[MatrixUnit.SrcABank].AllowedClient != MatrixUnit — clears when an UNPACR with
// FlipSrc completes (UNPACR_Regular.md).
#[test]
fn c7_srca_math_bank_not_matrix_unit() {
    let mut s = Sim::new();
    assert_ne!(
        s.cp.conditions(1) & cond::SRCA_VLD,
        0,
        "at reset every bank is the Unpackers'"
    );
    s.prog(0, &["ttnop", "ttnop", "ttnop", UNP0_FLIP]);
    s.prog(1, &["ttstallwait 64, 128", "ttmovd2a 0, 0, 0, 0, 0"]);
    s.must_run();
    let u = s.at_asm(0, UNP0_FLIP, 0);
    assert_eq!(s.at_asm(1, "ttmovd2a 0, 0, 0, 0, 0", 0), u + 4 + 1);
}

// C8: the same for SrcB, given by SETDVALID (Miscellaneous Unit).
#[test]
fn c8_srcb_math_bank_not_matrix_unit() {
    let mut s = Sim::new();
    s.prog(0, &["ttnop", "ttnop", "ttnop", "ttnop", "ttsetdvalid 2"]);
    s.prog(1, &["ttstallwait 64, 256", "ttmovd2b 0, 0, 0, 0, 0"]);
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttmovd2b 0, 0, 0, 0, 0", 0),
        s.at_asm(0, "ttsetdvalid 2", 0) + 2
    );
}

// C9: the Mover has outstanding requests from any thread.
#[test]
fn c9_mover_busy_any_thread() {
    let mut s = Sim::new();
    s.prog(2, &["ttxmov 0, 0"]);
    s.prog(0, &["ttstallwait 2, 512", "ttsempost 1"]);
    s.must_run();
    assert_eq!(
        s.at_asm(0, "ttsempost 1", 0),
        s.at_asm(2, "ttxmov 0, 0", 0) + 4 + 1
    );
}

// C10: the thread's RISC-V core has a config write emitted but not processed (driven by the
// tile through `set_trisc_cfg_pending`).
#[test]
fn c10_trisc_cfg_pending() {
    let mut s = Sim::new();
    s.cp.set_trisc_cfg_pending(0, true);
    s.prog(0, &["ttstallwait 8, 1024", UNP0]);
    s.steps(9).unwrap();
    assert_eq!(s.log[0].len(), 1);
    assert_eq!(s.cp.conditions(1) & cond::TRISC_CFG, 0, "per thread");
    s.cp.set_trisc_cfg_pending(0, false);
    s.must_run();
    assert_eq!(s.at_asm(0, UNP0, 0), 10);
}

// C11: this thread has an instruction in the Vector Unit (SFPMAD, 2 cycles, VectorUnit.md).
#[test]
fn c11_vector_unit_busy_this_thread() {
    let mut s = Sim::new();
    s.prog(
        1,
        &[
            "ttsfpmad 0, 0, 0, 0, 0",
            "ttstallwait 2, 2048",
            "ttsempost 1",
        ],
    );
    s.step().unwrap();
    s.step().unwrap(); // SFPMAD dispatched in cycle 1
    assert_ne!(s.cp.conditions(1) & cond::SFPU, 0);
    assert_eq!(s.cp.conditions(0) & cond::SFPU, 0);
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttsempost 1", 0),
        s.at_asm(1, "ttsfpmad 0, 0, 0, 0, 0", 0) + 2 + 1
    );
}

// C12: any thread has an instruction in the Configuration Unit (STREAMWRCFG >= 5 cycles,
// BlackholeA0 ConfigurationUnit.md).
#[test]
fn c12_config_unit_busy_any_thread() {
    let mut s = Sim::new();
    s.prog(2, &["ttstreamwrcfg 0, 0, 0"]);
    s.prog(0, &["ttstallwait 2, 4096", "ttsempost 1"]);
    s.must_run();
    assert_eq!(
        s.at_asm(0, "ttsempost 1", 0),
        s.at_asm(2, "ttstreamwrcfg 0, 0, 0", 0) + 5 + 1
    );
}

// SrcASrcB.md / MVMUL.md: Matrix Unit instructions that read SrcA/SrcB wait automatically for
// their banks (C7/C8), and CLR (clear_dvalid) hands the banks back; MOVD2A does not wait.
#[test]
fn matrix_unit_auto_waits_and_clear_hands_back() {
    let mut s = Sim::new();
    s.prog(
        1,
        &["ttmovd2a 0, 0, 0, 0, 0", "ttmvmul 3, 0, 0, 0", "ttsfpnop"],
    );
    s.prog(0, &["ttnop", "ttnop", "ttnop", "ttnop", "ttsetdvalid 3"]);
    s.must_run();
    assert_eq!(
        s.at_asm(1, "ttmovd2a 0, 0, 0, 0, 0", 0),
        1,
        "MOVD2A does not wait"
    );
    assert_eq!(
        s.at_asm(1, "ttmvmul 3, 0, 0, 0", 0),
        s.at_asm(0, "ttsetdvalid 3", 0) + 1
    );
    let b = s.cp.src_banks();
    assert_eq!(
        (b.a[0], b.b[0]),
        (SrcClient::Unpackers, SrcClient::Unpackers),
        "CLR_A|CLR_B gave bank 0 back"
    );
    assert_eq!((b.math_a, b.math_b, b.unpack_a, b.unpack_b), (1, 1, 1, 1));
}

// UNPACR_Regular.md / WaitGate.md †: UNPACR starts regardless of AllowedClient and waits inside
// the unpacker (C5) until its bank is given back; meanwhile it occupies Unpacker 0 (C1).
#[test]
fn unpacr_waits_inside_unpacker_for_its_bank() {
    let mut s = Sim::new();
    s.prog(0, &["ttsetdvalid 1", "ttsetdvalid 1", UNP0, "ttsfpnop"]);
    s.prog(
        1,
        &[
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttnop",
            "ttcleardvalid 1, 0",
        ],
    );
    s.steps(8).unwrap();
    assert_eq!(
        s.log[0].len(),
        4,
        "UNPACR and the SFPNOP behind it left the gate"
    );
    assert_ne!(s.cp.conditions(0) & cond::UNPACK0, 0);
    s.must_run();
    let clr = s.at_asm(1, "ttcleardvalid 1, 0", 0);
    // Bank back at the end of clr; the unpacker starts at clr+1 and is busy 4 cycles.
    assert_eq!(s.cycle, clr + 1 + 4);
}
