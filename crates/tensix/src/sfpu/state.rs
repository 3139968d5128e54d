//! The Vector Unit's architectural state: `LReg[17][32]`, the lane predication masks and
//! flag stack, `LaneConfig`, `LoadMacroConfig` and the per-lane PRNG.
//!
//! Sources: tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/LReg.md (register
//! file and its constant rows), VectorUnit.md ("Lane Predication Masks", "PRNG"),
//! SFPCONFIG.md (`LaneConfig` bits), SFPLOADMACRO.md (`LoadMacroConfig`).

/// Lanes per vector.
pub const LANES: usize = 32;
/// `LReg[0]` .. `LReg[16]`.
pub const LREGS: usize = 17;
/// Depth of the per-lane flag stack (SFPPUSHC.md: "maximum capacity of eight elements").
pub const FLAG_STACK_DEPTH: usize = 8;

/// `LReg[8]`: 0.8373 in every lane (read-only).
pub const LREG8_VALUE: u32 = 0x3f56_594b;
/// `LReg[10]`: 1.0 in every lane (read-only).
pub const LREG10_VALUE: u32 = 0x3f80_0000;

/// `LaneConfig` bits (SFPCONFIG.md, table "LaneConfig"); 18 bits are storage.
pub mod lane_config {
    pub const ENABLE_FP16A_INF: u32 = 1 << 0;
    pub const DISABLE_BACKDOOR_LOAD: u32 = 1 << 1;
    pub const ENABLE_DEST_INDEX: u32 = 1 << 2;
    pub const CAPTURE_DEFAULT_DEST_INDEX: u32 = 1 << 3;
    pub const BLOCK_DEST_WR_FROM_SFPU: u32 = 1 << 4;
    pub const BLOCK_SFPU_RD_FROM_DEST: u32 = 1 << 5;
    pub const DEST_RD_COL_EXCHANGE: u32 = 1 << 6;
    pub const DEST_WR_COL_EXCHANGE: u32 = 1 << 7;
    pub const EXCHANGE_SRCB_SRCC: u32 = 1 << 8;
    /// Bits 12..15: one bit per row of the 4x8 lane grid; a set bit disables that row.
    pub const ROW_MASK_SHIFT: u32 = 12;
    /// `uint18_t`.
    pub const WIDTH_MASK: u32 = 0x3_ffff;
}

/// One entry of a lane's flag stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlagEntry {
    pub lane_flags: bool,
    pub use_lane_flags: bool,
}

/// `LoadMacroConfig[Lane]` (SFPLOADMACRO.md, "Functional model").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadMacroConfig {
    /// `InstructionTemplate[4]`: whole instruction words.
    pub template: [u32; 4],
    /// `Sequence[4]`: per macro, 8 bits per sub-unit (simple, MAD, round, store).
    pub sequence: [u32; 4],
    /// `Misc` (12 bits): `StoreMod0` 0..3, `UsesLoadMod0ForStore` 4..7, `UnitDelayKind` 8..11.
    pub misc: u32,
}

/// The register file and lane state, all public for inspection by tests and debuggers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfpuState {
    /// `LReg[17][32]`, constant rows included so that a read is one index.
    pub lreg: [[u32; LANES]; LREGS],
    /// `LaneFlags`, one bit per lane.
    pub lane_flags: u32,
    /// `UseLaneFlagsForLaneEnable`, one bit per lane.
    pub use_lane_flags: u32,
    /// `FlagStack[Lane]` and its size.
    pub flag_stack: [[FlagEntry; FLAG_STACK_DEPTH]; LANES],
    pub flag_depth: [u8; LANES],
    /// `LaneConfig[Lane]` (18 bits).
    pub lane_config: [u32; LANES],
    pub load_macro: [LoadMacroConfig; LANES],
    /// `AdvancePRNG`'s `State[Lane]`.
    pub prng: [u32; LANES],
}

impl Default for SfpuState {
    fn default() -> Self {
        SfpuState::new()
    }
}

