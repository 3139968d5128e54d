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
    Fp32,
    U32,
    U8,
    /// tt-metal's `Int32`: 32 bits the unpackers, `Dst` and the packers carry unchanged;
    /// values are read as two's complement (the SFPU's integer arithmetic, SFPIADD.md).
    I32,
}

impl Format {
    pub(super) fn parse(s: &str, field: &str) -> Result<Format, CliError> {
        match s {
            "bf16" | "Float16_b" => Ok(Format::Bf16),
            "fp32" | "Float32" => Ok(Format::Fp32),
            "u32" | "UInt32" => Ok(Format::U32),
            "u8" | "UInt8" => Ok(Format::U8),
            "int32" | "i32" | "Int32" => Ok(Format::I32),
            _ => Err(CliError::new(format!(
                "{field}: unknown format '{s}' (bf16, fp32, u32, u8, int32)"
            ))),
        }
    }
    pub(crate) fn bytes(self) -> usize {
        match self {
            Format::Bf16 => 2,
            Format::Fp32 | Format::U32 | Format::I32 => 4,
            Format::U8 => 1,
        }
    }
    pub(super) fn float(self) -> bool {
        matches!(self, Format::Bf16 | Format::Fp32)
    }
}
