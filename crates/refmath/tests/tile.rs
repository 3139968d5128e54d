//! The tile helpers: tt-llk's kernels on 32x32 BF16 tiles, expected bits worked out by hand.

use bhemu_refmath::tile::{bf16_add, bf16_matmul_datum, bf16_matmul_tile, bf16_mul, tile_index};
use bhemu_refmath::DstKind;

#[test]
fn tile_faces_are_top_left_top_right_bottom_left_bottom_right() {
    assert_eq!(tile_index(0, 16), 256);
    assert_eq!(tile_index(16, 0), 512);
    assert_eq!(tile_index(31, 31), 1023);
}

#[test]
fn add_kernel_overwrites_dst() {
    // 1.0 + 2^-8 into BF16 (T1's tie, away from zero): 0x3f81; 1.0 - 2.0 = -1.0.
    assert_eq!(bf16_add(0x3f80, 0x3b80, false, DstKind::Bf16), 0x3f81);
    assert_eq!(bf16_add(0x3f80, 0x4000, true, DstKind::Fp32), 0xbf80_0000);
}

#[test]
fn mul_kernel_hifi4_of_short_mantissas_is_exact() {
    // 1.5 x 1.25: phase 0 takes 1536 >> 6 = 24 and 1280 >> 4 = 80, 1920 at 127: 1.875
    // (0x3ff0). Phase 1: SrcA's bits 5..1 are 0, phases 2-3: SrcB's low 4 are 0: products 0
    // at exponents below Dst's, which stays.
    assert_eq!(bf16_mul(0x3fc0, 0x3fa0, 4, DstKind::Bf16), 0x3ff0);
    assert_eq!(bf16_mul(0x3fc0, 0x3fa0, 1, DstKind::Fp32), 0x3ff0_0000);
}

#[test]
fn mul_kernel_lofi_drops_srca_low_mantissa_bits() {
    // (1 + 127/128) x 1.0: LoFi keeps SrcA's 1.1111 (31 of 2040 >> 6): 31 * 64 = 1984,
    // mantissa 960 << 13 = 0x780000: 1 + 120/128 = 0x3f80_0000 + 0x78_0000. HiFi2 adds
    // phase 1: SrcA's bits 5..1 = (2040 >> 1) & 31 = 28, 28 * 64 = 1792 at 122, i.e. 7/128
    // (exact): 1 + 127/128, mantissa 127 << 16 = 0x7f0000.
    assert_eq!(bf16_mul(0x3fff, 0x3f80, 1, DstKind::Fp32), 0x3ff8_0000);
    assert_eq!(bf16_mul(0x3fff, 0x3f80, 2, DstKind::Fp32), 0x3fff_0000);
}

#[test]
fn matmul_sums_both_inner_faces_of_every_inner_tile() {
    // in0 all 1.0, in1 all 0.5: each MVMUL adds 16 x 0.5 = 8 (see T4), two faces per inner
    // tile: 16.0 per tile (0x4180 BF16), 32.0 over two (0x4200). Phases 1-3 add products 0
    // whose exponents are below Dst's.
    let d = bf16_matmul_datum(1, 4, DstKind::Bf16, |_, _| 0x3f80, |_, _| 0x3f00);
    assert_eq!(d, 0x4180);
    let d = bf16_matmul_datum(2, 4, DstKind::Fp32, |_, _| 0x3f80, |_, _| 0x3f00);
    assert_eq!(d, 0x4200_0000);
}

#[test]
fn matmul_tile_places_in0_rows_against_in1_columns() {
    // in0 = identity, in1 = a tile whose (r, c) is 1 + c/128 for r = 5 and 0 elsewhere:
    // out(r, c) = in1(r, c) -> row 5 only.
    let mut in0 = [0u16; 1024];
    let mut in1 = [0u16; 1024];
    for i in 0..32 {
        in0[tile_index(i, i)] = 0x3f80;
        in1[tile_index(5, i)] = 0x3f80 | i as u16;
    }
    let out = bf16_matmul_tile(&in0, &in1, 4, DstKind::Bf16);
    for r in 0..32 {
        for c in 0..32 {
            let want = if r == 5 { 0x3f80 | c as u32 } else { 0 };
            assert_eq!(out[tile_index(r, c)], want, "({r}, {c})");
        }
    }
}
