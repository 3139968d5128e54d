//! How a hart runs: `.ttinsn` pushes and their stalls, the stop request (`tohost`, instruction
//! bounds), the decode cache and its invalidation, tracing, and determinism of `run` against
//! `step`. Each test is named after the rule it checks.
mod common;

use bhemu_isa::riscv::*;
use bhemu_rv::*;
use common::*;

// ---- .ttinsn and stalls ----

struct Fifo {
    ram: FlatRam,
    stalls_left: u32,
    pushed: Vec<u32>,
}

impl Bus for Fifo {
    fn fetch(&mut self, a: u32) -> Access<u32> {
        self.ram.fetch(a)
    }
    fn load(&mut self, a: u32, w: Width) -> Access<u32> {
        self.ram.load(a, w)
    }
    fn store(&mut self, a: u32, w: Width, v: u32) -> Access<()> {
        self.ram.store(a, w, v)
    }
    fn push_tensix(&mut self, t: u32) -> Access<()> {
        if self.stalls_left > 0 {
            self.stalls_left -= 1;
            return Access::Stall;
        }
        self.pushed.push(t);
        Access::Done(())
    }
}

#[test]
fn ttinsn_pushes_the_word_rotated_right_by_two() {
    // PushTensixInstruction.md: the 32 bits are rotated right by two and pushed.
    let (mut h, mut ram) = setup(&[
        Insn::Tensix(0x0123_4567),
        Insn::Tensix(0x4000_0001),
        Insn::Ebreak,
    ]);
    assert!(matches!(h.run(&mut ram, 10), RunExit::Halted(_)));
    assert_eq!(ram.pushed_tensix(), &[0x0123_4567, 0x4000_0001]);
    assert_eq!(h.instret(), 3);
}

#[test]
fn a_stalled_ttinsn_retries_and_costs_cycles_but_not_instret() {
    let (mut h, ram) = setup(&[Insn::Tensix(0x1234), Insn::Ebreak]);
    let mut bus = Fifo {
        ram,
        stalls_left: 3,
        pushed: Vec::new(),
    };
    assert_eq!(h.step(&mut bus), StepOutcome::Stalled);
    assert_eq!((h.cycles(), h.instret(), h.pc()), (1, 0, RAM_BASE));
    assert!(matches!(h.run(&mut bus, 10), RunExit::Halted(_)));
    assert_eq!(bus.pushed, vec![0x1234]);
    assert_eq!((h.cycles(), h.instret()), (5, 2));
}

/// `Hart::skip_stalled(n)` leaves the hart exactly as `n` stalled steps do (EM-2: `cycle`
/// advances, `instret` does not, each such cycle takes the out-of-line path), so a scheduler
/// may account a sleeping core's stalls at once.
#[test]
fn skip_stalled_matches_stalled_steps() {
    let fifo = |ram| Fifo {
        ram,
        stalls_left: 6,
        pushed: Vec::new(),
    };
    let (mut stepped, ram) = setup(&[Insn::Tensix(0x1234), Insn::Ebreak]);
    let mut a = fifo(ram);
    let (mut skipped, ram) = setup(&[Insn::Tensix(0x1234), Insn::Ebreak]);
    let mut b = fifo(ram);
    for _ in 0..6 {
        assert_eq!(stepped.step(&mut a), StepOutcome::Stalled);
    }
    // The sleeping core: one real stalled step, five accounted, then the bus's state as the
    // five retries would have left it.
    assert_eq!(skipped.step(&mut b), StepOutcome::Stalled);
    skipped.skip_stalled(5);
    b.stalls_left = 0;
    let counters = |h: &Hart| (h.pc(), h.cycles(), h.instret(), h.events());
    assert_eq!(counters(&stepped), (RAM_BASE, 6, 0, 12));
    assert_eq!(counters(&skipped), counters(&stepped));
    let fold = |h: &Hart| {
        let mut v = Vec::new();
        h.fold_arch_state(&mut |w| v.push(w));
        v
    };
    assert_eq!(fold(&skipped), fold(&stepped));
    assert!(matches!(stepped.run(&mut a, 10), RunExit::Halted(_)));
    assert!(matches!(skipped.run(&mut b, 10), RunExit::Halted(_)));
    assert_eq!(
        counters(&skipped),
        (RAM_BASE + 8, 8, 2, counters(&stepped).3)
    );
    assert_eq!(fold(&skipped), fold(&stepped));
    assert_eq!(b.pushed, a.pushed);
}

