//! The MAD sub-unit's partially fused multiply-add on FP32 bit patterns, bit-exact.
//!
//! Rules (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPMAD.md, section
//! "IEEE754 conformance / divergence", and the bit-exact model described in
//! Miscellaneous/FMA/README.md):
//! - denormal inputs count as signed zero;
//! - the product keeps 3 extra low bits (guard, round, a semi-sticky bit) plus one carry bit at
//!   the top, i.e. it is *not* kept exact: 23 low bits of the 48-bit product collapse into the
//!   sticky bit before the addend is aligned;
//! - a product that on its own overflows gives infinity; one that on its own underflows
//!   (biased exponent below 0) counts as exactly zero;
//! - one rounding, to nearest with ties to even; a denormal result (after rounding) becomes
//!   zero of the result's sign;
//! - any NaN result is the canonical `0x7fc00000`.
//!
//! Written as our own Rust from those rules; the test suite checks it against an independent
//! transcription of the documented model and against host IEEE arithmetic where the page says
//! they agree (multiply by one, add zero).

const SIGN: u32 = 0x8000_0000;
const HIDDEN: u32 = 0x0080_0000;
const MANT: u32 = 0x007f_ffff;
const INF: u32 = 0x7f80_0000;
/// The one NaN the unit ever produces.
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// Biased exponent and significand (hidden bit included); denormals and zeros have a zero
/// significand, which is how "denormal inputs are treated as zero" enters the datapath.
#[inline(always)]
fn unpack(x: u32) -> (i32, u32) {
    let e = ((x >> 23) & 0xff) as i32;
    let m = if e == 0 { 0 } else { (x & MANT) | HIDDEN };
    (e, m)
}

/// Shift right dropping `s` low bits, OR-ing "something was dropped" into bit 0 only when
/// the shifted value is non-zero (a value shifted out completely becomes 0, not 1).
#[inline(always)]
fn semi_sticky_shr(v: u64, s: u32, width: u32) -> u64 {
    if s >= width {
        return 0;
    }
    let out = v >> s;
    if out != 0 && (out << s) != v {
        out | 1
    } else {
        out
    }
}

/// `x * y + z` (FP32 bit patterns) as SFPMAD computes it.
#[inline]
pub fn mad(x: u32, y: u32, z: u32) -> u32 {
    let (xe, xm) = unpack(x);
    let (ye, ym) = unpack(y);
    let (ze, zm0) = unpack(z);
    let p_sign = (x ^ y) & SIGN;
    let z_sign = z & SIGN;

    // Product with 3 fraction bits appended, then 23 bits folded into a sticky bit so that it
    // lines up with the addend's precision (exponent adjusted by the same 23).
    let full = ((xm as u64) * (ym as u64)) << 3;
    let pm = (full >> 23) | ((full & 0x7f_ffff) != 0) as u64;
    let pe = xe + ye - 127;
    let zm = zm0 << 3;

    if xe == 255 || ye == 255 || ze == 255 || pe >= 255 {
        return special(xe, xm, ye, ym, ze, zm0, p_sign, z_sign, z);
    }
    if pm == 0 || pe < 0 {
        // Product is (or counts as) exactly zero: the result is z, or a signed zero.
        return if zm != 0 { z } else { z_sign & p_sign };
    }

    // Align both terms to the larger exponent.
    let re = pe.max(ze);
    let pm = semi_sticky_shr(pm, (re - pe) as u32, 64);
    let zm = semi_sticky_shr(zm as u64, (re - ze) as u32, 32);
    let r_sign = if pm >= zm { p_sign } else { z_sign };
    let rm = if p_sign == z_sign {
        pm + zm
    } else {
        pm.max(zm) - pm.min(zm)
    } as u32;
    if rm == 0 {
        return z_sign & p_sign;
    }
    normalise_round(r_sign, re, rm)
}

/// Non-finite inputs, or a product that overflows on its own.
#[allow(clippy::too_many_arguments)]
#[cold]
fn special(
    xe: i32,
    xm: u32,
    ye: i32,
    ym: u32,
    ze: i32,
    zm: u32,
    p_sign: u32,
    z_sign: u32,
    z: u32,
) -> u32 {
    let x_invalid = xe == 255 && (xm != HIDDEN || ym == 0); // NaN, or Inf * 0
    let y_invalid = ye == 255 && (ym != HIDDEN || xm == 0);
    let z_nan = ze == 255 && zm != HIDDEN;
    let inf_minus_inf = ze == 255 && (xe == 255 || ye == 255) && z_sign != p_sign;
    if x_invalid || y_invalid || z_nan || inf_minus_inf {
        CANONICAL_NAN
    } else if ze == 255 {
        z
    } else {
        p_sign | INF
    }
}

/// Normalise `rm` (value `rm * 2^(re - 127 - 26)`) to 26 fraction bits, round to nearest
/// even, flush a denormal result to signed zero.
#[inline(always)]
fn normalise_round(r_sign: u32, re: i32, rm: u32) -> u32 {
    let mut n = 5 - rm.leading_zeros() as i32;
    let mut re = re + n;
    if re >= 255 {
        return r_sign | INF;
    }
    if re <= 0 {
        // The denormal path shifts one more place and pins the exponent field at 0.
        n += 1;
        re = 0;
    }
    let rm = if n <= 0 {
        rm << (-n) as u32
    } else {
        // Dropped bits folded into bit 0: the datapath tests the mask `n | 1`, which for
        // the shifts that occur (1..=3) is 1, 3, 3.
        (rm >> n as u32) | ((rm & (n as u32 | 1)) != 0) as u32
    };
    let mut r = ((re as u32) << 23) + ((rm >> 3) & MANT);
    r += (((rm & 7) + (r & 1)) > 4) as u32;
    if r >> 23 == 0 {
        r = 0;
    }
    r_sign | r
}
