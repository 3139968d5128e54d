//! `bhemu run`'s references for what the Matrix Unit computes, written here from the functional
//! models of tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/{ELWADD,ELWSUB,
//! ELWMUL,MVMUL}.md (no Blackhole pages exist) and the number rules of `docs/matrix-unit.md`,
//! independently of `bhemu_tensix`: the emulator's output is compared with them bit for bit.
//!
//! The models' C `float` is IEEE binary32 with round-to-nearest-even (Rust's `f32`), with
//! results below 2^-126 flushed to a zero of their sign. A BF16 `Dst` stores
//! `RoundToBF16(x)`: nearest-even to 8 significant bits, then flushed below 2^-126. A datum
//! with exponent 0 reads as zero. Fidelity phases take slices of each operand's mantissa
//! (`SrcAFidelityBits`, `SrcBFidelityBits` of ELWMUL.md) and add their products into `Dst`
//! one phase after the other, so each phase's sum is rounded into `Dst`.
//!
//! Operand placement and order follow tt-llk's Blackhole kernels as the kit builds them: for
//! element-wise ops the first input goes to SrcA and the second to SrcB; for matmul the first
//! (`in0`) goes to SrcB and the second (`in1`) to SrcA (MVMUL computes `Dst += SrcB x SrcA`),
//! and each fidelity phase adds the inner-dimension faces 0 then 1 (tt-llk's
//! `llk_math_matmul.h` MVMUL sequence B0A0, B0A1, B2A0, B2A1, B1A2, B1A3, B3A2, B3A3).

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

/// Flush results whose magnitude is below 2^-126 to a zero of their sign.
fn ftz(x: f32) -> f32 {
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// `ReadBF16` (a Src or Dst datum): exponent 0 is a zero of its sign.
pub fn read_bf16(h: u16) -> f32 {
    if h & 0x7F80 == 0 {
        f32::from_bits(u32::from(h & 0x8000) << 16)
    } else {
        f32::from_bits(u32::from(h) << 16)
    }
}

/// `RoundToBF16`: nearest-even to 8 significant bits, flushed below 2^-126; 2^128 or more is
/// exponent 255 with mantissa 0.
pub fn round_to_bf16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = (b >> 16) as u16 & 0x8000;
    let mag = b & 0x7FFF_FFFF;
    let r = mag + 0x7FFF + ((mag >> 16) & 1);
    let h = (r >> 16) as u16;
    if h & 0x7F80 == 0 {
        sign
    } else if r >= 0x7F80_0000 {
        sign | 0x7F80
    } else {
        sign | h
    }
}

/// The packer's early conversion of a `Dst` datum to a BF16 output
/// (Packers/FormatConversion.md, restated in `docs/tensix-formats.md`): round to nearest with
/// ties away from zero (a BF16 `Dst` datum is already exact), exponent 0 — denormals and
/// minus zero — becomes +0.
pub fn pack_to_bf16(x: f32) -> u16 {
    let b = x.to_bits();
    if b & 0x7F80_0000 == 0 {
        return 0;
    }
    let sign = (b >> 16) as u16 & 0x8000;
    let mag = (b & 0x7FFF_FFFF) + 0x8000; // ties away from zero on the magnitude
    if mag >= 0x7F80_0000 {
        sign | 0x7F80
    } else {
        sign | (mag >> 16) as u16
    }
}

/// `SrcAFidelityBits`: even phases keep sign, exponent, the implicit one and 4 mantissa bits;
/// odd phases the next five.
fn src_a_bits(x: f32, phase: u32) -> f32 {
    let kept = f32::from_bits(x.to_bits() & 0xFFF8_0000);
    if phase & 1 == 0 {
        kept
    } else {
        x - f32::from_bits(x.to_bits() & 0xFFF8_3FFF)
    }
}

/// `SrcBFidelityBits`: phases 0-1 keep sign, exponent, the implicit one and 6 mantissa bits;
/// phases 2-3 the next four.
fn src_b_bits(x: f32, phase: u32) -> f32 {
    if phase & 2 == 0 {
        f32::from_bits(x.to_bits() & 0xFFFE_0000)
    } else {
        x - f32::from_bits(x.to_bits() & 0xFFFE_1FFF)
    }
}

/// `Dst` after `x` is added to `dst` by a Matrix Unit instruction.
fn accumulate(m: Math, dst: f32, x: f32) -> f32 {
    let sum = ftz(x + dst);
    if m.dst_fp32 {
        sum
    } else {
        read_bf16(round_to_bf16(sum))
    }
}

