//! The data of `SrcA` and `SrcB`: each 2 banks × 64 rows × 16 columns of 19-bit data, stored
//! as `u32` with bits 19..31 always clear. Bank ownership (`AllowedClient`) and each client's
//! bank pointer are modelled in `crate::src_banks`, which the Wait Gate consults; this module
//! is only the storage.
//!
//! Source: tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/SrcASrcB.md (no
//! Blackhole page; the structure is the same). Datum layouts (TF32 = sign 18, mantissa 17..8,
//! exponent 7..0; BF16/FP16/integer overlaid on it) are converted by `crate::formats`.

/// Banks of each of SrcA / SrcB.
pub const SRC_BANKS: usize = 2;
/// Rows per bank.
pub const SRC_ROWS: usize = 64;
/// Columns per row.
pub const SRC_COLS: usize = 16;
/// Mask of the 19 bits a datum holds.
pub const SRC_DATUM_MASK: u32 = 0x7_ffff;

/// One of `SrcA` / `SrcB`: `uint19_t Rows[64][16]` for each of the two banks.
/// Row indices must be below 64 and columns below 16; callers compute rows in the hardware's
/// 6-bit arithmetic (see [`SrcData::row_index`]).
#[derive(Clone, PartialEq, Eq)]
pub struct SrcData {
    rows: Box<[[[u32; SRC_COLS]; SRC_ROWS]; SRC_BANKS]>,
    /// The data format each bank was last unpacked with (`THCON_SEC*_REG2_Out_data_format`),
    /// `None` until an unpacker writes it. Blackhole's Matrix Unit reads a bank at this
    /// format's precision unless `DISABLE_IMPLIED_SRC*_FMT_Base` is set (docs/matrix-unit.md O2).
    formats: [Option<u32>; SRC_BANKS],
}

impl Default for SrcData {
    fn default() -> Self {
        SrcData::new()
    }
}

impl std::fmt::Debug for SrcData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nz = |b: usize| {
            self.rows[b]
                .iter()
                .filter(|r| r.iter().any(|&v| v != 0))
                .count()
        };
        write!(
            f,
            "SrcData {{ non-zero rows: bank0 {}, bank1 {} }}",
            nz(0),
            nz(1)
        )
    }
}

impl SrcData {
    /// All zeros.
    pub fn new() -> Self {
        SrcData {
            rows: Box::new([[[0; SRC_COLS]; SRC_ROWS]; SRC_BANKS]),
            formats: [None; SRC_BANKS],
        }
    }

    /// A row number from a wider sum (address counter + instruction offset): the hardware
    /// keeps the low 6 bits.
    pub fn row_index(row: u32) -> usize {
        (row & 0x3f) as usize
    }

    /// `Src[bank][row][col]` (19 bits).
    pub fn read(&self, bank: usize, row: usize, col: usize) -> u32 {
        self.rows[bank][row][col]
    }

    /// `Src[bank][row][col] = value`; only the low 19 bits are storage, and a caller handing
    /// more is an emulator bug (checked in debug builds).
    pub fn write(&mut self, bank: usize, row: usize, col: usize, value: u32) {
        debug_assert!(
            value <= SRC_DATUM_MASK,
            "Src datum wider than 19 bits: {value:#x}"
        );
        self.rows[bank][row][col] = value & SRC_DATUM_MASK;
    }

    /// Writes `values` into `Src[bank][row]` from column `first_col` on (19 bits each): one
    /// bounds check for a run of datums an unpacker places in one row. Like [`SrcData::write`]'s
    /// indices, the run must lie inside the row (`first_col + values.len() <= 16`).
    pub fn write_row(&mut self, bank: usize, row: usize, first_col: usize, values: &[u32]) {
        let cells = &mut self.rows[bank][row][first_col..first_col + values.len()];
        for (cell, &v) in cells.iter_mut().zip(values) {
            debug_assert!(v <= SRC_DATUM_MASK, "Src datum wider than 19 bits: {v:#x}");
            *cell = v & SRC_DATUM_MASK;
        }
    }

    /// The format `bank` was last unpacked with (O2's implied format), if any.
    pub fn format(&self, bank: usize) -> Option<u32> {
        self.formats.get(bank).copied().flatten()
    }

    /// Records that an unpacker wrote `bank` with data format `code`.
    pub fn set_format(&mut self, bank: usize, code: u32) {
        if let Some(f) = self.formats.get_mut(bank) {
            *f = Some(code);
        }
    }

    /// One whole row of a bank.
    pub fn row(&self, bank: usize, row: usize) -> &[u32; SRC_COLS] {
        &self.rows[bank][row]
    }

    /// One whole row of a bank, writable.
    pub fn row_mut(&mut self, bank: usize, row: usize) -> &mut [u32; SRC_COLS] {
        &mut self.rows[bank][row]
    }

