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
//!                                   # the SFPU examples' ops: crate::sfpu_ref::OPS (x)
//! ```
//! Arg strings: `dram_x`, `dram_y` (DRAM bank 0's NoC coordinates), a buffer name (its address on
//! this tile), `NAME.pages`, `NAME.page_size`, `tile_index`, `tile_x`, `tile_y`.
//!
//! Output: per output the verdict (bit-exact, max ulp for floating-point formats, PCC), the
//! simulated cycles, wall time and simulated cycles per second; `--json` prints one JSON object.
//! Errors in the description are one line naming the field. Exit status: 0 every output matches
//! bit for bit; 1 an output differs; 2 bad input or an emulation error; 3 the cycle limit hit
//! (the report names each stuck core, its pc and the CB it waits on).
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
mod program;
mod verdict;
use data::*;
use program::*;
use verdict::*;

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
    /// (a count or `cores`; default `BHEMU_THREADS`, else the machine's cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<String>,
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

struct Layout {
    /// Per buffer name: (address offset within a tile's region, pages, page size).
    buffers: BTreeMap<String, (u64, u32, u32)>,
    per_tile: u64,
}

fn layout(p: &Program) -> Result<Layout, CliError> {
    let mut buffers = BTreeMap::new();
    let mut off = 0u64;
    for (kind, list) in [("input", &p.input), ("output", &p.output)] {
        for (i, b) in list.iter().enumerate() {
            if b.pages == 0 || b.page_size == 0 || b.page_size % 16 != 0 {
                return Err(CliError::new(format!(
                    "{kind}[{i}] ({}): pages must be positive and page_size a positive multiple of 16",
                    b.name
                )));
            }
            if buffers
                .insert(b.name.clone(), (off, b.pages, b.page_size))
                .is_some()
            {
                return Err(CliError::new(format!(
                    "{kind}[{i}].name: '{}' is used twice",
                    b.name
                )));
            }
            off += u64::from(b.pages) * u64::from(b.page_size);
            off = off.next_multiple_of(64);
        }
    }
    Ok(Layout {
        buffers,
        per_tile: off.max(64),
    })
}

fn resolve_arg(
    a: &Arg,
    field: &str,
    l: &Layout,
    tile: usize,
    xy: (u8, u8),
) -> Result<u32, CliError> {
    let name = match a {
        Arg::Int(v) => return Ok(*v),
        Arg::Name(n) => n.as_str(),
    };
    let region = DRAM_BASE + l.per_tile * tile as u64;
    let value = match name {
        "dram_x" => Some(u64::from(DRAM_X)),
        "dram_y" => Some(u64::from(DRAM_Y)),
        "tile_index" => Some(tile as u64),
        "tile_x" => Some(u64::from(xy.0)),
        "tile_y" => Some(u64::from(xy.1)),
        _ => match name.split_once('.') {
            Some((b, "pages")) => l.buffers.get(b).map(|x| u64::from(x.1)),
            Some((b, "page_size")) => l.buffers.get(b).map(|x| u64::from(x.2)),
            Some(_) => None,
            None => l.buffers.get(name).map(|x| region + x.0),
        },
    };
    let v = value.ok_or_else(|| {
        CliError::new(format!(
            "{field}: '{name}' is not a number, dram_x, dram_y, tile_index, tile_x, tile_y, a buffer name, NAME.pages or NAME.page_size"
        ))
    })?;
    u32::try_from(v)
        .map_err(|_| CliError::new(format!("{field}: '{name}' = {v} does not fit in 32 bits")))
}

