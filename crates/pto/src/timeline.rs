//! What a run produced: total cycles, per core and pipe the ops with their start and end cycles,
//! what was left unbalanced, and the error if the run failed.
use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::error::PtoError;
use crate::pipes::{CoreId, Pipe};
use crate::profile::Profile;

/// One op on a pipe: it occupied the pipe during `[start, end)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub label: String,
    pub start: u64,
    pub end: u64,
    /// Trace line of the op.
    pub line: usize,
}

/// Spans per (core, pipe), in start order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    lanes: BTreeMap<(CoreId, Pipe), Vec<Span>>,
}

impl Timeline {
    pub fn push(&mut self, core: CoreId, pipe: Pipe, span: Span) {
        self.lanes.entry((core, pipe)).or_default().push(span);
    }

    /// The spans of one pipe (empty if it ran nothing).
    pub fn lane(&self, core: CoreId, pipe: Pipe) -> &[Span] {
        self.lanes.get(&(core, pipe)).map_or(&[], Vec::as_slice)
    }

    /// Every non-empty lane, cores in order aic, aiv0, aiv1 and pipes in display order.
    pub fn lanes(&self) -> impl Iterator<Item = (CoreId, Pipe, &[Span])> {
        self.lanes.iter().map(|((c, p), v)| (*c, *p, v.as_slice()))
    }

    /// The first span labelled `label` on `core`, with its pipe.
    pub fn find(&self, core: CoreId, label: &str) -> Option<(Pipe, &Span)> {
        self.lanes
            .iter()
            .filter(|((c, _), _)| *c == core)
            .find_map(|((_, p), v)| v.iter().find(|s| s.label == label).map(|s| (*p, s)))
    }

    /// Lane key as printed: `aiv0.PIPE_V`.
    pub fn lane_name(core: CoreId, pipe: Pipe) -> String {
        format!("{core}.{pipe}")
    }
}

/// A synchronisation object left set or held at the end of the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unbalanced {
    /// Core of the op that last set or acquired it.
    pub core: CoreId,
    /// Line of that op.
    pub line: usize,
    pub message: String,
}

/// The result of running a trace on a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub profile: Profile,
    /// Cycles until every core has issued and retired everything; on failure, the cycle at which
    /// the run stopped.
    pub cycles: u64,
    pub timeline: Timeline,
    pub unbalanced: Vec<Unbalanced>,
    pub error: Option<PtoError>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// A human-readable rendering: a summary line, a chart of the pipes, each op with its cycles,
    /// then what is unbalanced and the error.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let status = if self.ok() { "ok" } else { "FAILED" };
        let _ = writeln!(
            s,
            "profile {}: {} cycles, {status}",
            self.profile, self.cycles
        );
        let width = self.cycles.clamp(1, 64);
        let scale = |c: u64| (c.saturating_mul(width) / self.cycles.max(1)).min(width);
        for (core, pipe, spans) in self.timeline.lanes() {
            let mut bar = vec![b'.'; width as usize];
            for sp in spans {
                let (a, b) = (
                    scale(sp.start),
                    scale(sp.end).max(scale(sp.start) + 1).min(width),
                );
                for cell in bar.iter_mut().take(b as usize).skip(a as usize) {
                    *cell = b'#';
                }
            }
            let _ = writeln!(
                s,
                "  {:<15} |{}|",
                Timeline::lane_name(core, pipe),
                String::from_utf8_lossy(&bar)
            );
        }
        for (core, pipe, spans) in self.timeline.lanes() {
            let _ = writeln!(s, "{}", Timeline::lane_name(core, pipe));
            for sp in spans {
                let _ = writeln!(
                    s,
                    "  {:>8} .. {:<8} {}  (line {})",
                    sp.start, sp.end, sp.label, sp.line
                );
            }
        }
        for u in &self.unbalanced {
            let _ = writeln!(s, "unbalanced: {} line {}: {}", u.core, u.line, u.message);
        }
        if let Some(e) = &self.error {
            let _ = writeln!(s, "error: {e}");
        }
        s
    }
}
