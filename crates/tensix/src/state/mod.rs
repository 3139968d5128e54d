//! The data state of one Tensix coprocessor, in the documentation's own storage: the register
//! files (`Dst`, `SrcA`, `SrcB`), the configuration space (`Config[2]`, `ThreadConfig[3]`), the
//! per-thread GPRs, the address counters of the unpackers and packers (ADCs) and the
//! register-window counters (RWCs) with their ADDR_MODs.
//!
//! One [`TensixState`] is owned by the [`crate::Coprocessor`]; the backend units (in
//! `crate::units`, `crate::sfpu`, `crate::matrix`) get `&mut TensixState` when they apply an
//! instruction's effects. Nothing here knows about time: the units decide *when* (dispatch or
//! retire), this module only holds the bits.
pub mod adc;
#[rustfmt::skip]
pub mod cfg_fields;
pub mod config;
pub mod dst;
pub mod rwc;
pub mod src;

pub use adc::{AdcChannel, AdcUnit, Adcs, Coord};
pub use config::{CfgField, ConfigSpace, Space, CFG_WORDS};
pub use dst::{adj16, adj32, DestAccessCfg, Dst, DST32_ROWS, DST_COLS, DST_ROWS};
pub use rwc::{AddrMod, Rwc};
pub use src::{SrcData, SRC_BANKS, SRC_COLS, SRC_DATUM_MASK, SRC_ROWS};

/// Tensix threads.
pub const THREADS: usize = 3;
/// GPRs per thread (ScalarUnit.md: `uint32_t GPRs[3][64]`).
pub const GPRS: usize = 64;

/// Everything the data path computes on. Public fields: units borrow the pieces they need
/// disjointly (e.g. `&state.src_a` and `&mut state.dst` at once).
#[derive(Clone, Debug)]
pub struct TensixState {
    /// `Dst` (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/Dst.md).
    pub dst: Dst,
    /// The data of `SrcA[2]` (WormholeB0/TensixTile/TensixCoprocessor/SrcASrcB.md); bank
    /// ownership lives in `crate::src_banks`.
    pub src_a: SrcData,
    /// The data of `SrcB[2]`.
    pub src_b: SrcData,
    /// `Config[2]` and `ThreadConfig[3]` (BackendConfiguration.md).
    pub cfg: ConfigSpace,
    /// `GPRs[3][64]` (WormholeB0/TensixTile/TensixCoprocessor/ScalarUnit.md).
    pub gprs: [[u32; GPRS]; THREADS],
    /// `RWCs[3]` (WormholeB0/TensixTile/TensixCoprocessor/RWCs.md).
    pub rwcs: [Rwc; THREADS],
    /// `ADCs[3]` (WormholeB0/TensixTile/TensixCoprocessor/ADCs.md).
    pub adcs: [Adcs; THREADS],
    /// The Matrix Unit's own state (undefined Dst rows after ZEROACC, the hazard checker).
    pub matrix: crate::matrix::MatrixUnit,
    /// The Vector Unit (SFPU): `LReg`s, lane flags, SFPLOADMACRO's schedule and the
    /// automatic-stall hazard; its `Dst` accesses go to [`TensixState::dst`] like every unit's.
    pub sfpu: crate::sfpu::VectorUnit,
    /// Unpacker 0 / 1 context counters and `SrcRow` (UNPACR_Regular.md).
    pub unpackers: [crate::units::unpack::UnpackerState; 2],
    /// Packer output streams kept between PACRs (Packers/OutputAddressGenerator.md).
    pub packers: [crate::units::pack::PackerState; 4],
}

impl Default for TensixState {
    fn default() -> Self {
        TensixState::new()
    }
}

impl TensixState {
    /// Power-on state: everything zero.
    pub fn new() -> Self {
        TensixState {
            dst: Dst::new(),
            src_a: SrcData::new(),
            src_b: SrcData::new(),
            cfg: ConfigSpace::new(),
            gprs: [[0; GPRS]; THREADS],
            rwcs: [Rwc::default(); THREADS],
            adcs: [Adcs::default(); THREADS],
            matrix: crate::matrix::MatrixUnit::new(),
            sfpu: crate::sfpu::VectorUnit::new(),
            unpackers: Default::default(),
            packers: Default::default(),
        }
    }

    /// `Config.DEST_ACCESS_CFG_{remap_addrs, swizzle_32b}` as `thread` sees them: what every
    /// `Dst` access of that thread's instructions passes to [`Dst::read16`] and friends.
    pub fn dest_access_cfg(&self, thread: usize) -> DestAccessCfg {
        DestAccessCfg {
            remap_addrs: self
                .cfg
                .get(thread, cfg_fields::DEST_ACCESS_CFG_remap_addrs)
                != 0,
            swizzle_32b: self
                .cfg
                .get(thread, cfg_fields::DEST_ACCESS_CFG_swizzle_32b)
                != 0,
        }
    }

    /// `ApplyAddrMod(index)` on `thread`'s RWCs with its `ADDR_MOD` configuration
    /// (`update_fidelity = false` is `ApplyPartialAddrMod`).
    pub fn apply_addr_mod(&mut self, thread: usize, index: usize, update_fidelity: bool) {
        let m = AddrMod::read(&self.cfg, thread, index);
        if let Some(r) = self.rwcs.get_mut(thread) {
            r.apply(&m, update_fidelity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dest_access_cfg_is_a_global_word_seen_by_every_thread() {
        let mut s = TensixState::new();
        s.cfg
            .write_thread_word(2, cfg_fields::CFG_STATE_ID_StateID.addr32, 1);
        let f = cfg_fields::DEST_ACCESS_CFG_remap_addrs;
        // DEST_ACCESS_CFG sits at or above GLOBAL_CFGREG_BASE_ADDR32: one value for both states.
        assert!(f.addr32 >= cfg_fields::GLOBAL_CFGREG_BASE_ADDR32);
        s.cfg.write_word(1, f.addr32, 1 << f.shamt);
        assert!(s.dest_access_cfg(2).remap_addrs);
        assert!(s.dest_access_cfg(0).remap_addrs);
        assert!(!s.dest_access_cfg(0).swizzle_32b);
    }
}
