//! `bhemu bench ...`: measured figures, printed. (Owner: RISC-V hart work.)
use std::process::ExitCode;

use crate::CliError;

#[derive(clap::Subcommand)]
pub enum BenchCommand {
    /// MIPS of one hart on a mixed integer workload.
    Riscv,
}

pub fn run(_c: BenchCommand) -> Result<ExitCode, CliError> {
    Err(CliError::new("bench: not built yet"))
}
