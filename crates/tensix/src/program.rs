//! `.tsx` programs: a text program for the coprocessor alone.
//!
//! ```text
//! # comment
//! sem 1 init 0 max 2          # initial semaphore state, before cycle 0
//! [t1]                        # thread sections: [t0], [t1], [t2]
//! mopcfg 5 = 0x45000404       # this thread's MopCfg[5], before cycle 0
//! ttsemwait 322, 2, 2         # assembly (bhemu_isa::tensix::assemble) ...
//! .word 0x45001234            # ... or a raw 32-bit word
//! ```
//! Errors name the file, the line and the reason.
use bhemu_isa::tensix::{assemble, Arch};

use crate::error::{ErrorKind, TensixError};

/// One thread's part of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadProgram {
    /// MopCfg writes applied before cycle 0, in order.
    pub mopcfg: Vec<(usize, u32)>,
    /// Words to push, with their source line numbers.
    pub words: Vec<(u32, usize)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// (index, value, max) applied before cycle 0.
    pub sems: Vec<(usize, u8, u8)>,
    pub threads: [ThreadProgram; 3],
}

fn parse_num(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(&h.replace('_', ""), 16).ok()
    } else {
        s.replace('_', "").parse().ok()
    }
}

fn err(file: &str, line: usize, reason: impl std::fmt::Display) -> TensixError {
    TensixError::new(ErrorKind::Invalid, 0, format!("{file}:{line}: {reason}"))
}

/// Parse `text` (named `file` in errors) for `arch`.
pub fn parse(arch: Arch, file: &str, text: &str) -> Result<Program, TensixError> {
    let mut p = Program::default();
    let mut current: Option<usize> = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(sec) = line.strip_prefix('[') {
            let name = sec.strip_suffix(']').ok_or_else(|| {
                err(
                    file,
                    line_no,
                    "a section header is `[t0]`, `[t1]` or `[t2]`",
                )
            })?;
            current = match name.trim() {
                "t0" | "T0" => Some(0),
                "t1" | "T1" => Some(1),
                "t2" | "T2" => Some(2),
                other => {
                    return Err(err(
                        file,
                        line_no,
                        format!("unknown section `[{other}]` (threads are t0, t1, t2)"),
                    ))
                }
            };
            continue;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        if first == "sem" {
            // sem N init V max M
            let toks: Vec<&str> = line.split_whitespace().collect();
            if toks.len() != 6 || toks[2] != "init" || toks[4] != "max" {
                return Err(err(file, line_no, "expected `sem N init V max M`"));
            }
            let idx = parse_num(toks[1]).filter(|&v| v < 8).ok_or_else(|| {
                err(
                    file,
                    line_no,
                    format!("semaphore index `{}` is not 0-7", toks[1]),
                )
            })?;
            let v = parse_num(toks[3]).filter(|&v| v < 16).ok_or_else(|| {
                err(
                    file,
                    line_no,
                    format!("semaphore value `{}` is not 0-15", toks[3]),
                )
            })?;
            let m = parse_num(toks[5]).filter(|&v| v < 16).ok_or_else(|| {
                err(
                    file,
                    line_no,
                    format!("semaphore max `{}` is not 0-15", toks[5]),
                )
            })?;
            p.sems.push((idx as usize, v as u8, m as u8));
            continue;
        }
        let Some(t) = current else {
            return Err(err(
                file,
                line_no,
                "instruction or mopcfg before any `[t0]`/`[t1]`/`[t2]` section",
            ));
        };
        if first == "mopcfg" {
            let rest = line["mopcfg".len()..].trim();
            let (i, v) = rest
                .split_once('=')
                .ok_or_else(|| err(file, line_no, "expected `mopcfg I = VALUE`"))?;
            let i = parse_num(i).filter(|&i| i < 9).ok_or_else(|| {
                err(
                    file,
                    line_no,
                    format!("MopCfg index `{}` is not 0-8", i.trim()),
                )
            })?;
            let v = parse_num(v)
                .filter(|&v| v <= u32::MAX as u64)
                .ok_or_else(|| {
                    err(
                        file,
                        line_no,
                        format!("MopCfg value `{}` is not a 32-bit number", v.trim()),
                    )
                })?;
            p.threads[t].mopcfg.push((i as usize, v as u32));
            continue;
        }
        if first == ".word" {
            let v = words
                .next()
                .ok_or_else(|| err(file, line_no, "`.word` needs a value"))?;
            if words.next().is_some() {
                return Err(err(file, line_no, "`.word` takes exactly one value"));
            }
            let w = parse_num(v)
                .filter(|&v| v <= u32::MAX as u64)
                .ok_or_else(|| err(file, line_no, format!("`{v}` is not a 32-bit number")))?;
            p.threads[t].words.push((w as u32, line_no));
            continue;
        }
        match assemble(arch, line) {
            Ok(w) => p.threads[t].words.push((w, line_no)),
            Err(e) => return Err(err(file, line_no, format!("cannot assemble `{line}`: {e}"))),
        }
    }
    Ok(p)
}
