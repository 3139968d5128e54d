//! What a stuck core or Tensix thread waits on, in the program's terms, for the hang reports
//! of [`crate::launch::stuck_report`] (cycle limit, `bhemu run`) and [`crate::report`]
//! (`bhemu boot`, the libttsim watchdog).
//!
//! The wording names the culprit where the state shows it: the semaphore a SEMWAIT waits on with
//! tt-llk's name for it and its value, the mutex and its holder, the NoC counters a barrier polls
//! (and the disabled tile its unanswered requests went to), a circular buffer's counts and which
//! cores already left their kernel, the kernel function holding the pc (from the kernel ELF's
//! symbols), and a core that touches no memory-mapped register any more (a loop on its own
//! state).
use bhemu_tensix::coprocessor::Coprocessor;
use bhemu_tensix::wait_gate::Latch;

use crate::chip::Chip;
use crate::mmio_names;
use crate::tile::{Core, MmioAccess, Tile};

/// A running core whose last MMIO access is older than this many cycles spins on its own state.
pub const SPIN_CYCLES: u64 = 10_000;

/// tt-llk's names of the eight Tensix semaphores (`ckernel_structs.h`, `struct semaphore`).
pub fn semaphore_name(i: usize) -> &'static str {
    match i {
        0 => "FPU_SFPU",
        1 => "MATH_PACK",
        2 => "UNPACK_TO_DEST",
        3 => "UNPACK_OPERAND_SYNC",
        4 => "PACK_DONE",
        5 => "UNPACK_SYNC",
        6 => "UNPACK_MATH_DONE",
        7 => "MATH_DONE",
        _ => "?",
    }
}

/// What Tensix thread `t` of `cp` waits on; `None` when the thread is idle.
///
/// E.g. `T2 at ttpacr ... — blocked by SEMWAIT block 0x008 STALL_ON_ZERO on sem1=0/2;
/// semaphore 1 (MATH_PACK) is 0: nothing posted it`.
pub fn tensix_thread_line(cp: &Coprocessor, t: usize) -> Option<String> {
    let w = cp
        .blocked_threads()
        .into_iter()
        .find(|w| usize::from(w.thread) == t)?;
    let mut s = format!("T{t} at {}", w.waiting_on);
    if let Some(Latch::SemWait { sems, cond, .. }) = cp.latch(t) {
        let values = cp.semaphores();
        for (i, &(v, max)) in values.iter().enumerate() {
            if sems >> i & 1 == 0 {
                continue;
            }
            let name = semaphore_name(i);
            let what = if cond & 1 != 0 && v == 0 {
                "is 0: nothing posted it (SEMPOST)".to_string()
            } else if cond & 2 != 0 && v >= max {
                format!("is at its maximum {max}: nothing took it (SEMGET)")
            } else {
                format!("is {v} of {max}")
            };
            s.push_str(&format!("; semaphore {i} ({name}) {what}"));
        }
    }
    let queued = cp.fifo_len(t);
    if queued > 0 {
        s.push_str(&format!(" ({queued} more instruction(s) queued)"));
    }
    Some(s)
}

/// The NoC side of a core's last load when it read an NIU counter: what a barrier polls.
/// None when that load is older than [`SPIN_CYCLES`]: the core has moved on (a long
/// computation, or a loop on its own state; see [`spin_note`]).
pub fn noc_poll_note(chip: &Chip, t: &Tile, m: &MmioAccess) -> Option<String> {
    use bhemu_noc::regs::counter as c;
    if m.write || m.cycle + SPIN_CYCLES < chip.cycle() {
        return None;
    }
    let (noc, off) = bhemu_noc::decode_niu_address(m.addr)?;
    if !(bhemu_noc::regs::NOC_STATUS_BASE..bhemu_noc::regs::NOC_STATUS_BASE + 0x100).contains(&off)
    {
        return None;
    }
    let niu = chip.noc().niu(t.node(), noc).ok()?;
    let n = |i: usize| niu.counter(i);
    let mut lost = String::new();
    for u in niu.unanswered() {
        lost.push_str(&format!(
            "; {} outstanding to ({},{}), which is disabled (harvested) and never answers",
            unanswered_counts(u),
            u.dest.x,
            u.dest.y
        ));
    }
    Some(format!(
        "polls NIU{} {} (last read {:#x}); NIU{} counters: {} non-posted writes sent, {} acked; {} reads sent, {} responses{lost}",
        noc.index(),
        mmio_names::counter_name(
            ((off - bhemu_noc::regs::NOC_STATUS_BASE) / 4) as usize
        ),
        m.value,
        noc.index(),
        n(c::NIU_MST_NONPOSTED_WR_REQ_SENT),
        n(c::NIU_MST_WR_ACK_RECEIVED),
        n(c::NIU_MST_RD_REQ_SENT),
        n(c::NIU_MST_RD_RESP_RECEIVED),
    ))
}

