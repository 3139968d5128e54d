//! `bhemu tensix run`, `bhemu disasm --tensix`, `bhemu asm --tensix`. (Owner: Tensix work.)
use std::process::ExitCode;

use crate::CliError;

#[derive(clap::Subcommand)]
pub enum TensixCommand {
    /// Run a .tsx program on the coprocessor alone.
    Run { program: std::path::PathBuf },
}

pub fn run(_c: TensixCommand) -> Result<ExitCode, CliError> {
    Err(CliError::new("tensix run: not built yet"))
}

pub fn disasm(_arch: &str, _words: &[String]) -> Result<ExitCode, CliError> {
    Err(CliError::new("disasm --tensix: not built yet"))
}

pub fn asm(_arch: &str, _line: &str) -> Result<ExitCode, CliError> {
    Err(CliError::new("asm --tensix: not built yet"))
}
