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
use crate::formats::{
    read_dst_bf16, read_dst_fp16, read_dst_fp32, write_dst_bf16, write_dst_fp16, write_dst_fp32,
};
use crate::program::{Dump, ElemFormat, Program};
use crate::units::{FlatL1, TensixMemory};

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
    /// The program's `dump` lines, taken after the run (also after an error).
    pub dumps: Vec<DumpResult>,
}

/// One dump: what was dumped and each element's bits (IEEE layout for floats).
#[derive(Clone, Debug, PartialEq)]
pub struct DumpResult {
    /// `l1 0x20000` or `dst 0..63`.
    pub what: String,
    pub format: ElemFormat,
    pub bits: Vec<u32>,
}

impl DumpResult {
    /// Element `i` as a number (floats decoded from their bits).
    pub fn value(&self, i: usize) -> f64 {
        let b = self.bits[i];
        match self.format {
            ElemFormat::Bf16 => f32::from_bits(b << 16) as f64,
            ElemFormat::Fp32 => f32::from_bits(b) as f64,
            ElemFormat::Fp16 => fp16_value(b as u16),
            _ => b as f64,
        }
    }
}

/// The value of an FP16 bit pattern, IEEE reading (FloatBitPatterns.md: exponent 31 is a
/// normal exponent on the coprocessor; printed here as IEEE would, for the user's tools).
fn fp16_value(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    if e == 0 {
        s * m * 2f64.powi(-24)
    } else {
        s * (1.0 + m / 1024.0) * 2f64.powi(e - 15)
    }
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
        let dumps: Vec<Value> = self
            .dumps
            .iter()
            .map(|d| {
                let width = 2 * d.format.size();
                let bits: Vec<Value> = d
                    .bits
                    .iter()
                    .map(|b| json!(format!("{b:#0w$x}", w = width + 2)))
                    .collect();
                let values: Vec<Value> = (0..d.bits.len())
                    .map(|i| {
                        serde_json::Number::from_f64(d.value(i)).map_or(Value::Null, Value::Number)
                    })
                    .collect();
                json!({"what": d.what, "format": d.format.name(), "bits": bits, "values": values})
            })
            .collect();
        json!({"cycles": self.cycles, "threads": threads, "semaphores": sems, "mutexes": Value::Object(mutexes), "error": error, "dumps": dumps})
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
        for d in &self.dumps {
            s.push_str(&format!("dump {} {}:", d.what, d.format.name()));
            for (i, b) in d.bits.iter().enumerate() {
                if i % 8 == 0 {
                    s.push_str("\n ");
                }
                s.push_str(&format!(" {}({b:#x})", d.value(i)));
            }
            s.push('\n');
        }
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
    run_observed(program, opts, None)
}

/// Called after every cycle's step with the cycle, the coprocessor and that step's dispatches
/// (a timeline trace, `crate::trace`).
pub type Observer<'a> = &'a mut dyn FnMut(u64, &Coprocessor, &[crate::coprocessor::Dispatch]);

/// [`run`], showing each cycle to `observe`.
pub fn run_observed(
    program: &Program,
    opts: RunOptions,
    mut observe: Option<Observer>,
) -> RunResult {
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
        dumps: Vec::new(),
    };
    let mut l1 = FlatL1::blackhole();
    let setup = (|| -> Result<(), TensixError> {
        for &(i, v, m) in &program.sems {
            cp.set_semaphore(i, v, m)?;
        }
        for (addr, bytes) in &program.l1 {
            l1.write(*addr, bytes)
                .map_err(|m| TensixError::new(ErrorKind::Invalid, 0, format!("l1 preload: {m}")))?;
        }
        let st = cp.state_mut();
        for c in &program.cfg {
            match c.thread {
                Some(t) => st.cfg.set(t, c.field, c.value),
                None => {
                    let old = st.cfg.word(0, c.field.addr32).unwrap_or(0);
                    let _ =
                        st.cfg
                            .write_word_plain(0, c.field.addr32, c.field.insert(old, c.value));
                }
            }
        }
        for (t, tp) in program.threads.iter().enumerate() {
            for &(g, v) in &tp.gprs {
                st.gprs[t][g] = v;
            }
        }
        let st = cp.state_mut();
        let cfg = st.dest_access_cfg(0);
        for (row, fmt, bytes) in &program.dst {
            let size = fmt.size();
            for (i, b) in bytes.chunks_exact(size).enumerate() {
                let r = row + (i / crate::state::DST_COLS) as u32;
                let c = i % crate::state::DST_COLS;
                let v = b.iter().rev().fold(0u32, |a, &x| (a << 8) | x as u32);
                match fmt {
                    ElemFormat::Fp32 => st.dst.write32(r, c, write_dst_fp32(v), cfg),
                    ElemFormat::U32 => st.dst.write32(r, c, v, cfg),
                    ElemFormat::Bf16 => st.dst.write16(r, c, write_dst_bf16(v as u16), cfg),
                    ElemFormat::Fp16 => st.dst.write16(r, c, write_dst_fp16(v as u16), cfg),
                    ElemFormat::U16 | ElemFormat::U8 => st.dst.write16(r, c, v as u16, cfg),
                }
            }
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
        let stepped = cp.step_with(cycle, &mut l1);
        let log = cp.take_dispatch_log();
        if let Some(o) = observe.as_mut() {
            o(cycle, &cp, &log);
        }
        for d in log {
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
    for d in &program.dumps {
        match take_dump(&cp, &mut l1, d) {
            Ok(r) => result.dumps.push(r),
            Err(m) => {
                if result.error.is_none() {
                    result.error = Some(TensixError::new(ErrorKind::Invalid, cycle, m));
                }
            }
        }
    }
    result
}

/// Reads one dump from the final state; a range leaving L1 is an error.
fn take_dump(cp: &Coprocessor, l1: &mut FlatL1, d: &Dump) -> Result<DumpResult, String> {
    match *d {
        Dump::L1 {
            addr,
            format,
            count,
        } => {
            let size = format.size();
            let mut buf = vec![0u8; size * count];
            l1.read(addr, &mut buf)
                .map_err(|m| format!("dump l1: {m}"))?;
            let bits = buf
                .chunks(size)
                .map(|c| {
                    let mut b = [0u8; 4];
                    b[..size].copy_from_slice(c);
                    u32::from_le_bytes(b)
                })
                .collect();
            Ok(DumpResult {
                what: format!("l1 {addr:#x}"),
                format,
                bits,
            })
        }
        Dump::Dst {
            first,
            last,
            format,
        } => {
            let st = cp.state();
            let cfg = st.dest_access_cfg(0);
            let mut bits = Vec::new();
            for r in first..=last {
                for c in 0..crate::state::DST_COLS {
                    bits.push(match format {
                        ElemFormat::Fp32 => read_dst_fp32(st.dst.read32(r, c, cfg)),
                        ElemFormat::U32 => st.dst.read32(r, c, cfg),
                        ElemFormat::Bf16 => read_dst_bf16(st.dst.read16(r, c, cfg)) as u32,
                        ElemFormat::Fp16 => read_dst_fp16(st.dst.read16(r, c, cfg)) as u32,
                        ElemFormat::U16 => st.dst.read16(r, c, cfg) as u32,
                        ElemFormat::U8 => (st.dst.read16(r, c, cfg) & 0xff) as u32,
                    });
                }
            }
            Ok(DumpResult {
                what: format!("dst {first}..{last}"),
                format,
                bits,
            })
        }
    }
}
