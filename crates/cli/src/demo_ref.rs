//! The demo's reference: what the chip job's Tensix program (`demo/src/trisc1.c`) computes,
//! with silicon's Matrix Unit arithmetic (`docs/matrix-unit.md`) from `bhemu-refmath`, which
//! is written from that page independently of `bhemu_tensix`. Values are BF16 bit patterns;
//! `Dst` holds BF16 (16-bit, 8-bit exponents) and its datums are the output (the packer's
//! BF16-to-BF16 conversion leaves every value the Matrix Unit writes unchanged).
//!
//! - ELWADD, `AddDst` clear, fidelity phase 0: `Dst = A + B` with A in SrcA, B in SrcB.
//! - MVMUL: `Dst[r][c] += B[r][k] * A[k][c]` (B in SrcB, A in SrcA) over one 16-wide k-face
//!   per instruction; trisc1.c runs, per output face, k-face 0 then 1, each in fidelity phases
//!   0..3, onto a cleared `Dst`.

use bhemu_refmath::tile::{self, tile_index as refmath_tile_index};
use bhemu_refmath::{dot16, DstKind, Operand};

/// A tile is 32x32 datums stored as four 16x16 faces (top-left, top-right, bottom-left,
/// bottom-right), each row-major: the index of element (r, c).
pub fn tile_index(r: usize, c: usize) -> usize {
    refmath_tile_index(r, c)
}

/// `A + B`, element by element, into a BF16 `Dst`.
pub fn elwadd(a: &[u16], b: &[u16]) -> Vec<u16> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| tile::bf16_add(x, y, false, DstKind::Bf16) as u16)
        .collect()
}

/// `B @ A` (32x32 each) as the demo's MVMUL sequence accumulates it in a BF16 `Dst`: for
/// each output datum, k-face 0 then 1, each in fidelity phases 0..3.
pub fn matmul(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut out = vec![0u16; 1024];
    for r in 0..32 {
        for c in 0..32 {
            let mut dst = 0u32;
            for kf in 0..2 {
                let src_b: [Operand; 16] =
                    core::array::from_fn(|k| Operand::bf16(b[tile_index(r, kf * 16 + k)]));
                let src_a: [Operand; 16] =
                    core::array::from_fn(|k| Operand::bf16(a[tile_index(kf * 16 + k, c)]));
                for phase in 0..4 {
                    dst = dot16(&src_a, &src_b, phase, dst, DstKind::Bf16);
                }
            }
            out[tile_index(r, c)] = dst as u16;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ELWADD into BF16 rounds a tie away from zero (T1, A5): 1 + 2^-8 is 0x3f81, where IEEE
    /// round-to-even gives 0x3f80.
    #[test]
    fn elwadd_tie_rounds_away_from_zero() {
        assert_eq!(elwadd(&[0x3f80], &[0x3b80]), vec![0x3f81]);
    }

    /// Four fidelity phases consume every BF16 mantissa bit: (1 + 2^-7)^2. The significand
    /// is 1032: SrcA's top 5 bits 16, its bits 5..1 = 516 & 31 = 4; SrcB's top 7 bits 64, its
    /// low 4 mantissa bits 8, so (8 & 15) << 3 = 64. p0: 16 x 64 = 1024 at 127, 1.0 (0x3f80).
    /// p1: 4 x 64 = 256 at 122, 2^21 aligned 5 places: 2^16, 1 + 2^-7 (0x3f81). p2: 1024 at
    /// 120, again 2^16: 1 + 2^-6 (0x3f82). p3: 256 at 115, 12 places: (2^21 + 2^11) >> 12 =
    /// 512, which A3 rounds to 0 ((512 + 4096) >> 13): 0x3f82 stays.
    #[test]
    fn four_fidelity_phases_consume_every_bf16_bit() {
        let mut a = vec![0u16; 1024];
        let mut b = vec![0u16; 1024];
        a[tile_index(0, 0)] = 0x3f81;
        b[tile_index(0, 0)] = 0x3f81;
        assert_eq!(matmul(&a, &b)[tile_index(0, 0)], 0x3f82);
    }

    /// Faces are stored top-left, top-right, bottom-left, bottom-right.
    #[test]
    fn tile_faces_order() {
        assert_eq!(tile_index(0, 16), 256);
        assert_eq!(tile_index(16, 0), 512);
        assert_eq!(tile_index(31, 31), 1023);
    }
}
