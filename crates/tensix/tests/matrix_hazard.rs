//! The Dst read-after-write checker: "After issuing an instruction which writes to `Dst`, then
//! for the next four cycles, the aligned 8x16 block of `Dst` containing that write cannot be
//! read" (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/Dst.md).
mod matrix_common;

use bhemu_isa::tensix::{blackhole::Insn, Arch};
use bhemu_tensix::matrix::hazard::{DstAccess, DstHazards, WRITE_SHADOW_CYCLES};
use bhemu_tensix::matrix::{DstRows, MatrixCtx};
use bhemu_tensix::state::DestAccessCfg;
use matrix_common::*;

const PLAIN: DestAccessCfg = DestAccessCfg {
    remap_addrs: false,
    swizzle_32b: false,
};

fn at(word: u32, cycle: u64) -> DstAccess {
    DstAccess {
        word,
        thread: 1,
        cycle,
    }
}

fn rows(first: u32, count: u32) -> DstRows {
    DstRows {
        first,
        count,
        wide: false,
    }
}

#[test]
fn checker_is_off_by_default() {
    let mut h = DstHazards::default();
    assert!(!h.enabled());
    h.note_write(rows(0, 8), PLAIN, at(1, 10));
    assert_eq!(h.check_read(rows(0, 8), PLAIN, at(2, 11)), None);
    assert!(h.reports().is_empty());
}

#[test]
fn a_written_block_is_unreadable_for_four_cycles() {
    let mut h = DstHazards::default();
    h.set_enabled(true);
    h.note_write(rows(16, 8), PLAIN, at(0xaaaa, 10));
    for cycle in 11..=10 + WRITE_SHADOW_CYCLES {
        let hz = h.check_read(rows(16, 8), PLAIN, at(0xbbbb, cycle));
        let hz = hz.unwrap_or_else(|| panic!("read at {cycle} not reported"));
        assert_eq!(
            (
                hz.block_row,
                hz.writer.word,
                hz.reader.word,
                hz.reader.cycle
            ),
            (16, 0xaaaa, 0xbbbb, cycle)
        );
    }
    assert_eq!(h.check_read(rows(16, 8), PLAIN, at(0xbbbb, 15)), None);
    assert_eq!(h.reports().len(), 4);
    assert_eq!(h.ready_cycle(rows(16, 8), PLAIN), 15);
}

#[test]
fn other_blocks_are_readable_at_once() {
    let mut h = DstHazards::default();
    h.set_enabled(true);
    h.note_write(rows(16, 8), PLAIN, at(1, 10));
    assert_eq!(h.check_read(rows(24, 8), PLAIN, at(2, 11)), None);
    assert_eq!(h.check_read(rows(8, 8), PLAIN, at(2, 11)), None);
    // A run spanning two blocks is caught by either.
    assert!(h.check_read(rows(12, 8), PLAIN, at(2, 11)).is_some());
}

#[test]
fn hazard_report_names_both_instructions_and_cycles() {
    let mut h = DstHazards::default();
    h.set_enabled(true);
    h.note_write(rows(0, 8), PLAIN, at(0x2680_0000, 7));
    let hz = h
        .check_read(rows(0, 8), PLAIN, at(0x7100_0000, 9))
        .unwrap_or_else(|| panic!("no report"));
    let text = hz.to_string();
    for part in [
        "0x26800000",
        "cycle 7",
        "0x71000000",
        "cycle 9",
        "rows 0..=7",
    ] {
        assert!(text.contains(part), "{text}");
    }
}

#[test]
fn matrix_unit_records_its_writes_for_the_checker() {
    let mut m = Machine::new();
    m.unit.hazards.set_enabled(true);
    let w = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0x28,
    }
    .encode();
    let mut ctx = MatrixCtx {
        src_a: &m.src_a,
        src_b: &m.src_b,
        dst: &mut m.dst,
        regs: regs(configs()[1].2, 0, 0, 0, 0),
        thread: 1,
        cycle: 50,
    };
    m.unit
        .execute(Arch::Blackhole, w, &mut ctx)
        .unwrap_or_else(|e| panic!("{e:?}"));
    // configs()[1] has FP32 Dst: the write is of Dst32b rows 0x28..0x2f.
    let written = DstRows {
        first: 0x28,
        count: 8,
        wide: true,
    };
    assert_eq!(m.unit.hazards.ready_cycle(written, PLAIN), 55);
    // The unit's own accumulating reads are stalled by hardware and never reported.
    let mut ctx = MatrixCtx {
        src_a: &m.src_a,
        src_b: &m.src_b,
        dst: &mut m.dst,
        regs: regs(configs()[1].2, 0, 0, 0, 0),
        thread: 1,
        cycle: 51,
    };
    m.unit
        .execute(Arch::Blackhole, w, &mut ctx)
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(m.unit.hazards.reports().is_empty());
    // An SFPU read of the block one cycle later is.
    let hz = m
        .unit
        .hazards
        .check_read(written, PLAIN, at(0x7000_0000, 52));
    assert_eq!(hz.map(|h| (h.writer.cycle, h.reader.cycle)), Some((51, 52)));
}

#[test]
fn a_dst32b_write_shadows_both_dstbits_blocks_it_is_stored_in() {
    // Dst32b[r] is DstBits[Adj32(r)] (high half) and DstBits[Adj32(r) + 8] (low half); with
    // remap and swizzle off, Adj32 keeps row bits 0..2 and doubles the rest (Dst.md).
    let mut h = DstHazards::default();
    h.set_enabled(true);
    let wide = DstRows {
        first: 8,
        count: 8,
        wide: true,
    };
    h.note_write(wide, PLAIN, at(1, 10));
    // Dst32b rows 8..15 live in DstBits rows 16..23 and 24..31.
    assert!(h.check_read(rows(16, 4), PLAIN, at(2, 11)).is_some());
    assert!(h.check_read(rows(28, 4), PLAIN, at(2, 11)).is_some());
    assert_eq!(h.check_read(rows(8, 8), PLAIN, at(2, 11)), None);
    assert_eq!(h.check_read(rows(32, 8), PLAIN, at(2, 11)), None);
}

#[test]
fn remapped_rows_are_checked_where_they_are_stored() {
    // DEST_ACCESS_CFG_remap_addrs: Adj16 moves row bit 3 to bit 5 (Dst.md), so Dst16b rows
    // 8..15 are DstBits rows 32..39, and a write there shadows plain rows 32..39.
    let remap = DestAccessCfg {
        remap_addrs: true,
        swizzle_32b: false,
    };
    let mut h = DstHazards::default();
    h.set_enabled(true);
    h.note_write(rows(8, 8), remap, at(1, 10));
    assert!(h.check_read(rows(32, 4), PLAIN, at(2, 11)).is_some());
    assert_eq!(h.check_read(rows(8, 4), PLAIN, at(2, 11)), None);
}

#[test]
fn reports_past_the_limit_are_counted_not_kept() {
    use bhemu_tensix::matrix::hazard::MAX_KEPT;
    let mut h = DstHazards::default();
    h.set_enabled(true);
    for i in 0..MAX_KEPT as u64 + 5 {
        h.note_write(rows(0, 8), PLAIN, at(1, 10 * i));
        assert!(h.check_read(rows(0, 8), PLAIN, at(2, 10 * i + 1)).is_some());
    }
    assert_eq!(h.reports().len(), MAX_KEPT);
    assert_eq!(h.take_not_kept(), 5);
    assert_eq!(h.take_not_kept(), 0);
    assert_eq!(h.take_reports().len(), MAX_KEPT);
    assert!(h.reports().is_empty());
}
