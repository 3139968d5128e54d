//! Terms: "Terms" of `docs/matrix-unit.md`, rules T1, T2, T4, T5, T6 (T3 is
//! [`crate::ops::elwmul`]). A term is `(sign, exponent, significand)` with the significand's
//! units bit at bit 23, handed to the accumulator ([`crate::accumulate`]).

use crate::accumulator::DstKind;
use crate::operand::Operand;

/// One term for the accumulator. `exp` is signed: T6 and T2's phase adjustments can take it
/// below 1, and sums can take it past 255 before A6 decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// Sign: a negative term rounds half down in magnitude (A2, A3).
    pub neg: bool,
    /// Exponent (biased as Dst's).
    pub exp: i32,
    /// Significand, units bit at bit 23.
    pub sig: u64,
}

/// How far a term's significand sits above an 11-bit or 12-bit integer significand: T1, T3
/// and T4 shift left by 13 to put the units bit (bit 10) at bit 23.
pub const TERM_SHIFT: u32 = 13;

/// T1: an aligned operand whose exponent difference is this or more contributes 0.
pub const T1_MAX_SHIFT: i32 = 12;

/// T4: shifts are capped at 30 places, which leaves 0.
pub const T4_MAX_SHIFT: i32 = 30;

/// T1 Element-wise add (ELWADD; ELWSUB when `sub`), with T5 (FP16 into a 32-bit Dst) and T6
/// (fidelity phase `phase`, its low two bits) applied to the term's exponent.
pub fn t1_elwadd_term(a: Operand, b: Operand, sub: bool, phase: u32, dst: DstKind) -> Term {
    let b = if sub { b.negated() } else { b };
    // Order by magnitude: exponent field, then mantissa field; a tie keeps SrcA first.
    let (big, small) = if (b.exp, b.man) > (a.exp, a.man) {
        (b, a)
    } else {
        (a, b)
    };
    // A zero operand has significand 0 and exponent 0 (its exponent field is 0 already).
    let d = big.exp as i32 - small.exp as i32;
    let m = small.significand() as i64;
    let shifted = if d >= T1_MAX_SHIFT {
        0
    } else if d <= 0 {
        m
    } else {
        (m + (1 << (d - 1))) >> d
    };
    let big_m = big.significand() as i64;
    let mut sum = if big.neg == small.neg {
        big_m + shifted
    } else {
        big_m - shifted
    };
    let mut neg = big.neg;
    // Only reachable with O3's zero flag disabled (a zero SrcA against `1.m` at exponent 0,
    // ordered first by its mantissa field): the page does not say; the sign follows the sum.
    if sum < 0 {
        sum = -sum;
        neg = !neg;
    }
    let exp = t6_fidelity_exponent(t5_fp16_into_dst32(big.exp as i32, a.e8(), dst), phase);
    Term {
        neg,
        exp,
        sig: (sum as u64) << TERM_SHIFT,
    }
}

/// T5 FP16 into a 32-bit Dst: with 5-bit exponents and a 32-bit Dst, an element-wise term of
/// non-zero exponent is re-biased by +112 (15 → 127) and a zero term takes exponent 97.
pub const fn t5_fp16_into_dst32(exp: i32, e8: bool, dst: DstKind) -> i32 {
    if e8 || !matches!(dst, DstKind::Fp32) {
        exp
    } else if exp != 0 {
        exp + 112
    } else {
        97
    }
}

/// T6 Fidelity on ELWADD/ELWSUB: the exponent is lowered by 5 when bit 0 of the phase is set
/// and by 7 when bit 1 is (a division by 32 and by 128).
pub const fn t6_fidelity_exponent(exp: i32, phase: u32) -> i32 {
    let mut e = exp;
    if phase & 1 != 0 {
        e -= 5;
    }
    if phase & 2 != 0 {
        e -= 7;
    }
    e
}

/// A T2 product: a 12-bit significand `m` (units bit at bit 10, as 5 bits x 7 bits with
/// units at bits 4 and 6) and its exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Product {
    /// SrcA's sign xor SrcB's (a zero term is positive).
    pub neg: bool,
    /// `expA + expB + adj`, or `max(adj, 0)` for the zero term.
    pub exp: i32,
    /// The 12-bit product of the two slices; 0 for the zero term.
    pub m: u64,
}

