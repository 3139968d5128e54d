//! `bhemu bench ...`: measured figures, printed. (Owner: RISC-V hart work.)
use std::process::ExitCode;
use std::time::Instant;

use std::path::{Path, PathBuf};

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Firmware, Kernel, RunReport};
use bhemu_chip::{grid, threads, Chip, ChipConfig, Schedule, Timing};
use bhemu_rv::{workload, FlatRam, Hart, HartConfig, RunExit, StepOutcome};

use crate::CliError;

#[derive(clap::Subcommand)]
pub enum BenchCommand {
    /// MIPS of one hart on a mixed integer workload (loops, ALU, shifts, mul/div, loads/stores,
    /// branches, calls) in flat RAM.
    Riscv {
        /// Outer iterations of the workload (about 850 instructions each).
        #[arg(long, default_value_t = 300_000)]
        iterations: u32,
        /// Drive the hart one cycle at a time with `Hart::step`, as a tile does, instead of the
        /// batched `Hart::run`.
        #[arg(long)]
        step: bool,
    },
    /// ns per tile-clock and simulated MHz of the whole chip on the real firmware: boot on
    /// 140 tiles; the spin kernel (a 7-instruction loop per BRISC, the other cores in the
    /// firmware's idle loops) on 1, 14 and 140 tiles; the NoC multicast kernel on 140 tiles;
    /// the kit's add, matmul and block-matmul programs on 140 tiles.
    Chip(ChipBenchArgs),
    /// SFPU (Vector Unit) instructions per second of host time on a kernel-like mix (loads,
    /// MADs, integer and bit operations, lane predication, conversions, a swap, stores): the
    /// unit driven directly, then the same words pushed through a coprocessor thread.
    Sfpu {
        /// Instructions to execute (about; whole passes of the 16-instruction mix).
        #[arg(long, default_value_t = 20_000_000)]
        instructions: u64,
    },
    /// Matrix Unit (FPU) MVMUL and ELWADD per second of host time (the unit driven directly,
    /// then MVMUL pushed through a coprocessor thread), and simulated cycles of one 32x32x32
    /// tile matmul (16 MVMULs per fidelity phase) against the documented 1 MVMUL per cycle.
    Matrix {
        /// MVMULs (and ELWADDs) to execute on the unit alone; a tenth go through the
        /// coprocessor.
        #[arg(long, default_value_t = 200_000)]
        instructions: u64,
    },
}

#[derive(clap::Args)]
pub struct ChipBenchArgs {
    /// The ttnn 0.81.1 firmware (`scripts/fetch-ttnn.sh`).
    #[arg(
        long,
        value_name = "DIR",
        default_value = ".cache/ttnn/firmware/blackhole-140"
    )]
    firmware: PathBuf,
    /// The kernels of examples/kernels, built by `scripts/build-kernels.sh`.
    #[arg(long, value_name = "DIR", default_value = "target/kernels")]
    kernels: PathBuf,
    /// The kernel kit's output, built by `scripts/kernel-kit/build.sh` (the compute workload).
    #[arg(long, value_name = "DIR", default_value = "target/kernel-kit")]
    kit: PathBuf,
    /// Which workloads: all, boot, spin, multicast, compute.
    #[arg(long, default_value = "all")]
    workload: String,
    /// Iterations of the spin loop per BRISC.
    #[arg(long, default_value_t = 100_000)]
    spin_iterations: u32,
    /// reference or fast (default `BHEMU_SCHEDULE`, else fast).
    #[arg(long, value_name = "NAME")]
    schedule: Option<String>,
    /// Host threads of the fast schedule (a count or `cores`; default `BHEMU_THREADS`, else the machine's cores).
    #[arg(long, value_name = "N")]
    threads: Option<String>,
    /// Per-hop NoC latency (`Timing::BLACKHOLE`) instead of functional timing (the fast
    /// schedule then runs quanta of up to 20 cycles).
    #[arg(long)]
    noc_hops: bool,
}