// ---- tohost ----

#[test]
fn store_to_tohost_stops_run_right_after_it_retires() {
    let (mut h, mut ram) = setup(&[li(A0, 1), sw(A0, A1, 0), li(A0, 5), Insn::Ebreak]);
    ram.set_tohost(DATA);
    h.set_reg(11, DATA);
    assert_eq!(h.run(&mut ram, 100), RunExit::Stop);
    assert_eq!(h.instret(), 2);
    assert_eq!(h.pc(), RAM_BASE + 8);
    assert_eq!(ram.tohost_value(), Some(1));
    assert_eq!(h.reg(10), 1);
}

#[test]
fn max_insns_bounds_run() {
    let (mut h, mut ram) = setup(&[Insn::Jal { rd: 0, offset: 0 }]);
    assert_eq!(h.run(&mut ram, 1000), RunExit::MaxInsns);
    assert_eq!((h.instret(), h.cycles()), (1000, 1000));
}

// ---- decode cache ----

#[test]
fn self_modifying_store_invalidates_the_cached_instruction() {
    // Runs `li a0, 1` at L, then overwrites L with `li a0, 2` and jumps back.
    let new = encode(&li(A0, 2));
    let prog = [
        li(A2, 0),                   // 0: a2 = pass counter
        li(A0, 1),                   // 4: L
        opi(ImmOp::Addi, A2, A2, 1), // 8
        Insn::Branch {
            op: BranchOp::Bne,
            rs1: A2,
            rs2: 13,
            offset: 12,
        }, // 12: second pass → end
        sw(A1, 14, 4),               // 16: overwrite L
        Insn::Jal { rd: 0, offset: -16 }, // 20: back to L
        Insn::Ebreak,                // 24
    ];
    let (mut h, mut ram) = setup(&prog);
    h.set_reg(11, new);
    h.set_reg(13, 1);
    h.set_reg(14, RAM_BASE);
    assert!(matches!(h.run(&mut ram, 100), RunExit::Halted(_)));
    assert_eq!(h.reg(10), 2);
}

#[test]
fn invalidate_code_makes_external_writes_visible() {
    let (mut h, mut ram) = setup(&[li(A0, 1), Insn::Jal { rd: 0, offset: -4 }]);
    assert_eq!(h.run(&mut ram, 10), RunExit::MaxInsns);
    ram.write_u32(RAM_BASE, encode(&li(A0, 7))).unwrap();
    h.set_pc(RAM_BASE);
    h.run(&mut ram, 1);
    assert_eq!(
        h.reg(10),
        1,
        "stale until invalidated: external writers must call invalidate_code"
    );
    h.invalidate_code(RAM_BASE, 4);
    h.set_pc(RAM_BASE);
    h.run(&mut ram, 1);
    assert_eq!(h.reg(10), 7);
}

#[test]
fn fence_i_flushes_the_decode_cache() {
    let (mut h, mut ram) = setup(&[li(A0, 1), Insn::FenceI, Insn::Jal { rd: 0, offset: -8 }]);
    h.run(&mut ram, 2);
    ram.write_u32(RAM_BASE, encode(&li(A0, 3))).unwrap();
    h.run(&mut ram, 2);
    assert_eq!(h.reg(10), 3);
}

