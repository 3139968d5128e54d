//! Helpers the crate's unit tests share.

/// A xorshift generator of 32-bit values from `seed`: random inputs for tests that compare two
/// forms of one rule, reproducible from the seed.
pub(crate) fn xorshift(mut s: u64) -> impl FnMut() -> u32 {
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 16) as u32
    }
}
