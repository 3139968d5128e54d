//! The Matrix Unit's datapath as silicon builds it: short integer significands, alignment by
//! shifting with round-half-up, one accumulator that adds the instruction's terms to the old Dst
//! value and rounds once. The rules, numbered, are in `docs/matrix-unit.md` ("Operands",
//! "Terms", "The accumulator"); each function here names the rule it implements.
//!
//! Why not IEEE `float`: silicon's adders truncate and round while aligning, round ties away from
//! zero, never produce denormals and read exponent 255 as a finite number. The ISA pages'
//! `float` models are "a rough guide"; Tenstorrent's reference simulator states it is bit-exact
//! with silicon, and this module equals it bit for bit (the differential runs of
//! `docs/reference.md`).
//!
//! Values cross this module's boundary in two layouts only: a Src datum (SrcASrcB.md's 19-bit
//! TF32 layout: sign 18, mantissa 17..8, exponent 7..0) and the accumulator's 32-bit word (sign
//! 31, exponent 30..23, mantissa 22..0; with FP16 the 5-bit exponent sits in 27..23 and the
//! 10-bit mantissa in 22..13). Converting that word to and from Dst's storage is the caller's.

/// O1: how many mantissa bits of a Src datum the unit reads, from the bank's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// TF32: all 10 mantissa bits, 8-bit exponent.
    Tf32,
    /// FP16 and FP8 (format codes 1 and 10): 10 mantissa bits, the low 5 exponent bits.
    Fp16,
    /// Every other format: the top 7 mantissa bits, 8-bit exponent.
    Bf16,
}

impl Precision {
    /// O1 for a data-format code (`DataFormat` numbering).
    pub fn of_format(code: u32) -> Precision {
        match code & 0xf {
            4 => Precision::Tf32,
            1 | 10 => Precision::Fp16,
            _ => Precision::Bf16,
        }
    }
}

/// One Src operand as the unit reads it (O1–O3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Operand {
    pub sign: u32,
    /// The exponent field (5 bits for FP16).
    pub exp: i32,
    /// The mantissa field at O1's precision (10 bits, low 3 clear for BF16).
    pub man: u32,
    /// O3: the operand reads as zero (exponent field 0, unless the zero flag is disabled).
    pub zero: bool,
}

impl Precision {
    /// The masks of the exponent (bits 7..0) and of the mantissa (bits 9..0, after the shift
    /// down by 8) of a Src datum that the unit reads at this precision (O1).
    #[inline(always)]
    pub fn masks(self) -> (u32, u32) {
        match self {
            Precision::Tf32 => (0xff, 0x3ff),
            Precision::Fp16 => (0x1f, 0x3ff),
            Precision::Bf16 => (0xff, 0x3f8),
        }
    }
}

impl Operand {
    /// Reads a 19-bit Src datum. `flush` is O3's zero rule (false only for SrcB with
    /// `ALU_ACC_CTRL_Zero_Flag_disabled_src`).
    #[inline]
    pub fn read(v: u32, p: Precision, flush: bool) -> Operand {
        let sign = (v >> 18) & 1;
        let (exp_mask, man_mask) = p.masks();
        let (exp, man) = (v & exp_mask, (v >> 8) & man_mask);
        let zero = flush && exp == 0;
        if zero {
            return Operand {
                zero: true,
                ..Operand::default()
            };
        }
        Operand {
            sign,
            exp: exp as i32,
            man,
            zero: false,
        }
    }

    /// The 11-bit significand `1.m`.
    #[inline]
    fn sig(self) -> u32 {
        self.man | 0x400
    }

    /// T1 orders operands by exponent, then mantissa.
    #[inline]
    fn magnitude_key(self) -> u32 {
        ((self.exp as u32) << 10) | self.man
    }

    /// T1's significand: 0 for an operand that is all zero bits, else `1.m` (so a SrcB of
    /// exponent 0 read without flushing still carries its implicit one).
    #[inline]
    fn add_sig(self) -> u32 {
        if self.zero || (self.sign == 0 && self.exp == 0 && self.man == 0) {
            0
        } else {
            self.sig()
        }
    }
}

/// A term handed to the accumulator: sign, exponent in the accumulator's bias, and a
/// significand whose units bit is bit 23.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Term {
    pub negative: bool,
    pub exp: i32,
    pub sig: u32,
}

