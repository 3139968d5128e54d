//! `bhemu run PROGRAM.toml`: boot tt-metal's firmware, launch a program of kernels built by the
//! kernel kit (`scripts/kernel-kit/build.sh`) on a set of tiles with local circular buffers,
//! feed its inputs, read its outputs and compare them with a reference.
//!
//! ```toml
//! tiles = "1"                      # all | p100 | N | "x,y;x,y"
//! max_cycles = 1000000             # per phase (boot, run)
//! kit = "target/kernel-kit"        # where the kit's ELFs are (NAME/brisc.elf, ...)
//! firmware = ".cache/ttnn/firmware/blackhole-140"
//!
//! [kernels]                        # kit kernel names; compute runs on TRISC0/1/2
//! brisc = "reader"
//! ncrisc = "writer"
//! compute = "copy"
//!
//! [[cb]]
//! index = 0
//! format = "bf16"
//! page_size = 2048
//! pages = 2
//!
//! [args]                           # per processor; strings are resolved per tile
//! brisc = ["dram_x", "dram_y", "in", "in.pages", "in.page_size", 0]
//!
//! [[input]]                        # one buffer per tile in DRAM bank 0
//! name = "in"
//! format = "bf16"                  # bf16 | fp32 | u32 | u8 | int32 (two's complement)
//! pages = 4
//! page_size = 2048
//! random = 7                       # seed; or values = [..] or file = "in.bin"
//!
//! [[output]]
//! name = "out"
//! format = "bf16"
//! pages = 4
//! page_size = 2048
//! reference = "copy(in)"           # copy | relu (x) ; add | sub | mul | matmul (a, b) ; or file = ".."
//!                                   # the SFPU examples' ops: bhemu_refmath::sfpu::OPS (x)
//! ```
//! Arg strings: `dram_x`, `dram_y` (DRAM bank 0's NoC coordinates), a buffer name (its address on
//! this tile), `NAME.pages`, `NAME.page_size`, `tile_index`, `tile_x`, `tile_y`.
//!
//! Output: per output the verdict (bit-exact, max ulp for floating-point formats, PCC), the
//! simulated cycles, wall time and simulated cycles per second; `--json` prints one JSON object.
//! Errors in the description are one line naming the field. Exit status: 0 every output matches
//! bit for bit; 1 an output differs; 2 bad input or an emulation error; 3 the cycle limit hit
//! (the report names each stuck core, its pc and the CB it waits on).
//!
//! With `--reference PATH/libttsim.so` the program runs on bhemu's `libttsim.so` and on that
//! reference simulator instead, and every output byte is compared (`differential.rs`,
//! docs/reference.md).
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Firmware};
use bhemu_chip::launch::{self, KernelImage, LocalCb, TileProgram, DATA_BASE};
use bhemu_chip::{grid, Chip, ChipConfig, Core};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use serde::Deserialize;

use crate::run_reference::{self as model, Math};
use crate::CliError;

mod data;
mod differential;
mod prepare;
mod program;
mod verdict;
use data::*;
use prepare::*;
use program::*;
use verdict::*;

pub(crate) use data::datum;
pub(crate) use program::Format;

const EXIT_MISMATCH: u8 = 1;
const EXIT_CYCLE_LIMIT: u8 = 3;
/// DRAM bank 0, port 0, in translated NoC coordinates (tt-umd's Blackhole layout).
const DRAM_X: u32 = 17;
const DRAM_Y: u32 = 12;
/// Where the per-tile buffers start in DRAM bank 0.
const DRAM_BASE: u64 = 0x10_0000;

