//! A debugger's view of the chip: pause, step and inspect harts, with breakpoints and
//! watchpoints (used by `bhemu --gdb`, docs/gdb.md).
//!
//! While a [`Debugger`] drives the chip it uses [`Schedule::Reference`]: every tick each
//! runnable hart executes at most one instruction, so a breakpoint is seen at the exact cycle
//! its hart would fetch it, and nothing runs ahead or parks past it. The checks live in
//! [`Debugger::run`]'s own loop; [`Chip::tick`] and the fast schedule carry no debugger hook,
//! so a chip without a debugger pays nothing.
//!
//! Stop semantics are all-stop: the chip has one clock, so when one hart stops, every hart of
//! every tile stops with it (at the same cycle boundary). A single step of one hart runs the
//! whole chip until that hart retires one instruction (other harts run those cycles too).
use std::collections::BTreeSet;

use crate::error::{ChipError, ErrorKind};
use crate::schedule::Schedule;
use crate::tile::{decode, CoreState, Target, Tile, L1_SIZE};
use crate::{Chip, Core};

/// One hart: a core of the Tensix tile at translated NoC coordinates `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HartRef {
    pub x: u8,
    pub y: u8,
    pub core: Core,
}

/// Which accesses a watchpoint catches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchKind {
    Read,
    Write,
    Access,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Watch {
    addr: u32,
    len: u32,
    kind: WatchKind,
}

/// Why [`Debugger::run`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebugStop {
    /// `hart` is about to execute the instruction at a breakpoint `pc` in cycle `cycle`.
    Breakpoint { hart: HartRef, pc: u32, cycle: u64 },
    /// `hart` retired a load/store/AMO touching a watched range; `addr` is the watched
    /// address it hit.
    Watchpoint {
        hart: HartRef,
        addr: u32,
        kind: WatchKind,
    },
    /// The stepped hart retired one instruction.
    Stepped { hart: HartRef },
    /// `hart` executed `ebreak` (a debug pause on Blackhole) and is halted.
    Halted { hart: HartRef },
    /// The run's `done` condition holds (e.g. every tile reads DONE).
    Done,
    /// `max_cycles` passed without a stop.
    CycleLimit,
    /// The emulation stopped with an error (a hart fault, a NoC error); the chip stays at the
    /// cycle it happened in.
    Error(ChipError),
}

/// How to resume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    Continue,
    /// Run until this hart retires one instruction (or another stop comes first).
    Step(HartRef),
}

/// Breakpoints and watchpoints over a set of harts, and the loop that honours them.
pub struct Debugger {
    harts: Vec<HartRef>,
    breakpoints: BTreeSet<u32>,
    watches: Vec<Watch>,
    previous: Schedule,
}

/// A load/store/AMO a hart is about to make: `[addr, addr + len)`, read and/or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Access {
    addr: u32,
    len: u32,
    read: bool,
    write: bool,
}

impl Debugger {
    /// Attaches to `harts` of `chip`: switches it to the reference schedule (bringing parked
    /// cores up to the current cycle) until [`Debugger::detach`].
    pub fn attach(chip: &mut Chip, harts: Vec<HartRef>) -> Result<Debugger, ChipError> {
        for h in &harts {
            if chip.tile(h.x, h.y).is_none() {
                return Err(ChipError::new(
                    ErrorKind::InvalidInput,
                    format!("no enabled Tensix tile at ({},{}) to debug", h.x, h.y),
                ));
            }
        }
        let previous = chip.schedule();
        chip.set_schedule(Schedule::Reference)?;
        Ok(Debugger {
            harts,
            breakpoints: BTreeSet::new(),
            watches: Vec::new(),
            previous,
        })
    }

    /// Gives the chip back its schedule.
    pub fn detach(self, chip: &mut Chip) -> Result<(), ChipError> {
        chip.set_schedule(self.previous)
    }

    pub fn harts(&self) -> &[HartRef] {
        &self.harts
    }

    /// A breakpoint at `pc` on every debugged hart; false if one was already there.
    pub fn add_breakpoint(&mut self, pc: u32) -> bool {
        self.breakpoints.insert(pc)
    }
    pub fn remove_breakpoint(&mut self, pc: u32) -> bool {
        self.breakpoints.remove(&pc)
    }

