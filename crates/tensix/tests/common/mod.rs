//! Shared test harness: a coprocessor, words queued per thread (pushed as fast as accepted,
//! one per thread per cycle, like the runner), and the dispatch log per thread.
#![allow(dead_code)]
use std::collections::VecDeque;

use bhemu_isa::tensix::{assemble, Arch};
use bhemu_tensix::{Coprocessor, ErrorKind, FlatL1, PushSource, Pushed, TensixError};

pub fn asm(line: &str) -> u32 {
    asm_for(Arch::Blackhole, line)
}

pub fn asm_for(arch: Arch, line: &str) -> u32 {
    match assemble(arch, line) {
        Ok(w) => w,
        Err(e) => panic!("test program line `{line}` does not assemble: {e}"),
    }
}

pub struct Sim {
    pub cp: Coprocessor,
    pub queue: [VecDeque<u32>; 3],
    pub log: [Vec<(u64, u32)>; 3],
    pub cycle: u64,
    /// The L1 the unpackers, packers and ThCon loads/stores reach.
    pub l1: FlatL1,
}

impl Sim {
    pub fn new() -> Self {
        Self::with_arch(Arch::Blackhole)
    }

    pub fn with_arch(arch: Arch) -> Self {
        let mut cp = Coprocessor::new(arch);
        cp.set_dispatch_log(true);
        Sim {
            cp,
            queue: Default::default(),
            log: Default::default(),
            cycle: 0,
            l1: FlatL1::blackhole(),
        }
    }

    /// Queue assembly lines for thread `t`.
    pub fn prog(&mut self, t: usize, lines: &[&str]) -> &mut Self {
        let arch = self.cp.arch();
        for l in lines {
            self.queue[t].push_back(asm_for(arch, l));
        }
        self
    }

    pub fn words(&mut self, t: usize, words: &[u32]) -> &mut Self {
        self.queue[t].extend(words.iter().copied());
        self
    }

    /// One cycle: push (at most one word per thread), step, collect the log.
    pub fn step(&mut self) -> Result<(), TensixError> {
        for t in 0..3 {
            if let Some(&w) = self.queue[t].front() {
                if self.cp.push(t, PushSource::Trisc, w)? == Pushed::Accepted {
                    self.queue[t].pop_front();
                }
            }
        }
        let r = self.cp.step_with(self.cycle, &mut self.l1);
        for d in self.cp.take_dispatch_log() {
            self.log[d.thread as usize].push((d.cycle, d.word));
        }
        self.cycle += 1;
        r
    }

    pub fn steps(&mut self, n: u64) -> Result<(), TensixError> {
        for _ in 0..n {
            self.step()?;
        }
        Ok(())
    }

    /// Run until everything is pushed and idle; Err on error, deadlock or 10 000 cycles.
    pub fn run(&mut self) -> Result<u64, TensixError> {
        loop {
            if self.queue.iter().all(|q| q.is_empty()) && self.cp.all_idle() {
                return Ok(self.cycle);
            }
            if self.cycle > 10_000 {
                return Err(TensixError::new(
                    ErrorKind::MaxCycles,
                    self.cycle,
                    "test ran away",
                ));
            }
            self.step()?;
            if let Some(e) = self.cp.deadlock(self.cycle) {
                return Err(e);
            }
        }
    }

    pub fn must_run(&mut self) -> u64 {
        match self.run() {
            Ok(c) => c,
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    /// Cycle at which the n-th (0-based) dispatch of `word` by thread `t` happened.
    pub fn at(&self, t: usize, word: u32, n: usize) -> u64 {
        match self.log[t].iter().filter(|&&(_, w)| w == word).nth(n) {
            Some(&(c, _)) => c,
            None => panic!(
                "T{t} never dispatched {word:#010x} (occurrence {n}); log {:x?}",
                self.log[t]
            ),
        }
    }

    /// Cycle of the n-th dispatch of assembly `line` by `t`.
    pub fn at_asm(&self, t: usize, line: &str, n: usize) -> u64 {
        self.at(t, asm_for(self.cp.arch(), line), n)
    }

    pub fn dispatched_words(&self, t: usize) -> Vec<u32> {
        self.log[t].iter().map(|&(_, w)| w).collect()
    }
}
