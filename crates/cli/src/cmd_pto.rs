//! `bhemu pto run`. (Owner: PTO work.)
use std::process::ExitCode;

use crate::CliError;

#[derive(clap::Subcommand)]
pub enum PtoCommand {
    /// Run a PTO synchronisation trace.
    Run { trace: std::path::PathBuf },
}

pub fn run(_c: PtoCommand) -> Result<ExitCode, CliError> {
    Err(CliError::new("pto run: not built yet"))
}
