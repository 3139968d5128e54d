//! `bhemu boot`: boot tt-metal's Blackhole firmware on an emulated chip, optionally followed by
//! slow-dispatch launches of a BRISC kernel.
//!
//! ```text bhemu boot --firmware DIR [--tiles all|p100|N|x,y;x,y...] [--max-cycles N] [--kernel
//! FILE.elf [--launches N]] [--permissive] [--noc-hops] [--verbose] ``` `DIR` holds `brisc.elf`,
//! `ncrisc.elf`, `trisc0.elf`, `trisc1.elf`, `trisc2.elf` (flat, or one folder per core as in the
//! wheel's `pre-compiled/<key>/`: `DIR/brisc/brisc.elf`, ...) of the `ttnn` 0.81.1 wheel
//! (`scripts/fetch-ttnn.sh` puts them in `.cache/ttnn/firmware/blackhole-140`). The host protocol
//! is `bhemu_chip::host` (docs/blackhole-facts.md §9). After boot, `--kernel` launches the kernel
//! (linked at the kernel config base `0xA080`, e.g. `scripts/build-kernels.sh`) on every selected
//! tile `--launches` times (default 1), with host ids 1, 2, ..., waiting for DONE each time. (A
//! separate `launch` subcommand would need a chip that outlives the process, so launching is an
//! option of `boot`.)
//!
//! Output: simulated cycles and wall time of each phase, then what the tiles' Tensix
//! coprocessors have executed so far (instructions per thread, summed over the tiles, and
//! their strict/permissive mode); with `--verbose` or on a cycle limit a
//! map of the tiles (`.` DONE, `x` not DONE, blank not selected). On a cycle limit, the
//! unfinished tiles are reported with each core's state (reset/running/stalled/halted/faulted),
//! pc and last MMIO access; tiles stuck in the same place are grouped into one entry listing
//! their coordinates, and only a tile alone in its group (or every tile, with `--verbose`) gets
//! the full detail (value and cycle of the last MMIO access).
//!
//! Exit status: 0 every tile DONE; 2 bad input or an emulation error; 3 cycle limit reached.
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Firmware, Kernel, RunReport};
use bhemu_chip::report::{coprocessor_summary, unfinished_report};
use bhemu_chip::{grid, Chip, ChipConfig, Schedule, Strictness, SystemKind, Timing};

use crate::CliError;

const EXIT_CYCLE_LIMIT: u8 = 3;

#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 every tile DONE; 2 bad input or emulation error; 3 --max-cycles reached."
)]
pub struct BootArgs {
    /// Directory with brisc.elf, ncrisc.elf, trisc0.elf, trisc1.elf, trisc2.elf (ttnn 0.81.1),
    /// flat or in tt-metal's per-core layout (DIR/brisc/brisc.elf, ... as in pre-compiled/<key>/).
    #[arg(long, value_name = "DIR")]
    pub firmware: PathBuf,
    /// Tensix tiles to enable: all (140), p100 (120), N (the first N by row), or x,y;x,y...
    #[arg(long, default_value = "all")]
    pub tiles: String,
    /// Give up after this many simulated cycles per phase (boot, each launch).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_cycles: u64,
    /// After boot, slow-dispatch this BRISC kernel (ELF linked at 0xA080) to every tile.
    #[arg(long, value_name = "FILE.elf")]
    pub kernel: Option<PathBuf>,
    /// How many times to launch --kernel.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "kernel")]
    pub launches: u32,
    /// Unmapped or unmodelled accesses read 0 / are dropped with a warning (once per core and
    /// address) instead of stopping the run; the Tensix coprocessors likewise report an
    /// instruction's undefined behaviour once and carry on.
    #[arg(long)]
    pub permissive: bool,
    /// Charge NoC latency by hops (about 5 cycles NIU to router, 9 per hop; NoC/README.md)
    /// instead of completing transactions within the tick (docs/execution-model.md).
    #[arg(long)]
    pub noc_hops: bool,
    /// Print one line per tile.
    #[arg(long)]
    pub verbose: bool,
    /// `reference` (one instruction per core per tick, every core visited) or `fast` (the same
    /// results with less host work); default `BHEMU_SCHEDULE`, else fast.
    #[arg(long, value_name = "NAME")]
    pub schedule: Option<String>,
    #[command(flatten)]
    pub trace: crate::trace_args::TraceArgs,
    #[command(flatten)]
    pub hazards: crate::hazard_args::HazardArgs,
    /// Serve gdb on 127.0.0.1:PORT for the first --kernel launch: each hart of --gdb-tiles is
    /// a thread (docs/gdb.md).
    #[arg(long, value_name = "PORT", requires = "kernel")]
    pub gdb: Option<u16>,
    /// Tiles whose harts gdb sees, `x,y;x,y...` (default: the first enabled tile).
    #[arg(long, value_name = "TILES", requires = "gdb")]
    pub gdb_tiles: Option<String>,
    /// Host threads the fast schedule spreads tiles over; results do not depend on it
    /// (a count or `cores`; default `BHEMU_THREADS`, else the machine's cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<String>,
    /// System of chips: p150 (one chip, the default), p300 (2) or galaxy (32); every chip boots
    /// (docs/multi-chip.md). Default: BHEMU_SYSTEM, else p150.
    #[arg(long, value_name = "NAME")]
    pub system: Option<String>,
}

