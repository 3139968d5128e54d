//! The baby cores' pipeline timing, clause by clause (docs/core-timing.md CT-n). Each test
//! runs a small program under `CoreTiming::Pipeline` on a bus whose address ranges stand for
//! the memory regions, and checks the cycle each instruction entered EX1 against the
//! latencies of BabyRISCV/README.md worked out by hand in the test.
mod common;

use bhemu_isa::riscv::*;
use bhemu_rv::{Access, Bus, CoreTiming, FlatRam, Hart, HartConfig, MemRegion, Step, Width};
use common::{li, op, opi, words, RAM_BASE, RAM_SIZE};

/// Addresses standing for each region (inside the flat RAM).
const WALL: u32 = 0x9000;
const FIFO: u32 = 0xA000;
const TENSIX: u32 = 0xA100;
const SLOW_LOCAL: u32 = 0xA200;
const L1: u32 = 0xB000;
const LOCAL: u32 = 0xC000;

/// A flat RAM whose ranges answer the regions above; a load of `WALL` reads the cycle the
/// test loop last set (a wall clock), `WALL + 8` reads 0.
struct TimedBus {
    ram: FlatRam,
    now: u64,
}

impl Bus for TimedBus {
    fn fetch(&mut self, addr: u32) -> Access<u32> {
        self.ram.fetch(addr)
    }
    fn load(&mut self, addr: u32, width: Width) -> Access<u32> {
        match addr {
            WALL => Access::Done(self.now as u32),
            a if a == WALL + 8 => Access::Done(0),
            _ => self.ram.load(addr, width),
        }
    }
    fn store(&mut self, addr: u32, width: Width, value: u32) -> Access<()> {
        self.ram.store(addr, width, value)
    }
    fn push_tensix(&mut self, word: u32) -> Access<()> {
        self.ram.push_tensix(word)
    }
    fn region(&self, addr: u32) -> MemRegion {
        match addr {
            a if (WALL..WALL + 0x100).contains(&a) => MemRegion::TileRegs,
            a if (FIFO..FIFO + 0x100).contains(&a) => MemRegion::Fifo,
            a if (TENSIX..TENSIX + 0x100).contains(&a) => MemRegion::TensixRegs,
            a if (SLOW_LOCAL..SLOW_LOCAL + 0x100).contains(&a) => MemRegion::SlowLocalRam,
            a if (L1..L1 + 0x1000).contains(&a) => MemRegion::L1,
            _ => MemRegion::LocalRam,
        }
    }
}

/// What a run under the pipeline timing did: per retired instruction, its pc and the cycle it
/// entered EX1 (= the cycle it executed), and the hart at the `ebreak`.
struct Timed {
    entered: Vec<(u32, u64)>,
    hart: Hart,
    bus: TimedBus,
}

impl Timed {
    /// The cycle the `i`-th retired instruction (0-based, in program order) entered EX1.
    fn at(&self, i: usize) -> u64 {
        self.entered[i].1
    }
    /// Cycles between the `i`-th and `j`-th retired instructions.
    fn gap(&self, i: usize, j: usize) -> u64 {
        self.at(j) - self.at(i)
    }
}

/// Runs `prog` then `ebreak` with registers `regs` and the RAM words `init` preset.
fn run_timed(
    prog: &[Insn],
    regs: &[(usize, u32)],
    init: &[(u32, u32)],
    timing: CoreTiming,
) -> Timed {
    let mut p = prog.to_vec();
    p.push(Insn::Ebreak);
    let mut ram = FlatRam::new(RAM_BASE, RAM_SIZE);
    for &(addr, v) in init {
        ram.write_u32(addr, v).unwrap();
    }
    let bytes: Vec<u8> = words(&p).iter().flat_map(|w| w.to_le_bytes()).collect();
    ram.load_bytes(RAM_BASE, &bytes).unwrap();
    let mut hart = Hart::new(HartConfig {
        reset_pc: RAM_BASE,
        timing,
        ..HartConfig::default()
    });
    for &(r, v) in regs {
        hart.set_reg(r, v);
    }
    let mut bus = TimedBus { ram, now: 0 };
    let mut entered = Vec::new();
    for _ in 0..100_000 {
        let (pc, cycle) = (hart.pc(), hart.cycles());
        bus.now = cycle;
        match hart.step_fast(&mut bus) {
            Step::Retired => entered.push((pc, cycle)),
            // Under one instruction per cycle nothing waits; under the pipeline a wait is
            // never a bus stall.
            Step::Waited if timing == CoreTiming::Pipeline => {}
            Step::Halted => return Timed { entered, hart, bus },
            other => panic!("unexpected step {other:?} at pc {pc:#x}"),
        }
    }
    panic!("program did not reach ebreak");
}

