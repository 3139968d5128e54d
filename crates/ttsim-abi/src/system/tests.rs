use super::*;
use crate::config::{BAR0_BASE, BAR2_BASE, BAR4_BASE};
use crate::tlb::{TlbEntry, WindowKind, TLB_CFG_ENTRY_BYTES, TLB_CFG_OFFSET};
use bhemu_chip::eth::{CMD_SEND_DATA, TXQ_BASE, TXQ_CMD, TXQ_DEST_ADDR, TXQ_SIZE, TXQ_START_ADDR};
use bhemu_chip::system::LINK_LATENCY;

fn p300() -> System {
    let cfg = BackendConfig {
        system: SystemKind::P300,
        ..BackendConfig::default()
    };
    System::build(&cfg, None).unwrap()
}

/// Chip `chip`'s BAR0 address of `off` (device i's BARs are device 0's plus i × 64 GiB).
fn bar0(chip: u64, off: u64) -> u64 {
    chip * (64 << 30) + BAR0_BASE + off
}

/// Points 2 MiB window `index` of chip `chip` at (x, y) `addr`, as tt-umd does (three words).
fn program(s: &mut System, chip: u64, index: usize, x: u32, y: u32, addr: u64) {
    let kind = WindowKind::of_index(index);
    let e = TlbEntry {
        local_offset: addr / kind.size(),
        x_end: x,
        y_end: y,
        ..TlbEntry::default()
    };
    let cfg = bar0(chip, TLB_CFG_OFFSET + (index * TLB_CFG_ENTRY_BYTES) as u64);
    for (i, w) in e.encode(kind).into_iter().enumerate() {
        s.mem_write(cfg + 4 * i as u64, &w.to_le_bytes()).unwrap();
    }
}

fn rd32(s: &mut System, chip: u64, index: usize, off: u64) -> u32 {
    let mut b = [0u8; 4];
    s.mem_read(bar0(chip, index as u64 * (2 << 20) + off), &mut b)
        .unwrap();
    u32::from_le_bytes(b)
}

fn wr32(s: &mut System, chip: u64, index: usize, off: u64, v: u32) -> Result<(), BackendError> {
    s.mem_write(bar0(chip, index as u64 * (2 << 20) + off), &v.to_le_bytes())
}

#[test]
fn mc2_enumeration_answers_devices_0_to_n_minus_1_then_all_ones() {
    let s = p300();
    assert_eq!(s.config_read32(0, 0), Ok(0xB140_1E52));
    assert_eq!(s.config_read32(1 << 3, 0), Ok(0xB140_1E52));
    assert_eq!(s.config_read32(2 << 3, 0), Ok(0xFFFF_FFFF));
    assert_eq!(s.config_read32(1, 0), Ok(0xFFFF_FFFF)); // function 1
}

#[test]
fn mc2_chip_i_bars_are_chip_0s_plus_i_times_64_gib() {
    let s = p300();
    let bar = |dev: u32, off: u32| {
        let lo = s.config_read32(dev << 3, off).unwrap();
        let hi = s.config_read32(dev << 3, off + 4).unwrap();
        (u64::from(hi) << 32 | u64::from(lo)) & !0xF
    };
    for (off, base) in [(0x10, BAR0_BASE), (0x18, BAR2_BASE), (0x20, BAR4_BASE)] {
        assert_eq!(bar(0, off), base);
        assert_eq!(bar(1, off), base + (64 << 30));
    }
}

#[test]
fn mc2_pci_mem_reaches_the_chip_its_address_names() {
    let mut s = p300();
    for chip in 0..2u64 {
        program(&mut s, chip, 3, 1, 2, 0);
        program(&mut s, chip, 4, 17, 12, 0); // DRAM bank 0
        wr32(&mut s, chip, 3, 0x100, 0x1000 + chip as u32).unwrap();
        wr32(&mut s, chip, 4, 0x100, 0x2000 + chip as u32).unwrap();
    }
    for chip in 0..2u64 {
        assert_eq!(rd32(&mut s, chip, 3, 0x100), 0x1000 + chip as u32);
        assert_eq!(rd32(&mut s, chip, 4, 0x100), 0x2000 + chip as u32);
    }
}

