//! The accumulator: "The accumulator" of `docs/matrix-unit.md`, rules A1–A6, as one function
//! ([`accumulate`]) with one helper per rule.

use crate::term::Term;

/// What `Dst` holds, and so how a result is rounded and written (A3, A5, A6). A 16-bit Dst
/// holds BF16 with 8-bit exponents (`e8`) and FP16 with 5-bit ones; the caller picks the kind
/// that goes with SrcA's format ([`DstKind::sixteen`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DstKind {
    /// 32-bit Dst: IEEE FP32 bits.
    Fp32,
    /// 16-bit Dst with `e8`: IEEE BF16 bits (in the low 16 bits of a `u32`).
    Bf16,
    /// 16-bit Dst without `e8`: IEEE FP16 bits (in the low 16 bits of a `u32`).
    Fp16,
}

impl DstKind {
    /// The 16-bit Dst kind that goes with `e8`.
    pub const fn sixteen(e8: bool) -> Self {
        if e8 {
            DstKind::Bf16
        } else {
            DstKind::Fp16
        }
    }

    /// Whether Dst is 16-bit (A3).
    pub const fn is_16bit(self) -> bool {
        !matches!(self, DstKind::Fp32)
    }

    /// A5: significant bits a result keeps: 24 (32-bit Dst), 8 (BF16), 11 (FP16).
    pub const fn a5_significant_bits(self) -> u32 {
        match self {
            DstKind::Fp32 => 24,
            DstKind::Bf16 => 8,
            DstKind::Fp16 => 11,
        }
    }

    /// Mantissa field width and exponent field position of the IEEE layout.
    const fn man_bits(self) -> u32 {
        self.a5_significant_bits() - 1
    }

    const fn sign_bit(self) -> u32 {
        match self {
            DstKind::Fp32 => 31,
            DstKind::Bf16 | DstKind::Fp16 => 15,
        }
    }

    const fn exp_mask(self) -> u32 {
        match self {
            DstKind::Fp32 | DstKind::Bf16 => 0xff,
            DstKind::Fp16 => 0x1f,
        }
    }

    /// IEEE bits of `(sign, exponent field, mantissa field)`.
    pub const fn encode(self, neg: bool, exp: u32, man: u32) -> u32 {
        ((neg as u32) << self.sign_bit()) | (exp << self.man_bits()) | man
    }
}

/// The old Dst value as a term: `(sign, exponent, 1.m)` with its mantissa widened to 23 bits
/// (BF16 with 16 zero bits below, FP16's 10 bits at the top of the 23), significand 0 when its
/// exponent is 0. `None` (ELWADD/ELWSUB without `AddDst`) is the all-zero term.
pub const fn dst_term(old: Option<u32>, dst: DstKind) -> Term {
    let Some(bits) = old else {
        return Term {
            neg: false,
            exp: 0,
            sig: 0,
        };
    };
    let neg = (bits >> dst.sign_bit()) & 1 != 0;
    let exp = (bits >> dst.man_bits()) & dst.exp_mask();
    let man = bits & ((1 << dst.man_bits()) - 1);
    let man23 = man << (23 - dst.man_bits());
    Term {
        neg,
        exp: exp as i32,
        sig: if exp == 0 {
            0
        } else {
            ((1 << 23) | man23) as u64
        },
    }
}

/// A1 Common exponent: the largest exponent among the terms and Dst.
pub fn a1_common_exponent(terms: &[Term], dst: &Term) -> i32 {
    terms.iter().map(|t| t.exp).fold(dst.exp, i32::max)
}

/// A2 Alignment: a significand `d` places below `E` shifted right by `d`, adding `2^(d-1)`
/// (round half up) or, for `half_down`, `2^(d-1) - 1` (a negative term's magnitude rounds
/// half down). A difference of 31 or more gives 0.
pub const fn a2_align(sig: u64, d: i32, half_down: bool) -> u64 {
    if d <= 0 {
        sig
    } else if d >= 31 {
        0
    } else {
        let half = 1u64 << (d - 1);
        (sig + half - half_down as u64) >> d
    }
}

/// A3 16-bit Dst pre-rounding: a significand rounded to a multiple of 2^13, half up, or half
/// down in magnitude (`half_down`, a negative term).
pub const fn a3_pre_round(sig: u64, half_down: bool) -> u64 {
    a2_align(sig, 13, half_down) << 13
}

/// A5 Normalisation and rounding of a non-zero magnitude `mag` at exponent `e`: its leading
/// one moved to bit 23 (`e` moved with it), rounded once, half up, to `bits` significant
/// bits. Returns the exponent and the `bits`-bit significand (leading one included).
pub const fn a5_normalise(mag: u64, e: i32, bits: u32) -> (i32, u64) {
    let lead = 63 - mag.leading_zeros();
    let e = e + lead as i32 - 23;
    if lead < bits {
        // No more bits than the result holds: exact.
        return (e, mag << (bits - 1 - lead));
    }
    let drop = lead + 1 - bits;
    let r = (mag + (1 << (drop - 1))) >> drop;
    if r >> bits != 0 {
        // The rounding carried: one place up.
        (e + 1, r >> 1)
    } else {
        (e, r)
    }
}

/// A6 Range and the write: exponent ≤ 0 is +0; with a 32-bit Dst or `e8` (BF16) an
/// exponent ≥ 255 is exponent 255 with mantissa 0, sign kept; with an FP16 Dst an exponent
/// ≥ 32 is exponent 31, mantissa 1023 (sign kept: the page names no other).
pub const fn a6_range(neg: bool, e: i32, sig: u64, dst: DstKind) -> u32 {
    let man = (sig as u32) & ((1 << dst.man_bits()) - 1);
    if e <= 0 {
        return 0;
    }
    match dst {
        DstKind::Fp32 | DstKind::Bf16 if e >= 255 => dst.encode(neg, 255, 0),
        DstKind::Fp16 if e >= 32 => dst.encode(neg, 31, 1023),
        _ => dst.encode(neg, e as u32, man),
    }
}

/// The accumulator (A1–A6): `terms` added to the old Dst value `old` (IEEE bits of `dst`;
/// `None` for an all-zero Dst term), returning the new Dst datum's IEEE bits.
pub fn accumulate(terms: &[Term], old: Option<u32>, dst: DstKind) -> u32 {
    let d = dst_term(old, dst);
    // A1: the common exponent; nothing at or below exponent 0 survives.
    let e = a1_common_exponent(terms, &d);
    if e <= 0 {
        return 0;
    }
    // A2 + A3: Dst always rounds half up; a negative term half down in magnitude.
    let place = |sig: u64, exp: i32, half_down: bool| {
        let s = a2_align(sig, e - exp, half_down);
        if dst.is_16bit() {
            a3_pre_round(s, half_down)
        } else {
            s
        }
    };
    // A4: the signed sum, starting from Dst's sign.
    let signed = |neg: bool, v: u64| if neg { -(v as i128) } else { v as i128 };
    let mut sum = signed(d.neg, place(d.sig, d.exp, false));
    for t in terms {
        sum += signed(t.neg, place(t.sig, t.exp, t.neg));
    }
    if sum == 0 {
        return 0;
    }
    let neg = sum < 0;
    let mag = sum.unsigned_abs() as u64;
    let (e, sig) = a5_normalise(mag, e, dst.a5_significant_bits());
    a6_range(neg, e, sig, dst)
}
