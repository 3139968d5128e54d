//! `bhemu bench ...`: measured figures, printed. (Owner: RISC-V hart work.)
use std::process::ExitCode;
use std::time::Instant;

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
}

pub fn run(c: BenchCommand) -> Result<ExitCode, CliError> {
    match c {
        BenchCommand::Riscv { iterations, step } => bench_riscv(iterations, step),
    }
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

fn step_until_end(hart: &mut Hart, ram: &mut FlatRam) -> RunExit {
    loop {
        match hart.step(ram) {
            StepOutcome::Halted(h) => return RunExit::Halted(h),
            StepOutcome::Error(e) => return RunExit::Error(e),
            StepOutcome::Stop => return RunExit::Stop,
            StepOutcome::Retired | StepOutcome::Stalled | StepOutcome::Trapped { .. } => {}
        }
    }
}

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`); `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