#[test]
fn mc3_each_chip_reports_its_own_telemetry() {
    let mut s = p300();
    // ARC (8, 0): the values block at CSM + 0x200 (docs/tt-metal-on-bhemu.md).
    let values = |s: &mut System, chip: u64| {
        program(s, chip, 5, 8, 0, 0x1000_0000);
        (0..18)
            .map(|i| rd32(s, chip, 5, 0x200 + 4 * i))
            .collect::<Vec<_>>()
    };
    let (v0, v1) = (values(&mut s, 0), values(&mut s, 1));
    // Entries: board id high/low, ASIC id ... ASIC location (index 13), PCIe usage, enabled eth.
    assert_eq!((v0[0], v0[1]), (0x440, 1));
    assert_eq!((v1[0], v1[1]), (0x440, 1));
    assert_eq!((v0[2], v1[2]), (1, 2));
    assert_eq!((v0[13], v1[13]), (0, 1));
    assert_eq!((v0[14], v1[14]), (1, 4));
    assert_eq!((v0[15], v1[15]), (0x0FFF, 0x0FFF));
}

/// Sends 64 bytes from chip 0 channel 2 (translated (22, 25)) to chip 1 channel 9 (29, 25).
fn send_over_the_p300_link(s: &mut System) -> Vec<u8> {
    let data: Vec<u8> = (0..64u8).map(|i| i ^ 0x5A).collect();
    program(s, 0, 6, 22, 25, 0);
    s.mem_write(bar0(0, 6 * (2 << 20) + 0x4_0000), &data)
        .unwrap();
    program(s, 0, 7, 22, 25, TXQ_BASE & !0x1F_FFFF);
    let q = TXQ_BASE & 0x1F_FFFF;
    wr32(s, 0, 7, q + TXQ_START_ADDR, 0x4_0000).unwrap();
    wr32(s, 0, 7, q + TXQ_SIZE, 64).unwrap();
    wr32(s, 0, 7, q + TXQ_DEST_ADDR, 0x5_0000).unwrap();
    wr32(s, 0, 7, q + TXQ_CMD, CMD_SEND_DATA).unwrap();
    program(s, 1, 6, 29, 25, 0);
    data
}

#[test]
fn mc6_a_send_lands_in_the_peer_l1_after_the_link_latency() {
    let mut s = p300();
    let data = send_over_the_p300_link(&mut s);
    let mut got = vec![0u8; 64];
    s.set_clock(LINK_LATENCY as u32 - 1);
    s.clock_step().unwrap();
    s.mem_read(bar0(1, 6 * (2 << 20) + 0x5_0000), &mut got)
        .unwrap();
    assert_eq!(got, vec![0; 64], "not yet: one cycle short of the latency");
    assert_eq!(s.in_flight(), 1);
    s.set_clock(1);
    s.clock_step().unwrap();
    s.mem_read(bar0(1, 6 * (2 << 20) + 0x5_0000), &mut got)
        .unwrap();
    assert_eq!(got, data);
    assert_eq!(s.in_flight(), 0);
}

#[test]
fn mc7_a_send_on_an_unlinked_channel_is_an_error_naming_chip_tile_register() {
    let mut s = p300();
    program(&mut s, 1, 7, 20, 25, TXQ_BASE & !0x1F_FFFF); // chip 1 channel 0: no link
    let e = wr32(
        &mut s,
        1,
        7,
        (TXQ_BASE & 0x1F_FFFF) + TXQ_CMD,
        CMD_SEND_DATA,
    )
    .unwrap_err();
    let line = e.to_string();
    assert!(line.contains("chip 1 Ethernet channel 0 (NOC0 (1,1)) register 0xffb90004 (ETH_TXQ_CMD) = 2: the channel has no link"), "{line}");
    assert!(line.contains("chip 1: "), "{line}");
}

#[test]
fn mc10_one_clock_runs_every_chip() {
    let mut s = p300();
    s.set_clock(25);
    s.clock_step().unwrap();
    assert_eq!(s.clock_remaining(), 0);
    for i in 0..2 {
        assert_eq!(s.device_mut(i).map(|d| d.cycle()), Some(25));
    }
}