/// What the accumulator writes: a 32-bit Dst, or a 16-bit one; `e8` says whether exponents
/// are 8-bit (decided by SrcA's format, O2) or FP16's 5-bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccMode {
    pub wide: bool,
    pub e8: bool,
}

impl AccMode {
    /// A5: the bits kept below the leading one's position 23 are rounded away to this many
    /// (16 for BF16, 13 for FP16, none with a 32-bit Dst).
    #[inline]
    pub(super) fn dropped_bits(self) -> i32 {
        match (self.wide, self.e8) {
            (true, _) => 0,
            (false, true) => 16,
            (false, false) => 13,
        }
    }
}

/// T1 (ELWADD; ELWSUB passes SrcB with its sign flipped) with T5 and T6.
#[inline]
pub fn add_term(a: Operand, b: Operand, mode: AccMode, phase: u32) -> Term {
    let (big, small) = if a.magnitude_key() < b.magnitude_key() {
        (b, a)
    } else {
        (a, b)
    };
    let (big_sig, mut small_sig) = (big.add_sig(), small.add_sig());
    let diff = big.exp - small.exp;
    if diff > 0 {
        small_sig = if diff < 12 {
            (small_sig + (1 << (diff - 1))) >> diff
        } else {
            0
        };
    }
    let sum = if big.sign == small.sign {
        big_sig + small_sig
    } else {
        big_sig.wrapping_sub(small_sig)
    };
    let mut exp = big.exp;
    if mode.wide && !mode.e8 {
        // T5: FP16 terms re-biased for a 32-bit Dst.
        exp = if exp != 0 { exp + 112 } else { 97 };
    }
    // T6: the ELWADD page's divisions by 32 and 128 on a non-zero fidelity phase.
    if phase & 1 != 0 {
        exp -= 5;
    }
    if phase & 2 != 0 {
        exp -= 7;
    }
    Term {
        negative: big.sign != 0,
        exp,
        sig: sum.wrapping_shl(13),
    }
}

/// T2: the exponent re-bias of a product for this mode and fidelity phase.
#[inline]
pub fn product_adj(mode: AccMode, phase: u32) -> i32 {
    let mut adj = match (mode.e8, mode.wide) {
        (true, _) => -127,
        (false, true) => 127 - 30,
        (false, false) => -15,
    };
    if phase & 1 != 0 {
        adj -= 5;
    }
    if phase & 2 != 0 {
        adj -= 7;
    }
    adj
}

/// T2: which bits of an 11-bit significand a multiplier takes: `((sig >> down) & mask) << up`.
/// A phase fixes them, so a loop over many datums of one phase decides them once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub down: u32,
    pub mask: u32,
    pub up: u32,
}

impl Slice {
    /// SrcA's 5 bits: bits 1..5 in odd phases, else the top five.
    #[inline(always)]
    pub fn a(phase: u32) -> Slice {
        if phase & 1 != 0 {
            Slice {
                down: 1,
                mask: 31,
                up: 0,
            }
        } else {
            Slice {
                down: 6,
                mask: 31,
                up: 0,
            }
        }
    }

    /// SrcB's 7 bits: the low four shifted up in phases 2 and 3, else the top seven.
    #[inline(always)]
    pub fn b(phase: u32) -> Slice {
        if phase & 2 != 0 {
            Slice {
                down: 0,
                mask: 15,
                up: 3,
            }
        } else {
            Slice {
                down: 4,
                mask: 127,
                up: 0,
            }
        }
    }

    #[inline(always)]
    pub fn of(self, sig: u32) -> u32 {
        ((sig >> self.down) & self.mask) << self.up
    }
}

/// T2: SrcA's 5 significand bits for `phase`.
#[inline]
pub fn a_slice(sig: u32, phase: u32) -> u32 {
    Slice::a(phase).of(sig)
}

/// T2: SrcB's 7 significand bits for `phase`.
#[inline]
pub fn b_slice(sig: u32, phase: u32) -> u32 {
    Slice::b(phase).of(sig)
}

