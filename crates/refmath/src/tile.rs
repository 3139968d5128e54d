//! What tt-llk's Blackhole compute kernels do to 32x32 BF16 tiles, datum by datum, with the
//! operand placement and order the kernels use:
//! - element-wise (`add`, `sub`, `mul`): the first input in SrcA, the second in SrcB; ELWADD
//!   and ELWSUB overwrite Dst (no `AddDst`, phase 0); ELWMUL runs its fidelity phases 0..n
//!   in order onto a zeroed Dst (ZEROACC), each phase's result written to Dst;
//! - matmul: `in0` in SrcB and `in1` in SrcA (MVMUL computes `Dst += SrcB x SrcA`); per inner
//!   tile (one matmul call each), per fidelity phase, the inner-dimension faces 0 then 1
//!   (`llk_math_matmul.h`'s MVMUL sequence B0A0, B0A1, B2A0, B2A1, B1A2, B1A3, B3A2, B3A3:
//!   inner face 0 of both operands, then inner face 1), onto a zeroed Dst.
//!
//! Results are Dst datums (IEEE bits of [`DstKind`]); the packer's conversion to the output
//! format is a separate rule, not the Matrix Unit's.

use crate::accumulator::DstKind;
use crate::operand::Operand;
use crate::ops::{dot16, elwadd, elwmul};

/// A tile is 32x32 datums stored as four 16x16 faces (top-left, top-right, bottom-left,
/// bottom-right), each row-major: the index of element (r, c).
pub const fn tile_index(r: usize, c: usize) -> usize {
    ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16
}

/// The Dst datum of a BF16 `add` (`sub`) kernel: ELWADD (ELWSUB) of `a` (SrcA) and `b`
/// (SrcB), Dst overwritten.
pub fn bf16_add(a: u16, b: u16, sub: bool, dst: DstKind) -> u32 {
    elwadd(Operand::bf16(a), Operand::bf16(b), sub, 0, None, dst)
}

/// The Dst datum of a BF16 `mul` kernel: ELWMUL of `a` (SrcA) and `b` (SrcB) for fidelity
/// phases `0..phases` onto a zeroed Dst.
pub fn bf16_mul(a: u16, b: u16, phases: u32, dst: DstKind) -> u32 {
    let (a, b) = (Operand::bf16(a), Operand::bf16(b));
    (0..phases).fold(0, |d, p| elwmul(a, b, p, d, dst))
}

/// One Dst datum of a BF16 matmul of `k_tiles` inner tiles: `in0(kt, k)` is
/// `in0[r][32 kt + k]` (into SrcB), `in1(kt, k)` is `in1[32 kt + k][c]` (into SrcA); per
/// inner tile, per phase `0..phases`, inner faces 0 then 1, each one MVMUL ([`dot16`]).
pub fn bf16_matmul_datum(
    k_tiles: usize,
    phases: u32,
    dst: DstKind,
    in0: impl Fn(usize, usize) -> u16,
    in1: impl Fn(usize, usize) -> u16,
) -> u32 {
    let mut d = 0;
    for kt in 0..k_tiles {
        // Each inner face's operands, read once for all the phases (they do not change).
        let faces: [([Operand; 16], [Operand; 16]); 2] = core::array::from_fn(|face| {
            (
                core::array::from_fn(|k| Operand::bf16(in1(kt, face * 16 + k))),
                core::array::from_fn(|k| Operand::bf16(in0(kt, face * 16 + k))),
            )
        });
        for p in 0..phases {
            for (a, b) in &faces {
                d = dot16(a, b, p, d, dst);
            }
        }
    }
    d
}

/// A whole `in0 x in1` BF16 tile (tile layout of [`tile_index`]) as [`bf16_matmul_datum`]
/// computes each datum, one inner tile.
pub fn bf16_matmul_tile(
    in0: &[u16; 1024],
    in1: &[u16; 1024],
    phases: u32,
    dst: DstKind,
) -> Vec<u32> {
    let mut out = vec![0; 1024];
    for r in 0..32 {
        for c in 0..32 {
            out[tile_index(r, c)] = bf16_matmul_datum(
                1,
                phases,
                dst,
                |_, k| in0[tile_index(r, k)],
                |_, k| in1[tile_index(k, c)],
            );
        }
    }
    out
}
