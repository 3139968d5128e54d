//! Environment knobs, read at the first call into the library and again at every
//! `libttsim_init` (never at load time: tt-umd loads the library twice, §1.3 of
//! docs/tt-umd-sim-interface.md). The library never looks for files relative to its own path,
//! because tt-umd may load it from a memfd (§1.3).
use std::path::PathBuf;

use crate::backend::MmioMode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum LogLevel {
    Error,
    #[default]
    Warn,
    Info,
    Debug,
}

impl LogLevel {
    pub fn name(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
        }
    }
}

/// The most `BHEMU_CYCLES_PER_CLOCK` accepts: a million cycles per host read is already far
/// beyond silicon's ratio, and `n` clocks times it must stay within a `u32`.
pub const MAX_CYCLES_PER_CLOCK: u32 = 1 << 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// `BHEMU_LOG`: error | warn | info | debug (default warn).
    pub log: LogLevel,
    /// `BHEMU_TRACE_FILE`: append one line per ABI call.
    pub trace_file: Option<PathBuf>,
    /// `BHEMU_MMIO`: strict | permissive (default strict).
    pub mmio: MmioMode,
    /// `BHEMU_HANG_CYCLES`: simulated cycles after a launch before the hang report (default
    /// [`crate::backend::DEFAULT_HANG_CYCLES`]); 0 turns the watchdog off.
    pub hang_cycles: Option<u64>,
    /// `BHEMU_TIMELINE`: record a timeline trace (Chrome/Perfetto JSON, `bhemu_trace`) into
    /// this file, written when the library exits; `BHEMU_TIMELINE_TILES` (`X,Y;...`) and
    /// `BHEMU_TIMELINE_CYCLES` (`A..B`) narrow it, `BHEMU_TIMELINE_INCLUDE` picks track kinds.
    pub timeline: Option<(PathBuf, bhemu_trace::TraceOptions)>,
    /// `BHEMU_CHECK_HAZARDS=1`: report every SFPU read of a Dst block within four cycles of a
    /// Matrix Unit write to it (a missing STALLWAIT; `bhemu_tensix::matrix::hazard`) on stderr.
    pub check_hazards: bool,
    /// `BHEMU_NOC_HOPS=1`: per-hop NoC latency (`Timing::BLACKHOLE`: 2 x 5 NIU cycles + 9 per
    /// hop) instead of functional timing, as `bhemu boot/run --noc-hops`.
    pub noc_hops: bool,
    /// `BHEMU_GDB=PORT`: serve gdb on 127.0.0.1:PORT from within the clock calls
    /// (`bhemu_gdb::clocked`, docs/gdb.md) over the harts of `BHEMU_GDB_TILES` (`X,Y;...`,
    /// default `1,2`).
    pub gdb: Option<(u16, Vec<(u8, u8)>)>,
    /// `BHEMU_STRICT=1`: the first Tensix undefined behaviour faults the device. Off (the
    /// default), each kind is reported once on stderr and the chip goes on as the reference
    /// simulator or the ISA documentation says (docs/libttsim-abi.md "Tensix faults").
    pub strict: bool,
    /// `BHEMU_STATS=1`: at the last `libttsim_exit`, one line on stderr with the calls made,
    /// the cycles run and the host time spent inside the library (per tile-clock), which
    /// separates bhemu's own cost from the client's when timing through tt-umd.
    pub stats: bool,
    /// `BHEMU_SYSTEM`: p150 | p300 | galaxy (default p150; docs/multi-chip.md). The raw value,
    /// parsed by `libttsim_init`, which refuses to start on an unknown name.
    pub system: Option<String>,
    /// `BHEMU_CYCLES_PER_CLOCK`: device cycles each `libttsim_clock(n)` runs per clock asked
    /// (default 1, as the reference simulator). tt-umd clocks once per host read; on silicon a
    /// read over PCIe takes about a microsecond, some 1,350 cycles of the 1.35 GHz chip, so a
    /// client that polls for a long kernel needs that many fewer reads (docs/libttsim-abi.md
    /// "Cycles per clock").
    pub cycles_per_clock: u32,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            log: LogLevel::default(),
            trace_file: None,
            mmio: MmioMode::default(),
            hang_cycles: None,
            timeline: None,
            check_hazards: false,
            noc_hops: false,
            gdb: None,
            strict: false,
            stats: false,
            system: None,
            cycles_per_clock: 1,
        }
    }
}

