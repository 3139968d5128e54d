//! `bhemu run`'s references for what the Matrix Unit computes: silicon's integer datapath as
//! `docs/matrix-unit.md` states it, computed by `bhemu-refmath` (written from that page,
//! independently of `bhemu_tensix`): the emulator's output is compared with them bit for bit.
//!
//! This file keeps what is not the Matrix Unit's arithmetic: the kernels' settings ([`Math`]),
//! the operand placement and order of tt-llk's Blackhole kernels (in `bhemu_refmath::tile`:
//! element-wise ops put the first input in SrcA and the second in SrcB; matmul puts `in0` in
//! SrcB and `in1` in SrcA, MVMUL computing `Dst += SrcB x SrcA`, and each fidelity phase adds
//! the inner-dimension faces 0 then 1, `llk_math_matmul.h`'s MVMUL sequence B0A0, B0A1, B2A0,
//! B2A1, B1A2, B1A3, B3A2, B3A3), and the packer's own rounding of a `Dst` datum into the
//! BF16 output ([`pack_to_bf16`], in `bhemu-refmath`), a separate rule from the Matrix Unit's.

use bhemu_refmath::tile;
use bhemu_refmath::DstKind;

/// Matrix Unit settings the kernels were built with (the kit's `chlkc_descriptors.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Math {
    /// Matmul block shape in tiles: `in0` is M x K, `in1` K x N, the output M x N, each
    /// row-major by tile (`[1, 1, 1]`: tile by tile).
    pub mkn: [usize; 3],
    /// Fidelity phases run per multiplication: LoFi 1, HiFi2 2, HiFi3 3, HiFi4 4.
    pub phases: u32,
    /// `Dst` holds FP32 (`DST_ACCUM_MODE`) instead of BF16.
    pub dst_fp32: bool,
}

impl Math {
    /// The `Dst` the kernels accumulate in: FP32, or (BF16 operands having 8-bit exponents)
    /// BF16.
    fn dst(self) -> DstKind {
        if self.dst_fp32 {
            DstKind::Fp32
        } else {
            DstKind::Bf16
        }
    }

    /// A `Dst` datum of [`Math::dst`] as FP32 bits (a BF16 datum with 16 zero bits below),
    /// the form the packer reads.
    fn widen(self, d: u32) -> u32 {
        if self.dst_fp32 {
            d
        } else {
            d << 16
        }
    }
}

pub use bhemu_refmath::pack::pack_to_bf16;

/// ELWADD / ELWSUB of BF16 `a` (SrcA) and `b` (SrcB), `Dst` overwritten: the `Dst` datum as
/// FP32 bits.
pub fn elw_add(m: Math, a: u16, b: u16, subtract: bool) -> u32 {
    m.widen(tile::bf16_add(a, b, subtract, m.dst()))
}

/// ELWMUL of BF16 `a` (SrcA) and `b` (SrcB) over the fidelity phases onto a zeroed `Dst`:
/// the `Dst` datum as FP32 bits.
pub fn elw_mul(m: Math, a: u16, b: u16) -> u32 {
    m.widen(tile::bf16_mul(a, b, m.phases, m.dst()))
}

/// One output datum of `in0 x in1` over `k_tiles` 32-wide inner tiles (`in0(kt, k)` is
/// `in0[r][32 kt + k]`, `in1(kt, k)` is `in1[32 kt + k][c]`, BF16 bits): per inner tile (one
/// matmul call each), per phase, per inner face, one MVMUL onto `Dst`. The `Dst` datum as
/// FP32 bits.
pub fn matmul_datum(
    m: Math,
    k_tiles: usize,
    in0: impl Fn(usize, usize) -> u16,
    in1: impl Fn(usize, usize) -> u16,
) -> u32 {
    m.widen(tile::bf16_matmul_datum(
        k_tiles,
        m.phases,
        m.dst(),
        in0,
        in1,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HIFI4: Math = Math {
        mkn: [1, 1, 1],
        phases: 4,
        dst_fp32: false,
    };

    /// A BF16 `Dst` ties away from zero (docs/matrix-unit.md T1, A5): 1 + 2^-8 is 0x3f81,
    /// where the old IEEE model's even choice was 0x3f80.
    #[test]
    fn bf16_dst_add_tie_rounds_away_from_zero() {
        assert_eq!(elw_add(HIFI4, 0x3F80, 0x3B80, false), 0x3F81_0000);
    }

    /// The four phases of a HiFi4 multiplication cover every mantissa bit of two BF16 inputs,
    /// so a product that fits in BF16 comes out exact: 1.5 * 1.25 = 1.875.
    #[test]
    fn hifi4_mul_of_short_mantissas_is_exact() {
        assert_eq!(elw_mul(HIFI4, 0x3FC0, 0x3FA0), 0x3FF0_0000);
    }

    /// LoFi keeps SrcA's top 4 mantissa bits: (1 + 127/128) * 1 gives 1 + 120/128
    /// (0x3ff8_0000 in FP32); HiFi4 keeps all seven.
    #[test]
    fn lofi_mul_drops_low_mantissa_bits_of_src_a() {
        let lofi = Math {
            phases: 1,
            dst_fp32: true,
            ..HIFI4
        };
        assert_eq!(elw_mul(lofi, 0x3FFF, 0x3F80), 0x3FF8_0000);
        assert_eq!(elw_mul(HIFI4, 0x3FFF, 0x3F80), 0x3FFF_0000);
    }

    /// A K = 2-tile matmul adds the two inner tiles' products one after the other into `Dst`:
    /// with every element 1 (in0) and 0.5 (in1), each datum is 64 * 0.5 = 32, exactly.
    #[test]
    fn matmul_datum_sums_every_inner_tile() {
        let d = matmul_datum(HIFI4, 2, |_, _| 0x3F80, |_, _| 0x3F00);
        assert_eq!(d, 0x4200_0000);
    }
}