    /// Watches `[addr, addr + len)` of every debugged hart's address space.
    pub fn add_watchpoint(&mut self, addr: u32, len: u32, kind: WatchKind) -> bool {
        let w = Watch {
            addr,
            len: len.max(1),
            kind,
        };
        if self.watches.contains(&w) {
            return false;
        }
        self.watches.push(w);
        true
    }
    pub fn remove_watchpoint(&mut self, addr: u32, len: u32, kind: WatchKind) -> bool {
        let n = self.watches.len();
        self.watches
            .retain(|w| !(w.addr == addr && w.len == len.max(1) && w.kind == kind));
        self.watches.len() != n
    }

    /// Runs the chip a cycle at a time until a breakpoint, watchpoint, step end, `ebreak`,
    /// error, `done(chip)` or `max_cycles` more cycles. A hart sitting on a breakpoint when the
    /// run starts executes it (the run resumes from there rather than stopping at once).
    pub fn run(
        &mut self,
        chip: &mut Chip,
        resume: Resume,
        max_cycles: u64,
        done: &mut dyn FnMut(&Chip) -> bool,
    ) -> DebugStop {
        let end = chip.cycle().saturating_add(max_cycles);
        // Where each hart stood at the start: it may execute a breakpoint it sits on (also over
        // several stalled cycles) until it retires.
        let start: Vec<Option<(u32, u64)>> = self
            .harts
            .iter()
            .map(|h| {
                chip.tile(h.x, h.y)
                    .map(|t| (t.pc(h.core), t.hart(h.core).instret()))
            })
            .collect();
        let mut before: Vec<(u64, Option<Access>, CoreState)> =
            Vec::with_capacity(self.harts.len());
        loop {
            if done(chip) {
                return DebugStop::Done;
            }
            if chip.cycle() >= end {
                return DebugStop::CycleLimit;
            }
            before.clear();
            for (&h, &origin) in self.harts.iter().zip(&start) {
                let Some(t) = chip.tile(h.x, h.y) else {
                    before.push((0, None, CoreState::Reset));
                    continue;
                };
                let state = t.core_state(h.core);
                let hart = t.hart(h.core);
                let runnable = matches!(state, CoreState::Running | CoreState::Stalled);
                let resumed_here = origin == Some((hart.pc(), hart.instret()));
                if runnable && !resumed_here && self.breakpoints.contains(&hart.pc()) {
                    return DebugStop::Breakpoint {
                        hart: h,
                        pc: hart.pc(),
                        cycle: chip.cycle(),
                    };
                }
                let access = if runnable && !self.watches.is_empty() {
                    pending_access(t, h.core)
                } else {
                    None
                };
                before.push((hart.instret(), access, state));
            }
            if let Err(e) = chip.tick() {
                return DebugStop::Error(e);
            }
            for (&h, &(instret, access, state)) in self.harts.iter().zip(&before) {
                let Some(t) = chip.tile(h.x, h.y) else {
                    continue;
                };
                let now_state = t.core_state(h.core);
                if now_state == CoreState::Halted && state != CoreState::Halted {
                    return DebugStop::Halted { hart: h };
                }
                if t.hart(h.core).instret() == instret {
                    continue;
                }
                if let Some(a) = access {
                    if let Some((addr, kind)) = self.hit(a) {
                        return DebugStop::Watchpoint {
                            hart: h,
                            addr,
                            kind,
                        };
                    }
                }
                if resume == Resume::Step(h) {
                    return DebugStop::Stepped { hart: h };
                }
            }
        }
    }

    fn hit(&self, a: Access) -> Option<(u32, WatchKind)> {
        self.watches.iter().find_map(|w| {
            let overlap =
                a.addr < w.addr.wrapping_add(w.len) && w.addr < a.addr.wrapping_add(a.len);
            let kind_ok = match w.kind {
                WatchKind::Read => a.read,
                WatchKind::Write => a.write,
                WatchKind::Access => a.read || a.write,
            };
            (overlap && kind_ok).then_some((w.addr, w.kind))
        })
    }
}

