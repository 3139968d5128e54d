//! `bhemu riscv` and `bhemu disasm --riscv`. (Owner: RISC-V programs work.)
use std::path::Path;
use std::process::ExitCode;

use crate::CliError;

#[derive(clap::Args)]
pub struct RiscvArgs {
    pub file: std::path::PathBuf,
}

pub fn run(_a: RiscvArgs) -> Result<ExitCode, CliError> {
    Err(CliError::new("riscv: not built yet"))
}

pub fn disasm(_path: &Path) -> Result<ExitCode, CliError> {
    Err(CliError::new("disasm --riscv: not built yet"))
}
