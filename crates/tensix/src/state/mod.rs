//! The data state of one Tensix coprocessor, in the documentation's own storage: the register
//! files (`Dst`, `SrcA`, `SrcB`) and, alongside them, the configuration space, per-thread GPRs,
//! address counters and ADDR_MOD registers that instructions read and write.
//!
//! One [`TensixState`] is owned by the [`crate::Coprocessor`]; the backend units (in
//! `crate::units`, `crate::sfpu`, `crate::matrix`) get `&mut TensixState` when they apply an
//! instruction's effects. Nothing here knows about time: the units decide *when* (dispatch or
//! retire), this module only holds the bits.
pub mod dst;
pub mod src;

pub use dst::{adj16, adj32, DestAccessCfg, Dst, DST32_ROWS, DST_COLS, DST_ROWS};
pub use src::{SrcData, SRC_BANKS, SRC_COLS, SRC_DATUM_MASK, SRC_ROWS};

/// Everything the data path computes on. Public fields: units borrow the pieces they need
/// disjointly (e.g. `&state.src_a` and `&mut state.dst` at once).
#[derive(Clone, Debug, Default)]
pub struct TensixState {
    /// `Dst` (Dst.md).
    pub dst: Dst,
    /// The data of `SrcA[2]` (SrcASrcB.md); ownership lives in `crate::src_banks`.
    pub src_a: SrcData,
    /// The data of `SrcB[2]`.
    pub src_b: SrcData,
}

impl TensixState {
    /// Power-on state: all register files zero.
    pub fn new() -> Self {
        TensixState::default()
    }
}
