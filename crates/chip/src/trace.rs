//! Timeline trace of a chip run (`bhemu_trace` format): installed on a [`Chip`] with
//! [`Chip::set_tracer`], it is sampled after every cycle; with none installed, the clock loops
//! take their usual path (one `is_some` check per call to `clock` / `run_until*`, none per
//! cycle), so tracing off costs nothing.
//!
//! Per traced tile, a process `tile (x,y)` with, per RISC-V core, a track of what it runs
//! (`firmware`, or the kernel while its pc is in the core's kernel window of
//! [`crate::launch::TEXT_BASE`]) and a track of its stalls (the MMIO access it is stalled on, named
//! by [`crate::mmio_names`]) and polls (a register it read at least twice in a row, the last time
//! within [`POLL_WINDOW`] cycles: NoC barrier counters, CB counters, semaphores); a process `tile
//! (x,y) Tensix` with the coprocessor's tracks (`bhemu_tensix::trace`); NoC transactions as flows
//! between the NoC tracks of their origin and target.
//!
//! Tracing runs the reference schedule, so every core's pc is that of the current cycle.
use bhemu_tensix::trace::CoprocessorTracer;
use bhemu_trace::{Trace, TraceOptions};
use serde_json::json;

use crate::chip::Chip;
use crate::error::ChipError;
use crate::launch::{text_base, TEXT_SIZE};
use crate::mmio_names;
use crate::schedule::Schedule;
use crate::tile::{Core, CoreState};

/// Two reads in a row of a pollable register, the last this recent, mark the core as polling it.
pub const POLL_WINDOW: u64 = 32;

/// Process id of tile (x, y); its coprocessor is `+ 1`.
pub fn tile_pid(x: u8, y: u8) -> u32 {
    1000 + 100 * u32::from(x) + 2 * u32::from(y)
}
/// Track of core `i` (index in [`Core::ALL`]): what it runs; `+ 1`: its stalls and polls.
pub fn core_tid(i: usize) -> u32 {
    1 + 2 * i as u32
}
/// Track of NoC `n`'s transactions of a tile.
pub fn noc_tid(n: usize) -> u32 {
    20 + n as u32
}

#[derive(Clone, Debug, Default)]
struct Open {
    label: Option<(String, u64)>,
}

impl Open {
    /// Closes the open slice if `now` differs from it and opens `now`.
    fn set(&mut self, trace: &mut Trace, pid: u32, tid: u32, now: Option<String>, cycle: u64) {
        if self.label.as_ref().map(|l| &l.0) == now.as_ref() {
            return;
        }
        if let Some((l, s)) = self.label.take() {
            trace.slice(pid, tid, &l, s, cycle, serde_json::Value::Null);
        }
        self.label = now.map(|l| (l, cycle));
    }
}

#[derive(Clone, Debug)]
struct TileTrace {
    index: usize,
    x: u8,
    y: u8,
    run: [Open; 5],
    wait: [Open; 5],
    /// Per core: the last MMIO read seen (address, cycle) and how many reads of that same
    /// address came in a row — two make a poll.
    reads: [Option<(u32, u64, u32)>; 5],
    cp: CoprocessorTracer,
}

/// The tracer of a chip run.
#[derive(Clone, Debug)]
pub struct ChipTracer {
    opts: TraceOptions,
    trace: Trace,
    tiles: Vec<TileTrace>,
    /// Kernel names per (x, y, core), for the kernel slices.
    kernels: Vec<(u8, u8, Core, String)>,
    /// Nodes whose NoC tracks were named.
    named: Vec<(u8, u8)>,
}

impl ChipTracer {
    /// A tracer for `chip` (switched to the reference schedule, dispatch and NoC logs on).
    pub fn install(chip: &mut Chip, opts: TraceOptions) -> Result<(), ChipError> {
        chip.set_schedule(Schedule::Reference)?;
        let mut trace = Trace::new(opts.window);
        let mut tiles = Vec::new();
        let arch = bhemu_isa::tensix::Arch::Blackhole;
        for (index, t) in chip.tiles_mut().iter_mut().enumerate() {
            let n = t.node();
            if !opts.wants_tile(n.x, n.y) {
                continue;
            }
            let pid = tile_pid(n.x, n.y);
            trace.name_process(pid, &format!("tile ({},{})", n.x, n.y), pid);
            if opts.include.cores {
                for (i, c) in Core::ALL.iter().enumerate() {
                    let name = c.name().to_uppercase();
                    trace.name_track(pid, core_tid(i), &name);
                    trace.name_track(pid, core_tid(i) + 1, &format!("{name} stalls/polls"));
                }
            }
            let label = format!("tile ({},{}) Tensix", n.x, n.y);
            let cp = CoprocessorTracer::new(&mut trace, pid + 1, &label, arch, opts.include);
            t.coprocessor_mut().set_dispatch_log(true);
            tiles.push(TileTrace {
                index,
                x: n.x,
                y: n.y,
                run: Default::default(),
                wait: Default::default(),
                reads: [None; 5],
                cp,
            });
        }
        chip.noc_mut().set_log(opts.include.noc);
        chip.set_tracer(Some(Box::new(ChipTracer {
            opts,
            trace,
            tiles,
            kernels: Vec::new(),
            named: Vec::new(),
        })));
        Ok(())
    }

    /// Names the kernel `core` of tile (x, y) runs (its ELF file), for its kernel slices.
    pub fn name_kernel(&mut self, x: u8, y: u8, core: Core, name: &str) {
        self.kernels.retain(|k| (k.0, k.1, k.2) != (x, y, core));
        self.kernels.push((x, y, core, name.to_string()));
    }

