//! Register-window counters (RWCs): each thread's auto-incrementing row counters for `Dst`,
//! `SrcA`, `SrcB` and the fidelity phase, used by Matrix Unit and Vector Unit instructions,
//! and `ApplyAddrMod`, which moves them by one of the eight pre-configured `ADDR_MOD`s held in
//! `ThreadConfig`.
//!
//! Source: tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/RWCs.md. On Blackhole
//! instructions carry a 3-bit `addr_mode` field naming `ADDR_MOD_*_SEC0..7` directly (the
//! instruction table's field widths; `cfg_defines.h` has no `ADDR_MOD_SET_Base`), so the
//! Wormhole `ExtraAddrModBit` / `ADDR_MOD_SET_Base` indirection does not select the index here.
//! The `ADDR_MOD_BIAS` section's effect on Blackhole is not documented; it is held in
//! configuration and not applied.
use super::cfg_fields as f;
use super::config::{CfgField, ConfigSpace};

/// One thread's RWCs, each held in its documented width (`uint10_t Dst`, `uint6_t SrcA`, ...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rwc {
    pub dst: u16,
    pub dst_cr: u16,
    pub src_a: u8,
    pub src_a_cr: u8,
    pub src_b: u8,
    pub src_b_cr: u8,
    pub fidelity_phase: u8,
}

const DST_MASK: u16 = 0x3ff;
const SRC_MASK: u8 = 0x3f;

/// `ADDR_MOD_AB_SEC[i]`, `ADDR_MOD_DST_SEC[i]` as read from `ThreadConfig`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AddrMod {
    pub src_a_incr: u8,
    pub src_a_cr: bool,
    pub src_a_clear: bool,
    pub src_b_incr: u8,
    pub src_b_cr: bool,
    pub src_b_clear: bool,
    pub dest_incr: u16,
    pub dest_cr: bool,
    pub dest_clear: bool,
    pub dest_c_to_cr: bool,
    pub fidelity_incr: u8,
    pub fidelity_clear: bool,
}

/// Reads field `base` of section `index`: the eight sections are consecutive words.
fn sec(cfg: &ConfigSpace, thread: usize, base: CfgField, index: usize) -> u32 {
    let f = CfgField {
        addr32: base.addr32 + index,
        ..base
    };
    cfg.get(thread, f)
}

impl AddrMod {
    /// `ADDR_MOD_*_SEC[index]` of `thread` (index 0..8; larger indices read zero words).
    pub fn read(cfg: &ConfigSpace, thread: usize, index: usize) -> AddrMod {
        let g = |b| sec(cfg, thread, b, index);
        AddrMod {
            src_a_incr: g(f::ADDR_MOD_AB_SEC0_SrcAIncr) as u8,
            src_a_cr: g(f::ADDR_MOD_AB_SEC0_SrcACR) != 0,
            src_a_clear: g(f::ADDR_MOD_AB_SEC0_SrcAClear) != 0,
            src_b_incr: g(f::ADDR_MOD_AB_SEC0_SrcBIncr) as u8,
            src_b_cr: g(f::ADDR_MOD_AB_SEC0_SrcBCR) != 0,
            src_b_clear: g(f::ADDR_MOD_AB_SEC0_SrcBClear) != 0,
            dest_incr: g(f::ADDR_MOD_DST_SEC0_DestIncr) as u16,
            dest_cr: g(f::ADDR_MOD_DST_SEC0_DestCR) != 0,
            dest_clear: g(f::ADDR_MOD_DST_SEC0_DestClear) != 0,
            dest_c_to_cr: g(f::ADDR_MOD_DST_SEC0_DestCToCR) != 0,
            fidelity_incr: g(f::ADDR_MOD_DST_SEC0_FidelityIncr) as u8,
            fidelity_clear: g(f::ADDR_MOD_DST_SEC0_FidelityClear) != 0,
        }
    }
}

