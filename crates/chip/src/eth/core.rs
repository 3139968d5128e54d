//! The two RISC-V cores of an Ethernet tile, ERISC0 and ERISC1 (docs/multi-chip.md MC-13).
//!
//! * Soft reset bit 11 holds ERISC0, bit 12 ERISC1. A core whose bit clears starts at its
//!   reset PC (`IERISC_RESET_PC` / `SUBORDINATE_IERISC_RESET_PC`), with sp at the top of its
//!   8 KiB local memory (0xFFB00000..0xFFB02000).
//! * On a linked channel ERISC0 belongs to Tenstorrent's base firmware, which bhemu does not
//!   run: the core idles in it ([`EthCoreState::BaseFirmware`]) and does what the base
//!   firmware's mailbox promises (tt-metal `eth_fw_api.h`): `RELEASE_CORE` starts it at the
//!   address in the message's first argument; a core so started that jumps to 0 (its return
//!   address) is back in the base firmware. Releasing it from soft reset with a reset PC of 0
//!   also returns it there.
//! * Each core retires one instruction per cycle (stalls included: none); its accesses reach
//!   the tile's L1, its own local memory and the tile's registers ([`super::regs`]); anything
//!   else is a bus fault, reported naming chip, channel, core, pc and address.
use bhemu_rv::{Access, Bus, BusFault, Hart, HartConfig, Step, Width};

use crate::error::ErrorKind;

use super::regs::{Regs, Written};
use super::{Refusal, ETH_L1_SIZE};

/// Soft-reset bits of ERISC0 and ERISC1.
pub const ERISC_RESET_BITS: [u32; 2] = [1 << 11, 1 << 12];
/// Each core's local memory.
pub const LOCAL_BASE: u32 = 0xFFB0_0000;
pub const LOCAL_SIZE: u32 = 8 * 1024;

/// What a core is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EthCoreState {
    /// Held in soft reset.
    Held,
    /// In the base firmware (not run by bhemu), waiting for a mailbox message.
    BaseFirmware,
    Running,
    /// Stopped by an error (reported once).
    Faulted,
}

pub struct EthCore {
    id: u8,
    hart: Hart,
    local: Vec<u8>,
    /// The custom configuration CSRs 0x7C0–0x7C6 (tt-metal's firmware sets chicken bits
    /// there), kept as the Tensix cores keep theirs: read back what was written, no effect
    /// modelled.
    csrs: [u32; 7],
    state: EthCoreState,
    /// ERISC0 of a linked channel: the base firmware is resident.
    base: bool,
}

impl EthCore {
    pub fn new(id: u8, held: bool, base: bool) -> EthCore {
        EthCore {
            id,
            hart: Hart::new(HartConfig {
                hart_id: u32::from(id),
                ..HartConfig::default()
            }),
            local: vec![0; LOCAL_SIZE as usize],
            csrs: [0; 7],
            state: match (held, base) {
                (true, _) => EthCoreState::Held,
                (false, true) => EthCoreState::BaseFirmware,
                (false, false) => EthCoreState::Held,
            },
            base,
        }
    }

    pub fn state(&self) -> EthCoreState {
        self.state
    }

    pub fn pc(&self) -> u32 {
        self.hart.pc()
    }

    pub fn is_held(&self) -> bool {
        self.state == EthCoreState::Held
    }

    pub fn hold(&mut self) {
        self.state = EthCoreState::Held;
    }

    /// Out of soft reset at `pc`.
    pub fn release(&mut self, pc: u32) {
        if pc == 0 && self.base {
            self.state = EthCoreState::BaseFirmware;
        } else {
            self.start(pc);
        }
    }

    /// Starts at `pc` with sp at the top of local memory (and, under the base firmware, ra 0:
    /// returning goes back to it).
    pub fn start(&mut self, pc: u32) {
        self.hart.set_pc(pc);
        self.hart.resume();
        self.hart.set_reg(2, LOCAL_BASE + LOCAL_SIZE);
        if self.base {
            self.hart.set_reg(1, 0);
        }
        self.state = EthCoreState::Running;
    }

    pub fn invalidate_code(&mut self, addr: u32, len: u32) {
        self.hart.invalidate_code(addr, len);
    }

    /// The core's whole state as words: what it is doing, its registers and pc, its local
    /// memory.
    pub fn fold_state(&self, fold: &mut dyn FnMut(u64)) {
        fold(self.state as u64);
        self.hart.fold_arch_state(fold);
        self.csrs.iter().for_each(|&v| fold(u64::from(v)));
        for w in self.local.chunks(8) {
            let mut b = [0u8; 8];
            b[..w.len()].copy_from_slice(w);
            fold(u64::from_le_bytes(b));
        }
    }

    pub fn reg(&self, i: usize) -> u32 {
        self.hart.reg(i)
    }