    /// Records the cycle `chip` just finished.
    pub(crate) fn sample(&mut self, chip: &mut Chip) {
        let cycle = chip.cycle().saturating_sub(1);
        let inc = self.opts.include;
        for tt in &mut self.tiles {
            let Some(t) = chip.tiles_mut().get_mut(tt.index) else {
                continue;
            };
            let pid = tile_pid(tt.x, tt.y);
            if inc.cores {
                for (i, &core) in Core::ALL.iter().enumerate() {
                    let state = t.core_state(core);
                    let pc = t.pc(core);
                    let base = text_base(core);
                    let run = match state {
                        CoreState::Reset | CoreState::Halted => None,
                        CoreState::Faulted => Some("faulted".to_string()),
                        _ if (base..base + TEXT_SIZE).contains(&pc) => Some(
                            match self
                                .kernels
                                .iter()
                                .find(|k| (k.0, k.1, k.2) == (tt.x, tt.y, core))
                            {
                                Some(k) => format!("kernel {}", k.3),
                                None => "kernel".to_string(),
                            },
                        ),
                        _ => Some("firmware".to_string()),
                    };
                    let m = t.last_mmio_at(core, cycle + 1);
                    let repeats = match (m, tt.reads[i]) {
                        (Some(m), Some((a, c, n))) if m.cycle == c => (a == m.addr).then_some(n),
                        (Some(m), prev) if !m.write => {
                            let n = match prev {
                                Some((a, _, n)) if a == m.addr => n + 1,
                                _ => 1,
                            };
                            tt.reads[i] = Some((m.addr, m.cycle, n));
                            Some(n)
                        }
                        _ => None,
                    }
                    .unwrap_or(0);
                    let wait = match (state, m) {
                        (CoreState::Stalled, Some(m)) => Some(format!(
                            "stalled: {} {}",
                            if m.write { "store to" } else { "load from" },
                            mmio_names::describe(m.addr)
                        )),
                        (CoreState::Stalled, None) => Some("stalled".to_string()),
                        (CoreState::Running, Some(m))
                            if !m.write
                                && repeats >= 2
                                && m.cycle + POLL_WINDOW >= cycle
                                && mmio_names::is_poll_target(m.addr) =>
                        {
                            Some(format!("polls {}", mmio_names::describe(m.addr)))
                        }
                        _ => None,
                    };
                    tt.run[i].set(&mut self.trace, pid, core_tid(i), run, cycle);
                    tt.wait[i].set(&mut self.trace, pid, core_tid(i) + 1, wait, cycle);
                }
            }
            if inc.tensix || inc.units || inc.counters {
                let log = t.coprocessor_mut().take_dispatch_log();
                tt.cp.sample(&mut self.trace, t.coprocessor(), cycle, &log);
            }
        }
        if inc.noc {
            for tr in chip.noc_mut().take_log() {
                let (o, g) = ((tr.origin.x, tr.origin.y), (tr.target.x, tr.target.y));
                if !self.opts.wants_tile(o.0, o.1) && !self.opts.wants_tile(g.0, g.1) {
                    continue;
                }
                let n = tr.noc.index();
                for node in [o, g] {
                    if !self.named.contains(&node) {
                        self.named.push(node);
                        let pid = tile_pid(node.0, node.1);
                        if !self.tiles.iter().any(|t| (t.x, t.y) == node) {
                            self.trace.name_process(
                                pid,
                                &format!("node ({},{})", node.0, node.1),
                                pid,
                            );
                        }
                        self.trace.name_track(pid, noc_tid(0), "NoC0");
                        self.trace.name_track(pid, noc_tid(1), "NoC1");
                    }
                }
                let name = format!(
                    "{} {} B ({},{}) -> ({},{})",
                    tr.kind, tr.len, o.0, o.1, g.0, g.1
                );
                self.trace.flow(
                    &name,
                    (tile_pid(o.0, o.1), noc_tid(n), tr.cycle),
                    (tile_pid(g.0, g.1), noc_tid(n), tr.cycle + tr.latency),
                    json!({"noc": n, "bytes": tr.len, "latency": tr.latency}),
                );
            }
        }
    }

    /// Closes every open slice at `chip`'s cycle and hands back the trace.
    pub fn finish(mut self, chip: &Chip) -> Trace {
        let cycle = chip.cycle();
        for tt in &mut self.tiles {
            let pid = tile_pid(tt.x, tt.y);
            for i in 0..5 {
                tt.run[i].set(&mut self.trace, pid, core_tid(i), None, cycle);
                tt.wait[i].set(&mut self.trace, pid, core_tid(i) + 1, None, cycle);
            }
            tt.cp.finish(&mut self.trace, cycle);
        }
        self.trace
    }
}

impl Chip {
    /// Installs (or with `None` removes) the timeline tracer.
    pub fn set_tracer(&mut self, t: Option<Box<ChipTracer>>) {
        self.tracer = t;
    }

    /// The installed tracer, for naming kernels.
    pub fn tracer_mut(&mut self) -> Option<&mut ChipTracer> {
        self.tracer.as_deref_mut()
    }

    /// Removes the tracer and returns its finished trace.
    pub fn finish_trace(&mut self) -> Option<Trace> {
        let t = self.tracer.take()?;
        self.noc_mut().set_log(false);
        Some(t.finish(self))
    }

    /// One cycle, then the tracer's sample (also after a failed cycle, so the trace shows it).
    #[inline(never)]
    pub(crate) fn traced_tick(&mut self) -> Result<(), ChipError> {
        let r = self.tick();
        if let Some(mut t) = self.tracer.take() {
            t.sample(self);
            self.tracer = Some(t);
        }
        r
    }
}
