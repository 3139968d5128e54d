//! The one error type of the engine: a kind, where it happened (core, trace line, op text) and a
//! sentence; a deadlock also lists every stuck pipe and what it waits on.
use std::fmt;

use crate::pipes::CoreId;

/// What went wrong. The names are the `kind` strings of the JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorKind {
    /// No pipe and no scalar unit can make progress, and nothing is in flight.
    Deadlock,
    /// Malformed line, unknown op or pipe, a pipe the core does not have, src == dst,
    /// double `get_buf`, `rls_buf` without `get_buf`, ...
    Invalid,
    /// The op exists but not on the selected profile (e.g. `wait_intra_core` on A2/A3).
    UnsupportedOnProfile,
    /// An event, buffer, semaphore id or a cycle count outside its range.
    OutOfRange,
    /// A 4-bit counter would go past 15.
    Overflow,
    /// At the end of the run events or semaphores are still set or buffers still held.
    Unbalanced,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Deadlock => "deadlock",
            ErrorKind::Invalid => "invalid",
            ErrorKind::UnsupportedOnProfile => "unsupported_on_profile",
            ErrorKind::OutOfRange => "out_of_range",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Unbalanced => "unbalanced",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One pipe (or scalar unit, named `core.PIPE_S`) that cannot progress in a deadlock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stuck {
    /// `core.PIPE_X`, e.g. `aiv0.PIPE_V`.
    pub pipe: String,
    /// What it waits on, in one sentence naming the op and its line.
    pub waiting_on: String,
}

/// An error with its location. `core` is `None` only for lines outside any core section.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct PtoError {
    pub kind: ErrorKind,
    pub core: Option<CoreId>,
    /// 1-based trace line; 0 when no line applies.
    pub line: usize,
    /// The op's source text (trimmed, without comment), empty when no op applies.
    pub op: String,
    pub message: String,
    /// For deadlocks: every stuck pipe and what it waits on. Empty otherwise.
    pub stuck: Vec<Stuck>,
}

impl PtoError {
    pub fn new(
        kind: ErrorKind,
        core: Option<CoreId>,
        line: usize,
        op: &str,
        message: impl Into<String>,
    ) -> Self {
        PtoError {
            kind,
            core,
            line,
            op: op.to_string(),
            message: message.into(),
            stuck: Vec::new(),
        }
    }
}

impl fmt::Display for PtoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if let Some(c) = self.core {
            write!(f, " on {c}")?;
        }
        if self.line > 0 {
            write!(f, " at line {}", self.line)?;
        }
        if !self.op.is_empty() {
            write!(f, " (`{}`)", self.op)?;
        }
        write!(f, ": {}", self.message)?;
        for s in &self.stuck {
            write!(f, "\n  {} waits on {}", s.pipe, s.waiting_on)?;
        }
        Ok(())
    }
}
