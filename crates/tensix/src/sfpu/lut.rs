//! Piecewise-linear function evaluation on the MAD sub-unit: SFPLUT and SFPLUTFP32; and the
//! exponential table of SFPARECIP.
use super::fma::mad;
use super::state::{writable, LANES};
use super::{Insn, VectorUnit};

const SIGN_RETAIN: u8 = 4;
const INDIRECT_VD: u8 = 8;

/// `Lut8ToFp32` (SFPLUT.md): sign, 3-bit negated exponent (0 -> 2^0), 4 mantissa bits;
/// 0xff is zero.
fn lut8_to_fp32(x: u32) -> u32 {
    if x == 0xff {
        return 0;
    }
    ((x >> 7) << 31) | ((127 - ((x >> 4) & 7)) << 23) | ((x & 0xf) << 19)
}

/// `Lut16ToFp32` (SFPLUTFP32.md): FP16-like, except exponent 0 is a normal number and
/// exponent 31 means zero.
fn lut16_to_fp32(x: u32) -> u32 {
    let exp = (x >> 10) & 0x1f;
    let exp = if exp == 0x1f { 0 } else { 112 + exp };
    (((x >> 15) & 1) << 31) | (exp << 23) | ((x & 0x3ff) << 13)
}

impl VectorUnit {
    /// The shared tail of the LUT instructions: optional sign from `LReg[3]`, then the MAD
    /// sub-unit's (optionally indirect) write.
    #[inline(always)]
    fn lut_write(&mut self, insn: &Insn, lane: usize, d: u32, l3: u32) {
        let d = if insn.modifier & SIGN_RETAIN != 0 {
            (d & 0x7fff_ffff) | (l3 & 0x8000_0000)
        } else {
            d
        };
        let vd = if insn.modifier & INDIRECT_VD != 0 && insn.vd != 16 {
            (self.state.lreg[7][lane] & 15) as u8
        } else {
            insn.vd
        };
        if writable(vd) {
            self.state.lreg[vd as usize][lane] = d;
        }
    }

    /// SFPLUT: `VD = Lut8(coeffs >> 8) * |LReg[3]| + Lut8(coeffs)` with `coeffs` from
    /// `LReg[0]`, `[1]` or `[2]` by `|LReg[3]|` < 1, < 2, else (SFPLUT.md).
    pub(super) fn sfplut(&mut self, insn: &Insn, lanes: u32) {
        let en = self.state.enabled_mask() & lanes;
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let r = &self.state.lreg;
            let l3 = r[3][lane];
            let b = l3 & 0x7fff_ffff;
            let bf = f32::from_bits(b);
            let coeffs = if bf < 1.0 {
                r[0][lane]
            } else if bf < 2.0 {
                r[1][lane]
            } else {
                r[2][lane]
            };
            let d = mad(
                lut8_to_fp32((coeffs >> 8) & 0xff),
                b,
                lut8_to_fp32(coeffs & 0xff),
            );
            self.lut_write(insn, lane, d, l3);
        }
    }

    /// SFPLUTFP32: `VD = A * |LReg[3]| + C` with FP32 coefficients in `LReg[0..3]` /
    /// `LReg[4..7]` (Mod1 0), or FP16-like pairs in 3 (Mod1 10) or 6 segments (Mod1 2, 3;
    /// last split at 3.0 or 4.0) (SFPLUTFP32.md).
    pub(super) fn sfplutfp32(&mut self, insn: &Insn, lanes: u32) {
        const FP16_6ENTRY_TABLE1: u8 = 2;
        const FP16_6ENTRY_TABLE2: u8 = 3;
        const FP16_3ENTRY_TABLE: u8 = 10;
        let m = insn.modifier;
        let en = self.state.enabled_mask() & lanes;
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let r = &self.state.lreg;
            let l3 = r[3][lane];
            let b = l3 & 0x7fff_ffff;
            let bf = f32::from_bits(b);
            let i = if bf < 1.0 {
                0
            } else if bf < 2.0 {
                1
            } else {
                2
            };
            let (a, c) = if m & FP16_6ENTRY_TABLE1 == 0 {
                (r[i][lane], r[4 + i][lane])
            } else if m & FP16_3ENTRY_TABLE == FP16_3ENTRY_TABLE {
                (
                    lut16_to_fp32(r[i][lane] >> 16),
                    lut16_to_fp32(r[i][lane] & 0xffff),
                )
            } else {
                let cut = if m & FP16_6ENTRY_TABLE2 == FP16_6ENTRY_TABLE2 {
                    4.0
                } else {
                    3.0
                };
                let upper = if bf < 0.5 {
                    false
                } else if bf < 1.0 {
                    true
                } else if bf < 1.5 {
                    false
                } else if bf < 2.0 {
                    true
                } else {
                    // NaN fails every `<` and lands in the last segment.
                    bf.partial_cmp(&cut) != Some(std::cmp::Ordering::Less)
                };
                let j = if upper { 16 } else { 0 };
                (
                    lut16_to_fp32((r[i][lane] >> j) & 0xffff),
                    lut16_to_fp32((r[4 + i][lane] >> j) & 0xffff),
                )
            };
            let d = mad(a, b, c);
            self.lut_write(insn, lane, d, l3);
        }
    }
}

