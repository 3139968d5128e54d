//! A chip's Ethernet tiles as the host and the links see them (docs/multi-chip.md): each
//! enabled channel's 512 KiB L1, the state the base firmware leaves in it ([`boot_results`]),
//! its soft-reset register and its TX queues. bhemu runs no Ethernet firmware and no Ethernet
//! RISC-V core; the NoC does not reach these tiles, only the host (through a TLB window) and
//! the links do.
//!
//! TX queue `q` (0–2) of a tile is a block of registers at `0xFFB9_0000 + 0x1000 q`
//! (tt-metal `tt_eth_ss_regs.h` / `eth_l1_address_map.h`): `CONTROL` 0x0, `CMD` 0x4,
//! `STATUS` 0x8, `TRANSFER_START_ADDR` 0x14, `TRANSFER_SIZE_BYTES` 0x18, `DEST_ADDR` 0x1C,
//! `REMOTE_REG_DATA` 0x44. Writing `CMD` = 2 sends `SIZE` bytes of this tile's L1 from
//! `START_ADDR` to `DEST_ADDR` of the peer's L1 (raw data, 16-byte aligned); `CMD` = 4 writes
//! `REMOTE_REG_DATA` to the peer tile's address `DEST_ADDR` (a remote register write). What a
//! command sends waits in the chip's outbox ([`Ethernet::take_sends`]) until the system carries
//! it over the link; the command itself completes at once (`CMD` reads 0 again).
use crate::error::ErrorKind;
use crate::system::{Member, ETH_CHANNELS};

pub mod boot_results;

/// L1 of an Ethernet tile (tt-metal `eth_l1_address_map.h`, `MAX_L1_LOADING_SIZE`).
pub const ETH_L1_SIZE: usize = 512 * 1024;
pub const TXQ_BASE: u64 = 0xFFB9_0000;
pub const TXQ_STRIDE: u64 = 0x1000;
pub const TXQ_QUEUES: usize = 3;
pub const TXQ_CONTROL: u64 = 0x0;
pub const TXQ_CMD: u64 = 0x4;
pub const TXQ_STATUS: u64 = 0x8;
pub const TXQ_START_ADDR: u64 = 0x14;
pub const TXQ_SIZE: u64 = 0x18;
pub const TXQ_DEST_ADDR: u64 = 0x1C;
pub const TXQ_REMOTE_REG_DATA: u64 = 0x44;
pub const CMD_SEND_DATA: u32 = 2;
pub const CMD_WRITE_REG: u32 = 4;
/// `RISCV_DEBUG_REG_SOFT_RESET_0` of the tile; bits 11 and 12 hold its two RISC-V cores.
pub const SOFT_RESET: u64 = 0xFFB1_21B0;
/// Soft reset at power-on: both cores held; a linked channel's base firmware leaves core 0
/// (bit 11) released for the active firmware, as the reference simulator reports.
const SOFT_RESET_HELD: u32 = 0x1800;

/// Raw NoC 0 coordinates of Ethernet channel `c` (tt-umd `ETH_CORES_NOC0` for Blackhole: row 1,
/// channels alternating from the left and right ends towards the middle).
pub fn channel_noc0(c: u8) -> (u8, u8) {
    let x = if c.is_multiple_of(2) {
        1 + c / 2
    } else {
        16 - c / 2
    };
    (x, 1)
}

/// Translated coordinates of channel `c`: (20 + c, 25) (tt-umd's Blackhole
/// `eth_translated_coordinate_start_x/y`; with channels 12–13 harvested the order is kept).
pub fn channel_translated(c: u8) -> (u8, u8) {
    (20 + c, 25)
}

/// What a TX queue command sends over its channel's link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// Raw data into the peer tile's L1 at `dest`.
    Data { dest: u32, bytes: Vec<u8> },
    /// A 32-bit write at the peer tile's address `dest`.
    Reg { dest: u32, value: u32 },
}

/// A send waiting in the outbox: from `channel`, issued at `cycle`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Send {
    pub channel: u8,
    pub cycle: u64,
    pub payload: Payload,
}

#[derive(Clone, Copy, Debug, Default)]
struct Txq {
    control: u32,
    start: u32,
    size: u32,
    dest: u32,
    remote_data: u32,
}