/// The memory access the instruction at `core`'s pc will make, from its encoding (RISC-V
/// unprivileged ISA: LOAD 0x03, LOAD-FP 0x07, STORE 0x23, STORE-FP 0x27, AMO 0x2F; the baby
/// cores have no compressed instructions).
fn pending_access(t: &Tile, core: Core) -> Option<Access> {
    let hart = t.hart(core);
    let mut w = [0u8; 4];
    read_memory(t, core, hart.pc(), &mut w).ok()?;
    let insn = u32::from_le_bytes(w);
    let rs1 = hart.reg(((insn >> 15) & 31) as usize);
    let funct3 = (insn >> 12) & 7;
    let len = 1u32 << (funct3 & 3);
    let i_imm = (insn as i32 >> 20) as u32;
    let s_imm = (((insn as i32 >> 25) << 5) as u32) | ((insn >> 7) & 31);
    let (addr, read, write) = match insn & 0x7F {
        0x03 | 0x07 => (rs1.wrapping_add(i_imm), true, false),
        0x23 | 0x27 => (rs1.wrapping_add(s_imm), false, true),
        // LR reads only; SC writes only; the other AMOs read and write.
        0x2F => match insn >> 27 {
            0b00010 => (rs1, true, false),
            0b00011 => (rs1, false, true),
            _ => (rs1, true, true),
        },
        _ => return None,
    };
    Some(Access {
        addr,
        len,
        read,
        write,
    })
}

/// Reads `buf.len()` bytes at `addr` as `core` addresses them, without side effects: L1 and
/// the local data RAMs only (README.md memory map). MMIO registers are refused, since reading
/// some of them (mailboxes, PC buffers, FIFO status) changes or waits on hardware state.
pub fn read_memory(t: &Tile, core: Core, addr: u32, buf: &mut [u8]) -> Result<(), ChipError> {
    let ok = match decode(core, addr) {
        Target::L1(_) if u64::from(addr) + buf.len() as u64 <= u64::from(L1_SIZE) => {
            t.p.l1.read_bytes(u64::from(addr), buf)
        }
        Target::LocalRam { owner, off } => t.p.local[owner.index()].read_bytes(u64::from(off), buf),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(unreadable(t, core, addr, buf.len(), "read"))
    }
}

/// Writes as [`read_memory`] reads (L1 and local data RAM), dropping any decoded code the
/// write overlaps.
pub fn write_memory(t: &mut Tile, core: Core, addr: u32, data: &[u8]) -> Result<(), ChipError> {
    let ok = match decode(core, addr) {
        Target::L1(_) if u64::from(addr) + data.len() as u64 <= u64::from(L1_SIZE) => {
            t.p.l1.write_bytes(u64::from(addr), data)
        }
        Target::LocalRam { owner, off } => {
            t.p.local[owner.index()].write_bytes(u64::from(off), data)
        }
        _ => false,
    };
    if !ok {
        return Err(unreadable(t, core, addr, data.len(), "write"));
    }
    t.invalidate_dirty_code();
    for c in &mut t.cores {
        c.hart.invalidate_code(addr, data.len() as u32);
    }
    Ok(())
}

fn unreadable(t: &Tile, core: Core, addr: u32, len: usize, what: &str) -> ChipError {
    let mut e = ChipError::new(
        ErrorKind::InvalidInput,
        format!(
            "the debugger cannot {what} {len} bytes at 0x{addr:08x}: only L1 and local data RAM (MMIO reads may have side effects)"
        ),
    )
    .at_tile(t.node().x, t.node().y);
    e.loc.core = Some(core);
    e
}

/// Sets register `i` (1-31) or, with `i == 32`, the pc of `core`'s hart.
pub fn write_register(t: &mut Tile, core: Core, i: usize, v: u32) {
    let hart = &mut t.cores[core.index()].hart;
    if i == 32 {
        hart.set_pc(v);
        t.p.pcs[core.index()] = v;
    } else {
        hart.set_reg(i, v);
    }
}

#[cfg(test)]
mod tests;
