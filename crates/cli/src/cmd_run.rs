//! `bhemu run PROGRAM.toml`: boot tt-metal's firmware, launch a program of kernels built by the
//! kernel kit (`scripts/kernel-kit/build.sh`) on a set of tiles with local circular buffers,
//! feed its inputs, read its outputs and compare them with a reference.
//!
//! ```toml
//! tiles = "1"                      # all | p100 | N | "x,y;x,y"
//! max_cycles = 1000000             # per phase (boot, run)
//! kit = "target/kernel-kit"        # where the kit's ELFs are (NAME/brisc.elf, ...)
//! firmware = ".cache/ttnn/firmware/blackhole-140"
//!
//! [kernels]                        # kit kernel names; compute runs on TRISC0/1/2
//! brisc = "reader"
//! ncrisc = "writer"
//! compute = "copy"
//!
//! [[cb]]
//! index = 0
//! format = "bf16"
//! page_size = 2048
//! pages = 2
//!
//! [args]                           # per processor; strings are resolved per tile
//! brisc = ["dram_x", "dram_y", "in", "in.pages", "in.page_size", 0]
//!
//! [[input]]                        # one buffer per tile in DRAM bank 0
//! name = "in"
//! format = "bf16"                  # bf16 | fp32 | u32 | u8
//! pages = 4
//! page_size = 2048
//! random = 7                       # seed; or values = [..] or file = "in.bin"
//!
//! [[output]]
//! name = "out"
//! format = "bf16"
//! pages = 4
//! page_size = 2048
//! reference = "copy(in)"           # copy | relu (x) ; add | sub | mul | matmul (a, b) ; or file = ".."
//!                                   # the SFPU examples' ops: crate::sfpu_ref::OPS (x)
//! ```
//! Arg strings: `dram_x`, `dram_y` (DRAM bank 0's NoC coordinates), a buffer name (its address on
//! this tile), `NAME.pages`, `NAME.page_size`, `tile_index`, `tile_x`, `tile_y`.
//!
//! Output: per output the verdict (bit-exact, max ulp for floating-point formats, PCC), the
//! simulated cycles, wall time and simulated cycles per second; `--json` prints one JSON object.
//! Errors in the description are one line naming the field. Exit status: 0 every output matches
//! bit for bit; 1 an output differs; 2 bad input or an emulation error; 3 the cycle limit hit
//! (the report names each stuck core, its pc and the CB it waits on).
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Firmware};
use bhemu_chip::launch::{self, KernelImage, LocalCb, TileProgram, DATA_BASE};
use bhemu_chip::{grid, Chip, ChipConfig, Core};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use serde::Deserialize;

use crate::run_reference::{self as model, Math};
use crate::CliError;

const EXIT_MISMATCH: u8 = 1;
const EXIT_CYCLE_LIMIT: u8 = 3;
/// DRAM bank 0, port 0, in translated NoC coordinates (tt-umd's Blackhole layout).
const DRAM_X: u32 = 17;
const DRAM_Y: u32 = 12;
/// Where the per-tile buffers start in DRAM bank 0.
const DRAM_BASE: u64 = 0x10_0000;

