//! The chip's one error type (docs/execution-model.md EM-7): a kind, a location (chip, tile, core or
//! thread, pc, instruction word, address, cycle) and one sentence. Every failure of the tile,
//! scheduler or host driver ends here, so the CLI and the C ABI have a single thing to report.
use std::fmt;

use crate::tile::Core;

/// What went wrong, coarse enough for a caller to decide what to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Software did something the hardware leaves undefined, or something that would hang the
    /// real core (e.g. a TRISC storing to another thread's instruction-push address).
    Undefined,
    /// The address is not mapped for this core (BabyRISCV/README.md memory map).
    Unmapped,
    /// The address is mapped on the hardware but bhemu does not model it yet.
    Unimplemented,
    /// A core broke an access rule of the memory map (e.g. NCRISC pushing a Tensix
    /// instruction, a sub-word store to a word-only register).
    AccessRule,
    /// A hart took an exception with no handler installed (illegal instruction, fault, ...).
    Exception,
    /// The Tensix coprocessor reported an error (undefined behaviour, hang, invalid word).
    Tensix,
    /// A NoC request failed.
    Noc,
    /// Bad input from the user or host: a malformed firmware file, a bad tile list, ...
    InvalidInput,
    /// Nothing can progress any more.
    Deadlock,
    /// The run reached its cycle limit before finishing.
    CycleLimit,
    /// A file could not be read.
    Io,
    /// bhemu broke one of its own invariants (a bug to report).
    Internal,
    /// Another process running chips of the same system failed, or the processes could not
    /// reach one another (docs/multi-chip.md MC-12).
    System,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Internal => "internal error",
            ErrorKind::Undefined => "undefined behaviour",
            ErrorKind::Unmapped => "unmapped address",
            ErrorKind::Unimplemented => "unimplemented",
            ErrorKind::AccessRule => "access rule",
            ErrorKind::Exception => "exception",
            ErrorKind::Tensix => "tensix",
            ErrorKind::Noc => "noc",
            ErrorKind::InvalidInput => "invalid input",
            ErrorKind::Deadlock => "deadlock",
            ErrorKind::CycleLimit => "cycle limit",
            ErrorKind::Io => "io",
            ErrorKind::System => "system",
        }
    }
}

/// Where an error happened; every field is optional because not every error has every part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Location {
    pub chip: u32,
    /// Translated NoC coordinates of the Tensix tile.
    pub tile: Option<(u8, u8)>,
    pub core: Option<Core>,
    /// Tensix thread (T0-T2), for coprocessor errors.
    pub thread: Option<u8>,
    pub pc: Option<u32>,
    /// RISC-V or Tensix instruction word.
    pub insn: Option<u32>,
    /// Data address of a faulting access.
    pub addr: Option<u32>,
    /// Access width in bytes.
    pub width: Option<u8>,
    pub cycle: Option<u64>,
}

/// The chip's error: kind + location + sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipError {
    pub kind: ErrorKind,
    pub loc: Location,
    pub message: String,
}

impl ChipError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ChipError {
            kind,
            loc: Location::default(),
            message: message.into(),
        }
    }
    pub fn at_tile(mut self, x: u8, y: u8) -> Self {
        self.loc.tile = Some((x, y));
        self
    }
    pub fn at_core(mut self, core: Core) -> Self {
        self.loc.core = Some(core);
        self
    }
    pub fn at_cycle(mut self, cycle: u64) -> Self {
        self.loc.cycle = Some(cycle);
        self
    }
    pub fn at_pc(mut self, pc: u32) -> Self {
        self.loc.pc = Some(pc);
        self
    }
}

impl fmt::Display for ChipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind.name())?;
        let l = &self.loc;
        let mut parts: Vec<String> = Vec::new();
        if l.chip != 0 {
            parts.push(format!("chip {}", l.chip));
        }
        if let Some((x, y)) = l.tile {
            parts.push(format!("tile ({x},{y})"));
        }
        if let Some(c) = l.core {
            parts.push(c.name().to_string());
        }
        if let Some(t) = l.thread {
            parts.push(format!("thread T{t}"));
        }
        if let Some(pc) = l.pc {
            parts.push(format!("pc 0x{pc:08x}"));
        }
        if let Some(i) = l.insn {
            parts.push(format!("insn 0x{i:08x}"));
        }
        if let Some(a) = l.addr {
            match l.width {
                Some(w) => parts.push(format!("{w}-byte access at 0x{a:08x}")),
                None => parts.push(format!("address 0x{a:08x}")),
            }
        }
        if let Some(c) = l.cycle {
            parts.push(format!("cycle {c}"));
        }
        if !parts.is_empty() {
            write!(f, " at {}", parts.join(", "))?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ChipError {}
