//! What the reference-simulator campaigns (reference_datapath.rs, reference_sfpu.rs,
//! reference_conv.rs) share: finding their generator in the ignored cache, starting it, and
//! reading its little-endian word stream.
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
    pub fn string(&mut self) -> String {
        let n = self.next() as usize;
        String::from_utf8_lossy(&self.bytes(n)).into_owned()
    }
}