/// A progress line on stderr once a phase has run for more than a second.
fn progress(label: &'static str, max: u64) -> impl FnMut(u64) {
    let start = Instant::now();
    let mut shown = false;
    move |cycles| {
        if start.elapsed() > Duration::from_secs(1) {
            shown = true;
            let pct = cycles.saturating_mul(100).checked_div(max).unwrap_or(100);
            eprint!(
                "\r{label}: {cycles} cycles ({pct}% of --max-cycles), {:.1} s",
                start.elapsed().as_secs_f64()
            );
            let _ = std::io::stderr().flush();
        } else if shown {
            eprintln!();
        }
    }
}

fn tile_map(r: &RunReport) -> String {
    let mut s = String::new();
    s.push_str("   x:  1     7  10    16\n");
    for y in 2..=11u8 {
        s.push_str(&format!("y={y:<2}   "));
        for x in 1..=16u8 {
            let c = match r.tiles.iter().find(|t| t.x == x && t.y == y) {
                Some(t) if t.done => '.',
                Some(_) => 'x',
                None => ' ',
            };
            s.push(c);
        }
        while s.ends_with(" ") {
            s.pop();
        }
        s.push('\n');
    }
    s
}

fn report(out: &mut Out, phase: &str, r: &RunReport, verbose: bool, max_cycles: u64) {
    let done = r.tiles.iter().filter(|t| t.done).count();
    out.line(format!(
        "{phase}: {done}/{} tiles DONE in {} simulated cycles, {:.3} s wall",
        r.tiles.len(),
        r.cycles,
        r.wall.as_secs_f64()
    ));
    if verbose || !r.finished {
        out.text(&tile_map(r));
    }
    if verbose {
        for t in &r.tiles {
            out.line(format!(
                "  tile ({},{}): go signal 0x{:02x}, sync 0x{:08x}{}",
                t.x,
                t.y,
                t.go_signal,
                t.sync,
                if t.done { ", DONE" } else { "" }
            ));
        }
    }
    if !r.finished {
        out.line(format!(
            "{phase}: cycle limit ({max_cycles}) reached; unfinished tiles:"
        ));
        out.text(&unfinished_report(r, verbose));
    }
}

fn err(e: impl std::fmt::Display) -> CliError {
    CliError::new(e.to_string())
}

