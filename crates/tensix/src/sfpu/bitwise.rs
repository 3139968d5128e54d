//! Lanewise bit manipulation (SFPAND / SFPOR / SFPXOR / SFPNOT / SFPLZ / SFPSHFT) and FP32
//! field manipulation (SFPDIVP2 / SFPEXEXP / SFPEXMAN / SFPSETEXP / SFPSETMAN / SFPSETSGN), all
//! on the simple sub-unit.
use super::state::{writable, LANES};
use super::{Insn, VectorUnit};

impl VectorUnit {
    /// SFPAND: `VD = (USE_VB ? VB : VD) & VC` (SFPAND.md).
    pub(super) fn sfpand(&mut self, insn: &Insn, lanes: u32) {
        let vb = if insn.modifier & 1 != 0 {
            insn.vb
        } else {
            insn.vd
        } as usize;
        let vc = insn.vc as usize;
        self.lanewise(insn.vd, lanes, |r, l| r[vb][l] & r[vc][l]);
    }

    /// SFPOR: `VD = (USE_VB ? VB : VD) | VC` (SFPOR.md).
    pub(super) fn sfpor(&mut self, insn: &Insn, lanes: u32) {
        let vb = if insn.modifier & 1 != 0 {
            insn.vb
        } else {
            insn.vd
        } as usize;
        let vc = insn.vc as usize;
        self.lanewise(insn.vd, lanes, |r, l| r[vb][l] | r[vc][l]);
    }

    /// SFPXOR: `VD = VB ^ VC` with `VB = VD` (SFPXOR.md).
    pub(super) fn sfpxor(&mut self, insn: &Insn, lanes: u32) {
        let (vb, vc) = (insn.vb as usize, insn.vc as usize);
        self.lanewise(insn.vd, lanes, |r, l| r[vb][l] ^ r[vc][l]);
    }

    /// SFPNOT: `VD = ~VC` (SFPNOT.md).
    pub(super) fn sfpnot(&mut self, insn: &Insn, lanes: u32) {
        let vc = insn.vc as usize;
        self.lanewise(insn.vd, lanes, |r, l| !r[vc][l]);
    }