#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 outputs bit-exact; 1 an output differs; 2 bad input or emulation error; 3 cycle limit."
)]
pub struct RunArgs {
    /// The program description (TOML).
    pub program: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Kernel-kit output directory (overrides the program's `kit`).
    #[arg(long, value_name = "DIR")]
    pub kit: Option<PathBuf>,
    /// Firmware directory, flat or tt-metal's per-core layout (overrides `firmware`).
    #[arg(long, value_name = "DIR")]
    pub firmware: Option<PathBuf>,
    /// Tiles to run on, `all`, `p100`, a count or `x,y;x,y...` (overrides `tiles`).
    #[arg(long, value_name = "TILES")]
    pub tiles: Option<String>,
    #[command(flatten)]
    pub trace: crate::trace_args::TraceArgs,
    #[command(flatten)]
    pub hazards: crate::hazard_args::HazardArgs,
    /// Serve gdb on 127.0.0.1:PORT for the run: each hart of --gdb-tiles is a thread
    /// (docs/gdb.md).
    #[arg(long, value_name = "PORT")]
    pub gdb: Option<u16>,
    /// Tiles whose harts gdb sees, `x,y;x,y...` (default: the program's tiles).
    #[arg(long, value_name = "TILES", requires = "gdb")]
    pub gdb_tiles: Option<String>,
    /// Host threads the fast schedule spreads heavy cycles over; results do not depend on it
    /// (a count or `cores`; default `BHEMU_THREADS`, else the machine's cores). With
    /// `--reference`, bhemu's child process gets it as `BHEMU_THREADS`.
    #[arg(long, value_name = "N")]
    pub threads: Option<String>,
    /// Added to every `random` input's seed: the same program on other random inputs.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u32,
    /// Run the program on bhemu's libttsim.so and on this reference simulator library (each in
    /// a child process), instead of the in-process chip, and compare every output byte
    /// (docs/reference.md). Exit status 0 only if all are equal; 4 the reference refuses.
    #[arg(long, value_name = "PATH/libttsim.so")]
    pub reference: Option<PathBuf>,
    /// bhemu's own libttsim.so for --reference (default: beside the bhemu binary).
    #[arg(long, value_name = "PATH", requires = "reference")]
    pub bhemu_lib: Option<PathBuf>,
    /// Per-hop NoC latency (`Timing::BLACKHOLE`: 2 x 5 NIU cycles + 9 per hop) instead of
    /// functional timing; the fast schedule then runs quanta of up to 20 cycles
    /// (docs/noc-lookahead.md).
    #[arg(long)]
    pub noc_hops: bool,
}

fn err(e: impl std::fmt::Display) -> CliError {
    CliError::new(e.to_string())
}

/// What the verdicts compare: the program, the chip after the run, where each tile's buffers
/// are, the inputs fed to each tile and the references asked for.
struct Compared<'a> {
    p: &'a Program,
    chip: &'a Chip,
    layout: &'a Layout,
    base: &'a Path,
    inputs: &'a [Vec<Vec<u8>>],
    in_formats: &'a [Format],
    out_formats: &'a [Format],
    refs: &'a [Option<Reference>],
    math: Math,
}

/// What one `bhemu run` did, for the report (and for `bhemu bench chip --workload compute`).
pub struct Outcome {
    p: Program,
    names: Vec<String>,
    /// Tiles the program ran on.
    pub tiles: usize,
    boot_cycles: u64,
    /// The launch: simulated cycles, wall time, whether every tile finished.
    pub run: host::RunReport,
    /// Boot, launch and checks.
    pub wall: Duration,
    verdicts: Vec<Verdict>,
    stuck: Vec<String>,
    hazards: (Vec<bhemu_chip::hazards::TileHazard>, u64),
    /// Host threads: the chip's thread count and its spread cycles, boot included.
    pub threads: usize,
    pub spread: bhemu_chip::threads::SpreadTotals,
}

impl Outcome {
    /// Every output compared bit-exact with its reference.
    pub fn bit_exact(&self) -> bool {
        self.run.finished && self.verdicts.iter().all(|v| v.bit_exact)
    }
}

pub fn run(a: RunArgs) -> Result<ExitCode, CliError> {
    if let Some(lib) = &a.reference {
        return differential::run(&a, lib);
    }
    let o = execute(&a)?;
    report(
        &a,
        &o.p,
        &o.names,
        o.tiles,
        o.boot_cycles,
        &o.run,
        o.wall,
        &o.verdicts,
        &o.stuck,
        &o.hazards,
    )?;
    Ok(if !o.run.finished {
        ExitCode::from(EXIT_CYCLE_LIMIT)
    } else if o.verdicts.iter().any(|v| !v.bit_exact) {
        ExitCode::from(EXIT_MISMATCH)
    } else {
        ExitCode::SUCCESS
    })
}