/// T2/T3: one product as a term (ELWMUL). A zero operand or an exponent ≤ 0 gives the zero
/// term, whose exponent `max(adj, 0)` still takes part in A1.
#[inline]
pub fn product_term(a: Operand, b: Operand, phase: u32, adj: i32) -> Term {
    let exp = a.exp + b.exp + adj;
    if a.zero || b.zero || exp <= 0 {
        return Term {
            negative: false,
            exp: adj.max(0),
            sig: 0,
        };
    }
    Term {
        negative: a.sign != b.sign,
        exp,
        sig: (a_slice(a.sig(), phase) * b_slice(b.sig(), phase)) << 13,
    }
}

/// One product of a dot product before alignment: its exponent and signed 12-bit value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Product {
    pub exp: i32,
    pub value: i32,
}

impl Product {
    /// T2 for the dot products: the zero product takes exponent `max(adj, 0)`.
    #[inline]
    pub fn of(a: Operand, b: Operand, phase: u32, adj: i32) -> Product {
        let exp = a.exp + b.exp + adj;
        if a.zero || b.zero {
            return Product {
                exp: adj.max(0),
                value: 0,
            };
        }
        let m = (a_slice(a.sig(), phase) * b_slice(b.sig(), phase)) as i32;
        Product {
            exp,
            value: if a.sign != b.sign { -m } else { m },
        }
    }
}

/// T4: eight products as one term: aligned to the largest exponent with round half up, summed
/// exactly. A group whose largest exponent is ≤ 0 contributes nothing.
#[inline]
pub fn group_term(products: &[Product]) -> Term {
    let top = products.iter().map(|p| p.exp).max().unwrap_or(0);
    if top <= 0 {
        return Term::default();
    }
    let mut sum = 0i32;
    for p in products {
        let d = (top - p.exp).min(30) as u32;
        let m = p.value.unsigned_abs();
        let aligned = ((m << 1) + (1 << d)) >> (d + 1);
        sum += if p.value < 0 {
            -(aligned as i32)
        } else {
            aligned as i32
        };
    }
    Term {
        negative: sum < 0,
        exp: top,
        sig: sum.unsigned_abs() << 13,
    }
}

/// The accumulator's view of the old Dst value (an accumulator word): its significand with the
/// implicit one, or 0 when its exponent is 0.
#[inline]
pub fn dst_term(word: u32) -> Term {
    let exp = ((word >> 23) & 0xff) as i32;
    Term {
        negative: word >> 31 != 0,
        exp,
        sig: if exp == 0 {
            0
        } else {
            (word & 0x7f_ffff) | 0x80_0000
        },
    }
}

/// A2 (and A3 for a 16-bit Dst): a significand shifted down to the common exponent. Terms
/// round half up, or half down in magnitude when negative; Dst's own term (`biased = false`)
/// always rounds half up.
#[inline]
fn align(t: Term, top: i32, biased: bool, mode: AccMode) -> u32 {
    let bias = u32::from(biased && t.negative);
    let d = top - t.exp;
    let mut m = t.sig;
    if d > 0 {
        m = if d < 31 {
            (m + (1 << (d - 1)) - bias) >> d
        } else {
            0
        };
    }
    if !mode.wide {
        m = (m + (1 << 12) - bias) & !0x1fff;
    }
    m
}

/// A1–A6: adds `terms` to the old Dst value `dst` (an accumulator word) and returns the new
/// accumulator word.
#[inline]
pub fn accumulate<const N: usize>(terms: [Term; N], dst: u32, mode: AccMode) -> u32 {
    let old = dst_term(dst);
    // A1
    let mut exp = terms.iter().fold(old.exp, |e, t| e.max(t.exp));
    if exp <= 0 {
        return 0;
    }
    // A2, A3, A4
    let mut negative = old.negative;
    let mut sum = align(old, exp, false, mode) as i32;
    for t in terms {
        let m = align(t, exp, true, mode) as i32;
        sum = if t.negative == negative {
            sum.wrapping_add(m)
        } else {
            sum.wrapping_sub(m)
        };
    }
    if sum < 0 {
        sum = sum.wrapping_neg();
        negative = !negative;
    }
    if sum == 0 {
        return 0;
    }
    // A5
    let sum = sum as u32;
    let shift = sum.leading_zeros() as i32 - 8;
    exp -= shift;
    let keep = mode.dropped_bits();
    let s = shift - keep;
    let mut m = if s < 0 {
        let r = (-s) as u32;
        (sum + (1 << (r - 1))) >> r
    } else {
        sum << s
    };
    m <<= keep;
    if m & 0x100_0000 != 0 {
        exp += 1;
    }
    let m = m & 0x7f_ffff;
    // A6
    let sign = u32::from(negative) << 31;
    if exp <= 0 {
        0
    } else if mode.wide || mode.e8 {
        if exp >= 255 {
            sign | (255 << 23)
        } else {
            sign | ((exp as u32) << 23) | m
        }
    } else if exp >= 32 {
        sign | (31 << 23) | (0x3ff << 13)
    } else {
        sign | ((exp as u32) << 23) | m
    }
}

