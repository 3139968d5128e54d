//! Run a `.tsx` program on the coprocessor alone (`bhemu tensix run`), and render the result
//! as text or as one JSON object.
//!
//! Pushing: each thread's words are pushed as fast as its FIFO accepts them, at most one per
//! thread per cycle (a TRISC issues at most one store per cycle), before that cycle's `step`.
//! The run ends when every word is pushed, every thread has drained and every unit is idle;
//! `cycles` is then the number of cycles stepped.
use bhemu_isa::tensix::{disassemble, Arch};
use serde_json::{json, Map, Value};

use crate::coprocessor::{Coprocessor, Mode, PushSource, THREADS};
use crate::error::{ErrorKind, TensixError};
use crate::fifo::Pushed;
use crate::program::Program;

#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    pub arch: Arch,
    pub max_cycles: u64,
    pub mode: Mode,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            arch: Arch::Blackhole,
            max_cycles: 1_000_000,
            mode: Mode::Strict,
        }
    }
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub arch: Arch,
    pub cycles: u64,
    /// Per thread: (cycle, word) of every instruction that left the Wait Gate, in order.
    pub dispatched: [Vec<(u64, u32)>; THREADS],
    pub semaphores: [(u8, u8); 8],
    pub mutexes: Vec<(u32, Option<u8>)>,
    pub error: Option<TensixError>,
    pub warnings: Vec<TensixError>,
}

impl RunResult {
    /// Dispatch cycles of thread `t` whose word has opcode `op` (test helper).
    pub fn cycles_of(&self, t: usize, opcode: u8) -> Vec<u64> {
        self.dispatched[t]
            .iter()
            .filter(|(_, w)| (w >> 24) as u8 == opcode)
            .map(|&(c, _)| c)
            .collect()
    }

    /// Words dispatched by thread `t`, in order.
    pub fn words(&self, t: usize) -> Vec<u32> {
        self.dispatched[t].iter().map(|&(_, w)| w).collect()
    }

    pub fn to_json(&self) -> Value {
        let threads: Vec<Value> = (0..THREADS)
            .map(|t| {
                let d: Vec<Value> = self.dispatched[t]
                    .iter()
                    .map(|&(c, w)| json!({"cycle": c, "word": format!("{w:#010x}"), "insn": disassemble(self.arch, w)}))
                    .collect();
                json!({"thread": t, "dispatched": d})
            })
            .collect();
        let sems: Vec<Value> = self
            .semaphores
            .iter()
            .map(|&(v, m)| json!({"value": v, "max": m}))
            .collect();
        let mut mutexes = Map::new();
        for &(i, h) in &self.mutexes {
            mutexes.insert(i.to_string(), h.map_or(Value::Null, |t| json!(t)));
        }
        let error = match &self.error {
            None => Value::Null,
            Some(e) => {
                let threads: Vec<Value> = e
                    .threads
                    .iter()
                    .map(|w| json!({"thread": w.thread, "waiting_on": w.waiting_on}))
                    .collect();
                json!({"kind": e.kind.name(), "message": error_sentence(e), "threads": threads})
            }
        };
        json!({"cycles": self.cycles, "threads": threads, "semaphores": sems, "mutexes": Value::Object(mutexes), "error": error})
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for t in 0..THREADS {
            s.push_str(&format!("T{t}:\n"));
            if self.dispatched[t].is_empty() {
                s.push_str("  (nothing dispatched)\n");
            }
            for &(c, w) in &self.dispatched[t] {
                s.push_str(&format!(
                    "  cycle {c:>6}  {w:#010x}  {}\n",
                    disassemble(self.arch, w)
                ));
            }
        }
        s.push_str("semaphores:");
        for (i, (v, m)) in self.semaphores.iter().enumerate() {
            s.push_str(&format!(" {i}={v}/{m}"));
        }
        s.push_str("\nmutexes:");
        for &(i, h) in &self.mutexes {
            match h {
                Some(t) => s.push_str(&format!(" {i}=T{t}")),
                None => s.push_str(&format!(" {i}=free")),
            }
        }
        s.push_str(&format!("\ncycles: {}\n", self.cycles));
        for w in &self.warnings {
            s.push_str(&format!("warning: {w}\n"));
        }
        s
    }
}

/// The error's sentence with its location.
pub fn error_sentence(e: &TensixError) -> String {
    if e.kind == ErrorKind::Invalid && e.thread.is_none() && e.word.is_none() {
        // Input errors found before the run (file, line and reason are in the message).
        return e.message.clone();
    }
    let mut m = format!("{} (cycle {}", e.message, e.cycle);
    if let Some(t) = e.thread {
        m.push_str(&format!(", thread T{t}"));
    }
    if let Some(w) = e.word {
        m.push_str(&format!(", word {w:#010x}"));
    }
    m.push(')');
    m
}

/// Run `program`; never panics, every failure is in `RunResult::error`.
pub fn run(program: &Program, opts: RunOptions) -> RunResult {
    let mut cp = Coprocessor::new(opts.arch);
    cp.set_mode(opts.mode);
    cp.set_dispatch_log(true);
    let mut result = RunResult {
        arch: opts.arch,
        cycles: 0,
        dispatched: Default::default(),
        semaphores: [(0, 0); 8],
        mutexes: Vec::new(),
        error: None,
        warnings: Vec::new(),
    };
    let setup = (|| -> Result<(), TensixError> {
        for &(i, v, m) in &program.sems {
            cp.set_semaphore(i, v, m)?;
        }
        for (t, tp) in program.threads.iter().enumerate() {
            for &(i, v) in &tp.mopcfg {
                cp.write_mop_cfg(t, i, v)?;
            }
        }
        Ok(())
    })();
    if let Err(e) = setup {
        result.error = Some(e);
    }
    let mut next = [0usize; THREADS];
    let mut cycle: u64 = 0;
    while result.error.is_none() {
        let all_pushed = (0..THREADS).all(|t| next[t] >= program.threads[t].words.len());
        if all_pushed && cp.all_idle() {
            break;
        }
        if cycle >= opts.max_cycles {
            let mut e = TensixError::new(
                ErrorKind::MaxCycles,
                cycle,
                format!("the run did not finish within {} cycles", opts.max_cycles),
            );
            e.threads = cp.blocked_threads();
            result.error = Some(e);
            break;
        }
        for (t, n) in next.iter_mut().enumerate() {
            if let Some(&(w, _)) = program.threads[t].words.get(*n) {
                match cp.push(t, PushSource::Trisc, w) {
                    Ok(Pushed::Accepted) => *n += 1,
                    Ok(Pushed::Full) => {}
                    Err(e) => result.error = Some(e),
                }
            }
        }
        let stepped = cp.step(cycle);
        for d in cp.take_dispatch_log() {
            result.dispatched[d.thread as usize % THREADS].push((d.cycle, d.word));
        }
        cycle += 1;
        if let Err(e) = stepped {
            result.error = Some(e);
            break;
        }
        if let Some(e) = cp.deadlock(cycle) {
            result.error = Some(e);
            break;
        }
    }
    result.cycles = cycle;
    result.semaphores = cp.semaphores();
    result.mutexes = cp.mutexes();
    result.warnings = cp.warnings().to_vec();
    result
}
