//! docs/execution-model.md EM-30: a run ahead reads a clock whose words depend only on the
//! cycle (`CycleClock`: low word, high word, latched high word) exactly as single steps on the
//! clock read it, and stops before the first read in a cycle whose high word is not the latch
//! it was lent. The reference here is an independent bus that serves the three words from the
//! cycle it is told each step runs in and keeps its own latch.
use bhemu_isa::riscv::asm::{addi, bytes, li, spin};
use bhemu_isa::riscv::{BranchOp, Insn, LoadOp, RegOp};
use std::sync::Arc;

use bhemu_rv::{
    Access, Bus, ClockRead, CodeLibrary, CycleClock, FlatRam, Hart, HartConfig, PrivateRam, Shared,
    Step, UndoLog, Width,
};

const CODE: u32 = 0x1000;
const CLOCK: u32 = 0xFFB1_21F0;
const T0: u8 = 5;
const T1: u8 = 6;
const T2: u8 = 7;
const S0: u8 = 8;
const S1: u8 = 9;
const A0: u8 = 10;

/// `passes` passes of: read the low word, the high word and the latched high word, add all
/// three into s1; then spin.
fn program(passes: u32) -> Vec<Insn> {
    let mut p = li(A0, passes);
    p.extend(li(T1, CLOCK));
    for (rd, offset) in [(T0, 0), (T2, 4), (S0, 8)] {
        p.push(Insn::Load {
            op: LoadOp::Lw,
            rd,
            rs1: T1,
            offset,
        });
    }
    for rs2 in [T0, T2, S0] {
        p.push(Insn::Op {
            op: RegOp::Add,
            rd: S1,
            rs1: S1,
            rs2,
        });
    }
    p.push(addi(A0, A0, -1));
    p.push(Insn::Branch {
        op: BranchOp::Bne,
        rs1: A0,
        rs2: 0,
        offset: -28,
    });
    p.push(spin());
    p
}

/// Memory, and the clock as the hardware page describes it, read in cycle `cycle`.
struct ClockBus {
    ram: FlatRam,
    cycle: u64,
    latch: u32,
    reads: Vec<(u32, u32, u64)>,
}

impl Bus for ClockBus {
    fn fetch(&mut self, addr: u32) -> Access<u32> {
        self.ram.fetch(addr)
    }
    fn fetch_block(&mut self, addr: u32, out: &mut [u32]) -> bool {
        self.ram.fetch_block(addr, out)
    }
    fn load(&mut self, addr: u32, width: Width) -> Access<u32> {
        let v = match addr.wrapping_sub(CLOCK) {
            0 => {
                self.latch = (self.cycle >> 32) as u32;
                self.cycle as u32
            }
            4 => (self.cycle >> 32) as u32,
            8 => self.latch,
            _ => return self.ram.load(addr, width),
        };
        self.reads.push((addr, v, self.cycle));
        Access::Done(v)
    }
    fn store(&mut self, addr: u32, width: Width, value: u32) -> Access<()> {
        self.ram.store(addr, width, value)
    }
    fn push_tensix(&mut self, word: u32) -> Access<()> {
        self.ram.push_tensix(word)
    }
}

fn setup(passes: u32, first: u64) -> (Hart, ClockBus) {
    let mut ram = FlatRam::new(0, 1 << 16);
    ram.load_bytes(CODE, &bytes(&program(passes)))
        .expect("load");
    let mut hart = Hart::new(HartConfig {
        reset_pc: CODE,
        ..HartConfig::default()
    });
    // Decoded a window at a time, as on the chip (EM-27): the first step decodes the program.
    hart.set_code_library(Some(Arc::new(CodeLibrary::new())));
    let bus = ClockBus {
        ram,
        cycle: first,
        latch: (first >> 32) as u32,
        reads: Vec::new(),
    };
    (hart, bus)
}

fn step(h: &mut Hart, bus: &mut ClockBus) {
    assert_eq!(h.step_fast(bus), Step::Retired, "pc {:#x}", h.pc());
    bus.cycle += 1;
}

fn state(h: &Hart) -> Vec<u64> {
    let mut v = Vec::new();
    h.fold_arch_state(&mut |w| v.push(w));
    v
}

/// Steps `a` one instruction, then runs it ahead as far as it goes from the cycle after;
/// steps `b` as many single instructions on the clock. Returns the run's length.
fn run_ahead_against_steps(
    a: &mut Hart,
    abus: &mut ClockBus,
    b: &mut Hart,
    bbus: &mut ClockBus,
) -> u64 {
    step(a, abus);
    step(b, bbus);
    let mut local = vec![0u8; 64];
    let mut undo = UndoLog::default();
    let mut reads: Vec<ClockRead> = Vec::new();
    let mut ram = PrivateRam {
        base: 0xFFB0_0000,
        mem: &mut local,
        undo: &mut undo,
        shared: Shared::None,
        clock: Some(CycleClock {
            addr: CLOCK,
            first: abus.cycle,
            latched: abus.latch,
            reads: &mut reads,
        }),
    };
    let n = a.run_private_in(1 << 20, Some(&mut ram));
    abus.cycle += n;
    let from = bbus.reads.len();
    for _ in 0..n {
        step(b, bbus);
    }
    assert_eq!(state(a), state(b), "after a run of {n}");
    let stepped: Vec<(u32, u32, u64)> = bbus.reads[from..].to_vec();
    let ran: Vec<(u32, u32, u64)> = reads.iter().map(|r| (r.addr, r.value, r.cycle)).collect();
    assert_eq!(ran, stepped, "the run's clock reads");
    n
}

#[test]
fn em30_a_run_ahead_reads_the_clock_in_the_cycle_each_load_executes() {
    let passes = 500;
    let (mut a, mut abus) = setup(passes, 1000);
    let (mut b, mut bbus) = setup(passes, 1000);
    // li a0 (2), li t1 (2): the first step decodes; the run goes through every pass.
    let n = run_ahead_against_steps(&mut a, &mut abus, &mut b, &mut bbus);
    assert!(n >= 3 + 8 * u64::from(passes), "ran {n}");
    assert_eq!(bbus.reads.len(), 3 * passes as usize);
    assert_eq!(a.reg(usize::from(A0)), 0, "every pass ran ahead");
}

#[test]
fn em30_a_run_ahead_stops_before_a_read_in_a_cycle_of_another_high_word() {
    let passes = 100;
    // The low word wraps 300 cycles in: about 37 passes run ahead, the rest on the clock.
    let first = (1u64 << 32) - 300;
    let (mut a, mut abus) = setup(passes, first);
    let (mut b, mut bbus) = setup(passes, first);
    let n = run_ahead_against_steps(&mut a, &mut abus, &mut b, &mut bbus);
    let stop = abus.cycle;
    // It stopped before the first read in the new high word: at most five ops after the wrap.
    assert!(
        n > 200 && (1 << 32..(1 << 32) + 6).contains(&stop),
        "stopped at {stop:#x} after {n}"
    );
    let next = a.pc();
    assert!(
        (CODE + 16..CODE + 28).contains(&next),
        "stopped at {next:#x}"
    );
    // On the clock from there, both end in the same state, every read the same.
    while a.reg(usize::from(A0)) != 0 {
        step(&mut a, &mut abus);
        step(&mut b, &mut bbus);
    }
    assert_eq!(state(&a), state(&b));
    assert_eq!(
        abus.reads[..],
        bbus.reads[bbus.reads.len() - abus.reads.len()..]
    );
    assert_eq!(
        abus.latch, 1,
        "the reads on the clock latched the new high word"
    );
}