impl Product {
    /// The product as one term (T3): significand shifted left by 13.
    pub const fn term(self) -> Term {
        Term {
            neg: self.neg,
            exp: self.exp,
            sig: self.m << TERM_SHIFT,
        }
    }
}

/// T2: the exponent adjustment of a product: −127 for 8-bit exponents; for 5-bit ones −15,
/// or +97 into a 32-bit Dst; lowered by 5 on odd phases and by 7 on phases 2 and 3.
pub const fn t2_adj(e8: bool, dst: DstKind, phase: u32) -> i32 {
    let p = phase & 3;
    let mut adj = if e8 {
        -127
    } else if matches!(dst, DstKind::Fp32) {
        97
    } else {
        -15
    };
    if p & 1 != 0 {
        adj -= 5;
    }
    if p >= 2 {
        adj -= 7;
    }
    adj
}

/// T2: SrcA's 5 bits for phase `p`: `1.mmmm` (top 5 of the 11-bit significand) on even `p`,
/// mantissa bits 5..1 on odd `p`.
pub const fn t2_src_a_bits(a: &Operand, phase: u32) -> u64 {
    let s = a.significand() as u64;
    if phase & 1 == 0 {
        s >> 6
    } else {
        (s >> 1) & 31
    }
}

/// T2: SrcB's 7 bits for phase `p`: `1.mmmmmm` (top 7 of 11) when `p < 2`, the low 4
/// mantissa bits as the top of a 7-bit field (`(m & 15) << 3`) when `p >= 2`.
pub const fn t2_src_b_bits(b: &Operand, phase: u32) -> u64 {
    if phase & 3 < 2 {
        (b.significand() as u64) >> 4
    } else {
        ((b.man & 15) as u64) << 3
    }
}

/// T2 Product of SrcA's `a` and SrcB's `b` in fidelity phase `phase` (`(FidelityPhase +
/// FIDELITY_BASE_Phase) & 3`; only the low two bits are read). `e8` is SrcA's (O2). A
/// product with a zero operand is the zero term: significand 0 with exponent `max(adj, 0)`.
/// This is the dot products' product (T4); ELWMUL's is [`t3_product`].
pub fn t4_product(a: Operand, b: Operand, phase: u32, dst: DstKind) -> Product {
    let adj = t2_adj(a.e8(), dst, phase);
    if a.is_zero() || b.is_zero() {
        return zero_term(adj);
    }
    Product {
        neg: a.neg != b.neg,
        exp: a.exp as i32 + b.exp as i32 + adj,
        m: t2_src_a_bits(&a, phase) * t2_src_b_bits(&b, phase),
    }
}

/// T3 ELWMUL's product: [`t4_product`], and the zero term also when the product's exponent is
/// ≤ 0 (a dot product keeps such products).
pub fn t3_product(a: Operand, b: Operand, phase: u32, dst: DstKind) -> Product {
    let p = t4_product(a, b, phase, dst);
    if p.exp <= 0 {
        zero_term(t2_adj(a.e8(), dst, phase))
    } else {
        p
    }
}

/// T2's zero term for the re-bias `adj`.
const fn zero_term(adj: i32) -> Product {
    Product {
        neg: false,
        exp: if adj > 0 { adj } else { 0 },
        m: 0,
    }
}

/// T4 alignment of a product `d` places below its group's exponent: `(2m + 2^d) >> (d + 1)`
/// (round half up); 30 places or more leave 0.
pub const fn t4_align(m: u64, d: i32) -> u64 {
    if d <= 0 {
        m
    } else if d >= T4_MAX_SHIFT {
        0
    } else {
        (2 * m + (1 << d)) >> (d + 1)
    }
}

/// T4 one group of a dot product (8 products): every product aligned to the group's largest
/// exponent (zero terms' exponents included), the signed products summed exactly, the group
/// one term: the sum's sign, the group's exponent, the sum's magnitude shifted left by 13.
/// `None` when the group's largest exponent is ≤ 0 (it contributes nothing).
pub fn t4_group(products: &[Product]) -> Option<Term> {
    let e = products.iter().map(|p| p.exp).max()?;
    if e <= 0 {
        return None;
    }
    let sum: i64 = products
        .iter()
        .map(|p| {
            let v = t4_align(p.m, e - p.exp) as i64;
            if p.neg {
                -v
            } else {
                v
            }
        })
        .sum();
    Some(Term {
        neg: sum < 0,
        exp: e,
        sig: sum.unsigned_abs() << TERM_SHIFT,
    })
}
