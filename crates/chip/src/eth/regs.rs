//! An Ethernet tile's registers as its cores and the host see them (docs/multi-chip.md MC-6,
//! MC-13): soft reset, the cores' reset PCs, the TX queues and the PTP timer. One function
//! reads and one writes, for the host's TLB window, the tile's own cores and what arrives over
//! a link alike.
use bhemu_noc::niu::{Niu, NiuWrite};

use crate::error::ErrorKind;
use crate::system::Member;

use super::{channel_noc0, Payload, Refusal, Send, Txq, ETH_L1_SIZE};

/// `RISCV_DEBUG_REG_SOFT_RESET_0` of the tile; bits 11 and 12 hold its two RISC-V cores.
pub const SOFT_RESET: u64 = 0xFFB1_21B0;
/// `ETH_RISC_CTRL` `IERISC_RESET_PC` and `SUBORDINATE_IERISC_RESET_PC`: where ERISC0 and ERISC1
/// start when released from soft reset (tt-metal `eth_fw_api.h` puts the block at 0xFFB14000).
pub const RESET_PC: [u64; 2] = [0xFFB1_4000, 0xFFB1_4008];
/// `ETH_RISC_CTRL` `INTERRUPT_MODE[0..5]`: bhemu models no interrupts, so only 0 is accepted.
pub const INTERRUPT_MODE: u64 = 0xFFB1_4020;
/// The PTP timer (tt-metal `eth_fw_api.h`, `..._PTP_TIMER_A_CFR_TIMER_LO/HI_REG_ADDR`), in 20 ns
/// ticks.
pub const PTP_TIMER_LO: u64 = 0xFFB9_8850;
pub const PTP_TIMER_HI: u64 = 0xFFB9_8854;
/// The wall clock in the debug registers, as on a Tensix tile (DebugTimestamper.md): the chip
/// cycle; reading the low word latches the high word for `WALL_CLOCK_H`.
pub const WALL_CLOCK_L: u64 = 0xFFB1_21F0;
pub const WALL_CLOCK_L4: u64 = 0xFFB1_21F4;
pub const WALL_CLOCK_H: u64 = 0xFFB1_21F8;
/// AICLK cycles per PTP tick: 20 ns at bhemu's 1.35 GHz.
pub const CYCLES_PER_PTP_TICK: u64 = 27;

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

/// What a register write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// No register bhemu models is there.
    Nothing,
    Done,
    /// Soft reset written: the tile applies it to its cores (MC-13).
    SoftReset(u32),
}

/// The registers' state of one tile.
pub struct RegFile {
    pub soft_reset: u32,
    pub reset_pc: [u32; 2],
    pub txq: [Txq; TXQ_QUEUES],
    /// The wall clock's high word, latched by a read of the low word.
    pub wall_high_at: u32,
    /// The NIUs of NoC 0 and 1: registers only (MC-13); the NoC does not carry an Ethernet
    /// core's requests yet.
    pub nius: [Niu; 2],
}

impl RegFile {
    /// The registers as tile `channel`'s at cycle `now`, sending into `outbox`.
    pub fn at<'a>(
        &'a mut self,
        channel: u8,
        member: &'a Member,
        outbox: &'a mut Vec<Send>,
        now: u64,
    ) -> Regs<'a> {
        Regs {
            channel,
            member,
            file: self,
            outbox,
            now,
        }
    }
}

/// The registers of one tile, and what a write to them needs of the rest of the tile.
pub struct Regs<'a> {
    pub channel: u8,
    pub member: &'a Member,
    pub file: &'a mut RegFile,
    pub outbox: &'a mut Vec<Send>,
    pub now: u64,
}

