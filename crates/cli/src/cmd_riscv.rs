//! `bhemu riscv`, `bhemu disasm --riscv` and the program behind `bhemu demo`.
//!
//! A bare-metal RV32 ELF is loaded into one flat RAM and run on one hart. Programs end through
//! the convention of the official RISC-V ISA tests (riscv-tests `env/p/riscv_test.h`,
//! RVTEST_PASS/RVTEST_FAIL): they store to the 8-byte symbol `tohost`; 1 means pass,
//! `(n << 1) | 1` means failure n. `ebreak` is a debug pause on Blackhole (docs/blackhole-facts.md §10), so it
//! halts the hart and the run ends there.
//!
//! Exit status of `bhemu riscv` (also in `--help`):
//!   0  pass (tohost = 1), or halted at ebreak
//!   n  the program reported failure n through tohost (clamped to 1..=255)
//!   2  the file could not be loaded, a bad argument, or a hart error (e.g. an unhandled trap)
//!   3  --max-insns instructions retired without an ending
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bhemu_chip::elf::ElfImage;
use bhemu_rv::{Access, Bus, FlatRam, Hart, HartConfig, RunExit, Width};

use crate::CliError;

const EXIT_ERROR: u8 = 2;
const EXIT_MAX_INSNS: u8 = 3;
/// Enough for every bundled program many times over, small enough that a runaway program ends
/// within seconds at a few hundred MIPS.
const DEFAULT_MAX_INSNS: u64 = 2_000_000_000;
/// "by default 64 MiB from the lowest load address rounded down to 1 MiB".
const DEFAULT_RAM_SIZE: u64 = 64 << 20;
const RAM_ALIGN: u32 = 1 << 20;
/// The flat RAM is allocated up front; refuse sizes that would only exhaust the host.
const MAX_RAM_SIZE: u64 = 1 << 30;
/// The hart runs in slices of at most this many cycles; between slices the runner checks
/// `tohost` and the retired-instruction budget.
const SLICE: u64 = 1 << 20;

const EXIT_HELP: &str = "Exit status: 0 pass (tohost = 1) or halted at ebreak; n: the program \
reported failure n through tohost (clamped to 1..=255); 2: load error, bad argument or hart \
error; 3: --max-insns reached.";

#[derive(clap::Args)]
#[command(after_help = EXIT_HELP)]
pub struct RiscvArgs {
    /// A bare-metal 32-bit little-endian RISC-V ELF executable.
    pub file: PathBuf,
    /// Stop after this many retired instructions (exit status 3).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_INSNS)]
    pub max_insns: u64,
    /// Print each executed instruction (pc, word, disassembly) on stdout.
    #[arg(long)]
    pub trace: bool,
    /// RAM as BASE:SIZE, hex (0x…) or decimal, SIZE may end in K or M. Default: 64 MiB from the
    /// lowest load address rounded down to 1 MiB. Accesses outside it are access faults.
    #[arg(long, value_name = "BASE:SIZE", value_parser = parse_ram)]
    pub ram: Option<RamSpec>,
    /// After the run, print the memory of a symbol as little-endian hex words; BYTES defaults to
    /// the symbol's size. May be repeated.
    #[arg(long, value_name = "SYMBOL[:BYTES]")]
    pub dump: Vec<String>,
}

/// The RAM window given with `--ram`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RamSpec {
    pub base: u32,
    pub size: u64,
}

fn parse_num(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, scale) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 1u64 << 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 1u64 << 20),
        _ => (s, 1),
    };
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(&hex.replace('_', ""), 16),
        None => digits.replace('_', "").parse::<u64>(),
    }
    .map_err(|_| format!("{s:?} is not a number (hex with 0x, or decimal)"))?;
    v.checked_mul(scale)
        .ok_or_else(|| format!("{s:?} is too large"))
}