struct EthTile {
    l1: Vec<u8>,
    soft_reset: u32,
    txq: [Txq; TXQ_QUEUES],
}

/// The chip's Ethernet tiles (present channels only) and its outbox.
pub struct Ethernet {
    member: Member,
    tiles: Vec<Option<EthTile>>,
    outbox: Vec<Send>,
}

type Refusal = (ErrorKind, String);

impl Ethernet {
    /// The tiles of `member`'s enabled channels, as the base firmware leaves them.
    pub fn new(member: &Member) -> Ethernet {
        let tiles = (0..ETH_CHANNELS as u8)
            .map(|c| {
                (member.enabled_eth >> c & 1 == 1).then(|| {
                    let mut t = EthTile {
                        l1: vec![0; ETH_L1_SIZE],
                        soft_reset: SOFT_RESET_HELD,
                        txq: [Txq::default(); TXQ_QUEUES],
                    };
                    let peer = member.peers[usize::from(c)];
                    boot_results::write(&mut t.l1, member, c, peer.as_ref());
                    if peer.is_some() {
                        t.soft_reset &= !(1 << 11);
                    }
                    t
                })
            })
            .collect();
        Ethernet {
            member: member.clone(),
            tiles,
            outbox: Vec::new(),
        }
    }

    pub fn member(&self) -> &Member {
        &self.member
    }

    /// Whether channel `c` is present (not harvested).
    pub fn present(&self, c: u8) -> bool {
        self.tiles.get(usize::from(c)).is_some_and(Option::is_some)
    }

    /// The channel of the tile at raw NoC 0 or translated (`x`, `y`), if present.
    pub fn channel_at(&self, x: u32, y: u32) -> Option<u8> {
        (0..ETH_CHANNELS as u8).find(|&c| {
            let (nx, ny) = channel_noc0(c);
            let (tx, ty) = channel_translated(c);
            self.present(c)
                && ((x, y) == (u32::from(nx), u32::from(ny))
                    || (x, y) == (u32::from(tx), u32::from(ty)))
        })
    }

    fn tile(&mut self, c: u8) -> Result<&mut EthTile, Refusal> {
        self.tiles
            .get_mut(usize::from(c))
            .and_then(Option::as_mut)
            .ok_or((
                ErrorKind::Unmapped,
                format!("Ethernet channel {c} is harvested"),
            ))
    }

    /// Sends issued so far, oldest first; the outbox is left empty.
    pub fn take_sends(&mut self, out: &mut Vec<Send>) {
        out.append(&mut self.outbox);
    }

    /// Whether any send waits in the outbox.
    pub fn sends_pending(&self) -> bool {
        !self.outbox.is_empty()
    }

    /// A host read of channel `c`'s tile.
    pub fn read(&mut self, c: u8, addr: u64, buf: &mut [u8]) -> Result<(), Refusal> {
        let t = self.tile(c)?;
        if let Some(r) = l1_range(addr, buf.len()) {
            buf.copy_from_slice(&t.l1[r]);
            return Ok(());
        }
        let v = match reg_word(addr, buf.len()) {
            Some(SOFT_RESET) => t.soft_reset,
            Some(a) => match txq_reg(a) {
                Some((q, TXQ_CONTROL)) => t.txq[q].control,
                // Commands complete at once and the queue is never busy.
                Some((_, TXQ_CMD | TXQ_STATUS)) => 0,
                _ => return Err(unmodelled(c, addr, buf.len(), false)),
            },
            None => return Err(unmodelled(c, addr, buf.len(), false)),
        };
        buf.copy_from_slice(&v.to_le_bytes());
        Ok(())
    }