impl Rwc {
    /// `ApplyAddrMod(AddrMod, UpdateFidelityPhase)` of RWCs.md with the already-read
    /// `ADDR_MOD` (see [`AddrMod::read`]). SFPLOAD / SFPSTORE / SFPLOADMACRO pass
    /// `update_fidelity = false` (`ApplyPartialAddrMod`).
    pub fn apply(&mut self, m: &AddrMod, update_fidelity: bool) {
        if m.src_a_clear {
            self.src_a = 0;
            self.src_a_cr = 0;
        } else if m.src_a_cr {
            self.src_a_cr = self.src_a_cr.wrapping_add(m.src_a_incr) & SRC_MASK;
            self.src_a = self.src_a_cr;
        } else {
            self.src_a = self.src_a.wrapping_add(m.src_a_incr) & SRC_MASK;
        }
        if m.src_b_clear {
            self.src_b = 0;
            self.src_b_cr = 0;
        } else if m.src_b_cr {
            self.src_b_cr = self.src_b_cr.wrapping_add(m.src_b_incr) & SRC_MASK;
            self.src_b = self.src_b_cr;
        } else {
            self.src_b = self.src_b.wrapping_add(m.src_b_incr) & SRC_MASK;
        }
        if m.dest_clear {
            self.dst = 0;
            self.dst_cr = 0;
        } else if m.dest_c_to_cr {
            self.dst = self.dst.wrapping_add(m.dest_incr) & DST_MASK;
            self.dst_cr = self.dst;
        } else if m.dest_cr {
            self.dst_cr = self.dst_cr.wrapping_add(m.dest_incr) & DST_MASK;
            self.dst = self.dst_cr;
        } else {
            self.dst = self.dst.wrapping_add(m.dest_incr) & DST_MASK;
        }
        if update_fidelity {
            if m.fidelity_clear {
                self.fidelity_phase = 0;
            } else {
                self.fidelity_phase = self.fidelity_phase.wrapping_add(m.fidelity_incr) & 3;
            }
        }
    }

    /// `ApplyAddrMod` reading `ADDR_MOD_*_SEC[index]` from `thread`'s configuration.
    pub fn apply_addr_mod(
        &mut self,
        cfg: &ConfigSpace,
        thread: usize,
        index: usize,
        update_fidelity: bool,
    ) {
        let m = AddrMod::read(cfg, thread, index);
        self.apply(&m, update_fidelity);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg_with(thread: usize, index: usize, ab: u16, dst: u16) -> ConfigSpace {
        let mut c = ConfigSpace::new();
        c.write_thread_word(thread, f::ADDR_MOD_AB_SEC0_SrcAIncr.addr32 + index, ab);
        c.write_thread_word(thread, f::ADDR_MOD_DST_SEC0_DestIncr.addr32 + index, dst);
        c
    }

    #[test]
    fn apply_addr_mod_increments_srca_srcb_dst() {
        // AB word: SrcAIncr bits 0..5, SrcBIncr bits 8..13; DST word: DestIncr bits 0..9,
        // FidelityIncr bits 13..14 (cfg_defines.h).
        let c = cfg_with(1, 3, 2 | (4 << 8), 8 | (1 << 13));
        let mut r = Rwc::default();
        r.apply_addr_mod(&c, 1, 3, true);
        assert_eq!((r.src_a, r.src_b, r.dst, r.fidelity_phase), (2, 4, 8, 1));
        r.apply_addr_mod(&c, 1, 3, false);
        assert_eq!((r.src_a, r.src_b, r.dst, r.fidelity_phase), (4, 8, 16, 1));
        // Another thread's ADDR_MODs are its own.
        r.apply_addr_mod(&c, 0, 3, true);
        assert_eq!((r.src_a, r.src_b, r.dst, r.fidelity_phase), (4, 8, 16, 1));
    }

    #[test]
    fn apply_addr_mod_clear_and_carriage_return() {
        let mut r = Rwc {
            dst: 100,
            dst_cr: 32,
            src_a: 5,
            src_a_cr: 3,
            src_b: 9,
            src_b_cr: 9,
            fidelity_phase: 3,
        };
        let m = AddrMod {
            src_a_clear: true,
            src_b_cr: true,
            src_b_incr: 1,
            dest_cr: true,
            dest_incr: 16,
            fidelity_clear: true,
            ..AddrMod::default()
        };
        r.apply(&m, true);
        assert_eq!((r.src_a, r.src_a_cr), (0, 0));
        assert_eq!((r.src_b, r.src_b_cr), (10, 10));
        assert_eq!((r.dst, r.dst_cr), (48, 48));
        assert_eq!(r.fidelity_phase, 0);
        let m = AddrMod {
            dest_c_to_cr: true,
            dest_incr: 4,
            ..AddrMod::default()
        };
        r.apply(&m, true);
        assert_eq!((r.dst, r.dst_cr), (52, 52));
    }

    #[test]
    fn rwc_counters_wrap_at_their_widths() {
        let mut r = Rwc {
            dst: 1020,
            src_a: 62,
            fidelity_phase: 3,
            ..Rwc::default()
        };
        let m = AddrMod {
            dest_incr: 8,
            src_a_incr: 3,
            fidelity_incr: 2,
            ..AddrMod::default()
        };
        r.apply(&m, true);
        assert_eq!((r.dst, r.src_a, r.fidelity_phase), (4, 1, 1));
    }
}
