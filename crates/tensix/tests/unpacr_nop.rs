//! docs/tensix-datapath.md "UNPACR_NOP waits": Blackhole's clearing UNPACR_NOP waits inside its
//! unpacker until its bank is free before it clears the bank and hands it to the Matrix Unit.
mod common;
use bhemu_tensix::{Src, SrcClient};
use common::Sim;

/// UNPACR_NOP on Unpacker 1 (SrcB): Unpack_Pop 1 (clear), Stall_Clr_Cntrl (wait like
/// UNPACR), Set_Dvalid.
const NOP_B_SET_DVALID: u32 = 0x4380_0121;

#[test]
fn unpacr_nop_waits_for_its_bank() {
    let mut s = Sim::new();
    // Three hand-overs of SrcB: banks 0 and 1 go to the Matrix Unit; the third finds bank 0
    // still the Matrix Unit's and must wait for thread 1's release of it.
    s.words(0, &[NOP_B_SET_DVALID, NOP_B_SET_DVALID, NOP_B_SET_DVALID]);
    s.steps(40).unwrap();
    assert_eq!(s.cp.bank_owner(Src::B, 0), SrcClient::MatrixUnit);
    assert_eq!(s.cp.bank_owner(Src::B, 1), SrcClient::MatrixUnit);
    assert_eq!(
        s.cp.src_banks().unpack_b,
        0,
        "the third hand-over has not happened: the unpacker still points at bank 0"
    );
    // Thread 1 releases SrcB bank 0 (and moves the Matrix Unit to bank 1).
    s.prog(1, &["ttcleardvalid 2, 0"]);
    s.must_run();
    assert_eq!(
        s.cp.bank_owner(Src::B, 0),
        SrcClient::MatrixUnit,
        "handed over again"
    );
    assert_eq!(s.cp.bank_owner(Src::B, 1), SrcClient::MatrixUnit);
    assert_eq!(s.cp.src_banks().unpack_b, 1);
    assert_eq!(s.cp.src_banks().math_b, 1);
}

#[test]
fn unpacr_nop_clears_the_bank_it_hands_over_when_its_wait_ends() {
    let mut s = Sim::new();
    s.words(0, &[NOP_B_SET_DVALID, NOP_B_SET_DVALID]);
    s.steps(40).unwrap();
    // The Matrix Unit's bank 0 holds data the third UNPACR_NOP must not clear before release.
    s.cp.state_mut().src_b.write(0, 5, 3, 0x1234);
    s.words(0, &[NOP_B_SET_DVALID]);
    s.steps(40).unwrap();
    assert_eq!(
        s.cp.state().src_b.read(0, 5, 3),
        0x1234,
        "held bank untouched while waiting"
    );
    s.prog(1, &["ttcleardvalid 2, 0"]);
    s.must_run();
    assert_eq!(
        s.cp.state().src_b.read(0, 5, 3),
        0,
        "cleared once the wait ended"
    );
}
