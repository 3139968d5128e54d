//! Systems of several Blackhole chips (docs/multi-chip.md): which chips a system has, who each
//! chip is (what its ARC telemetry and its Ethernet cores report), and which Ethernet channels
//! join them.
//!
//! A system is N full chips on one clock. Each is its own [`crate::Chip`], built with its
//! [`Member`]; what joins them is the Ethernet links ([`Link`]), which the code that clocks
//! the chips (the PCIe face of `libttsim.so`, `bhemu boot`) serves between cycles.
//!
//! The systems:
//! * `p150`: one chip, as a single-chip build has always been (MC-1);
//! * `p300`: two chips on one card, joined by two links, channels 2 and 3 of the chip at ASIC
//!   location 0 to channels 9 and 8 of the one at location 1 (MC-4);
//! * `galaxy`: 32 chips in an 8 × 4 mesh, two channels per neighbour ([`galaxy`], MC-8).
//!
//! Board ids carry the board type in bits 36–55 (tt-umd `board_upi_map`): 0x40 p150, 0x44
//! p300, 0x47 Blackhole Galaxy.
use crate::error::{ChipError, ErrorKind};

pub mod galaxy;
pub mod lockstep;
pub mod wires;

pub use wires::{Wires, LINK_LATENCY};

/// Ethernet channels of a Blackhole chip (docs/blackhole-facts.md).
pub const ETH_CHANNELS: usize = 14;

/// The environment variable naming the system (`libttsim_init`, `bhemu boot`).
pub const SYSTEM_ENV: &str = "BHEMU_SYSTEM";

/// Which system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SystemKind {
    #[default]
    P150,
    P300,
    Galaxy,
}

/// One end of a link: a chip of the system and one of its Ethernet channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Port {
    pub chip: u32,
    pub channel: u8,
}

/// A bidirectional Ethernet link between two ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    pub a: Port,
    pub b: Port,
}

/// Who a chip is within its system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Index in the system: the PCI device number and the chip id the host enumerates.
    pub chip: u32,
    pub board_id: u64,
    /// Position of the ASIC on its board (0 or 1 on a p300).
    pub asic_location: u32,
    /// Telemetry `PCIE_USAGE`: 2 bits per PCIe tile, 1 = endpoint.
    pub pcie_usage: u32,
    /// Ethernet channels present (telemetry `ENABLED_ETH`, one bit per channel).
    pub enabled_eth: u32,
    /// Per channel: the port at the other end of its link, and who that chip is.
    pub peers: [Option<Peer>; ETH_CHANNELS],
}

/// The far end of a channel's link as the base firmware reports it (`remote_info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer {
    pub port: Port,
    pub board_id: u64,
    pub asic_location: u32,
}

const P150_BOARD: u64 = 0x40 << 36 | 1;
const P300_BOARD: u64 = 0x44 << 36 | 1;
const GALAXY_BOARD: u64 = 0x47 << 36 | 1;
/// Channels 0–11 present, 12 and 13 harvested: the layout tt-umd accepts for a chip with
/// Ethernet in use (docs/multi-chip.md MC-3).
const ETH_TWELVE: u32 = 0x0FFF;

