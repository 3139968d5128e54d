//! Pure integer semantics shared by the executor and the tests, one function per rule whose
//! corner cases the spec pins down.

/// `div`: x/0 = -1 and MIN/-1 = MIN (riscv-isa-manual, "M", division by zero and overflow table).
#[inline]
pub fn div(a: u32, b: u32) -> u32 {
    match (a as i32).checked_div(b as i32) {
        Some(q) => q as u32,
        None if b == 0 => u32::MAX,
        None => a,
    }
}
/// `divu`: x/0 = 2^32-1.
#[inline]
pub fn divu(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(u32::MAX)
}
/// `rem`: x%0 = x and MIN%-1 = 0.
#[inline]
pub fn rem(a: u32, b: u32) -> u32 {
    match (a as i32).checked_rem(b as i32) {
        Some(r) => r as u32,
        None if b == 0 => a,
        None => 0,
    }
}
/// `remu`: x%0 = x.
#[inline]
pub fn remu(a: u32, b: u32) -> u32 {
    a.checked_rem(b).unwrap_or(a)
}
#[inline]
pub fn mulh(a: u32, b: u32) -> u32 {
    ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
}
#[inline]
pub fn mulhsu(a: u32, b: u32) -> u32 {
    (i64::from(a as i32).wrapping_mul(i64::from(b)) >> 32) as u32
}
#[inline]
pub fn mulhu(a: u32, b: u32) -> u32 {
    ((u64::from(a) * u64::from(b)) >> 32) as u32
}

/// Generalized reverse (Bitmanip 0.94-draft, "Generalized Reverse (grev, grevi, rev)"): each set bit `k` of the 5-bit
/// amount swaps adjacent blocks of `2^k` bits. 24 reverses bytes (`rev8`), 7 reverses the bits of
/// each byte (`brev8`), 31 reverses all bits.
#[inline]
pub fn grev(x: u32, shamt: u32) -> u32 {
    let mut x = x;
    if shamt & 1 != 0 {
        x = ((x & 0x5555_5555) << 1) | ((x & 0xaaaa_aaaa) >> 1);
    }
    if shamt & 2 != 0 {
        x = ((x & 0x3333_3333) << 2) | ((x & 0xcccc_cccc) >> 2);
    }
    if shamt & 4 != 0 {
        x = ((x & 0x0f0f_0f0f) << 4) | ((x & 0xf0f0_f0f0) >> 4);
    }
    if shamt & 8 != 0 {
        x = ((x & 0x00ff_00ff) << 8) | ((x & 0xff00_ff00) >> 8);
    }
    if shamt & 16 != 0 {
        x = x.rotate_left(16);
    }
    x
}

/// `orc.b` (Zbb): each byte becomes 0xff if any of its bits is set, else 0.
#[inline]
pub fn orc_b(x: u32) -> u32 {
    let mut r = 0;
    for i in 0..4 {
        if (x >> (8 * i)) & 0xff != 0 {
            r |= 0xff << (8 * i);
        }
    }
    r
}