    /// SFPLZ: count leading zeros (32 for zero), optionally of the magnitude only, optionally
    /// setting `LaneFlags` to `VC != 0` and/or inverting them (SFPLZ.md).
    pub(super) fn sfplz(&mut self, insn: &Insn, lanes: u32) {
        const CC_NE0: u8 = 2;
        const NOSGN_MASK: u8 = 4;
        const CC_COMP: u8 = 8;
        if !writable(insn.vd) {
            return;
        }
        let m = insn.modifier;
        let en = self.state.enabled_mask() & lanes;
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let mut c = self.state.lreg[insn.vc as usize][lane];
            if m & NOSGN_MASK != 0 {
                c &= 0x7fff_ffff;
            }
            self.state.lreg[insn.vd as usize][lane] = c.leading_zeros();
            if insn.vd < 8 {
                if m & CC_NE0 != 0 {
                    self.state.set_flag(lane, c != 0);
                }
                if m & CC_COMP != 0 {
                    let f = self.state.flag(lane);
                    self.state.set_flag(lane, !f);
                }
            }
        }
    }

    /// SFPSHFT: shift `VD` (or, with `ARG_IMM_USE_VC`, `VC`) left by a non-negative amount or
    /// right (logical or arithmetic) by a negative one; amount from `VC` or `Imm12`
    /// (SFPSHFT.md).
    pub(super) fn sfpshft(&mut self, insn: &Insn, lanes: u32) {
        const ARG_IMM: u8 = 1;
        const ARITHMETIC: u8 = 2;
        const IMM_USE_VC: u8 = 4;
        let (m, imm) = (insn.modifier, insn.imm12());
        let (vb, vc) = (insn.vb as usize, insn.vc as usize);
        self.lanewise(insn.vd, lanes, |r, l| {
            let mut x = r[vb][l];
            let mut amount = r[vc][l] as i32;
            if m & ARG_IMM != 0 {
                if m & IMM_USE_VC != 0 {
                    x = amount as u32;
                }
                amount = imm;
            }
            if amount >= 0 {
                x << (amount & 31)
            } else if m & ARITHMETIC != 0 {
                ((x as i32) >> (amount.wrapping_neg() & 31)) as u32
            } else {
                x >> (amount.wrapping_neg() & 31)
            }
        });
    }

    /// SFPDIVP2: set the FP32 exponent to `Imm8`, or add `Imm8` to it modulo 256 leaving
    /// Inf/NaN unchanged (SFPDIVP2.md).
    pub(super) fn sfpdivp2(&mut self, insn: &Insn, lanes: u32) {
        let imm8 = insn.uimm12() & 0xff;
        let add = insn.modifier & 1 != 0;
        let vc = insn.vc as usize;
        self.lanewise(insn.vd, lanes, |r, l| {
            let c = r[vc][l];
            let exp = (c >> 23) & 0xff;
            let new_exp = match (add, exp) {
                (true, 255) => 255,
                (true, e) => (e + imm8) & 0xff,
                (false, _) => imm8,
            };
            (c & 0x807f_ffff) | (new_exp << 23)
        });
    }

    /// SFPEXEXP: the FP32 exponent field as an integer, unbiased unless `NODEBIAS`, optionally
    /// setting `LaneFlags` from its sign and/or inverting them (SFPEXEXP.md).
    pub(super) fn sfpexexp(&mut self, insn: &Insn, lanes: u32) {
        const NODEBIAS: u8 = 1;
        const SET_CC_SGN: u8 = 2;
        const SET_CC_COMP: u8 = 8;
        if !writable(insn.vd) {
            return;
        }
        let m = insn.modifier;
        let bias = if m & NODEBIAS != 0 { 0 } else { 127 };
        let en = self.state.enabled_mask() & lanes;
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let e = ((self.state.lreg[insn.vc as usize][lane] >> 23) & 0xff) as i32 - bias;
            self.state.lreg[insn.vd as usize][lane] = e as u32;
            if insn.vd < 8 {
                if m & SET_CC_SGN != 0 {
                    self.state.set_flag(lane, e < 0);
                }
                if m & SET_CC_COMP != 0 {
                    let f = self.state.flag(lane);
                    self.state.set_flag(lane, !f);
                }
            }
        }
    }

    /// SFPEXMAN: the 23 mantissa bits with the hidden bit set (or clear with `PAD9`)
    /// (SFPEXMAN.md).
    pub(super) fn sfpexman(&mut self, insn: &Insn, lanes: u32) {
        let hidden = if insn.modifier & 1 != 0 { 0 } else { 1 << 23 };
        let vc = insn.vc as usize;
        self.lanewise(insn.vd, lanes, |r, l| hidden + (r[vc][l] & 0x7f_ffff));
    }

    /// SFPSETEXP: sign and mantissa of `VC`, exponent from `Imm8`, from `VB`'s exponent field,
    /// or from `VB`'s low 8 bits (SFPSETEXP.md).
    pub(super) fn sfpsetexp(&mut self, insn: &Insn, lanes: u32) {
        const ARG_IMM: u8 = 1;
        const ARG_EXPONENT: u8 = 2;
        let (m, imm8) = (insn.modifier, insn.uimm12() & 0xff);
        let (vb, vc) = (insn.vb as usize, insn.vc as usize);
        self.lanewise(insn.vd, lanes, |r, l| {
            let exp = if m & ARG_IMM != 0 {
                imm8
            } else if m & ARG_EXPONENT != 0 {
                (r[vb][l] >> 23) & 0xff
            } else {
                r[vb][l] & 0xff
            };
            (r[vc][l] & 0x807f_ffff) | (exp << 23)
        });
    }

    /// SFPSETMAN: sign and exponent of `VC`, mantissa from `Imm12 << 11` or `VB`'s low 23 bits
    /// (SFPSETMAN.md).
    pub(super) fn sfpsetman(&mut self, insn: &Insn, lanes: u32) {
        let imm = insn.modifier & 1 != 0;
        let man_imm = insn.uimm12() << 11;
        let (vb, vc) = (insn.vb as usize, insn.vc as usize);
        self.lanewise(insn.vd, lanes, |r, l| {
            let man = if imm { man_imm } else { r[vb][l] & 0x7f_ffff };
            (r[vc][l] & 0xff80_0000) | man
        });
    }

    /// SFPSETSGN: exponent and mantissa of `VC`, sign from `Imm1` or from `VB` (SFPSETSGN.md).
    pub(super) fn sfpsetsgn(&mut self, insn: &Insn, lanes: u32) {
        let imm = insn.modifier & 1 != 0;
        let imm1 = insn.uimm12() & 1;
        let (vb, vc) = (insn.vb as usize, insn.vc as usize);
        self.lanewise(insn.vd, lanes, |r, l| {
            let sign = if imm { imm1 } else { r[vb][l] >> 31 };
            (r[vc][l] & 0x7fff_ffff) | (sign << 31)
        });
    }
}
