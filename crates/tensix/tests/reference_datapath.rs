//! The Matrix Unit's datapath against Tenstorrent's reference simulator, cell by cell: every
//! operation (ELWADD, ELWSUB, ELWMUL, the dot product of MVMUL/DOTPV/GAPOOL), operand precision
//! (BF16, TF32, BF16 with TF32, FP16), Dst width, fidelity phase and accumulate mode, on random
//! operands over the whole encoding space (exponents 0 and maximum, all-ones and zero mantissas,
//! near-equal exponents). The reference's own arithmetic functions compute the expected words
//! through `scripts/reference-tensix.sh`'s generator (docs/matrix-unit.md "Confirmed");
//! without it the test says so and passes.
//!
//! Counts: `BHEMU_DATAPATH_ELW` (element-wise results per cell, default 100000) and
//! `BHEMU_DATAPATH_DOT` (dot products per cell, default 100000); `BHEMU_DATAPATH_SEED`.
mod reference_common;
use reference_common::{generator, start};

use bhemu_tensix::matrix::datapath::{
    accumulate, add_term, group_term, product_adj, product_term, AccMode, Operand, Precision,
    Product,
};

fn count(var: &str, default: u32) -> u32 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The reference's Src layout (sign 18, exponent 17..10, mantissa 9..0) in SrcASrcB.md's (sign
/// 18, mantissa 17..8, exponent 7..0).
fn src(v: u32) -> u32 {
    (v & 0x4_0000) | ((v & 0x3ff) << 8) | ((v >> 10) & 0xff)
}

fn precision(code: u32) -> Precision {
    match code {
        0 => Precision::Tf32,
        1 => Precision::Bf16,
        _ => Precision::Fp16,
    }
}

const OPS: [&str; 4] = ["ELWADD", "ELWSUB", "ELWMUL", "MVMUL dot"];
const PRECISIONS: [&str; 3] = ["TF32", "BF16", "FP16"];

#[test]
fn matrix_unit_datapath_equals_the_reference_in_every_cell() {
    let Some(gen) = generator("BHEMU_DATAPATH_GEN", ".cache/reference/datapath/gen") else {
        eprintln!(
            "skipped: no datapath generator (scripts/reference-tensix.sh builds it from the ttsim source)"
        );
        return;
    };
    let seed = count("BHEMU_DATAPATH_SEED", 1);
    let (elw_n, dot_n) = (
        count("BHEMU_DATAPATH_ELW", 100_000),
        count("BHEMU_DATAPATH_DOT", 100_000),
    );
    let (mut child, mut w) = start(
        &gen,
        &[seed.to_string(), elw_n.to_string(), dot_n.to_string()],
    );
    let mut cells = 0;
    let (mut total, mut bad_total) = (0u64, 0u64);
    while let Some(magic) = w.try_next() {
        assert_eq!(magic, 0xCE11_CE11, "generator stream out of step");
        let h: Vec<u32> = (0..7).map(|_| w.next()).collect();
        let (op, pa, pb, wide, phase, acc, n) =
            (h[0], h[1], h[2], h[3] != 0, h[4], h[5] != 0, h[6]);
        let (pa, pb) = (precision(pa), precision(pb));
        let mode = AccMode {
            wide,
            e8: pa != Precision::Fp16,
        };
        let adj = product_adj(mode, phase);
        let mut bad = 0u32;
        for _ in 0..n {
            let (got, want, what) = if op < 3 {
                let (a, b, d, want) = (w.next(), w.next(), w.next(), w.next());
                let b_signed = if op == 1 { b ^ (1 << 18) } else { b };
                let (oa, ob) = (
                    Operand::read(src(a), pa, true),
                    Operand::read(src(b_signed), pb, true),
                );
                let got = if op == 2 {
                    accumulate([product_term(oa, ob, phase, adj)], d, mode)
                } else {
                    accumulate([add_term(oa, ob, mode, 0)], if acc { d } else { 0 }, mode)
                };
                (got, want, format!("a {a:#07x} b {b:#07x} dst {d:#010x}"))
            } else {
                let (d, want) = (w.next(), w.next());
                let a: Vec<u32> = (0..16).map(|_| w.next()).collect();
                let b: Vec<u32> = (0..16).map(|_| w.next()).collect();
                let p: Vec<Product> = (0..16)
                    .map(|k| {
                        Product::of(
                            Operand::read(src(a[k]), pa, true),
                            Operand::read(src(b[k]), pb, true),
                            phase,
                            adj,
                        )
                    })
                    .collect();
                let got = accumulate([group_term(&p[..8]), group_term(&p[8..])], d, mode);
                (got, want, format!("dst {d:#010x} a {a:x?} b {b:x?}"))
            };
            if got != want {
                bad += 1;
                if bad <= 3 {
                    eprintln!(
                        "{} {:?}x{:?} wide {wide} phase {phase}: {what}: bhemu {got:#010x}, reference {want:#010x}",
                        OPS[op as usize], pa, pb
                    );
                }
            }
        }
        let label = |p: Precision| match p {
            Precision::Tf32 => PRECISIONS[0],
            Precision::Bf16 => PRECISIONS[1],
            Precision::Fp16 => PRECISIONS[2],
        };
        println!(
            "| {} | {}x{} | {} | {} | {} | {n} | {bad} |",
            OPS[op as usize],
            label(pa),
            label(pb),
            if wide { "32-bit" } else { "16-bit" },
            phase,
            if op < 2 {
                if acc {
                    "+="
                } else {
                    "="
                }
            } else {
                "+="
            },
        );
        cells += 1;
        total += u64::from(n);
        bad_total += u64::from(bad);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "generator failed: {status}");
    println!("{cells} cells, {total} results, {bad_total} different");
    assert!(cells > 0, "the generator produced no cells");
    assert_eq!(bad_total, 0, "bhemu differs from the reference");
}