/// `ApproxExp`'s table (SFPARECIP.md), indexed by `(x >> 16) - 0x3c80`.
pub(super) const EXP_LUT: [u8; 896] = [
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8,
    8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10,
    10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13,
    13, 13, 13, 13, 13, 13, 13, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 17, 17, 17, 17, 17, 17, 17, 18, 18, 18, 18, 18, 18, 18, 19, 19, 19, 19, 19, 19, 19, 20,
    20, 20, 20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 23,
    23, 23, 24, 24, 24, 24, 24, 24, 24, 25, 25, 25, 25, 25, 25, 25, 26, 26, 26, 26, 26, 26, 27, 27,
    27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 28, 28, 29, 29, 29, 29, 29, 29, 30, 30, 30, 30, 30, 30,
    30, 31, 31, 31, 31, 31, 31, 32, 32, 32, 32, 32, 32, 33, 33, 33, 33, 33, 33, 33, 34, 34, 34, 34,
    34, 34, 35, 35, 35, 35, 35, 35, 36, 36, 36, 36, 36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 40, 40,
    40, 41, 41, 41, 42, 42, 42, 43, 43, 43, 44, 44, 44, 45, 45, 45, 46, 46, 46, 47, 47, 47, 48, 48,
    49, 49, 49, 50, 50, 50, 51, 51, 51, 52, 52, 52, 53, 53, 53, 54, 54, 54, 55, 55, 56, 56, 56, 57,
    57, 57, 58, 58, 58, 59, 59, 60, 60, 60, 61, 61, 61, 62, 62, 63, 63, 63, 64, 64, 64, 65, 65, 66,
    66, 66, 67, 67, 67, 68, 68, 69, 69, 69, 70, 70, 71, 71, 71, 72, 72, 72, 73, 73, 74, 74, 74, 75,
    75, 76, 76, 76, 77, 77, 78, 78, 78, 79, 79, 80, 80, 80, 81, 81, 82, 82, 83, 83, 84, 85, 86, 87,
    88, 88, 89, 90, 91, 92, 93, 94, 94, 95, 96, 97, 98, 99, 100, 101, 101, 102, 103, 104, 105, 106,
    107, 108, 109, 110, 111, 112, 113, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124,
    125, 126, 127, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
    13, 13, 14, 15, 15, 16, 16, 17, 17, 18, 19, 19, 20, 20, 21, 21, 22, 23, 23, 24, 24, 25, 26, 26,
    27, 27, 28, 29, 29, 30, 31, 31, 32, 32, 33, 34, 34, 35, 36, 36, 37, 38, 38, 39, 39, 40, 41, 41,
    42, 43, 43, 44, 45, 45, 47, 48, 50, 51, 52, 54, 55, 57, 58, 60, 61, 63, 64, 66, 67, 69, 70, 72,
    73, 75, 76, 78, 80, 81, 83, 85, 86, 88, 90, 91, 93, 95, 97, 98, 100, 102, 104, 106, 107, 109,
    111, 113, 115, 117, 119, 121, 123, 125, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137,
    139, 140, 141, 142, 143, 144, 145, 146, 147, 149, 150, 151, 152, 153, 155, 156, 157, 158, 159,
    161, 162, 163, 165, 166, 167, 168, 170, 171, 172, 174, 175, 177, 178, 179, 181, 182, 184, 185,
    187, 188, 189, 191, 192, 194, 196, 197, 199, 200, 202, 203, 205, 207, 208, 210, 211, 213, 215,
    216, 218, 220, 222, 223, 225, 227, 229, 230, 232, 234,
];
