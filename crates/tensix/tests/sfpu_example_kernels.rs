//! The SFPU example kernels' instruction sequences (examples/kernels/compute/sfpu_*.cpp), run
//! through the emulated coprocessor, agree bit for bit with `bhemu-refmath`'s references for
//! them (written from the instruction pages, independently of this crate), which `bhemu run`
//! uses as its verdicts.
use bhemu_refmath::sfpu::{int_value, value};

fn bits(op: &str, xs: &[f64], i: usize) -> u16 {
    let a = |j: usize| xs[j];
    value(op, &a, xs.len(), i).unwrap_or_else(|| panic!("{op} is not an SFPU op"))
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
