//! ZEROACC and the "undefined" state of Dst rows it creates.
//! `tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ZEROACC.md`: undefined rows
//! read as zero to packers and to every Matrix Unit instruction except GMPOOL (and
//! MPOOL3S1/MPOOL3S2), which reads them as minus infinity (all bits set); any write makes a
//! row well defined again.
//!
//! Model: ZEROACC writes zeros into the `DstBits` rows (so every reader that treats undefined
//! as zero needs no special case) and marks them in [`DstUndefined`], which only GMPOOL
//! consults. The Matrix Unit clears the mark on its own writes; other writers of Dst
//! (unpacker to Dst, SFPSTORE, MOVA2D/MOVB2D, RISC-V stores) must call
//! [`super::MatrixUnit::dst_rows_defined`].
//!
//! Blackhole encoding (no Blackhole page): `clear_mode` bits 0-1 are `Mode`, bit 2 (Wormhole's
//! `UseDst32b` position) or `use_32_bit_mode` select 32-bit rows; other `clear_mode` bits are
//! undocumented and reported. `clear_zero_flags` clears the rows' zero flags instead of setting
//! them: Wormhole's `Revert` ("all assignments of Undefined are instead un-assigning
//! Undefined"), the rows keep their data. tt-llk issues it right after an unpack to Dst
//! (tt-llk `llk_math_eltwise_unary_datacopy.h`, "Clears zero flags in DEST for one face"), so
//! the unpacked tile must survive it. Rows an earlier ZEROACC cleared stay zero here (their
//! old data is not kept; Wormhole calls reading it back undefined behaviour). Wormhole's
//! `Revert` bit is not decoded by `bhemu_isa`, so it never reaches here.
use super::{DstRows, MatrixCtx, Retired};
use crate::state::{adj16, adj32, DestAccessCfg, DST_COLS, DST_ROWS};

/// One bit per `DstBits` row: set while the row is undefined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DstUndefined {
    bits: [u64; DST_ROWS / 64],
}

impl Default for DstUndefined {
    fn default() -> Self {
        DstUndefined {
            bits: [0; DST_ROWS / 64],
        }
    }
}

impl DstUndefined {
    pub fn is_undefined(&self, bits_row: usize) -> bool {
        self.bits[bits_row / 64] >> (bits_row % 64) & 1 != 0
    }

    pub fn set(&mut self, bits_row: usize, undefined: bool) {
        let m = 1u64 << (bits_row % 64);
        if undefined {
            self.bits[bits_row / 64] |= m;
        } else {
            self.bits[bits_row / 64] &= !m;
        }
    }

    /// Sets or clears the mark of every row of `rows`, whole words of 64 rows at a time.
    pub fn set_rows(&mut self, rows: std::ops::Range<usize>, undefined: bool) {
        let mut r = rows.start;
        while r < rows.end {
            if r.is_multiple_of(64) && rows.end - r >= 64 {
                self.bits[r / 64] = if undefined { u64::MAX } else { 0 };
                r += 64;
            } else {
                self.set(r, undefined);
                r += 1;
            }
        }
    }

    /// The `DstBits` rows behind row `row` of the 16-bit or 32-bit view.
    pub fn bits_rows(row: u32, wide: bool, cfg: DestAccessCfg) -> [usize; 2] {
        if wide {
            let r = adj32(row, cfg);
            [r, r + 8]
        } else {
            let r = adj16(row, cfg);
            [r, r]
        }
    }

    /// Whether any `DstBits` row behind `row` is undefined.
    pub fn view_row_undefined(&self, row: u32, wide: bool, cfg: DestAccessCfg) -> bool {
        Self::bits_rows(row, wide, cfg)
            .iter()
            .any(|&r| self.is_undefined(r))
    }