pub fn run(c: BenchCommand) -> Result<ExitCode, CliError> {
    match c {
        BenchCommand::Riscv { iterations, step } => bench_riscv(iterations, step),
        BenchCommand::Chip(a) => bench_chip(&a),
        BenchCommand::Sfpu { instructions } => bench_sfpu(instructions),
        BenchCommand::Matrix { instructions } => bench_matrix(instructions),
    }
}

fn cerr(e: impl std::fmt::Display) -> CliError {
    CliError::new(format!("bench chip: {e}"))
}

/// One measured phase: prints a line and returns nothing; the figures are per phase.
fn print_phase(label: &str, tiles: usize, r: &RunReport, cpu_s: Option<f64>) {
    let secs = r.wall.as_secs_f64().max(1e-9);
    let tile_clocks = r.cycles as f64 * tiles as f64;
    let cpu = cpu_s.unwrap_or(secs).max(1e-9);
    println!(
        "{label:<22} {tiles:>4} tiles {:>9} cycles {:>8.3} s  {:>7.2} ns/tile-clock  {:>8.3} MHz  (CPU: {:.2} ns/tile-clock, {:.3} MHz)",
        r.cycles,
        secs,
        secs * 1e9 / tile_clocks.max(1.0),
        r.cycles as f64 / secs / 1e6,
        cpu * 1e9 / tile_clocks.max(1.0),
        r.cycles as f64 / cpu / 1e6,
    );
}

fn booted(a: &ChipBenchArgs, fw: &Firmware, tiles: usize) -> Result<(Chip, RunReport), CliError> {
    let sel = grid::parse_tiles(&tiles.to_string()).map_err(cerr)?;
    let timing = Timing::per_hop(a.noc_hops);
    let mut chip = Chip::new(&ChipConfig {
        tiles: sel,
        timing,
        ..ChipConfig::default()
    })
    .map_err(cerr)?;
    if let Some(s) = &a.schedule {
        chip.set_schedule(Schedule::parse(s).map_err(cerr)?)
            .map_err(cerr)?;
    }
    if let Some(n) = &a.threads {
        chip.set_threads(threads::parse_threads(n).map_err(cerr)?);
    }
    let r = host::boot(&mut chip, fw, 1_000_000, &mut |_| {}).map_err(cerr)?;
    if !r.finished {
        return Err(cerr("boot did not finish"));
    }
    Ok((chip, r))
}

fn load_kernel(dir: &Path, name: &str) -> Result<Kernel, CliError> {
    let path = dir.join(format!("{name}.elf"));
    let img = ElfImage::read(&path).map_err(|e| {
        cerr(format!(
            "{e} (build the kernels with scripts/build-kernels.sh)"
        ))
    })?;
    Kernel::from_elf(&img).map_err(cerr)
}

/// Runs `f` and returns its result with the thread's CPU seconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Option<f64>) {
    let a = thread_cpu_ns();
    let t = f();
    let cpu = match (a, thread_cpu_ns()) {
        (Some(a), Some(b)) if b >= a => Some((b - a) as f64 / 1e9),
        _ => None,
    };
    (t, cpu)
}

fn launch_measured(chip: &mut Chip, k: &Kernel, label: &str, max: u64) -> Result<(), CliError> {
    let tiles = chip.tiles().len();
    let (r, cpu) = timed(|| host::launch(chip, k, 1, max, &mut |_| {}));
    let r = r.map_err(cerr)?;
    if !r.finished {
        return Err(cerr(format!("{label} did not finish in {max} cycles")));
    }
    print_phase(label, tiles, &r, cpu);
    print_spread(chip);
    Ok(())
}

/// With more than one host thread: how many of the chip's cycles so far were spread.
fn print_spread(chip: &Chip) {
    if chip.threads() > 1 {
        println!(
            "{:<22} {} of the chip's cycles so far spread over host threads (up to {}): {}",
            "",
            chip.spread_cycles(),
            chip.threads(),
            chip.spread().summary()
        );
    }
}

