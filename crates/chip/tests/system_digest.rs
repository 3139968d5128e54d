//! docs/multi-chip.md MC-9: a p300 (two chips clocked in lockstep, a transfer over one of its
//! Ethernet links) computes the same state and cycle counts under the reference schedule and
//! under the fast schedule, with the chips stepped one after the other or on two host threads,
//! and each chip's tiles on 1, 2 or 4 host threads (every cycle with 16 tiles with work
//! spread).
//!
//! Each of the 280 BRISCs counts down a loop whose length depends on its tile and chip, stores
//! the cycle it finished at and a flag, and spins; meanwhile the host sends 64 bytes from chip
//! 0's Ethernet channel 2 to chip 1's channel 9 through TX queue 0. The chips run in calls of
//! 3000 cycles through [`lockstep::run`].
mod common;

use bhemu_chip::eth::{
    channel_translated, TXQ_BASE, TXQ_CMD, TXQ_DEST_ADDR, TXQ_SIZE, TXQ_START_ADDR,
};
use bhemu_chip::system::{lockstep, Wires};
use bhemu_chip::{Chip, ChipConfig, ChipDigest, NocIndex, Schedule, SystemKind};
use bhemu_isa::riscv::BranchOp;
use common::*;

const STAMP: u64 = 0x30000;
const DONE: u32 = 0x30004;
const SRC: u64 = 0x4_0000;
const DST: u64 = 0x5_0000;

fn program(i: usize, chip: u32) -> Vec<u8> {
    let n = 200 + 37 * ((i as u32 * 7 + chip * 13) % 50);
    let mut p = li(T0, n);
    p.push(addi(T0, T0, -1));
    p.push(branch(BranchOp::Bne, T0, 0, -4));
    p.push(mcycle(T1));
    p.extend(li(T2, STAMP as u32));
    p.push(sw(T1, T2));
    p.extend(li(T1, 1));
    p.extend(li(T2, DONE));
    p.push(sw(T1, T2));
    p.push(spin());
    bytes(&p)
}

fn payload() -> Vec<u8> {
    (0..64u8).map(|b| b.wrapping_mul(3) ^ 0x3C).collect()
}

fn host_send(c: &mut Chip) {
    let (x, y) = channel_translated(2);
    let (x, y) = (u32::from(x), u32::from(y));
    let w = |c: &mut Chip, a: u64, v: u32| {
        c.host_write(NocIndex::Noc0, x, y, a, &v.to_le_bytes())
            .expect("TX queue register");
    };
    c.host_write(NocIndex::Noc0, x, y, SRC, &payload())
        .expect("source L1");
    w(c, TXQ_BASE + TXQ_START_ADDR, SRC as u32);
    w(c, TXQ_BASE + TXQ_SIZE, 64);
    w(c, TXQ_BASE + TXQ_DEST_ADDR, DST as u32);
    w(c, TXQ_BASE + TXQ_CMD, 2);
}

/// Per chip: its digest and cycle count; what arrived at chip 1 channel 9; cycles spread.
/// The chips are stepped on `chip_threads` host threads, each chip's tiles on `threads`.
fn run(
    schedule: Schedule,
    chip_threads: usize,
    threads: usize,
) -> (Vec<(ChipDigest, u64)>, Vec<u8>, u64) {
    let kind = SystemKind::P300;
    let mut chips: Vec<Chip> = (0..kind.chips())
        .map(|i| {
            let mut c = Chip::new(&ChipConfig {
                member: kind.member(i).expect("member"),
                ..ChipConfig::default()
            })
            .expect("chip");
            c.set_schedule(schedule).expect("schedule");
            c.set_threads(threads);
            c.set_spread_threshold(0);
            release_briscs(&mut c, |t| program(t, i));
            c
        })
        .collect();
    host_send(&mut chips[0]);
    let mut wires = Wires::new(kind);
    let done = |c: &Chip| {
        c.tiles()
            .iter()
            .all(|t| t.read_l1_u32(DONE).ok() == Some(1))
    };
    let mut steps = 0;
    while !(chips.iter().all(done) && wires.in_flight() == 0) {
        assert!(steps < 100, "{schedule:?}, {threads} threads: not done");
        let end = chips[0].cycle() + 3000;
        lockstep::run(&mut wires, &mut chips, &[end, end], chip_threads).expect("run");
        steps += 1;
    }
    let (x, y) = channel_translated(9);
    let mut got = vec![0u8; 64];
    chips[1]
        .host_read(NocIndex::Noc0, u32::from(x), u32::from(y), DST, &mut got)
        .expect("destination L1");
    let spread = chips.iter().map(Chip::spread_cycles).sum();
    let states = chips
        .iter_mut()
        .map(|c| (c.digest().expect("digest"), c.cycle()))
        .collect();
    (states, got, spread)
}

#[test]
fn mc9_p300_digest_is_the_same_for_every_schedule_and_thread_count() {
    let (reference, arrived, _) = run(Schedule::Reference, 1, 1);
    assert_eq!(arrived, payload(), "the send over the link arrived");
    for (chip_threads, threads) in [(1, 1), (1, 2), (1, 4), (2, 1), (2, 2)] {
        let (fast, arrived, spread) = run(Schedule::Fast, chip_threads, threads);
        let how = format!("chips on {chip_threads} threads, tiles on {threads}");
        assert_eq!(arrived, payload(), "{how}");
        assert_eq!(spread > 0, threads > 1, "{how}: {spread} cycles spread");
        for (chip, ((rd, rc), (fd, fc))) in reference.iter().zip(&fast).enumerate() {
            eprintln!("chip {chip}: {rc} cycles, digest {:016x}", rd.total());
            assert_eq!(rc, fc, "chip {chip}, {how}: cycle count");
            assert_eq!(
                rd.first_difference(fd),
                None,
                "chip {chip}, {how}: first differing part"
            );
        }
    }
    // The two chips ran different loops: their states differ.
    assert_ne!(reference[0].0.total(), reference[1].0.total());
}