fn pipelined(prog: &[Insn], regs: &[(usize, u32)]) -> Timed {
    run_timed(prog, regs, &[], CoreTiming::Pipeline)
}

fn lw(rd: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Load {
        op: LoadOp::Lw,
        rd,
        rs1,
        offset,
    }
}
fn lbu(rd: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Load {
        op: LoadOp::Lbu,
        rd,
        rs1,
        offset,
    }
}
fn sw(rs2: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Store {
        op: StoreOp::Sw,
        rs1,
        rs2,
        offset,
    }
}
fn sb(rs2: u8, rs1: u8, offset: i32) -> Insn {
    Insn::Store {
        op: StoreOp::Sb,
        rs1,
        rs2,
        offset,
    }
}
/// `amoadd.w rd, x0, (rs1)`.
fn amoadd(rd: u8, rs1: u8) -> Insn {
    Insn::Amo {
        op: AmoOp::Add,
        rd,
        rs1,
        rs2: 0,
        aq: false,
        rl: false,
    }
}
fn nop() -> Insn {
    opi(ImmOp::Addi, 0, 0, 0)
}
fn branch(op: BranchOp, rs1: u8, rs2: u8, offset: i32) -> Insn {
    Insn::Branch {
        op,
        rs1,
        rs2,
        offset,
    }
}

#[test]
fn ct1_an_instruction_waits_in_ex1_for_its_operands() {
    // lw x5 from L1 (8 cycles), then x6 = x5 + 1 at once: it enters 8 cycles after the load.
    let t = pipelined(&[lw(5, 10, 0), opi(ImmOp::Addi, 6, 5, 1)], &[(10, L1)]);
    assert_eq!(t.gap(0, 1), 8);
    // Seven independent instructions between hide the latency entirely.
    let mut prog = vec![lw(5, 10, 0)];
    prog.extend((0..7).map(|_| nop()));
    prog.push(opi(ImmOp::Addi, 6, 5, 1));
    let t = pipelined(&prog, &[(10, L1)]);
    assert_eq!(t.gap(0, 8), 8, "{:?}", t.entered);
    assert_eq!(t.hart.cycles(), t.hart.instret(), "no stalled cycle");
}

#[test]
fn ct2_each_region_has_its_documented_load_latency() {
    for (addr, latency) in [
        (LOCAL, 2),
        (FIFO, 3),
        (TENSIX, 4),
        (WALL + 0x10, 7),
        (SLOW_LOCAL, 8),
        (L1, 8),
    ] {
        let t = pipelined(&[lw(5, 10, 0), opi(ImmOp::Addi, 6, 5, 1)], &[(10, addr)]);
        assert_eq!(t.gap(0, 1), latency, "load from {addr:#x}");
    }
    // An atomic on L1 takes 12.
    let amo = amoadd(5, 10);
    let t = pipelined(&[amo, opi(ImmOp::Addi, 6, 5, 1)], &[(10, L1)]);
    assert_eq!(t.gap(0, 1), 12);
}

