//! Data type conversions: SFPCAST (all three pages) and SFPSTOCHRND (all three pages).
use super::state::{writable, LANES};
use super::{Insn, VectorUnit};

const RND_NEAREST: u32 = 0;
const RND_ZERO: u32 = 2;

impl VectorUnit {
    /// SFPCAST: `Mod1 & 3` selects sign-magnitude to FP32 with round-to-nearest-even (0) or
    /// stochastic rounding (1) (SFPCAST_IntFloat.md), two's complement absolute value (2,
    /// SFPCAST_IntAbs.md), or two's complement <-> sign-magnitude (3, SFPCAST_IntInt.md).
    pub(super) fn sfpcast(&mut self, insn: &Insn, lanes: u32) {
        let vc = insn.vc as usize;
        match insn.modifier & 3 {
            2 => self.lanewise(insn.vd, lanes, |r, l| {
                let x = r[vc][l];
                if x & 0x8000_0000 != 0 {
                    x.wrapping_neg()
                } else {
                    x
                }
            }),
            3 => self.lanewise(insn.vd, lanes, |r, l| {
                let c = r[vc][l];
                let sign = c & 0x8000_0000;
                sign | if sign != 0 { c.wrapping_neg() } else { c }
            }),
            mode => {
                let stochastic = mode == 1;
                let en = self.state.enabled_mask() & lanes;
                for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
                    let c = self.state.lreg[vc][lane];
                    let sign = c & 0x8000_0000;
                    let mag = c & 0x7fff_ffff;
                    let lz = if mag != 0 { mag.leading_zeros() } else { 157 };
                    let norm = mag << (lz & 31);
                    let mut d = sign
                        .wrapping_add((157u32.wrapping_sub(lz)) << 23)
                        .wrapping_add(norm >> 8);
                    let round_up = if stochastic {
                        (norm & 0xfe) > ((self.state.advance_prng(lane) >> 9) & 0xfe)
                    } else {
                        norm & 0x80 != 0 && norm & 0x17f != 0
                    };
                    d = d.wrapping_add(round_up as u32);
                    if writable(insn.vd) {
                        self.state.lreg[insn.vd as usize][lane] = d;
                    }
                }
            }
        }
    }

    /// SFPSTOCHRND: FP32 precision reduction to 10 or 7 mantissa bits (Mod1 0/1,
    /// SFPSTOCHRND_FloatFloat.md), FP32 to bounded sign-magnitude integer (2, 3, 6, 7,
    /// SFPSTOCHRND_FloatInt.md), or sign-magnitude range reduction (4, 5,
    /// SFPSTOCHRND_IntInt.md). Rounding: nearest (ties away), stochastic, or toward zero, with
    /// the documented `>=` comparison bug. The PRNG advances in every enabled lane whatever
    /// the rounding mode.
    pub(super) fn sfpstochrnd(&mut self, insn: &Insn, lanes: u32) {
        let mode = insn.modifier as u32 & 7;
        let use_imm5 = insn.shift_from_imm;
        let imm5 = insn.imm & 31;
        let rounding = u32::from(insn.rounding);
        let (vb, vc) = (insn.vb as usize, insn.vc as usize);
        let en = self.state.enabled_mask() & lanes;
        for lane in (0..LANES).filter(|l| (en >> l) & 1 != 0) {
            let mut prng = self.state.advance_prng(lane) & 0x7f_ffff;
            match rounding {
                RND_NEAREST => prng = 0x40_0000,
                RND_ZERO => prng = 0x7f_ffff,
                _ => {}
            }
            let c = self.state.lreg[vc][lane];
            let d = match mode {
                0 | 1 => float_to_float(c, mode == 0, prng),
                4 | 5 => {
                    let shift = if use_imm5 {
                        imm5
                    } else {
                        self.state.lreg[vb][lane] & 31
                    };
                    int_to_int(c, shift, mode == 5, prng)
                }
                _ => float_to_int(c, mode, prng),
            };
            if writable(insn.vd) {
                self.state.lreg[insn.vd as usize][lane] = d;
            }
        }
    }
}

/// SFPSTOCHRND_FloatFloat.md: keep 10 (`fp16a`) or 7 mantissa bits.
fn float_to_float(x: u32, fp16a: bool, prng: u32) -> u32 {
    let exp = (x >> 23) & 0xff;
    if exp == 0 {
        return 0;
    }
    if exp == 255 {
        return x & 0xff80_0000;
    }
    let (drop_bits, prng_shift) = if fp16a { (13, 10) } else { (16, 7) };
    let discarded = x & ((1 << drop_bits) - 1);
    let kept = x - discarded;
    if discarded >= (prng >> prng_shift) {
        kept + (1 << drop_bits)
    } else {
        kept
    }
}

/// SFPSTOCHRND_FloatInt.md: round to integer, clamp to ±127 / ±32767 (sign kept) or
/// 255 / 65535 (absolute value).
fn float_to_int(c: u32, mode: u32, prng: u32) -> u32 {
    let (keep_sign, max_mag): (bool, u64) = match mode {
        3 => (true, 127),
        2 => (false, 255),
        7 => (true, 32767),
        _ => (false, 65535),
    };
    let mut sign = if keep_sign { c & 0x8000_0000 } else { 0 };
    let exp = ((c >> 23) & 0xff) as i32 - 127;
    let mag: u64 = if exp < -1 {
        sign = 0;
        0
    } else if exp >= 16 {
        max_mag
    } else {
        let m = 0x80_0000u64 | (c & 0x7f_ffff) as u64;
        let m = if exp >= 0 { m << exp } else { m >> 1 };
        let m = ((m >> 23) + ((m & 0x7f_ffff) >= prng as u64) as u64).min(max_mag);
        if m == 0 {
            sign = 0;
        }
        m
    };
    sign + mag as u32
}

/// SFPSTOCHRND_IntInt.md: shift the magnitude right, round, clamp to ±127 or 0..255.
fn int_to_int(c: u32, shift: u32, signed: bool, prng: u32) -> u32 {
    let mut sign = c & 0x8000_0000;
    let m = (((c & 0x7fff_ffff) as u64) << 23) >> shift;
    let mut mag = (m >> 23) + ((m & 0x7f_ffff) >= prng as u64) as u64;
    if signed {
        mag = mag.min(127);
        if mag == 0 {
            sign = 0;
        }
    } else {
        mag = mag.min(255);
        sign = 0;
    }
    sign + mag as u32
}
