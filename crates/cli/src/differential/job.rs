//! What the parent asks a `bhemu sim-worker` child to do, and what the child answers: host
//! operations on one simulator through its C ABI, as JSON on stdin and stdout. Bytes travel
//! hex-encoded so that the job and the answer stay plain text a person can read.
use serde::{Deserialize, Serialize};

/// A sequence of host operations, run in order on one freshly initialised simulator.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Job {
    pub ops: Vec<Op>,
}

/// Where bytes live: a tile's address space at NoC (x, y), or a DRAM bank (reached through
/// the NoC coordinates of its port 0, [`dram_coords`]).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Tile { x: u32, y: u32 },
    Dram { bank: u32 },
}

/// DRAM bank `bank`'s port 0 in translated NoC coordinates (docs/blackhole-facts.md §4: x = 17 +
/// b/4, y = 12 + 3(b%4)), the coordinates `bhemu run`'s kernels use as `dram_x`, `dram_y`.
pub fn dram_coords(bank: u32) -> (u32, u32) {
    (17 + bank / 4, 12 + 3 * (bank % 4))
}

impl Place {
    /// The NoC coordinates a TLB window is pointed at.
    pub fn coords(self) -> (u32, u32) {
        match self {
            Place::Tile { x, y } => (x, y),
            Place::Dram { bank } => dram_coords(bank),
        }
    }
}

/// One L1 write of a launch.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct L1Write {
    pub addr: u32,
    pub hex: String,
}

/// What one tile is loaded with before its go signal.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TileLoad {
    pub x: u32,
    pub y: u32,
    pub writes: Vec<L1Write>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Bytes into a tile or DRAM.
    Write { at: Place, addr: u64, hex: String },
    /// The firmware boot (docs/blackhole-facts.md §9) of `tiles`, polled until DONE within
    /// `budget` reads.
    Boot {
        firmware: String,
        tiles: Vec<(u32, u32)>,
        budget: u64,
    },
    /// Every tile's writes, then the go signal of each (slow dispatch).
    Launch { tiles: Vec<TileLoad> },
    /// Polls until every tile's go signal reads DONE, within `budget` reads.
    Wait { tiles: Vec<(u32, u32)>, budget: u64 },
    /// `len` bytes back, answered under `name`.
    Read {
        name: String,
        at: Place,
        addr: u64,
        len: usize,
    },
}

/// One read's bytes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ReadBack {
    pub name: String,
    pub hex: String,
}

/// The worker's answer on success.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Answer {
    pub reads: Vec<ReadBack>,
    /// Clocks (= reads through the TLB window) the boot's poll took.
    pub boot_clocks: u64,
    /// Clocks the launches' polls took.
    pub run_clocks: u64,
    /// Every clock the job advanced, reads of outputs included.
    pub clocks: u64,
    /// Host microseconds the worker spent in the boot op: the library's work and the client's
    /// per-read work together, as a tt-umd client would see it.
    #[serde(default)]
    pub boot_us: u64,
    /// Host microseconds in the launch and wait ops.
    #[serde(default)]
    pub run_us: u64,
}

pub fn hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(D[usize::from(b >> 4)]));
        s.push(char::from(D[usize::from(b & 15)]));
    }
    s
}

/// The bytes of a hex string; the error says where it stops being hex.
pub fn unhex(s: &str) -> Result<Vec<u8>, String> {
    let digit = |c: u8, i: usize| -> Result<u8, String> {
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("not a hex digit at character {i}"))
    };
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", b.len()));
    }
    b.chunks_exact(2)
        .enumerate()
        .map(|(i, c)| Ok(digit(c[0], 2 * i)? << 4 | digit(c[1], 2 * i + 1)?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_non_hex() {
        let b = [0u8, 1, 0xAB, 0xFF];
        assert_eq!(hex(&b), "0001abff");
        assert_eq!(unhex("0001ABff"), Ok(b.to_vec()));
        assert_eq!(unhex("0g"), Err("not a hex digit at character 1".into()));
        assert_eq!(unhex("abc"), Err("odd number of hex digits (3)".into()));
    }

    #[test]
    fn a_job_reads_back_from_its_json() {
        let j = Job {
            ops: vec![
                Op::Write {
                    at: Place::Dram { bank: 0 },
                    addr: 0x10_0000,
                    hex: "00ff".into(),
                },
                Op::Read {
                    name: "out".into(),
                    at: Place::Tile { x: 1, y: 2 },
                    addr: 0x3_5000,
                    len: 2,
                },
            ],
        };
        let s = serde_json::to_string(&j).unwrap();
        assert!(
            s.contains(r#""op":"write","at":{"dram":{"bank":0}}"#),
            "{s}"
        );
        assert_eq!(serde_json::from_str::<Job>(&s).unwrap(), j);
    }

    #[test]
    fn dram_bank_ports_are_at_the_translated_coordinates() {
        assert_eq!(dram_coords(0), (17, 12));
        assert_eq!(dram_coords(3), (17, 21));
        assert_eq!(dram_coords(4), (18, 12));
    }
}
