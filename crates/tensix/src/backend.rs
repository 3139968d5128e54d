//! Backend execution units as pipelines with per-thread occupancy (README.md "Backend").
//!
//! An instruction that passes the Wait Gate enters its unit and stays there for its latency
//! (`Insn::latency`, figures and pages in `insn::timing`), then retires. What units compute
//! arrives in a later issue; here occupancy is what matters, because it drives STALLWAIT's
//! conditions C0-C4, C9, C11, C12 and qstatus.
//!
//! Acceptance rules (the Wait Gate holds an instruction whose unit cannot take it):
//! - Matrix Unit, Vector Unit, Packer: one new instruction per cycle (MatrixUnit.md,
//!   VectorUnit.md IPC 1, Packers/README.md "at most one ... started per cycle"), SHIFTXB and
//!   CFGSHIFTMASK at half rate; after MOVD2A only MOVD2A/MOVB2A are accepted next cycle
//!   (MOVD2A.md: "hardware will automatically stall the thread for one cycle").
//! - Configuration Unit: SETC16 one per thread per cycle; the rest one per cycle in total
//!   (ConfigurationUnit.md IPC groups).
//! - Miscellaneous Unit: one per thread per cycle (MiscellaneousUnit.md).
//! - Scalar Unit (ThCon): one instruction at a time, and the issuing thread passes nothing
//!   else through its gate until it completes (ScalarUnit.md).
//! - Unpacker 0/1, Mover: one instruction at a time (bhemu's simplification: the docs give
//!   no pipelining figures; an UNPACR waiting for its bank keeps the unpacker busy).
//! - Sync Unit: see `sync_unit`.
use crate::insn::{Insn, Op, Unit};

/// Units in a fixed order (array index).
pub const UNITS: [Unit; 10] = [
    Unit::Sync,
    Unit::Unpack0,
    Unit::Unpack1,
    Unit::Pack,
    Unit::Matrix,
    Unit::Vector,
    Unit::Config,
    Unit::Mover,
    Unit::ThCon,
    Unit::Misc,
];

pub fn unit_index(u: Unit) -> Option<usize> {
    UNITS.iter().position(|&x| x == u)
}

pub fn unit_name(u: Unit) -> &'static str {
    match u {
        Unit::None => "none",
        Unit::Sync => "Sync Unit",
        Unit::Unpack0 => "Unpacker 0",
        Unit::Unpack1 => "Unpacker 1",
        Unit::Pack => "Packer",
        Unit::Matrix => "Matrix Unit (FPU)",
        Unit::Vector => "Vector Unit (SFPU)",
        Unit::Config => "Configuration Unit",
        Unit::Mover => "Mover",
        Unit::ThCon => "Scalar Unit (ThCon)",
        Unit::Misc => "Miscellaneous Unit",
    }
}

/// One instruction in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub thread: u8,
    pub insn: Insn,
    pub dispatched: u64,
    /// The cycle at whose start it retires; None while it waits inside the unit (an UNPACR
    /// waiting for its bank, UNPACR_Regular.md).
    pub done_at: Option<u64>,
}

/// One unit's pipeline.
#[derive(Clone, Debug, Default)]
pub struct Pipe {
    pub entries: Vec<Entry>,
    /// Cycle of the last acceptance (for one-per-cycle limits).
    pub last_accept: Option<u64>,
    /// Earliest cycle the next (rate-limited) instruction may enter.
    pub next_accept_at: u64,
    /// Cycle of the last MOVD2A accepted (Matrix Unit only).
    pub movd2a_at: Option<u64>,
}

impl Pipe {
    pub fn busy(&self) -> bool {
        !self.entries.is_empty()
    }

    pub fn has_thread(&self, t: u8) -> bool {
        self.entries.iter().any(|e| e.thread == t)
    }
}

/// All units, plus the tails that outlive an instruction's stay (ThCon load results).
#[derive(Clone, Debug, Default)]
pub struct Backend {
    pub pipes: [Pipe; 10],
    /// Per thread: ThCon memory request outstanding until this cycle (exclusive), C0.
    pub thcon_mem_until: [u64; 3],
}

impl Backend {
    pub fn pipe(&self, u: Unit) -> Option<&Pipe> {
        unit_index(u).map(|i| &self.pipes[i])
    }

    pub fn pipe_mut(&mut self, u: Unit) -> Option<&mut Pipe> {
        unit_index(u).map(move |i| &mut self.pipes[i])
    }