impl SfpuState {
    /// Power-on state: everything zero except the read-only constant rows. (The power-on
    /// values of the programmable rows and of the PRNG are not documented; zero is modelled.)
    pub fn new() -> Self {
        let mut lreg = [[0u32; LANES]; LREGS];
        lreg[8] = [LREG8_VALUE; LANES];
        lreg[10] = [LREG10_VALUE; LANES];
        for (lane, v) in lreg[15].iter_mut().enumerate() {
            *v = lane as u32 * 2;
        }
        SfpuState {
            lreg,
            lane_flags: 0,
            use_lane_flags: 0,
            flag_stack: [[FlagEntry::default(); FLAG_STACK_DEPTH]; LANES],
            flag_depth: [0; LANES],
            lane_config: [0; LANES],
            load_macro: [LoadMacroConfig::default(); LANES],
            prng: [0; LANES],
        }
    }

    /// `IsLaneEnabled` for all lanes at once (VectorUnit.md): a lane is disabled by its row's
    /// `ROW_MASK` bit, else by `LaneFlags` when `UseLaneFlagsForLaneEnable`.
    #[inline]
    pub fn enabled_mask(&self) -> u32 {
        // ROW_MASK of lane column c (LaneConfig[c], c < 8) has one bit per row; spread its
        // four bits to lanes c, c + 8, c + 16, c + 24.
        let mut row_masked = 0u32;
        for (c, cfg) in self.lane_config[..8].iter().enumerate() {
            let rows = (cfg >> lane_config::ROW_MASK_SHIFT) & 0xf;
            let spread = (rows & 1) | ((rows & 2) << 7) | ((rows & 4) << 14) | ((rows & 8) << 21);
            row_masked |= spread << c;
        }
        let flag_gated = self.use_lane_flags & !self.lane_flags;
        !(row_masked | flag_gated)
    }

    /// `AdvancePRNG(Lane)` (VectorUnit.md, "PRNG"): returns the current state, then shifts
    /// right by one with the complement of the parity of taps 0x80200003 entering bit 31.
    #[inline]
    pub fn advance_prng(&mut self, lane: usize) -> u32 {
        let result = self.prng[lane];
        let taps = (result & 0x8020_0003).count_ones();
        self.prng[lane] = ((!taps) << 31) | (result >> 1);
        result
    }

    /// Lanes whose `LaneConfig` has all of `bits` set.
    #[inline]
    pub fn lanes_with(&self, bits: u32) -> u32 {
        let mut m = 0;
        for (lane, cfg) in self.lane_config.iter().enumerate() {
            if cfg & bits == bits {
                m |= 1 << lane;
            }
        }
        m
    }

    #[inline]
    pub fn flag(&self, lane: usize) -> bool {
        (self.lane_flags >> lane) & 1 != 0
    }

    #[inline]
    pub fn set_flag(&mut self, lane: usize, v: bool) {
        self.lane_flags = (self.lane_flags & !(1 << lane)) | ((v as u32) << lane);
    }

    #[inline]
    pub fn use_flag(&self, lane: usize) -> bool {
        (self.use_lane_flags >> lane) & 1 != 0
    }

    #[inline]
    pub fn set_use_flag(&mut self, lane: usize, v: bool) {
        self.use_lane_flags = (self.use_lane_flags & !(1 << lane)) | ((v as u32) << lane);
    }

    /// Top of a lane's flag stack, if any.
    #[inline]
    pub fn stack_top(&self, lane: usize) -> Option<FlagEntry> {
        let d = self.flag_depth[lane] as usize;
        (d > 0).then(|| self.flag_stack[lane][d - 1])
    }

    #[inline]
    pub fn stack_top_mut(&mut self, lane: usize) -> Option<&mut FlagEntry> {
        let d = self.flag_depth[lane] as usize;
        if d > 0 {
            Some(&mut self.flag_stack[lane][d - 1])
        } else {
            None
        }
    }
}

/// Whether an instruction result may be written to `LReg[vd]`: the general registers and the
/// SFPLOADMACRO-only `LReg[16]`.
#[inline(always)]
pub fn writable(vd: u8) -> bool {
    vd < 8 || vd == 16
}

/// Iterate the set bits of a lane mask.
#[inline(always)]
pub fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
    (0..LANES).filter(move |l| (mask >> l) & 1 != 0)
}
