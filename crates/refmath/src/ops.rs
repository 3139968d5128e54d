//! One Dst datum of each instruction: the terms of "Terms" handed with the old Dst value to
//! the accumulator. Every function returns the new Dst datum's IEEE bits ([`DstKind`]).

use crate::accumulator::{accumulate, DstKind};
use crate::operand::Operand;
use crate::term::{t1_elwadd_term, t3_product, t4_group, t4_product, Product, Term};

/// ELWADD (ELWSUB when `sub`) of SrcA's `a` and SrcB's `b` (T1, T5, T6): `old` is the Dst
/// datum with `AddDst`, `None` without it (an all-zero Dst term). `phase` is the fidelity
/// phase (T6; 0 in every tt-llk kernel).
pub fn elwadd(
    a: Operand,
    b: Operand,
    sub: bool,
    phase: u32,
    old: Option<u32>,
    dst: DstKind,
) -> u32 {
    accumulate(&[t1_elwadd_term(a, b, sub, phase, dst)], old, dst)
}

/// T3 ELWMUL: one product term (T2, fidelity phase `phase`) plus the old Dst datum `old`; it
/// always accumulates, whatever the instruction's `AddDst` bit, so `old` is not optional.
pub fn elwmul(a: Operand, b: Operand, phase: u32, old: u32, dst: DstKind) -> u32 {
    accumulate(&[t3_product(a, b, phase, dst).term()], Some(old), dst)
}

/// T4 one output datum of MVMUL (and DOTPV, GAPOOL): `Dst += Σ_k b_row[k] · a_col[k]` over
/// k = 0..15, `a_col` being SrcA's column (`SrcA[k][c]`) and `b_row` SrcB's row
/// (`SrcB[r][k]`), in two groups k = 0..7 and 8..15 (T4), then the accumulator.
pub fn dot16(
    a_col: &[Operand; 16],
    b_row: &[Operand; 16],
    phase: u32,
    old: u32,
    dst: DstKind,
) -> u32 {
    accumulate(&dot16_terms(a_col, b_row, phase, dst), Some(old), dst)
}

/// The terms of [`dot16`]: each group of 8 products that contributes (T4) — at most two, in
/// a fixed array (a tile's reference computes millions of them: no allocation per datum).
pub fn dot16_terms(
    a_col: &[Operand; 16],
    b_row: &[Operand; 16],
    phase: u32,
    dst: DstKind,
) -> DotTerms {
    let products: [Product; 16] =
        core::array::from_fn(|k| t4_product(a_col[k], b_row[k], phase, dst));
    let mut out = DotTerms {
        terms: [Term {
            neg: false,
            exp: 0,
            sig: 0,
        }; 2],
        len: 0,
    };
    for group in products.chunks(8) {
        if let Some(t) = t4_group(group) {
            out.terms[out.len] = t;
            out.len += 1;
        }
    }
    out
}

/// The contributing terms of a 16-product dot product (0, 1 or 2), as a slice.
#[derive(Clone, Copy, Debug)]
pub struct DotTerms {
    terms: [Term; 2],
    len: usize,
}

impl core::ops::Deref for DotTerms {
    type Target = [Term];
    fn deref(&self) -> &[Term] {
        &self.terms[..self.len]
    }
}
