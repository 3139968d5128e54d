//! GMPOOL's edge cases worked out by hand from tt-isa-documentation:
//! WormholeB0/TensixTile/TensixCoprocessor/GMPOOL.md (`ReadAndScaleSrc`, `AsComparable`,
//! `WriteDst`): a SrcA denormal or negative zero is read as +0, exponent 255 is an ordinary
//! (largest) exponent, and a result whose exponent is 0 is written as +0. BF16 SrcA, BF16
//! (16-bit) Dst, no argmax; SrcB row 0 holds 1.0 (exponent 127, scale 2^0) in every column.
mod matrix_common;

use bhemu_isa::tensix::blackhole::Insn;
use matrix_common::*;

/// GMPOOL of SrcA column 0 = `col` onto Dst16b[0][0] = `dst` (rows 1..3 non-zero); returns
/// Dst16b rows 0..4 of column 0.
fn gmpool(col: [u32; 16], dst: u16) -> [u16; 4] {
    let mut m = Machine::new();
    for (i, &v) in col.iter().enumerate() {
        m.src_a.write(0, i, 0, v);
        m.src_b.write(0, 0, i, src_fp(0, 0, 127));
    }
    m.reference.w16(0, 0, dst);
    for row in 1..4 {
        m.reference.w16(row, 0, 0x1234); // GMPOOL zeroes these
    }
    m.sync_dst_from_reference();
    let w = Insn::Gmpool {
        clear_dvalid: 0,
        instr_mod19: 1,
        pool_addr_mode: 0,
        max_pool_index_en: 0,
        dst: 0,
    }
    .encode();
    if let Err(e) = m.run(w, regs(configs()[0].2, 0, 0, 0, 0)) {
        panic!("{e:?}");
    }
    let b = m.dst.bits();
    [b[0][0], b[1][0], b[2][0], b[3][0]]
}

/// Dst16b BF16 bits: Sign (15), Man (14..8), Exp (7..0).
fn dst_bf16(sign: u16, man7: u16, exp: u16) -> u16 {
    (sign << 15) | (man7 << 8) | exp
}

#[test]
fn negative_denormals_read_as_plus_zero_and_beat_negative_dst() {
    // Dst -1.0; every SrcA datum a negative denormal (exponent 0): each reads as +0, which is
    // greater than -1, and +0 (exponent 0) is written as 0. Read as values they would be
    // tiny negatives, written with a sign.
    let out = gmpool([src_fp(1, 0x3f8, 0); 16], dst_bf16(1, 0, 127));
    assert_eq!(out, [0, 0, 0, 0]);
}

#[test]
fn negative_zero_is_plus_zero() {
    let out = gmpool([src_fp(1, 0, 0); 16], dst_bf16(1, 0, 127));
    assert_eq!(out[0], 0);
}

#[test]
fn exponent_255_is_the_largest_finite_exponent() {
    // 1.5 * 2^128 (exponent 255) in row 5 beats 1.0 everywhere else and is written back with
    // exponent 255, mantissa 0x40 (Exponent 255 + 127 - 127).
    let mut col = [src_fp(0, 0, 127); 16];
    col[5] = src_fp(0, 0x200, 255);
    assert_eq!(gmpool(col, 0)[0], dst_bf16(0, 0x40, 255));
    // Negated, it is the smallest: -1.0 in row 3 wins over -1.5 * 2^128 elsewhere and over a
    // Dst of -1.5 * 2^128.
    let mut col = [src_fp(1, 0x200, 255); 16];
    col[3] = src_fp(1, 0, 127);
    assert_eq!(gmpool(col, dst_bf16(1, 0x40, 255))[0], dst_bf16(1, 0, 127));
}

#[test]
fn a_larger_dst_is_kept_and_the_next_three_rows_are_zeroed() {
    // Dst 4.0 stays when every SrcA datum is 2.0; rows 1..3 of the 4-row block become 0.
    let out = gmpool([src_fp(0, 0, 128); 16], dst_bf16(0, 0, 129));
    assert_eq!(out, [dst_bf16(0, 0, 129), 0, 0, 0]);
}
