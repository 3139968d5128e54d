//! `Dst`, the Tensix destination register, in the documentation's own storage:
//! `uint16_t DstBits[1024][16]`, viewed as `Dst16b` (1024 rows of 16-bit data) or `Dst32b`
//! (512 distinct rows of 32-bit data) through the row adjustments `Adj16` / `Adj32`.
//!
//! Source: tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/Dst.md. The bit
//! layouts of the data types inside a datum (BF16 as sign | mantissa | exponent, FP32 split
//! across two `DstBits` rows) are handled by `crate::formats`; this module only stores bits.
//!
//! Row indices are the hardware's 10-bit `Row` (instruction fields, address counters and
//! offsets are summed in 10-bit arithmetic there); every helper takes `row: u32` and keeps its
//! low 10 bits, which *is* the hardware's wrap-around, not a masking of bad input. Column
//! indices must be below 16 (callers iterate `0..DST_COLS`); a larger one is a bug in the
//! emulator and panics on the slice index.

/// `DstBits` rows.
pub const DST_ROWS: usize = 1024;
/// Columns in every view of `Dst`.
pub const DST_COLS: usize = 16;
/// Distinct `Dst32b` rows.
pub const DST32_ROWS: usize = 512;

/// The two configuration bits that change how `Dst16b` / `Dst32b` rows map onto `DstBits`:
/// `Config.DEST_ACCESS_CFG_remap_addrs` and `Config.DEST_ACCESS_CFG_swizzle_32b`.
/// Units read them from the configuration state of the issuing thread when they access `Dst`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DestAccessCfg {
    /// `DEST_ACCESS_CFG_remap_addrs`: permutes row bits 3..5 in `Adj16`.
    pub remap_addrs: bool,
    /// `DEST_ACCESS_CFG_swizzle_32b`: permutes row bits 2..4 in `Adj32`.
    pub swizzle_32b: bool,
}

/// `Adj16(Row)` of Dst.md: the `DstBits` row that `Dst16b[Row]` names.
pub fn adj16(row: u32, cfg: DestAccessCfg) -> usize {
    let mut r = row & 0x3ff;
    if cfg.remap_addrs {
        r = (r & 0x3c7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2);
    }
    r as usize
}

/// `Adj32(Row)` of Dst.md: the `DstBits` row holding the high half of `Dst32b[Row]`; the low
/// half lives 8 rows further on. Only 512 distinct values come out.
pub fn adj32(row: u32, cfg: DestAccessCfg) -> usize {
    let mut r = adj16(row, cfg) as u32;
    if cfg.swizzle_32b {
        r = (r & 0x3f3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1);
    }
    (((r & 0x1f8) << 1) | (r & 0x207)) as usize
}

/// The `Dst` register file: `DstBits[1024][16]`.
#[derive(Clone, PartialEq, Eq)]
pub struct Dst {
    bits: Box<[[u16; DST_COLS]; DST_ROWS]>,
}

impl Default for Dst {
    fn default() -> Self {
        Dst::new()
    }
}

impl std::fmt::Debug for Dst {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nonzero = self
            .bits
            .iter()
            .filter(|r| r.iter().any(|&v| v != 0))
            .count();
        write!(f, "Dst {{ {nonzero} non-zero rows of {DST_ROWS} }}")
    }
}

impl Dst {
    /// All zeros (the power-on contents are not documented; zero is what we model).
    pub fn new() -> Self {
        Dst {
            bits: Box::new([[0; DST_COLS]; DST_ROWS]),
        }
    }

    /// The raw storage, `DstBits[1024][16]`.
    pub fn bits(&self) -> &[[u16; DST_COLS]; DST_ROWS] {
        &self.bits
    }

    /// The raw storage, writable (e.g. for ZEROACC or a test preload).
    pub fn bits_mut(&mut self) -> &mut [[u16; DST_COLS]; DST_ROWS] {
        &mut self.bits
    }

    /// `Dst16b[row][col]` = `DstBits[Adj16(row)][col]`.
    pub fn read16(&self, row: u32, col: usize, cfg: DestAccessCfg) -> u16 {
        self.bits[adj16(row, cfg)][col]
    }

    /// `Dst16b[row][0..16]`: [`Dst::read16`] of every column of the row.
    #[inline]
    pub fn read16_row(&self, row: u32, cfg: DestAccessCfg) -> [u16; DST_COLS] {
        self.bits[adj16(row, cfg)]
    }

    /// `Dst32b[row][0..16]`: [`Dst::read32`] of every column of the row.
    #[inline]
    pub fn read32_row(&self, row: u32, cfg: DestAccessCfg) -> [u32; DST_COLS] {
        let r = adj32(row, cfg);
        let (hi, lo) = (&self.bits[r], &self.bits[r + 8]);
        std::array::from_fn(|c| ((hi[c] as u32) << 16) | lo[c] as u32)
    }

    /// `Dst16b[row][col] = value`.
    pub fn write16(&mut self, row: u32, col: usize, value: u16, cfg: DestAccessCfg) {
        self.bits[adj16(row, cfg)][col] = value;
    }

    /// `Dst32b[row][col]` = `(DstBits[Adj32(row)][col] << 16) | DstBits[Adj32(row) + 8][col]`.
    pub fn read32(&self, row: u32, col: usize, cfg: DestAccessCfg) -> u32 {
        let r = adj32(row, cfg);
        ((self.bits[r][col] as u32) << 16) | self.bits[r + 8][col] as u32
    }

    /// `Dst32b[row][col] = value`: high half to `DstBits[Adj32(row)]`, low half 8 rows on.
    pub fn write32(&mut self, row: u32, col: usize, value: u32, cfg: DestAccessCfg) {
        let r = adj32(row, cfg);
        self.bits[r][col] = (value >> 16) as u16;
        self.bits[r + 8][col] = value as u16;
    }