#[test]
fn code_beyond_the_cache_window_still_runs_uncached() {
    // The decode cache covers at most 4 MiB of code; farther code is decoded on every run.
    let far = 0x0060_0000u32;
    let mut ram = FlatRam::new(0, 0x0080_0000);
    let near = words(&[
        Insn::Lui { rd: 5, imm: far },
        Insn::Jalr {
            rd: 1,
            rs1: 5,
            offset: 0,
        },
        Insn::Ebreak,
    ]);
    let away = words(&[
        opi(ImmOp::Addi, A0, A0, 1),
        csr(CsrOp::Rs, A1, 0xc02, 0),
        Insn::Jalr {
            rd: 0,
            rs1: 1,
            offset: 0,
        },
    ]);
    let bytes = |w: Vec<u32>| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
    ram.load_bytes(0, &bytes(near)).unwrap();
    ram.load_bytes(far, &bytes(away)).unwrap();
    let mut h = Hart::new(HartConfig::default());
    assert!(matches!(h.run(&mut ram, 100), RunExit::Halted(_)));
    assert_eq!((h.reg(10), h.reg(11)), (1, 3));
}

// ---- tracing, determinism, robustness ----

#[test]
fn trace_hook_sees_each_executed_instruction() {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let (mut h, mut ram) = setup(&[li(A0, 1), li(A1, 2), Insn::Ebreak]);
    h.set_trace_hook(Some(Box::new(move |t: &TraceRecord| {
        s2.lock().unwrap().push((t.pc, t.word))
    })));
    assert!(matches!(h.run(&mut ram, 10), RunExit::Halted(_)));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[1], (RAM_BASE + 4, encode(&li(A1, 2))));
}

#[test]
fn step_and_run_agree_and_are_deterministic() {
    let words = bhemu_rv::workload::mixed_integer(3);
    let load = |ram: &mut FlatRam| {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        ram.load_bytes(0, &bytes).unwrap();
    };
    let mut r1 = FlatRam::new(0, 1 << 16);
    let mut r2 = FlatRam::new(0, 1 << 16);
    load(&mut r1);
    load(&mut r2);
    let mut h1 = Hart::new(HartConfig::default());
    let mut h2 = Hart::new(HartConfig::default());
    assert!(matches!(h1.run(&mut r1, u64::MAX), RunExit::Halted(_)));
    while !matches!(h2.step(&mut r2), StepOutcome::Halted(_)) {}
    assert_eq!(h1.instret(), 3 * bhemu_rv::workload::INSNS_PER_OUTER + 5);
    assert_eq!(
        (h1.instret(), h1.cycles(), h1.pc()),
        (h2.instret(), h2.cycles(), h2.pc())
    );
    for i in 0..32 {
        assert_eq!(h1.reg(i), h2.reg(i));
    }
    assert_eq!(r1.bytes(), r2.bytes());
}

#[test]
fn random_words_never_panic_the_hart() {
    let mut rng = Rng(0xfeed);
    for round in 0..200 {
        let mut ram = FlatRam::new(RAM_BASE, 0x2000);
        let bytes: Vec<u8> = (0..0x800).map(|_| rng.next() as u8).collect();
        ram.load_bytes(RAM_BASE, &bytes).unwrap();
        let mut h = Hart::new(HartConfig {
            reset_pc: RAM_BASE,
            ..HartConfig::default()
        });
        for r in 1..32 {
            h.set_reg(r, rng.next() as u32);
        }
        if round % 2 == 0 {
            // Install a handler inside the random code so that traps keep the hart running.
            let pre = words(&[
                Insn::Auipc { rd: 5, imm: 0 },
                opi(ImmOp::Addi, 5, 5, 0x100),
                Insn::Csr {
                    op: CsrOp::Rw,
                    rd: 0,
                    csr: 0x305,
                    src: 5,
                },
            ]);
            let bytes: Vec<u8> = pre.iter().flat_map(|w| w.to_le_bytes()).collect();
            ram.load_bytes(RAM_BASE, &bytes).unwrap();
        }
        for _ in 0..50 {
            match h.run(&mut ram, 200) {
                RunExit::Halted(_) => h.resume(),
                RunExit::Error(_) => h.set_pc(RAM_BASE + (rng.below(0x200) as u32) * 4),
                _ => {}
            }
        }
    }
}