#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 outputs bit-exact; 1 an output differs; 2 bad input or emulation error; 3 cycle limit."
)]
pub struct RunArgs {
    /// The program description (TOML).
    pub program: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Kernel-kit output directory (overrides the program's `kit`).
    #[arg(long, value_name = "DIR")]
    pub kit: Option<PathBuf>,
    /// Firmware directory, flat or tt-metal's per-core layout (overrides `firmware`).
    #[arg(long, value_name = "DIR")]
    pub firmware: Option<PathBuf>,
    #[command(flatten)]
    pub trace: crate::trace_args::TraceArgs,
    /// Serve gdb on 127.0.0.1:PORT for the run: each hart of --gdb-tiles is a thread
    /// (docs/gdb.md).
    #[arg(long, value_name = "PORT")]
    pub gdb: Option<u16>,
    /// Tiles whose harts gdb sees, `x,y;x,y...` (default: the program's tiles).
    #[arg(long, value_name = "TILES", requires = "gdb")]
    pub gdb_tiles: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Program {
    #[serde(default = "default_tiles")]
    tiles: String,
    #[serde(default = "default_max_cycles")]
    max_cycles: u64,
    #[serde(default = "default_kit")]
    kit: PathBuf,
    #[serde(default = "default_firmware")]
    firmware: PathBuf,
    kernels: Kernels,
    #[serde(default)]
    cb: Vec<Cb>,
    #[serde(default)]
    args: Args,
    #[serde(default)]
    input: Vec<Buffer>,
    #[serde(default)]
    output: Vec<Buffer>,
    #[serde(default)]
    math: MathSettings,
}

/// `[math]`: the Matrix Unit settings the compute kernel was built with (the kit's
/// `chlkc_descriptors.h`), which the references of `add`/`sub`/`mul`/`matmul` model.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MathSettings {
    /// LoFi | HiFi2 | HiFi3 | HiFi4
    #[serde(default = "default_fidelity")]
    fidelity: String,
    /// bf16 | fp32 (tt-metal's `fp32_dest_acc_en`)
    #[serde(default = "default_dst")]
    dst: String,
    /// `matmul` block shape in tiles, M, K, N (default 1, 1, 1)
    #[serde(default = "default_mkn")]
    matmul_tiles: [usize; 3],
}

fn default_mkn() -> [usize; 3] {
    [1, 1, 1]
}

impl Default for MathSettings {
    fn default() -> Self {
        MathSettings {
            fidelity: default_fidelity(),
            dst: default_dst(),
            matmul_tiles: default_mkn(),
        }
    }
}

fn default_fidelity() -> String {
    "HiFi4".into()
}
fn default_dst() -> String {
    "bf16".into()
}

impl MathSettings {
    fn parse(&self) -> Result<Math, CliError> {
        let phases = match self.fidelity.as_str() {
            "LoFi" => 1,
            "HiFi2" => 2,
            "HiFi3" => 3,
            "HiFi4" => 4,
            f => {
                return Err(CliError::new(format!(
                    "math.fidelity: '{f}' is not LoFi, HiFi2, HiFi3 or HiFi4"
                )))
            }
        };
        let dst_fp32 = match self.dst.as_str() {
            "bf16" => false,
            "fp32" => true,
            d => {
                return Err(CliError::new(format!(
                    "math.dst: '{d}' is not bf16 or fp32"
                )))
            }
        };
        if self.matmul_tiles.contains(&0) {
            return Err(CliError::new(
                "math.matmul_tiles: M, K and N must be at least 1",
            ));
        }
        Ok(Math {
            mkn: self.matmul_tiles,
            phases,
            dst_fp32,
        })
    }
}

fn default_tiles() -> String {
    "1".into()
}
fn default_max_cycles() -> u64 {
    1_000_000
}
fn default_kit() -> PathBuf {
    "target/kernel-kit".into()
}
fn default_firmware() -> PathBuf {
    ".cache/ttnn/firmware/blackhole-140".into()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Kernels {
    brisc: Option<String>,
    ncrisc: Option<String>,
    compute: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cb {
    index: u8,
    #[serde(default = "default_format")]
    format: String,
    page_size: u32,
    pages: u32,
}

fn default_format() -> String {
    "bf16".into()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Args {
    #[serde(default)]
    brisc: Vec<Arg>,
    #[serde(default)]
    ncrisc: Vec<Arg>,
    #[serde(default)]
    compute: Vec<Arg>,
}

#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum Arg {
    Int(u32),
    Name(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Buffer {
    name: String,
    #[serde(default = "default_format")]
    format: String,
    pages: u32,
    #[serde(default = "default_page")]
    page_size: u32,
    random: Option<u32>,
    values: Option<Vec<f64>>,
    file: Option<PathBuf>,
    reference: Option<String>,
}

fn default_page() -> u32 {
    2048
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Format {
    Bf16,
    Fp32,
    U32,
    U8,
}

impl Format {
    fn parse(s: &str, field: &str) -> Result<Format, CliError> {
        match s {
            "bf16" | "Float16_b" => Ok(Format::Bf16),
            "fp32" | "Float32" => Ok(Format::Fp32),
            "u32" | "UInt32" => Ok(Format::U32),
            "u8" | "UInt8" => Ok(Format::U8),
            _ => Err(CliError::new(format!(
                "{field}: unknown format '{s}' (bf16, fp32, u32, u8)"
            ))),
        }
    }
    fn bytes(self) -> usize {
        match self {
            Format::Bf16 => 2,
            Format::Fp32 | Format::U32 => 4,
            Format::U8 => 1,
        }
    }
    fn float(self) -> bool {
        matches!(self, Format::Bf16 | Format::Fp32)
    }
}

/// f32 → bf16 with round-to-nearest-even (NaN kept quiet).
fn f32_to_bf16(v: f32) -> u16 {
    let b = v.to_bits();
    if v.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    let round = 0x7FFF + ((b >> 16) & 1);
    (b.wrapping_add(round) >> 16) as u16
}

fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// Element `i` of `bytes` in `f` as f64.
fn element(f: Format, bytes: &[u8], i: usize) -> f64 {
    let b = &bytes[i * f.bytes()..(i + 1) * f.bytes()];
    match f {
        Format::Bf16 => f64::from(bf16_to_f32(u16::from_le_bytes([b[0], b[1]]))),
        Format::Fp32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Format::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Format::U8 => f64::from(b[0]),
    }
}

fn encode(f: Format, v: f64, out: &mut Vec<u8>) {
    match f {
        Format::Bf16 => out.extend_from_slice(&f32_to_bf16(v as f32).to_le_bytes()),
        Format::Fp32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
        Format::U32 => out.extend_from_slice(&(v as u32).to_le_bytes()),
        Format::U8 => out.push(v as u8),
    }
}

/// Seeded inputs: floats uniform in [-2, 2), integers uniform over their range (xorshift32).
fn random_data(f: Format, seed: u32, n_bytes: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9) | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let mut out = Vec::with_capacity(n_bytes);
    while out.len() < n_bytes {
        let r = next();
        match f {
            Format::Bf16 | Format::Fp32 => encode(
                f,
                f64::from(r >> 8) / f64::from(1u32 << 24) * 4.0 - 2.0,
                &mut out,
            ),
            Format::U32 => out.extend_from_slice(&r.to_le_bytes()),
            Format::U8 => out.push(r as u8),
        }
    }
    out.truncate(n_bytes);
    out
}

/// A parsed `reference = "op(a, b)"`.
struct Reference {
    op: String,
    operands: Vec<String>,
}

fn parse_reference(s: &str, field: &str) -> Result<Reference, CliError> {
    let bad = || {
        CliError::new(format!(
            "{field}: '{s}' is not OP(INPUT[, INPUT]) with OP one of copy, relu, add, sub, mul, matmul, {}", crate::sfpu_ref::OPS.join(", ")
        ))
    };
    let (op, rest) = s.split_once('(').ok_or_else(bad)?;
    let inner = rest.strip_suffix(')').ok_or_else(bad)?;
    let operands: Vec<String> = inner.split(',').map(|x| x.trim().to_string()).collect();
    let arity = match op.trim() {
        "copy" | "relu" => 1,
        op if crate::sfpu_ref::OPS.contains(&op) => 1,
        "add" | "sub" | "mul" | "matmul" => 2,
        _ => return Err(bad()),
    };
    if operands.len() != arity || operands.iter().any(|o| o.is_empty()) {
        return Err(bad());
    }
    Ok(Reference {
        op: op.trim().to_string(),
        operands,
    })
}

/// Index of element (r, c) of a 32x32 tile stored as four 16x16 row-major faces.
fn tile_index(r: usize, c: usize) -> usize {
    ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16
}

/// The reference output for one tile's buffers, computed in f64 from the documented meaning of
/// each op and rounded once into the output format.
fn reference_output(
    r: &Reference,
    ins: &[(Format, &[u8])],
    out_f: Format,
    n: usize,
    math: Math,
) -> Vec<u8> {
    let all_bf16 = out_f == Format::Bf16 && ins.iter().all(|(f, _)| *f == Format::Bf16);
    // Only the Matrix Unit's ops take the Matrix Unit's model; copy, relu and the SFPU ops
    // (`sfpu_ref`) are computed below.
    if all_bf16 && matches!(r.op.as_str(), "add" | "sub" | "mul" | "matmul") {
        return matrix_unit_reference(r, ins, n, math);
    }
    let mut out = Vec::with_capacity(n * out_f.bytes());
    let a = |i| element(ins[0].0, ins[0].1, i);
    let b = |i| element(ins[1].0, ins[1].1, i);
    match r.op.as_str() {
        "matmul" => {
            for t in 0..n / 1024 {
                for row in 0..32 {
                    for col in 0..32 {
                        let mut acc = 0.0;
                        for k in 0..32 {
                            acc +=
                                a(t * 1024 + tile_index(row, k)) * b(t * 1024 + tile_index(k, col));
                        }
                        let _ = (row, col);
                        encode(out_f, acc, &mut out);
                    }
                }
                // Re-order this tile's row-major results into faces.
                let start = out.len() - 1024 * out_f.bytes();
                let rm: Vec<u8> = out[start..].to_vec();
                let w = out_f.bytes();
                for row in 0..32 {
                    for col in 0..32 {
                        let dst = start + tile_index(row, col) * w;
                        let src = (row * 32 + col) * w;
                        out[dst..dst + w].copy_from_slice(&rm[src..src + w]);
                    }
                }
            }
        }
        op => {
            for i in 0..n {
                let v = match op {
                    "copy" => a(i),
                    "relu" => a(i).max(0.0),
                    "add" => a(i) + b(i),
                    "sub" => a(i) - b(i),
                    "mul" => a(i) * b(i),
                    other => match crate::sfpu_ref::value(other, &a, n, i) {
                        // The kernels leave BF16 in Dst; the packer's BF16 → BF16 early
                        // conversion (rounding: NaN becomes infinity, exponent 0 becomes +0)
                        // writes it to L1. Kept as bits: an f64 would quiet a signalling NaN.
                        Some(h) if out_f == Format::Bf16 => {
                            let packed = model::pack_to_bf16(f32::from_bits(u32::from(h) << 16));
                            out.extend_from_slice(&packed.to_le_bytes());
                            continue;
                        }
                        Some(h) => f64::from(f32::from_bits(u32::from(h) << 16)),
                        None => f64::NAN,
                    },
                };
                encode(out_f, v, &mut out);
            }
        }
    }
    out
}

/// `BHEMU_RUN_DUMP=DIR`: each output tile's bytes and its reference are written to
/// `DIR/NAME.TILE.{got,want}.bin` for diagnosing a difference; failures to write are ignored
/// (diagnostics only, the verdict is unaffected).
fn dump_for_diagnosis(name: &str, tile: usize, got: &[u8], want: &[u8]) {
    if let Some(dir) = std::env::var_os("BHEMU_RUN_DUMP") {
        let dir = Path::new(&dir);
        let _ = std::fs::write(dir.join(format!("{name}.{tile}.got.bin")), got);
        let _ = std::fs::write(dir.join(format!("{name}.{tile}.want.bin")), want);
    }
}

/// `add`/`sub`/`mul`/`matmul` of bf16 tiles as the Matrix Unit computes them into `Dst` and the
/// packer writes them out (`run_reference`), tile by tile (32x32, four row-major 16x16 faces).
fn matrix_unit_reference(r: &Reference, ins: &[(Format, &[u8])], n: usize, math: Math) -> Vec<u8> {
    let h = |k: usize, i: usize| u16::from_le_bytes([ins[k].1[2 * i], ins[k].1[2 * i + 1]]);
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        let v = match r.op.as_str() {
            "add" => model::elw_add(math, h(0, i), h(1, i), false),
            "sub" => model::elw_add(math, h(0, i), h(1, i), true),
            "mul" => model::elw_mul(math, h(0, i), h(1, i)),
            _ => {
                // Block b of the output, tile o of it (row-major M x N), datum e of the tile.
                let [mt, kt, nt] = math.mkn;
                let (b, o, e) = (i / (1024 * mt * nt), i / 1024 % (mt * nt), i % 1024);
                let (tr, tc) = (o / nt, o % nt);
                let (row, col) = ((e / 512) * 16 + (e % 256) / 16, (e / 256 % 2) * 16 + e % 16);
                let a0 = b * mt * kt * 1024;
                let b0 = b * kt * nt * 1024;
                model::matmul_datum(
                    math,
                    kt,
                    |k, x| h(0, a0 + (tr * kt + k) * 1024 + tile_index(row, x)),
                    |k, x| h(1, b0 + (k * nt + tc) * 1024 + tile_index(x, col)),
                )
            }
        };
        out.extend_from_slice(&model::pack_to_bf16(v).to_le_bytes());
    }
    out
}

/// Distance in units of the last place between two values of `f` (bit patterns ordered as
/// sign-magnitude integers).
fn ulp_distance(f: Format, a: &[u8], b: &[u8]) -> u64 {
    let ordered = |bits: u64, width: u32| -> i64 {
        let sign = 1u64 << (width - 1);
        if bits & sign != 0 {
            -((bits & (sign - 1)) as i64)
        } else {
            bits as i64
        }
    };
    match f {
        Format::Bf16 => {
            let x = ordered(u64::from(u16::from_le_bytes([a[0], a[1]])), 16);
            let y = ordered(u64::from(u16::from_le_bytes([b[0], b[1]])), 16);
            x.abs_diff(y)
        }
        Format::Fp32 => {
            let x = ordered(u64::from(u32::from_le_bytes([a[0], a[1], a[2], a[3]])), 32);
            let y = ordered(u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])), 32);
            x.abs_diff(y)
        }
        _ => u64::from(a != b),
    }
}

/// Pearson correlation of two equally long series (1 when both are constant and equal).
fn pcc(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    if x.is_empty() {
        return 1.0;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return if x == y { 1.0 } else { 0.0 };
    }
    sxy / (sxx * syy).sqrt()
}

#[derive(serde::Serialize)]
struct Verdict {
    name: String,
    reference: String,
    bit_exact: bool,
    max_ulp: Option<u64>,
    pcc: f64,
    mismatched_tiles: usize,
}

fn err(e: impl std::fmt::Display) -> CliError {
    CliError::new(e.to_string())
}

/// A buffer's bytes on every tile.
fn input_bytes(b: &Buffer, i: usize, f: Format, base: &Path) -> Result<Vec<u8>, CliError> {
    let field = format!("input[{i}] ({})", b.name);
    let n = b.pages as usize * b.page_size as usize;
    let given = [b.random.is_some(), b.values.is_some(), b.file.is_some()];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(CliError::new(format!(
            "{field}: give exactly one of random, values, file"
        )));
    }
    if let Some(seed) = b.random {
        return Ok(random_data(f, seed, n));
    }
    if let Some(v) = &b.values {
        let mut out = Vec::new();
        for x in v.iter().cycle().take(n / f.bytes()) {
            encode(f, *x, &mut out);
        }
        out.resize(n, 0);
        return Ok(out);
    }
    let path = base.join(b.file.as_deref().unwrap_or(Path::new("")));
    let data = std::fs::read(&path)
        .map_err(|e| CliError::new(format!("{field}.file: {}: {e}", path.display())))?;
    if data.len() != n {
        return Err(CliError::new(format!(
            "{field}.file: {} has {} bytes, pages × page_size is {n}",
            path.display(),
            data.len()
        )));
    }
    Ok(data)
}