/// `3 writes and 1 read`: what an NIU sent to one disabled tile and waits on
/// (bhemu_noc::unanswered).
fn unanswered_counts(u: &bhemu_noc::Unanswered) -> String {
    let parts: Vec<String> = [
        (u.writes, "write"),
        (u.reads, "read"),
        (u.atomics, "atomic"),
    ]
    .into_iter()
    .filter(|&(n, _)| n > 0)
    .map(|(n, what)| format!("{n} {what}{}", if n == 1 { "" } else { "s" }))
    .collect();
    parts.join(" and ")
}

/// A note for a running core that no longer touches memory-mapped registers.
pub fn spin_note(last: Option<&MmioAccess>, now: u64) -> Option<String> {
    match last {
        Some(m) if m.cycle + SPIN_CYCLES < now => Some(format!(
            "touched no memory-mapped register since cycle {} (last: {} {}): it runs on its own state, so nothing outside the core can end its loop",
            m.cycle,
            if m.write { "store to" } else { "load from" },
            mmio_names::describe(m.addr)
        )),
        None if now > SPIN_CYCLES => Some(
            "never touched a memory-mapped register: it runs on its own state, so nothing outside the core can end its loop"
                .to_string(),
        ),
        _ => None,
    }
}

/// Cores of `t` listed in `kernels` whose pc has left their kernel window (and, for a TRISC,
/// whose Tensix thread drained): they finished.
pub fn finished_kernels(t: &Tile, kernels: &[(Core, String)]) -> Vec<String> {
    kernels
        .iter()
        .filter(|(core, _)| {
            let base = crate::launch::text_base(*core);
            let thread = match core {
                Core::Trisc0 => Some(0),
                Core::Trisc1 => Some(1),
                Core::Trisc2 => Some(2),
                _ => None,
            };
            !(base..base + crate::launch::TEXT_SIZE).contains(&t.pc(*core))
                && match thread {
                    Some(th) => t.coprocessor().thread_idle(th),
                    None => true,
                }
        })
        .map(|(core, file)| format!("{} ({file})", core.name().to_uppercase()))
        .collect()
}

