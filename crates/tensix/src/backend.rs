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
    /// The units' pipelines, in [`UNITS`] order. Entries enter only through
    /// [`Backend::accept`] and leave only through [`Backend::retire`], which keep `occupied`.
    pipes: [Pipe; 10],
    /// Bit `i` set: `pipes[i]` holds an entry. The per-cycle scans (retirements, idle checks,
    /// the next timed change) visit only these: a chip steps a hundred coprocessors a cycle,
    /// so each one's pipes are out of the host's cache, and every `Pipe` is a cache line's
    /// worth of bytes while one or two units are in use at a time.
    occupied: u16,
    /// At least every pipeline's `next_accept_at` and `movd2a_at + 2` (the times
    /// [`Backend::next_timed_change`] looks at besides retirements): while it is not after a
    /// cycle, no pipeline needs looking at for them.
    timed_until: u64,
    /// Per thread: ThCon memory request outstanding until this cycle (exclusive), C0.
    pub thcon_mem_until: [u64; 3],
}

/// The set bits of `mask`, lowest first.
pub(crate) fn bits(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (i < 16).then_some(i)
    })
}

impl Backend {
    /// Every unit's pipeline, in [`UNITS`] order.
    pub fn pipes(&self) -> &[Pipe; 10] {
        &self.pipes
    }

    /// The pipelines holding an entry, with their index in [`UNITS`], in that order.
    pub fn occupied(&self) -> impl Iterator<Item = (usize, &Pipe)> {
        bits(self.occupied).filter_map(|i| self.pipes.get(i).map(|p| (i, p)))
    }

    /// The indices (in [`UNITS`]) of the pipelines holding an entry, as a bit set.
    pub(crate) fn occupied_mask(&self) -> u16 {
        self.occupied
    }

    /// Entry `k` of pipeline `i`, if there is one.
    pub(crate) fn entry(&self, i: usize, k: usize) -> Option<Entry> {
        self.pipes.get(i)?.entries.get(k).copied()
    }

    /// The entries of pipeline `i`, writable in place (an UNPACR starting once its bank is
    /// free sets its `done_at`); `None` for an index past the units.
    pub(crate) fn entries_mut(&mut self, i: usize) -> Option<&mut [Entry]> {
        self.pipes.get_mut(i).map(|p| p.entries.as_mut_slice())
    }

    /// Removes entry `k` of pipeline `i` (it retired) and returns it.
    pub(crate) fn retire(&mut self, i: usize, k: usize) -> Option<Entry> {
        let p = self.pipes.get_mut(i)?;
        if k >= p.entries.len() {
            return None;
        }
        let e = p.entries.remove(k);
        if p.entries.is_empty() {
            self.occupied &= !(1 << i);
        }
        Some(e)
    }

    pub fn pipe(&self, u: Unit) -> Option<&Pipe> {
        unit_index(u).map(|i| &self.pipes[i])
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
        self.occupied().all(|(_, p)| {
            p.entries
                .iter()
                .all(|e| e.done_at.is_some_and(|d| d <= cycle) && !retire_effect(&e.insn.op))
        }) && self.thcon_mem_until.iter().all(|&u| u <= cycle)
    }