struct Layout {
    /// Per buffer name: (address offset within a tile's region, pages, page size).
    buffers: BTreeMap<String, (u64, u32, u32)>,
    per_tile: u64,
}

fn layout(p: &Program) -> Result<Layout, CliError> {
    let mut buffers = BTreeMap::new();
    let mut off = 0u64;
    for (kind, list) in [("input", &p.input), ("output", &p.output)] {
        for (i, b) in list.iter().enumerate() {
            if b.pages == 0 || b.page_size == 0 || b.page_size % 16 != 0 {
                return Err(CliError::new(format!(
                    "{kind}[{i}] ({}): pages must be positive and page_size a positive multiple of 16",
                    b.name
                )));
            }
            if buffers
                .insert(b.name.clone(), (off, b.pages, b.page_size))
                .is_some()
            {
                return Err(CliError::new(format!(
                    "{kind}[{i}].name: '{}' is used twice",
                    b.name
                )));
            }
            off += u64::from(b.pages) * u64::from(b.page_size);
            off = off.next_multiple_of(64);
        }
    }
    Ok(Layout {
        buffers,
        per_tile: off.max(64),
    })
}

fn resolve_arg(
    a: &Arg,
    field: &str,
    l: &Layout,
    tile: usize,
    xy: (u8, u8),
) -> Result<u32, CliError> {
    let name = match a {
        Arg::Int(v) => return Ok(*v),
        Arg::Name(n) => n.as_str(),
    };
    let region = DRAM_BASE + l.per_tile * tile as u64;
    let value = match name {
        "dram_x" => Some(u64::from(DRAM_X)),
        "dram_y" => Some(u64::from(DRAM_Y)),
        "tile_index" => Some(tile as u64),
        "tile_x" => Some(u64::from(xy.0)),
        "tile_y" => Some(u64::from(xy.1)),
        _ => match name.split_once('.') {
            Some((b, "pages")) => l.buffers.get(b).map(|x| u64::from(x.1)),
            Some((b, "page_size")) => l.buffers.get(b).map(|x| u64::from(x.2)),
            Some(_) => None,
            None => l.buffers.get(name).map(|x| region + x.0),
        },
    };
    let v = value.ok_or_else(|| {
        CliError::new(format!(
            "{field}: '{name}' is not a number, dram_x, dram_y, tile_index, tile_x, tile_y, a buffer name, NAME.pages or NAME.page_size"
        ))
    })?;
    u32::try_from(v)
        .map_err(|_| CliError::new(format!("{field}: '{name}' = {v} does not fit in 32 bits")))
}

