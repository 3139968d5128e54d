//! LLK idioms as `.tsx` programs (examples/tensix/data/), run through the coprocessor with
//! real data: the bytes they leave in L1 and `Dst` are compared with values computed here,
//! independently, from the ISA pages' definitions of the formats.
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{run, DumpResult, RunOptions, RunResult};
use bhemu_tensix::Arch;

fn example(name: &str) -> RunResult {
    let path = format!(
        "{}/../../examples/tensix/data/{name}.tsx",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let p = parse(Arch::Blackhole, &path, &text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{name}: {:?}", r.error);
    r
}

fn dump<'a>(r: &'a RunResult, what: &str) -> &'a DumpResult {
    r.dumps
        .iter()
        .find(|d| d.what == what)
        .unwrap_or_else(|| panic!("no dump `{what}`"))
}

/// The two input tiles of copy_*.tsx, as the program's ramps define them: eight runs of 256
/// values `start + step * i`.
fn input_tiles() -> Vec<f32> {
    let ramps = [
        (0.0, 1.0),
        (-1.0, -1.0),
        (0.5, 0.5),
        (-0.5, -0.5),
        (1000.0, -8.0),
        (0.0078125, 0.0078125),
        (-256.0, 2.0),
        (0.125, 0.125),
    ];
    let mut v = Vec::new();
    for (start, step) in ramps {
        for i in 0..256 {
            v.push((start + step * i as f64) as f32);
        }
    }
    v
}

/// BF16 as the top half of FP32 (FloatBitPatterns.md: BF16 is truncated FP32).
fn bf16(f: f32) -> u32 {
    f.to_bits() >> 16
}

#[test]
fn unpack_two_bf16_tiles_move_to_dst_and_pack_bf16() {
    let r = example("copy_bf16");
    let want: Vec<u32> = input_tiles().into_iter().map(bf16).collect();
    // Every input value has at most 8 significant bits, so BF16 holds it exactly.
    for (i, f) in input_tiles().into_iter().enumerate() {
        assert_eq!(f32::from_bits(want[i] << 16), f, "input {i} exact in bf16");
    }
    assert_eq!(
        dump(&r, "dst 0..127").bits,
        want,
        "Dst rows 0..127 = tile A then tile B"
    );
    assert_eq!(dump(&r, "l1 0x20000").bits, want, "packed bf16 = input");
}

#[test]
fn pack_dst_bf16_as_fp32_widens_with_zero_low_bits() {
    let r = example("copy_fp32");
    let want: Vec<u32> = input_tiles().into_iter().map(|f| bf16(f) << 16).collect();
    assert_eq!(dump(&r, "l1 0x20000").bits, want);
}

/// Reference BFP8 (bfp8_b) packing of 16 values, from FloatBitPatterns.md's meaning of a
/// datum (Mag/2^6 * 2^(Exp-127)) and the packer's round-to-nearest, ties away from zero,
/// with the open cases of docs/tensix-formats.md (saturate at 127, no sign on zero).
fn bfp8_reference(vals: &[f32]) -> (u8, Vec<u8>) {
    let exp_of = |f: f32| ((f.to_bits() >> 23) & 0xff) as i32;
    let shared = vals.iter().map(|&f| exp_of(f)).max().unwrap_or(0);
    let quantum = 2f64.powi(shared - 127) / 64.0;
    let datums = vals
        .iter()
        .map(|&f| {
            if exp_of(f) == 0 {
                return 0;
            }
            let q = (f.abs() as f64) / quantum;
            let mag = (q + 0.5).floor().min(127.0) as u8; // ties away from zero
            if mag == 0 {
                0
            } else if f < 0.0 {
                0x80 | mag
            } else {
                mag
            }
        })
        .collect();
    (shared as u8, datums)
}

#[test]
fn pack_dst_bf16_as_bfp8_b_with_shared_exponents() {
    let r = example("copy_bfp8");
    let tile_a = &input_tiles()[..1024];
    let exps = &dump(&r, "l1 0x20000").bits;
    let datums = &dump(&r, "l1 0x20040").bits;
    for block in 0..64 {
        let (e, d) = bfp8_reference(&tile_a[block * 16..block * 16 + 16]);
        assert_eq!(exps[block], e as u32, "shared exponent of block {block}");
        let got: Vec<u8> = datums[block * 16..block * 16 + 16]
            .iter()
            .map(|&b| b as u8)
            .collect();
        assert_eq!(got, d, "datums of block {block}");
    }
}

#[test]
fn tilize_row_major_32x32_into_four_faces() {
    let r = example("tilize_bf16");
    let input: Vec<u32> = input_tiles()[..1024].iter().map(|&f| bf16(f)).collect();
    // Tile layout: face (fr, fc) holds rows 16*fr.., columns 16*fc.. of the matrix, each
    // face row-major, faces in the order top-left, top-right, bottom-left, bottom-right.
    let mut want = Vec::new();
    for face in 0..4 {
        let (fr, fc) = (face / 2, face % 2);
        for row in 0..16 {
            for col in 0..16 {
                want.push(input[(fr * 16 + row) * 32 + fc * 16 + col]);
            }
        }
    }
    assert_eq!(dump(&r, "l1 0x20000").bits, want);
}

#[test]
fn unpack_fp32_to_dst_and_pack_fp32_is_bit_exact() {
    let r = example("unpack_dst_fp32");
    let input = &dump(&r, "l1 0x10000").bits;
    // The ramp is not all-equal: a real copy, not zeros.
    assert_eq!(input[1], 0.47f32.to_bits());
    assert!(
        input.iter().any(|&b| b & 0xffff != 0),
        "full 23-bit mantissas"
    );
    assert_eq!(
        &dump(&r, "dst 0..63").bits,
        input,
        "Dst32b holds the FP32 values"
    );
    assert_eq!(&dump(&r, "l1 0x20000").bits, input, "packed back unchanged");
}
