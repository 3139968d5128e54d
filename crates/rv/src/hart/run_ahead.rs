//! Running a hart ahead of the chip's clock: checkpoints to rewind to, and [`Hart::run_private`],
//! which runs only the instructions that touch nothing but the hart's own registers, pc and
//! counters (docs/execution-model.md EM-17, EM-18).
use super::{Flow, Hart};
use crate::bus::{Access, Bus};
use crate::op::Kind;

/// The part of a hart's state that private instructions change (see [`Hart::run_private`]):
/// enough to rewind a hart that ran ahead and replay it to any earlier cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pc: u32,
    x: [u32; 32],
    cycles: u64,
    instret: u64,
}

/// A bus for private instructions, which never use one.
struct NoBus;

impl Bus for NoBus {
    fn fetch(&mut self, addr: u32) -> Access<u32> {
        no_bus(addr)
    }
    fn load(&mut self, addr: u32, _: crate::bus::Width) -> Access<u32> {
        no_bus(addr)
    }
    fn store(&mut self, addr: u32, _: crate::bus::Width, _: u32) -> Access<()> {
        no_bus(addr)
    }
    fn push_tensix(&mut self, _: u32) -> Access<()> {
        no_bus(0)
    }
}

fn no_bus<T>(addr: u32) -> Access<T> {
    Access::Fault(crate::bus::BusFault {
        addr,
        reason: "internal: a private instruction used the bus".into(),
    })
}

impl Hart {
    /// The registers, pc and counters, to come back to with [`Hart::restore`].
    pub fn checkpoint(&self) -> Checkpoint {
        let mut x = [0u32; 32];
        x.copy_from_slice(&self.core.x[..32]);
        Checkpoint {
            pc: self.pc,
            x,
            cycles: self.core.cycles,
            instret: self.core.instret,
        }
    }

    /// Rewinds to `c`. Only exact if the hart ran nothing but private instructions
    /// ([`Hart::run_private`]) since `c` was taken.
    pub fn restore(&mut self, c: &Checkpoint) {
        self.pc = c.pc;
        self.core.x[..32].copy_from_slice(&c.x);
        self.core.cycles = c.cycles;
        self.core.instret = c.instret;
    }

    /// Runs up to `max` cycles of *private* instructions — integer ALU, `lui`/`auipc`, jumps,
    /// branches, `fence` — already in the decode cache, one per cycle, and stops before the
    /// first other one (a memory access, CSR, trap, Tensix push, an uncached or misaligned
    /// target). Returns the cycles run. Such instructions read and write only the hart's
    /// registers, pc and counters, so running them early changes nothing anyone else can see:
    /// a scheduler may run a hart ahead of the chip's clock and still be exact (the chip's
    /// fast schedule does: docs/execution-model.md EM-17, EM-18). Runs nothing while tracing
    /// or paused.
    pub fn run_private(&mut self, max: u64) -> u64 {
        // A pipelined hart's private ops may stall (docs/core-timing.md): it runs no ahead.
        if self.halted.is_some() || self.trace.is_some() || self.pipeline.is_some() {
            return 0;
        }
        let mut pc = self.pc;
        let mut n = 0u64;
        // Whole blocks while the budget holds one (crate::block); the tail one op at a time.
        let Some(mut id) = self.cache.block_id(pc) else {
            return 0;
        };
        while let Some(&b) = self.cache.blocks.at(id) {
            let whole = b.whole();
            if max - n < whole {
                n += self.run_private_ops(&mut pc, max - n);
                break;
            }
            let body = self.cache.blocks.body(&b);
            let mut retired = true;
            loop {
                crate::block::run_body(&mut self.core.x, body);
                pc = b.end;
                if b.term.kind == Kind::Empty {
                    n += u64::from(b.len);
                    break;
                }
                // A branch or jump either retires or reports a misaligned target before
                // writing anything; the latter is left to the next ordinary step.
                match self.core.control(b.term, pc) {
                    Flow::Next(next) => {
                        pc = next;
                        n += whole;
                    }
                    _ => {
                        n += u64::from(b.len);
                        retired = false;
                        break;
                    }
                }
                // A loop that branches back to its own start goes round here.
                if pc != b.start || max - n < whole {
                    break;
                }
            }
            if !retired || n >= max {
                break;
            }
            // On with the block at `pc` — also after a body split at MAX_BODY, or one that
            // stopped before an op decoded since; none there ends the run.
            id = if b.succ != 0 && b.succ_pc == pc {
                b.succ
            } else {
                let Some(next) = self.cache.block_id(pc) else {
                    break;
                };
                self.cache.blocks.link(id, pc, next);
                next
            };
        }
        self.pc = pc;
        self.skip_retired(n);
        n
    }

    /// [`Hart::run_private`] one cached op at a time, for at most `max` ops from `*pc`.
    fn run_private_ops(&mut self, pc: &mut u32, max: u64) -> u64 {
        let mut n = 0u64;
        let mut bus = NoBus;
        while n < max {
            let Some(op) = self.cache.get(*pc) else { break };
            if !op.kind.is_private() {
                break;
            }
            match self.core.exec(&mut self.cache, &mut bus, op, *pc) {
                Flow::Next(next) => {
                    *pc = next;
                    n += 1;
                }
                _ => break,
            }
        }
        n
    }
}