    pub fn thread_in(&self, u: Unit, t: u8) -> bool {
        self.pipe(u).is_some_and(|p| p.has_thread(t))
    }

    pub fn any_in(&self, u: Unit) -> bool {
        self.pipe(u).is_some_and(|p| p.busy())
    }

    /// Anything at all in flight at the start of `cycle`? (An entry due to retire at `cycle`
    /// has finished: it was busy through cycle - 1; but one whose retirement still changes
    /// state, such as an UNPACR handing its bank to the Matrix Unit, is in flight until it has
    /// retired, so that an owner stepping the coprocessor only while it is busy applies it.)
    pub fn idle(&self, cycle: u64) -> bool {
        self.pipes.iter().all(|p| {
            p.entries
                .iter()
                .all(|e| e.done_at.is_some_and(|d| d <= cycle) && !retire_effect(&e.insn.op))
        }) && self.thcon_mem_until.iter().all(|&u| u <= cycle)
    }

    /// Does thread `t` have anything in flight (instructions or outstanding memory)?
    pub fn thread_idle(&self, t: u8, cycle: u64) -> bool {
        self.pipes.iter().all(|p| {
            p.entries
                .iter()
                .all(|e| e.thread != t || e.done_at.is_some_and(|d| d <= cycle))
        }) && !matches!(self.thcon_mem_until.get(t as usize), Some(&u) if u > cycle)
    }

    /// Thread `t` is executing a ThCon instruction: it may pass nothing through its gate.
    pub fn thcon_holds(&self, t: u8) -> bool {
        self.thread_in(Unit::ThCon, t)
    }

    /// C0: ThCon has a memory request outstanding for thread `t` (executing, or a load tail).
    pub fn thcon_outstanding(&self, t: u8, cycle: u64) -> bool {
        self.thread_in(Unit::ThCon, t)
            || self
                .thcon_mem_until
                .get(t as usize)
                .is_some_and(|&u| u > cycle)
    }

    /// Can `u` accept `insn` from thread `t` this cycle? (Module docs for the rules.)
    pub fn can_accept(&self, u: Unit, insn: &Insn, cycle: u64) -> bool {
        let Some(p) = self.pipe(u) else {
            return true; // Unit::None
        };
        let once_per_cycle = p.last_accept != Some(cycle) && cycle >= p.next_accept_at;
        match u {
            Unit::None | Unit::Sync | Unit::Misc => true,
            Unit::Config => is_setc16(insn) || once_per_cycle,
            Unit::Matrix => {
                let movd2a_rule = match p.movd2a_at {
                    Some(c) if c + 1 == cycle => {
                        matches!(insn.op, Op::Math { movd2a: true, .. }) || is_movb2a(insn)
                    }
                    _ => true,
                };
                once_per_cycle && movd2a_rule
            }
            Unit::Vector | Unit::Pack => once_per_cycle,
            Unit::Unpack0 | Unit::Unpack1 | Unit::Mover | Unit::ThCon => !p.busy(),
        }
    }

    /// Put `insn` into unit `u`. `done_at` None means it waits inside the unit first.
    pub fn accept(&mut self, u: Unit, t: u8, insn: Insn, cycle: u64, waits: bool) {
        let Some(p) = self.pipe_mut(u) else {
            return;
        };
        let rate_limited = !(u == Unit::Config && is_setc16(&insn));
        if rate_limited {
            p.last_accept = Some(cycle);
            p.next_accept_at = cycle + insn.interval.max(1) as u64;
        }
        if matches!(insn.op, Op::Math { movd2a: true, .. }) {
            p.movd2a_at = Some(cycle);
        }
        let done_at = if waits {
            None
        } else {
            Some(cycle + insn.latency.max(1) as u64)
        };
        p.entries.push(Entry {
            thread: t,
            insn,
            dispatched: cycle,
            done_at,
        });
    }
}

/// Whether retiring an instruction changes state (`Coprocessor::backend_phase`).
fn retire_effect(op: &Op) -> bool {
    matches!(
        op,
        Op::Unpacr { flip: true }
            | Op::UnpacrNop {
                set_dvalid: true,
                ..
            }
    ) || matches!(op, Op::ThCon { mem_tail } if *mem_tail > 0)
}

fn is_setc16(insn: &Insn) -> bool {
    // SETC16 opcode 0xB2 on both architectures (YAML).
    insn.opcode == 0xb2
}

fn is_movb2a(insn: &Insn) -> bool {
    // MOVB2A opcode 0x0B on both architectures (YAML).
    insn.opcode == 0x0b
}
