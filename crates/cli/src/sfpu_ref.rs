//! References for the SFPU example kernels (examples/kernels/compute/sfpu_*.cpp) in
//! `bhemu run`, written from the instruction pages, independently of `bhemu_tensix::sfpu`.
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
fn to_bf16(bits: u32) -> u16 {
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
    crate::run_reference::pack_to_bf16(u32::from(h) << 16)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(op: &str, xs: &[f64], i: usize) -> u16 {
        let a = |j: usize| xs[j];
        value(op, &a, xs.len(), i).unwrap_or_else(|| panic!("{op} is not an SFPU op"))
    }

    /// The reference's value (fine where it is not a NaN).
    fn run(op: &str, xs: &[f64], i: usize) -> f64 {
        f64::from(f32::from_bits(u32::from(bits(op, xs, i)) << 16))
    }

    #[test]
    fn sfpstore_to_bf16_truncates_rather_than_rounds() {
        // BF16 keeps 7 mantissa bits: 1 + 2^-7 + 2^-8 truncates to 1 + 2^-7 (round to
        // nearest even would give 1 + 2^-6).
        let x = 1.0 + 2f64.powi(-7) + 2f64.powi(-8);
        assert_eq!(to_bf16((x as f32).to_bits()), 0x3f81, "1 + 2^-7");
        assert_eq!(to_bf16(0x0000_0001), 0x0000, "denormal flushes");
        assert_eq!(to_bf16(0x8000_0001), 0x8000, "to signed zero");
        assert_eq!(
            to_bf16(0x7fa5_8000),
            0x7fa5,
            "a signalling NaN stays signalling"
        );
    }

    #[test]
    fn packer_rounding_turns_nan_into_infinity_and_minus_zero_into_plus_zero() {
        assert_eq!(packed(0x7fa5), 0x7f80, "signalling NaN");
        assert_eq!(packed(0xffc0), 0xff80, "quiet NaN keeps its sign");
        assert_eq!(packed(0xff80), 0xff80, "infinity stays");
        assert_eq!(packed(0x8000), 0x0000, "minus zero");
        assert_eq!(packed(0x0001), 0x0000, "denormal");
        assert_eq!(packed(0xbfc0), 0xbfc0, "a normal value is exact");
    }

    #[test]
    fn add_half_and_square_minus_1_5_on_exact_values() {
        assert_eq!(run("sfpu_add_half", &[-1.25], 0), -0.75);
        assert_eq!(run("sfpu_square_minus_1_5", &[1.5], 0), 0.75);
    }

    #[test]
    fn sqrt_bits_halves_the_exponent_of_four() {
        // 4.0 = 0x40800000; >> 1 = 0x20400000; + 0x1fc00000 = 0x40000000 = 2.0.
        assert_eq!(run("sfpu_sqrt_bits", &[4.0], 0), 2.0);
    }

    #[test]
    fn sqrt_bits_of_a_negative_input_is_a_signalling_nan_kept_bit_for_bit() {
        // -1.5859375 = 0xbfcb0000; logical >> 1 = 0x5fe58000; + 0x1fc00000 = 0x7fa58000: a NaN
        // with the quiet bit (22) clear, which must not come back as 0x7fe5.
        assert_eq!(bits("sfpu_sqrt_bits", &[-1.5859375], 0), 0x7fa5);
    }

    #[test]
    fn lut3_picks_the_segment_by_abs_x_and_keeps_the_sign() {
        // |x| = 0.5 < 1: 0.5 * 0.5 + 0.25 = 0.5, negated.
        assert_eq!(run("sfpu_lut3", &[-0.5], 0), -0.5);
        // |x| = 1.5: 0.265625 * 1.5 + 0.1328125 = 0.53125.
        assert_eq!(run("sfpu_lut3", &[1.5], 0), 0.53125);
        // |x| = 2: 0.1484375 * 2 + 0.0703125 = 0.3671875.
        assert_eq!(run("sfpu_lut3", &[2.0], 0), 0.3671875);
    }

    #[test]
    fn minmax_pairs_orders_adjacent_columns_sign_magnitude() {
        let xs = [1.0, -2.0, 0.0, -0.0];
        assert_eq!(run("sfpu_minmax_pairs", &xs, 0), -2.0);
        assert_eq!(run("sfpu_minmax_pairs", &xs, 1), 1.0);
        // -0 < +0 in sign-magnitude order.
        assert!(run("sfpu_minmax_pairs", &xs, 2).is_sign_negative());
        assert!(run("sfpu_minmax_pairs", &xs, 3).is_sign_positive());
        // A last element without a partner is left as it is.
        assert_eq!(run("sfpu_minmax_pairs", &[3.0], 0), 3.0);
    }

    /// 64 BF16-exact inputs in (-4, 4), a deterministic mix of signs and exponents.
    fn inputs(seed: u32) -> Vec<f32> {
        let mut st = seed | 1;
        (0..64)
            .map(|_| {
                st ^= st << 13;
                st ^= st >> 17;
                st ^= st << 5;
                let sign = (st >> 31) << 31;
                let exp = 120 + (st >> 8) % 9; // 2^-7 .. 2^1
                f32::from_bits(sign | (exp << 23) | ((st & 0x7f) << 16))
            })
            .collect()
    }

    /// Runs the kernel's per-group instructions (`{A}` = the group's Dst address) on Dst rows
    /// 0..3 holding `x` as BF16 in a 16-bit Dst, as the firmware path would, through the
    /// coprocessor; returns the BF16 results.
    fn emulate(setup: &str, group: &str, addrs: &[u32], x: &[f32]) -> Vec<u32> {
        let vals: Vec<String> = x.iter().map(|v| format!("{v:?}")).collect();
        let mut text = format!(
            "dst 0 = bf16 [{}]\ndump dst 0..3 bf16\n[t1]\n{setup}\n",
            vals.join(", ")
        );
        for a in addrs {
            text.push_str(&group.replace("{A}", &a.to_string()));
            text.push('\n');
        }
        let p = bhemu_tensix::program::parse(bhemu_tensix::Arch::Blackhole, "k.tsx", &text)
            .unwrap_or_else(|e| panic!("{e}"));
        let r = bhemu_tensix::runner::run(&p, bhemu_tensix::runner::RunOptions::default());
        assert!(r.error.is_none(), "{:?}", r.error);
        r.dumps[0].bits.clone()
    }

    fn check(op: &str, setup: &str, group: &str, addrs: &[u32]) {
        for seed in [1u32, 7, 99] {
            let x = inputs(seed);
            let got = emulate(setup, group, addrs, &x);
            let xs: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
            for i in 0..64 {
                assert_eq!(
                    got[i],
                    u32::from(bits(op, &xs, i)),
                    "{op} seed {seed} datum {i} x={}",
                    x[i]
                );
            }
        }
    }

    #[test]
    fn int_shift_add_wraps_and_shifts_right_arithmetically() {
        let f = |x: i32| int_value("sfpu_int_shift_add", x as u32).map(|y| y as i32);
        assert_eq!(f(0), Some(1234));
        assert_eq!(f(100), Some(800 + 25 + 1234));
        // -1 << 3 = -8; -1 >> 2 (arithmetic) = -1.
        assert_eq!(f(-1), Some(-8 - 1 + 1234));
        // -7 >> 2 = -2 (towards minus infinity).
        assert_eq!(f(-7), Some(-56 - 2 + 1234));
        // i32::MIN << 3 wraps to 0; i32::MIN >> 2 = -2^29.
        assert_eq!(f(i32::MIN), Some(-(1 << 29) + 1234));
        // 0x7fffffff << 3 = 0xfffffff8 (-8); >> 2 = 0x1fffffff.
        assert_eq!(f(i32::MAX), Some(-8 + 0x1fff_ffff + 1234));
        assert_eq!(int_value("sfpu_add_half", 0), None);
    }

    /// Dst.md: `Dst32b` keeps an FP32 or INT32 datum's high half as sign, bits 22..16, bits
    /// 30..23 (RISCV `Load32` undoes it); the inverse arrangement for preloading.
    fn to_dst32(c: u32) -> u32 {
        (c & 0x8000_ffff) | ((c & 0x007f_0000) << 8) | ((c & 0x7f80_0000) >> 7)
    }

    fn from_dst32(v: u32) -> u32 {
        (v & 0x8000_ffff) | ((v & 0x7f00_0000) >> 8) | ((v & 0x00ff_0000) << 7)
    }

    /// The Int32 kernel's sequence (examples/kernels/compute/sfpu_int_shift_add.cpp) on Dst
    /// rows 0..3 of a 32-bit Dst holding random int32 data (edge values first).
    #[test]
    fn int_shift_add_kernel_sequence_matches_sfpu_int_shift_add() {
        let group = "ttsfpload 0, 4, 0, {A}\nttsfpshft 3, 0, 1, 5\nttsfpshft 0xffe, 0, 0, 3\nttsfpiadd 0, 1, 0, 4\nttsfpiadd 1234, 0, 0, 5\nttsfpstore 0, 4, 0, {A}";
        for seed in [5u32, 17, 123] {
            let mut st = seed;
            let mut x: Vec<u32> = (0..64)
                .map(|_| {
                    st ^= st << 13;
                    st ^= st >> 17;
                    st ^= st << 5;
                    st
                })
                .collect();
            x[..6].copy_from_slice(&[0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0xffff_fff9]);
            let vals: Vec<String> = x.iter().map(|v| format!("{:#x}", to_dst32(*v))).collect();
            let mut text = format!(
                "dst 0 = u32 [{}]\ndump dst 0..3 u32\n[t1]\n",
                vals.join(", ")
            );
            for a in [0, 2] {
                text.push_str(&group.replace("{A}", &a.to_string()));
                text.push('\n');
            }
            let p = bhemu_tensix::program::parse(bhemu_tensix::Arch::Blackhole, "k.tsx", &text)
                .unwrap_or_else(|e| panic!("{e}"));
            let r = bhemu_tensix::runner::run(&p, bhemu_tensix::runner::RunOptions::default());
            assert!(r.error.is_none(), "{:?}", r.error);
            for (i, &xi) in x.iter().enumerate() {
                assert_eq!(
                    Some(from_dst32(r.dumps[0].bits[i])),
                    int_value("sfpu_int_shift_add", xi),
                    "seed {seed} datum {i} x={xi:#x}"
                );
            }
        }
    }

    // The example kernels' instruction sequences (examples/kernels/compute/sfpu_*.cpp), run
    // through the emulated coprocessor, agree with these references.

    #[test]
    fn add_const_kernel_sequence_matches_sfpu_add_half() {
        let g = "ttsfpload 0, 0, 0, {A}\nttsfpaddi 0x3f00, 0, 0\nttsfpstore 0, 0, 0, {A}";
        check("sfpu_add_half", "", g, &[0, 2]);
    }

    #[test]
    fn square_kernel_sequence_matches_sfpu_square_minus_1_5() {
        let g = "ttsfpload 0, 0, 0, {A}\nttsfpmad 0, 0, 1, 2, 0\nttsfpstore 2, 0, 0, {A}";
        check(
            "sfpu_square_minus_1_5",
            "ttsfploadi 1, 0, 0xbfc0",
            g,
            &[0, 2],
        );
    }

    #[test]
    fn shift_add_kernel_sequence_matches_sfpu_sqrt_bits() {
        let g = "ttsfpload 0, 0, 0, {A}\nttsfpshft 0xfff, 0, 0, 1\nttsfpiadd 0, 1, 0, 4\nttsfpstore 0, 0, 0, {A}";
        check("sfpu_sqrt_bits", "ttsfploadi 1, 0, 0x1fc0", g, &[0, 2]);
    }

    #[test]
    fn lut_kernel_sequence_matches_sfpu_lut3() {
        let setup = "ttsfploadi 0, 2, 0x1020\nttsfploadi 1, 2, 0x2131\nttsfploadi 2, 2, 0x3342";
        let g = "ttsfpload 3, 0, 0, {A}\nttsfplut 4, 4, 0\nttsfpstore 4, 0, 0, {A}";
        check("sfpu_lut3", setup, g, &[0, 2]);
    }

    #[test]
    fn swap_kernel_sequence_matches_sfpu_minmax_pairs() {
        let g = "ttsfpload 0, 0, 0, 0\nttsfpload 1, 0, 0, 2\nttsfpswap 0, 1, 0, 1\nttsfpnop\nttsfpstore 0, 0, 0, 0\nttsfpstore 1, 0, 0, 2";
        check("sfpu_minmax_pairs", "", g, &[0]);
    }

    #[test]
    fn loadmacro_kernel_sequence_matches_sfpu_add_half() {
        let setup = "ttsfpaddi 0x3f00, 12, 0\nttsfploadi 0, 8, 0x1300\nttsfploadi 0, 10, 0x0400\nttsfpconfig 0, 5, 0\nttsfpconfig 0, 8, 1";
        let g = "ttsfploadmacro 4, 0, 0, 0\nttsfploadmacro 5, 0, 0, 2";
        check("sfpu_add_half", setup, g, &[0]);
    }
}
