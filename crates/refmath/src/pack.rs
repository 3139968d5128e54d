//! The packer's early conversion of a `Dst` datum into a BF16 output: a rule of its own,
//! separate from the Matrix Unit's rounding, shared by every reference of what a kernel
//! writes to L1 as BF16.

/// The packer's early conversion of a `Dst` datum (FP32 bits; a BF16 `Dst` datum widened) to
/// a BF16 output (Packers/FormatConversion.md, restated in `docs/tensix-formats.md`; the
/// emulator's `formats/round.rs` is the code under test): round to nearest with ties away
/// from zero (a BF16 `Dst` datum is already exact), exponent 0 (denormals and minus zero)
/// becomes +0, exponent 255 keeps only its sign, and a carry into exponent 255 gives
/// exponent 255 with mantissa 0.
pub fn pack_to_bf16(x: u32) -> u16 {
    if x & 0x7F80_0000 == 0 {
        return 0;
    }
    let sign = (x >> 16) as u16 & 0x8000;
    let mag = (x & 0x7FFF_FFFF) + 0x8000; // ties away from zero on the magnitude
    if mag >= 0x7F80_0000 {
        sign | 0x7F80
    } else {
        sign | (mag >> 16) as u16
    }
}
