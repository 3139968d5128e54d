//! Little-endian scalar access to a byte-array memory, shared by L1 and the local RAMs: the
//! baby cores are little-endian, and an access that does not fit is refused (`None`/`false`)
//! so the caller can report it with its own location.

/// Reads `width` (1, 2 or 4) bytes at `off`.
#[inline]
pub fn read(mem: &[u8], off: u32, width: u32) -> Option<u32> {
    let a = off as usize;
    let b = mem.get(a..a + width as usize)?;
    Some(b.iter().rev().fold(0u32, |v, x| (v << 8) | u32::from(*x)))
}

/// Writes the low `width` bytes of `value` at `off`; false when out of range.
#[inline]
pub fn write(mem: &mut [u8], off: u32, width: u32, value: u32) -> bool {
    let a = off as usize;
    let Some(dst) = mem.get_mut(a..a + width as usize) else {
        return false;
    };
    for (i, x) in dst.iter_mut().enumerate() {
        *x = (value >> (8 * i)) as u8;
    }
    true
}