pub fn run(a: BootArgs) -> Result<ExitCode, CliError> {
    let fw = Firmware::load(&a.firmware).map_err(|e| {
        CliError::new(format!(
            "{e} (run scripts/fetch-ttnn.sh to fetch the ttnn 0.81.1 firmware)"
        ))
    })?;
    let kernel = match &a.kernel {
        Some(p) => Some(Kernel::from_elf(&ElfImage::read(p).map_err(err)?).map_err(err)?),
        None => None,
    };
    let tiles = grid::parse_tiles(&a.tiles).map_err(err)?;
    let strictness = if a.permissive {
        Strictness::Permissive
    } else {
        Strictness::Strict
    };
    let timing = Timing::per_hop(a.noc_hops);
    let system = match &a.system {
        Some(n) => SystemKind::parse(n),
        None => SystemKind::from_env(),
    }
    .map_err(|e| CliError::new(format!("--system: {}", e.message)))?;
    if system != SystemKind::P150 {
        let cfg = ChipConfig {
            tiles,
            strictness,
            timing,
            member: bhemu_chip::Member::default(),
        };
        return boot_system(&a, system, cfg, &fw, kernel.as_ref());
    }
    let cfg = ChipConfig {
        tiles,
        strictness,
        timing,
        member: bhemu_chip::Member::default(),
    };
    let mut chip = Chip::new(&cfg).map_err(err)?;
    if let Some(name) = &a.schedule {
        chip.set_schedule(Schedule::parse(name).map_err(err)?)
            .map_err(err)?;
    }
    if let Some(n) = &a.threads {
        chip.set_threads(bhemu_chip::threads::parse_threads(n).map_err(err)?);
    }
    a.trace.install(&mut chip)?;
    a.hazards.install(&mut chip);
    let r = boot_and_launch(&a, &mut chip, &fw, kernel.as_ref(), &mut Out::Print);
    a.trace.finish(&mut chip)?;
    if a.hazards.check_hazards {
        crate::hazard_args::print(&a.hazards.take(&mut chip));
    }
    r
}

/// Where a boot's report goes: straight to stdout and stderr, or kept, for a chip of a system
/// booting on its own host thread, to be printed in chip order.
enum Out {
    Print,
    Keep { out: String, err: String },
}

impl Out {
    fn text(&mut self, t: &str) {
        match self {
            Out::Print => print!("{t}"),
            Out::Keep { out, .. } => out.push_str(t),
        }
    }
    fn line(&mut self, t: String) {
        self.text(&t);
        self.text("\n");
    }
    fn warn(&mut self, t: String) {
        match self {
            Out::Print => eprintln!("{t}"),
            Out::Keep { err, .. } => {
                err.push_str(&t);
                err.push('\n');
            }
        }
    }
    /// A progress display on stderr, for a boot that prints as it goes.
    fn progress(&self, label: &'static str, max: u64) -> Box<dyn FnMut(u64)> {
        match self {
            Out::Print => Box::new(progress(label, max)),
            Out::Keep { .. } => Box::new(|_| {}),
        }
    }
}

