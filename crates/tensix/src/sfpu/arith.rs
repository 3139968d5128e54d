//! Lanewise arithmetic: the MAD sub-unit's SFPMAD / SFPADD / SFPMUL / SFPADDI / SFPMULI /
//! SFPMUL24, and the simple sub-unit's SFPIADD, SFPABS, SFPARECIP.
use super::fma::mad;
use super::state::{writable, LANES};
use super::{Insn, VectorUnit};

const SIGN: u32 = 0x8000_0000;
const NEGATE_VB: u8 = 1;
const NEGATE_VC: u8 = 2;
const INDIRECT_VA: u8 = 4;
const INDIRECT_VD: u8 = 8;

impl VectorUnit {
    /// Write a MAD-sub-unit result: `VD`, or with `INDIRECT_VD` (and `VD != 16`) the index in
    /// the low four bits of the lane's `LReg[7]`; only writable indices take the value.
    #[inline(always)]
    fn mad_write(&mut self, insn: &Insn, lane: usize, value: u32) {
        let vd = if insn.modifier & INDIRECT_VD != 0 && insn.vd != 16 {
            (self.state.lreg[7][lane] & 15) as u8
        } else {
            insn.vd
        };
        if writable(vd) {
            self.state.lreg[vd as usize][lane] = value;
        }
    }

    /// SFPMAD, SFPADD and SFPMUL (one functional model): `VD = VA * ±VB ± VC`
    /// (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPMAD.md).
    pub(super) fn sfpmad(&mut self, insn: &Insn, lanes: u32) {
        let en = self.state.enabled_mask() & lanes;
        let negb = if insn.modifier & NEGATE_VB != 0 {
            SIGN
        } else {
            0
        };
        let negc = if insn.modifier & NEGATE_VC != 0 {
            SIGN
        } else {
            0
        };
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let r = &self.state.lreg;
            let va = if insn.modifier & INDIRECT_VA != 0 {
                (r[7][lane] & 15) as usize
            } else {
                insn.va as usize
            };
            let d = mad(
                r[va][lane],
                r[insn.vb as usize][lane] ^ negb,
                r[insn.vc as usize][lane] ^ negc,
            );
            self.mad_write(insn, lane, d);
        }
    }

    /// SFPADDI: `VD = BF16ToFP32(Imm16) * 1.0 ± VC` with `VC = VD` unless scheduled by
    /// SFPLOADMACRO (SFPADDI.md).
    pub(super) fn sfpaddi(&mut self, insn: &Insn, lanes: u32) {
        let en = self.state.enabled_mask() & lanes;
        let imm = insn.imm16_math() << 16;
        let negc = if insn.modifier & NEGATE_VC != 0 {
            SIGN
        } else {
            0
        };
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let c = self.state.lreg[insn.vc as usize][lane] ^ negc;
            self.mad_write(insn, lane, mad(imm, super::state::LREG10_VALUE, c));
        }
    }

    /// SFPMULI: `VD = BF16ToFP32(Imm16) * ±VC + 0.0` (SFPMULI.md; the `+ 0.0` turns -0 into
    /// +0).
    pub(super) fn sfpmuli(&mut self, insn: &Insn, lanes: u32) {
        let en = self.state.enabled_mask() & lanes;
        let imm = insn.imm16_math() << 16;
        let negc = if insn.modifier & NEGATE_VC != 0 {
            SIGN
        } else {
            0
        };
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let c = self.state.lreg[insn.vc as usize][lane] ^ negc;
            self.mad_write(insn, lane, mad(imm, c, 0));
        }
    }

    /// SFPMUL24: low or high 23 bits of a 23x23-bit product, then the datapath's
    /// `Mul24ShiftAdd` with `VC` (SFPMUL24.md).
    pub(super) fn sfpmul24(&mut self, insn: &Insn, lanes: u32) {
        const UPPER: u8 = 1;
        let en = self.state.enabled_mask() & lanes;
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let r = &self.state.lreg;
            let va = if insn.modifier & INDIRECT_VA != 0 {
                (r[7][lane] & 15) as usize
            } else {
                insn.va as usize
            };
            let (a, b) = (r[va][lane], r[insn.vb as usize][lane]);
            let prod = if insn.modifier & UPPER != 0 {
                (((a & 0x7f_ffff) as u64 * (b & 0x7f_ffff) as u64) >> 23) as u32
            } else {
                a.wrapping_mul(b) & 0x7f_ffff
            };
            let d = mul24_shift_add(prod, r[insn.vc as usize][lane]);
            self.mad_write(insn, lane, d);
        }
    }

    /// SFPIADD: `VD = VC ± VD` or `VC + SignExtend(Imm12)`, optionally setting `LaneFlags` from
    /// the result's sign (SFPIADD.md).
    pub(super) fn sfpiadd(&mut self, insn: &Insn, lanes: u32) {
        const ARG_IMM: u8 = 1;
        const ARG_2SCOMP: u8 = 2;
        const CC_NONE: u8 = 4;
        const CC_GTE0: u8 = 8;
        if !writable(insn.vd) {
            return;
        }
        let m = insn.modifier;
        let imm = insn.imm12() as u32;
        let en = self.state.enabled_mask() & lanes;
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let c = self.state.lreg[insn.vc as usize][lane];
            let b = self.state.lreg[insn.vb as usize][lane];
            let d = if m & ARG_IMM != 0 {
                c.wrapping_add(imm)
            } else if m & ARG_2SCOMP != 0 {
                c.wrapping_sub(b)
            } else {
                c.wrapping_add(b)
            };
            self.state.lreg[insn.vd as usize][lane] = d;
            if insn.vd < 8 {
                if m & CC_NONE == 0 {
                    self.state.set_flag(lane, (d as i32) < 0);
                }
                if m & CC_GTE0 != 0 {
                    let f = self.state.flag(lane);
                    self.state.set_flag(lane, !f);
                }
            }
        }
    }

    /// SFPABS: FP32 absolute value leaving -NaN alone, or two's complement absolute value
    /// (SFPABS.md).
    pub(super) fn sfpabs(&mut self, insn: &Insn, lanes: u32) {
        let float = insn.modifier & 1 != 0;
        let vc = insn.vc as usize;
        self.lanewise(insn.vd, lanes, |r, l| {
            let x = r[vc][l];
            match (x & SIGN != 0, float) {
                (false, _) => x,
                (true, true) if x > 0xff80_0000 => x,
                (true, true) => x & !SIGN,
                (true, false) => x.wrapping_neg(),
            }
        });
    }

    /// SFPARECIP: approximate reciprocal, conditional reciprocal, or approximate exponential
    /// (SFPARECIP.md).
    pub(super) fn sfparecip(&mut self, insn: &Insn, lanes: u32) {
        let (vb, vc, m) = (insn.vb as usize, insn.vc as usize, insn.modifier);
        self.lanewise(insn.vd, lanes, |r, l| {
            let x = r[vc][l];
            let sign = x & SIGN;
            match m {
                0 => sign + approx_recip(x - sign),
                1 if (r[vb][l] as i32) < 0 => approx_recip(x - sign),
                1 => x,
                _ => sign + approx_exp(x - sign),
            }
        });
    }
}