/// Boots, launches and checks the program of `a`; reports nothing.
pub fn execute(a: &RunArgs) -> Result<Outcome, CliError> {
    let Prepared {
        p,
        names,
        base,
        l,
        math,
        in_formats,
        out_formats,
        refs,
        tiles,
        fw,
        coords,
        programs,
        inputs,
    } = prepare(a)?;

    // Chip and boot.
    let mut chip = Chip::new(&ChipConfig {
        tiles,
        timing: bhemu_chip::Timing::per_hop(a.noc_hops),
        ..ChipConfig::default()
    })
    .map_err(err)?;
    if let Some(n) = &a.threads {
        chip.set_threads(bhemu_chip::threads::parse_threads(n).map_err(err)?);
    }
    let t0 = Instant::now();
    let boot = host::boot(
        &mut chip,
        &fw,
        p.max_cycles,
        &mut progress("boot", p.max_cycles, a.json),
    )
    .map_err(|e| CliError::new(format!("boot failed: {e}")))?;
    if !boot.finished {
        return Err(CliError::new(format!(
            "boot did not finish within max_cycles = {}",
            p.max_cycles
        )));
    }
    let chip_coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    if chip_coords != coords {
        return Err(CliError::new(
            "the chip's tile order differs from the program's (row by row, y then x)",
        ));
    }

    // Inputs, in DRAM bank 0.
    for (ti, mine) in inputs.iter().enumerate() {
        for (i, data) in mine.iter().enumerate() {
            chip.dram_mut()
                .write(0, l.input_addr(ti, &p.input[i].name), data)
                .map_err(|e| CliError::new(format!("input[{i}]: {e}")))?;
        }
    }

    // Run (traced when asked: the launch, not the boot).
    a.trace.install(&mut chip)?;
    a.hazards.install(&mut chip);
    if let Some(t) = chip.tracer_mut() {
        for tp in &programs {
            for k in &tp.kernels {
                t.name_kernel(tp.x, tp.y, k.core, &k.file);
            }
        }
    }
    let r = match a.gdb {
        Some(port) => {
            let tiles = match &a.gdb_tiles {
                Some(s) => crate::gdb::parse_tiles(s)?,
                None => programs.iter().map(|tp| (tp.x, tp.y)).collect(),
            };
            crate::gdb::launch(
                &mut chip,
                &tiles,
                port,
                p.max_cycles,
                |c| launch::start_program(c, &programs, 1),
                &mut progress("run", p.max_cycles, a.json),
            )
            .map_err(|e| CliError::new(format!("run failed: {}", e.0)))
        }
        None => launch::launch_program(
            &mut chip,
            &programs,
            1,
            p.max_cycles,
            &mut progress("run", p.max_cycles, a.json),
        )
        .map_err(|e| CliError::new(format!("run failed: {e}"))),
    };
    a.trace.finish(&mut chip)?;
    let hazards = a.hazards.take(&mut chip);
    let r = r?;
    let stuck: Vec<String> = if r.finished {
        Vec::new()
    } else {
        launch::stuck_report_for(&chip, &r, &programs)
            .iter()
            .map(|s| s.to_string())
            .collect()
    };

    // Verdicts.
    let verdicts = if r.finished {
        verdict::verdicts(&Compared {
            p: &p,
            chip: &chip,
            layout: &l,
            base: &base,
            inputs: &inputs,
            in_formats: &in_formats,
            out_formats: &out_formats,
            refs: &refs,
            math,
        })?
    } else {
        Vec::new()
    };
    let wall = t0.elapsed();
    Ok(Outcome {
        p,
        names,
        tiles: coords.len(),
        boot_cycles: boot.cycles,
        run: r,
        wall,
        verdicts,
        stuck,
        hazards,
        threads: chip.threads(),
        spread: chip.spread(),
    })
}

