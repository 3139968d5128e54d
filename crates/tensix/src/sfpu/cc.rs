//! Conditional execution: `LaneFlags`, `UseLaneFlagsForLaneEnable` and the per-lane flag
//! stack (SFPSETCC, SFPENCC, SFPCOMPC, SFPPUSHC, SFPPOPC, SFPGT, SFPLE).
//!
//! Source: tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/VectorUnit.md
//! ("Lane Predication Masks") and each instruction's page.
use super::state::{lanes_of, writable, FlagEntry, FLAG_STACK_DEPTH};
use super::{Insn, SfpuError, VectorUnit};

/// `BooleanOp(Mod1, A, B)` of SFPPUSHC.md / SFPPOPC.md, for `1 <= Mod1 <= 12`.
fn boolean_op(m: u8, a: bool, b: bool) -> bool {
    match m {
        1 => b,
        2 => !b,
        3 => a && b,
        4 => a || b,
        5 => a && !b,
        6 => a || !b,
        7 => !a && b,
        8 => !a || b,
        9 => !a && !b,
        10 => !a || !b,
        11 => a != b,
        _ => a == b,
    }
}

/// `SignMagIsSmaller(C, D)`: `C < D` as sign-magnitude integers, which for FP32 is the
/// total order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN (SFPGT.md).
#[inline(always)]
pub(super) fn sign_mag_is_smaller(c: u32, d: u32) -> bool {
    let key = |v: u32| (v ^ (((v as i32) >> 30) as u32 >> 1)) as i32;
    key(c) < key(d)
}

impl VectorUnit {
    /// SFPSETCC: `LaneFlags` from `VC < 0`, `!= 0`, `>= 0`, `== 0` (as a two's complement
    /// integer), from `Imm1`, or cleared; always false where flags are not in use
    /// (SFPSETCC.md).
    pub(super) fn sfpsetcc(&mut self, insn: &Insn, lanes: u32) {
        const IMM_BIT0: u8 = 1;
        const CLEAR: u8 = 8;
        let m = insn.modifier;
        let en = self.state.enabled_mask() & lanes;
        for lane in lanes_of(en) {
            let c = self.state.lreg[insn.vc as usize][lane] as i32;
            let f = if !self.state.use_flag(lane) || m & CLEAR != 0 {
                false
            } else if m & IMM_BIT0 != 0 {
                insn.uimm12() & 1 != 0
            } else {
                match m {
                    0 => c < 0,
                    2 => c != 0,
                    4 => c >= 0,
                    _ => c == 0,
                }
            };
            self.state.set_flag(lane, f);
        }
    }

    /// SFPENCC: set or invert `UseLaneFlagsForLaneEnable`, then set `LaneFlags` to true or to
    /// `Imm2` bit 1; not predicated (SFPENCC.md).
    pub(super) fn sfpencc(&mut self, insn: &Insn, lanes: u32) {
        const EC: u8 = 1;
        const EI: u8 = 2;
        const RI: u8 = 8;
        let (m, imm2) = (insn.modifier, insn.uimm12() & 3);
        for lane in lanes_of(lanes) {
            if m & EI != 0 {
                self.state.set_use_flag(lane, imm2 & 1 != 0);
            } else if m & EC != 0 {
                let u = self.state.use_flag(lane);
                self.state.set_use_flag(lane, !u);
            }
            let f = if m & RI != 0 { imm2 & 2 != 0 } else { true };
            self.state.set_flag(lane, f);
        }
    }

    /// SFPCOMPC: the `else` of SIMT if/else: `LaneFlags = Top.LaneFlags && !LaneFlags` when
    /// both the stack top (true/true when empty) and the lane use flags, else false
    /// (SFPCOMPC.md).
    pub(super) fn sfpcompc(&mut self, lanes: u32) {
        for lane in lanes_of(lanes) {
            let top = self.state.stack_top(lane).unwrap_or(FlagEntry {
                lane_flags: true,
                use_lane_flags: true,
            });
            let f = if top.use_lane_flags && self.state.use_flag(lane) {
                top.lane_flags && !self.state.flag(lane)
            } else {
                false
            };
            self.state.set_flag(lane, f);
        }
    }

