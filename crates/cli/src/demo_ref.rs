//! The demo's reference: what the chip job's Tensix program computes, written here from the
//! ISA pages' functional models and docs/matrix-unit.md, independently of `bhemu_tensix`.
//! Values are BF16 bit patterns (`u16`); arithmetic is IEEE `f32`, which is the pages' `float`
//! with flush-to-zero inside the ranges the demo's inputs produce (the flush is applied anyway).
//!
//! - ELWADD (tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ELWADD.md), BF16 Dst,
//!   `AddDst` clear, fidelity phase 0: `Dst = RoundToBF16(SrcA + SrcB)`.
//! - MVMUL (…/MVMUL.md): per fidelity phase, `x = sum_k SrcBFidelityBits(b) * SrcAFidelityBits(a)`
//!   in `k = 0..15` order from `x = 0`, then `Dst = RoundToBF16(x + Dst)`;
//!   `SrcAFidelityBits` / `SrcBFidelityBits` as …/ELWMUL.md defines them.

/// A tile is 32x32 datums stored as four 16x16 faces (top-left, top-right, bottom-left,
/// bottom-right), each row-major: the index of element (r, c).
pub fn tile_index(r: usize, c: usize) -> usize {
    ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16
}

fn bf16(bits: u16) -> f32 {
    // docs/matrix-unit.md: exponent 0 reads as a zero of its sign.
    if bits & 0x7f80 == 0 {
        return f32::from_bits(u32::from(bits & 0x8000) << 16);
    }
    f32::from_bits(u32::from(bits) << 16)
}

/// Flush below 2^-126 to a zero of the same sign (docs/matrix-unit.md, "The float of the models").
fn ftz(x: f32) -> f32 {
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// `RoundToBF16`: round to 8 significant bits, ties to even, flush below 2^-126.
pub fn round_bf16(x: f32) -> u16 {
    let x = ftz(x);
    let u = x.to_bits();
    let r = u.wrapping_add(0x7fff + ((u >> 16) & 1)) >> 16;
    let r = r as u16;
    if r & 0x7f80 == 0 {
        r & 0x8000
    } else {
        r
    }
}

fn src_a_fidelity_bits(x: f32, phase: u32) -> f32 {
    let u = x.to_bits();
    if phase & 1 == 0 {
        f32::from_bits(u & 0xfff8_0000)
    } else {
        ftz(x - f32::from_bits(u & 0xfff8_3fff))
    }
}

fn src_b_fidelity_bits(x: f32, phase: u32) -> f32 {
    let u = x.to_bits();
    if phase & 2 == 0 {
        f32::from_bits(u & 0xfffe_0000)
    } else {
        ftz(x - f32::from_bits(u & 0xfffe_1fff))
    }
}

/// `A + B`, element by element.
pub fn elwadd(a: &[u16], b: &[u16]) -> Vec<u16> {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| round_bf16(ftz(bf16(x) + bf16(y))))
        .collect()
}

/// `B @ A` (32x32 each) as the demo's MVMUL sequence accumulates it in BF16 Dst: for each
/// output element, k-face 0 then 1, each in fidelity phases 0..3.
pub fn matmul(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut out = vec![0u16; 1024];
    for r in 0..32 {
        for c in 0..32 {
            let mut dst = 0u16;
            for kf in 0..2 {
                for phase in 0..4 {
                    let mut x = 0f32;
                    for k in kf * 16..kf * 16 + 16 {
                        let bv = src_b_fidelity_bits(bf16(b[tile_index(r, k)]), phase);
                        let av = src_a_fidelity_bits(bf16(a[tile_index(k, c)]), phase);
                        x = ftz(x + ftz(bv * av));
                    }
                    dst = round_bf16(ftz(x + bf16(dst)));
                }
            }
            out[tile_index(r, c)] = dst;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RoundToBF16 rounds to nearest, ties to even.
    #[test]
    fn round_to_bf16_ties_to_even() {
        assert_eq!(round_bf16(f32::from_bits(0x3f80_8000)), 0x3f80);
        assert_eq!(round_bf16(f32::from_bits(0x3f81_8000)), 0x3f82);
        assert_eq!(round_bf16(f32::from_bits(0x3f80_8001)), 0x3f81);
    }

    /// Four fidelity phases consume every BF16 mantissa bit: (1 + 2^-7)^2 accumulates
    /// 1 + 2^-7 + 2^-7 (+ 2^-14, rounded away) = 1.015625; phase 0 alone would give 1.0.
    #[test]
    fn four_fidelity_phases_consume_every_bf16_bit() {
        let mut a = vec![0u16; 1024];
        let mut b = vec![0u16; 1024];
        a[tile_index(0, 0)] = 0x3f81;
        b[tile_index(0, 0)] = 0x3f81;
        assert_eq!(matmul(&a, &b)[tile_index(0, 0)], 0x3f82);
        assert_eq!(src_a_fidelity_bits(bf16(0x3f81), 0), 1.0);
        assert_eq!(src_b_fidelity_bits(bf16(0x3f81), 0), 1.0);
    }

    /// Faces are stored top-left, top-right, bottom-left, bottom-right.
    #[test]
    fn tile_faces_order() {
        assert_eq!(tile_index(0, 16), 256);
        assert_eq!(tile_index(16, 0), 512);
        assert_eq!(tile_index(31, 31), 1023);
    }
}