/// `--system` of several chips: each chip, built as its member of the system, boots (and runs
/// the `--kernel` launches) on its own host thread, up to `--threads` at once, and the reports
/// are printed in chip order. The chips share one clock, but nothing passes between them
/// during a boot (no Ethernet firmware runs and the host sends nothing over a link), so each
/// chip's run is the one it would have in lockstep (docs/multi-chip.md MC-6, MC-11). Timelines,
/// hazard reports and gdb are single-chip options.
fn boot_system(
    a: &BootArgs,
    system: SystemKind,
    cfg: ChipConfig,
    fw: &Firmware,
    kernel: Option<&Kernel>,
) -> Result<ExitCode, CliError> {
    if a.gdb.is_some() || a.hazards.check_hazards || a.trace.trace.is_some() {
        return Err(CliError::new(
            "--system with several chips: --gdb, --check-hazards and the timeline are single-chip options",
        ));
    }
    let threads = match &a.threads {
        Some(n) => bhemu_chip::threads::parse_threads(n).map_err(err)?,
        None => bhemu_chip::threads::threads_from_env().map_err(err)?,
    };
    let chips = system.chips() as usize;
    let (width, tile_threads) = bhemu_chip::system::lockstep::share_threads(threads, chips);
    let t0 = std::time::Instant::now();
    type Booted = (Result<ExitCode, CliError>, Out);
    let boot_one = |i: usize| -> Booted {
        let mut out = Out::Keep {
            out: String::new(),
            err: String::new(),
        };
        let r = boot_member(
            a,
            system,
            i as u32,
            &cfg,
            fw,
            kernel,
            tile_threads,
            &mut out,
        );
        (r, out)
    };
    // Chip i on thread i % width; the reports come back in chip order.
    let mut results: Vec<(usize, Booted)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..width)
            .map(|w| {
                s.spawn(move || {
                    (w..chips)
                        .step_by(width)
                        .map(|i| (i, boot_one(i)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    for (i, (r, out)) in results {
        println!("chip {i} of a {}:", system.name());
        if let Out::Keep { out, err } = out {
            print!("{out}");
            eprint!("{err}");
        }
        let code = r.map_err(|e| CliError::new(format!("chip {i}: {e}")))?;
        if code != ExitCode::SUCCESS {
            return Ok(code);
        }
    }
    println!(
        "{}: {} chips booted in {:.2} s host time ({width} at a time)",
        system.name(),
        system.chips(),
        t0.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Chip `i` of `system`: built, booted and launched, its report into `out`.
#[allow(clippy::too_many_arguments)]
fn boot_member(
    a: &BootArgs,
    system: SystemKind,
    i: u32,
    cfg: &ChipConfig,
    fw: &Firmware,
    kernel: Option<&Kernel>,
    threads: usize,
    out: &mut Out,
) -> Result<ExitCode, CliError> {
    let member = system.member(i).map_err(err)?;
    let mut chip = Chip::new(&ChipConfig {
        member,
        ..cfg.clone()
    })
    .map_err(err)?;
    if let Some(name) = &a.schedule {
        chip.set_schedule(Schedule::parse(name).map_err(err)?)
            .map_err(err)?;
    }
    chip.set_threads(threads);
    boot_and_launch(a, &mut chip, fw, kernel, out)
}

/// Boot, then the `--kernel` launches; the exit status.
fn boot_and_launch(
    a: &BootArgs,
    chip: &mut Chip,
    fw: &Firmware,
    kernel: Option<&Kernel>,
    out: &mut Out,
) -> Result<ExitCode, CliError> {
    let r = host::boot(
        chip,
        fw,
        a.max_cycles,
        &mut out.progress("boot", a.max_cycles),
    );
    print_warnings(out, chip);
    let r = r.map_err(|e| CliError::new(format!("boot failed: {e}")))?;
    report(out, "boot", &r, a.verbose, a.max_cycles);
    out.line(coprocessor_summary(chip.tiles()));
    if !r.finished {
        return Ok(ExitCode::from(EXIT_CYCLE_LIMIT));
    }
    if let Some(k) = kernel {
        for n in 1..=a.launches {
            let r = match a.gdb {
                Some(port) if n == 1 => launch_under_gdb(chip, k, port, a),
                _ => host::launch(
                    chip,
                    k,
                    n,
                    a.max_cycles,
                    &mut out.progress("launch", a.max_cycles),
                )
                .map_err(|e| CliError::new(e.to_string())),
            };
            print_warnings(out, chip);
            let r = r.map_err(|e| CliError::new(format!("launch {n} failed: {}", e.0)))?;
            report(out, &format!("launch {n}"), &r, a.verbose, a.max_cycles);
            out.line(coprocessor_summary(chip.tiles()));
            if !r.finished {
                return Ok(ExitCode::from(EXIT_CYCLE_LIMIT));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Launch 1 with gdb attached: the kernel starts, then gdb drives the chip until every tile
/// is DONE (gdb sees the program exit) or gdb detaches (the launch then runs on freely).
fn launch_under_gdb(
    chip: &mut Chip,
    k: &Kernel,
    port: u16,
    a: &BootArgs,
) -> Result<RunReport, CliError> {
    let tiles = match &a.gdb_tiles {
        Some(s) => crate::gdb::parse_tiles(s)?,
        None => chip
            .tiles()
            .first()
            .map(|t| vec![(t.node().x, t.node().y)])
            .unwrap_or_default(),
    };
    crate::gdb::launch(
        chip,
        &tiles,
        port,
        a.max_cycles,
        |c| host::launch_start(c, k, 1),
        &mut progress("launch", a.max_cycles),
    )
}

/// Prints the tiles' warnings; one that several tiles raise alike (same message, core,
/// thread, address and instruction word, e.g. a coprocessor effect not modelled on every tile
/// running the same firmware) is printed once with the number of other tiles.
fn print_warnings(out: &mut Out, chip: &mut Chip) {
    for line in warning_lines(chip.take_warnings()) {
        out.warn(format!("bhemu: warning: {line}"));
    }
}

fn warning_lines(warnings: Vec<bhemu_chip::ChipError>) -> Vec<String> {
    let mut groups: Vec<(bhemu_chip::ChipError, usize)> = Vec::new();
    for w in warnings {
        let same = |g: &bhemu_chip::ChipError| {
            g.kind == w.kind
                && g.message == w.message
                && (g.loc.core, g.loc.thread, g.loc.addr, g.loc.insn)
                    == (w.loc.core, w.loc.thread, w.loc.addr, w.loc.insn)
        };
        match groups.iter_mut().find(|(g, _)| same(g)) {
            Some((_, n)) => *n += 1,
            None => groups.push((w, 0)),
        }
    }
    groups
        .into_iter()
        .map(|(w, n)| match n {
            0 => w.to_string(),
            n => format!("{w} (and on {n} more tiles)"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bhemu_chip::host::{CoreStatus, TileStatus};
    use bhemu_chip::tile::MmioAccess;
    use bhemu_chip::{Core, CoreState};

    fn tile(x: u8, y: u8, brisc_pc: u32, value: u32, cycle: u64) -> TileStatus {
        let cores = Core::ALL
            .iter()
            .map(|&core| CoreStatus {
                core,
                state: if core == Core::Brisc {
                    CoreState::Running
                } else {
                    CoreState::Reset
                },
                pc: if core == Core::Brisc { brisc_pc } else { 0 },
                releases: 1,
                last_mmio: (core == Core::Brisc).then_some(MmioAccess {
                    pc: brisc_pc,
                    addr: 0xFFB2_0148,
                    width: 4,
                    write: false,
                    value,
                    cycle,
                    stalled: false,
                }),
            })
            .collect();
        TileStatus {
            x,
            y,
            go_signal: 0x80,
            sync: 0,
            done: false,
            cores,
        }
    }

    /// The same coprocessor warning on many tiles is one line; different ones stay apart.
    #[test]
    fn warnings_alike_on_several_tiles_print_once() {
        let w = |x: u8, insn: u32| {
            let mut e = bhemu_chip::ChipError::new(bhemu_chip::ErrorKind::Tensix, "not modelled")
                .at_tile(x, 2);
            e.loc.thread = Some(1);
            e.loc.insn = Some(insn);
            e
        };
        let lines = warning_lines(vec![w(1, 0x41), w(2, 0x41), w(3, 0x42), w(4, 0x41)]);
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(lines[0].contains("tile (1,2)"), "{}", lines[0]);
        assert!(lines[0].ends_with(" (and on 2 more tiles)"), "{}", lines[0]);
        assert!(lines[1].contains("tile (3,2)") && !lines[1].contains("more tiles"));
    }

    /// Tiles stuck at the same pcs and MMIO access (values and cycles may differ) share one
    /// entry listing them; a tile alone in its group keeps the full detail; --verbose lists all.
    #[test]
    fn cycle_limit_report_groups_tiles_stuck_in_the_same_place() {
        let r = RunReport {
            cycles: 100,
            wall: Duration::ZERO,
            finished: false,
            tiles: vec![
                tile(1, 2, 0x4dec, 0x81, 10),
                tile(2, 2, 0x4dec, 0x82, 11),
                tile(3, 2, 0x4e00, 0x83, 12),
            ],
        };
        let s = unfinished_report(&r, false);
        assert!(s.contains("  2 tiles: (1,2) (2,2)\n"), "{s}");
        assert_eq!(s.matches("running  pc 0x00004dec").count(), 1, "{s}");
        assert!(s.contains("  tile (3,2): go signal 0x80"), "{s}");
        assert!(s.contains("= 0x00000083 at pc 0x00004e00, cycle 12"), "{s}");
        assert!(!s.contains("tile (1,2)"), "{s}");
        // 1 header + 6 shared lines, then 6 lines of detail for (3,2).
        assert_eq!(s.lines().count(), 13, "{s}");
        let v = unfinished_report(&r, true);
        assert_eq!(v.matches("  tile (").count(), 3, "{v}");
    }
}
