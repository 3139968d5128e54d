//! Running a hart ahead of the chip's clock: checkpoints to rewind to, and [`Hart::run_private`],
//! which runs only the instructions that touch nothing but the hart's own registers, pc and
//! counters (docs/execution-model.md EM-17, EM-18) — and, given the hart's own local data RAM
//! ([`PrivateRam`], [`Hart::run_private_in`]), its loads and stores there (EM-28), and its
//! loads of a memory others share, logged so that a rewind can replay them (EM-29), and its
//! loads of a clock whose words depend only on the cycle they are read in (EM-30).
use super::{Flow, Hart};
use crate::bus::{Access, Bus, Width};
use crate::op::Kind;

pub use super::undo_log::UndoLog;

/// A hart's own local data RAM, which a run ahead may read and write (EM-28): `mem` at
/// addresses `base..base + mem.len()`. Before a store, `undo` saves the lines it writes, as
/// they were before the run's first store to them, so that a rewind can put the memory back
/// as it was at the checkpoint ([`PrivateRam::undo_stores`]). Whoever lends it must keep
/// everyone else from looking at that memory while the hart is ahead, or rewind the hart
/// first.
pub struct PrivateRam<'a> {
    pub base: u32,
    pub mem: &'a mut [u8],
    pub undo: &'a mut UndoLog,
    /// A memory other agents share (a tile's L1, at addresses `0..len`) that the run may
    /// load from (EM-29), or [`Shared::None`].
    pub shared: Shared<'a>,
    /// A clock the run may read (EM-30), or `None`.
    pub clock: Option<CycleClock<'a>>,
}

/// Three registers whose words are a function of the cycle they are read in and nothing
/// else while the run lasts: at `addr` the cycle's low word, at `addr + 4` its high word, at
/// `addr + 8` a latched high word that reading the low word sets to the cycle's high word (a
/// Tensix tile's wall clock, tt-isa-documentation `DebugTimestamper.md`). Whoever lends it
/// vouches that nobody changes the latch to anything but `latched` while the run lasts; the
/// run reads the clock only in cycles whose high word is `latched`, so its own low-word
/// reads leave the latch as it is. Loads are aligned words; any other access to the three
/// words ends the run.
pub struct CycleClock<'a> {
    pub addr: u32,
    /// The cycle in which the run's first instruction executes.
    pub first: u64,
    pub latched: u32,
    /// Every load the run made, in order, for whoever shows a core's last access.
    pub reads: &'a mut Vec<ClockRead>,
}

/// A load of a [`CycleClock`] made while running ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockRead {
    pub pc: u32,
    pub addr: u32,
    pub value: u32,
    pub cycle: u64,
}

/// How a run ahead sees the shared memory of [`PrivateRam::shared`].
pub enum Shared<'a> {
    /// Not at all: a load there ends the run.
    None,
    /// Loads read `mem` as it is now, each logged in `loads` (address, value, width). Whoever
    /// lends it watches the logged addresses and rewinds the hart before anyone changes them
    /// under a load that comes later in the clock's order.
    Live {
        mem: &'a [u8],
        loads: &'a mut Vec<(u32, u32, u8)>,
    },
    /// A replay after a rewind: the loads get the logged values, in order, whatever the
    /// memory holds now (a write that came after them may have changed it).
    Replay {
        loads: &'a [(u32, u32, u8)],
        next: usize,
    },
}

/// Most shared-memory loads one run ahead logs (EM-29).
pub const MAX_SHARED_LOADS: usize = 4096;

impl PrivateRam<'_> {
    /// Puts back every byte the run's stores overwrote, and empties the log.
    pub fn undo_stores(&mut self) {
        self.undo.restore(self.mem);
    }
}

/// The bus a run ahead's loads and stores see: the hart's own local RAM, and loads of the
/// shared memory as [`PrivateRam::shared`] allows. An access elsewhere (or past
/// [`MAX_SHARED_LOADS`] loads) stalls, which changes nothing: the run stops before
/// that instruction and the hart executes it on the chip's clock.
struct RamBus<'r, 'a> {
    ram: &'r mut PrivateRam<'a>,
    /// The current pass (since the last backward jump) loaded shared memory / stored.
    pass_shared: bool,
    pass_stored: bool,
    /// The op being executed: its pc and its place in the run (cycles after the first).
    pc: u32,
    index: u64,
}

impl RamBus<'_, '_> {
    /// A load of the clock at `addr`, if it is one of its words and the run may read it there.
    #[inline(always)]
    fn load_clock(&mut self, addr: u32, w: Width) -> Option<u32> {
        let c = self.ram.clock.as_mut()?;
        let off = addr.wrapping_sub(c.addr);
        if off >= 12 || off % 4 != 0 || w != Width::Word || c.reads.len() >= MAX_SHARED_LOADS {
            return None;
        }
        let cycle = c.first + self.index;
        let high = (cycle >> 32) as u32;
        if high != c.latched {
            return None;
        }
        let value = match off {
            0 => cycle as u32,
            4 => high,
            _ => c.latched,
        };
        c.reads.push(ClockRead {
            pc: self.pc,
            addr,
            value,
            cycle,
        });
        Some(value)
    }

