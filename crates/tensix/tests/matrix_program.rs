//! The Matrix Unit through the whole coprocessor: `.tsx` programs unpack random BF16 tiles
//! from L1 into SrcA/SrcB (the real unpackers), run ELWADD / MVMUL, and dump Dst; the values
//! are checked against silicon's arithmetic (docs/matrix-unit.md) computed by `bhemu-refmath`,
//! with the operand placement of the programs here (tile A in SrcA, tile B in SrcB).
use bhemu_refmath::{dot16, DstKind, Operand};
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{run, RunOptions, RunResult};
use bhemu_tensix::Arch;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// 1024 random BF16 values (exponents 2^-8 .. 2^7, both signs), as exact f32s.
fn random_tile(r: &mut Rng) -> Vec<f32> {
    (0..1024)
        .map(|_| {
            let x = r.next();
            let bits = ((x as u32 & 0x8000)
                | ((119 + (x >> 20) as u32 % 16) << 7)
                | ((x >> 40) as u32 & 0x7f))
                << 16;
            f32::from_bits(bits)
        })
        .collect()
}

fn list(v: &[f32]) -> String {
    let s: Vec<String> = v.iter().map(|f| format!("{f:e}")).collect();
    format!("[{}]", s.join(", "))
}

/// Unpacks tile A to SrcA and tile B to SrcB (as examples/tensix/data/copy_bf16.tsx does),
/// then runs `math` on thread 1 and dumps Dst rows 0..63 as BF16.
fn program(a: &[f32], b: &[f32], math: &str) -> RunResult {
    let text = format!(
        "l1 0x10000 = bf16 {}\nl1 0x10800 = bf16 {}\n\
         cfg 64 = 0x04000015\ncfg 65 = 1\n\
         cfg THCON_SEC0_REG2_Out_data_format = 5\ncfg THCON_SEC0_REG3_Base_address = 0xfff\n\
         cfg UNP0_ADDR_BASE_REG_1_Base = 128\n\
         cfg 112 = 0x04000015\ncfg 113 = 1\n\
         cfg THCON_SEC1_REG2_Out_data_format = 5\ncfg THCON_SEC1_REG3_Base_address = 0x107f\n\
         cfg ALU_FORMAT_SPEC_REG0_SrcA = 5\n\
         [t0]\ncfg SRCA_SET_SetOvrdWithAddr = 1\nttsetadcxx 3, 1023, 0\n\
         ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1\n\
         ttunpacr 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1\n\
         [t1]\n{math}\nttsetrwc 3, 0, 0, 0, 0, 15\n\
         dump dst 0..63 bf16\n",
        list(a),
        list(b)
    );
    let p = parse(Arch::Blackhole, "matrix_program", &text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{:?}", r.error);
    r
}

fn dst_bf16(r: &RunResult, row: usize, col: usize) -> u32 {
    let d = r
        .dumps
        .iter()
        .find(|d| d.what.starts_with("dst"))
        .unwrap_or_else(|| panic!("no Dst dump"));
    d.bits[row * 16 + col]
}

/// The BF16 bits of an f32 that holds a BF16 value exactly.
fn bf16_bits(x: f32) -> u16 {
    (x.to_bits() >> 16) as u16
}

#[test]
fn unpacked_random_bf16_tiles_elwadd_into_dst() {
    let mut r = Rng(0x00e1_7add);
    let (a, b) = (random_tile(&mut r), random_tile(&mut r));
    let math = format!(
        "cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8\ncfg ADDR_MOD_AB_SEC0_SrcBIncr = 8\n\
         cfg ADDR_MOD_DST_SEC0_DestIncr = 8\n{}",
        "ttelwadd 0, 0, 0, 0, 0\n".repeat(8)
    );
    let res = program(&a, &b, &math);
    for row in 0..64 {
        for col in 0..16 {
            let i = row * 16 + col;
            assert_eq!(
                dst_bf16(&res, row, col),
                bhemu_refmath::tile::bf16_add(
                    bf16_bits(a[i]),
                    bf16_bits(b[i]),
                    false,
                    DstKind::Bf16
                ),
                "row {row} col {col}: {} + {}",
                a[i],
                b[i]
            );
        }
    }
}

#[test]
fn unpacked_random_bf16_face_mvmul_hifi2_into_dst() {
    // Dst[0..16] = SrcB[0..16] @ SrcA[0..16] over two MVMULs (rows 0-7, 8-15) per phase,
    // phases 0 and 1 (HiFi2: SrcA's ten bits 1.mmmm and mmmmm, SrcB's top seven).
    let mut r = Rng(0x003a_73a7);
    let (a, b) = (random_tile(&mut r), random_tile(&mut r));
    let math = "cfg ADDR_MOD_AB_SEC0_SrcBIncr = 8\ncfg ADDR_MOD_DST_SEC0_DestIncr = 8\n\
                cfg ADDR_MOD_AB_SEC1_SrcBClear = 1\ncfg ADDR_MOD_DST_SEC1_DestClear = 1\n\
                cfg ADDR_MOD_DST_SEC1_FidelityIncr = 1\n\
                ttmvmul 0, 0, 0, 0\nttmvmul 0, 0, 1, 0\nttmvmul 0, 0, 0, 0\nttmvmul 0, 0, 1, 0\n";
    let res = program(&a, &b, math);
    for i in 0..16 {
        for j in 0..16 {
            // SrcA column j and SrcB row i; Dst starts at +0; phases 0 and 1.
            let a_col: [Operand; 16] =
                std::array::from_fn(|k| Operand::bf16(bf16_bits(a[k * 16 + j])));
            let b_row: [Operand; 16] =
                std::array::from_fn(|k| Operand::bf16(bf16_bits(b[i * 16 + k])));
            let dst = (0..2).fold(0, |d, p| dot16(&a_col, &b_row, p, d, DstKind::Bf16));
            assert_eq!(dst_bf16(&res, i, j), dst, "row {i} col {j}");
        }
    }
}
