//! `bhemu disasm --tensix` and `bhemu asm --tensix`. (Owner: Tensix ISA work.)
//!
//! Thin wrappers over `bhemu_isa::tensix`: all parsing and formatting rules live there, so
//! the CLI, the `tensix run` program loader and the tests agree on one syntax.
use std::process::ExitCode;

use bhemu_isa::tensix::{self, Arch};

use crate::CliError;

fn parse_arch(name: &str) -> Result<Arch, CliError> {
    Arch::from_name(name).ok_or_else(|| {
        CliError::new(format!(
            "unknown architecture `{name}` (expected blackhole or wormhole)"
        ))
    })
}

/// A 32-bit word written as `0x…` hex or decimal (`_` separators allowed).
fn parse_word(text: &str) -> Result<u32, CliError> {
    let t: String = text.trim().chars().filter(|&c| c != '_').collect();
    let parsed = match t.get(..2) {
        Some(p) if p.eq_ignore_ascii_case("0x") => u32::from_str_radix(&t[2..], 16),
        _ => t.parse::<u32>(),
    };
    parsed.map_err(|_| {
        CliError::new(format!(
            "`{text}` is not a 32-bit word (write 0x-prefixed hex or decimal)"
        ))
    })
}

/// One output line per word: `0xWORD  text`.
fn disasm_lines(arch: Arch, words: &[String]) -> Result<Vec<String>, CliError> {
    // Parse everything first so that bad input prints nothing but the error.
    let words = words
        .iter()
        .map(|w| parse_word(w))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(words
        .into_iter()
        .map(|w| format!("{w:#010x}  {}", tensix::disassemble(arch, w)))
        .collect())
}

pub fn disasm(arch: &str, words: &[String]) -> Result<ExitCode, CliError> {
    let arch = parse_arch(arch)?;
    if words.is_empty() {
        return Err(CliError::new("disasm --tensix needs at least one word"));
    }
    for line in disasm_lines(arch, words)? {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

pub fn asm(arch: &str, line: &str) -> Result<ExitCode, CliError> {
    let arch = parse_arch(arch)?;
    let word = tensix::assemble(arch, line).map_err(|e| CliError::new(format!("asm: {e}")))?;
    println!("{word:#010x}");
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_as_hex_or_decimal() {
        assert_eq!(parse_word("0xa2400001").ok(), Some(0xa240_0001));
        assert_eq!(parse_word("0XA240_0001").ok(), Some(0xa240_0001));
        assert_eq!(parse_word("2722103297").ok(), Some(0xa240_0001));
        assert!(parse_word("0x1_0000_0000").is_err());
        assert!(parse_word("-1").is_err());
        assert!(parse_word("").is_err());
        assert!(parse_word("0x").is_err());
    }

    #[test]
    fn disasm_prints_word_then_text() {
        let lines = disasm_lines(Arch::Blackhole, &["0xa6a1000a".into(), "0x07000000".into()]);
        assert_eq!(
            lines.ok(),
            Some(vec![
                "0xa6a1000a  ttsemwait 322, 2, 2".to_string(),
                "0x07000000  .word 0x07000000  # unknown opcode 0x07".to_string(),
            ])
        );
        assert!(disasm_lines(Arch::Blackhole, &["zz".into()]).is_err());
    }

    #[test]
    fn arch_names() {
        assert!(parse_arch("wormhole").is_ok());
        assert!(parse_arch("grayskull").is_err());
    }
}
