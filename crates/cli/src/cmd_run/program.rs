//! The program description of `bhemu run` (TOML): tiles, kernels, CBs, runtime args, buffers
//! and the `[math]` settings, with the defaults a description may leave out.
use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Program {
    #[serde(default = "default_tiles")]
    pub(super) tiles: String,
    #[serde(default = "default_max_cycles")]
    pub(super) max_cycles: u64,
    #[serde(default = "default_kit")]
    pub(super) kit: PathBuf,
    #[serde(default = "default_firmware")]
    pub(super) firmware: PathBuf,
    pub(super) kernels: Kernels,
    #[serde(default)]
    pub(super) cb: Vec<Cb>,
    #[serde(default)]
    pub(super) args: Args,
    #[serde(default)]
    pub(super) input: Vec<Buffer>,
    #[serde(default)]
    pub(super) output: Vec<Buffer>,
    #[serde(default)]
    pub(super) math: MathSettings,
}

/// `[math]`: the Matrix Unit settings the compute kernel was built with (the kit's
/// `chlkc_descriptors.h`), which the references of `add`/`sub`/`mul`/`matmul` model.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MathSettings {
    /// LoFi | HiFi2 | HiFi3 | HiFi4
    #[serde(default = "default_fidelity")]
    pub(super) fidelity: String,
    /// bf16 | fp32 (tt-metal's `fp32_dest_acc_en`)
    #[serde(default = "default_dst")]
    pub(super) dst: String,
    /// `matmul` block shape in tiles, M, K, N (default 1, 1, 1)
    #[serde(default = "default_mkn")]
    pub(super) matmul_tiles: [usize; 3],
}

pub(super) fn default_mkn() -> [usize; 3] {
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

pub(super) fn default_fidelity() -> String {
    "HiFi4".into()
}
pub(super) fn default_dst() -> String {
    "bf16".into()
}

impl MathSettings {
    pub(super) fn parse(&self) -> Result<Math, CliError> {
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

pub(super) fn default_tiles() -> String {
    "1".into()
}
pub(super) fn default_max_cycles() -> u64 {
    1_000_000
}
pub(super) fn default_kit() -> PathBuf {
    "target/kernel-kit".into()
}
pub(super) fn default_firmware() -> PathBuf {
    ".cache/ttnn/firmware/blackhole-140".into()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct Kernels {
    pub(super) brisc: Option<String>,
    pub(super) ncrisc: Option<String>,
    pub(super) compute: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Cb {
    pub(super) index: u8,
    #[serde(default = "default_format")]
    pub(super) format: String,
    pub(super) page_size: u32,
    pub(super) pages: u32,
}

pub(super) fn default_format() -> String {
    "bf16".into()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct Args {
    #[serde(default)]
    pub(super) brisc: Vec<Arg>,
    #[serde(default)]
    pub(super) ncrisc: Vec<Arg>,
    #[serde(default)]
    pub(super) compute: Vec<Arg>,
}

#[derive(Deserialize, Clone)]
#[serde(untagged)]
pub(super) enum Arg {
    Int(u32),
    Name(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Buffer {
    pub(super) name: String,
    #[serde(default = "default_format")]
    pub(super) format: String,
    pub(super) pages: u32,
    #[serde(default = "default_page")]
    pub(super) page_size: u32,
    pub(super) random: Option<u32>,
    /// With `random`: raw bit patterns over the whole encoding instead of values in [-2, 2)
    /// (`data::random_bits`).
    #[serde(default)]
    pub(super) random_bits: bool,
    pub(super) values: Option<Vec<f64>>,
    pub(super) file: Option<PathBuf>,
    pub(super) reference: Option<String>,
}

pub(super) fn default_page() -> u32 {
    2048
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Format {
    Bf16,
    /// tt-metal's `Float16`: IEEE half precision.
    Fp16,
    Fp32,
    U32,
    U8,
    /// tt-metal's `Int32`: 32 bits the unpackers, `Dst` and the packers carry unchanged;
    /// values are read as two's complement (the SFPU's integer arithmetic, SFPIADD.md).
    I32,
    /// tt-metal's `Bfp8_b`: per 32x32 tile, 64 exponent bytes (one per 16-datum face row, face
    /// after face) then 1024 datums of sign and 7-bit magnitude (`data::bfp_datum`).
    Bfp8b,
    /// tt-metal's `Bfp4_b`: 64 exponent bytes, then 1024 datums of sign and 3-bit magnitude,
    /// two per byte, the first in the low nibble.
    Bfp4b,
}

impl Format {
    pub(super) fn parse(s: &str, field: &str) -> Result<Format, CliError> {
        match s {
            "bf16" | "Float16_b" => Ok(Format::Bf16),
            "fp16" | "Float16" => Ok(Format::Fp16),
            "fp32" | "Float32" => Ok(Format::Fp32),
            "u32" | "UInt32" => Ok(Format::U32),
            "u8" | "UInt8" => Ok(Format::U8),
            "int32" | "i32" | "Int32" => Ok(Format::I32),
            "bfp8_b" | "Bfp8_b" => Ok(Format::Bfp8b),
            "bfp4_b" | "Bfp4_b" => Ok(Format::Bfp4b),
            _ => Err(CliError::new(format!(
                "{field}: unknown format '{s}' (bf16, fp16, fp32, u32, u8, int32, bfp8_b, bfp4_b)"
            ))),
        }
    }
    /// Bytes per element; for the block-float formats the bytes of a whole 32x32 tile (their
    /// elements are found with `data::datum`).
    pub(crate) fn bytes(self) -> usize {
        match self {
            Format::Bf16 | Format::Fp16 => 2,
            Format::Fp32 | Format::U32 | Format::I32 => 4,
            Format::U8 => 1,
            Format::Bfp8b => 64 + 1024,
            Format::Bfp4b => 64 + 512,
        }
    }
    /// Block-float: elements share exponents, a tile at a time.
    pub(crate) fn is_bfp(self) -> bool {
        matches!(self, Format::Bfp8b | Format::Bfp4b)
    }
    /// Elements in `n_bytes` of this format.
    pub(crate) fn elements(self, n_bytes: usize) -> usize {
        if self.is_bfp() {
            n_bytes / self.bytes() * 1024
        } else {
            n_bytes / self.bytes()
        }
    }
    pub(super) fn float(self) -> bool {
        matches!(self, Format::Bf16 | Format::Fp32)
    }
}