    /// Does thread `t` have anything in flight (instructions or outstanding memory)?
    pub fn thread_idle(&self, t: u8, cycle: u64) -> bool {
        self.occupied().all(|(_, p)| {
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

    /// The first cycle after `cycle` at which the passing of time alone changes what the
    /// units decide: an entry's retirement (`done_at`), a rate-limited unit accepting again
    /// (`next_accept_at`), the end of the cycle after a MOVD2A in which only MOVD2A/MOVB2A
    /// may follow, a ThCon load tail's end (C0). `u64::MAX` when none is pending.
    pub fn next_timed_change(&self, cycle: u64) -> u64 {
        let after = |c: u64| if c > cycle { c } else { u64::MAX };
        let mut first = u64::MAX;
        for (_, p) in self.occupied() {
            for e in &p.entries {
                if let Some(d) = e.done_at {
                    first = first.min(after(d));
                }
            }
        }
        if self.timed_until > cycle {
            for p in &self.pipes {
                first = first.min(after(p.next_accept_at));
                if let Some(m) = p.movd2a_at {
                    first = first.min(after(m.saturating_add(2)));
                }
            }
        }
        for &u in &self.thcon_mem_until {
            first = first.min(after(u));
        }
        first
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
        let Some(i) = unit_index(u) else {
            return;
        };
        let Some(p) = self.pipes.get_mut(i) else {
            return;
        };
        self.occupied |= 1 << i;
        let rate_limited = !(u == Unit::Config && is_setc16(&insn));
        if rate_limited {
            p.last_accept = Some(cycle);
            p.next_accept_at = cycle + insn.interval.max(1) as u64;
            self.timed_until = self.timed_until.max(p.next_accept_at);
        }
        if matches!(insn.op, Op::Math { movd2a: true, .. }) {
            p.movd2a_at = Some(cycle);
            self.timed_until = self.timed_until.max(cycle.saturating_add(2));
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

#[cfg(test)]
mod tests {
    use super::*;
    use bhemu_isa::tensix::{assemble, Arch};

    fn insn(line: &str) -> Insn {
        match assemble(Arch::Blackhole, line) {
            Ok(w) => crate::insn::decode(Arch::Blackhole, w),
            Err(e) => panic!("`{line}` does not assemble: {e}"),
        }
    }

    /// Instructions of several units, of latencies and accept intervals above 1, a MOVD2A, a
    /// ThCon load with a tail.
    const LINES: &[&str] = &[
        "ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1",
        "ttelwadd 0, 0, 0, 0, 0",
        "ttmovd2a 0, 0, 0, 0, 0",
        "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1",
        "ttshiftxb 0, 0, 0",
        "ttcfgshiftmask 0, 0, 0, 0, 0, 0",
        "ttloadind 0, 0, 0, 9, 1",
        "ttsfpnop",
        "ttsemget 2",
        "ttnop",
    ];

    /// The units holding an entry, read from every pipe (not from the occupancy set).
    fn holding(b: &Backend) -> Vec<usize> {
        let p = b.pipes();
        (0..p.len()).filter(|&i| !p[i].entries.is_empty()).collect()
    }

    /// Every pipe's and tail's times, read one by one (not through the occupancy set or
    /// `timed_until`).
    fn first_change_by_hand(b: &Backend, cycle: u64) -> u64 {
        let mut times: Vec<u64> = Vec::new();
        for p in b.pipes() {
            times.extend(p.entries.iter().filter_map(|e| e.done_at));
            times.push(p.next_accept_at);
            times.extend(p.movd2a_at.map(|m| m + 2));
        }
        times.extend(b.thcon_mem_until);
        times
            .into_iter()
            .filter(|&t| t > cycle)
            .min()
            .unwrap_or(u64::MAX)
    }

    #[test]
    fn occupied_names_exactly_the_units_holding_an_entry() {
        let mut b = Backend::default();
        assert_eq!(b.occupied().count(), 0);
        for (c, line) in LINES.iter().enumerate() {
            let i = insn(line);
            b.accept(i.unit, (c % 3) as u8, i, c as u64, c == 0);
            let mine: Vec<usize> = b.occupied().map(|(u, _)| u).collect();
            assert_eq!(mine, holding(&b), "after accepting `{line}`");
        }
        // Retire from the last unit to the first, one entry at a time.
        while let Some(u) = holding(&b).pop() {
            assert!(b.retire(u, 0).is_some(), "unit {u} had an entry");
            let mine: Vec<usize> = b.occupied().map(|(u, _)| u).collect();
            assert_eq!(mine, holding(&b), "after retiring from unit {u}");
        }
        assert_eq!(b.retire(0, 0), None, "nothing left to retire");
        assert!(b.idle(0));
    }

    #[test]
    fn next_timed_change_is_the_first_time_any_unit_or_tail_changes() {
        let mut b = Backend::default();
        b.thcon_mem_until[1] = 40;
        for (c, line) in LINES.iter().enumerate() {
            let i = insn(line);
            b.accept(i.unit, (c % 3) as u8, i, 2 * c as u64, false);
            for cycle in 0..80 {
                assert_eq!(
                    b.next_timed_change(cycle),
                    first_change_by_hand(&b, cycle),
                    "cycle {cycle} after accepting `{line}`"
                );
            }
        }
        // With every entry gone the accept intervals, MOVD2A's cycle and the tail remain.
        while let Some(u) = holding(&b).pop() {
            b.retire(u, 0);
        }
        for cycle in 0..80 {
            assert_eq!(b.next_timed_change(cycle), first_change_by_hand(&b, cycle));
        }
    }
}