    /// Every datum not written (a value no 19-bit write produces) and no format: a canvas on
    /// which [`SrcData::take_written`] can tell what one instruction wrote.
    pub(crate) fn unwritten() -> Self {
        SrcData {
            rows: Box::new([[[u32::MAX; SRC_COLS]; SRC_ROWS]; SRC_BANKS]),
            formats: [None; SRC_BANKS],
        }
    }

    /// The datums written since this was [`SrcData::unwritten`], as (row, column, value)
    /// whatever their bank, in bank, row, column order; leaves it unwritten again, so that one
    /// canvas serves every instruction without a fill of its own. An unpack writes a few of
    /// the 128 rows: whole unwritten rows are passed over with one comparison.
    pub(crate) fn take_written(&mut self) -> Vec<(usize, usize, u32)> {
        const UNWRITTEN: [u32; SRC_COLS] = [u32::MAX; SRC_COLS];
        self.formats = [None; SRC_BANKS];
        let mut out = Vec::new();
        for bank in self.rows.iter_mut() {
            for (row, r) in bank.iter_mut().enumerate() {
                if *r == UNWRITTEN {
                    continue;
                }
                for (col, &v) in r.iter().enumerate() {
                    if v != u32::MAX {
                        out.push((row, col, v));
                    }
                }
                *r = UNWRITTEN;
            }
        }
        out
    }

    /// Sets every datum of one bank to `value` (ZEROSRC writes zero or a chosen value).
    pub fn fill_bank(&mut self, bank: usize, value: u32) {
        debug_assert!(value <= SRC_DATUM_MASK);
        for r in self.rows[bank].iter_mut() {
            *r = [value & SRC_DATUM_MASK; SRC_COLS];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn src_has_two_banks_of_64_rows_of_16_columns() {
        let mut s = SrcData::new();
        for b in 0..SRC_BANKS {
            for r in 0..SRC_ROWS {
                for c in 0..SRC_COLS {
                    s.write(b, r, c, ((b << 18) | (r << 4) | c) as u32);
                }
            }
        }
        assert_eq!(s.read(1, 63, 15), (1 << 18) | (63 << 4) | 15);
        assert_eq!(s.read(0, 5, 2), (5 << 4) | 2);
        assert_eq!(s.row(1, 0)[7], (1 << 18) | 7);
    }

    #[test]
    fn src_datum_is_19_bits() {
        let mut s = SrcData::new();
        s.write(0, 0, 0, SRC_DATUM_MASK);
        assert_eq!(s.read(0, 0, 0), 0x7ffff);
    }

    #[test]
    fn take_written_lists_exactly_the_datums_written_since_unwritten_in_bank_row_column_order() {
        let mut s = SrcData::unwritten();
        s.write(1, 2, 15, 0x1);
        s.write(0, 63, 0, 0x2);
        s.write(0, 7, 4, 0); // a zero written is a datum written
        s.write_row(1, 40, 14, &[0x3, 0x4]);
        s.set_format(1, 5);
        assert_eq!(
            s.take_written(),
            vec![
                (7, 4, 0),
                (63, 0, 0x2),
                (2, 15, 0x1),
                (40, 14, 0x3),
                (40, 15, 0x4)
            ]
        );
        // Taken, the canvas is unwritten again: the next instruction's writes alone show.
        assert!(s == SrcData::unwritten(), "the canvas is unwritten again");
        s.write(0, 1, 1, 0x9);
        assert_eq!(s.take_written(), vec![(1, 1, 0x9)]);
    }

    #[test]
    fn a_row_write_fills_the_columns_it_names_and_keeps_the_others() {
        let mut s = SrcData::default();
        s.write(1, 5, 2, 0x111);
        s.write(1, 5, 9, 0x222);
        s.write_row(1, 5, 3, &[0x7_ffff, 0xffff_ffff, 7]);
        let row: Vec<u32> = (0..SRC_COLS).map(|c| s.read(1, 5, c)).collect();
        let mut want = vec![0u32; SRC_COLS];
        want[2] = 0x111;
        want[3] = 0x7_ffff;
        want[4] = 0x7_ffff; // 19 bits kept of 0xffff_ffff
        want[5] = 7;
        want[9] = 0x222;
        assert_eq!(row, want);
        assert_eq!(s.read(0, 5, 3), 0, "the other bank is untouched");
    }

    #[test]
    fn src_row_index_wraps_at_64() {
        assert_eq!(SrcData::row_index(64 + 3), 3);
        assert_eq!(SrcData::row_index(63), 63);
    }

    #[test]
    fn src_fill_bank_touches_one_bank() {
        let mut s = SrcData::new();
        s.fill_bank(1, 0x100);
        assert_eq!(s.read(1, 17, 4), 0x100);
        assert_eq!(s.read(0, 17, 4), 0);
    }
}