    /// A load of `w` bytes at `addr` in the shared memory, if the run may make it.
    #[inline(always)]
    fn load_shared(&mut self, addr: u32, w: Width) -> Access<u32> {
        let n = w.bytes() as usize;
        let a = addr as usize;
        let v = match &mut self.ram.shared {
            Shared::None => return Access::Stall,
            Shared::Live { mem, loads } => {
                if loads.len() >= MAX_SHARED_LOADS {
                    return Access::Stall;
                }
                let Some(b) = mem.get(a..a + n) else {
                    return Access::Stall;
                };
                let v = le(b);
                loads.push((addr, v, n as u8));
                v
            }
            Shared::Replay { loads, next } => match loads.get(*next) {
                Some(&(la, v, lw)) if la == addr && usize::from(lw) == n => {
                    *next += 1;
                    v
                }
                _ => return Access::Stall,
            },
        };
        self.pass_shared = true;
        Access::Done(v)
    }
}

impl Bus for RamBus<'_, '_> {
    fn fetch(&mut self, _: u32) -> Access<u32> {
        Access::Stall
    }
    #[inline(always)]
    fn load(&mut self, addr: u32, w: Width) -> Access<u32> {
        let off = addr.wrapping_sub(self.ram.base) as usize;
        match self.ram.mem.get(off..off + w.bytes() as usize) {
            Some(b) => Access::Done(le(b)),
            None => match self.load_clock(addr, w) {
                Some(v) => Access::Done(v),
                None => self.load_shared(addr, w),
            },
        }
    }
    #[inline(always)]
    fn store(&mut self, addr: u32, w: Width, value: u32) -> Access<()> {
        let off = addr.wrapping_sub(self.ram.base) as usize;
        let n = w.bytes() as usize;
        if off
            .checked_add(n)
            .is_none_or(|end| end > self.ram.mem.len())
        {
            return Access::Stall;
        }
        self.ram.undo.before_store(self.ram.mem, off, n);
        let b = &mut self.ram.mem[off..off + n];
        self.pass_stored = true;
        match b {
            [x] => *x = value as u8,
            [x, y] => [*x, *y] = (value as u16).to_le_bytes(),
            [x, y, z, t] => [*x, *y, *z, *t] = value.to_le_bytes(),
            _ => {}
        }
        Access::Done(())
    }
    fn push_tensix(&mut self, _: u32) -> Access<()> {
        Access::Stall
    }
}

/// The little-endian value of 1, 2 or 4 bytes.
#[inline(always)]
fn le(b: &[u8]) -> u32 {
    match *b {
        [x] => u32::from(x),
        [x, y] => u32::from(u16::from_le_bytes([x, y])),
        [x, y, z, t] => u32::from_le_bytes([x, y, z, t]),
        _ => 0,
    }
}

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
        self.run_private_in(max, None)
    }

    /// Where the instruction at pc will access memory, as far as the decode cache knows:
    /// `Some(None)` for a decoded instruction that accesses none, `Some(Some(addr))` for a
    /// decoded load, store or AMO (its effective address, before any misalignment rule),
    /// `None` while the instruction is not decoded. A scheduler whose other harts run ahead
    /// asks before stepping this one whether it could look at them (docs/execution-model.md
    /// EM-28).
    pub fn next_access(&self) -> Option<Option<u32>> {
        let op = self.cache.get(self.pc)?;
        let base = self.core.r(op.rs1);
        Some(if op.kind.is_load() || op.kind.is_store() {
            Some(base.wrapping_add(op.imm))
        } else if op.kind == Kind::Amo {
            Some(base)
        } else {
            None
        })
    }

    /// [`Hart::run_private`], and with `ram` also the loads and stores whose bytes all lie in
    /// that local RAM (the lines stored to saved for a rewind, [`UndoLog`]) and the loads
    /// of its shared memory ([`Shared`]) and of its clock ([`CycleClock`]); the run stops
    /// before any other access, as before any other instruction that is not private, and
    /// after the backward jump that ends a pass which loaded shared memory and stored nothing
    /// (docs/execution-model.md EM-28 to EM-30). A pass that read only the clock goes on: a
    /// poll of the clock never parks (EM-13), so the idle-loop detector need not see it.
    pub fn run_private_in(&mut self, max: u64, ram: Option<&mut PrivateRam>) -> u64 {
        // A pipelined hart's private ops may stall (docs/core-timing.md): it runs no ahead.
        if self.halted.is_some() || self.trace.is_some() || self.pipeline.is_some() {
            return 0;
        }
        let n = self.run_blocks(max);
        let Some(ram) = ram else {
            return n;
        };
        // On past the first load or store one op at a time: blocks end at every access, and
        // building and looking them up would cost more than the few ops between accesses.
        let mut bus = RamBus {
            ram,
            pass_shared: false,
            pass_stored: false,
            pc: 0,
            index: 0,
        };
        let mut pc = self.pc;
        let mut k = 0u64;
        while n + k < max {
            let Some(op) = self.cache.get(pc) else { break };
            if !(op.kind.is_private() || op.kind.is_load() || op.kind.is_store()) {
                break;
            }
            bus.pc = pc;
            bus.index = n + k;
            match self.core.exec(&mut self.cache, &mut bus, op, pc) {
                Flow::Next(next) => {
                    let back = next <= pc;
                    pc = next;
                    k += 1;
                    // A pass that read shared memory and stored nothing may be a poll: the run
                    // ends after it, so that the idle-loop detector sees the loop (EM-29).
                    if back {
                        if bus.pass_shared && !bus.pass_stored {
                            break;
                        }
                        bus.pass_shared = false;
                        bus.pass_stored = false;
                    }
                }
                _ => break,
            }
        }
        self.pc = pc;
        self.skip_retired(k);
        n + k
    }

    /// The private instructions of [`Hart::run_private`]: whole basic blocks while the budget
    /// holds one, the tail one op at a time.
    fn run_blocks(&mut self, max: u64) -> u64 {
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