/// A random straight-line-ish program (ALU, bit manipulation, M, loads/stores/AMOs on a data
/// area addressed by s1, forward branches, counter and scratch CSRs), ending in ebreak.
fn random_program(rng: &mut Rng, len: usize) -> Vec<Insn> {
    const BASE: u8 = 9; // s1, never written
    let rd = |rng: &mut Rng| loop {
        let r = rng.below(32) as u8;
        if r != BASE {
            return r;
        }
    };
    let mut p = Vec::new();
    for i in 0..len {
        let left = (len - i) as i32;
        let insn = match rng.below(10) {
            0..=2 => op(
                REG_OPS[rng.below(31) as usize],
                rd(rng),
                rng.reg(),
                rng.reg(),
            ),
            3 => {
                let o = IMM_OPS[rng.below(11) as usize];
                let imm = match o {
                    ImmOp::Slli | ImmOp::Srli | ImmOp::Srai | ImmOp::Rori | ImmOp::Grevi => {
                        rng.below(32) as i32
                    }
                    _ => rng.imm12(),
                };
                opi(o, rd(rng), rng.reg(), imm)
            }
            4 => Insn::Unary {
                op: UNARY_OPS[rng.below(6) as usize],
                rd: rd(rng),
                rs1: rng.reg(),
            },
            5 => Insn::Load {
                op: LOAD_OPS[rng.below(5) as usize],
                rd: rd(rng),
                rs1: BASE,
                offset: (rng.below(64) * 4) as i32,
            },
            6 => Insn::Store {
                op: STORE_OPS[rng.below(3) as usize],
                rs1: BASE,
                rs2: rng.reg(),
                offset: (rng.below(64) * 4) as i32,
            },
            7 => Insn::Amo {
                op: AMO_OPS[rng.below(9) as usize],
                rd: rd(rng),
                rs1: BASE,
                rs2: rng.reg(),
                aq: false,
                rl: false,
            },
            8 => Insn::Branch {
                op: BRANCH_OPS[rng.below(6) as usize],
                rs1: rng.reg(),
                rs2: rng.reg(),
                offset: 4 * (1 + rng.below(3) as i32).min(left),
            },
            _ => {
                let c = [0xc00u16, 0xc02, 0xb00, 0xb02, 0x340][rng.below(5) as usize];
                csr(
                    CSR_OPS[rng.below(6) as usize],
                    rd(rng),
                    c,
                    rng.below(32) as u8,
                )
            }
        };
        p.push(insn);
    }
    p.push(Insn::Ebreak);
    p
}

#[test]
fn run_and_step_agree_on_random_programs() {
    let mut rng = Rng(0xabcdef);
    for _ in 0..300 {
        let prog = random_program(&mut rng, 60);
        let regs: Vec<(usize, u32)> = (1..32).map(|r| (r, rng.next() as u32)).collect();
        let start = |regs: &[(usize, u32)]| {
            let (mut h, ram) = setup(&prog);
            for &(r, v) in regs {
                h.set_reg(r, v);
            }
            h.set_reg(9, DATA);
            (h, ram)
        };
        let (mut h1, mut r1) = start(&regs);
        let (mut h2, mut r2) = start(&regs);
        let e1 = h1.run(&mut r1, 1000);
        let e2 = loop {
            match h2.step(&mut r2) {
                StepOutcome::Halted(h) => break RunExit::Halted(h),
                StepOutcome::Error(e) => break RunExit::Error(e),
                _ => {}
            }
        };
        assert_eq!(e1, e2);
        assert_eq!(
            (h1.pc(), h1.instret(), h1.cycles()),
            (h2.pc(), h2.instret(), h2.cycles())
        );
        for i in 0..32 {
            assert_eq!(h1.reg(i), h2.reg(i), "x{i}");
        }
        assert_eq!(r1.bytes(), r2.bytes());
    }
}