#[test]
fn ct3_a_mispredicted_branch_leaves_a_four_cycle_bubble() {
    // Forward taken (predicted not taken): mispredicted.
    let t = pipelined(&[branch(BranchOp::Beq, 0, 0, 8), nop(), nop()], &[]);
    assert_eq!(t.entered[1].0, RAM_BASE + 8);
    assert_eq!(t.gap(0, 1), 5);
    // Forward not taken: predicted.
    let t = pipelined(&[branch(BranchOp::Bne, 0, 0, 8), nop(), nop()], &[]);
    assert_eq!(t.gap(0, 1), 1);
    // A counting loop: the backward branch taken is predicted, its exit is not.
    let t = pipelined(
        &[
            li(5, 3),
            opi(ImmOp::Addi, 5, 5, -1),
            branch(BranchOp::Bne, 5, 0, -4),
            nop(),
        ],
        &[],
    );
    // li, then three passes of (addi, bne), then the nop after the exit's bubble.
    assert_eq!(t.entered.len(), 1 + 6 + 1);
    assert_eq!(t.gap(1, 3), 2, "a taken backward branch costs nothing");
    assert_eq!(t.gap(6, 7), 5, "the loop's exit is mispredicted");
    // jal is predicted.
    let t = pipelined(&[Insn::Jal { rd: 0, offset: 8 }, nop(), nop()], &[]);
    assert_eq!(t.gap(0, 1), 1);
}

#[test]
fn ct4_multiplies_take_two_cycles_and_divides_occupy_ex1() {
    let t = pipelined(
        &[op(RegOp::Mul, 5, 10, 11), opi(ImmOp::Addi, 6, 5, 1)],
        &[(10, 3), (11, 4)],
    );
    assert_eq!(t.gap(0, 1), 2);
    // An independent instruction after a multiply is not held.
    let t = pipelined(&[op(RegOp::Mul, 5, 10, 11), nop()], &[(10, 3), (11, 4)]);
    assert_eq!(t.gap(0, 1), 1);
    for (o, dividend, divisor, cycles) in [
        (RegOp::Divu, 100, 0, 2),
        (RegOp::Divu, 100, 1, 2),
        (RegOp::Div, 0x8000_0000, u32::MAX, 2),
        (RegOp::Divu, 5, 3, 6),
        (RegOp::Divu, u32::MAX, 3, 33),
        (RegOp::Remu, 0xFFFF, 3, 17),
        (RegOp::Rem, (-0xFFFFi32) as u32, 3, 17),
    ] {
        // Even an independent instruction waits while the divide holds EX1.
        let t = pipelined(&[op(o, 5, 10, 11), nop()], &[(10, dividend), (11, divisor)]);
        assert_eq!(t.gap(0, 1), cycles, "{o:?} {dividend:#x} / {divisor:#x}");
    }
}

#[test]
fn ct5_the_retire_queue_holds_eight_instructions() {
    // An L1 atomic (12 cycles) retires at 12: seven independent instructions follow at once;
    // the eighth after it needs the atomic's queue entry and enters at 12, not 8.
    let amo = amoadd(5, 10);
    let mut prog = vec![amo];
    prog.extend((0..8).map(|_| nop()));
    let t = pipelined(&prog, &[(10, L1)]);
    assert_eq!(t.gap(0, 7), 7);
    assert_eq!(t.gap(0, 8), 12, "{:?}", t.entered);
}

#[test]
fn ct6_csrs_and_fences_hold_what_follows_until_they_retire() {
    // A 7-cycle load retires at 7; the CSR after it retires at 8; the next instruction
    // enters at 8.
    let csr = Insn::Csr {
        op: CsrOp::Rw,
        rd: 0,
        csr: 0x340,
        src: 0,
    };
    let t = pipelined(&[lw(5, 10, 0), csr, nop()], &[(10, WALL + 0x10)]);
    assert_eq!(t.gap(0, 1), 1);
    assert_eq!(t.gap(0, 2), 8);
    // A fence waits for the store queue to drain: an L1 store takes 5 cycles.
    let fence = Insn::Fence {
        fm: 0,
        pred: 0xF,
        succ: 0xF,
    };
    let t = pipelined(&[sw(0, 10, 0), fence, nop()], &[(10, L1)]);
    assert_eq!(t.gap(0, 1), 1);
    assert_eq!(t.gap(0, 2), 5, "{:?}", t.entered);
}