#[allow(clippy::too_many_arguments)]
fn report(
    a: &RunArgs,
    p: &Program,
    names: &[String],
    tiles: usize,
    boot_cycles: u64,
    r: &host::RunReport,
    wall: Duration,
    verdicts: &[Verdict],
    stuck: &[String],
    hazards: &(Vec<bhemu_chip::hazards::TileHazard>, u64),
) -> Result<(), CliError> {
    let rate = r.cycles as f64 / r.wall.as_secs_f64().max(1e-9);
    if a.json {
        let v = serde_json::json!({
            "program": a.program.display().to_string(),
            "tiles": tiles,
            "kernels": names,
            "boot_cycles": boot_cycles,
            "cycles": r.cycles,
            "finished": r.finished,
            "run_wall_s": r.wall.as_secs_f64(),
            "wall_s": wall.as_secs_f64(),
            "simulated_cycles_per_s": rate,
            "simulated_tile_cycles_per_s": rate * tiles as f64,
            "outputs": verdicts,
            "stuck": stuck,
        });
        let mut v = v;
        if a.hazards.check_hazards {
            let list: Vec<serde_json::Value> =
                hazards.0.iter().map(crate::hazard_args::to_json).collect();
            v["hazards"] = serde_json::Value::Array(list);
            v["hazards_not_kept"] = serde_json::json!(hazards.1);
        }
        println!("{}", serde_json::to_string_pretty(&v).map_err(err)?);
        return Ok(());
    }
    println!(
        "{}: {tiles} tile(s), {}",
        a.program.display(),
        names.join(" ")
    );
    println!("boot: {boot_cycles} cycles");
    if r.finished {
        println!(
            "run: {} cycles, {:.3} s wall ({:.3} s with boot and checks), {:.3} M simulated cycles/s ({:.2} M tile-cycles/s)",
            r.cycles,
            r.wall.as_secs_f64(),
            wall.as_secs_f64(),
            rate / 1e6,
            rate * tiles as f64 / 1e6
        );
    } else {
        println!(
            "run: stopped at max_cycles = {} with tiles not DONE; stuck cores:",
            p.max_cycles
        );
        for s in stuck.iter().take(16) {
            println!("  {s}");
        }
        if stuck.len() > 16 {
            println!("  ... and {} more", stuck.len() - 16);
        }
    }
    for v in verdicts {
        let ulp = v
            .max_ulp
            .map(|u| format!(", max ulp {u}"))
            .unwrap_or_default();
        println!(
            "output {}: {} vs {}{ulp}, PCC {:.6}{}",
            v.name,
            if v.bit_exact { "bit-exact" } else { "DIFFERS" },
            v.reference,
            v.pcc,
            if v.mismatched_tiles > 0 {
                format!(", {} of {tiles} tile(s) differ", v.mismatched_tiles)
            } else {
                String::new()
            }
        );
    }
    if a.hazards.check_hazards {
        crate::hazard_args::print(hazards);
    }
    Ok(())
}

/// A progress bar on stderr for a phase that runs longer than a second: cycles so far against
/// `max_cycles`, simulated cycles per wall second and the elapsed time. Only when stderr is a terminal
/// and not with `--json`, so logs and pipes see nothing; the bar is cleared when the phase ends.
fn progress(label: &'static str, max: u64, quiet: bool) -> impl FnMut(u64) {
    let show = !quiet && std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    move |cycles| {
        if !show || start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let b = bar.get_or_insert_with(|| progress_bar(label, max).with_elapsed(start.elapsed()));
        let rate = cycles as f64 / start.elapsed().as_secs_f64();
        b.set_message(format!("{:.1} k cycles/s", rate / 1e3));
        b.set_position(cycles);
    }
}

fn progress_bar(label: &'static str, max: u64) -> ProgressBar {
    let style = ProgressStyle::with_template(
        "{prefix}: [{bar:30}] {pos}/{len} cycles ({percent}% of max_cycles), {msg}, {elapsed}",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::with_draw_target(Some(max), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_prefix(label)
        .with_finish(ProgressFinish::AndClear)
}

#[cfg(test)]
mod tests;