/// A C++ symbol's plain name when it is a simple one (`_Z11kernel_mainv` is `kernel_main()`);
/// other names as they are.
pub fn plain_name(sym: &str) -> String {
    let Some(rest) = sym.strip_prefix("_Z") else {
        return sym.to_string();
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let Ok(n) = rest[..digits].parse::<usize>() else {
        return sym.to_string();
    };
    match rest.get(digits..digits + n) {
        Some(name) if rest.len() == digits + n + 1 && rest.ends_with('v') => format!("{name}()"),
        Some(name) => format!("{name}(...)"),
        None => sym.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bhemu_isa::tensix::{assemble, Arch};
    use bhemu_tensix::coprocessor::PushSource;

    fn cp_with(thread: usize, lines: &[&str], sems: &[(usize, u8, u8)]) -> Coprocessor {
        let mut cp = Coprocessor::new(Arch::Blackhole);
        for &(i, v, m) in sems {
            cp.set_semaphore(i, v, m).unwrap();
        }
        for l in lines {
            let w = assemble(Arch::Blackhole, l).unwrap();
            cp.push(thread, PushSource::Trisc, w).unwrap();
        }
        for c in 0..20 {
            cp.step(c).unwrap();
        }
        cp
    }

    /// Semaphore never posted: pack (T2) waits on MATH_PACK at 0.
    #[test]
    fn hang_semaphore_never_posted_names_the_semaphore_and_its_value() {
        let cp = cp_with(
            2,
            &[
                "ttsemwait 1, 2, 1",
                "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0",
            ],
            &[(1, 0, 2)],
        );
        let s = tensix_thread_line(&cp, 2).unwrap();
        assert_eq!(
            s,
            "T2 at ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 — blocked by SEMWAIT block 0x001 STALL_ON_ZERO on sem1=0/2; semaphore 1 (MATH_PACK) is 0: nothing posted it (SEMPOST)"
        );
        assert_eq!(tensix_thread_line(&cp, 0), None, "T0 is idle");
    }

    /// Invalid mutex: Blackhole has mutexes 0, 2, 3, 4 (docs/mutexes.md); ATGETM 1 waits forever.
    #[test]
    fn hang_invalid_mutex_names_the_index() {
        let mut cp = Coprocessor::new(Arch::Blackhole);
        cp.set_mode(bhemu_tensix::Mode::Permissive);
        let w = assemble(Arch::Blackhole, "ttatgetm 1").unwrap();
        cp.push(1, PushSource::Trisc, w).unwrap();
        for c in 0..20 {
            let _ = cp.step(c);
        }
        let s = tensix_thread_line(&cp, 1).unwrap();
        assert_eq!(s, "T1 at ttatgetm 1 — invalid mutex index 1: waits forever");
    }

    #[test]
    fn plain_names_of_simple_mangled_symbols() {
        assert_eq!(plain_name("_Z11kernel_mainv"), "kernel_main()");
        assert_eq!(plain_name("_Z4waitj"), "wait(...)");
        assert_eq!(plain_name("main"), "main");
    }

    #[test]
    fn hang_spin_note_after_spin_cycles_without_mmio() {
        assert_eq!(spin_note(None, 100), None);
        let s = spin_note(None, SPIN_CYCLES + 1).unwrap();
        assert!(
            s.starts_with("never touched a memory-mapped register"),
            "{s}"
        );
        let m = MmioAccess {
            pc: 0,
            addr: 0xFFB4_0000 + 40,
            width: 4,
            write: false,
            value: 0,
            cycle: 5,
            stalled: false,
        };
        assert_eq!(spin_note(Some(&m), SPIN_CYCLES + 5), None);
        let s = spin_note(Some(&m), SPIN_CYCLES + 6).unwrap();
        assert!(
            s.contains("since cycle 5 (last: load from CB 0 tiles-received counter)"),
            "{s}"
        );
    }
}

#[cfg(test)]
pub(crate) mod chip_tests {
    use crate::chip::{Chip, ChipConfig};
    use crate::host::{self, jal_x0, RunReport, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN};
    use crate::launch::{stuck_report, text_base};
    use crate::tile::Core;
    use bhemu_noc::NodeId;

    /// A one-tile chip at (1,2) whose BRISC jumps from 0 to its kernel window and runs `code`
    /// there, for `cycles` cycles; the stuck report of BRISC.
    fn brisc_stuck_line(code: &[u32], cycles: u64) -> String {
        let mut chip = Chip::new(&ChipConfig {
            tiles: vec![NodeId::new(1, 2)],
            ..ChipConfig::default()
        })
        .unwrap();
        let base = text_base(Core::Brisc);
        let t = chip.tile_mut(1, 2).unwrap();
        t.write_l1_u32(0, jal_x0(base)).unwrap();
        t.write_l1_u32(host::GO_MSG, u32::from(host::RUN_MSG_GO) << 24)
            .unwrap();
        for (i, w) in code.iter().enumerate() {
            t.write_l1_u32(base + 4 * i as u32, *w).unwrap();
        }
        chip.write_reg(1, 2, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)
            .unwrap();
        chip.clock(cycles).unwrap();
        chip.sync_parked().unwrap();
        let r = RunReport {
            cycles,
            wall: std::time::Duration::ZERO,
            finished: false,
            tiles: host::statuses(&chip),
        };
        let s = stuck_report(&chip, &r);
        let b = s
            .iter()
            .find(|s| s.core == Core::Brisc)
            .expect("BRISC is stuck");
        b.to_string()
    }

    /// A hart in an infinite loop (`j .`) that touches no register is named as such.
    #[test]
    fn hang_hart_in_an_infinite_loop_is_named() {
        let s = brisc_stuck_line(&[jal_x0(0)], super::SPIN_CYCLES + 100);
        assert_eq!(
            s,
            "tile (1,2) BRISC at pc 0x00021000; never touched a memory-mapped register: it runs on its own state, so nothing outside the core can end its loop"
        );
    }

    /// A barrier polling NIU0's write-ack counter that never moves: the report names the
    /// counter and NIU0's write counts.
    #[test]
    fn hang_noc_barrier_poll_names_the_counter_and_outstanding_writes() {
        let lui_t0 = 0xFFB2_0000 | (5 << 7) | 0x37; // lui t0, 0xFFB20
        let lw_t1 = (0x204 << 20) | (5 << 15) | (2 << 12) | (6 << 7) | 0x03; // lw t1, 0x204(t0)
        let s = brisc_stuck_line(&[lui_t0, lw_t1, jal_x0(-4i32 as u32)], 2000);
        assert_eq!(
            s,
            "tile (1,2) BRISC at pc 0x00021004; polls NIU0 NIU_MST_WR_ACK_RECEIVED (write acks) (last read 0x0); NIU0 counters: 0 non-posted writes sent, 0 acked; 0 reads sent, 0 responses"
        );
    }

    /// A core that read an NIU counter once and then computed for longer than SPIN_CYCLES is
    /// not named as polling it: the report says it runs on its own state since that read.
    #[test]
    fn hang_noc_poll_note_only_while_the_poll_is_recent() {
        let lui_t0 = 0xFFB2_0000 | (5 << 7) | 0x37; // lui t0, 0xFFB20
        let lw_t1 = (0x204 << 20) | (5 << 15) | (2 << 12) | (6 << 7) | 0x03; // lw t1, 0x204(t0)
        let addi_t1 = (1 << 20) | (6 << 15) | (6 << 7) | 0x13; // addi t1, t1, 1
        let s = brisc_stuck_line(
            &[lui_t0, lw_t1, addi_t1, jal_x0(-4i32 as u32)],
            super::SPIN_CYCLES + 100,
        );
        assert!(!s.contains("polls NIU0"), "{s}");
        assert!(
            s.contains("touched no memory-mapped register since cycle")
                && s.contains("(last: load from NIU0")
                && s.ends_with("nothing outside the core can end its loop"),
            "{s}"
        );
    }

    /// BRISC's code for a barrier waiting on writes sent to a disabled tile: on the one-tile
    /// chip at (1,2) it sends three non-posted 16-byte writes to (5,7) — a Tensix coordinate
    /// whose tile is not enabled — through NIU0's command buffer 0 (the register order of
    /// `ncrisc_noc_fast_write`), then polls `NIU_MST_WR_ACK_RECEIVED` as
    /// `noc_async_write_barrier` does. No ack ever comes (bhemu_noc::unanswered). Returns the
    /// words (position-independent) and the index of the poll's load.
    pub(crate) fn dead_tile_barrier() -> (Vec<u32>, u32) {
        use bhemu_isa::riscv::{encode, BranchOp, ImmOp, Insn, LoadOp, StoreOp};
        const T0: u8 = 5;
        const T1: u8 = 6;
        const T2: u8 = 7;
        const T3: u8 = 28;
        let li = |rd: u8, v: u32| {
            let lo = ((v as i32) << 20) >> 20;
            let hi = v.wrapping_sub(lo as u32);
            let addi = Insn::OpImm {
                op: ImmOp::Addi,
                rd,
                rs1: if hi == 0 { 0 } else { rd },
                imm: lo,
            };
            if hi == 0 {
                vec![addi]
            } else {
                vec![Insn::Lui { rd, imm: hi }, addi]
            }
        };
        let sw = |offset: i32| Insn::Store {
            op: StoreOp::Sw,
            rs1: T0,
            rs2: T1,
            offset,
        };
        let lw = |offset: i32| Insn::Load {
            op: LoadOp::Lw,
            rd: T2,
            rs1: T0,
            offset,
        };
        let bne = |rs1: u8, offset: i32| Insn::Branch {
            op: BranchOp::Bne,
            rs1,
            rs2: 0,
            offset,
        };
        let me = NodeId::new(1, 2).xy_field();
        let dead = NodeId::new(5, 7).xy_field();
        let mut p = vec![Insn::Lui {
            rd: T0,
            imm: 0xFFB2_0000,
        }];
        // NOC_CTRL = WR | RESP_MARKED; TARG = my L1 0x2000; RET = (5,7) 0x4000; 16 bytes.
        for (off, v) in [
            (0x1C, 2 | (1 << 4)),
            (0x00, 0x2000),
            (0x08, me),
            (0x0C, 0x4000),
            (0x14, dead),
            (0x20, 16),
        ] {
            p.extend(li(T1, v));
            p.push(sw(off));
        }
        p.extend(li(T3, 3));
        // loop: NOC_CMD_CTRL = 1; wait until it reads 0; three times.
        p.extend(li(T1, 1));
        p.push(sw(0x40));
        p.push(lw(0x40));
        p.push(bne(T2, -4));
        p.push(Insn::OpImm {
            op: ImmOp::Addi,
            rd: T3,
            rs1: T3,
            imm: -1,
        });
        p.push(bne(T3, -20));
        // The barrier: poll NIU_MST_WR_ACK_RECEIVED for ever.
        let poll = p.len() as u32;
        p.push(lw(0x204));
        p.push(Insn::Jal { rd: 0, offset: -4 });
        (p.iter().map(encode).collect(), poll)
    }

    /// The stuck report of that barrier names the tile the writes went to.
    #[test]
    fn hang_noc_barrier_to_a_dead_tile_names_the_tile() {
        let (words, poll) = dead_tile_barrier();
        let s = brisc_stuck_line(&words, 3000);
        assert_eq!(
            s,
            format!(
                "tile (1,2) BRISC at pc {:#010x}; polls NIU0 NIU_MST_WR_ACK_RECEIVED (write acks) (last read 0x0); NIU0 counters: 3 non-posted writes sent, 0 acked; 0 reads sent, 0 responses; 3 writes outstanding to (5,7), which is disabled (harvested) and never answers",
                // After 3000 cycles BRISC sits on the jump back to the poll.
                text_base(Core::Brisc) + 4 * (poll + 1)
            )
        );
    }
}