    /// SFPPUSHC: push the lane masks (`Mod1 == 0`), or replace / combine into the stack top
    /// (`Mod1` 1..15). Pushing onto a full stack or mutating an empty one is undefined
    /// (SFPPUSHC.md).
    pub(super) fn sfppushc(&mut self, insn: &Insn, lanes: u32) -> Result<(), SfpuError> {
        let m = insn.modifier;
        for lane in lanes_of(lanes) {
            let depth = self.state.flag_depth[lane] as usize;
            if m == 0 && depth >= FLAG_STACK_DEPTH {
                return Err(SfpuError::new(
                    insn,
                    format!("push onto a full flag stack (lane {lane}, depth {depth})"),
                ));
            }
            if m != 0 && depth == 0 {
                return Err(SfpuError::new(
                    insn,
                    format!("Mod1={m} mutates the top of an empty flag stack (lane {lane})"),
                ));
            }
        }
        for lane in lanes_of(lanes) {
            let cur = FlagEntry {
                lane_flags: self.state.flag(lane),
                use_lane_flags: self.state.use_flag(lane),
            };
            if m == 0 {
                let d = self.state.flag_depth[lane] as usize;
                self.state.flag_stack[lane][d] = cur;
                self.state.flag_depth[lane] += 1;
                continue;
            }
            if m == 13 {
                self.state.set_flag(lane, !cur.lane_flags);
            }
            let new_flags = self.state.flag(lane);
            if let Some(top) = self.state.stack_top_mut(lane) {
                *top = match m {
                    1..=12 => FlagEntry {
                        use_lane_flags: cur.use_lane_flags,
                        lane_flags: boolean_op(m, top.lane_flags, cur.lane_flags),
                    },
                    13 => FlagEntry {
                        use_lane_flags: cur.use_lane_flags,
                        lane_flags: new_flags,
                    },
                    14 => FlagEntry {
                        use_lane_flags: true,
                        lane_flags: true,
                    },
                    _ => FlagEntry {
                        use_lane_flags: true,
                        lane_flags: false,
                    },
                };
            }
        }
        Ok(())
    }

    /// SFPPOPC: pop into the lane masks (`Mod1 == 0`; undefined on an empty stack), or peek and
    /// combine (`Mod1` 1..12), invert `LaneFlags` (13), or set constants (14, 15); the peeked
    /// top of an empty stack reads false/false (SFPPOPC.md).
    pub(super) fn sfppopc(&mut self, insn: &Insn, lanes: u32) -> Result<(), SfpuError> {
        let m = insn.modifier;
        if m == 0 {
            if let Some(lane) = lanes_of(lanes).find(|&l| self.state.flag_depth[l] == 0) {
                return Err(SfpuError::new(
                    insn,
                    format!("pop from an empty flag stack (lane {lane})"),
                ));
            }
        }
        for lane in lanes_of(lanes) {
            let top = self.state.stack_top(lane).unwrap_or_default();
            let (use_flags, flags) = (self.state.use_flag(lane), self.state.flag(lane));
            let (u, f) = match m {
                0 => {
                    self.state.flag_depth[lane] -= 1;
                    (top.use_lane_flags, top.lane_flags)
                }
                1..=12 => (top.use_lane_flags, boolean_op(m, flags, top.lane_flags)),
                13 => (use_flags, !flags),
                14 => (true, true),
                _ => (true, false),
            };
            self.state.set_use_flag(lane, u);
            self.state.set_flag(lane, f);
        }
        Ok(())
    }

    /// SFPGT: `VD > VC` in sign-magnitude order (SFPGT.md).
    pub(super) fn sfpgt(&mut self, insn: &Insn, lanes: u32) {
        self.compare(insn, lanes, sign_mag_is_smaller);
    }

    /// SFPLE: `VD <= VC` in sign-magnitude order (SFPLE.md).
    pub(super) fn sfple(&mut self, insn: &Insn, lanes: u32) {
        self.compare(insn, lanes, |c, d| !sign_mag_is_smaller(c, d));
    }

    /// The shared body of SFPGT / SFPLE: the comparison `test(VC, VB)` (with `VB = VD`) goes to
    /// `VD` as -1/0 (`SET_VD`), to `LaneFlags` (`SET_CC`) in enabled lanes, and is AND-ed or
    /// OR-ed into the stack top's `LaneFlags` (`MUTATE_STACK`) in every lane.
    fn compare(&mut self, insn: &Insn, lanes: u32, test: impl Fn(u32, u32) -> bool) {
        const SET_CC: u8 = 1;
        const MUTATE_STACK: u8 = 2;
        const MUTATE_OR: u8 = 4;
        const SET_VD: u8 = 8;
        let m = insn.modifier;
        let en = self.state.enabled_mask();
        for lane in lanes_of(lanes) {
            let r = &self.state.lreg;
            let t = test(r[insn.vc as usize][lane], r[insn.vb as usize][lane]);
            if (en >> lane) & 1 != 0 {
                if m & SET_VD != 0 && writable(insn.vd) {
                    self.state.lreg[insn.vd as usize][lane] = if t { u32::MAX } else { 0 };
                }
                if m & SET_CC != 0 {
                    self.state.set_flag(lane, t);
                }
            }
            if m & MUTATE_STACK != 0 {
                if let Some(top) = self.state.stack_top_mut(lane) {
                    top.lane_flags = if m & MUTATE_OR != 0 {
                        top.lane_flags | t
                    } else {
                        top.lane_flags & t
                    };
                }
            }
        }
    }
}