    /// A host write to channel `c`'s tile at cycle `now` (or a write that arrived over a link).
    pub fn write(&mut self, c: u8, addr: u64, data: &[u8], now: u64) -> Result<(), Refusal> {
        let t = self.tile(c)?;
        if let Some(r) = l1_range(addr, data.len()) {
            t.l1[r].copy_from_slice(data);
            return Ok(());
        }
        let (Some(a), Ok(word)) = (reg_word(addr, data.len()), <[u8; 4]>::try_from(data)) else {
            return Err(unmodelled(c, addr, data.len(), true));
        };
        let v = u32::from_le_bytes(word);
        if a == SOFT_RESET {
            t.soft_reset = v;
            return Ok(());
        }
        let Some((q, off)) = txq_reg(a) else {
            return Err(unmodelled(c, addr, 4, true));
        };
        let txq = &mut t.txq[q];
        match off {
            TXQ_CONTROL => txq.control = v,
            TXQ_START_ADDR => txq.start = v,
            TXQ_SIZE => txq.size = v,
            TXQ_DEST_ADDR => txq.dest = v,
            TXQ_REMOTE_REG_DATA => txq.remote_data = v,
            TXQ_CMD => {
                let q = *txq;
                let payload = self.command(c, a, q, v)?;
                self.outbox.push(Send {
                    channel: c,
                    cycle: now,
                    payload,
                });
            }
            _ => return Err(unmodelled(c, addr, 4, true)),
        }
        Ok(())
    }

    /// What `CMD` = `v` on channel `c` sends (register address `reg`), or why it cannot.
    fn command(&mut self, c: u8, reg: u64, q: Txq, v: u32) -> Result<Payload, Refusal> {
        let chip = self.member.chip;
        let (x, y) = channel_noc0(c);
        let at = format!(
            "chip {chip} Ethernet channel {c} (NOC0 ({x},{y})) register {reg:#x} (ETH_TXQ_CMD)"
        );
        if self.member.peers[usize::from(c)].is_none() {
            return Err((
                ErrorKind::InvalidInput,
                format!("{at} = {v}: the channel has no link"),
            ));
        }
        match v {
            CMD_SEND_DATA => {
                let aligned = q.start.is_multiple_of(16) && q.size.is_multiple_of(16) && q.dest.is_multiple_of(16);
                let fits = |a: u32| u64::from(a) + u64::from(q.size) <= ETH_L1_SIZE as u64;
                if !aligned || !fits(q.start) || !fits(q.dest) {
                    return Err((ErrorKind::AccessRule, format!("{at} = 2: start {:#x}, size {:#x}, destination {:#x} must be 16-byte aligned and inside the 512 KiB L1", q.start, q.size, q.dest)));
                }
                let t = self.tile(c)?;
                let bytes = t.l1[q.start as usize..(q.start + q.size) as usize].to_vec();
                Ok(Payload::Data {
                    dest: q.dest,
                    bytes,
                })
            }
            CMD_WRITE_REG if q.dest.is_multiple_of(4) => Ok(Payload::Reg {
                dest: q.dest,
                value: q.remote_data,
            }),
            _ => Err((
                ErrorKind::Unimplemented,
                format!("{at} = {v:#x}: bhemu models commands 2 (data) and 4 (register write, 4-byte aligned destination)"),
            )),
        }
    }

    /// Applies what arrived over channel `c`'s link.
    pub fn deliver(&mut self, c: u8, payload: &Payload, now: u64) -> Result<(), Refusal> {
        match payload {
            Payload::Data { dest, bytes } => self.write(c, u64::from(*dest), bytes, now),
            Payload::Reg { dest, value } => {
                self.write(c, u64::from(*dest), &value.to_le_bytes(), now)
            }
        }
    }
}

fn l1_range(addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
    let end = addr.checked_add(len as u64)?;
    (end <= ETH_L1_SIZE as u64).then_some(addr as usize..end as usize)
}

fn reg_word(addr: u64, len: usize) -> Option<u64> {
    (len == 4 && addr.is_multiple_of(4)).then_some(addr)
}

fn txq_reg(addr: u64) -> Option<(usize, u64)> {
    let rel = addr.checked_sub(TXQ_BASE)?;
    let q = (rel / TXQ_STRIDE) as usize;
    (q < TXQ_QUEUES).then_some((q, rel % TXQ_STRIDE))
}

fn unmodelled(c: u8, addr: u64, len: usize, write: bool) -> Refusal {
    let what = if write { "write to" } else { "read of" };
    (
        ErrorKind::Unimplemented,
        format!("{what} Ethernet channel {c} address {addr:#x} ({len} bytes), which bhemu does not model"),
    )
}

#[cfg(test)]
mod tests;