    /// Marks the rows of `rows` defined (after a write).
    pub fn define(&mut self, rows: DstRows, cfg: DestAccessCfg) {
        for row in rows.first..rows.first + rows.count {
            for r in Self::bits_rows(row, rows.wide, cfg) {
                self.set(r, false);
            }
        }
    }
}

/// ZEROACC's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zeroacc {
    /// 0 one row, 1 sixteen rows, 2 half of Dst, 3 all of Dst.
    pub mode: u8,
    pub use_dst32b: bool,
    pub addr_mode: u8,
    pub imm: u32,
    /// Blackhole's `clear_zero_flags`: un-mark the rows, keeping their data.
    pub revert: bool,
    /// Encoding bits no page documents (must be zero).
    pub undocumented: u32,
    /// Blackhole: the sixteen-row mode's block index is absolute within a Dst half, and the
    /// half is the one the thread's Dst offset points into (docs/matrix-unit.md, "ZEROACC").
    pub half_from_offset: bool,
}

const ONE_ROW: u8 = 0;
const SIXTEEN_ROWS: u8 = 1;
const HALF_OF_DST: u8 = 2;

/// The half- and whole-Dst modes: every `Dst16b` row of the half (and every `Dst32b` row of it)
/// names exactly the `DstBits` rows `bits` — `Adj16` permutes row bits 3–5 only and `Adj32`
/// maps the 32-bit half onto the same 512 rows — so the mode zeroes and marks (or, reverting,
/// un-marks) those rows wholesale rather than datum by datum.
/// `zeroacc_half_is_the_datum_by_datum_rule` proves it equal to the per-row rule.
fn clear_bits_rows(
    dst: &mut crate::state::Dst,
    undefined: &mut DstUndefined,
    bits: std::ops::Range<usize>,
    revert: bool,
) {
    if !revert {
        dst.bits_mut()[bits.clone()].fill([0; DST_COLS]);
    }
    undefined.set_rows(bits, !revert);
}

