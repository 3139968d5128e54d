//! What the reference-simulator campaigns (reference_datapath.rs, reference_sfpu.rs,
//! reference_conv.rs, reference_matrix.rs) share: finding their generator in the ignored cache,
//! starting it, reading its little-endian word stream, and the reference's Src layout.
#![allow(dead_code)] // each campaign uses a part

use std::io::{BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};

/// The generator at `$var`, else at `cached` (relative to the repository root), if it exists.
pub fn generator(var: &str, cached: &str) -> Option<PathBuf> {
    let p = std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(cached)
    });
    p.is_file().then_some(p)
}

pub fn env_or(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

/// Starts the generator with `args`; its standard output as words.
pub fn start(gen: &PathBuf, args: &[String]) -> (Child, Words<BufReader<ChildStdout>>) {
    let mut child = Command::new(gen)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", gen.display()));
    let out = child.stdout.take().expect("piped stdout");
    (child, Words(BufReader::with_capacity(1 << 20, out)))
}

/// The generators' stream: little-endian u32 words; a string is its byte length, then its
/// bytes padded with zeros to a multiple of 4.
pub struct Words<R: Read>(pub R);

impl<R: Read> Words<R> {
    /// The next word, or `None` at the end of the stream.
    pub fn try_next(&mut self) -> Option<u32> {
        let mut b = [0u8; 4];
        self.0.read_exact(&mut b).ok()?;
        Some(u32::from_le_bytes(b))
    }
    pub fn next(&mut self) -> u32 {
        self.try_next().expect("generator stream ended early")
    }
    pub fn fill(&mut self, out: &mut [u32]) {
        let mut b = vec![0u8; out.len() * 4];
        self.0
            .read_exact(&mut b)
            .expect("generator stream ended early");
        for (o, c) in out.iter_mut().zip(b.chunks_exact(4)) {
            *o = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
    }
    /// `n` bytes, padded in the stream to a multiple of 4.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n.div_ceil(4) * 4];
        self.0
            .read_exact(&mut b)
            .expect("generator stream ended early");
        b.truncate(n);
        b
    }
    /// A count, then that many (address, value) pairs (configuration words).
    pub fn pairs(&mut self) -> Vec<(u32, u32)> {
        let n = self.next();
        (0..n).map(|_| (self.next(), self.next())).collect()
    }
    pub fn string(&mut self) -> String {
        let n = self.next() as usize;
        String::from_utf8_lossy(&self.bytes(n)).into_owned()
    }
}

/// The reference keeps a Src datum as the top 19 bits of an FP32-arranged word (sign 31,
/// exponent 30..23, mantissa 22..13); bhemu as SrcASrcB.md draws it (sign 18, mantissa 17..8,
/// exponent 7..0). Written from the two layouts, not with bhemu's helpers.
pub fn src_from_reference(v: u32) -> u32 {
    let sign = (v >> 31) & 1;
    let exp = (v >> 23) & 0xff;
    let man = (v >> 13) & 0x3ff;
    (sign << 18) | (man << 8) | exp
}

/// One compared cell of a campaign: its name, how many results were compared and how many
/// differ, and the draws the reference refused in it (with its first reason).
pub struct Outcome {
    pub name: String,
    pub results: u64,
    pub different: u64,
    pub skipped: u32,
    pub skip_reason: String,
}

/// A campaign's verdict: prints the totals (`unit` names what a result is), then asserts that
/// the filter `filter_var` matched some cell, that no cell differs, and that the generator drew
/// no input the reference refuses in a compared cell.
pub fn conclude(unit: &str, filter_var: &str, filter: &str, compared: &[Outcome], refused: usize) {
    let bad: Vec<&Outcome> = compared.iter().filter(|c| c.different > 0).collect();
    let total: u64 = compared.iter().map(|c| c.results).sum();
    eprintln!(
        "{} cells compared ({total} {unit}), {refused} refused by the reference, {} different",
        compared.len(),
        bad.len()
    );
    let skipping: Vec<&Outcome> = compared.iter().filter(|c| c.skipped > 0).collect();
    for c in &skipping {
        eprintln!(
            "note: {}: the reference refused {} draws ({})",
            c.name, c.skipped, c.skip_reason
        );
    }
    assert!(
        filter.is_empty() || !compared.is_empty() || refused > 0,
        "no cell matches {filter_var}={filter}"
    );
    assert!(
        bad.is_empty(),
        "cells that differ from the reference: {}",
        bad.iter()
            .map(|c| format!("{} ({} of {})", c.name, c.different, c.results))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(
        skipping.is_empty(),
        "the generator drew inputs the reference refuses in compared cells"
    );
}

/// Runs Blackhole instruction `words` through bhemu's units (strict mode) on `st` and `l1`
/// for `thread`, as the reference executes them one by one; returns bhemu's errors and
/// warnings as text (empty when it ran them cleanly).
pub fn run_words(
    st: &mut bhemu_tensix::state::TensixState,
    banks: &bhemu_tensix::src_banks::SrcBanks,
    l1: &mut bhemu_tensix::FlatL1,
    thread: usize,
    words: &[u32],
) -> Vec<String> {
    use bhemu_isa::tensix::blackhole::{visit, Insn};
    let mut warnings = Vec::new();
    let mut problems = Vec::new();
    for &word in words {
        let insn = Insn::decode(word);
        let mut ctx = bhemu_tensix::units::Ctx {
            state: st,
            banks,
            mem: l1,
            thread,
            cycle: 0,
            word,
            mode: bhemu_tensix::Mode::Strict,
            warnings: &mut warnings,
        };
        let mut ex = bhemu_tensix::units::exec::Exec { ctx: &mut ctx };
        if let Err(e) = visit(&insn, &mut ex) {
            problems.push(format!("bhemu error: {e}"));
            break;
        }
    }
    problems.extend(warnings.iter().map(|w| format!("bhemu warning: {w}")));
    problems
}