fn bench_chip(a: &ChipBenchArgs) -> Result<ExitCode, CliError> {
    let fw = Firmware::load(&a.firmware)
        .map_err(|e| cerr(format!("{e} (fetch it with scripts/fetch-ttnn.sh)")))?;
    let all = a.workload == "all";
    if !all && !["boot", "spin", "multicast", "compute"].contains(&a.workload.as_str()) {
        return Err(cerr(format!(
            "unknown workload `{}` (all, boot, spin, multicast, compute)",
            a.workload
        )));
    }
    let schedule = match &a.schedule {
        Some(s) => Schedule::parse(s).map_err(cerr)?,
        None => Schedule::from_env().map_err(cerr)?,
    };
    let n_threads = match &a.threads {
        Some(n) => threads::parse_threads(n).map_err(cerr)?,
        None => threads::threads_from_env().map_err(cerr)?,
    };
    println!(
        "schedule: {}, threads: {n_threads}, NoC timing: {}",
        schedule.name(),
        if a.noc_hops { "per hop" } else { "functional" }
    );
    if all || a.workload == "boot" {
        // The CPU figure of boot includes building the chip and loading the firmware.
        let (res, cpu) = timed(|| booted(a, &fw, 140));
        let (chip, r) = res?;
        print_phase("boot", 140, &r, cpu);
        print_spread(&chip);
    }
    if all || a.workload == "spin" {
        let k = load_kernel(&a.kernels, "spin")?;
        for tiles in [1usize, 14, 140] {
            let (mut chip, _) = booted(a, &fw, tiles)?;
            for (x, y) in coords(&chip) {
                chip.write_l1(x, y, 0x30040, &a.spin_iterations.to_le_bytes())
                    .map_err(cerr)?;
            }
            launch_measured(&mut chip, &k, "spin", 100_000_000)?;
        }
    }
    if all || a.workload == "multicast" {
        let k = load_kernel(&a.kernels, "noc_multicast")?;
        let (mut chip, _) = booted(a, &fw, 140)?;
        let c = coords(&chip);
        for (i, &(x, y)) in c.iter().enumerate() {
            chip.write_l1(x, y, 0x30040, &(c.len() as u32).to_le_bytes())
                .map_err(cerr)?;
            chip.write_l1(x, y, 0x30044, &(i as u32).to_le_bytes())
                .map_err(cerr)?;
        }
        launch_measured(&mut chip, &k, "multicast", 1_000_000)?;
    }
    if all || a.workload == "compute" {
        bench_compute(a)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The kit's tt-metal compute programs (reader → compute → writer through the real firmware)
/// on all 140 tiles, as `bhemu run` runs them (its schedule); the figures are the launch's
/// (boot and checks excluded, wall time), and the outputs must stay bit-exact.
fn bench_compute(a: &ChipBenchArgs) -> Result<(), CliError> {
    for (label, program) in [
        ("compute add", "add.toml"),
        ("compute matmul", "matmul.toml"),
        ("compute matmul_block", "matmul_block.toml"),
    ] {
        let args = crate::cmd_run::RunArgs {
            program: Path::new("examples/kernels/programs").join(program),
            json: true,
            kit: Some(a.kit.clone()),
            firmware: Some(a.firmware.clone()),
            tiles: Some("all".into()),
            trace: Default::default(),
            hazards: Default::default(),
            gdb: None,
            gdb_tiles: None,
            threads: a.threads.clone(),
            noc_hops: a.noc_hops,
            reference: None,
            bhemu_lib: None,
            seed: 0,
        };
        let o = crate::cmd_run::execute(&args).map_err(|e| {
            cerr(format!(
                "{label}: {} (build the kit with scripts/kernel-kit/build.sh)",
                e.0
            ))
        })?;
        if !o.bit_exact() {
            return Err(cerr(format!("{label}: the outputs are not bit-exact")));
        }
        print_phase(label, o.tiles, &o.run, None);
        if o.threads > 1 {
            println!(
                "{:<22} with the boot, up to {} host threads: {}",
                "",
                o.threads,
                o.spread.summary()
            );
        }
    }
    Ok(())
}

fn coords(chip: &Chip) -> Vec<(u8, u8)> {
    chip.tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect()
}

fn bench_riscv(iterations: u32, step: bool) -> Result<ExitCode, CliError> {
    let words = workload::mixed_integer(iterations);
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut ram = FlatRam::new(0, 1 << 20);
    ram.load_bytes(workload::CODE_BASE, &code)
        .map_err(|f| CliError::new(format!("bench: loading the workload: {}", f.reason)))?;
    let mut hart = Hart::new(HartConfig {
        reset_pc: workload::CODE_BASE,
        ..HartConfig::default()
    });
    let cpu_start = thread_cpu_ns();
    let start = Instant::now();
    let exit = if step {
        step_until_end(&mut hart, &mut ram)
    } else {
        hart.run(&mut ram, u64::MAX)
    };
    let secs = start.elapsed().as_secs_f64();
    let cpu_secs = match (cpu_start, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1e9),
        _ => None,
    };
    match exit {
        RunExit::Halted(_) => {}
        RunExit::Error(e) => return Err(CliError::new(format!("bench: {e}"))),
        other => return Err(CliError::new(format!("bench: unexpected end {other:?}"))),
    }
    let insns = hart.instret();
    let mips = insns as f64 / secs.max(1e-9) / 1e6;
    let driver = if step { "Hart::step" } else { "Hart::run" };
    println!("workload:     mixed integer, {iterations} iterations, {driver}");
    println!("instructions: {insns}");
    println!("cycles:       {}", hart.cycles());
    println!("seconds:      {secs:.3}");
    println!("MIPS:         {mips:.1}");
    // On a shared machine the wall clock includes time other processes took the core; the
    // thread's own CPU time shows what one core achieves.
    if let Some(cpu) = cpu_secs {
        println!("CPU seconds:  {cpu:.3}");
        println!("MIPS (CPU):   {:.1}", insns as f64 / cpu.max(1e-9) / 1e6);
    }
    Ok(ExitCode::SUCCESS)
}

fn bench_sfpu(instructions: u64) -> Result<ExitCode, CliError> {
    use bhemu_tensix::sfpu::bench;
    let unit = bench::run(instructions);
    if unit.errors > 0 {
        return Err(CliError::new(format!(
            "bench sfpu: {} instructions of the mix reported errors",
            unit.errors
        )));
    }
    println!("workload:      kernel-like SFPU mix (16 instructions, 32 lanes each)");
    println!(
        "unit alone:    {} instructions in {:.3} s",
        unit.instructions, unit.seconds
    );
    println!("  SFPU instructions/s: {:.2} M", unit.per_second() / 1e6);
    // The coprocessor path also runs the frontend and the Wait Gate every cycle: a tenth of
    // the instructions is plenty for a stable figure.
    let cp = bench::run_in_coprocessor((instructions / 10).max(16))
        .map_err(|e| CliError::new(format!("bench sfpu: {e}")))?;
    println!(
        "coprocessor:   {} instructions, {} cycles, {:.3} s",
        cp.instructions, cp.cycles, cp.seconds
    );
    println!("  SFPU instructions/s: {:.2} M", cp.per_second() / 1e6);
    println!(
        "  instructions per cycle: {:.3}",
        cp.instructions as f64 / cp.cycles.max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}

fn bench_matrix(instructions: u64) -> Result<ExitCode, CliError> {
    let b = bhemu_tensix::matrix::bench::run(instructions.max(16))
        .map_err(|e| CliError::new(format!("bench matrix: {e}")))?;
    println!("{}", b.to_text());
    Ok(ExitCode::SUCCESS)
}

fn step_until_end(hart: &mut Hart, ram: &mut FlatRam) -> RunExit {
    loop {
        match hart.step(ram) {
            StepOutcome::Halted(h) => return RunExit::Halted(h),
            StepOutcome::Error(e) => return RunExit::Error(e),
            StepOutcome::Stop => return RunExit::Stop,
            StepOutcome::Retired
            | StepOutcome::Stalled
            | StepOutcome::Waited
            | StepOutcome::Trapped { .. } => {}
        }
    }
}

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`); `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
