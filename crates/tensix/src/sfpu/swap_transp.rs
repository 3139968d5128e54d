//! Data movement between registers and lanes: SFPMOV, SFPSWAP, SFPTRANSP, SFPSHFT2.
use super::cc::sign_mag_is_smaller;
use super::state::{lane_config, lanes_of, writable, LANES};
use super::{Insn, VectorUnit};

impl VectorUnit {
    /// SFPMOV: copy `VC` (optionally with the sign bit flipped), or read configuration /
    /// the PRNG (`FROM_SPECIAL`); `ALL_LANES_ENABLED` ignores predication (SFPMOV.md).
    pub(super) fn sfpmov(&mut self, insn: &Insn, lanes: u32) {
        const NEGATE: u8 = 1;
        const ALL_LANES_ENABLED: u8 = 2;
        const FROM_SPECIAL: u8 = 8;
        let m = insn.modifier;
        let en = if m == ALL_LANES_ENABLED {
            lanes
        } else {
            self.state.enabled_mask() & lanes
        };
        let vc = insn.vc as usize;
        for lane in lanes_of(en) {
            let x = if m & FROM_SPECIAL != 0 {
                let lm = &self.state.load_macro[lane];
                match vc {
                    0..=3 => lm.template[vc],
                    4..=7 => lm.sequence[vc - 4],
                    8 => lm.misc,
                    9 => self.state.advance_prng(lane),
                    15 => self.state.lane_config[lane],
                    _ => 0,
                }
            } else if m & NEGATE != 0 {
                self.state.lreg[vc][lane] ^ 0x8000_0000
            } else {
                self.state.lreg[vc][lane]
            };
            if writable(insn.vd) {
                self.state.lreg[insn.vd as usize][lane] = x;
            }
        }
    }

    /// SFPSWAP: unconditional swap of `VC` and `VD` (Mod1 0), or per-lane min/max in the
    /// sign-magnitude order with the lane pattern of `Mod1` 1..8 (others: VD = max), inverted
    /// by `EXCHANGE_SRCB_SRCC`; with `ENABLE_DEST_INDEX` the argmin/argmax companion registers
    /// `LReg[4 + (V & 3)]` swap too (SFPSWAP.md).
    pub(super) fn sfpswap(&mut self, insn: &Insn, lanes: u32) {
        let m = insn.modifier;
        let vd_gets_min: u32 = match m {
            0 | 1 => u32::MAX,
            2 => 0x0000_ffff,
            3 => 0x00ff_00ff,
            4 => 0xff00_00ff,
            5 => 0x0000_00ff,
            6 => 0x0000_ff00,
            7 => 0x00ff_0000,
            8 => 0xff00_0000,
            _ => 0,
        };
        let (vc, vd) = (insn.vc as usize, insn.vd as usize);
        let en = self.state.enabled_mask() & lanes;
        for lane in lanes_of(en) {
            let cfg = self.state.lane_config[lane];
            let r = &mut self.state.lreg;
            let (cv, dv) = (r[vc][lane], r[vd][lane]);
            let swap = m == 0 || {
                let s = if (vd_gets_min >> lane) & 1 != 0 {
                    sign_mag_is_smaller(cv, dv)
                } else {
                    !sign_mag_is_smaller(cv, dv)
                };
                s != (cfg & lane_config::EXCHANGE_SRCB_SRCC != 0)
            };
            if !swap {
                continue;
            }
            if cfg & lane_config::ENABLE_DEST_INDEX != 0 {
                if vc < 4 {
                    r[vc][lane] = dv;
                }
                if vd < 4 {
                    r[vd][lane] = cv;
                }
                let (ca, da) = (4 + (vc & 3), 4 + (vd & 3));
                let (cav, dav) = (r[ca][lane], r[da][lane]);
                r[ca][lane] = dav;
                r[da][lane] = cav;
            } else {
                if vc < 8 {
                    r[vc][lane] = dv;
                }
                if vd < 8 {
                    r[vd][lane] = cv;
                }
            }
        }
    }

    /// SFPTRANSP: in each of `LReg[0..4]` and `LReg[4..8]`, viewing lane `row * 8 + col` of
    /// register `base + i`, swap element (i, row) with (row, i) in every column; a lane
    /// disabled by predication keeps its old value (SFPTRANSP.md).
    pub(super) fn sfptransp(&mut self, lanes: u32) {
        if lanes == 0 {
            return;
        }
        let en = self.state.enabled_mask() & lanes;
        let r = &mut self.state.lreg;
        for base in [0usize, 4] {
            for col in 0..8 {
                for i in 0..4 {
                    for j in 0..i {
                        let ij = r[base + i][j * 8 + col];
                        let ji = r[base + j][i * 8 + col];
                        if (en >> (j * 8 + col)) & 1 != 0 {
                            r[base + i][j * 8 + col] = ji;
                        }
                        if (en >> (i * 8 + col)) & 1 != 0 {
                            r[base + j][i * 8 + col] = ij;
                        }
                    }
                }
            }
        }
    }

    /// SFPSHFT2: register shuffles `LReg[0..3] <- LReg[1..4]` with `LReg[3]` getting zero, the
    /// original `LReg[0]` moved up 8 lanes, or `VC` rotated right by one lane within each row
    /// (Mod1 0, 1, 2); `VC` rotated / shifted right by one lane within each row into `VD`
    /// (3, 4); or a per-lane bit shift of `VB` by `VC` or `Imm12` (5, 6); others do nothing
    /// (SFPSHFT2.md).
    pub(super) fn sfpshft2(&mut self, insn: &Insn, lanes: u32) {
        let en = self.state.enabled_mask() & lanes;
        let (vb, vc, vd) = (insn.vb as usize, insn.vc as usize, insn.vd);
        let r = &mut self.state.lreg;
        let ror1 = |v: &[u32; LANES], lane: usize| {
            if lane & 7 != 0 {
                v[lane - 1]
            } else {
                v[lane + 7]
            }
        };
        match insn.modifier {
            0..=2 => {
                let v0 = r[0];
                let vcv = r[vc];
                for lane in lanes_of(en) {
                    r[0][lane] = r[1][lane];
                    r[1][lane] = r[2][lane];
                    r[2][lane] = r[3][lane];
                    r[3][lane] = match insn.modifier {
                        0 => 0,
                        1 if lane < 24 => v0[lane + 8],
                        1 => 0,
                        _ => ror1(&vcv, lane),
                    };
                }
            }
            3 | 4 if writable(vd) && lanes != 0 => {
                let vcv = r[vc];
                for lane in lanes_of(en) {
                    r[vd as usize][lane] = match (insn.modifier, lane & 7) {
                        (3, _) => ror1(&vcv, lane),
                        (_, 0) => 0,
                        _ => vcv[lane - 1],
                    };
                }
            }
            5 | 6 if writable(vd) => {
                let imm = insn.imm12();
                for lane in lanes_of(en) {
                    let amount = if insn.modifier == 5 {
                        r[vc][lane] as i32
                    } else {
                        imm
                    };
                    let x = r[vb][lane];
                    r[vd as usize][lane] = if amount >= 0 {
                        x << (amount & 31)
                    } else {
                        x >> (amount.wrapping_neg() & 31)
                    };
                }
            }
            _ => {}
        }
    }
}
