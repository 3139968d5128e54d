//! SFPARECIP's exponential mode (`SFPARECIP_MOD1_EXP`, and every Mod1 above it, which takes the
//! same `default` branch) bit for bit against `ApproxExp` restated from the page, its 896-entry
//! table in closed form (tt-isa-documentation:
//! BlackholeA0/TensixTile/TensixCoprocessor/SFPARECIP.md, "Functional model").
mod sfpu_common;

use sfpu_common::*;

/// The upper 16 bits of `ApproxExp(x)` for `0x3c80_0000 <= x < 0x4000_0000`, written without
/// the page's 896-entry table: every entry of that table is e^x, x being the input's upper 16
/// bits as a float, truncated to BF16 precision (7 mantissa bits) — a closed form checked
/// against all 896 entries when this test was written, so the implementation's copy of the
/// table is checked by something that does not share it.
fn exp_truncated_to_bf16(x_hi16: u32) -> u32 {
    let x = f64::from(f32::from_bits(x_hi16 << 16));
    let e = x.exp();
    let exponent = e.log2().floor();
    let mantissa = (e / exponent.exp2() * 128.0).floor() as u32; // 128..=255
    (((127.0 + exponent) as u32) << 23 | (mantissa - 128) << 16) >> 16
}

/// `ApproxExp(x)` of a non-negative FP32 bit pattern (SFPARECIP.md).
fn approx_exp(x: u32) -> u32 {
    if x < 0x0080_0000 {
        0x3f80_0000
    } else if x < 0x3c80_0000 {
        0x3f81_0000 | (x & 0xffff)
    } else if x < 0x4000_0000 {
        exp_truncated_to_bf16(x >> 16) << 16 | (x & 0xffff)
    } else {
        0x4080_0000 | (x & 0xffff)
    }
}

/// Inputs: one in two in the table's range [2^-7, 2), the rest edge cases or any bits.
fn exp_input(rng: &mut Rng, _r: usize) -> u32 {
    if rng.bool() {
        let x = 0x3c80_0000 + rng.below(0x4000_0000 - 0x3c80_0000);
        x | (rng.u32() & 0x8000_0000)
    } else {
        rng.f32_bits()
    }
}

#[test]
fn sfparecip_exp_mode_random_lanes() {
    for mod1 in [2u32, 3] {
        random_check(
            865 + u64::from(mod1),
            enc(SFPARECIP, 4, 1, 2, mod1),
            exp_input,
            |r, l, out| {
                let x = r[1][l];
                let s = x & 0x8000_0000;
                out[2][l] = s.wrapping_add(approx_exp(x - s));
            },
        );
    }
}

/// Every table entry once: the 896 exponent/mantissa-top values from 2^-7 up to 2, with
/// random low halves, plus the page's anchor ApproxExp(1) = 2.703125.
#[test]
fn sfparecip_exp_mode_every_table_entry() {
    assert_eq!(approx_exp(1.0f32.to_bits()), 2.703125f32.to_bits());
    let mut rng = Rng::new(867);
    let mut b = Bench::new();
    for hi in (0x3c80u32..0x4000).collect::<Vec<_>>().chunks(32) {
        let xs: [u32; 32] =
            std::array::from_fn(|l| (hi[l % hi.len()] << 16) | (rng.u32() & 0xffff));
        b.set(1, xs);
        b.run(enc(SFPARECIP, 0, 1, 2, 2));
        for (got, x) in b.lreg(2).iter().zip(xs) {
            assert_eq!(*got, approx_exp(x), "x = {x:#x}");
        }
    }
}
