//! The one error type of the coprocessor: a kind, where it happened, and a sentence.
//!
//! docs/execution-model.md EM-7: one error type with a kind and a location (thread, instruction word,
//! cycle) plus a sentence; nothing on an input path panics.
use std::fmt;

/// What went wrong, coarse enough for a caller to decide what to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// No thread can ever progress again (docs/wait-gate.md: deadlock detection).
    Deadlock,
    /// A thread waits forever by definition, e.g. ATGETM with an invalid mutex index
    /// (docs/mutexes.md, ATGETM.md: "Invalid index causes infinite wait").
    Hang,
    /// The input is malformed: a bad program line, an unknown opcode, an out-of-range index.
    Invalid,
    /// The run hit its cycle limit before finishing.
    MaxCycles,
    /// The program did something the hardware leaves undefined (e.g. SEMWAIT with
    /// `wait_sem_cond == 0`, docs/wait-gate.md).
    Undefined,
}

impl ErrorKind {
    /// The spelling used in `--json` output.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Deadlock => "deadlock",
            ErrorKind::Hang => "hang",
            ErrorKind::Invalid => "invalid",
            ErrorKind::MaxCycles => "max_cycles",
            ErrorKind::Undefined => "undefined",
        }
    }
}

/// What one thread was waiting on when a run stopped: for deadlock and hang reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadWait {
    pub thread: u8,
    /// The instruction it is stuck on (word), if there is one.
    pub word: Option<u32>,
    /// Human-readable: the instruction disassembled and the condition it waits on.
    pub waiting_on: String,
}

/// An error of the Tensix coprocessor, with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensixError {
    pub kind: ErrorKind,
    /// The thread concerned, when one is.
    pub thread: Option<u8>,
    /// The instruction word concerned, when one is.
    pub word: Option<u32>,
    /// The pc of the RISC-V store that pushed that instruction (of the MOP or REPLAY that
    /// produced it), when known.
    pub pc: Option<u32>,
    /// The cycle at which the error was detected.
    pub cycle: u64,
    pub message: String,
    /// For deadlocks (and hangs): what every stuck thread waits on.
    pub threads: Vec<ThreadWait>,
}

impl TensixError {
    pub fn new(kind: ErrorKind, cycle: u64, message: impl Into<String>) -> Self {
        TensixError {
            kind,
            thread: None,
            word: None,
            pc: None,
            cycle,
            message: message.into(),
            threads: Vec::new(),
        }
    }

    pub fn at(mut self, thread: u8, word: Option<u32>) -> Self {
        self.thread = Some(thread);
        self.word = word;
        self
    }
}

impl fmt::Display for TensixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at cycle {}", self.kind.name(), self.cycle)?;
        if let Some(t) = self.thread {
            write!(f, ", thread T{t}")?;
        }
        if let Some(pc) = self.pc {
            write!(f, ", pushed at pc {pc:#010x}")?;
        }
        if let Some(w) = self.word {
            write!(f, ", word {w:#010x}")?;
        }
        write!(f, ": {}", self.message)?;
        for t in &self.threads {
            write!(f, "\n  T{}: {}", t.thread, t.waiting_on)?;
        }
        Ok(())
    }
}

impl std::error::Error for TensixError {}