/// `Mul24ShiftAdd` of SFPMUL24.md: the FP adder path aligning the 23-bit product (taken as
/// exponent 129) against `z`'s exponent and adding `z`'s significand.
fn mul24_shift_add(p_m: u32, z: u32) -> u32 {
    let z_e = (z >> 23) & 0xff;
    if z_e == 0 {
        return p_m;
    }
    let p_e = 129u32;
    let r_e = p_e.max(z_e);
    let s = (r_e - z_e) & 31;
    let z_grs = (HIDDEN_BIT + (z & 0x7f_ffff)) << 3;
    let p_m = p_m >> ((r_e - p_e) & 31);
    let z_al = z_grs >> s;
    if z_al == 0 {
        return p_m;
    }
    let lost = ((z_al << s) ^ z_grs) > 0xffff;
    (p_m + z_al + ((lost as u32) << 16)) & 0x7f_ffff
}

const HIDDEN_BIT: u32 = 1 << 23;

/// Seven-bit reciprocal mantissa table of SFPARECIP.md's `ApproxRecip`.
const RECIP_LUT: [u8; 128] = [
    127, 125, 123, 121, 119, 117, 116, 114, 112, 110, 109, 107, 105, 104, 102, 100, 99, 97, 96, 94,
    93, 91, 90, 88, 87, 85, 84, 83, 81, 80, 79, 77, 76, 75, 74, 72, 71, 70, 69, 68, 66, 65, 64, 63,
    62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 40,
    39, 38, 37, 36, 35, 35, 34, 33, 32, 31, 31, 30, 29, 28, 28, 27, 26, 25, 25, 24, 23, 23, 22, 21,
    21, 20, 19, 19, 18, 17, 17, 16, 15, 15, 14, 14, 13, 12, 12, 11, 11, 10, 9, 9, 8, 8, 7, 7, 6, 5,
    5, 4, 4, 3, 3, 2, 2, 1, 1, 0,
];

/// `ApproxRecip` of a non-negative FP32 pattern (SFPARECIP.md).
fn approx_recip(x: u32) -> u32 {
    if x < 0x0080_0000 {
        0x7f80_0000
    } else if x < 0x7e80_0000 {
        ((253 - (x >> 23)) << 23) | ((RECIP_LUT[((x >> 16) & 0x7f) as usize] as u32) << 16)
    } else {
        0
    }
}

/// `ApproxExp` of a non-negative FP32 pattern (SFPARECIP.md).
fn approx_exp(x: u32) -> u32 {
    let lut = |x: u32| (super::lut::EXP_LUT[((x >> 16) - 0x3c80) as usize] as u32) << 16;
    if x < 0x0080_0000 {
        0x3f80_0000
    } else if x < 0x3c80_0000 {
        0x3f81_0000 | (x & 0xffff)
    } else if x < 0x3f32_0000 {
        0x3f80_0000 | lut(x) | (x & 0xffff)
    } else if x < 0x4000_0000 {
        0x4000_0000 | lut(x) | (x & 0xffff)
    } else {
        0x4080_0000 | (x & 0xffff)
    }
}
