//! Hang watch for kernels a host launches through libttsim.so (docs/tt-metal-on-bhemu.md
//! "When a kernel hangs").
//!
//! tt-metal launches a slow-dispatch kernel by setting a tile's go signal to `RUN_MSG_GO` and
//! then polls until the firmware writes `RUN_MSG_DONE`; a kernel that never finishes leaves it
//! polling silently. The watchdog looks at every tile's go signal every [`CHECK_EVERY`]
//! simulated cycles and reports, once per launch, the tiles that have been running for more
//! than its threshold — or at once, when no core can make progress any more — with each stuck
//! core's state, pc and the memory-mapped access it last made or is stalled on, grouped by
//! where the tiles are stuck ([`crate::report`]). It only reports: the chip keeps running, and a
//! kernel that does finish later completes normally.
use crate::chip::Chip;
use crate::host::{self, RUN_MSG_GO};
use crate::report;

/// Simulated cycles between two looks at the go signals.
pub const CHECK_EVERY: u64 = 4096;

pub struct Watchdog {
    threshold: u64,
    next_check: u64,
    /// Per tile (chip order): the cycle its go signal was first seen as GO, and whether this
    /// launch was reported.
    running_since: Vec<Option<u64>>,
    reported: Vec<bool>,
}

impl Watchdog {
    /// A watchdog reporting tiles still running `threshold` cycles after their launch.
    pub fn new(threshold: u64) -> Watchdog {
        Watchdog {
            threshold,
            next_check: 0,
            running_since: Vec::new(),
            reported: Vec::new(),
        }
    }