fn load_kernel(
    kit: &Path,
    name: &str,
    core: Core,
    field: &str,
) -> Result<Arc<KernelImage>, CliError> {
    let file = kit
        .join(name)
        .join(format!("{}.elf", core.name().to_lowercase()));
    let img = ElfImage::read(&file).map_err(|e| {
        CliError::new(format!(
            "{field}: {e} (build the kit with scripts/kernel-kit/build.sh)"
        ))
    })?;
    Ok(Arc::new(
        KernelImage::from_elf(core, &img).map_err(|e| CliError::new(format!("{field}: {e}")))?,
    ))
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
    let text = std::fs::read_to_string(&a.program)
        .map_err(|e| CliError::new(format!("{}: {e}", a.program.display())))?;
    let p: Program = toml::from_str(&text).map_err(|e| {
        let msg = e.message().to_string();
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        CliError::new(match line {
            Some(l) => format!("{}:{l}: {msg}", a.program.display()),
            None => format!("{}: {msg}", a.program.display()),
        })
    })?;
    let base = a.program.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut p = p;
    if let Some(k) = &a.kit {
        p.kit = k.clone();
    }
    if let Some(f) = &a.firmware {
        p.firmware = f.clone();
    }
    if let Some(t) = &a.tiles {
        p.tiles = t.clone();
    }

    // Kernels.
    let mut kernels: Vec<Arc<KernelImage>> = Vec::new();
    let mut names = Vec::new();
    if let Some(n) = &p.kernels.brisc {
        kernels.push(load_kernel(&p.kit, n, Core::Brisc, "kernels.brisc")?);
        names.push(format!("brisc={n}"));
    }
    if let Some(n) = &p.kernels.ncrisc {
        kernels.push(load_kernel(&p.kit, n, Core::Ncrisc, "kernels.ncrisc")?);
        names.push(format!("ncrisc={n}"));
    }
    if let Some(n) = &p.kernels.compute {
        for c in [Core::Trisc0, Core::Trisc1, Core::Trisc2] {
            kernels.push(load_kernel(&p.kit, n, c, "kernels.compute")?);
        }
        names.push(format!("compute={n}"));
    }
    if kernels.is_empty() {
        return Err(CliError::new(
            "kernels: name at least one of brisc, ncrisc, compute",
        ));
    }

    // CBs, in L1 from DATA_BASE on.
    let mut cbs = Vec::new();
    let mut addr = DATA_BASE;
    for (i, c) in p.cb.iter().enumerate() {
        Format::parse(&c.format, &format!("cb[{i}].format"))?;
        let cb = LocalCb {
            index: c.index,
            addr,
            pages: c.pages,
            page_size: c.page_size,
        };
        addr = addr.saturating_add(cb.size()).next_multiple_of(64);
        cbs.push(cb);
    }
    let l = layout(&p)?;
    let math = p.math.parse()?;
    let in_formats: Vec<Format> = p
        .input
        .iter()
        .enumerate()
        .map(|(i, b)| Format::parse(&b.format, &format!("input[{i}].format")))
        .collect::<Result<_, _>>()?;
    let out_formats: Vec<Format> = p
        .output
        .iter()
        .enumerate()
        .map(|(i, b)| Format::parse(&b.format, &format!("output[{i}].format")))
        .collect::<Result<_, _>>()?;
    let mut refs = Vec::new();
    for (i, o) in p.output.iter().enumerate() {
        let field = format!("output[{i}].reference");
        let r = match (&o.reference, &o.file) {
            (Some(r), None) => {
                let r = parse_reference(r, &field)?;
                let elems =
                    u64::from(o.pages) * u64::from(o.page_size) / out_formats[i].bytes() as u64;
                let [mt, kt, nt] = math.mkn.map(|d| d as u64);
                if r.op == "matmul" && !elems.is_multiple_of(1024 * mt * nt) {
                    return Err(CliError::new(format!(
                        "{field}: matmul needs whole {mt}x{nt}-tile blocks of 32x32 tiles; the output has {elems} elements"
                    )));
                }
                let blocks = elems / (1024 * mt * nt);
                for (k, op) in r.operands.iter().enumerate() {
                    let j =
                        p.input.iter().position(|b| &b.name == op).ok_or_else(|| {
                            CliError::new(format!("{field}: no input named '{op}'"))
                        })?;
                    let want = u64::from(p.input[j].pages) * u64::from(p.input[j].page_size)
                        / in_formats[j].bytes() as u64;
                    let have = match (r.op.as_str(), k) {
                        ("matmul", 0) => blocks * mt * kt * 1024,
                        ("matmul", _) => blocks * kt * nt * 1024,
                        _ => elems,
                    };
                    if r.op == "matmul"
                        && math.mkn != [1, 1, 1]
                        && (in_formats[j] != Format::Bf16 || out_formats[i] != Format::Bf16)
                    {
                        return Err(CliError::new(format!(
                            "{field}: math.matmul_tiles other than [1, 1, 1] needs bf16 inputs and output"
                        )));
                    }
                    if want != have {
                        return Err(CliError::new(format!(
                            "{field}: input '{op}' has {want} elements, {have} expected from the output"
                        )));
                    }
                }
                Some(r)
            }
            (None, Some(_)) | (None, None) => None,
            (Some(_), Some(_)) => {
                return Err(CliError::new(format!(
                    "output[{i}]: give reference or file, not both"
                )))
            }
        };
        refs.push(r);
    }

    // Chip and boot.
    let tiles = grid::parse_tiles(&p.tiles).map_err(|e| CliError::new(format!("tiles: {e}")))?;
    let fw = Firmware::load(&p.firmware).map_err(|e| {
        CliError::new(format!(
            "firmware: {e} (run scripts/fetch-ttnn.sh to fetch the ttnn 0.81.1 firmware)"
        ))
    })?;
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

    // Per-tile programs and inputs.
    let coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    let mut programs = Vec::new();
    let mut inputs: Vec<Vec<Vec<u8>>> = Vec::new();
    for (ti, &xy) in coords.iter().enumerate() {
        let region = DRAM_BASE + l.per_tile * ti as u64;
        let mut mine = Vec::new();
        for (i, b) in p.input.iter().enumerate() {
            let mut data = input_bytes(b, i, in_formats[i], &base)?;
            if b.random.is_some() {
                // A different stream per tile, still determined by the seed.
                let seed = b.random.unwrap_or(0).wrapping_add(ti as u32 * 7919);
                data = random_data(in_formats[i], seed, data.len());
            }
            chip.dram_mut()
                .write(0, region + l.buffers[&b.name].0, &data)
                .map_err(|e| CliError::new(format!("input[{i}]: {e}")))?;
            mine.push(data);
        }
        inputs.push(mine);
        let mut tp = TileProgram {
            x: xy.0,
            y: xy.1,
            kernels: kernels.clone(),
            cbs: cbs.clone(),
            ..TileProgram::default()
        };
        for (procs, list, field) in [
            (&[0usize][..], &p.args.brisc, "args.brisc"),
            (&[1usize][..], &p.args.ncrisc, "args.ncrisc"),
            (&[2usize, 3, 4][..], &p.args.compute, "args.compute"),
        ] {
            let vals = list
                .iter()
                .enumerate()
                .map(|(k, a)| resolve_arg(a, &format!("{field}[{k}]"), &l, ti, xy))
                .collect::<Result<Vec<u32>, _>>()?;
            for &pi in procs {
                tp.args[pi] = vals.clone();
            }
        }
        tp.validate()
            .map_err(|e| CliError::new(format!("cb: {e}")))?;
        programs.push(tp);
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
