//! A chip's Ethernet tiles (docs/multi-chip.md): each enabled channel's 512 KiB L1, the state
//! the base firmware leaves in it ([`boot_results`]), its registers ([`regs`]: soft reset, the
//! cores' reset PCs, the TX queues, the PTP timer) and its two RISC-V cores ([`core`]). bhemu
//! does not run the base firmware; the NoC does not reach these tiles, only the host (through a
//! TLB window), the tiles' own cores and the links do. Nothing else observes a tile, so its
//! cores run lazily: they catch up with the chip's cycle whenever the host, a link or the end
//! of a clock call looks at the tile ([`Ethernet::advance`]).
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
pub mod core;
pub mod regs;

pub use self::core::{EthCore, EthCoreState};
use regs::{RegFile, Written};

use bhemu_noc::coord::{NodeInfo, NodeKind};
use bhemu_noc::niu::Niu;
use bhemu_noc::{NocIndex, NodeId};

/// Channel `c`'s node as the NoC describes it: translated and raw coordinates, kind.
fn node_info(c: u8) -> NodeInfo {
    let (tx, ty) = channel_translated(c);
    NodeInfo {
        id: NodeId::new(tx, ty),
        kind: NodeKind::Eth { channel: c },
        raw: channel_noc0(c),
    }
}
pub use regs::{
    CMD_SEND_DATA, CMD_WRITE_REG, PTP_TIMER_HI, PTP_TIMER_LO, RESET_PC, SOFT_RESET, TXQ_BASE,
    TXQ_CMD, TXQ_CONTROL, TXQ_DEST_ADDR, TXQ_QUEUES, TXQ_REMOTE_REG_DATA, TXQ_SIZE, TXQ_START_ADDR,
    TXQ_STATUS, TXQ_STRIDE,
};

/// L1 of an Ethernet tile (tt-metal `eth_l1_address_map.h`, `MAX_L1_LOADING_SIZE`).
pub const ETH_L1_SIZE: usize = 512 * 1024;
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
pub struct Txq {
    control: u32,
    start: u32,
    size: u32,
    dest: u32,
    remote_data: u32,
}

struct EthTile {
    l1: Vec<u8>,
    regs: RegFile,
    cores: [EthCore; 2],
}

/// The base firmware's mailboxes (tt-metal `eth_fw_api.h`: four 16-byte `eth_mailbox_t`, a
/// message word and three arguments, at 0x7D000) and the messages bhemu's stand-in answers.
const MAILBOX_BASE: u32 = 0x7D000;
const MAILBOXES: u32 = 4;
const MSG_STATUS_MASK: u32 = 0xFFFF_0000;
const MSG_CALL: u32 = 0xCA11_0000;
const MSG_DONE: u32 = 0xD0E5_0000;
const MSG_RELEASE_CORE: u32 = 0x0002;

/// The chip's Ethernet tiles (present channels only), its outbox, and the cycle its cores
/// have run to.
pub struct Ethernet {
    member: Member,
    tiles: Vec<Option<EthTile>>,
    outbox: Vec<Send>,
    cycle: u64,
}

type Refusal = (ErrorKind, String);