    /// Looks at `chip` if a check is due; returns the report of tiles that newly count as hung.
    pub fn check(&mut self, chip: &Chip) -> Option<String> {
        let now = chip.cycle();
        if now < self.next_check {
            return None;
        }
        self.next_check = now + CHECK_EVERY;
        let n = chip.tiles().len();
        self.running_since.resize(n, None);
        self.reported.resize(n, false);
        let stalled = chip.quiescent();
        let mut hung = Vec::new();
        for (i, t) in chip.tiles().iter().enumerate() {
            let go = t.read_l1_u32(host::GO_MSG).map(|w| (w >> 24) as u8);
            if go != Ok(RUN_MSG_GO) {
                self.running_since[i] = None;
                self.reported[i] = false;
                continue;
            }
            let since = *self.running_since[i].get_or_insert(now);
            if !self.reported[i] && (stalled || now - since >= self.threshold) {
                self.reported[i] = true;
                hung.push(i);
            }
        }
        if hung.is_empty() {
            return None;
        }
        let statuses = host::statuses(chip);
        let tiles = hung.iter().filter_map(|&i| statuses.get(i));
        let why = if stalled {
            "no core can make progress".to_string()
        } else {
            format!("still running {} cycles after launch", self.threshold)
        };
        let mut threads = String::new();
        for &i in &hung {
            let Some(t) = chip.tiles().get(i) else {
                continue;
            };
            let n = t.node();
            for core in crate::Core::ALL {
                let note = t
                    .last_mmio_at(core, chip.cycle())
                    .and_then(|m| crate::hang::noc_poll_note(chip, t, &m));
                if let Some(note) = note {
                    threads.push_str(&format!(
                        "\n  tile ({},{}) {} {note}",
                        n.x,
                        n.y,
                        core.name().to_uppercase()
                    ));
                }
            }
            for th in 0..3 {
                if let Some(l) = crate::hang::tensix_thread_line(t.coprocessor(), th) {
                    threads.push_str(&format!("\n  tile ({},{}) Tensix {l}", n.x, n.y));
                }
            }
        }
        Some(format!(
            "kernel hang suspected at cycle {now}: {} tile(s) launched (go signal GO) and not DONE, {why}; stuck cores and what they wait on:\n{}{threads}",
            hung.len(),
            report::tiles_report(tiles, false).trim_end()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::ChipConfig;
    use crate::host::{jal_x0, RUN_MSG_DONE, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN};
    use bhemu_noc::NodeId;

    /// A one-tile chip at (1,2) with its go signal set to `signal`.
    fn chip(signal: u8) -> Chip {
        let mut chip = Chip::new(&ChipConfig {
            tiles: vec![NodeId::new(1, 2)],
            ..ChipConfig::default()
        })
        .unwrap();
        let go = u32::from(signal) << 24;
        chip.tile_mut(1, 2)
            .unwrap()
            .write_l1_u32(host::GO_MSG, go)
            .unwrap();
        chip
    }

    /// BRISC spins on `jal x0, 0` at L1 0 forever.
    fn spin_brisc(chip: &mut Chip) {
        chip.tile_mut(1, 2)
            .unwrap()
            .write_l1_u32(0, jal_x0(0))
            .unwrap();
        chip.write_reg(1, 2, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)
            .unwrap();
    }

    #[test]
    fn watchdog_reports_a_launched_tile_still_running_after_the_threshold_once() {
        let mut c = chip(RUN_MSG_GO);
        spin_brisc(&mut c);
        let mut w = Watchdog::new(3 * CHECK_EVERY);
        let mut reports = Vec::new();
        for _ in 0..10 {
            if let Some(r) = w.check(&c) {
                reports.push((c.cycle(), r));
            }
            c.clock(CHECK_EVERY).unwrap();
        }
        assert_eq!(reports.len(), 1, "{reports:?}");
        let (at, r) = &reports[0];
        assert_eq!(
            *at,
            3 * CHECK_EVERY,
            "first seen at cycle 0, reported 3 checks later"
        );
        assert!(r.contains("tile (1,2)"), "{r}");
        assert!(r.contains("BRISC   running  pc 0x00000000"), "{r}");
    }

    #[test]
    fn watchdog_reports_at_once_when_no_core_can_run() {
        let c = chip(RUN_MSG_GO); // every core still held in reset
        let mut w = Watchdog::new(u64::MAX);
        let r = w.check(&c).unwrap();
        assert!(r.contains("no core can make progress"), "{r}");
        assert!(r.contains("BRISC   reset"), "{r}");
    }

    /// A hung tile whose Tensix thread waits on a semaphore: the report names the thread, the
    /// semaphore (tt-llk's name) and its value.
    #[test]
    fn watchdog_names_the_tensix_thread_and_semaphore_it_waits_on() {
        use bhemu_isa::tensix::{assemble, Arch};
        use bhemu_tensix::coprocessor::PushSource;
        let mut c = chip(RUN_MSG_GO);
        spin_brisc(&mut c);
        c.tile_mut(1, 2).unwrap().wake_coprocessor();
        let cp = c.tile_mut(1, 2).unwrap().coprocessor_mut();
        cp.set_semaphore(1, 0, 2).unwrap();
        for l in [
            "ttsemwait 1, 2, 1",
            "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0",
        ] {
            cp.push(2, PushSource::Trisc, assemble(Arch::Blackhole, l).unwrap())
                .unwrap();
        }
        let mut w = Watchdog::new(CHECK_EVERY);
        assert_eq!(w.check(&c), None);
        c.clock(CHECK_EVERY).unwrap();
        let r = w.check(&c).unwrap();
        assert!(
            r.ends_with("\n  tile (1,2) Tensix T2 at ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 — blocked by SEMWAIT block 0x001 STALL_ON_ZERO on sem1=0/2; semaphore 1 (MATH_PACK) is 0: nothing posted it (SEMPOST)"),
            "{r}"
        );
    }

    /// A hung tile whose BRISC waits on write acks from a disabled tile: the report names the
    /// counter it polls and the tile (bhemu_noc::unanswered).
    #[test]
    fn watchdog_names_the_disabled_tile_a_noc_barrier_waits_on() {
        let mut c = chip(RUN_MSG_GO);
        let (words, _) = crate::hang::chip_tests::dead_tile_barrier();
        let t = c.tile_mut(1, 2).unwrap();
        for (i, w) in words.iter().enumerate() {
            t.write_l1_u32(4 * i as u32, *w).unwrap();
        }
        c.write_reg(1, 2, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)
            .unwrap();
        let mut w = Watchdog::new(CHECK_EVERY);
        assert_eq!(w.check(&c), None);
        c.clock(CHECK_EVERY).unwrap();
        let r = w.check(&c).unwrap();
        assert!(
            r.ends_with("\n  tile (1,2) BRISC polls NIU0 NIU_MST_WR_ACK_RECEIVED (write acks) (last read 0x0); NIU0 counters: 3 non-posted writes sent, 0 acked; 0 reads sent, 0 responses; 3 writes outstanding to (5,7), which is disabled (harvested) and never answers"),
            "{r}"
        );
    }

    #[test]
    fn watchdog_is_silent_for_tiles_not_launched_or_done() {
        let mut c = chip(RUN_MSG_DONE);
        spin_brisc(&mut c);
        let mut w = Watchdog::new(1);
        for _ in 0..4 {
            assert_eq!(w.check(&c), None);
            c.clock(CHECK_EVERY).unwrap();
        }
    }

    #[test]
    fn watchdog_reports_again_after_the_tile_finished_and_was_launched_anew() {
        let mut c = chip(RUN_MSG_GO);
        spin_brisc(&mut c);
        let mut w = Watchdog::new(CHECK_EVERY);
        assert_eq!(w.check(&c), None);
        c.clock(CHECK_EVERY).unwrap();
        assert!(w.check(&c).is_some());
        let t = c.tile_mut(1, 2).unwrap();
        t.write_l1_u32(host::GO_MSG, u32::from(RUN_MSG_DONE) << 24)
            .unwrap();
        c.clock(CHECK_EVERY).unwrap();
        assert_eq!(w.check(&c), None);
        let t = c.tile_mut(1, 2).unwrap();
        t.write_l1_u32(host::GO_MSG, u32::from(RUN_MSG_GO) << 24)
            .unwrap();
        c.clock(CHECK_EVERY).unwrap();
        assert_eq!(w.check(&c), None, "a new launch starts its own count");
        c.clock(CHECK_EVERY).unwrap();
        assert!(w.check(&c).is_some());
    }
}
