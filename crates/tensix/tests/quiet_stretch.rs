//! docs/execution-model.md EM-31: a coprocessor cycle inside a quiet stretch is counted, not
//! computed. Random three-thread programs — unpackers, Matrix and Vector Unit instructions,
//! STALLWAIT/SEMWAIT latches, semaphores, mutexes, ThCon loads and their tails — with words
//! arriving after random gaps, RISC-V semaphore writes and C10 pulses arriving in the middle
//! of stretches, run on two coprocessors in lock step: one stepped with `step_with` (which
//! skips quiet cycles), one with `step_every_cycle_with` (which computes every cycle). After
//! every cycle everything a tile or a report can observe must be equal, and at the end the
//! whole data state.
mod common;
use bhemu_tensix::{Coprocessor, FlatL1, Mode, PushSource, Pushed, THREADS};
use common::asm;

const VOCABULARY: &[&str] = &[
    "ttnop",
    "ttsfpnop",
    "ttseminit 4, 1, 2",
    "ttsempost 2",
    "ttsemget 2",
    "ttsemwait 322, 2, 2",
    "ttstallwait 128, 1",
    "ttstallwait 2, 2",
    "ttstallwait 2, 4",
    "ttstallwait 2, 8",
    "ttstallwait 2, 16",
    "ttstallwait 2, 96",
    "ttstallwait 2, 384",
    "ttstallwait 2, 1024",
    "ttstallwait 2, 1024",
    "ttstallwait 2, 2048",
    "ttstallwait 2, 4096",
    "ttcfgshiftmask 0, 0, 0, 0, 0, 0",
    "ttshiftxb 0, 0, 0",
    "ttloadind 0, 0, 0, 0, 0",
    "ttwrcfg 4, 0, 124",
    "ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1",
    "ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1",
    "ttunpacr 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1",
    "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1",
    "ttsetdvalid 3",
    "ttcleardvalid 2, 0",
    "ttelwadd 0, 0, 0, 0, 0",
    "ttmvmul 0, 0, 0, 0",
    "ttmovd2a 0, 0, 0, 0, 0",
    "ttzeroacc 0, 0, 0, 0, 0",
    "ttzerosrc 1, 0, 0, 1",
    "ttsfpmad 0, 0, 0, 0, 0",
    "ttsfploadi 1, 0, 0xbfc0",
    "ttatgetm 0",
    "ttatrelm 0",
    "ttsetc16 0, 0",
];

/// xorshift64*: the programs are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What the rest of a tile and the reports can see of a coprocessor between two steps.
fn observed(cp: &Coprocessor, cycle: u64) -> String {
    let per_thread: Vec<_> = (0..THREADS)
        .map(|t| {
            (
                cp.conditions(t),
                cp.qstatus(t),
                cp.latch(t),
                cp.fifo_len(t),
                cp.thread_idle(t),
                cp.mop_idle(t),
                cp.gate_wait(t),
            )
        })
        .collect();
    format!(
        "{per_thread:?} idle {} progressed {} sems {:?} mutexes {:?} deadlock {:?} dispatched {:?} units {:?}",
        cp.all_idle(),
        cp.progressed(),
        cp.semaphores(),
        cp.mutexes(),
        cp.deadlock(cycle).map(|e| e.to_string()),
        cp.dispatched(),
        cp.unit_occupancy(),
    )
}

#[test]
fn em31_a_quiet_stretch_is_the_steps_it_skips() {
    let words: Vec<u32> = VOCABULARY.iter().map(|l| asm(l)).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut skipped_somewhere = 0u64;
    for program in 0..200 {
        // Per thread: (arrival cycle, word), arrivals after random gaps (often none, sometimes
        // long enough for a stretch to start before the word comes).
        let mut queues: [Vec<(u64, u32)>; THREADS] = Default::default();
        for q in queues.iter_mut() {
            let mut at = 0;
            for _ in 0..rng.below(40) {
                at += match rng.below(4) {
                    0 => rng.below(30),
                    _ => 0,
                };
                q.push((at, words[rng.below(words.len() as u64) as usize]));
            }
        }
        // Inputs that do not go through the FIFOs: a RISC-V semaphore write, a C10 pulse.
        let pokes: Vec<(u64, u64)> = (0..rng.below(16))
            .map(|_| (rng.below(300), rng.below(5)))
            .collect();
        let mut fast = Coprocessor::new(bhemu_isa::tensix::Arch::Blackhole);
        let mut every = fast.clone();
        for cp in [&mut fast, &mut every] {
            cp.set_mode(Mode::Permissive);
            cp.set_dispatch_log(true);
        }
        let (mut l1_fast, mut l1_every) = (FlatL1::blackhole(), FlatL1::blackhole());
        let mut next = [0usize; THREADS];
        for cycle in 0..600u64 {
            for (t, q) in queues.iter().enumerate() {
                if let Some(&(at, w)) = q.get(next[t]) {
                    if at <= cycle {
                        let a = fast.push(t, PushSource::Trisc, w);
                        let b = every.push(t, PushSource::Trisc, w);
                        assert_eq!(
                            format!("{a:?}"),
                            format!("{b:?}"),
                            "program {program}: push at {cycle}"
                        );
                        if matches!(a, Ok(Pushed::Accepted)) {
                            next[t] += 1;
                        }
                    }
                }
            }
            let mut c10 = None;
            for &(_, what) in pokes.iter().filter(|p| p.0 == cycle) {
                match what {
                    0 | 1 => {
                        let value = what as u32; // even: post, odd: get
                        assert!(fast.sem_window_write(2, value).is_ok());
                        assert!(every.sem_window_write(2, value).is_ok());
                    }
                    t => {
                        let t = t as usize - 2;
                        fast.set_trisc_cfg_pending(t, true);
                        every.set_trisc_cfg_pending(t, true);
                        c10 = Some(t);
                    }
                }
            }
            if fast.quiet_at(cycle) {
                skipped_somewhere += 1;
            }
            let a = fast.step_with(cycle, &mut l1_fast);
            let b = every.step_every_cycle_with(cycle, &mut l1_every);
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "program {program}: step {cycle}"
            );
            if a.is_err() {
                break;
            }
            if let Some(t) = c10 {
                fast.set_trisc_cfg_pending(t, false);
                every.set_trisc_cfg_pending(t, false);
            }
            assert_eq!(
                fast.take_dispatch_log(),
                every.take_dispatch_log(),
                "program {program}: dispatches of cycle {cycle}"
            );
            assert_eq!(
                observed(&fast, cycle + 1),
                observed(&every, cycle + 1),
                "program {program}: after cycle {cycle}"
            );
        }
        assert_eq!(fast.warnings(), every.warnings(), "program {program}");
        assert_eq!(
            format!("{:?}", fast.state()),
            format!("{:?}", every.state()),
            "program {program}: data state"
        );
        assert!(l1_fast.bytes == l1_every.bytes, "program {program}: L1");
    }
    // The programs do reach stretches (else the test proves nothing).
    assert!(
        skipped_somewhere > 1000,
        "only {skipped_somewhere} quiet cycles"
    );
}