/// A 16-bit FP16 Dst value (IEEE layout) as an accumulator word.
#[inline]
pub fn word_from_fp16(h: u16) -> u32 {
    let h = u32::from(h);
    ((h & 0x8000) << 16) | ((h & 0x7fff) << 13)
}

/// An accumulator word as an FP16 value (IEEE layout).
#[inline]
pub fn word_to_fp16(w: u32) -> u16 {
    (((w >> 16) & 0x8000) | ((w >> 13) & 0x7fff)) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    const BF16_DST: AccMode = AccMode {
        wide: false,
        e8: true,
    };
    const FP32_DST: AccMode = AccMode {
        wide: true,
        e8: true,
    };

    /// A Src datum from sign, 10-bit mantissa and exponent (SrcASrcB.md's layout).
    fn src(sign: u32, man: u32, exp: u32) -> u32 {
        (sign << 18) | (man << 8) | exp
    }

    fn bf16_op(bits: u16) -> Operand {
        let b = u32::from(bits);
        Operand::read(
            src(b >> 15, (b & 0x7f) << 3, (b >> 7) & 0xff),
            Precision::Bf16,
            true,
        )
    }

    fn elwadd_bf16(a: u16, b: u16) -> u16 {
        let t = add_term(bf16_op(a), bf16_op(b), BF16_DST, 0);
        (accumulate([t], 0, BF16_DST) >> 16) as u16
    }

    #[test]
    fn a5_ties_round_away_from_zero() {
        // 1.0 + 2^-8: the sum 1.00000001b has 9 significant bits; the tie rounds up to
        // 1.0000001b = 0x3F81 (IEEE round-to-even would give 0x3F80).
        assert_eq!(elwadd_bf16(0x3f80, 0x3b80), 0x3f81);
        // The same for negative values: magnitude rounds up too (sum rounding is on the
        // magnitude after the sign is taken out).
        assert_eq!(elwadd_bf16(0xbf80, 0xbb80), 0xbf81);
    }

    #[test]
    fn a4_exact_cancellation_is_positive_zero() {
        assert_eq!(elwadd_bf16(0xbf80, 0x3f80), 0x0000);
    }

    #[test]
    fn o3_exponent_zero_is_zero_whatever_the_mantissa() {
        // 0x0001 (a bf16 denormal) adds nothing to 1.5.
        assert_eq!(elwadd_bf16(0x3fc0, 0x0001), 0x3fc0);
    }

    #[test]
    fn a6_exponent_255_saturates_with_mantissa_zero() {
        // 1.5 * 2^127 + 1.5 * 2^127 = 1.5 * 2^128: exponent 255, mantissa cleared.
        assert_eq!(elwadd_bf16(0x7f40, 0x7f40), 0x7f80);
    }

    #[test]
    fn t2_full_fidelity_product_of_bf16_is_exact() {
        // 1.5 * 1.25 = 1.875 over four phases into a 32-bit Dst.
        let (a, b) = (bf16_op(0x3fc0), bf16_op(0x3fa0));
        let mut d = 0u32;
        for phase in 0..4 {
            let t = product_term(a, b, phase, product_adj(FP32_DST, phase));
            d = accumulate([t], d, FP32_DST);
        }
        assert_eq!(d, 1.875f32.to_bits());
    }

    #[test]
    fn t4_a_group_of_zero_products_contributes_nothing() {
        let p = [Product::default(); 8];
        assert_eq!(group_term(&p), Term::default());
    }
}