impl Knobs {
    /// Parse from a lookup function (the environment in the library, a map in tests). Returns
    /// the knobs and one message per value that was not understood (the default is used).
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Knobs, Vec<String>) {
        let mut k = Knobs::default();
        let mut problems = Vec::new();
        if let Some(v) = get("BHEMU_LOG") {
            match v.trim().to_ascii_lowercase().as_str() {
                "error" => k.log = LogLevel::Error,
                "warn" | "warning" => k.log = LogLevel::Warn,
                "info" => k.log = LogLevel::Info,
                "debug" | "trace" => k.log = LogLevel::Debug,
                "" => {}
                _ => problems.push(format!(
                    "BHEMU_LOG={v:?} is not one of error|warn|info|debug; using warn"
                )),
            }
        }
        if let Some(v) = get("BHEMU_TRACE_FILE") {
            if !v.is_empty() {
                k.trace_file = Some(PathBuf::from(v));
            }
        }
        if let Some(v) = get("BHEMU_MMIO") {
            match v.trim().to_ascii_lowercase().as_str() {
                "strict" | "" => k.mmio = MmioMode::Strict,
                "permissive" => k.mmio = MmioMode::Permissive,
                _ => problems.push(format!(
                    "BHEMU_MMIO={v:?} is not one of strict|permissive; using strict"
                )),
            }
        }
        if let Some(v) = get("BHEMU_HANG_CYCLES") {
            match v.trim().replace('_', "").parse::<u64>() {
                Ok(n) => k.hang_cycles = Some(n),
                Err(_) if v.trim().is_empty() => {}
                Err(_) => problems.push(format!(
                    "BHEMU_HANG_CYCLES={v:?} is not a number of cycles; using the default"
                )),
            }
        }
        if let Some(v) = get("BHEMU_TIMELINE").filter(|v| !v.trim().is_empty()) {
            let mut o = bhemu_trace::TraceOptions::default();
            let mut ok = true;
            if let Some(t) = get("BHEMU_TIMELINE_TILES").filter(|t| !t.trim().is_empty()) {
                match bhemu_trace::parse_tiles(&t) {
                    Ok(t) => o.tiles = Some(t),
                    Err(e) => {
                        problems.push(format!("BHEMU_TIMELINE_TILES: {e}; no timeline"));
                        ok = false;
                    }
                }
            }
            if let Some(c) = get("BHEMU_TIMELINE_CYCLES").filter(|c| !c.trim().is_empty()) {
                match bhemu_trace::parse_window(&c) {
                    Ok(w) => o.window = Some(w),
                    Err(e) => {
                        problems.push(format!("BHEMU_TIMELINE_CYCLES: {e}; no timeline"));
                        ok = false;
                    }
                }
            }
            if let Some(i) = get("BHEMU_TIMELINE_INCLUDE").filter(|i| !i.trim().is_empty()) {
                match bhemu_trace::Include::parse(&i) {
                    Ok(i) => o.include = i,
                    Err(e) => {
                        problems.push(format!("BHEMU_TIMELINE_INCLUDE: {e}; no timeline"));
                        ok = false;
                    }
                }
            }
            if ok {
                k.timeline = Some((PathBuf::from(v), o));
            }
        }
        k.check_hazards = flag(
            &get,
            "BHEMU_CHECK_HAZARDS",
            "hazards are not checked",
            &mut problems,
        );
        k.stats = flag(&get, "BHEMU_STATS", "no statistics", &mut problems);
        k.strict = flag(
            &get,
            "BHEMU_STRICT",
            "Tensix undefined behaviour is reported and the chip goes on",
            &mut problems,
        );
        k.noc_hops = flag(
            &get,
            "BHEMU_NOC_HOPS",
            "functional NoC timing",
            &mut problems,
        );
        k.system = get("BHEMU_SYSTEM").filter(|v| !v.trim().is_empty());
        k.cycles_per_clock = 1;
        if let Some(v) = get("BHEMU_CYCLES_PER_CLOCK").filter(|v| !v.trim().is_empty()) {
            match v.trim().replace('_', "").parse::<u32>() {
                Ok(n) if (1..=MAX_CYCLES_PER_CLOCK).contains(&n) => k.cycles_per_clock = n,
                _ => problems.push(format!(
                    "BHEMU_CYCLES_PER_CLOCK={v:?} is not a number of cycles from 1 to {MAX_CYCLES_PER_CLOCK}; using 1"
                )),
            }
        }
        if let Some(v) = get("BHEMU_GDB").filter(|v| !v.trim().is_empty()) {
            let tiles = match get("BHEMU_GDB_TILES").filter(|t| !t.trim().is_empty()) {
                Some(t) => bhemu_gdb::parse_tiles("BHEMU_GDB_TILES", &t).map_err(|e| e.0),
                None => Ok(vec![(1, 2)]),
            };
            match (v.trim().parse::<u16>(), tiles) {
                (Ok(port), Ok(t)) => k.gdb = Some((port, t)),
                (Err(_), _) => {
                    problems.push(format!("BHEMU_GDB={v:?} is not a TCP port; no gdb stub"))
                }
                (_, Err(e)) => problems.push(format!("{e}; no gdb stub")),
            }
        }
        (k, problems)
    }

    pub fn from_env() -> (Knobs, Vec<String>) {
        Knobs::parse(|name| std::env::var(name).ok())
    }
}