/// `BASE:SIZE` → [`RamSpec`], refusing windows that leave the 32-bit address space.
fn parse_ram(s: &str) -> Result<RamSpec, String> {
    let (b, z) = s
        .split_once(':')
        .ok_or("expected BASE:SIZE, e.g. 0x80000000:64M")?;
    let base = parse_num(b)?;
    let size = parse_num(z)?;
    let base = u32::try_from(base).map_err(|_| format!("base 0x{base:x} is above 4 GiB"))?;
    if size == 0 {
        return Err("size must not be zero".into());
    }
    if size > MAX_RAM_SIZE {
        return Err(format!(
            "size 0x{size:x} exceeds the 1 GiB limit of the flat RAM"
        ));
    }
    if u64::from(base) + size > 1 << 32 {
        return Err(format!(
            "0x{base:08x} + 0x{size:x} runs past the 32-bit address space"
        ));
    }
    Ok(RamSpec { base, size })
}

/// The default RAM window for an image (see [`DEFAULT_RAM_SIZE`]), cut at 4 GiB.
fn default_ram(image: &ElfImage) -> RamSpec {
    let base = image.lowest_addr() & !(RAM_ALIGN - 1);
    let size = DEFAULT_RAM_SIZE.min((1u64 << 32) - u64::from(base));
    RamSpec { base, size }
}

