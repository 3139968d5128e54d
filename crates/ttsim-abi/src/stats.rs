//! `BHEMU_STATS=1`: what the library did and how long the host spent inside it.
//!
//! Through tt-umd every `noc_read` gives the simulator one clock (docs/tt-umd-sim-interface.md
//! §6), and the client's own work per read (Python, tt-umd's TLB programming) is several
//! microseconds, more than a whole 140-tile cycle of bhemu. Wall time through tt-umd therefore
//! mostly measures the client; the time spent inside the library's entry points is bhemu's own
//! share, and is what this line reports, per tile-clock like `bhemu bench chip`.
use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub on: bool,
    /// Entry-point calls (a call that resumes after host callbacks counts once).
    pub calls: u64,
    /// `libttsim_clock` calls.
    pub clock_calls: u64,
    /// Host time inside the entry points (host callbacks excluded).
    pub inside: Duration,
    /// The part of `inside` spent in `libttsim_clock`: simulating, as opposed to serving the
    /// host's reads, writes and TLB programming.
    pub clocking: Duration,
}

impl Stats {
    /// The summary line for a chip that ran `cycles` cycles on `tiles` tiles.
    pub fn line(&self, cycles: u64, tiles: usize) -> String {
        let tile_clocks = cycles as f64 * tiles as f64;
        let ns = self.inside.as_secs_f64() * 1e9;
        let per = if tile_clocks > 0.0 {
            format!("{:.2} ns per tile-clock", ns / tile_clocks)
        } else {
            "no tile-clocks".to_string()
        };
        let per_call = if self.calls > 0 {
            ns / 1e3 / self.calls as f64
        } else {
            0.0
        };
        let clock_per = if tile_clocks > 0.0 {
            format!(
                "{:.2} ns per tile-clock",
                self.clocking.as_secs_f64() * 1e9 / tile_clocks
            )
        } else {
            "no tile-clocks".to_string()
        };
        format!(
            "bhemu: stats: {} calls ({} clock), {cycles} cycles on {tiles} tiles, {:.3} s inside \
             libttsim ({per_call:.2} us per call, {per}), of which {:.3} s clocking ({clock_per})",
            self.calls,
            self.clock_calls,
            self.inside.as_secs_f64(),
            self.clocking.as_secs_f64(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_line_divides_inside_time_by_tile_clocks() {
        let s = Stats {
            on: true,
            calls: 1000,
            clock_calls: 400,
            inside: Duration::from_millis(14),
            clocking: Duration::from_micros(7_000),
        };
        // 14 ms over 1000 cycles x 140 tiles = 100 ns; 14 us per call; clocking half of it.
        assert_eq!(
            s.line(1000, 140),
            "bhemu: stats: 1000 calls (400 clock), 1000 cycles on 140 tiles, 0.014 s inside \
             libttsim (14.00 us per call, 100.00 ns per tile-clock), of which 0.007 s clocking \
             (50.00 ns per tile-clock)"
        );
        assert!(
            s.line(0, 140).ends_with("no tile-clocks)"),
            "{}",
            s.line(0, 140)
        );
    }
}