impl Regs<'_> {
    /// The register word at `addr`, or `None` when bhemu models none there.
    pub fn read(&mut self, addr: u64) -> Option<u32> {
        Some(match addr {
            SOFT_RESET => self.file.soft_reset,
            WALL_CLOCK_L => {
                self.file.wall_high_at = (self.now >> 32) as u32;
                self.now as u32
            }
            WALL_CLOCK_L4 => (self.now >> 32) as u32,
            WALL_CLOCK_H => self.file.wall_high_at,
            a if niu(a).is_some() => {
                let (n, off) = niu(a)?;
                self.file.nius[n].mmio_read(off).ok()?
            }
            a if a == RESET_PC[0] => self.file.reset_pc[0],
            a if a == RESET_PC[1] => self.file.reset_pc[1],
            PTP_TIMER_LO => (self.now / CYCLES_PER_PTP_TICK) as u32,
            PTP_TIMER_HI => ((self.now / CYCLES_PER_PTP_TICK) >> 32) as u32,
            a => match txq_reg(a)? {
                (q, TXQ_CONTROL) => self.file.txq[q].control,
                // Commands complete at once and the queue is never busy.
                (_, TXQ_CMD | TXQ_STATUS) => 0,
                _ => return None,
            },
        })
    }

    /// Writes `v` at `addr`; a TX queue command sends from `l1`.
    pub fn write(&mut self, addr: u64, v: u32, l1: &[u8]) -> Result<Written, Refusal> {
        match addr {
            SOFT_RESET => {
                self.file.soft_reset = v;
                return Ok(Written::SoftReset(v));
            }
            a if a == RESET_PC[0] => self.file.reset_pc[0] = v,
            a if a == RESET_PC[1] => self.file.reset_pc[1] = v,
            a if niu(a).is_some() => {
                let Some((n, off)) = niu(a) else {
                    return Ok(Written::Nothing);
                };
                let at = self.at();
                match self.file.nius[n].mmio_write(off, v) {
                    Ok(NiuWrite::Done) => {}
                    Ok(NiuWrite::Issue { cmd_buf }) => {
                        return Err((
                            ErrorKind::Unimplemented,
                            format!("{at}: NoC {n} command buffer {cmd_buf} issued a request (register {a:#x} = {v:#x}); bhemu does not carry NoC requests from Ethernet cores yet (docs/multi-chip.md)"),
                        ))
                    }
                    Err(e) => {
                        return Err((ErrorKind::AccessRule, format!("{at}: register {a:#x} = {v:#x}: {e}")))
                    }
                }
            }
            a if (INTERRUPT_MODE..INTERRUPT_MODE + 20).contains(&a) && a % 4 == 0 => {
                if v != 0 {
                    return Err((
                        ErrorKind::Unimplemented,
                        format!("{}: register {a:#x} (ETH_RISC_CTRL INTERRUPT_MODE) = {v:#x}: bhemu models no Ethernet core interrupts (only 0)", self.at()),
                    ));
                }
            }
            a => {
                let Some((q, off)) = txq_reg(a) else {
                    return Ok(Written::Nothing);
                };
                let txq = &mut self.file.txq[q];
                match off {
                    TXQ_CONTROL => txq.control = v,
                    TXQ_START_ADDR => txq.start = v,
                    TXQ_SIZE => txq.size = v,
                    TXQ_DEST_ADDR => txq.dest = v,
                    TXQ_REMOTE_REG_DATA => txq.remote_data = v,
                    TXQ_CMD => {
                        let q = *txq;
                        let payload = self.command(a, q, v, l1)?;
                        self.outbox.push(Send {
                            channel: self.channel,
                            cycle: self.now,
                            payload,
                        });
                    }
                    _ => return Ok(Written::Nothing),
                }
            }
        }
        Ok(Written::Done)
    }

    fn at(&self) -> String {
        let (x, y) = channel_noc0(self.channel);
        format!(
            "chip {} Ethernet channel {} (NOC0 ({x},{y}))",
            self.member.chip, self.channel
        )
    }

    /// What `CMD` = `v` sends (register address `reg`), or why it cannot.
    fn command(&self, reg: u64, q: Txq, v: u32, l1: &[u8]) -> Result<Payload, Refusal> {
        let at = format!("{} register {reg:#x} (ETH_TXQ_CMD)", self.at());
        if self.member.peers[usize::from(self.channel)].is_none() {
            return Err((
                ErrorKind::InvalidInput,
                format!("{at} = {v}: the channel has no link"),
            ));
        }
        match v {
            CMD_SEND_DATA => {
                let aligned = q.start.is_multiple_of(16)
                    && q.size.is_multiple_of(16)
                    && q.dest.is_multiple_of(16);
                let fits = |a: u32| u64::from(a) + u64::from(q.size) <= ETH_L1_SIZE as u64;
                if !aligned || !fits(q.start) || !fits(q.dest) {
                    return Err((ErrorKind::AccessRule, format!("{at} = 2: start {:#x}, size {:#x}, destination {:#x} must be 16-byte aligned and inside the 512 KiB L1", q.start, q.size, q.dest)));
                }
                let bytes = l1[q.start as usize..(q.start + q.size) as usize].to_vec();
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
}

/// (NoC, offset) of an NIU register address.
fn niu(addr: u64) -> Option<(usize, u32)> {
    let (noc, off) = bhemu_noc::decode_niu_address(u32::try_from(addr).ok()?)?;
    Some((noc.index(), off))
}

fn txq_reg(addr: u64) -> Option<(usize, u64)> {
    let rel = addr.checked_sub(TXQ_BASE)?;
    let q = (rel / TXQ_STRIDE) as usize;
    (q < TXQ_QUEUES).then_some((q, rel % TXQ_STRIDE))
}