#[test]
fn ct7_the_store_queue_writes_one_uncoalesced_l1_store_every_five_cycles() {
    // Six stores to six L1 lines: four fill the queue (leaving at 5, 10, 15, 20); the fifth
    // enters when the first has left (5), the sixth when the second has (10).
    let prog: Vec<Insn> = (0..6).map(|i| sw(0, 10, i * 16)).collect();
    let t = pipelined(&prog, &[(10, L1)]);
    let at: Vec<u64> = (0..6).map(|i| t.at(i)).collect();
    assert_eq!(at, [0, 1, 2, 3, 5, 10]);
    // Stores to consecutive words of one line coalesce into one entry: sixteen stores over
    // four lines never wait.
    let prog: Vec<Insn> = (0..16).map(|i| sw(0, 10, i * 4)).collect();
    let t = pipelined(&prog, &[(10, L1)]);
    assert_eq!(t.gap(0, 15), 15);
    // Stores elsewhere take a cycle each.
    let prog: Vec<Insn> = (0..8).map(|i| sw(0, 10, i * 16)).collect();
    let t = pipelined(&prog, &[(10, LOCAL)]);
    assert_eq!(t.gap(0, 7), 7);
    // A load of a byte still in the queue waits for the queue to drain.
    let t = pipelined(&[sw(0, 10, 0), lw(5, 10, 0)], &[(10, L1)]);
    assert_eq!(t.gap(0, 1), 5);
    let t = pipelined(&[sw(0, 10, 0), lw(5, 10, 4)], &[(10, L1)]);
    assert_eq!(t.gap(0, 1), 1, "a load of other bytes bypasses the queue");
}

#[test]
fn ct8_the_l0_data_cache_serves_four_recent_l1_lines_in_two_cycles() {
    let dep = |rd: u8| opi(ImmOp::Addi, 6, rd, 1);
    // The second load of a line hits.
    let t = pipelined(&[lw(5, 10, 0), dep(5), lw(5, 10, 4), dep(5)], &[(10, L1)]);
    assert_eq!(t.gap(0, 1), 8);
    assert_eq!(t.gap(2, 3), 2);
    // Five lines: the first is evicted by the fifth.
    let mut prog = Vec::new();
    for line in [0, 1, 2, 3, 4, 0] {
        prog.push(lw(5, 10, line * 16));
        prog.push(dep(5));
    }
    let t = pipelined(&prog, &[(10, L1)]);
    assert_eq!(t.gap(10, 11), 8, "line 0 was the least recently used");
    let mut prog = Vec::new();
    for line in [0, 1, 2, 3, 0, 4, 0] {
        prog.push(lw(5, 10, line * 16));
        prog.push(dep(5));
    }
    let t = pipelined(&prog, &[(10, L1)]);
    assert_eq!(
        t.gap(12, 13),
        2,
        "line 0 was used again before the fifth line came"
    );
    // A store to the line flushes it from the L0 data cache.
    let mut prog = vec![lw(5, 10, 0), dep(5), sw(0, 10, 8)];
    prog.extend((0..6).map(|_| nop()));
    prog.extend([lw(5, 10, 0), dep(5)]);
    let t = pipelined(&prog, &[(10, L1)]);
    assert_eq!(t.gap(9, 10), 8);
    // A fence flushes every line.
    let fence = Insn::Fence {
        fm: 0,
        pred: 0xF,
        succ: 0xF,
    };
    let t = pipelined(
        &[lw(5, 10, 0), dep(5), fence, lw(5, 10, 0), dep(5)],
        &[(10, L1)],
    );
    assert_eq!(t.gap(3, 4), 8);
}

/// A program with every kind of timing event: the values and the instruction count are those
/// of one instruction per cycle; only the cycles differ.
#[test]
fn ct9_pipeline_timing_changes_when_not_what() {
    let prog = [
        li(5, 40),
        lw(6, 10, 0),
        op(RegOp::Mul, 7, 6, 5),
        op(RegOp::Divu, 8, 7, 11),
        sw(8, 10, 4),
        sb(7, 12, 3),
        lbu(9, 12, 3),
        op(RegOp::Add, 13, 13, 9),
        lw(14, 15, 0),
        op(RegOp::Add, 13, 13, 14),
        opi(ImmOp::Addi, 5, 5, -1),
        branch(BranchOp::Bne, 5, 0, -40),
    ];
    let regs = [(10, L1), (11, 7), (12, LOCAL), (15, WALL + 0x10)];
    let one = run_timed(&prog, &regs, &[], CoreTiming::OnePerCycle);
    let piped = run_timed(&prog, &regs, &[], CoreTiming::Pipeline);
    assert_eq!(one.hart.regs(), piped.hart.regs());
    assert_eq!(one.hart.instret(), piped.hart.instret());
    assert_eq!(one.bus.ram.bytes(), piped.bus.ram.bytes());
    assert_eq!(one.hart.cycles(), one.hart.instret());
    assert!(
        piped.hart.cycles() > one.hart.cycles(),
        "{} cycles pipelined, {} one per cycle",
        piped.hart.cycles(),
        one.hart.cycles()
    );
}

