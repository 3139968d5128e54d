//! The ARC firmware's telemetry table, as tt-umd's Blackhole telemetry reader reads it
//! (docs/tt-metal-on-bhemu.md "ARC telemetry").
//!
//! Two structures in ARC's CSM, whose addresses the firmware publishes in `SCRATCH_RAM_13` (the
//! table) and `SCRATCH_RAM_12` (the values):
//!
//! ```text
//! table:  u32 version, u32 entry_count, entry_count × { u16 tag, u16 index }
//! values: entry_count × u32, value of tag t at values[index(t)]
//! ```
//!
//! The tags and their meaning are tt-umd's `TelemetryTag` (tt-umd:
//! device/api/umd/device/types/telemetry.hpp). The values describe an unharvested p150 board
//! whose Ethernet ports are all disabled (see [`ENABLED_ETH`]); a chip of a p300 or Galaxy
//! reports its own board, location and channels ([`entries`], docs/multi-chip.md MC-3).

use crate::system::Member;

/// Tag numbers (tt-umd: device/api/umd/device/types/telemetry.hpp).
pub mod tag {
    pub const BOARD_ID_HIGH: u16 = 1;
    pub const BOARD_ID_LOW: u16 = 2;
    pub const ASIC_ID: u16 = 3;
    pub const HARVESTING_STATE: u16 = 4;
    pub const ASIC_TEMPERATURE: u16 = 11;
    pub const BOARD_TEMPERATURE: u16 = 13;
    pub const AICLK: u16 = 14;
    pub const AXICLK: u16 = 15;
    pub const ARCCLK: u16 = 16;
    pub const ETH_LIVE_STATUS: u16 = 21;
    pub const GDDR_STATUS: u16 = 22;
    pub const FLASH_BUNDLE_VERSION: u16 = 28;
    pub const TIMER_HEARTBEAT: u16 = 32;
    pub const ENABLED_ETH: u16 = 35;
    pub const PCIE_USAGE: u16 = 38;
    pub const ASIC_LOCATION: u16 = 52;
    pub const ASIC_ID_HIGH: u16 = 61;
    pub const ASIC_ID_LOW: u16 = 62;
}

/// Format version of the table (first word).
pub const TABLE_VERSION: u32 = 1;

/// Board id: the board type is bits 36–55 ("UPI"); 0x40 is a p150 (tt-umd:
/// device/api/umd/device/types/cluster_descriptor_types.hpp, `board_upi_map`).
pub const BOARD_ID: u64 = (0x40 << 36) | 1;

/// AICLK in MHz after power-on and in the busy state (tt-umd's Blackhole `AICLK_BUSY_VAL`), and in
/// the long-idle state (`AICLK_IDLE_VAL`): the values tt-umd waits for after an AICLK message.
pub const AICLK_BUSY_MHZ: u32 = 1350;
pub const AICLK_IDLE_MHZ: u32 = 800;

/// Enabled Ethernet ports of a p150, one bit per port (tt-umd takes the complement as the
/// harvesting mask). None: tt-umd accepts a full Blackhole with either 2 or all 14 ports harvested, and with
/// none enabled tt-metal neither loads Ethernet firmware nor waits for Ethernet cores, whose
/// RISC-V cores bhemu does not run.
pub const ENABLED_ETH: u32 = 0;

/// GDDR status: 2 bits per channel for training (bits 0–15) and BIST (bits 16–31); `0b01` is
/// "passed" (tt-umd: device/firmware/firmware_info_provider_implementation.cpp). All 8 passed.
pub const GDDR_STATUS: u32 = 0x5555_5555;

/// Firmware bundle 18.12.0, encoded major.minor.patch.pre in bytes 3..0.
pub const FLASH_BUNDLE_VERSION: u32 = (18 << 24) | (12 << 16);

/// PCIe usage: 2 bits per PCIe tile, 1 = endpoint. PCIe 0 (NOC0 (2, 0)) is the endpoint; PCIe 1
/// (11, 0) is unused, which tt-umd requires of a p150 (it harvests that tile).
pub const PCIE_USAGE: u32 = 1;

/// Simulated cycles per heartbeat tick: the heartbeat counts up as simulated time passes, so a
/// host that polls it sees a live ARC, and the same run always shows the same values.
pub const HEARTBEAT_CYCLES: u64 = 100_000;

/// The table's entries in order: (tag, value at power-on). Their index is their position.
/// Who the chip is comes from its system [`Member`] (docs/multi-chip.md MC-3): board id,
/// ASIC location and id, PCIe usage, enabled Ethernet channels (all live); the p150's member
/// gives the values above.
pub fn entries(aiclk_mhz: u32, m: &Member) -> [(u16, u32); 18] {
    [
        (tag::BOARD_ID_HIGH, (m.board_id >> 32) as u32),
        (tag::BOARD_ID_LOW, m.board_id as u32),
        (tag::ASIC_ID, m.chip + 1),
        (tag::HARVESTING_STATE, 0),
        (tag::ASIC_TEMPERATURE, 40 << 16), // 16.16 fixed point, °C
        (tag::BOARD_TEMPERATURE, 35 << 16),
        (tag::AICLK, aiclk_mhz),
        (tag::AXICLK, 900),
        (tag::ARCCLK, 800),
        (tag::ETH_LIVE_STATUS, m.enabled_eth),
        (tag::GDDR_STATUS, GDDR_STATUS),
        (tag::FLASH_BUNDLE_VERSION, FLASH_BUNDLE_VERSION),
        (tag::TIMER_HEARTBEAT, 0),
        (tag::ASIC_LOCATION, m.asic_location),
        (tag::PCIE_USAGE, m.pcie_usage),
        (tag::ENABLED_ETH, m.enabled_eth),
        (tag::ASIC_ID_HIGH, 0),
        (tag::ASIC_ID_LOW, m.chip + 1),
    ]
}

/// Index of `t` in [`entries`].
pub fn index_of(t: u16) -> Option<usize> {
    entries(0, &Member::default())
        .iter()
        .position(|&(tag, _)| tag == t)
}

/// The table's bytes (version, count, tag/index pairs).
pub fn table_bytes() -> Vec<u8> {
    let e = entries(0, &Member::default());
    let mut out = Vec::with_capacity(8 + 4 * e.len());
    out.extend_from_slice(&TABLE_VERSION.to_le_bytes());
    out.extend_from_slice(&(e.len() as u32).to_le_bytes());
    for (i, &(t, _)) in e.iter().enumerate() {
        out.extend_from_slice(&t.to_le_bytes());
        out.extend_from_slice(&(i as u16).to_le_bytes());
    }
    out
}

/// The values' bytes at cycle `now` with AICLK at `aiclk_mhz`.
pub fn value_bytes(aiclk_mhz: u32, now: u64, m: &Member) -> Vec<u8> {
    entries(aiclk_mhz, m)
        .iter()
        .flat_map(|&(t, v)| {
            let v = if t == tag::TIMER_HEARTBEAT {
                (now / HEARTBEAT_CYCLES) as u32
            } else {
                v
            };
            v.to_le_bytes()
        })
        .collect()
}