fn err(e: impl std::fmt::Display) -> CliError {
    CliError::new(e.to_string())
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ending {
    Pass,
    /// tohost = (n << 1) | 1.
    Fail(u32),
    /// An even, non-zero tohost value: riscv-tests use those for the syscall proxy, which bhemu
    /// does not provide.
    TohostOther(u32),
    Ebreak {
        pc: u32,
    },
    /// Another halt the hart reported (its debug text).
    Halted(String),
    MaxInsns,
    HartError(String),
}

impl Ending {
    fn exit_code(&self) -> ExitCode {
        match self {
            Ending::Pass | Ending::Ebreak { .. } | Ending::Halted(_) => ExitCode::SUCCESS,
            Ending::Fail(n) => ExitCode::from((*n).clamp(1, 255) as u8),
            Ending::TohostOther(_) | Ending::HartError(_) => ExitCode::from(EXIT_ERROR),
            Ending::MaxInsns => ExitCode::from(EXIT_MAX_INSNS),
        }
    }

    fn message(&self, max_insns: u64) -> String {
        match self {
            Ending::Pass => "pass (tohost = 1)".to_string(),
            Ending::Fail(n) => format!("FAIL: the program reported failure {n} (tohost = {})", (n << 1) | 1),
            Ending::TohostOther(v) => {
                format!("tohost = 0x{v:08x} is neither pass nor failure (syscall proxy unsupported)")
            }
            Ending::Ebreak { pc } => format!("halted at ebreak, pc=0x{pc:08x}"),
            Ending::Halted(why) => format!("halted: {why}"),
            Ending::MaxInsns => format!(
                "stopped: {max_insns} instructions retired without an ending (--max-insns; exit status 3)"
            ),
            Ending::HartError(e) => format!("hart error: {e}"),
        }
    }
}

/// Figures printed after every run.
struct Stats {
    instret: u64,
    cycles: u64,
    wall: Duration,
}

impl Stats {
    fn mips(&self) -> f64 {
        let s = self.wall.as_secs_f64();
        if s > 0.0 {
            self.instret as f64 / s / 1e6
        } else {
            0.0
        }
    }

    fn line(&self) -> String {
        format!(
            "{} instructions retired, {} cycles, {:.3} s wall, {:.1} MIPS",
            group(self.instret),
            group(self.cycles),
            self.wall.as_secs_f64(),
            self.mips()
        )
    }
}

/// 1234567 → "1,234,567".
fn group(n: u64) -> String {
    let digits = n.to_string().into_bytes();
    let groups: Vec<String> = digits
        .rchunks(3)
        .rev()
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    groups.join(",")
}

/// One hart on one flat RAM holding a loaded image.
struct Machine {
    ram: FlatRam,
    hart: Hart,
}

impl Machine {
    fn new(image: &ElfImage, ram: Option<RamSpec>) -> Result<Machine, CliError> {
        let spec = ram.unwrap_or_else(|| default_ram(image));
        image.check_fits(spec.base, spec.size).map_err(err)?;
        let mut ram = FlatRam::new(spec.base, spec.size as u32);
        for seg in &image.segments {
            // The bss part (mem_size beyond the file bytes) is already zero in a fresh RAM.
            ram.load_bytes(seg.addr, &seg.data).map_err(|f| {
                CliError::new(format!(
                    "{}: loading segment at 0x{:08x}: {}",
                    image.file, seg.addr, f.reason
                ))
            })?;
        }
        if let Some(t) = image.symbol("tohost") {
            ram.set_tohost(t.addr);
        }
        let hart = Hart::new(HartConfig {
            reset_pc: image.entry,
            ..HartConfig::default()
        });
        Ok(Machine { ram, hart })
    }

    fn tohost_ending(&self) -> Option<Ending> {
        match self.ram.tohost_value()? {
            0 => None,
            1 => Some(Ending::Pass),
            v if v & 1 == 1 => Some(Ending::Fail(v >> 1)),
            v => Some(Ending::TohostOther(v)),
        }
    }

    /// Run until tohost is written, the hart halts or fails, or `max_insns` retire. With `trace`,
    /// the hart's trace hook prints every executed instruction (`pc:\tword\tmnemonic\toperands`,
    /// like `bhemu disasm --riscv`; a trapping one is marked) on stdout.
    fn run(&mut self, max_insns: u64, trace: bool) -> (Ending, Stats) {
        if trace {
            // BufWriter: one write per line would dominate the run; it flushes when the hook
            // is dropped below. Write errors (a closed pipe) are ignored: the run goes on.
            let mut out = std::io::BufWriter::new(std::io::stdout());
            self.hart
                .set_trace_hook(Some(Box::new(move |t: &bhemu_rv::TraceRecord| {
                    let d = bhemu_isa::riscv::disassemble(t.word, t.pc);
                    let mark = if t.retired { "" } else { "\t(trapped)" };
                    let line = format!(
                        "{:08x}:\t{:08x}\t{}\t{}",
                        t.pc, t.word, d.mnemonic, d.operands
                    );
                    let _ = writeln!(out, "{}{mark}", line.trim_end());
                })));
        }
        let start = Instant::now();
        let ending = self.run_until_end(max_insns);
        let wall = start.elapsed();
        self.hart.set_trace_hook(None);
        let _ = std::io::stdout().flush();
        (
            ending,
            Stats {
                instret: self.hart.instret(),
                cycles: self.hart.cycles(),
                wall,
            },
        )
    }

    fn run_until_end(&mut self, max_insns: u64) -> Ending {
        loop {
            if let Some(e) = self.tohost_ending() {
                return e;
            }
            let done = self.hart.instret();
            if done >= max_insns {
                return Ending::MaxInsns;
            }
            // FlatRam stops the hart on a store to tohost (RunExit::Stop); slicing the budget
            // keeps `--max-insns` counting retired instructions even when the bus stalls.
            let budget = (max_insns - done).min(SLICE);
            match self.hart.run(&mut self.ram, budget) {
                RunExit::MaxInsns | RunExit::Stop => {}
                RunExit::Halted(h) => {
                    return self.tohost_ending().unwrap_or_else(|| self.halt_ending(&h))
                }
                RunExit::Error(e) => return Ending::HartError(e.to_string()),
            }
        }
    }

    fn halt_ending(&self, h: &bhemu_rv::HaltReason) -> Ending {
        match h {
            bhemu_rv::HaltReason::Ebreak { pc } => Ending::Ebreak { pc: *pc },
            #[allow(unreachable_patterns)]
            other => Ending::Halted(format!("{other:?}")),
        }
    }

    /// `len` bytes from `addr`, or None where the RAM refuses.
    fn read_bytes(&mut self, addr: u32, len: u32) -> Option<Vec<u8>> {
        (0..len)
            .map(|i| match self.ram.load(addr.wrapping_add(i), Width::Byte) {
                Access::Done(v) => Some(v as u8),
                _ => None,
            })
            .collect()
    }

    fn read_words(&mut self, addr: u32, count: u32) -> Option<Vec<u32>> {
        let bytes = self.read_bytes(addr, count.checked_mul(4)?)?;
        Some(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        )
    }
}

/// A `--dump` request resolved against the symbol table.
struct Dump {
    name: String,
    addr: u32,
    bytes: u32,
}

fn parse_dump(spec: &str, image: &ElfImage) -> Result<Dump, CliError> {
    let (name, bytes) = match spec.rsplit_once(':') {
        Some((n, b)) => {
            let b = parse_num(b).map_err(|e| CliError::new(format!("--dump {spec}: {e}")))?;
            let b = u32::try_from(b)
                .ok()
                .filter(|b| *b <= MAX_RAM_SIZE as u32)
                .ok_or_else(|| CliError::new(format!("--dump {spec}: byte count too large")))?;
            (n, Some(b))
        }
        None => (spec, None),
    };
    let sym = image.symbol(name).ok_or_else(|| {
        CliError::new(format!(
            "--dump {spec}: no symbol {name:?} in {}",
            image.file
        ))
    })?;
    let bytes = bytes.unwrap_or(if sym.size == 0 { 4 } else { sym.size });
    Ok(Dump {
        name: name.to_string(),
        addr: sym.addr,
        bytes,
    })
}

/// `<name> @ 0x80001000, 8 bytes` then lines `  80001000: 00000001 00000002` (4 words a line;
/// a final partial word is zero-padded). tests/common/riscv.rs parses this.
fn format_dump(d: &Dump, m: &mut Machine) -> String {
    let mut s = format!("<{}> @ 0x{:08x}, {} bytes\n", d.name, d.addr, d.bytes);
    let Some(mut bytes) = m.read_bytes(d.addr, d.bytes) else {
        let _ = writeln!(s, "  (outside RAM)");
        return s;
    };
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    for (i, line) in bytes.chunks(16).enumerate() {
        let _ = write!(s, "  {:08x}:", d.addr.wrapping_add(16 * i as u32));
        for w in line.chunks_exact(4) {
            let _ = write!(s, " {:08x}", u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        }
        s.push('\n');
    }
    s
}

pub fn run(a: RiscvArgs) -> Result<ExitCode, CliError> {
    let image = ElfImage::read(&a.file).map_err(err)?;
    // Resolve --dump before running so that a typo does not cost a long run.
    let dumps = a
        .dump
        .iter()
        .map(|d| parse_dump(d, &image))
        .collect::<Result<Vec<_>, _>>()?;
    if image.flags & bhemu_chip::elf::EF_RISCV_RVC != 0 {
        eprintln!(
            "bhemu: warning: {} is marked as using compressed (RVC) instructions, which the baby cores lack",
            image.file
        );
    }
    let mut m = Machine::new(&image, a.ram)?;
    let (ending, stats) = m.run(a.max_insns, a.trace);
    let mut out = String::new();
    for d in &dumps {
        out.push_str(&format_dump(d, &mut m));
    }
    print!("{out}");
    let _ = std::io::stdout().flush();
    eprintln!("bhemu: {}: {}", image.file, ending.message(a.max_insns));
    eprintln!("bhemu: {}", stats.line());
    Ok(ending.exit_code())
}

// ---------------------------------------------------------------------------------------------
// The built-in demo

/// examples/riscv/demo.c built by scripts/build-riscv-demo.sh; committed so that `bhemu demo`
/// needs no cross compiler.
static DEMO_ELF: &[u8] = include_bytes!("../assets/riscv-demo.elf");
const DEMO_NAME: &str = "riscv-demo.elf (built in, from examples/riscv/demo.c)";
const DEMO_MAX_INSNS: u64 = 100_000_000;

/// The values demo.c reports, in order, with how to show them.
const DEMO_RESULTS: [(&str, bool); 6] = [
    ("CRC-32 of \"123456789\" (expect 0xcbf43926)", true),
    ("CRC-32 of 2 KiB of xorshift32 bytes", true),
    ("sorted 256 keys: smallest", false),
    ("sorted 256 keys: largest", false),
    ("FNV-1a of the sorted keys", true),
    ("trace of A·A, A a 12x12 int32 matrix", false),
];

/// Run the embedded demo program and print a short summary. Exit status 0 when it passes.
pub fn run_demo() -> Result<ExitCode, CliError> {
    let image = ElfImage::parse(DEMO_ELF, DEMO_NAME).map_err(err)?;
    let mut m = Machine::new(&image, None)?;
    let (ending, stats) = m.run(DEMO_MAX_INSNS, false);
    // Indented to sit under a heading printed by `bhemu demo` (cmd_demo.rs).
    let mut s = String::new();
    let _ = writeln!(s, "   {DEMO_NAME}:");
    let _ = writeln!(
        s,
        "   CRC-32, a Shell sort and a 12x12 matrix multiply on one RV32IM hart"
    );
    let results = image
        .symbol("results_len")
        .and_then(|l| m.read_words(l.addr, 1))
        .and_then(|l| l.first().copied())
        .zip(image.symbol("results").map(|r| r.addr))
        .and_then(|(n, addr)| m.read_words(addr, n.min(DEMO_RESULTS.len() as u32)));
    match results {
        Some(values) => {
            for ((label, hex), v) in DEMO_RESULTS.iter().zip(values) {
                if *hex {
                    let _ = writeln!(s, "   {label:<44} 0x{v:08x}");
                } else {
                    let _ = writeln!(s, "   {label:<44} {}", v as i32);
                }
            }
        }
        None => {
            let _ = writeln!(s, "   (no results: the program did not get far enough)");
        }
    }
    let verdict = match ending {
        Ending::Pass => "PASS (every self-check held; tohost = 1)".to_string(),
        ref other => format!("FAILED: {}", other.message(DEMO_MAX_INSNS)),
    };
    let _ = writeln!(s, "   result: {verdict}");
    let _ = writeln!(s, "   {}", stats.line());
    let _ = writeln!(
        s,
        "   your own programs: bhemu riscv FILE.elf; bhemu disasm --riscv FILE.elf"
    );
    print!("{s}");
    let _ = std::io::stdout().flush();
    Ok(match ending {
        Ending::Pass => ExitCode::SUCCESS,
        other => match other.exit_code() {
            c if c == ExitCode::SUCCESS => ExitCode::from(1),
            c => c,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ram_spec_parsing() {
        assert_eq!(
            parse_ram("0x80000000:64M"),
            Ok(RamSpec {
                base: 0x8000_0000,
                size: 64 << 20
            })
        );
        assert_eq!(
            parse_ram("0:1048576"),
            Ok(RamSpec {
                base: 0,
                size: 1 << 20
            })
        );
        assert_eq!(
            parse_ram("0x1000:0x2000"),
            Ok(RamSpec {
                base: 0x1000,
                size: 0x2000
            })
        );
        assert!(parse_ram("0x80000000").is_err());
        assert!(parse_ram("0xfff00000:2M").is_err());
        assert!(parse_ram("0x100000000:1M").is_err());
        assert!(parse_ram("0:0").is_err());
        assert!(parse_ram("zz:1M").is_err());
        assert!(parse_ram("0:99999999999999999999999").is_err());
        assert!(parse_ram("0:2048M").is_err());
    }

    #[test]
    fn grouping() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1234567), "1,234,567");
    }

    #[test]
    fn embedded_demo_parses() {
        let img = ElfImage::parse(DEMO_ELF, "demo").expect("embedded demo ELF");
        assert!(img.symbol("tohost").is_some() && img.symbol("results").is_some());
        let ram = default_ram(&img);
        assert_eq!(ram.base, 0x8000_0000);
        assert!(img.check_fits(ram.base, ram.size).is_ok());
    }
}
