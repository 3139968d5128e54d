//! `BHEMU_STATS=1`: what the library did and how long the host spent inside it.
//!
//! Through tt-umd every `noc_read` gives the simulator one clock (docs/tt-umd-sim-interface.md
//! §6), and the client's own work per read (Python, tt-umd's TLB programming) is about a
//! microsecond, more than bhemu spends on a 140-tile cycle of a spinning chip. Wall time
//! through tt-umd therefore mostly measures the client; the time spent inside the library's
//! entry points is bhemu's own share, and is what this line reports, per tile-clock like
//! `bhemu bench chip`.
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub on: bool,
    /// The library's count of entry-point calls when counting started (`libttsim_init`).
    pub since_call: u64,
    /// `libttsim_clock` calls.
    pub clock_calls: u64,
    /// Host time inside the entry points (host callbacks excluded).
    pub inside: Duration,
    /// The part of `inside` spent in `libttsim_clock`: simulating, as opposed to serving the
    /// host's reads, writes and TLB programming.
    pub clocking: Duration,
}

impl Stats {
    /// Nothing counted, counting off.
    pub const OFF: Stats = Stats {
        on: false,
        since_call: 0,
        clock_calls: 0,
        inside: Duration::ZERO,
        clocking: Duration::ZERO,
    };

    /// The summary line once the library's call count is `calls` and the chip ran `cycles`
    /// cycles on `tiles` tiles.
    pub fn line(&self, calls: u64, cycles: u64, tiles: usize) -> String {
        let calls = calls.saturating_sub(self.since_call);
        let tile_clocks = cycles as f64 * tiles as f64;
        let per_tile_clock = |d: Duration| {
            if tile_clocks > 0.0 {
                format!(
                    "{:.2} ns per tile-clock",
                    d.as_secs_f64() * 1e9 / tile_clocks
                )
            } else {
                "no tile-clocks".to_string()
            }
        };
        let per_call = if calls > 0 {
            self.inside.as_secs_f64() * 1e6 / calls as f64
        } else {
            0.0
        };
        format!(
            "bhemu: stats: {calls} calls ({} clock), {cycles} cycles on {tiles} tiles, {:.3} s inside \
             libttsim ({per_call:.2} us per call, {}), of which {:.3} s clocking ({})",
            self.clock_calls,
            self.inside.as_secs_f64(),
            per_tile_clock(self.inside),
            self.clocking.as_secs_f64(),
            per_tile_clock(self.clocking),
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
            since_call: 7,
            clock_calls: 400,
            inside: Duration::from_millis(14),
            clocking: Duration::from_micros(7_000),
        };
        // 14 ms over 1000 cycles x 140 tiles = 100 ns; 14 us per call; clocking half of it.
        assert_eq!(
            s.line(1007, 1000, 140),
            "bhemu: stats: 1000 calls (400 clock), 1000 cycles on 140 tiles, 0.014 s inside \
             libttsim (14.00 us per call, 100.00 ns per tile-clock), of which 0.007 s clocking \
             (50.00 ns per tile-clock)"
        );
        assert!(
            s.line(1007, 0, 140).ends_with("no tile-clocks)"),
            "{}",
            s.line(1007, 0, 140)
        );
    }
}
