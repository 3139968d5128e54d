//! What the base Ethernet firmware leaves in an Ethernet tile's L1 once its link is trained:
//! the `boot_results_t` block that tt-umd's topology discovery and tt-metal's active-Ethernet
//! firmware read (tt-metal `tt_metal/hw/inc/blackhole/eth_fw_api.h`, at
//! `MEM_SYSENG_BOOT_RESULTS_BASE` = 0x7CC00; docs/multi-chip.md MC-5).
//!
//! | offset | field |
//! | --- | --- |
//! | 0x000 | `eth_status.postcode`: 0xC0DE_A000 = `eth_init()` passed |
//! | 0x004 | `eth_status.port_status`: 1 up, 2 down |
//! | 0x008 | `eth_status.train_status`: 2 = training passed |
//! | 0x204 | `eth_live_status.rx_link_up` |
//! | 0x3BC | firmware version: patch, minor, major (bytes) |
//! | 0x3C0 | `local_info` (`chip_info_t`) |
//! | 0x3E0 | `remote_info` (`chip_info_t`) |
//!
//! Beside it, the base firmware's API table (`eth_api_table_t` at `MEM_SYSENG_ETH_API_TABLE` =
//! 0x7CF00): the addresses of its `send_eth_msg`, `service_eth_msg`, `eth_link_status_check`,
//! `eth_dynamic_noc_init` and `eth_link_recovery` functions, which the active-Ethernet firmware
//! calls. bhemu runs no base firmware: each entry points at a `ret` of its own in the base
//! firmware's reserved L1 ([`API_STUBS`]), so a call returns at once (MC-13).
//!
//! `chip_info_t`: `asic_location` byte at +1, `eth_id` +2, `logical_eth_id` +3, `board_id`
//! high word +4, low word +8, `asic_id` high +20, low +24. The ASIC id of chip n is n + 1, as its
//! telemetry says.
use crate::system::{Member, Peer};

pub const BASE: usize = 0x7CC00;
pub const POSTCODE: usize = BASE;
pub const PORT_STATUS: usize = BASE + 0x4;
pub const TRAIN_STATUS: usize = BASE + 0x8;
pub const RX_LINK_UP: usize = BASE + 0x204;
pub const FW_VERSION: usize = BASE + 0x3BC;
pub const LOCAL_INFO: usize = BASE + 0x3C0;
pub const REMOTE_INFO: usize = BASE + 0x3E0;

pub const API_TABLE: usize = 0x7CF00;
pub const API_FUNCTIONS: usize = 5;
/// Where bhemu puts the API table's `ret` stubs (inside the 64 KiB the base firmware reserves at
/// the top of L1, clear of its boot results, debug buffer and mailboxes).
pub const API_STUBS: usize = 0x7E000;
/// `jalr x0, 0(ra)`.
const RET: u32 = 0x0000_8067;

pub const POSTCODE_INIT_PASS: u32 = 0xC0DE_A000;
pub const PORT_UP: u32 = 1;
pub const PORT_DOWN: u32 = 2;
pub const TRAIN_PASS: u32 = 2;
/// Base firmware 1.6.0.
pub const FW_MAJOR_MINOR_PATCH: [u8; 3] = [1, 6, 0];

fn put32(l1: &mut [u8], at: usize, v: u32) {
    l1[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn chip_info(l1: &mut [u8], at: usize, asic_location: u32, channel: u8, board: u64, chip: u32) {
    l1[at + 1] = asic_location as u8;
    l1[at + 2] = channel;
    l1[at + 3] = channel;
    put32(l1, at + 4, (board >> 32) as u32);
    put32(l1, at + 8, board as u32);
    put32(l1, at + 20, 0);
    put32(l1, at + 24, chip + 1);
}

/// Writes channel `c`'s boot results into `l1` (at least [`BASE`] + 0x400 bytes long).
pub fn write(l1: &mut [u8], me: &Member, c: u8, peer: Option<&Peer>) {
    put32(l1, POSTCODE, POSTCODE_INIT_PASS);
    for f in 0..API_FUNCTIONS {
        let stub = API_STUBS + 4 * f;
        put32(l1, stub, RET);
        put32(l1, API_TABLE + 4 * f, stub as u32);
    }
    let [major, minor, patch] = FW_MAJOR_MINOR_PATCH;
    l1[FW_VERSION..FW_VERSION + 3].copy_from_slice(&[patch, minor, major]);
    let Some(p) = peer else {
        put32(l1, PORT_STATUS, PORT_DOWN);
        return;
    };
    put32(l1, PORT_STATUS, PORT_UP);
    put32(l1, TRAIN_STATUS, TRAIN_PASS);
    put32(l1, RX_LINK_UP, 1);
    chip_info(l1, LOCAL_INFO, me.asic_location, c, me.board_id, me.chip);
    chip_info(
        l1,
        REMOTE_INFO,
        p.asic_location,
        p.port.channel,
        p.board_id,
        p.port.chip,
    );
}