/// ELWADD / ELWSUB with `Dst` zeroed: `Dst = A ± B` written once.
pub fn elw_add(m: Math, a: u16, b: u16, subtract: bool) -> f32 {
    let (a, b) = (read_bf16(a), read_bf16(b));
    let r = ftz(if subtract { a - b } else { a + b });
    accumulate(m, 0.0, r)
}

/// ELWMUL over the fidelity phases, `Dst` zeroed first: each phase adds
/// `SrcAFidelityBits(A) * SrcBFidelityBits(B)` into `Dst`.
pub fn elw_mul(m: Math, a: u16, b: u16) -> f32 {
    let (a, b) = (read_bf16(a), read_bf16(b));
    (0..m.phases).fold(0.0, |d, p| {
        accumulate(m, d, ftz(src_a_bits(a, p) * src_b_bits(b, p)))
    })
}

/// One output datum of `in0 x in1` over `k_tiles` 32-wide inner tiles (`in0(kt, k)` is
/// `ReadBF16(in0[r][32 kt + k])`, `in1(kt, k)` is `ReadBF16(in1[32 kt + k][c])`): per inner
/// tile (one matmul call each), per phase, per inner face, MVMUL's chain
/// `x = 0; x += SrcB[r][k] * SrcA[k][c]` over the face's 16 `k` in order, added into `Dst`.
pub fn matmul_datum(
    m: Math,
    k_tiles: usize,
    in0: impl Fn(usize, usize) -> f32,
    in1: impl Fn(usize, usize) -> f32,
) -> f32 {
    let mut d = 0.0f32;
    for kt in 0..k_tiles {
        for p in 0..m.phases {
            for face in 0..2 {
                let mut x = 0.0f32;
                for k in face * 16..face * 16 + 16 {
                    let b = src_b_bits(in0(kt, k), p);
                    let a = src_a_bits(in1(kt, k), p);
                    x = ftz(x + ftz(b * a));
                }
                d = accumulate(m, d, x);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    const HIFI4: Math = Math {
        mkn: [1, 1, 1],
        phases: 4,
        dst_fp32: false,
    };

    /// RoundToBF16 is nearest-even: 1 + 2^-8 (a tie) goes down to 1, 1 + 3*2^-8 up to 1 + 2^-6.
    #[test]
    fn round_to_bf16_is_nearest_even_and_flushes() {
        assert_eq!(round_to_bf16(1.0 + 2f32.powi(-8)), 0x3F80);
        assert_eq!(round_to_bf16(1.0 + 3.0 * 2f32.powi(-8)), 0x3F82);
        assert_eq!(round_to_bf16(-1e-39), 0x8000);
    }

    /// The four phases of a HiFi4 multiplication cover every mantissa bit of two BF16 inputs,
    /// so a product that fits in BF16 comes out exact: 1.5 * 1.25.
    #[test]
    fn hifi4_mul_of_short_mantissas_is_exact() {
        assert_eq!(elw_mul(HIFI4, 0x3FC0, 0x3FA0), 1.875);
    }

    /// The packer rounds FP32 ties away from zero and turns minus zero into plus zero.
    #[test]
    fn pack_to_bf16_rounds_ties_away_and_drops_minus_zero() {
        assert_eq!(pack_to_bf16(f32::from_bits(0x3F80_8000)), 0x3F81);
        assert_eq!(pack_to_bf16(f32::from_bits(0xBF80_8000)), 0xBF81);
        assert_eq!(pack_to_bf16(f32::from_bits(0x3F80_7FFF)), 0x3F80);
        assert_eq!(pack_to_bf16(-0.0), 0);
    }

    /// LoFi keeps SrcA's top 4 and SrcB's top 6 mantissa bits: (1 + 127/128) * 1 loses SrcA's
    /// low three bits and gives 1 + 120/128.
    #[test]
    fn lofi_mul_drops_low_mantissa_bits_of_src_a() {
        let lofi = Math { phases: 1, ..HIFI4 };
        assert_eq!(elw_mul(lofi, 0x3FFF, 0x3F80), 1.0 + 120.0 / 128.0);
        assert_eq!(elw_mul(HIFI4, 0x3FFF, 0x3F80), 1.0 + 127.0 / 128.0);
    }

    /// A K = 2-tile matmul adds the two inner tiles' products one after the other into `Dst`:
    /// with every element 1 (in0) and 0.5 (in1), each datum is 64 * 0.5 = 32, exactly.
    #[test]
    fn matmul_datum_sums_every_inner_tile() {
        let d = matmul_datum(HIFI4, 2, |_, _| read_bf16(0x3F80), |_, _| read_bf16(0x3F00));
        assert_eq!(d, 32.0);
    }
}
