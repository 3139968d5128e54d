//! Tracing a hart: each executed instruction handed to a hook (or printed, `--trace`), which
//! makes every cycle really execute one at a time.
use std::io::Write;

use super::{Hart, Tick};
use crate::bus::Bus;
use crate::error::{HartErrorKind, RunExit};

/// One executed instruction, handed to the trace hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceRecord {
    pub hart_id: u32,
    pub pc: u32,
    pub word: u32,
    /// Cycle in which it executed (counting from 0).
    pub cycle: u64,
    /// True when it retired; false when it raised an exception (taken or fatal).
    pub retired: bool,
}

pub type TraceHook = Box<dyn FnMut(&TraceRecord) + Send>;

impl Hart {
    /// Prints each executed instruction, disassembled, on stdout (`--trace`).
    pub fn set_trace(&mut self, on: bool) {
        self.trace = if on {
            Some(Box::new(|t: &TraceRecord| {
                let d = bhemu_isa::riscv::disassemble(t.word, t.pc);
                let mark = if t.retired { "" } else { "  (trap)" };
                // A closed stdout (e.g. piped into `head`) must not panic the run.
                let _ = writeln!(
                    std::io::stdout().lock(),
                    "{:>10} {:08x}: {:08x}  {}{}",
                    t.cycle,
                    t.pc,
                    t.word,
                    d,
                    mark
                );
            }))
        } else {
            None
        };
    }
    /// Calls `hook` for each executed instruction instead of printing; `None` turns tracing off.
    pub fn set_trace_hook(&mut self, hook: Option<TraceHook>) {
        self.trace = hook;
    }

    /// A trace hook is installed: every cycle must really execute, so schedulers must not skip
    /// or batch this hart's cycles.
    pub fn is_traced(&self) -> bool {
        self.trace.is_some()
    }

    /// [`Hart::run`] one real cycle at a time: for a traced hart (every cycle reaches the hook)
    /// and a pipelined one (docs/core-timing.md: a cycle may be a wait in EX1).
    pub(super) fn run_cycle_by_cycle<B: Bus>(&mut self, bus: &mut B, max_cycles: u64) -> RunExit {
        for _ in 0..max_cycles {
            let tick = if self.trace.is_some() {
                self.traced_tick(bus)
            } else {
                self.tick(bus)
            };
            match tick {
                Tick::Retired | Tick::Stalled | Tick::Waited | Tick::Trapped(_) => {}
                Tick::Halted => {
                    if let Some(h) = self.halted {
                        return RunExit::Halted(h);
                    }
                }
                Tick::Stop => return RunExit::Stop,
                Tick::Error => return RunExit::Error(self.take_error()),
            }
        }
        RunExit::MaxInsns
    }

    #[inline(never)]
    pub(super) fn traced_tick<B: Bus>(&mut self, bus: &mut B) -> Tick {
        let (pc, cycle) = (self.pc, self.core.cycles);
        let was_halted = self.halted.is_some();
        let tick = self.tick(bus);
        let executed = match tick {
            Tick::Retired | Tick::Trapped(_) | Tick::Stop => true,
            Tick::Halted => !was_halted,
            // A failing instruction is traced too, so that the trace ends where the run did.
            Tick::Error => !matches!(
                self.pending_error.as_ref().map(|e| e.kind),
                Some(HartErrorKind::FetchFault | HartErrorKind::MisalignedFetch)
            ),
            Tick::Stalled | Tick::Waited => false,
        };
        if executed && self.trace.is_some() {
            let word = match self.cache.word(pc) {
                Some(w) => w,
                None => self.refetch(bus, pc),
            };
            let rec = TraceRecord {
                hart_id: self.core.cfg.hart_id,
                pc,
                word,
                cycle,
                retired: !matches!(tick, Tick::Trapped(_) | Tick::Error),
            };
            if let Some(hook) = self.trace.as_mut() {
                hook(&rec);
            }
        }
        tick
    }
}