fn load_kernel(
    kit: &Path,
    name: &str,
    core: Core,
    field: &str,
) -> Result<Arc<KernelImage>, CliError> {
    let file = kit
        .join(name)
        .join(format!("{}.elf", core.name().to_lowercase()));
    let img = ElfImage::read(&file).map_err(|e| {
        CliError::new(format!(
            "{field}: {e} (build the kit with scripts/kernel-kit/build.sh)"
        ))
    })?;
    Ok(Arc::new(
        KernelImage::from_elf(core, &img).map_err(|e| CliError::new(format!("{field}: {e}")))?,
    ))
}

pub fn run(a: RunArgs) -> Result<ExitCode, CliError> {
    let text = std::fs::read_to_string(&a.program)
        .map_err(|e| CliError::new(format!("{}: {e}", a.program.display())))?;
    let p: Program = toml::from_str(&text).map_err(|e| {
        let msg = e.message().to_string();
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        CliError::new(match line {
            Some(l) => format!("{}:{l}: {msg}", a.program.display()),
            None => format!("{}: {msg}", a.program.display()),
        })
    })?;
    let base = a.program.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut p = p;
    if let Some(k) = &a.kit {
        p.kit = k.clone();
    }
    if let Some(f) = &a.firmware {
        p.firmware = f.clone();
    }

    // Kernels.
    let mut kernels: Vec<Arc<KernelImage>> = Vec::new();
    let mut names = Vec::new();
    if let Some(n) = &p.kernels.brisc {
        kernels.push(load_kernel(&p.kit, n, Core::Brisc, "kernels.brisc")?);
        names.push(format!("brisc={n}"));
    }
    if let Some(n) = &p.kernels.ncrisc {
        kernels.push(load_kernel(&p.kit, n, Core::Ncrisc, "kernels.ncrisc")?);
        names.push(format!("ncrisc={n}"));
    }
    if let Some(n) = &p.kernels.compute {
        for c in [Core::Trisc0, Core::Trisc1, Core::Trisc2] {
            kernels.push(load_kernel(&p.kit, n, c, "kernels.compute")?);
        }
        names.push(format!("compute={n}"));
    }
    if kernels.is_empty() {
        return Err(CliError::new(
            "kernels: name at least one of brisc, ncrisc, compute",
        ));
    }

    // CBs, in L1 from DATA_BASE on.
    let mut cbs = Vec::new();
    let mut addr = DATA_BASE;
    for (i, c) in p.cb.iter().enumerate() {
        Format::parse(&c.format, &format!("cb[{i}].format"))?;
        let cb = LocalCb {
            index: c.index,
            addr,
            pages: c.pages,
            page_size: c.page_size,
        };
        addr = addr.saturating_add(cb.size()).next_multiple_of(64);
        cbs.push(cb);
    }
    let l = layout(&p)?;
    let math = p.math.parse()?;
    let in_formats: Vec<Format> = p
        .input
        .iter()
        .enumerate()
        .map(|(i, b)| Format::parse(&b.format, &format!("input[{i}].format")))
        .collect::<Result<_, _>>()?;
    let out_formats: Vec<Format> = p
        .output
        .iter()
        .enumerate()
        .map(|(i, b)| Format::parse(&b.format, &format!("output[{i}].format")))
        .collect::<Result<_, _>>()?;
    let mut refs = Vec::new();
    for (i, o) in p.output.iter().enumerate() {
        let field = format!("output[{i}].reference");
        let r = match (&o.reference, &o.file) {
            (Some(r), None) => {
                let r = parse_reference(r, &field)?;
                let elems =
                    u64::from(o.pages) * u64::from(o.page_size) / out_formats[i].bytes() as u64;
                let [mt, kt, nt] = math.mkn.map(|d| d as u64);
                if r.op == "matmul" && !elems.is_multiple_of(1024 * mt * nt) {
                    return Err(CliError::new(format!(
                        "{field}: matmul needs whole {mt}x{nt}-tile blocks of 32x32 tiles; the output has {elems} elements"
                    )));
                }
                let blocks = elems / (1024 * mt * nt);
                for (k, op) in r.operands.iter().enumerate() {
                    let j =
                        p.input.iter().position(|b| &b.name == op).ok_or_else(|| {
                            CliError::new(format!("{field}: no input named '{op}'"))
                        })?;
                    let want = u64::from(p.input[j].pages) * u64::from(p.input[j].page_size)
                        / in_formats[j].bytes() as u64;
                    let have = match (r.op.as_str(), k) {
                        ("matmul", 0) => blocks * mt * kt * 1024,
                        ("matmul", _) => blocks * kt * nt * 1024,
                        _ => elems,
                    };
                    if r.op == "matmul"
                        && math.mkn != [1, 1, 1]
                        && (in_formats[j] != Format::Bf16 || out_formats[i] != Format::Bf16)
                    {
                        return Err(CliError::new(format!(
                            "{field}: math.matmul_tiles other than [1, 1, 1] needs bf16 inputs and output"
                        )));
                    }
                    if want != have {
                        return Err(CliError::new(format!(
                            "{field}: input '{op}' has {want} elements, {have} expected from the output"
                        )));
                    }
                }
                Some(r)
            }
            (None, Some(_)) | (None, None) => None,
            (Some(_), Some(_)) => {
                return Err(CliError::new(format!(
                    "output[{i}]: give reference or file, not both"
                )))
            }
        };
        refs.push(r);
    }

    // Chip and boot.
    let tiles = grid::parse_tiles(&p.tiles).map_err(|e| CliError::new(format!("tiles: {e}")))?;
    let fw = Firmware::load(&p.firmware).map_err(|e| {
        CliError::new(format!(
            "firmware: {e} (run scripts/fetch-ttnn.sh to fetch the ttnn 0.81.1 firmware)"
        ))
    })?;
    let mut chip = Chip::new(&ChipConfig {
        tiles,
        ..ChipConfig::default()
    })
    .map_err(err)?;
    let t0 = Instant::now();
    let boot = host::boot(
        &mut chip,
        &fw,
        p.max_cycles,
        &mut progress("boot", p.max_cycles, a.json),
    )
    .map_err(|e| CliError::new(format!("boot failed: {e}")))?;
    if !boot.finished {
        return Err(CliError::new(format!(
            "boot did not finish within max_cycles = {}",
            p.max_cycles
        )));
    }

    // Per-tile programs and inputs.
    let coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    let mut programs = Vec::new();
    let mut inputs: Vec<Vec<Vec<u8>>> = Vec::new();
    for (ti, &xy) in coords.iter().enumerate() {
        let region = DRAM_BASE + l.per_tile * ti as u64;
        let mut mine = Vec::new();
        for (i, b) in p.input.iter().enumerate() {
            let mut data = input_bytes(b, i, in_formats[i], &base)?;
            if b.random.is_some() {
                // A different stream per tile, still determined by the seed.
                let seed = b.random.unwrap_or(0).wrapping_add(ti as u32 * 7919);
                data = random_data(in_formats[i], seed, data.len());
            }
            chip.dram_mut()
                .write(0, region + l.buffers[&b.name].0, &data)
                .map_err(|e| CliError::new(format!("input[{i}]: {e}")))?;
            mine.push(data);
        }
        inputs.push(mine);
        let mut tp = TileProgram {
            x: xy.0,
            y: xy.1,
            kernels: kernels.clone(),
            cbs: cbs.clone(),
            ..TileProgram::default()
        };
        for (procs, list, field) in [
            (&[0usize][..], &p.args.brisc, "args.brisc"),
            (&[1usize][..], &p.args.ncrisc, "args.ncrisc"),
            (&[2usize, 3, 4][..], &p.args.compute, "args.compute"),
        ] {
            let vals = list
                .iter()
                .enumerate()
                .map(|(k, a)| resolve_arg(a, &format!("{field}[{k}]"), &l, ti, xy))
                .collect::<Result<Vec<u32>, _>>()?;
            for &pi in procs {
                tp.args[pi] = vals.clone();
            }
        }
        tp.validate()
            .map_err(|e| CliError::new(format!("cb: {e}")))?;
        programs.push(tp);
    }

    // Run (traced when asked: the launch, not the boot).
    a.trace.install(&mut chip)?;
    if let Some(t) = chip.tracer_mut() {
        for tp in &programs {
            for k in &tp.kernels {
                t.name_kernel(tp.x, tp.y, k.core, &k.file);
            }
        }
    }
    let r = match a.gdb {
        Some(port) => {
            let tiles = match &a.gdb_tiles {
                Some(s) => crate::gdb::parse_tiles(s)?,
                None => programs.iter().map(|tp| (tp.x, tp.y)).collect(),
            };
            crate::gdb::launch(
                &mut chip,
                &tiles,
                port,
                p.max_cycles,
                |c| launch::start_program(c, &programs, 1),
                &mut progress("run", p.max_cycles, a.json),
            )
            .map_err(|e| CliError::new(format!("run failed: {}", e.0)))
        }
        None => launch::launch_program(
            &mut chip,
            &programs,
            1,
            p.max_cycles,
            &mut progress("run", p.max_cycles, a.json),
        )
        .map_err(|e| CliError::new(format!("run failed: {e}"))),
    };
    a.trace.finish(&mut chip)?;
    let r = r?;
    let stuck: Vec<String> = if r.finished {
        Vec::new()
    } else {
        launch::stuck_report_for(&chip, &r, &programs)
            .iter()
            .map(|s| s.to_string())
            .collect()
    };

    // Verdicts.
    let mut verdicts = Vec::new();
    if r.finished {
        for (i, o) in p.output.iter().enumerate() {
            let f = out_formats[i];
            let n_bytes = o.pages as usize * o.page_size as usize;
            let n = n_bytes / f.bytes();
            let file_ref = match &o.file {
                Some(file) => Some(
                    std::fs::read(base.join(file))
                        .map_err(|e| CliError::new(format!("output[{i}].file: {e}")))?,
                ),
                None => None,
            };
            let (mut exact, mut max_ulp, mut bad_tiles) = (true, 0u64, 0usize);
            let (mut xs, mut ys) = (Vec::new(), Vec::new());
            let mut compared = false;
            for (ti, tile_inputs) in inputs.iter().enumerate() {
                let region = DRAM_BASE + l.per_tile * ti as u64;
                let mut got = vec![0u8; n_bytes];
                chip.dram()
                    .read(0, region + l.buffers[&o.name].0, &mut got)
                    .map_err(|e| CliError::new(format!("output[{i}]: {e}")))?;
                let want = match (&refs[i], &file_ref) {
                    (Some(rf), _) => {
                        let ins: Vec<(Format, &[u8])> = rf
                            .operands
                            .iter()
                            .map(|op| {
                                let j = p.input.iter().position(|b| &b.name == op).unwrap_or(0);
                                (in_formats[j], tile_inputs[j].as_slice())
                            })
                            .collect();
                        reference_output(rf, &ins, f, n, math)
                    }
                    (None, Some(d)) => d.clone(),
                    (None, None) => continue,
                };
                compared = true;
                if want.len() != got.len() {
                    return Err(CliError::new(format!(
                        "output[{i}].file: {} bytes, the output has {}",
                        want.len(),
                        got.len()
                    )));
                }
                if want != got {
                    exact = false;
                    bad_tiles += 1;
                }
                dump_for_diagnosis(&o.name, ti, &got, &want);
                for e in 0..n {
                    let (a, b) = (&got[e * f.bytes()..], &want[e * f.bytes()..]);
                    max_ulp = max_ulp.max(ulp_distance(f, a, b));
                    xs.push(element(f, &got, e));
                    ys.push(element(f, &want, e));
                }
            }
            if compared {
                verdicts.push(Verdict {
                    name: o.name.clone(),
                    reference: o
                        .reference
                        .clone()
                        .or_else(|| o.file.as_ref().map(|f| f.display().to_string()))
                        .unwrap_or_default(),
                    bit_exact: exact,
                    max_ulp: f.float().then_some(max_ulp),
                    pcc: pcc(&xs, &ys),
                    mismatched_tiles: bad_tiles,
                });
            }
        }
    }
    let wall = t0.elapsed();
    report(
        &a,
        &p,
        &names,
        coords.len(),
        boot.cycles,
        &r,
        wall,
        &verdicts,
        &stuck,
    )?;
    Ok(if !r.finished {
        ExitCode::from(EXIT_CYCLE_LIMIT)
    } else if verdicts.iter().any(|v| !v.bit_exact) {
        ExitCode::from(EXIT_MISMATCH)
    } else {
        ExitCode::SUCCESS
    })
}

