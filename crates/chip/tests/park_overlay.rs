//! Parking covers loops that poll the NoC overlay's stream registers (where tt-metal keeps the
//! circular-buffer counters), exactly: such a register changes only by a store of a core of
//! the tile or the coprocessor's `STOREREG`, and either wakes the cores polling that stream at
//! the point of the cycle order the write falls in. Cores poll overlay registers written by a
//! core before them in the order, a core after them and the coprocessor, at every phase of
//! their loops; the digest of the chip, the cycles the cores record when they leave their
//! loops and each core's last MMIO access match the reference schedule's.
mod common;
use bhemu_chip::tile::MmioAccess;
use bhemu_chip::{Core, Schedule};
use bhemu_isa::riscv::{BranchOp, Insn};
use common::*;

/// `STREAM_REG_ADDR(stream, reg)`: stream `s`'s register `r` (overlay.rs).
const fn stream_reg(s: u32, r: u32) -> u32 {
    0xFFB4_0000 + s * 0x1000 + 4 * r
}
/// BRISC → NCRISC (a writer before the poller in the order): a plain stored register.
const REG_A: u32 = stream_reg(2, 12);
/// TRISC0 → BRISC (a writer after the poller): `REMOTE_DEST_BUF_SIZE`, the CB "tiles
/// received" counter.
const REG_B: u32 = stream_reg(3, 10);
/// The coprocessor's STOREREG (pushed by TRISC1) → TRISC2.
const REG_C: u32 = stream_reg(4, 8);
/// Written by BRISC early, polled by nobody: a write to another stream.
const REG_D: u32 = stream_reg(5, 12);
const OUT: u32 = 0x2_0100;
/// TRISC1's GPR window (its thread's GPR 5) and instruction FIFO.
const GPR5: u32 = 0xFFE0_0000 + 4 * 5;
const INSTRN_BUF: u32 = 0xFFE4_0000;

/// Counts `k` down in a loop whose registers change (never parked).
fn delay(k: u32) -> Vec<Insn> {
    let mut p = li(S0, k + 1);
    p.push(addi(S0, S0, -1));
    p.push(branch(BranchOp::Bne, S0, 0, -4));
    p
}

/// Stores `v` at `addr`.
fn store(addr: u32, v: u32) -> Vec<Insn> {
    let mut p = li(T0, addr);
    p.extend(li(T1, v));
    p.push(sw(T1, T0));
    p
}

/// `STOREREG` (tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/STOREREG.md:
/// opcode 0x67, `DataReg` at bit 18, `AddrLo` = (address − 0xFFB0_0000) / 4 in bits 0-17).
fn storereg(data_reg: u32, addr: u32) -> u32 {
    (0x67 << 24) | (data_reg << 18) | ((addr - 0xFFB0_0000) >> 2)
}

/// One run; the host looks at the chip (digest, last MMIO accesses) at cycle `look`, then
/// runs on. Returns both digests, the recorded cycles and last MMIO accesses, and the park
/// counts.
type Seen = (
    Vec<bhemu_chip::ChipDigest>,
    [u32; 3],
    Vec<Option<MmioAccess>>,
    (u64, u64),
);

fn run(schedule: Schedule, k: u32, k2: u32, k3: u32, look: u64) -> Seen {
    let mut c = chip("1,2;2,2", schedule);
    for (j, (x, y)) in [(1u8, 2u8), (2, 2)].into_iter().enumerate() {
        let j = j as u32;
        let mut b = store(REG_D, 9);
        b.extend(delay(k + j));
        b.extend(store(REG_A, 1));
        b.extend(poll_then_record(REG_B, 1, OUT));
        b.push(spin());
        let mut nc = poll_then_record(REG_A, 2, OUT + 4);
        nc.push(spin());
        let mut t0 = delay(k2 + 3 * j);
        t0.extend(store(REG_B, 2));
        t0.push(spin());
        let mut t1 = delay(k3 + 5 * j);
        t1.extend(store(GPR5, 7));
        t1.extend(store(INSTRN_BUF, storereg(5, REG_C)));
        t1.push(spin());
        let mut t2 = poll_then_record(REG_C, 0, OUT + 8);
        t2.push(spin());
        c.write_l1(x, y, 0, &bytes(&b)).expect("brisc");
        c.write_l1(x, y, 0x12000, &bytes(&nc)).expect("ncrisc");
        c.write_l1(x, y, 0x6000, &bytes(&t0)).expect("trisc0");
        c.write_l1(x, y, 0xA000, &bytes(&t1)).expect("trisc1");
        c.write_l1(x, y, 0xE000, &bytes(&t2)).expect("trisc2");
        c.write_reg(x, y, 0xFFB1_21B0, 0).expect("release all");
    }
    let mut digests = Vec::new();
    c.clock(look).expect("run");
    digests.push(c.digest().expect("digest"));
    let mut mmio = Vec::new();
    for (x, y) in [(1u8, 2u8), (2, 2)] {
        let t = c.tile(x, y).expect("tile");
        mmio.extend(Core::ALL.iter().map(|&core| t.last_mmio(core)));
    }
    c.clock(400).expect("run");
    digests.push(c.digest().expect("digest"));
    let t = c.tile(1, 2).expect("tile");
    let out = [0, 1, 2].map(|i| t.read_l1_u32(OUT + 4 * i).expect("out"));
    (digests, out, mmio, c.park_counts())
}

