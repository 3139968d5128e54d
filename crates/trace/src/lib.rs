//! Timeline traces in the Chrome / Perfetto trace-event JSON format (opens in
//! ui.perfetto.dev and chrome://tracing).
//!
//! The units that produce events (`bhemu-tensix`'s thread tracer, `bhemu-chip`'s core and NoC
//! tracer) write into a [`Trace`] passed to them as an argument; nothing here knows about
//! them, so dependencies keep pointing down. One simulated cycle is one trace time unit (the
//! viewers label it "µs"): a slice's `ts` is the cycle it began, `dur` the cycles it lasted.
//!
//! Layout: a process (`pid`) per tile or per coprocessor, a thread (`tid`) per track (RISC-V
//! core, Tensix thread, backend unit, NoC); counters (FIFO depth, semaphore values) are
//! counter tracks of the process; NoC transactions are flow arrows between two slices.
use serde_json::{json, Map, Value};

/// What to record, and where. `None` tiles means every tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    pub tiles: Option<Vec<(u8, u8)>>,
    /// Cycles `[start, end)` kept; events outside are dropped and slices clipped.
    pub window: Option<(u64, u64)>,
    pub include: Include,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            tiles: None,
            window: None,
            include: Include::ALL,
        }
    }
}

impl TraceOptions {
    pub fn wants_tile(&self, x: u8, y: u8) -> bool {
        self.tiles.as_ref().is_none_or(|v| v.contains(&(x, y)))
    }
}

/// Which kinds of track a trace gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Include {
    /// A track per RISC-V core: kernel and firmware spans, stalls with their cause.
    pub cores: bool,
    /// A track per Tensix thread: dispatches, Wait Gate stalls with their condition, MOP and
    /// replay expansion.
    pub tensix: bool,
    /// A track per backend unit: each instruction's occupancy, disassembly as slice name.
    pub units: bool,
    /// NoC transactions as flows between tiles.
    pub noc: bool,
    /// Counter tracks: FIFO depth, semaphore values.
    pub counters: bool,
}

impl Include {
    pub const ALL: Include = Include {
        cores: true,
        tensix: true,
        units: true,
        noc: true,
        counters: true,
    };

    /// A comma-separated subset of `cores,tensix,units,noc,counters` (or `all`).
    pub fn parse(s: &str) -> Result<Include, String> {
        let mut inc = Include {
            cores: false,
            tensix: false,
            units: false,
            noc: false,
            counters: false,
        };
        for w in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match w {
                "all" => inc = Include::ALL,
                "cores" => inc.cores = true,
                "tensix" => inc.tensix = true,
                "units" => inc.units = true,
                "noc" => inc.noc = true,
                "counters" => inc.counters = true,
                other => {
                    return Err(format!(
                        "unknown trace track kind `{other}` (expected cores, tensix, units, noc, counters or all)"
                    ))
                }
            }
        }
        Ok(inc)
    }
}

/// `X,Y` pairs separated by `;` or spaces: `1,2;5,7`.
pub fn parse_tiles(s: &str) -> Result<Vec<(u8, u8)>, String> {
    let mut v = Vec::new();
    for p in s.split([';', ' ']).map(str::trim).filter(|p| !p.is_empty()) {
        let p = p.trim_start_matches('(').trim_end_matches(')');
        let (x, y) = p
            .split_once(',')
            .ok_or_else(|| format!("trace tile `{p}`: expected X,Y"))?;
        let n = |t: &str| {
            t.trim()
                .parse::<u8>()
                .map_err(|_| format!("trace tile `{p}`: `{t}` is not a coordinate"))
        };
        v.push((n(x)?, n(y)?));
    }
    if v.is_empty() {
        return Err("no trace tiles given (expected X,Y[;X,Y...])".into());
    }
    Ok(v)
}

/// A cycle window `A..B` (either end may be left out).
pub fn parse_window(s: &str) -> Result<(u64, u64), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("trace cycles `{s}`: expected A..B"))?;
    let n = |t: &str, d: u64| {
        let t = t.trim();
        if t.is_empty() {
            return Ok(d);
        }
        t.parse::<u64>()
            .map_err(|_| format!("trace cycles `{s}`: `{t}` is not a cycle number"))
    };
    let (a, b) = (n(a, 0)?, n(b, u64::MAX)?);
    if b <= a {
        return Err(format!("trace cycles `{s}`: the window is empty"));
    }
    Ok((a, b))
}

/// The trace being recorded.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    events: Vec<Value>,
    window: Option<(u64, u64)>,
    next_flow: u64,
}

impl Trace {
    pub fn new(window: Option<(u64, u64)>) -> Trace {
        Trace {
            events: Vec::new(),
            window,
            next_flow: 1,
        }
    }

    fn inside(&self, ts: u64) -> bool {
        self.window.is_none_or(|(a, b)| ts >= a && ts < b)
    }

    /// Names process `pid` (a tile or a coprocessor); `sort` orders processes in the viewer.
    pub fn name_process(&mut self, pid: u32, name: &str, sort: u32) {
        self.events.push(json!({"ph": "M", "pid": pid, "tid": 0, "name": "process_name", "args": {"name": name}}));
        self.events.push(json!({"ph": "M", "pid": pid, "tid": 0, "name": "process_sort_index", "args": {"sort_index": sort}}));
    }

