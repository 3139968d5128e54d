//! Number formats of the Tensix data path as pure functions (no state): the 4-bit data-format
//! codes, the bit layouts that `SrcA`/`SrcB` (19-bit) and `Dst` (16-/32-bit) give each type,
//! block-float (BFP) shared-exponent conversion, and the packers' rounding.
//!
//! Sources (tt-isa-documentation): WormholeB0/TensixTile/TensixCoprocessor/FloatBitPatterns.md,
//! .../SrcASrcB.md, BlackholeA0/TensixTile/TensixCoprocessor/Dst.md,
//! .../WormholeB0/TensixTile/TensixCoprocessor/Unpackers/FormatConversion.md,
//! .../Packers/FormatConversion.md, and the functional models of UNPACR_Regular.md, MOVA2D.md,
//! MOVD2A.md. Where those pages leave a case open, the function says so and the rule bhemu
//! applies is restated in `docs/tensix-formats.md`.
pub mod bfp;
pub mod layout;
pub mod pack_conv;
pub mod pack_l1_acc;
pub mod round;

pub use bfp::{bf16_block_to_bfp, bfp8_to_bf16, bfp8a_to_fp16, fp16_block_to_bfpa, BfpWidth};
pub use layout::*;
pub use round::{fp32_to_bf16_round, fp32_to_tf32_round, int32_sm_to_int8_sat};

/// The hardware's 4-bit data-format code (`InDataFormat`, `OutDataFormat`,
/// `ALU_FORMAT_SPEC_*`, packer `In_data_format` / `Out_data_format`), with the names of the
/// ISA pages; tt-metal's `DataFormat` names in parentheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataFormat {
    /// `0b0000` FP32 (tt-metal `Float32`).
    Fp32,
    /// `0b0001` FP16 (tt-metal `Float16`).
    Fp16,
    /// `0b0010` BFP8a (tt-metal `Bfp8`).
    Bfp8a,
    /// `0b0011` BFP4a (tt-metal `Bfp4`).
    Bfp4a,
    /// `0b0100` TF32 (tt-metal `Tf32`).
    Tf32,
    /// `0b0101` BF16 (tt-metal `Float16_b`).
    Bf16,
    /// `0b0110` BFP8 (tt-metal `Bfp8_b`).
    Bfp8,
    /// `0b0111` BFP4 (tt-metal `Bfp4_b`).
    Bfp4,
    /// `0b1000` INT32 (tt-metal `Int32`; `UInt32` is 24: INT32 with software bit 4).
    Int32,
    /// `0b1001` INT16 (tt-metal `UInt16`).
    Int16,
    /// `0b1010` FP8 (e5m2) (tt-metal `Lf8`).
    Fp8,
    /// `0b1011` BFP2a (tt-metal `Bfp2`).
    Bfp2a,
    /// `0b1110` INT8 (tt-metal `Int8`; `UInt8` is 30: INT8 with software bit 4).
    Int8,
    /// `0b1111` BFP2 (tt-metal `Bfp2_b`).
    Bfp2,
}

impl DataFormat {
    /// Decodes a 4-bit code; `None` for the unassigned codes 12 and 13 and anything wider.
    pub fn from_code(code: u32) -> Option<DataFormat> {
        use DataFormat::*;
        Some(match code {
            0 => Fp32,
            1 => Fp16,
            2 => Bfp8a,
            3 => Bfp4a,
            4 => Tf32,
            5 => Bf16,
            6 => Bfp8,
            7 => Bfp4,
            8 => Int32,
            9 => Int16,
            10 => Fp8,
            11 => Bfp2a,
            14 => Int8,
            15 => Bfp2,
            _ => return None,
        })
    }

    /// The 4-bit code.
    pub fn code(self) -> u32 {
        use DataFormat::*;
        match self {
            Fp32 => 0,
            Fp16 => 1,
            Bfp8a => 2,
            Bfp4a => 3,
            Tf32 => 4,
            Bf16 => 5,
            Bfp8 => 6,
            Bfp4 => 7,
            Int32 => 8,
            Int16 => 9,
            Fp8 => 10,
            Bfp2a => 11,
            Int8 => 14,
            Bfp2 => 15,
        }
    }

    /// Bits per datum in L1 (exponent sections of BFP formats not counted).
    pub fn datum_bits(self) -> u32 {
        use DataFormat::*;
        match self {
            Bfp2 | Bfp2a => 2,
            Bfp4 | Bfp4a => 4,
            Bfp8 | Bfp8a | Fp8 | Int8 => 8,
            Fp16 | Bf16 | Int16 => 16,
            Fp32 | Tf32 | Int32 => 32,
        }
    }

    /// Shared-exponent block-float formats (one exponent byte per 16 datums).
    pub fn is_bfp(self) -> bool {
        use DataFormat::*;
        matches!(self, Bfp8 | Bfp8a | Bfp4 | Bfp4a | Bfp2 | Bfp2a)
    }

    /// Formats whose exponent is 8 bits wide in `Src` (MOVA2D.md `Use8bExponent`).
    pub fn has_8b_exponent(self) -> bool {
        use DataFormat::*;
        matches!(
            self,
            Fp32 | Tf32 | Bf16 | Bfp8 | Bfp4 | Bfp2 | Int32 | Int16
        )
    }

    /// The ISA pages' name.
    pub fn name(self) -> &'static str {
        use DataFormat::*;
        match self {
            Fp32 => "FP32",
            Fp16 => "FP16",
            Bfp8a => "BFP8a",
            Bfp4a => "BFP4a",
            Tf32 => "TF32",
            Bf16 => "BF16",
            Bfp8 => "BFP8",
            Bfp4 => "BFP4",
            Int32 => "INT32",
            Int16 => "INT16",
            Fp8 => "FP8",
            Bfp2a => "BFP2a",
            Int8 => "INT8",
            Bfp2 => "BFP2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_format_codes_follow_the_encoding_table() {
        // Packers/FormatConversion.md: rows 0b00??..0b11??, columns ??00..??11.
        let table = [
            (0b0000, "FP32"),
            (0b0001, "FP16"),
            (0b0010, "BFP8a"),
            (0b0011, "BFP4a"),
            (0b0100, "TF32"),
            (0b0101, "BF16"),
            (0b0110, "BFP8"),
            (0b0111, "BFP4"),
            (0b1000, "INT32"),
            (0b1001, "INT16"),
            (0b1010, "FP8"),
            (0b1011, "BFP2a"),
            (0b1110, "INT8"),
            (0b1111, "BFP2"),
        ];
        for (code, name) in table {
            let f = DataFormat::from_code(code).expect("assigned code");
            assert_eq!(f.name(), name);
            assert_eq!(f.code(), code);
        }
        assert_eq!(DataFormat::from_code(12), None);
        assert_eq!(DataFormat::from_code(13), None);
        assert_eq!(DataFormat::from_code(16), None);
    }
}
