//! References for the SFPU example kernels (examples/kernels/compute/sfpu_*.cpp) that
//! `bhemu run` and the tests compare the emulator with, written from the instruction pages,
//! independently of `bhemu_tensix::sfpu` (the code under test).
//!
//! The kernels run with a 16-bit `Dst` holding BF16: SFPLOAD widens a BF16 datum to FP32
//! (low 16 bits zero) and SFPSTORE narrows with `ToBF16`: denormals flush to signed zero,
//! then the low 16 bits are dropped (truncation; tt-isa-documentation
//! BlackholeA0/TensixTile/TensixCoprocessor/SFPSTORE.md). [`value`] returns that `Dst` datum's
//! BF16 bits; [`packed`] is what the packer then writes to L1. The Int32 ops ([`INT_OPS`]) run
//! with a 32-bit `Dst` whose bits travel unchanged ([`int_value`]).

/// The reference ops this module knows, all of one input.
pub const OPS: [&str; 6] = [
    "sfpu_add_half",
    "sfpu_square_minus_1_5",
    "sfpu_sqrt_bits",
    "sfpu_lut3",
    "sfpu_minmax_pairs",
    "sfpu_int_shift_add",
];

/// The ops of [`OPS`] on 32-bit integer data (an Int32 `Dst`, SFPLOAD / SFPSTORE Mod0 INT32
/// moving the 32 bits unchanged), computed by [`int_value`].
pub const INT_OPS: [&str; 1] = ["sfpu_int_shift_add"];

/// `op` on the 32 bits `x` of one Int32 datum, or `None` for an op that is not in [`INT_OPS`].
pub fn int_value(op: &str, x: u32) -> Option<u32> {
    match op {
        // SFPSHFT.md: a non-negative amount shifts left, a negative one right, arithmetically
        // under SFPSHFT_MOD1_ARITHMETIC; SFPIADD.md: 32-bit two's complement adds (the
        // immediate sign-extended from 12 bits). (x << 3) + (x >> 2) + 1234, wrapping.
        "sfpu_int_shift_add" => {
            let left = x << 3;
            let right = ((x as i32) >> 2) as u32;
            Some(left.wrapping_add(right).wrapping_add(1234))
        }
        _ => None,
    }
}

/// `ToBF16` of SFPSTORE: flush a denormal to signed zero, truncate to the top 16 bits.
pub fn to_bf16(bits: u32) -> u16 {
    let flushed = if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    };
    (flushed >> 16) as u16
}

/// What the packer makes of a BF16 datum of a 16-bit `Dst` when it writes BF16 to L1 as tt-llk
/// configures it (`IntermediateFormat` BF16, `Read_raw` clear: the early conversion's
/// "Rounding", tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/Packers/
/// FormatConversion.md; there is no Blackhole page): a BF16 value needs no rounding, but
/// "Denormals flushed to zero. Minus zero converted to positive zero. If the exponent is 8 bits
/// wide, NaN becomes infinity". [`value`] is the `Dst` datum; the output in L1 is
/// `packed(value)`.
pub fn packed(h: u16) -> u16 {
    crate::pack::pack_to_bf16(u32::from(h) << 16)
}

/// `Lut8ToFp32` (SFPLUT.md): sign bit 7, exponent field e meaning 2^-e, 4 mantissa bits;
/// 0xff is 0.
fn lut8(x: u8) -> f32 {
    if x == 0xff {
        return 0.0;
    }
    let sign = if x & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((x >> 4) & 7);
    sign * (1.0 + f32::from(x & 15) / 16.0) * 2f32.powi(-e)
}

/// Sign-magnitude "is smaller" of SFPSWAP.md on FP32 bit patterns (-0 < +0).
fn sign_mag_less(a: u32, b: u32) -> bool {
    let key = |x: u32| -> i64 {
        let m = i64::from(x & 0x7fff_ffff);
        if x & 0x8000_0000 != 0 {
            -m - 1
        } else {
            m
        }
    };
    key(a) < key(b)
}

/// Output element `i` of `op` over the input `a` (the `n` element values of one buffer) as
/// BF16 bits, or `None` for an op this module does not define.
pub fn value(op: &str, a: &dyn Fn(usize) -> f64, n: usize, i: usize) -> Option<u16> {
    let x = a(i) as f32;
    let bits = x.to_bits();
    Some(match op {
        // SFPADDI.md: x * 1 + 0.5, one FP32 rounding (nearest even).
        "sfpu_add_half" => to_bf16((x + 0.5).to_bits()),
        // SFPMAD.md: x * x + (-1.5) rounded once; x * x of a BF16 is exact in FP32.
        "sfpu_square_minus_1_5" => to_bf16((x * x + -1.5f32).to_bits()),
        // SFPSHFT.md (logical right shift by 1), SFPIADD.md (32-bit add).
        "sfpu_sqrt_bits" => to_bf16((bits >> 1).wrapping_add(0x1fc0_0000)),
        // SFPLUT.md with LReg0/1/2 = 0x1020, 0x2131, 0x3342 and SGN_RETAIN; a * |x| is
        // exact in FP32 (5 and 8 significant bits), the add rounds once.
        "sfpu_lut3" => {
            let b = x.abs();
            let k: u16 = if b < 1.0 {
                0x1020
            } else if b < 2.0 {
                0x2131
            } else {
                0x3342
            };
            let d = lut8((k >> 8) as u8) * b + lut8(k as u8);
            let d = (d.to_bits() & 0x7fff_ffff) | (bits & 0x8000_0000);
            to_bf16(d)
        }
        // SFPSWAP.md, VEC_MIN_MAX: each even column gets the smaller of its pair with the
        // next column, the odd column the larger (pairs are adjacent in a face row).
        "sfpu_minmax_pairs" => {
            let even = i.is_multiple_of(2);
            let (e, o) = if even { (i, i + 1) } else { (i - 1, i) };
            if o >= n {
                // A last element without a partner (odd-length buffer) stays as it is.
                return Some(to_bf16(bits));
            }
            let (xe, xo) = ((a(e) as f32).to_bits(), (a(o) as f32).to_bits());
            let (mn, mx) = if sign_mag_less(xo, xe) {
                (xo, xe)
            } else {
                (xe, xo)
            };
            to_bf16(if even { mn } else { mx })
        }
        _ => return None,
    })
}