impl Ethernet {
    /// The tiles of `member`'s enabled channels, as the base firmware leaves them.
    pub fn new(member: &Member) -> Ethernet {
        let tiles = (0..ETH_CHANNELS as u8)
            .map(|c| {
                (member.enabled_eth >> c & 1 == 1).then(|| {
                    let peer = member.peers[usize::from(c)];
                    let linked = peer.is_some();
                    let mut t = EthTile {
                        l1: vec![0; ETH_L1_SIZE],
                        regs: RegFile {
                            soft_reset: SOFT_RESET_HELD,
                            reset_pc: [0; 2],
                            txq: [Txq::default(); TXQ_QUEUES],
                            wall_high_at: 0,
                            nius: [NocIndex::Noc0, NocIndex::Noc1]
                                .map(|noc| Niu::new(&node_info(c), noc)),
                        },
                        cores: [
                            EthCore::new(0, !linked, linked),
                            EthCore::new(1, true, false),
                        ],
                    };
                    boot_results::write(&mut t.l1, member, c, peer.as_ref());
                    if linked {
                        t.regs.soft_reset &= !self::core::ERISC_RESET_BITS[0];
                    }
                    t
                })
            })
            .collect();
        Ethernet {
            member: member.clone(),
            tiles,
            outbox: Vec::new(),
            cycle: 0,
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

    /// Sends issued so far, oldest first; the outbox is left empty.
    pub fn take_sends(&mut self, out: &mut Vec<Send>) {
        out.append(&mut self.outbox);
    }

    /// Whether any send waits in the outbox.
    pub fn sends_pending(&self) -> bool {
        !self.outbox.is_empty()
    }

    /// Core `k` (0 or 1) of channel `c`, if the channel is present.
    pub fn core(&self, c: u8, k: usize) -> Option<&EthCore> {
        self.tiles.get(usize::from(c))?.as_ref()?.cores.get(k)
    }

    /// Each present tile's channel, L1 and cores (the state digest).
    pub fn for_each_tile(&self, mut f: impl FnMut(u8, &[u8], &[EthCore; 2])) {
        for (c, t) in self.tiles.iter().enumerate() {
            if let Some(t) = t {
                f(c as u8, &t.l1, &t.cores);
            }
        }
    }

    /// The cycle the tiles' cores have run to.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Runs every tile's cores up to cycle `now` (MC-13). Tiles see nothing of one another
    /// within a clock call (the NoC does not reach them; links deliver between calls), so each
    /// runs on its own; a tile's two cores take turns each cycle, ERISC0 first. The first
    /// error stops the run and names the channel.
    pub fn advance(&mut self, now: u64) -> Result<(), (u8, Refusal)> {
        let from = self.cycle;
        if now <= from {
            return Ok(());
        }
        self.cycle = now;
        for (c, t) in self.tiles.iter_mut().enumerate() {
            let Some(t) = t else { continue };
            let c = c as u8;
            for cycle in from..now {
                if !t.cores.iter().any(|k| k.state() == EthCoreState::Running) {
                    break;
                }
                t.cycle(c, &self.member, &mut self.outbox, cycle)
                    .map_err(|r| (c, r))?;
            }
        }
        Ok(())
    }

    /// A host read of channel `c`'s tile at cycle `now`.
    pub fn read(&mut self, c: u8, addr: u64, buf: &mut [u8], now: u64) -> Result<(), Refusal> {
        self.advance(now).map_err(|(_, r)| r)?;
        let member = &self.member;
        let outbox = &mut self.outbox;
        let t = tile_mut(&mut self.tiles, c)?;
        if let Some(r) = l1_range(addr, buf.len()) {
            buf.copy_from_slice(&t.l1[r]);
            return Ok(());
        }
        let mut regs = t.regs.at(c, member, outbox, now);
        let v = reg_word(addr, buf.len()).and_then(|a| regs.read(a));
        match v {
            Some(v) => {
                buf.copy_from_slice(&v.to_le_bytes());
                Ok(())
            }
            None => Err(unmodelled(c, addr, buf.len(), false)),
        }
    }

    /// A host write to channel `c`'s tile at cycle `now`.
    pub fn write(&mut self, c: u8, addr: u64, data: &[u8], now: u64) -> Result<(), Refusal> {
        self.advance(now).map_err(|(_, r)| r)?;
        self.write_at(c, addr, data, now)
    }

    fn write_at(&mut self, c: u8, addr: u64, data: &[u8], now: u64) -> Result<(), Refusal> {
        let member = &self.member;
        let outbox = &mut self.outbox;
        let t = tile_mut(&mut self.tiles, c)?;
        if let Some(r) = l1_range(addr, data.len()) {
            t.l1[r].copy_from_slice(data);
            return t.wrote_l1(c, addr as u32, (addr as usize + data.len()) as u32);
        }
        let (Some(a), Ok(word)) = (reg_word(addr, data.len()), <[u8; 4]>::try_from(data)) else {
            return Err(unmodelled(c, addr, data.len(), true));
        };
        let mut regs = t.regs.at(c, member, outbox, now);
        match regs.write(a, u32::from_le_bytes(word), &t.l1)? {
            Written::Nothing => Err(unmodelled(c, addr, 4, true)),
            Written::Done => Ok(()),
            Written::SoftReset(v) => {
                t.apply_soft_reset(v);
                Ok(())
            }
        }
    }

    /// Applies what arrived over channel `c`'s link at cycle `now`.
    pub fn deliver(&mut self, c: u8, payload: &Payload, now: u64) -> Result<(), Refusal> {
        self.advance(now).map_err(|(_, r)| r)?;
        match payload {
            Payload::Data { dest, bytes } => self.write_at(c, u64::from(*dest), bytes, now),
            Payload::Reg { dest, value } => {
                self.write_at(c, u64::from(*dest), &value.to_le_bytes(), now)
            }
        }
    }
}

fn tile_mut(tiles: &mut [Option<EthTile>], c: u8) -> Result<&mut EthTile, Refusal> {
    tiles
        .get_mut(usize::from(c))
        .and_then(Option::as_mut)
        .ok_or((
            ErrorKind::Unmapped,
            format!("Ethernet channel {c} is harvested"),
        ))
}

impl EthTile {
    /// Soft reset `v`: a core whose bit is set is held; one whose bit clears starts at its
    /// reset PC (MC-13).
    fn apply_soft_reset(&mut self, v: u32) {
        for (k, core) in self.cores.iter_mut().enumerate() {
            if v & self::core::ERISC_RESET_BITS[k] != 0 {
                core.hold();
            } else if core.is_held() {
                core.release(self.regs.reset_pc[k]);
            }
        }
    }

    /// After L1 bytes [lo, hi) changed: the cores' decoded code there is stale, and a message
    /// posted to the base firmware's mailbox is answered.
    fn wrote_l1(&mut self, c: u8, lo: u32, hi: u32) -> Result<(), Refusal> {
        for core in &mut self.cores {
            core.invalidate_code(lo, hi - lo);
        }
        for m in 0..MAILBOXES {
            let a = MAILBOX_BASE + 16 * m;
            if lo <= a && a + 4 <= hi {
                self.mailbox(c, a)?;
            }
        }
        Ok(())
    }

    /// The base firmware's answer to the message at mailbox `a`, when it is resident and idle
    /// (on ERISC0 of a linked channel): `RELEASE_CORE` starts ERISC0 at the first argument and
    /// reports done; other calls are refused by name. A message nobody is there to read stays.
    fn mailbox(&mut self, c: u8, a: u32) -> Result<(), Refusal> {
        let word = |l1: &[u8], at: u32| {
            let i = at as usize;
            u32::from_le_bytes([l1[i], l1[i + 1], l1[i + 2], l1[i + 3]])
        };
        let msg = word(&self.l1, a);
        if msg & MSG_STATUS_MASK != MSG_CALL || self.cores[0].state() != EthCoreState::BaseFirmware
        {
            return Ok(());
        }
        if msg & !MSG_STATUS_MASK != MSG_RELEASE_CORE {
            return Err((
                ErrorKind::Unimplemented,
                format!("Ethernet channel {c} base-firmware mailbox {a:#x}: message {msg:#010x}; bhemu's stand-in for the base firmware answers RELEASE_CORE (0xca110002) only"),
            ));
        }
        let entry = word(&self.l1, a + 4);
        let done = (MSG_DONE | MSG_RELEASE_CORE).to_le_bytes();
        self.l1[a as usize..a as usize + 4].copy_from_slice(&done);
        self.l1[a as usize + 4..a as usize + 16].fill(0);
        self.cores[0].start(entry);
        Ok(())
    }

    /// One cycle of the tile's cores.
    fn cycle(
        &mut self,
        c: u8,
        member: &Member,
        outbox: &mut Vec<Send>,
        now: u64,
    ) -> Result<(), Refusal> {
        for k in 0..2 {
            let mut regs = self.regs.at(c, member, outbox, now);
            let out = self.cores[k].step(&mut self.l1, &mut regs)?;
            if let Some(v) = out.soft_reset {
                self.apply_soft_reset(v);
            }
            if let Some((lo, hi)) = out.wrote {
                self.wrote_l1(c, lo, hi)?;
            }
        }
        Ok(())
    }
}

fn l1_range(addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
    let end = addr.checked_add(len as u64)?;
    (end <= ETH_L1_SIZE as u64).then_some(addr as usize..end as usize)
}

fn reg_word(addr: u64, len: usize) -> Option<u64> {
    (len == 4 && addr.is_multiple_of(4)).then_some(addr)
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
