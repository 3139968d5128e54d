//! The backend units' data effects, one function per instruction in its unit's file:
//! [`config`] (Configuration Unit), [`thcon`] (Scalar Unit GPR arithmetic) and [`thcon_mem`]
//! (its L1 accesses), [`adc`] and
//! [`rwc`] (address counters), [`moves`] (Matrix Unit data movement), [`unpack`] and
//! [`pack`]. [`exec::Exec`] maps every opcode to one of them; [`compute`] is the single place
//! where Matrix Unit arithmetic and the Vector Unit (SFPU) are called. The choices bhemu makes
//! where a page leaves one open are restated in `docs/tensix-datapath.md`.
//!
//! # When effects happen
//! Timing is the coprocessor's: every instruction still occupies its unit for its latency, so
//! STALLWAIT conditions keep their meaning. Data effects are applied at one point per unit:
//! - Configuration Unit, Scalar Unit (ThCon), Miscellaneous Unit (ADCs), Matrix Unit
//!   (RWCs, moves, arithmetic), Vector Unit and packers: when the instruction leaves the Wait
//!   Gate (dispatch), in the order threads dispatch within a cycle. Operands are read and
//!   results written then; a later instruction that reads them is ordered after it by the
//!   program's own waits, as on hardware.
//! - Unpackers: at dispatch, also for an UNPACR that then waits inside its unpacker for its
//!   bank: it reads its configuration, address counters and L1 then, as the hardware
//!   computes its addresses in its first cycles (UNPACR_Regular.md "Performance"); the Src
//!   datums of a waiting one are held by the coprocessor and written when the bank arrives.
//!   A FlipSrc hands the bank to the Matrix Unit only when it retires, so the Matrix Unit
//!   never sees a half-written bank.
use crate::coprocessor::Mode;
use crate::error::{ErrorKind, TensixError};
use crate::src_banks::SrcBanks;
use crate::state::{CfgField, TensixState};

pub mod adc;
pub mod compute;
pub mod config;
pub mod exec;
pub mod moves;
pub mod pack;
mod pack_rows;
mod pack_stages;
pub mod rwc;
pub mod thcon;
pub mod thcon_mem;
pub mod thcon_mmio;
pub mod unpack;

/// What a unit function returns: `Err` stops the run (strict-mode undefined behaviour, a bad
/// L1 address).
pub type UnitResult = Result<(), TensixError>;

/// L1 as the coprocessor's units see it (unpacker reads, packer writes). The tile provides
/// its L1; `bhemu tensix run` a flat buffer.
pub trait TensixMemory {
    /// Reads `buf.len()` bytes at byte address `addr`; `Err(reason)` if not all are L1.
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> Result<(), String>;
    /// Writes `data` at byte address `addr`; `Err(reason)` if not all are L1.
    fn write(&mut self, addr: u32, data: &[u8]) -> Result<(), String>;
    /// Whether the `len` bytes at `addr` are all L1, so that a write there cannot fail: a unit
    /// may then gather its writes of one instruction into one (the packer does). The default
    /// does not know, and the unit writes datum by datum.
    fn holds(&self, _addr: u32, _len: usize) -> bool {
        false
    }
    /// `STOREREG`: one 32-bit word to the tile's MMIO space at byte address `addr`
    /// (`0xFFB1_1000..0xFFC0_0000`: TDMA-RISC registers, NoC overlay stream registers, ...).
    /// A coprocessor alone (`bhemu tensix run`) has no MMIO: the default refuses.
    fn write_reg(&mut self, addr: u32, _value: u32) -> Result<(), String> {
        Err(format!("no MMIO attached (register write at {addr:#x})"))
    }
    /// `LOADREG`: one 32-bit word of the tile's MMIO space at byte address `addr`.
    fn read_reg(&mut self, addr: u32) -> Result<u32, String> {
        Err(format!("no MMIO attached (register read at {addr:#x})"))
    }
}

/// A coprocessor without memory: every access is an error naming the instruction.
pub struct NoMemory;

impl TensixMemory for NoMemory {
    fn read(&mut self, addr: u32, _buf: &mut [u8]) -> Result<(), String> {
        Err(format!("no L1 attached (read at {addr:#x})"))
    }
    fn write(&mut self, addr: u32, _data: &[u8]) -> Result<(), String> {
        Err(format!("no L1 attached (write at {addr:#x})"))
    }
}

/// A flat L1 of `size` bytes from address 0 (for `bhemu tensix run` and tests).
#[derive(Clone, Debug)]
pub struct FlatL1 {
    pub bytes: Vec<u8>,
}

impl FlatL1 {
    /// Blackhole's 1536 KiB of L1, zeroed.
    pub fn blackhole() -> FlatL1 {
        FlatL1 {
            bytes: vec![0; 1536 * 1024],
        }
    }

    fn range(&self, addr: u32, len: usize) -> Result<std::ops::Range<usize>, String> {
        let start = addr as usize;
        match start.checked_add(len) {
            Some(end) if end <= self.bytes.len() => Ok(start..end),
            _ => Err(format!(
                "{len} bytes at {addr:#x} leave L1 ({:#x} bytes)",
                self.bytes.len()
            )),
        }
    }
}