/// A 0/1 knob: `1` is on; unset, empty and `0` are off; anything else is off and reported
/// (`off` says what that means).
fn flag(
    get: &impl Fn(&str) -> Option<String>,
    name: &str,
    off: &str,
    problems: &mut Vec<String>,
) -> bool {
    match get(name).as_deref().map(str::trim) {
        Some("1") => true,
        None | Some("0") | Some("") => false,
        Some(v) => {
            problems.push(format!("{name}={v:?} is not 0 or 1; {off}"));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(pairs: &[(&str, &str)]) -> (Knobs, Vec<String>) {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        Knobs::parse(|n| m.get(n).cloned())
    }

    #[test]
    fn knobs_timeline_takes_file_tiles_and_cycles() {
        let (k, p) = parse(&[
            ("BHEMU_TIMELINE", "/tmp/t.json"),
            ("BHEMU_TIMELINE_TILES", "1,2;3,4"),
            ("BHEMU_TIMELINE_CYCLES", "100..200"),
        ]);
        assert_eq!(p, Vec::<String>::new());
        let (f, o) = k.timeline.unwrap();
        assert_eq!(f, PathBuf::from("/tmp/t.json"));
        assert_eq!(o.tiles, Some(vec![(1, 2), (3, 4)]));
        assert_eq!(o.window, Some((100, 200)));
        let (k, p) = parse(&[
            ("BHEMU_TIMELINE", "t.json"),
            ("BHEMU_TIMELINE_CYCLES", "9..1"),
        ]);
        assert_eq!(k.timeline, None);
        assert!(
            p[0].starts_with("BHEMU_TIMELINE_CYCLES: trace cycles `9..1`: the window is empty"),
            "{p:?}"
        );
    }

    #[test]
    fn gdb_knob_takes_a_port_and_tiles_or_reports_garbage() {
        assert_eq!(
            parse(&[("BHEMU_GDB", "4567")]).0.gdb,
            Some((4567, vec![(1, 2)]))
        );
        let (k, _) = parse(&[("BHEMU_GDB", "4567"), ("BHEMU_GDB_TILES", "3,4;5,6")]);
        assert_eq!(k.gdb, Some((4567, vec![(3, 4), (5, 6)])));
        let (k, p) = parse(&[("BHEMU_GDB", "gdb")]);
        assert_eq!(k.gdb, None);
        assert_eq!(
            p,
            vec!["BHEMU_GDB=\"gdb\" is not a TCP port; no gdb stub".to_string()]
        );
        let (k, p) = parse(&[("BHEMU_GDB", "1"), ("BHEMU_GDB_TILES", "3-4")]);
        assert_eq!(k.gdb, None);
        assert_eq!(
            p,
            vec!["BHEMU_GDB_TILES: tile '3-4': expected x,y; no gdb stub".to_string()]
        );
    }

    #[test]
    fn knobs_default_to_warn_strict_no_trace() {
        assert_eq!(parse(&[]), (Knobs::default(), vec![]));
        assert_eq!(Knobs::default().log, LogLevel::Warn);
        assert_eq!(Knobs::default().mmio, MmioMode::Strict);
    }

    #[test]
    fn knobs_parse_each_value_and_report_bad_ones() {
        let (k, p) = parse(&[
            ("BHEMU_LOG", "DEBUG"),
            ("BHEMU_MMIO", "permissive"),
            ("BHEMU_TRACE_FILE", "/tmp/t"),
        ]);
        assert_eq!(
            (k.log, k.mmio, k.trace_file.as_deref()),
            (
                LogLevel::Debug,
                MmioMode::Permissive,
                Some(std::path::Path::new("/tmp/t"))
            )
        );
        assert!(p.is_empty());
        let (k, p) = parse(&[("BHEMU_LOG", "loud"), ("BHEMU_MMIO", "lax")]);
        assert_eq!((k.log, k.mmio), (LogLevel::Warn, MmioMode::Strict));
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn check_hazards_knob_is_on_only_for_1() {
        assert!(parse(&[("BHEMU_CHECK_HAZARDS", "1")]).0.check_hazards);
        assert!(!parse(&[]).0.check_hazards);
        assert!(parse(&[("BHEMU_NOC_HOPS", "1")]).0.noc_hops);
        let (k, p) = parse(&[("BHEMU_NOC_HOPS", "yes")]);
        assert!(!k.noc_hops);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("BHEMU_NOC_HOPS"), "{p:?}");
        let (k, p) = parse(&[("BHEMU_CHECK_HAZARDS", "0")]);
        assert!(!k.check_hazards && p.is_empty());
        let (k, p) = parse(&[("BHEMU_CHECK_HAZARDS", "yes")]);
        assert!(!k.check_hazards);
        assert_eq!(p.len(), 1, "{p:?}");
    }

    #[test]
    fn stats_knob_is_on_only_for_1() {
        assert!(parse(&[("BHEMU_STATS", "1")]).0.stats);
        assert!(!parse(&[]).0.stats);
        let (k, p) = parse(&[("BHEMU_STATS", "on")]);
        assert!(!k.stats);
        assert_eq!(
            p,
            vec!["BHEMU_STATS=\"on\" is not 0 or 1; no statistics".to_string()]
        );
    }

    #[test]
    fn hang_cycles_knob_takes_a_count_zero_or_reports_garbage() {
        assert_eq!(
            parse(&[("BHEMU_HANG_CYCLES", "250_000")]).0.hang_cycles,
            Some(250_000)
        );
        assert_eq!(parse(&[("BHEMU_HANG_CYCLES", "0")]).0.hang_cycles, Some(0));
        let (k, p) = parse(&[("BHEMU_HANG_CYCLES", "soon")]);
        assert_eq!(k.hang_cycles, None);
        assert!(p[0].contains("BHEMU_HANG_CYCLES"), "{p:?}");
    }

    #[test]
    fn cycles_per_clock_knob_takes_1_to_the_maximum_or_reports_garbage() {
        assert_eq!(parse(&[]).0.cycles_per_clock, 1);
        assert_eq!(
            parse(&[("BHEMU_CYCLES_PER_CLOCK", "1_000")])
                .0
                .cycles_per_clock,
            1000
        );
        for bad in ["0", "fast", "2000000"] {
            let (k, p) = parse(&[("BHEMU_CYCLES_PER_CLOCK", bad)]);
            assert_eq!(k.cycles_per_clock, 1, "{bad}");
            assert!(p[0].contains("BHEMU_CYCLES_PER_CLOCK"), "{p:?}");
        }
    }
}