    /// Sets every datum to zero (`ZEROACC` over the whole register).
    pub fn clear(&mut self) {
        for row in self.bits.iter_mut() {
            *row = [0; DST_COLS];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: DestAccessCfg = DestAccessCfg {
        remap_addrs: false,
        swizzle_32b: false,
    };

    // Independent restatement of Adj32 with remap/swizzle off: row bits 0..2 stay, bits 3..8
    // move up by one, bit 9 stays (so bit 3 of the result is always clear).
    fn adj32_plain(r: u32) -> usize {
        let lo = r & 7;
        let mid = (r >> 3) & 0x3f;
        let top = (r >> 9) & 1;
        (lo | (mid << 4) | (top << 9)) as usize
    }

    #[test]
    fn adj16_is_identity_without_remap() {
        for r in 0..1024 {
            assert_eq!(adj16(r, PLAIN), r as usize);
        }
    }

    #[test]
    fn adj16_remap_swaps_row_bits_3_to_5() {
        let cfg = DestAccessCfg {
            remap_addrs: true,
            swizzle_32b: false,
        };
        // Row bit 3 -> bit 5, bit 4 -> bit 3, bit 5 -> bit 4.
        assert_eq!(adj16(0x008, cfg), 0x020);
        assert_eq!(adj16(0x010, cfg), 0x008);
        assert_eq!(adj16(0x020, cfg), 0x010);
        assert_eq!(adj16(0x3c7, cfg), 0x3c7);
        let mut seen = [false; 1024];
        for r in 0..1024 {
            seen[adj16(r, cfg)] = true;
        }
        assert!(seen.iter().all(|&s| s), "Adj16 with remap is a permutation");
    }

    #[test]
    fn adj32_yields_512_distinct_rows_with_bit_3_clear() {
        let mut seen = std::collections::BTreeSet::new();
        for r in 0..1024 {
            let a = adj32(r, PLAIN);
            assert_eq!(a, adj32_plain(r));
            assert_eq!(a & 8, 0);
            seen.insert(a);
        }
        assert_eq!(seen.len(), DST32_ROWS);
    }

    #[test]
    fn adj32_swizzle_permutes_row_bits_2_to_4() {
        let cfg = DestAccessCfg {
            remap_addrs: false,
            swizzle_32b: true,
        };
        // Swizzle: bit 2 -> bit 3, bits 3..4 -> bits 2..3 (xor-combined), others stay; then
        // the Dst32b packing moves bits 3..8 up one. Row 4: swizzled 0x008 -> packed 0x010.
        assert_eq!(adj32(0x004, cfg), 0x010);
        // Row 8: swizzled 0x004 -> packed 0x004.
        assert_eq!(adj32(0x008, cfg), 0x004);
        // Row 0x10: swizzled 0x018 -> packed 0x030.
        assert_eq!(adj32(0x010, cfg), 0x030);
    }

    #[test]
    fn dst32_splits_across_rows_eight_apart() {
        let mut d = Dst::new();
        d.write32(1, 3, 0xdead_beef, PLAIN);
        assert_eq!(d.bits()[1][3], 0xdead);
        assert_eq!(d.bits()[9][3], 0xbeef);
        assert_eq!(d.read32(1, 3, PLAIN), 0xdead_beef);
        // Dst32b row 8 lands on DstBits rows 16 and 24.
        d.write32(8, 0, 0x1234_5678, PLAIN);
        assert_eq!(d.bits()[16][0], 0x1234);
        assert_eq!(d.bits()[24][0], 0x5678);
        // Dst16b row 1 is the high half of Dst32b row 1.
        assert_eq!(d.read16(1, 3, PLAIN), 0xdead);
    }

    #[test]
    fn dst_row_index_wraps_at_10_bits() {
        let mut d = Dst::new();
        d.write16(1024 + 5, 2, 0x4242, PLAIN);
        assert_eq!(d.bits()[5][2], 0x4242);
    }

    #[test]
    fn dst16_round_trips_every_row() {
        let mut d = Dst::new();
        for r in 0..1024u32 {
            for c in 0..DST_COLS {
                d.write16(r, c, (r as u16) ^ ((c as u16) << 10), PLAIN);
            }
        }
        for r in 0..1024u32 {
            for c in 0..DST_COLS {
                assert_eq!(d.read16(r, c, PLAIN), (r as u16) ^ ((c as u16) << 10));
            }
        }
        d.clear();
        assert!(d.bits().iter().all(|r| r.iter().all(|&v| v == 0)));
    }

    /// A row read gives what the per-column reads give, under every access configuration.
    #[test]
    fn row_reads_give_what_datum_reads_give() {
        let mut d = Dst::new();
        let mut x = 0x9e37_79b9u32;
        for row in 0..DST_ROWS as u32 {
            for col in 0..DST_COLS {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                d.write16(row, col, x as u16, PLAIN);
            }
        }
        for (remap_addrs, swizzle_32b) in
            [(false, false), (true, false), (false, true), (true, true)]
        {
            let cfg = DestAccessCfg {
                remap_addrs,
                swizzle_32b,
            };
            for row in [
                0u32, 1, 7, 8, 9, 63, 64, 100, 511, 512, 1000, 1023, 1024, 5000,
            ] {
                let r16 = d.read16_row(row, cfg);
                let r32 = d.read32_row(row, cfg);
                for col in 0..DST_COLS {
                    assert_eq!(
                        r16[col],
                        d.read16(row, col, cfg),
                        "{cfg:?} row {row} col {col}"
                    );
                    assert_eq!(
                        r32[col],
                        d.read32(row, col, cfg),
                        "{cfg:?} row {row} col {col}"
                    );
                }
            }
        }
    }
}
