//! Unit tests of `bhemu run`: the description's parsing, data encodings and references.
use super::*;

/// Round-to-nearest-even at bit 16 (bf16 keeps the top 16 bits of an f32).
#[test]
fn bf16_rounding_is_nearest_even() {
    assert_eq!(f32_to_bf16(1.0), 0x3F80);
    assert_eq!(f32_to_bf16(f32::from_bits(0x3F80_8000)), 0x3F80); // tie, even stays
    assert_eq!(f32_to_bf16(f32::from_bits(0x3F81_8000)), 0x3F82); // tie, odd rounds up
    assert_eq!(f32_to_bf16(f32::from_bits(0x3F80_8001)), 0x3F81);
}

#[test]
fn int32_format_reads_twos_complement_and_references_keep_the_32_bits() {
    assert_eq!(Format::parse("int32", "f").ok(), Some(Format::I32));
    assert_eq!(Format::parse("i32", "f").ok(), Some(Format::I32));
    assert_eq!(element(Format::I32, &(-5i32).to_le_bytes(), 0), -5.0);
    let mut v = Vec::new();
    encode(Format::I32, -7.0, &mut v);
    assert_eq!(v, (-7i32).to_le_bytes());
    // Random int32 data spans the whole range (both signs, large magnitudes).
    let d = random_data(Format::I32, 3, 4096, None);
    let xs: Vec<i32> = d
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(xs.iter().any(|&x| x < -(1 << 30)) && xs.iter().any(|&x| x > 1 << 30));
    // An SFPU integer op's reference is written as its 32 bits.
    let r = parse_reference("sfpu_int_shift_add(in)", "f").unwrap();
    let input = (-1i32).to_le_bytes();
    let math = Math {
        mkn: [1, 1, 1],
        phases: 4,
        dst_fp32: true,
    };
    let out = reference_output(&r, &[(Format::I32, &input)], Format::I32, 1, math);
    assert_eq!(out, (-8 - 1 + 1234i32).to_le_bytes());
}

#[test]
fn ulp_distance_crosses_zero() {
    let p = 0x0001u16.to_le_bytes();
    let m = 0x8001u16.to_le_bytes();
    assert_eq!(ulp_distance(Format::Bf16, &p, &m), 2);
}

#[test]
fn reference_parses_op_and_operands() {
    let r = parse_reference("add(a, b)", "output[0].reference").unwrap();
    assert_eq!((r.op.as_str(), r.operands.len()), ("add", 2));
    let e = parse_reference("add(a)", "output[0].reference")
        .err()
        .unwrap();
    assert!(e.to_string().starts_with("output[0].reference:"), "{e}");
}

/// A 32x32 tile's element (r, c) lives in face (r/16)*2 + c/16, row-major within the face.
#[test]
fn tile_faces_are_row_major_16x16() {
    assert_eq!(tile_index(0, 15), 15);
    assert_eq!(tile_index(0, 16), 256);
    assert_eq!(tile_index(16, 0), 512);
    assert_eq!(tile_index(31, 31), 1023);
}

#[test]
fn pcc_of_identical_series_is_one() {
    let x = [1.0, 2.0, 3.0];
    assert!((pcc(&x, &x) - 1.0).abs() < 1e-12);
    assert!((pcc(&x, &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
}

#[test]
fn pcc_leaves_out_pairs_that_are_not_finite() {
    let x = [1.0, f64::NAN, 2.0, 3.0, f64::INFINITY];
    let y = [1.0, f64::NAN, 2.0, 3.0, 5.0];
    assert!((pcc(&x, &y) - 1.0).abs() < 1e-12, "{}", pcc(&x, &y));
}

/// References computed on several threads come back in tile order, one per tile.
#[test]
fn per_tile_references_keep_tile_order() {
    let inputs: Vec<Vec<Vec<u8>>> = (0..141u32)
        .map(|t| vec![t.to_le_bytes().to_vec()])
        .collect();
    let out = super::verdict::per_tile_parallel(&inputs, |tile| {
        u32::from_le_bytes([tile[0][0], tile[0][1], tile[0][2], tile[0][3]]) * 3
    });
    let want: Vec<Option<u32>> = (0..141u32).map(|t| Some(t * 3)).collect();
    assert_eq!(out, want);
}

#[test]
fn random_bits_covers_every_bf16_exponent_class_and_shares_base_exponents() {
    let a = random_bits(Format::Bf16, 5, 77, 2048 * 4);
    let b = random_bits(Format::Bf16, 6, 77, 2048 * 4);
    let words = |d: &[u8]| -> Vec<u16> {
        d.chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let (wa, wb) = (words(&a), words(&b));
    let exp = |w: u16| (w >> 7) & 0xff;
    assert!(wa.iter().any(|&w| exp(w) == 0 && w & 0x7f != 0), "denormal");
    assert!(wa.contains(&0x8000), "minus zero");
    assert!(wa.iter().any(|&w| exp(w) == 0xff && w & 0x7f != 0), "NaN");
    assert!(wa.iter().any(|&w| w & 0x7fff == 0x7f80), "infinity");
    // The same run's inputs draw near-equal exponents at the same places most of the time.
    let near = wa
        .iter()
        .zip(&wb)
        .filter(|(x, y)| exp(**x).abs_diff(exp(**y)) <= 4)
        .count();
    assert!(near * 2 > wa.len(), "{near} of {}", wa.len());
}

#[test]
fn bfp8_b_datum_is_exponent_byte_then_sign_magnitude() {
    // Tile: exponent 0x80 for face row 0, datum 1 = 0xc0 (sign, magnitude 64/64 = 1.0).
    let mut t = vec![0u8; Format::Bfp8b.bytes()];
    t[0] = 0x80;
    t[64 + 1] = 0xc0;
    assert_eq!(datum(Format::Bfp8b, &t, 1), Some((0x80c0, -2.0)));
    let mut t4 = vec![0u8; Format::Bfp4b.bytes()];
    t4[0] = 0x7f;
    t4[64] = 0x5c; // datum 0 = 0xc (sign, 4/4), datum 1 = 0x5 (magnitude 5/4)
    assert_eq!(datum(Format::Bfp4b, &t4, 0), Some((0x7f0c, -1.0)));
    assert_eq!(datum(Format::Bfp4b, &t4, 1), Some((0x7f05, 1.25)));
    assert_eq!(Format::Bfp8b.elements(1088 * 4), 4096);
}

#[test]
fn fp16_encodes_round_to_nearest_even() {
    assert_eq!(f32_to_fp16(1.0), 0x3c00);
    assert_eq!(f32_to_fp16(1.0 + 1.0 / 2048.0), 0x3c00); // tie to even
    assert_eq!(f32_to_fp16(1.0 + 3.0 / 2048.0), 0x3c02);
    assert_eq!(f32_to_fp16(-65520.0), 0xfc00);
    assert_eq!(f32_to_fp16(5.960_464_5e-8), 0x0001);
    assert_eq!(fp16_to_f32(0xc000), -2.0);
}
