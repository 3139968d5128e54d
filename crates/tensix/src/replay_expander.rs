//! The Replay Expander of one thread (REPLAY.md, docs/mop-replay.md): a 32-slot buffer, record,
//! record-and-execute and playback.
//!
//! Rules: `len` 0 means 64 (docs/mop-replay.md MR-12); indices wrap modulo 32 (MR-12);
//! playback emits one instruction per cycle and ingests nothing until it ends (REPLAY.md
//! "Performance"); record-only ingests one per cycle and emits nothing; record-and-execute
//! ingests and emits one per cycle. No transition penalties.
//!
//! What is recorded is whatever arrives, uninterpreted (the functional model stores
//! `GetNextIncomingInstruction()` as is): a REPLAY arriving while recording is stored, not
//! obeyed. A MOP cannot arrive from a TRISC (the MOP expander upstream has already expanded
//! it, MOPExpander.md); one pushed by BRISC (which enters after the MOP expander, MOP.md) would
//! be recorded, and if played back it reaches the Wait Gate, where bhemu reports it as
//! undefined behaviour (see `Coprocessor`).
use bhemu_isa::tensix::Arch;

use crate::insn::{Insn, Op};

/// Replay buffer depth (docs/mop-replay.md: 32 slots per thread).
pub const REPLAY_SLOTS: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Idle,
    Record { index: u8, left: u8, exec: bool },
    Play { index: u8, left: u8 },
}

/// One thread's Replay Expander.
#[derive(Clone, Debug)]
pub struct ReplayExpander {
    /// Boxed: the coprocessor's frontend looks at every thread's `mode` every cycle, and the
    /// slots inline would put a kilobyte between the small fields of a thread it reads.
    buf: Box<[Insn; REPLAY_SLOTS]>,
    mode: Mode,
    /// The pc of the REPLAY being played back: the instructions it emits carry it.
    play_pc: Option<u32>,
}

/// `len` field: 0 means 64 (REPLAY.md `Instruction.Count or 64`).
pub fn replay_count(len: u8) -> u8 {
    if len & 63 == 0 {
        64
    } else {
        len & 63
    }
}

impl ReplayExpander {
    pub fn new(arch: Arch) -> Self {
        ReplayExpander {
            buf: Box::new([Insn::nop(arch); REPLAY_SLOTS]),
            mode: Mode::Idle,
            play_pc: None,
        }
    }

    /// Slot `i` of the buffer (no CPU address exists; for tests and reports).
    pub fn slot(&self, i: usize) -> Insn {
        self.buf[i % REPLAY_SLOTS]
    }

    /// qstatus bit 0 (CSRs.md: REPLAY counts "provided that Exec is true, or Load is false"):
    /// playing back, or recording with execute.
    pub fn busy(&self) -> bool {
        matches!(
            self.mode,
            Mode::Play { .. } | Mode::Record { exec: true, .. }
        )
    }

    pub fn recording(&self) -> bool {
        matches!(self.mode, Mode::Record { .. })
    }

    /// Recording without executing: the expander ingests even when the Wait Gate is occupied,
    /// since it emits nothing.
    pub fn record_only(&self) -> bool {
        matches!(self.mode, Mode::Record { exec: false, .. })
    }

    pub fn playing(&self) -> bool {
        matches!(self.mode, Mode::Play { .. })
    }

    pub fn idle(&self) -> bool {
        self.mode == Mode::Idle
    }

    /// During playback: emit the next buffered instruction without ingesting.
    pub fn play(&mut self) -> Option<Insn> {
        if let Mode::Play { index, left } = self.mode {
            let mut out = self.buf[index as usize % REPLAY_SLOTS];
            out.pc = self.play_pc;
            self.mode = if left <= 1 {
                Mode::Idle
            } else {
                Mode::Play {
                    index: (index + 1) % 32,
                    left: left - 1,
                }
            };
            Some(out)
        } else {
            None
        }
    }

    /// Take one incoming instruction (not during playback); returns what leaves towards the
    /// Wait Gate this cycle, if anything.
    pub fn ingest(&mut self, insn: Insn) -> Option<Insn> {
        match self.mode {
            Mode::Record { index, left, exec } => {
                self.buf[index as usize % REPLAY_SLOTS] = insn;
                self.mode = if left <= 1 {
                    Mode::Idle
                } else {
                    Mode::Record {
                        index: (index + 1) % 32,
                        left: left - 1,
                        exec,
                    }
                };
                if exec {
                    Some(insn)
                } else {
                    None
                }
            }
            Mode::Play { .. } => {
                // Callers never ingest during playback; keep the instruction rather than lose
                // it by treating this as pass-through.
                Some(insn)
            }
            Mode::Idle => match insn.op {
                Op::Replay {
                    start,
                    len,
                    exec,
                    load,
                } => {
                    let count = replay_count(len);
                    if load {
                        self.mode = Mode::Record {
                            index: start % 32,
                            left: count,
                            exec,
                        };
                        None
                    } else {
                        // Ingest the REPLAY and emit the first buffered instruction at once.
                        self.play_pc = insn.pc;
                        self.mode = Mode::Play {
                            index: start % 32,
                            left: count,
                        };
                        self.play()
                    }
                }
                _ => Some(insn),
            },
        }
    }
}