#[test]
fn em14_cores_polling_overlay_registers_wake_exactly_at_every_loop_phase() {
    let mut parks = 0;
    for k in 0..4 {
        for (k2, k3, look) in [(30, 10, 25), (31, 11, 26), (47, 20, 60), (48, 23, 61)] {
            let (rd, rout, rm, _) = run(Schedule::Reference, k, k2, k3, look);
            let (fd, fout, fm, (p, _)) = run(Schedule::Fast, k, k2, k3, look);
            parks += p;
            let at = format!("k {k}, k2 {k2}, k3 {k3}, look at {look}");
            assert_eq!(rout, fout, "{at}: recorded cycles");
            assert!(
                rout.iter().all(|&v| v != 0),
                "{at}: every poll ended: {rout:?}"
            );
            assert_eq!(rm, fm, "{at}: last MMIO accesses");
            for (i, (a, b)) in rd.iter().zip(&fd).enumerate() {
                assert_eq!(a.first_difference(b), None, "{at}, digest {i}");
            }
        }
    }
    assert!(parks > 100, "parking was exercised: {parks} parks");
}

/// While a core is parked on an overlay poll, its last MMIO access is the poll of the cycle
/// the reference schedule last executed it in: NCRISC polls `REG_A` with a 3-instruction
/// loop that nobody ends; at each cycle the host looks, the recorded access (address, value,
/// cycle) is the reference's, and its cycle falls within the last period.
#[test]
fn em19_a_parked_overlay_poll_reports_its_latest_access() {
    for look in [40u64, 41, 42, 43, 100, 101, 102] {
        let mut seen = Vec::new();
        for schedule in [Schedule::Reference, Schedule::Fast] {
            let mut c = chip("1,2", schedule);
            let mut nc = poll_then_record(REG_A, 1, OUT);
            nc.push(spin());
            c.write_l1(1, 2, 0x12000, &bytes(&nc)).expect("ncrisc");
            for pc in [0u64, 0x6000, 0xA000, 0xE000] {
                c.write_l1(1, 2, pc, &bytes(&[spin()])).expect("others");
            }
            c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
            c.clock(look).expect("run");
            c.sync_parked().expect("sync");
            let m = c.tile(1, 2).and_then(|t| t.last_mmio(Core::Ncrisc));
            let m = m.expect("NCRISC polled");
            assert_eq!((m.addr, m.value, m.write), (REG_A, 0, false));
            // Cycles 0-1 `li`, then the loop's `lw` every 3 cycles from cycle 2.
            assert!(m.cycle < look && m.cycle + 3 >= look, "look {look}: {m:?}");
            assert_eq!((m.cycle - 2) % 3, 0, "look {look}: {m:?}");
            seen.push((m, c.park_counts().0));
        }
        assert_eq!(seen[0].0, seen[1].0, "look {look}");
        // Every core of the tile parked: four one-instruction spins and the poll.
        assert_eq!(seen[1].1, 5, "look {look}: parks");
    }
}

/// `Tile::last_mmio_at` (what the timeline trace samples after every cycle, without bringing
/// parked cores up to date) shows, at every cycle, the access the reference schedule's core
/// last made: NCRISC polls `REG_A` until BRISC writes it after a delay, TRISC2 polls `REG_C`
/// until the coprocessor's `STOREREG` writes it.
#[test]
fn em19_last_mmio_at_matches_the_reference_every_cycle() {
    let build = |schedule: Schedule| {
        let mut c = chip("1,2", schedule);
        let mut b = delay(60);
        b.extend(store(REG_A, 1));
        b.push(spin());
        let mut nc = poll_then_record(REG_A, 2, OUT);
        nc.push(spin());
        let mut t1 = delay(30);
        t1.extend(store(GPR5, 7));
        t1.extend(store(INSTRN_BUF, storereg(5, REG_C)));
        t1.push(spin());
        let mut t2 = poll_then_record(REG_C, 1, OUT + 4);
        t2.push(spin());
        c.write_l1(1, 2, 0, &bytes(&b)).expect("brisc");
        c.write_l1(1, 2, 0x12000, &bytes(&nc)).expect("ncrisc");
        c.write_l1(1, 2, 0x6000, &bytes(&[spin()])).expect("trisc0");
        c.write_l1(1, 2, 0xA000, &bytes(&t1)).expect("trisc1");
        c.write_l1(1, 2, 0xE000, &bytes(&t2)).expect("trisc2");
        c.write_reg(1, 2, 0xFFB1_21B0, 0).expect("release all");
        c
    };
    let mut r = build(Schedule::Reference);
    let mut f = build(Schedule::Fast);
    for _ in 0..300 {
        r.clock(1).expect("reference");
        f.clock(1).expect("fast");
        let (rt, ft) = (r.tile(1, 2).expect("tile"), f.tile(1, 2).expect("tile"));
        for core in [Core::Ncrisc, Core::Trisc2] {
            assert_eq!(
                rt.last_mmio(core),
                ft.last_mmio_at(core, f.cycle()),
                "{core:?} after cycle {}",
                f.cycle()
            );
        }
    }
    let out = f.tile(1, 2).expect("tile");
    assert!(
        out.read_l1_u32(OUT).expect("out") > 0,
        "NCRISC's poll ended"
    );
    assert!(
        out.read_l1_u32(OUT + 4).expect("out") > 0,
        "TRISC2's poll ended"
    );
    assert!(f.park_counts().0 >= 2, "the polls were parked");
}