    /// One cycle at `regs.now`. Returns a soft-reset write for the tile to apply, and the L1
    /// range the core stored to.
    pub(super) fn step(&mut self, l1: &mut [u8], regs: &mut Regs<'_>) -> Result<Stepped, Refusal> {
        if self.state != EthCoreState::Running {
            return Ok(Stepped::default());
        }
        if self.base && self.hart.pc() == 0 {
            self.state = EthCoreState::BaseFirmware;
            return Ok(Stepped::default());
        }
        let mut bus = EthBus {
            l1,
            local: &mut self.local,
            csrs: &mut self.csrs,
            regs,
            out: Stepped::default(),
            refusal: None,
        };
        let pc = self.hart.pc();
        let step = self.hart.step_fast(&mut bus);
        let (out, refusal) = (bus.out, bus.refusal);
        if let Some((kind, m)) = refusal {
            self.state = EthCoreState::Faulted;
            return Err((kind, format!("ERISC{} at pc {pc:#010x}: {m}", self.id)));
        }
        if step == Step::Error {
            self.state = EthCoreState::Faulted;
            let e = self.hart.take_error();
            return Err((
                ErrorKind::Exception,
                format!(
                    "ERISC{} at pc {:#010x} (instruction {:#010x}): {}",
                    self.id, e.pc, e.insn, e.message
                ),
            ));
        }
        Ok(out)
    }
}

/// What a core's cycle left for its tile to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Stepped {
    pub soft_reset: Option<u32>,
    /// L1 bytes stored to: [lo, hi).
    pub wrote: Option<(u32, u32)>,
}

struct EthBus<'a, 'r> {
    l1: &'a mut [u8],
    local: &'a mut [u8],
    csrs: &'a mut [u32; 7],
    regs: &'a mut Regs<'r>,
    out: Stepped,
    refusal: Option<Refusal>,
}

fn fault<T>(addr: u32, reason: String) -> Access<T> {
    Access::Fault(BusFault { addr, reason })
}

impl EthBus<'_, '_> {
    fn bytes(&mut self, addr: u32, width: Width) -> Option<&mut [u8]> {
        let n = width.bytes() as usize;
        let a = addr as usize;
        if a + n <= ETH_L1_SIZE {
            return Some(&mut self.l1[a..a + n]);
        }
        let off = addr.checked_sub(LOCAL_BASE)? as usize;
        (off + n <= LOCAL_SIZE as usize).then(|| &mut self.local[off..off + n])
    }
}

impl Bus for EthBus<'_, '_> {
    fn fetch(&mut self, addr: u32) -> Access<u32> {
        match self.l1.get(addr as usize..addr as usize + 4) {
            Some(w) => Access::Done(u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
            None => fault(
                addr,
                format!("fetch from {addr:#010x}, outside the tile's 512 KiB L1"),
            ),
        }
    }

    fn load(&mut self, addr: u32, width: Width) -> Access<u32> {
        if let Some(b) = self.bytes(addr, width) {
            let mut w = [0u8; 4];
            w[..b.len()].copy_from_slice(b);
            return Access::Done(u32::from_le_bytes(w));
        }
        if width == Width::Word {
            if let Some(v) = self.regs.read(u64::from(addr)) {
                return Access::Done(v);
            }
        }
        fault(addr, format!("load from {addr:#010x}, where bhemu models nothing for an Ethernet core (L1, local memory 0xffb00000..0xffb02000, soft reset, wall clock, reset PCs, TX queues, PTP timer)"))
    }

    fn store(&mut self, addr: u32, width: Width, value: u32) -> Access<()> {
        if let Some(b) = self.bytes(addr, width) {
            let n = b.len();
            b.copy_from_slice(&value.to_le_bytes()[..n]);
            if (addr as usize) < ETH_L1_SIZE {
                let (lo, hi) = self.out.wrote.unwrap_or((addr, addr));
                self.out.wrote = Some((lo.min(addr), hi.max(addr + n as u32)));
            }
            return Access::Done(());
        }
        if width == Width::Word {
            match self.regs.write(u64::from(addr), value, self.l1) {
                Ok(Written::Done) => return Access::Done(()),
                Ok(Written::SoftReset(v)) => {
                    self.out.soft_reset = Some(v);
                    return Access::Done(());
                }
                Ok(Written::Nothing) => {}
                Err(r) => {
                    self.refusal = Some(r);
                    return Access::Done(());
                }
            }
        }
        fault(addr, format!("store to {addr:#010x}, where bhemu models nothing for an Ethernet core (L1, local memory 0xffb00000..0xffb02000, soft reset, reset PCs, TX queues)"))
    }

    fn read_custom_csr(&mut self, csr: u16) -> Option<Access<u32>> {
        let i = usize::from(csr.checked_sub(0x7C0)?);
        self.csrs.get(i).map(|&v| Access::Done(v))
    }

    fn write_custom_csr(&mut self, csr: u16, value: u32) -> Option<Access<()>> {
        let i = usize::from(csr.checked_sub(0x7C0)?);
        self.csrs.get_mut(i).map(|v| {
            *v = value;
            Access::Done(())
        })
    }

    fn push_tensix(&mut self, _word: u32) -> Access<()> {
        fault(
            0,
            "an Ethernet core has no Tensix coprocessor to push to".into(),
        )
    }
}
