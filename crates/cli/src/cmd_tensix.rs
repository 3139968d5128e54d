//! `bhemu tensix run`. (Owner: Tensix frontend work.)
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
