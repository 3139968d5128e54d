//! Deadlock and hang reports: what every stuck thread waits on.
use super::*;

impl Coprocessor {
    /// (the model is deterministic and only input can change it): the deadlock report.
    /// Callers with external input still to come (harts, pushes) should not ask.
    pub fn deadlock(&self, cycle: u64) -> Option<TensixError> {
        if self.progressed || self.all_idle() {
            return None;
        }
        let threads = self.blocked_threads();
        let mut e = TensixError::new(
            ErrorKind::Deadlock,
            cycle,
            format!("no Tensix thread can progress ({} stuck)", threads.len()),
        );
        e.threads = threads;
        Some(e)
    }

    /// Every non-idle thread, with the instruction it is stuck on and why.
    pub fn blocked_threads(&self) -> Vec<ThreadWait> {
        let mut out = Vec::new();
        for t in 0..THREADS {
            if self.thread_idle(t) {
                continue;
            }
            let tt = t as u8;
            let th = &self.threads[t];
            let active = self.conditions(t);
            if let Some(i) = th.gate.slot {
                let why = self.why_waiting(t, &i, active);
                out.push(ThreadWait {
                    thread: tt,
                    word: Some(i.word),
                    waiting_on: format!("{} — {why}", disasm(self.arch, i.word)),
                });
                continue;
            }
            if let Some(e) = self
                .backend
                .pipes()
                .iter()
                .flat_map(|p| p.entries.iter())
                .find(|e| e.thread == tt && e.done_at.is_none())
            {
                let bank = if e.insn.unit == Unit::Unpack1 {
                    "SrcB"
                } else {
                    "SrcA"
                };
                out.push(ThreadWait {
                    thread: tt,
                    word: Some(e.insn.word),
                    waiting_on: format!("{} — in {}, waiting for its {bank} bank to be given back to the Unpackers (C5/C6)", disasm(self.arch, e.insn.word), unit_name(e.insn.unit)),
                });
                continue;
            }
            out.push(ThreadWait {
                thread: tt,
                word: None,
                waiting_on: "instructions queued in the frontend".to_string(),
            });
        }
        out
    }

    /// The instruction waiting at `thread`'s Wait Gate, if any: its word and why it waits, in
    /// the words of [`Coprocessor::blocked_threads`] (used by timeline traces).
    pub fn gate_wait(&self, thread: usize) -> Option<(u32, String)> {
        let i = self.threads.get(thread)?.gate.slot?;
        let why = self.why_waiting(thread, &i, self.conditions(thread));
        Some((i.word, why))
    }

    /// Whether `thread`'s MOP expander and Replay Expander are expanding (traces).
    pub fn expanding(&self, thread: usize) -> (bool, bool) {
        match self.threads.get(thread) {
            Some(th) => (th.mop.expanding(), th.replay.playing()),
            None => (false, false),
        }
    }

    /// Every instruction inside a backend unit: (unit index, unit name, thread, word,
    /// dispatch cycle) — the occupancy a trace draws per unit.
    pub fn unit_occupancy(&self) -> Vec<(usize, &'static str, u8, u32, u64)> {
        let mut v = Vec::new();
        for (u, p) in self.backend.pipes().iter().enumerate() {
            for e in &p.entries {
                v.push((
                    u,
                    unit_name(e.insn.unit),
                    e.thread,
                    e.insn.word,
                    e.dispatched,
                ));
            }
        }
        v
    }

    fn why_waiting(&self, t: usize, i: &Insn, active: u16) -> String {
        let th = &self.threads[t];
        if let Some(l) = th.gate.latch {
            if l.blocks(i) {
                return format!("blocked by {}", l.describe(active, &self.sync.sems));
            }
        }
        if self.backend.thcon_holds(t as u8) {
            return "waiting for its Scalar Unit (ThCon) instruction to complete".to_string();
        }
        match i.op {
            Op::AtGetM { index } if !self.sync.mutexes.valid(index) => {
                return format!("invalid mutex index {index}: waits forever")
            }
            Op::AtRelM { index } if !self.sync.mutexes.valid(index) => {
                return format!("invalid mutex index {index}: waits forever")
            }
            Op::AtGetM { index } => {
                if let Some(h) = self.sync.mutexes.holder(index) {
                    return format!("mutex {index} held by T{h}");
                }
            }
            Op::Math { wait_a, wait_b, .. } => {
                let mut v = Vec::new();
                if wait_a && self.banks.math_blocked(Src::A) {
                    v.push(format!(
                        "SrcA bank {} owned by {:?} (C7)",
                        self.banks.math_a, self.banks.a[self.banks.math_a]
                    ));
                }
                if wait_b && self.banks.math_blocked(Src::B) {
                    v.push(format!(
                        "SrcB bank {} owned by {:?} (C8)",
                        self.banks.math_b, self.banks.b[self.banks.math_b]
                    ));
                }
                if !v.is_empty() {
                    return format!("automatic wait: {}", v.join(", "));
                }
            }
            _ => {}
        }
        if i.unit != Unit::None {
            return format!("{} busy", unit_name(i.unit));
        }
        "waiting".to_string()
    }
}