/// tt-llk's profiler zone (`ZONE_SCOPED`, helpers/include/profiler.h) as GCC compiles it for
/// a TRISC: read the wall clock (low word, then high), write a two-word entry to the L1
/// buffer through a pointer in local RAM, bump two counters in local RAM, set the zone's
/// flag on the stack; the loop under test (10 instructions a pass); then load the flag, test
/// it, read the wall clock again. tt-llk's `test_profiler_overhead` expects the zone to
/// measure 10 cycles a pass plus 30 ± 5. By hand, from the documented latencies: 18
/// instructions outside the loop, plus 4 cycles for the high word used 3 instructions after
/// its 7-cycle load, 4 for the loop's mispredicted exit and 1 for the flag used right after
/// its 2-cycle load: 27.
#[test]
fn ct11_tt_llks_profiler_zone_costs_silicons_overhead() {
    let (a6, t5, sp, gp) = (16, 30, 2, 3);
    let (s0, s1, s2, a2, a3, a4, a5, t0, t2, t4) = (8, 9, 18, 12, 13, 14, 15, 5, 7, 29);
    let mut zone = vec![
        lw(s1, a6, 0x1F0),
        lw(a5, a6, 0x1F8),
        lw(s0, t5, 8),
        opi(ImmOp::Slli, s2, a3, 2),
        op(RegOp::And, a5, a5, t4),
        op(RegOp::Add, s0, s0, s2),
        op(RegOp::Or, a5, a5, t0),
        sw(a5, s0, 0),
        opi(ImmOp::Addi, a3, a3, 2),
        opi(ImmOp::Addi, a2, a2, 2),
        sb(t2, sp, 12),
        sw(a3, gp, -2008),
        sw(s1, s0, 4),
        sw(a2, gp, -2012),
        Insn::Jal { rd: 0, offset: 4 },
        opi(ImmOp::Addi, a5, a4, 0),
        opi(ImmOp::Addi, a5, a5, -1),
    ];
    zone.extend((0..8).map(|_| nop()));
    zone.extend([
        branch(BranchOp::Bltu, 0, a5, -36),
        lbu(a5, sp, 12),
        branch(BranchOp::Beq, a5, 0, 8),
        lw(s1, a6, 0x1F0),
    ]);
    for n in 9..40u32 {
        let regs = [
            (a6 as usize, WALL - 0x1F0),
            (t5 as usize, LOCAL),
            (sp as usize, LOCAL + 0x100),
            (gp as usize, LOCAL + 0x800),
            (a4 as usize, n),
            (t2 as usize, 1),
        ];
        // The buffer pointer in local RAM points at the L1 range.
        let t = run_timed(&zone, &regs, &[(LOCAL + 8, L1)], CoreTiming::Pipeline);
        let start = t.bus.ram.read_u32(L1 + 4).unwrap() as u64;
        let end = t.hart.reg(s1 as usize) as u64;
        let overhead = end - start - 10 * u64::from(n);
        assert_eq!(overhead, 27, "n = {n}: {start} .. {end}");
        assert!((25..=35).contains(&overhead));
    }
}

#[test]
fn ct10_core_timings_are_named_instruction_and_pipeline() {
    assert_eq!(
        CoreTiming::parse("instruction"),
        Some(CoreTiming::OnePerCycle)
    );
    assert_eq!(CoreTiming::parse("pipeline"), Some(CoreTiming::Pipeline));
    assert_eq!(CoreTiming::parse("cycle"), None);
    assert_eq!(CoreTiming::default(), CoreTiming::OnePerCycle);
    for t in [CoreTiming::OnePerCycle, CoreTiming::Pipeline] {
        assert_eq!(CoreTiming::parse(t.name()), Some(t));
    }
}
