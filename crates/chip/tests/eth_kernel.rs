//! docs/multi-chip.md MC-13 on a whole p300: a kernel on ERISC1 of chip 0's channel 2 sends
//! 64 bytes through TX queue 0; they land in chip 1 channel 9's L1 exactly 1000 cycles (the
//! link latency) after the command, whatever the steps the system is clocked in and on how
//! many threads, and both chips' state digests (Ethernet tiles included) agree.
mod common;

use bhemu_chip::eth::{
    channel_translated, CMD_SEND_DATA, RESET_PC, SOFT_RESET, TXQ_BASE, TXQ_CMD, TXQ_DEST_ADDR,
    TXQ_SIZE, TXQ_START_ADDR,
};
use bhemu_chip::system::{lockstep, Wires, LINK_LATENCY};
use bhemu_chip::{Chip, ChipConfig, NocIndex, SystemKind};
use common::*;

const KERNEL: u32 = 0x2_0000;
const SRC: u32 = 0x4_0000;
const DST: u32 = 0x5_0000;

fn kernel() -> (Vec<u8>, u64) {
    let mut p = Vec::new();
    for (reg, v) in [
        (TXQ_START_ADDR, SRC),
        (TXQ_SIZE, 64),
        (TXQ_DEST_ADDR, DST),
        (TXQ_CMD, CMD_SEND_DATA),
    ] {
        p.extend(li(T1, v));
        p.extend(li(T2, (TXQ_BASE + reg) as u32));
        p.push(sw(T1, T2));
    }
    let cmd = p.len() as u64 - 1;
    p.push(spin());
    (bytes(&p), cmd)
}

fn payload() -> Vec<u8> {
    (0..64u8).map(|b| b.wrapping_mul(5) ^ 0x96).collect()
}

fn write(c: &mut Chip, ch: u8, addr: u64, data: &[u8]) {
    let (x, y) = channel_translated(ch);
    c.host_write(NocIndex::Noc0, u32::from(x), u32::from(y), addr, data)
        .expect("Ethernet tile write");
}

fn read(c: &mut Chip, ch: u8, addr: u64) -> Vec<u8> {
    let (x, y) = channel_translated(ch);
    let mut b = vec![0u8; 64];
    c.host_read(NocIndex::Noc0, u32::from(x), u32::from(y), addr, &mut b)
        .expect("Ethernet tile read");
    b
}

/// Clocks a p300 whose chip 0 runs the kernel in calls of `call` cycles on `threads`
/// threads; returns the first call end at which the data was in chip 1, and the digests.
fn run(call: u64, threads: usize) -> (u64, Vec<u64>) {
    let kind = SystemKind::P300;
    let mut chips: Vec<Chip> = (0..2)
        .map(|i| {
            Chip::new(&ChipConfig {
                member: kind.member(i).expect("member"),
                tiles: bhemu_chip::grid::parse_tiles("2").expect("tiles"),
                ..ChipConfig::default()
            })
            .expect("chip")
        })
        .collect();
    let (k, _) = kernel();
    write(&mut chips[0], 2, u64::from(SRC), &payload());
    write(&mut chips[0], 2, u64::from(KERNEL), &k);
    write(&mut chips[0], 2, RESET_PC[1], &KERNEL.to_le_bytes());
    write(&mut chips[0], 2, SOFT_RESET, &0u32.to_le_bytes());
    let mut wires = Wires::new(kind);
    let mut arrived = None;
    while chips[0].cycle() < 3000 {
        let end = (chips[0].cycle() + call).min(3000);
        lockstep::run(&mut wires, &mut chips, &[end, end], threads).expect("run");
        if arrived.is_none() && read(&mut chips[1], 9, u64::from(DST)) == payload() {
            arrived = Some(chips[1].cycle());
        }
    }
    let digests = chips
        .iter_mut()
        .map(|c| c.digest().expect("digest").total())
        .collect();
    (arrived.expect("the kernel's data arrived"), digests)
}

#[test]
fn mc13_a_kernel_on_an_ethernet_core_sends_to_the_peer_chip() {
    let (_, cmd) = kernel();
    // The core starts at cycle 0 and retires one instruction per cycle.
    let due = cmd + LINK_LATENCY;
    let (at, digests) = run(1, 1);
    assert_eq!(
        at, due,
        "clocked one cycle at a time, the data is there at cycle {due}"
    );
    for (call, threads) in [(7, 1), (1000, 2), (2999, 2)] {
        let (at, d) = run(call, threads);
        assert!(
            at >= due && at < due + call,
            "calls of {call}: seen at {at}"
        );
        assert_eq!(d, digests, "calls of {call} cycles on {threads} threads");
    }
}