impl SystemKind {
    /// Parses `p150`, `p300` or `galaxy` (any case); anything else is an `InvalidInput` error
    /// that lists the choices.
    pub fn parse(s: &str) -> Result<SystemKind, ChipError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "p150" => Ok(SystemKind::P150),
            "p300" => Ok(SystemKind::P300),
            "galaxy" => Ok(SystemKind::Galaxy),
            other => Err(ChipError::new(
                ErrorKind::InvalidInput,
                format!("unknown system '{other}': choose p150, p300 or galaxy"),
            )),
        }
    }

    /// `BHEMU_SYSTEM`, default p150; an unknown name is an error.
    pub fn from_env() -> Result<SystemKind, ChipError> {
        match std::env::var(SYSTEM_ENV) {
            Ok(s) if !s.trim().is_empty() => Self::parse(&s),
            _ => Ok(SystemKind::P150),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SystemKind::P150 => "p150",
            SystemKind::P300 => "p300",
            SystemKind::Galaxy => "galaxy",
        }
    }

    pub fn chips(self) -> u32 {
        match self {
            SystemKind::P150 => 1,
            SystemKind::P300 => 2,
            SystemKind::Galaxy => galaxy::CHIPS,
        }
    }

    /// Every link of the system, each once, in order.
    pub fn links(self) -> Vec<Link> {
        let port = |chip, channel| Port { chip, channel };
        match self {
            SystemKind::P150 => Vec::new(),
            SystemKind::P300 => vec![
                Link {
                    a: port(0, 2),
                    b: port(1, 9),
                },
                Link {
                    a: port(0, 3),
                    b: port(1, 8),
                },
            ],
            SystemKind::Galaxy => galaxy::links(),
        }
    }

    fn board_id(self) -> u64 {
        match self {
            SystemKind::P150 => P150_BOARD,
            SystemKind::P300 => P300_BOARD,
            SystemKind::Galaxy => GALAXY_BOARD,
        }
    }

    /// The ASIC's location reported in telemetry: its chip number (a p300's two ASICs are at
    /// locations 0 and 1).
    fn asic_location(self, chip: u32) -> u32 {
        chip
    }

    /// Chip `chip` of the system, or an `InvalidInput` error naming it when there is none.
    pub fn member(self, chip: u32) -> Result<Member, ChipError> {
        if chip >= self.chips() {
            return Err(ChipError::new(
                ErrorKind::InvalidInput,
                format!(
                    "chip {chip}: a {} has chips 0 to {}",
                    self.name(),
                    self.chips() - 1
                ),
            ));
        }
        let mut peers = [None; ETH_CHANNELS];
        for l in self.links() {
            for (me, other) in [(l.a, l.b), (l.b, l.a)] {
                if me.chip == chip {
                    peers[usize::from(me.channel)] = Some(Peer {
                        port: other,
                        board_id: self.board_id(),
                        asic_location: self.asic_location(other.chip),
                    });
                }
            }
        }
        Ok(Member {
            chip,
            board_id: self.board_id(),
            asic_location: self.asic_location(chip),
            // The p300's location-1 ASIC has the card's PCIe link on its PCIe tile 1.
            pcie_usage: if self == SystemKind::P300 && chip == 1 {
                4
            } else {
                1
            },
            enabled_eth: if self == SystemKind::P150 {
                0
            } else {
                ETH_TWELVE
            },
            peers,
        })
    }
}

impl Default for Member {
    /// The p150: chip 0 of a one-chip system.
    fn default() -> Member {
        Member {
            chip: 0,
            board_id: P150_BOARD,
            asic_location: 0,
            pcie_usage: 1,
            enabled_eth: 0,
            peers: [None; ETH_CHANNELS],
        }
    }
}

/// Checks a link table: every port names an existing chip and an enabled channel, and no port
/// is used twice. Errors name the chip and channel.
pub fn check_links(kind: SystemKind, links: &[Link]) -> Result<(), ChipError> {
    let mut used: Vec<Port> = Vec::new();
    for l in links {
        for p in [l.a, l.b] {
            if p.chip >= kind.chips() {
                return Err(ChipError::new(
                    ErrorKind::InvalidInput,
                    format!(
                        "link to chip {} channel {}: a {} has no chip {}",
                        p.chip,
                        p.channel,
                        kind.name(),
                        p.chip
                    ),
                ));
            }
            if usize::from(p.channel) >= 12 || used.contains(&p) {
                return Err(ChipError::new(
                    ErrorKind::InvalidInput,
                    format!(
                        "link at chip {} channel {}: not an enabled channel, or used twice",
                        p.chip, p.channel
                    ),
                ));
            }
            used.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