#[allow(clippy::too_many_arguments)]
fn report(
    a: &RunArgs,
    p: &Program,
    names: &[String],
    tiles: usize,
    boot_cycles: u64,
    r: &host::RunReport,
    wall: Duration,
    verdicts: &[Verdict],
    stuck: &[String],
) -> Result<(), CliError> {
    let rate = r.cycles as f64 / r.wall.as_secs_f64().max(1e-9);
    if a.json {
        let v = serde_json::json!({
            "program": a.program.display().to_string(),
            "tiles": tiles,
            "kernels": names,
            "boot_cycles": boot_cycles,
            "cycles": r.cycles,
            "finished": r.finished,
            "run_wall_s": r.wall.as_secs_f64(),
            "wall_s": wall.as_secs_f64(),
            "simulated_cycles_per_s": rate,
            "simulated_tile_cycles_per_s": rate * tiles as f64,
            "outputs": verdicts,
            "stuck": stuck,
        });
        println!("{}", serde_json::to_string_pretty(&v).map_err(err)?);
        return Ok(());
    }
    println!(
        "{}: {tiles} tile(s), {}",
        a.program.display(),
        names.join(" ")
    );
    println!("boot: {boot_cycles} cycles");
    if r.finished {
        println!(
            "run: {} cycles, {:.3} s wall ({:.3} s with boot and checks), {:.3} M simulated cycles/s ({:.2} M tile-cycles/s)",
            r.cycles,
            r.wall.as_secs_f64(),
            wall.as_secs_f64(),
            rate / 1e6,
            rate * tiles as f64 / 1e6
        );
    } else {
        println!(
            "run: stopped at max_cycles = {} with tiles not DONE; stuck cores:",
            p.max_cycles
        );
        for s in stuck.iter().take(16) {
            println!("  {s}");
        }
        if stuck.len() > 16 {
            println!("  ... and {} more", stuck.len() - 16);
        }
    }
    for v in verdicts {
        let ulp = v
            .max_ulp
            .map(|u| format!(", max ulp {u}"))
            .unwrap_or_default();
        println!(
            "output {}: {} vs {}{ulp}, PCC {:.6}{}",
            v.name,
            if v.bit_exact { "bit-exact" } else { "DIFFERS" },
            v.reference,
            v.pcc,
            if v.mismatched_tiles > 0 {
                format!(", {} of {tiles} tile(s) differ", v.mismatched_tiles)
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// A progress bar on stderr for a phase that runs longer than a second: cycles so far against
/// `max_cycles`, simulated cycles per wall second and the elapsed time. Only when stderr is a terminal
/// and not with `--json`, so logs and pipes see nothing; the bar is cleared when the phase ends.
fn progress(label: &'static str, max: u64, quiet: bool) -> impl FnMut(u64) {
    let show = !quiet && std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    move |cycles| {
        if !show || start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let b = bar.get_or_insert_with(|| progress_bar(label, max).with_elapsed(start.elapsed()));
        let rate = cycles as f64 / start.elapsed().as_secs_f64();
        b.set_message(format!("{:.1} k cycles/s", rate / 1e3));
        b.set_position(cycles);
    }
}

fn progress_bar(label: &'static str, max: u64) -> ProgressBar {
    let style = ProgressStyle::with_template(
        "{prefix}: [{bar:30}] {pos}/{len} cycles ({percent}% of max_cycles), {msg}, {elapsed}",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::with_draw_target(Some(max), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_prefix(label)
        .with_finish(ProgressFinish::AndClear)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round-to-nearest-even at bit 16 (bf16 keeps the top 16 bits of an f32).
    #[test]
    fn bf16_rounding_is_nearest_even() {
        assert_eq!(f32_to_bf16(1.0), 0x3F80);
        assert_eq!(f32_to_bf16(f32::from_bits(0x3F80_8000)), 0x3F80); // tie, even stays
        assert_eq!(f32_to_bf16(f32::from_bits(0x3F81_8000)), 0x3F82); // tie, odd rounds up
        assert_eq!(f32_to_bf16(f32::from_bits(0x3F80_8001)), 0x3F81);
    }

    #[test]
    fn ulp_distance_crosses_zero() {
        let p = 0x0001u16.to_le_bytes();
        let m = 0x8001u16.to_le_bytes();
        assert_eq!(ulp_distance(Format::Bf16, &p, &m), 2);
    }

    #[test]
    fn reference_parses_op_and_operands() {
        let r = parse_reference("add(a, b)", "output[0].reference").unwrap();
        assert_eq!((r.op.as_str(), r.operands.len()), ("add", 2));
        let e = parse_reference("add(a)", "output[0].reference")
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("output[0].reference:"), "{e}");
    }

    /// A 32x32 tile's element (r, c) lives in face (r/16)*2 + c/16, row-major within the face.
    #[test]
    fn tile_faces_are_row_major_16x16() {
        assert_eq!(tile_index(0, 15), 15);
        assert_eq!(tile_index(0, 16), 256);
        assert_eq!(tile_index(16, 0), 512);
        assert_eq!(tile_index(31, 31), 1023);
    }

    #[test]
    fn pcc_of_identical_series_is_one() {
        let x = [1.0, 2.0, 3.0];
        assert!((pcc(&x, &x) - 1.0).abs() < 1e-12);
        assert!((pcc(&x, &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
    }
}
