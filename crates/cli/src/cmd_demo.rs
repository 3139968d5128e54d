//! `bhemu demo`: the built-in default job.
use std::process::ExitCode;

use crate::CliError;

#[derive(clap::Args)]
pub struct DemoArgs {}

pub fn run(_a: DemoArgs) -> Result<ExitCode, CliError> {
    Err(CliError::new("demo: not built yet"))
}