    /// Names track `tid` of process `pid`; tracks are shown in `tid` order.
    pub fn name_track(&mut self, pid: u32, tid: u32, name: &str) {
        self.events.push(json!({"ph": "M", "pid": pid, "tid": tid, "name": "thread_name", "args": {"name": name}}));
        self.events.push(json!({"ph": "M", "pid": pid, "tid": tid, "name": "thread_sort_index", "args": {"sort_index": tid}}));
    }

    /// A slice `[start, end)` on a track, clipped to the window; `args` is shown in the
    /// viewer's detail pane. Returns whether anything was recorded.
    pub fn slice(
        &mut self,
        pid: u32,
        tid: u32,
        name: &str,
        start: u64,
        end: u64,
        args: Value,
    ) -> bool {
        let (mut s, mut e) = (start, end.max(start + 1));
        if let Some((a, b)) = self.window {
            s = s.max(a);
            e = e.min(b);
            if e <= s {
                return false;
            }
        }
        let mut ev =
            json!({"ph": "X", "pid": pid, "tid": tid, "name": name, "ts": s, "dur": e - s});
        if !args.is_null() {
            ev["args"] = args;
        }
        self.events.push(ev);
        true
    }

    /// A counter sample: each `(series, value)` of counter `name` at cycle `ts`.
    pub fn counter(&mut self, pid: u32, name: &str, ts: u64, series: &[(&str, f64)]) {
        if !self.inside(ts) {
            return;
        }
        let mut args = Map::new();
        for (k, v) in series {
            args.insert((*k).to_string(), json!(v));
        }
        self.events
            .push(json!({"ph": "C", "pid": pid, "tid": 0, "name": name, "ts": ts, "args": args}));
    }

    /// A transfer from one track to another: a slice at each end (`from` lasting until the
    /// transfer lands) joined by a flow arrow. Dropped unless both ends are in the window.
    pub fn flow(&mut self, name: &str, from: (u32, u32, u64), to: (u32, u32, u64), args: Value) {
        if !self.inside(from.2) || !self.inside(to.2) {
            return;
        }
        let id = self.next_flow;
        self.next_flow += 1;
        self.slice(
            from.0,
            from.1,
            name,
            from.2,
            to.2.max(from.2 + 1),
            args.clone(),
        );
        self.slice(to.0, to.1, name, to.2, to.2 + 1, args);
        self.events.push(json!({"ph": "s", "pid": from.0, "tid": from.1, "name": name, "cat": "noc", "id": id, "ts": from.2}));
        self.events.push(json!({"ph": "f", "bp": "e", "pid": to.0, "tid": to.1, "name": name, "cat": "noc", "id": id, "ts": to.2}));
    }

    pub fn events(&self) -> &[Value] {
        &self.events
    }

    /// The whole trace as one JSON object (`traceEvents` plus what a cycle means).
    pub fn to_json(&self) -> Value {
        json!({
            "traceEvents": self.events,
            "displayTimeUnit": "ns",
            "otherData": {"producer": "bhemu", "time_unit": "1 trace microsecond = 1 simulated cycle"},
        })
    }

    /// Writes the trace to `path`.
    pub fn write(&self, path: &std::path::Path) -> Result<(), String> {
        let text = self.to_json().to_string();
        std::fs::write(path, text)
            .map_err(|e| format!("{}: cannot write trace: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_options_parse_tiles_windows_and_kinds() {
        assert_eq!(parse_tiles("1,2;5,7").unwrap(), vec![(1, 2), (5, 7)]);
        assert_eq!(parse_tiles("(1,2) (3,4)").unwrap(), vec![(1, 2), (3, 4)]);
        assert!(parse_tiles("1;2").unwrap_err().contains("expected X,Y"));
        assert_eq!(parse_window("10..20").unwrap(), (10, 20));
        assert_eq!(parse_window("10..").unwrap(), (10, u64::MAX));
        assert!(parse_window("20..10").unwrap_err().contains("empty"));
        let i = Include::parse("cores,noc").unwrap();
        assert!(i.cores && i.noc && !i.tensix && !i.units && !i.counters);
        assert!(Include::parse("dram").unwrap_err().contains("`dram`"));
    }

    #[test]
    fn trace_window_clips_slices_and_drops_outside_events() {
        let mut t = Trace::new(Some((10, 20)));
        assert!(t.slice(1, 1, "a", 5, 15, Value::Null));
        assert!(!t.slice(1, 1, "b", 20, 30, Value::Null));
        t.counter(1, "c", 9, &[("v", 1.0)]);
        t.flow("w", (1, 2, 12), (2, 2, 14), Value::Null);
        let ev = t.events();
        assert_eq!(ev[0]["ts"], 10);
        assert_eq!(ev[0]["dur"], 5);
        assert_eq!(ev.iter().filter(|e| e["ph"] == "C").count(), 0);
        let s = ev.iter().find(|e| e["ph"] == "s").unwrap();
        let f = ev.iter().find(|e| e["ph"] == "f").unwrap();
        assert_eq!(
            (s["id"].clone(), s["ts"].clone(), s["pid"].clone()),
            (json!(1), json!(12), json!(1))
        );
        assert_eq!(
            (f["id"].clone(), f["ts"].clone(), f["pid"].clone()),
            (json!(1), json!(14), json!(2))
        );
    }
}