/// ZEROACC. `config_dst32` is `ALU_ACC_CTRL_Fp32_enabled || ALU_ACC_CTRL_INT8_math_enabled`,
/// which decides the row width in the one-row mode.
pub(super) fn zeroacc(
    ctx: &mut MatrixCtx<'_>,
    undefined: &mut DstUndefined,
    f: &Zeroacc,
    config_dst32: bool,
) -> Retired {
    let cfg = ctx.regs.dest_access;
    let revert = f.revert;
    let mut mark = |ctx: &mut MatrixCtx<'_>, row: u32, wide: bool| {
        if revert {
            for r in DstUndefined::bits_rows(row, wide, cfg) {
                undefined.set(r, false);
            }
            return;
        }
        for c in 0..DST_COLS {
            if wide {
                ctx.dst.write32(row, c, 0, cfg);
            } else {
                ctx.dst.write16(row, c, 0, cfg);
            }
        }
        for r in DstUndefined::bits_rows(row, wide, cfg) {
            undefined.set(r, true);
        }
    };
    let mut touched: Option<DstRows> = None;
    match f.mode {
        ONE_ROW => {
            let row = (f.imm + ctx.regs.dst_row_base) & 0x3ff;
            mark(ctx, row, config_dst32);
            touched = Some(DstRows {
                first: row,
                count: 1,
                wide: config_dst32,
            });
        }
        SIXTEEN_ROWS => {
            let mut imm = f.imm & 0xff;
            if f.half_from_offset && !ctx.regs.zeroacc_absolute_tile_mode {
                // The upper half of Dst: 512 rows of Dst16b, 256 of Dst32b (whose offset bits
                // 8 and 9 both select it).
                let base = ctx.regs.dst_row_base;
                if f.use_dst32b && base & 0x300 != 0 {
                    imm += 16;
                } else if !f.use_dst32b && base & 0x200 != 0 {
                    imm += 32;
                }
            }
            let limit = if f.use_dst32b { 32 } else { 64 };
            if imm < limit {
                for i in 0..16 {
                    mark(ctx, imm * 16 + i, f.use_dst32b);
                }
                touched = Some(DstRows {
                    first: imm * 16,
                    count: 16,
                    wide: f.use_dst32b,
                });
            }
        }
        _ => {
            let (r16, bits) = if f.mode == HALF_OF_DST {
                if f.imm & 1 != 0 {
                    (512..1024, 512..DST_ROWS)
                } else {
                    (0..512, 0..512)
                }
            } else {
                (0..1024, 0..DST_ROWS)
            };
            clear_bits_rows(ctx.dst, undefined, bits, revert);
            touched = Some(DstRows {
                first: r16.start,
                count: r16.len() as u32,
                wide: false,
            });
        }
    }
    Retired {
        addr_mode: (f.mode <= SIXTEEN_ROWS).then_some(f.addr_mode),
        dst_written: touched,
        ..Retired::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Dst, DST32_ROWS};

    /// ZEROACC's half mode datum by datum, as the page states it: every `Dst16b` row of the
    /// half and every `Dst32b` row of it written with zero (or, reverting, un-marked).
    fn per_datum(
        dst: &mut Dst,
        und: &mut DstUndefined,
        upper: bool,
        revert: bool,
        cfg: DestAccessCfg,
    ) {
        let (r16, r32) = if upper {
            (512..1024, 256..512)
        } else {
            (0..512, 0..256)
        };
        for (rows, wide) in [(r16, false), (r32, true)] {
            for row in rows {
                if !revert {
                    for c in 0..DST_COLS {
                        if wide {
                            dst.write32(row, c, 0, cfg);
                        } else {
                            dst.write16(row, c, 0, cfg);
                        }
                    }
                }
                for r in DstUndefined::bits_rows(row, wide, cfg) {
                    und.set(r, !revert);
                }
            }
        }
    }

    #[test]
    fn set_rows_marks_exactly_the_rows_of_the_range() {
        for (start, end) in [
            (0, 1024),
            (0, 512),
            (512, 1024),
            (3, 70),
            (64, 128),
            (100, 101),
            (7, 7),
            (60, 200),
        ] {
            for undefined in [false, true] {
                let mut got = DstUndefined::default();
                let mut want = DstUndefined::default();
                // Marks before: every third row, so that both setting and clearing show.
                for r in (0..DST_ROWS).step_by(3) {
                    got.set(r, true);
                    want.set(r, true);
                }
                got.set_rows(start..end, undefined);
                for r in start..end {
                    want.set(r, undefined);
                }
                assert_eq!(got, want, "rows {start}..{end}, undefined {undefined}");
            }
        }
    }

    #[test]
    fn zeroacc_half_is_the_datum_by_datum_rule() {
        assert_eq!(DST32_ROWS, 512);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for cfg in [(false, false), (true, false), (false, true), (true, true)].map(|(a, b)| {
            DestAccessCfg {
                remap_addrs: a,
                swizzle_32b: b,
            }
        }) {
            for upper in [false, true] {
                for revert in [false, true] {
                    // Random contents and marks before, the same on both sides.
                    let mut dst = Dst::new();
                    let mut und = DstUndefined::default();
                    for r in 0..DST_ROWS {
                        for c in 0..DST_COLS {
                            seed = seed
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
                            dst.bits_mut()[r][c] = (seed >> 48) as u16;
                        }
                        und.set(r, seed >> 13 & 1 == 1);
                    }
                    let (mut d1, mut u1) = (dst.clone(), und.clone());
                    per_datum(&mut d1, &mut u1, upper, revert, cfg);
                    let bits = if upper { 512..DST_ROWS } else { 0..512 };
                    clear_bits_rows(&mut dst, &mut und, bits, revert);
                    assert_eq!(dst, d1, "{cfg:?} upper {upper} revert {revert}: Dst");
                    assert_eq!(und, u1, "{cfg:?} upper {upper} revert {revert}: marks");
                }
            }
        }
    }
}
