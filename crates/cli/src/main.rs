//! `bhemu`: the command-line face of the emulator.
//!
//! Each subcommand lives in its own module so that the parts of the chip can grow
//! independently; this file only parses the command line and maps errors to exit codes.
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

mod cmd_bench;
mod cmd_boot;
mod cmd_demo;
mod cmd_install_sim;
mod cmd_pto;
mod cmd_riscv;
mod cmd_run;
mod cmd_tasm;
mod cmd_tensix;
mod demo_chip;
mod demo_ref;
mod differential;
mod gdb;
mod hazard_args;
mod riscv_disasm;
mod run_reference;
mod trace_args;

#[derive(Parser)]
#[command(
    name = "bhemu",
    version,
    about = "An emulator of the Tenstorrent Blackhole AI chip"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the built-in demonstration (no files needed).
    Demo(cmd_demo::DemoArgs),
    /// Boot tt-metal's Blackhole firmware on the emulated chip, then optionally launch a kernel.
    Boot(cmd_boot::BootArgs),
    /// Run a program of kernel-kit kernels on the booted chip and check its outputs.
    Run(cmd_run::RunArgs),
    /// Install bhemu's libttsim.so and soc_descriptor.yaml into DIR, for tt-umd and tt-metal.
    InstallSim(cmd_install_sim::InstallSimArgs),
    /// Run a bare-metal 32-bit RISC-V ELF on one hart.
    Riscv(cmd_riscv::RiscvArgs),
    /// Disassemble RISC-V ELF files or Tensix instruction words.
    Disasm(DisasmArgs),
    /// Assemble a line of Tensix assembly into its 32-bit word.
    Asm(AsmArgs),
    /// The Tensix coprocessor on its own.
    Tensix {
        #[command(subcommand)]
        command: cmd_tensix::TensixCommand,
    },
    /// The Ascend PTO pipeline-sync engine.
    Pto {
        #[command(subcommand)]
        command: cmd_pto::PtoCommand,
    },
    /// Benchmarks that print measured figures.
    Bench {
        #[command(subcommand)]
        command: cmd_bench::BenchCommand,
    },
    /// One simulator run of the differential runner, in a process of its own (docs/reference.md).
    #[command(hide = true)]
    SimWorker(differential::worker::SimWorkerArgs),
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct DisasmTarget {
    /// A 32-bit RISC-V ELF whose executable sections to disassemble.
    #[arg(long, value_name = "FILE.elf")]
    riscv: Option<std::path::PathBuf>,
    /// Tensix instruction words (hex with 0x, or decimal).
    #[arg(long, value_name = "WORD", num_args = 1..)]
    tensix: Option<Vec<String>>,
}

#[derive(Args)]
struct DisasmArgs {
    #[command(flatten)]
    target: DisasmTarget,
    /// Tensix architecture.
    #[arg(long, default_value = "blackhole")]
    arch: String,
}

#[derive(Args)]
struct AsmArgs {
    /// A line of Tensix assembly, e.g. 'ttsemwait 322, 2, 2'.
    #[arg(long, value_name = "LINE")]
    tensix: String,
    /// Tensix architecture.
    #[arg(long, default_value = "blackhole")]
    arch: String,
}

/// An error that ends a command: printed as one line, exit status 2 unless the command chose otherwise.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CliError(pub String);

impl CliError {
    pub fn new(msg: impl Into<String>) -> Self {
        CliError(msg.into())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(a) => cmd_demo::run(a),
        Command::Boot(a) => cmd_boot::run(a),
        Command::Run(a) => cmd_run::run(a),
        Command::InstallSim(a) => cmd_install_sim::run(a),
        Command::Riscv(a) => cmd_riscv::run(a),
        Command::Disasm(a) => match (a.target.riscv, a.target.tensix) {
            (Some(path), _) => riscv_disasm::disasm(&path),
            (None, Some(words)) => cmd_tasm::disasm(&a.arch, &words),
            (None, None) => Err(CliError::new(
                "disasm needs --riscv FILE or --tensix WORD...",
            )),
        },
        Command::Asm(a) => cmd_tasm::asm(&a.arch, &a.tensix),
        Command::Tensix { command } => cmd_tensix::run(command),
        Command::Pto { command } => cmd_pto::run(command),
        Command::Bench { command } => cmd_bench::run(command),
        Command::SimWorker(a) => differential::worker::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bhemu: {e}");
            ExitCode::from(2)
        }
    }
}
