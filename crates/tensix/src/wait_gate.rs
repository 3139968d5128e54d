//! The Wait Gate of one thread (docs/wait-gate.md, WaitGate.md, STALLWAIT.md, SEMWAIT.md).
//!
//! Each cycle, for the instruction waiting at the gate: first the block check against the
//! latched wait instruction *as it stood at the start of the cycle*, then the re-evaluation of
//! the latch's condition, which forgets the latch when met. That order is the one-cycle lag of
//! docs/wait-gate.md: the block mask is lifted the cycle after the condition clears, so the instruction
//! right after a STALLWAIT/SEMWAIT is held at least one cycle.
//!
//! Instructions pass in order; the gate holds a single instruction, so once a blocked one sits
//! here nothing behind it can pass (docs/wait-gate.md: "no further instructions of any kind").
use crate::insn::{block, cond, Insn};
use crate::semaphores::Semaphores;

/// The latched wait instruction; a new STALLWAIT/SEMWAIT overwrites it (docs/wait-gate.md note 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Latch {
    StallWait { block: u16, conds: u16 },
    SemWait { block: u16, sems: u8, cond: u8 },
}

impl Latch {
    pub fn block_mask(&self) -> u16 {
        match *self {
            Latch::StallWait { block, .. } | Latch::SemWait { block, .. } => block,
        }
    }

    /// Is `insn` caught by this latch's block mask?
    pub fn blocks(&self, insn: &Insn) -> bool {
        blocked_by_mask(self.block_mask(), insn)
    }

    /// Does the latch still say "keep waiting"? `active` = the thread's conditions C0-C12 that
    /// are currently true (see `Coprocessor::conditions`).
    pub fn keep_waiting(&self, active: u16, sems: &Semaphores) -> bool {
        match *self {
            Latch::StallWait { conds, .. } => conds & active != 0,
            Latch::SemWait {
                sems: mask, cond, ..
            } => sems.keep_waiting(mask, cond),
        }
    }

    /// What the latch waits on, in words, for deadlock reports.
    pub fn describe(&self, active: u16, sems: &Semaphores) -> String {
        match *self {
            Latch::StallWait { block, conds } => {
                let pending = conds & active;
                format!(
                    "STALLWAIT block {block:#05x} waiting on {}",
                    if pending == 0 {
                        "nothing (releasing)".to_string()
                    } else {
                        cond::describe(pending)
                    }
                )
            }
            Latch::SemWait {
                block,
                sems: mask,
                cond,
            } => {
                let mut parts = Vec::new();
                for i in 0..8 {
                    if mask >> i & 1 == 1 {
                        let s = sems.sems[i];
                        parts.push(format!("sem{i}={}/{}", s.value, s.max));
                    }
                }
                let what = match cond & 3 {
                    1 => "STALL_ON_ZERO",
                    2 => "STALL_ON_MAX",
                    3 => "STALL_ON_ZERO|STALL_ON_MAX",
                    _ => "no condition",
                };
                format!("SEMWAIT block {block:#05x} {what} on {}", parts.join(" "))
            }
        }
    }
}

/// docs/wait-gate.md block rule (`bhemu_isa::tensix::block::blocks`). MOP, MOP_CFG, REPLAY and
/// RESOURCEDECL never reach the gate from a TRISC (the expanders consume them) and carry no
/// block bits, so they pass here too.
pub fn blocked_by_mask(mask: u16, insn: &Insn) -> bool {
    block::blocks(insn.opcode, insn.block_bits, mask)
}

/// One thread's gate: the instruction waiting to pass, and the latch.
#[derive(Clone, Debug, Default)]
pub struct WaitGate {
    pub slot: Option<Insn>,
    pub latch: Option<Latch>,
}
