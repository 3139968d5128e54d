//! `bhemu disasm --tensix` and `bhemu asm --tensix`. (Owner: Tensix ISA work.)
use std::process::ExitCode;

use crate::CliError;

pub fn disasm(_arch: &str, _words: &[String]) -> Result<ExitCode, CliError> {
    Err(CliError::new("disasm --tensix: not built yet"))
}

pub fn asm(_arch: &str, _line: &str) -> Result<ExitCode, CliError> {
    Err(CliError::new("asm --tensix: not built yet"))
}