impl TensixMemory for FlatL1 {
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> Result<(), String> {
        let r = self.range(addr, buf.len())?;
        buf.copy_from_slice(&self.bytes[r]);
        Ok(())
    }
    fn write(&mut self, addr: u32, data: &[u8]) -> Result<(), String> {
        let r = self.range(addr, data.len())?;
        self.bytes[r].copy_from_slice(data);
        Ok(())
    }
    fn holds(&self, addr: u32, len: usize) -> bool {
        self.range(addr, len).is_ok()
    }
}

/// A memory that cannot say where L1 is ([`TensixMemory::holds`] false): a unit then reads
/// and writes datum by datum, which its tests compare with what it does in bulk.
#[cfg(test)]
pub(crate) struct DatumByDatum(pub FlatL1);

#[cfg(test)]
impl TensixMemory for DatumByDatum {
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> Result<(), String> {
        self.0.read(addr, buf)
    }
    fn write(&mut self, addr: u32, data: &[u8]) -> Result<(), String> {
        self.0.write(addr, data)
    }
}

/// Runs `f` — one or more unit functions — on `state` and `mem` as thread `thread` of a
/// coprocessor with empty Src banks, at cycle 0; returns what `f` returned and the warnings.
/// For the units' own tests.
#[cfg(test)]
pub(crate) fn run_unit<R>(
    state: &mut TensixState,
    mem: &mut dyn TensixMemory,
    thread: usize,
    mode: Mode,
    f: impl FnOnce(&mut Ctx) -> R,
) -> (R, Vec<TensixError>) {
    let banks = SrcBanks::default();
    let mut warnings = Vec::new();
    let mut ctx = Ctx {
        state,
        banks: &banks,
        mem,
        thread,
        cycle: 0,
        word: 0,
        mode,
        warnings: &mut warnings,
    };
    let r = f(&mut ctx);
    (r, warnings)
}

/// Everything a unit function may touch, plus where it runs (for errors).
pub struct Ctx<'a> {
    pub state: &'a mut TensixState,
    /// Bank ownership and pointers (read-only here: hand-overs are the frontend's).
    pub banks: &'a SrcBanks,
    pub mem: &'a mut dyn TensixMemory,
    /// The issuing thread (`CurrentThread`).
    pub thread: usize,
    pub cycle: u64,
    pub word: u32,
    pub mode: Mode,
    /// Undefined-behaviour reports in permissive mode and "not modelled" notes, for the
    /// coprocessor's warnings.
    pub warnings: &'a mut Vec<TensixError>,
}

impl Ctx<'_> {
    /// A configuration field as the issuing thread sees it.
    pub fn cfg(&self, f: CfgField) -> u32 {
        self.state.cfg.get(self.thread, f)
    }

    /// An error at this instruction.
    pub fn error(&self, kind: ErrorKind, msg: impl Into<String>) -> TensixError {
        TensixError::new(kind, self.cycle, msg).at(self.thread as u8, Some(self.word))
    }

    /// The page calls this `UndefinedBehaviour()`: strict mode stops, permissive mode records
    /// a warning and the caller carries on with the stated fallback.
    pub fn undefined(&mut self, msg: impl Into<String>) -> UnitResult {
        let e = self.error(ErrorKind::Undefined, msg);
        match self.mode {
            Mode::Strict => Err(e),
            Mode::Permissive => {
                self.warn(e);
                Ok(())
            }
        }
    }

    /// An instruction whose data effect bhemu does not model yet: recorded once as a warning
    /// (never silent), timing unaffected.
    pub fn not_modelled(&mut self, what: &str) -> UnitResult {
        let e = self.error(
            ErrorKind::Undefined,
            format!("{what}: data effect not modelled by bhemu yet (timing only)"),
        );
        self.warn(e);
        Ok(())
    }

    pub(crate) fn warn(&mut self, e: TensixError) {
        if !self
            .warnings
            .iter()
            .any(|w| w.word == e.word && w.message == e.message)
        {
            self.warnings.push(e);
        }
    }

    /// L1 read with the error located at this instruction.
    pub fn read_l1(&mut self, addr: u32, buf: &mut [u8]) -> UnitResult {
        let r = self.mem.read(addr, buf);
        r.map_err(|m| self.error(ErrorKind::Invalid, m))
    }

    /// MMIO register write (`STOREREG`) with the error located at this instruction.
    pub fn write_reg(&mut self, addr: u32, value: u32) -> UnitResult {
        let r = self.mem.write_reg(addr, value);
        r.map_err(|m| self.error(ErrorKind::Invalid, m))
    }

    /// MMIO register read (`LOADREG`) with the error located at this instruction.
    pub fn read_reg(&mut self, addr: u32) -> Result<u32, TensixError> {
        let r = self.mem.read_reg(addr);
        r.map_err(|m| self.error(ErrorKind::Invalid, m))
    }

    /// L1 write with the error located at this instruction.
    pub fn write_l1(&mut self, addr: u32, data: &[u8]) -> UnitResult {
        let r = self.mem.write(addr, data);
        r.map_err(|m| self.error(ErrorKind::Invalid, m))
    }
}
