//! ZEROACC and undefined Dst rows (tt-isa-documentation:
//! WormholeB0/TensixTile/TensixCoprocessor/ZEROACC.md): undefined rows read as zero to MVMUL,
//! ELW* and packers, as minus infinity to GMPOOL, and become defined when written.
mod matrix_common;

use bhemu_isa::tensix::blackhole::Insn;
use bhemu_tensix::matrix::{DstRows, MathFormat};
use bhemu_tensix::ErrorKind;
use matrix_common::*;

fn zeroacc(clear_mode: u8, use_32: bool, where_: u16) -> u32 {
    Insn::Zeroacc {
        clear_mode,
        use_32_bit_mode: use_32 as u8,
        clear_zero_flags: 0,
        addr_mode: 3,
        where_,
    }
    .encode()
}

fn filled() -> Machine {
    let mut m = Machine::new();
    for row in 0..1024 {
        m.reference.0[row] = [0x5555; 16];
    }
    m.sync_dst_from_reference();
    m
}

fn bf16(fp32: bool) -> MathFormat {
    configs()[fp32 as usize].2
}

#[test]
fn one_row_mode_clears_a_dst32_row_when_fp32_is_enabled() {
    let mut m = filled();
    let r = m
        .run(zeroacc(0, false, 5), regs(bf16(true), 0, 0, 0x10, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    // Dst32b[21] = DstBits[Adj32(21)] and 8 rows on: Adj32(21) = ((21 & 0x1f8) << 1) | (21 & 7) = 37.
    for row in [37, 45] {
        m.reference.0[row] = [0; 16];
    }
    m.assert_dst_matches("ZEROACC one 32-bit row");
    assert_eq!(r.addr_mode, Some(3));
    assert_eq!(
        r.dst_written,
        Some(DstRows {
            first: 21,
            count: 1,
            wide: true
        })
    );
}

#[test]
fn one_row_mode_clears_a_dst16_row_otherwise() {
    let mut m = filled();
    m.run(zeroacc(0, true, 5), regs(bf16(false), 0, 0, 0x10, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.reference.0[21] = [0; 16];
    m.assert_dst_matches("ZEROACC one 16-bit row");
}

#[test]
fn sixteen_rows_mode_uses_the_low_8_bits_of_imm10_and_ignores_rows_past_the_end() {
    let mut m = filled();
    m.run(zeroacc(1, false, 0x103), regs(bf16(false), 0, 0, 0x10, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    for row in 48..64 {
        m.reference.0[row] = [0; 16];
    }
    m.assert_dst_matches("ZEROACC 16 rows, 16-bit, block 3");
    // Block 64 of 16-bit rows does not exist: nothing happens.
    m.run(zeroacc(1, false, 64), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.assert_dst_matches("ZEROACC 16 rows, block 64");
    // 32-bit block 1: Dst32b rows 16..31 = DstBits 32..47 and 40..55 ... i.e. 32..63.
    let mut m = filled();
    m.run(zeroacc(1, true, 1), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    for row in 32..64 {
        m.reference.0[row] = [0; 16];
    }
    m.assert_dst_matches("ZEROACC 16 rows, 32-bit, block 1");
}

#[test]
fn half_and_all_modes_clear_512_or_1024_rows_without_addr_mode() {
    let mut m = filled();
    let r = m
        .run(zeroacc(2, false, 1), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    for row in 512..1024 {
        m.reference.0[row] = [0; 16];
    }
    m.assert_dst_matches("ZEROACC high half");
    assert_eq!(r.addr_mode, None);
    let mut m = filled();
    m.run(zeroacc(3, false, 0), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    for row in 0..1024 {
        m.reference.0[row] = [0; 16];
    }
    m.assert_dst_matches("ZEROACC all");
}

fn gmpool_word() -> u32 {
    Insn::Gmpool {
        clear_dvalid: 0,
        instr_mod19: 1,
        pool_addr_mode: 0,
        max_pool_index_en: 0,
        dst: 0,
    }
    .encode()
}

/// SrcA column values all -3.0 (BF16), scale 1.0.
fn negative_srca(m: &mut Machine) {
    for i in 0..16 {
        for j in 0..16 {
            m.src_a.write(0, i, j, src_fp(1, 0x200, 128));
        }
        m.src_b.write(0, 0, i, src_fp(0, 0, 127));
    }
}

#[test]
fn gmpool_reads_undefined_rows_as_minus_infinity() {
    let mut m = filled();
    negative_srca(&mut m);
    m.run(zeroacc(3, false, 0), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.run(gmpool_word(), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    // max(-inf, -3.0) = -3.0, not max(0, -3.0) = 0.
    assert_eq!(m.dst.bits()[0][0], 0x8000 | (0x40 << 8) | 128);
}

#[test]
fn a_write_makes_an_undefined_row_defined() {
    let mut m = filled();
    negative_srca(&mut m);
    m.run(zeroacc(3, false, 0), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    // ELWSUB with AddDst writes row 0..7: SrcA - SrcB = -3 - 1 = -4 (BF16 row 0 column 0 ...).
    let elw = Insn::Elwsub {
        clear_dvalid: 0,
        dest_accum_en: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    m.run(elw, regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.run(gmpool_word(), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    // Column 1: Dst row 0 holds SrcA[0][1] - SrcB[0][1] = -3 - 1 = -4 < -3: the max is -3.
    assert_eq!(m.dst.bits()[0][1], 0x8000 | (0x40 << 8) | 128);
    // A row written by another unit is made defined through dst_rows_defined.
    let mut m = filled();
    negative_srca(&mut m);
    m.run(zeroacc(3, false, 0), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.dst.bits_mut()[0] = [0x007f; 16]; // +1.0 written by, say, an unpacker
    m.unit.dst_rows_defined(
        DstRows {
            first: 0,
            count: 1,
            wide: false,
        },
        Default::default(),
    );
    m.run(gmpool_word(), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.dst.bits()[0][0], 0x007f);
}

#[test]
fn mvmul_reads_undefined_rows_as_zero() {
    let mut m = filled();
    m.run(zeroacc(3, false, 0), regs(bf16(true), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.src_a.write(0, 0, 0, src_fp(0, 0, 127));
    m.src_b.write(0, 0, 0, src_fp(0, 0, 128));
    let w = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    m.run(w, regs(bf16(true), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        m.dst.read32(0, 0, Default::default()),
        0x0080_0000,
        "2.0 in Dst32b layout"
    );
}

#[test]
fn undocumented_zeroacc_bits_are_undefined() {
    let w = Insn::Zeroacc {
        clear_mode: 8,
        use_32_bit_mode: 0,
        clear_zero_flags: 0,
        addr_mode: 0,
        where_: 0,
    }
    .encode();
    match Machine::new().run(w, regs(bf16(false), 0, 0, 0, 0)) {
        Err(e) => assert_eq!((e.kind, e.word), (ErrorKind::Undefined, Some(w))),
        Ok(r) => panic!("accepted: {r:?}"),
    }
}

/// Blackhole's `clear_zero_flags` clears the zero flags rather than setting them (Wormhole's
/// `Revert`: "all assignments of Undefined are instead un-assigning Undefined"): the rows keep
/// their data and become defined. tt-llk issues it after unpacking a tile into Dst
/// (`llk_math_eltwise_unary_datacopy.h`, "Clears zero flags in DEST for one face").
#[test]
fn clear_zero_flags_keeps_the_rows_data_and_makes_them_defined() {
    let w = Insn::Zeroacc {
        clear_mode: 1,
        use_32_bit_mode: 0,
        clear_zero_flags: 1,
        addr_mode: 3,
        where_: 0,
    }
    .encode();
    let mut m = filled();
    let r = m
        .run(w, regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.assert_dst_matches("ZEROACC 16 rows with clear_zero_flags leaves the data");
    assert_eq!(r.addr_mode, Some(3));
    // Undefined rows (GMPOOL reads them as minus infinity) become defined: row 0 holds the
    // zero the first ZEROACC left, so max(0, -3.0) = 0.
    let mut m = filled();
    negative_srca(&mut m);
    m.run(zeroacc(3, false, 0), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.run(w, regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.run(gmpool_word(), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.dst.bits()[0][0], 0);
}

#[test]
fn where_0xff_in_sixteen_row_mode_only_applies_the_address_mode() {
    let mut m = filled();
    let r = m
        .run(zeroacc(1, false, 0xff), regs(bf16(false), 0, 0, 0, 0))
        .unwrap_or_else(|e| panic!("{e:?}"));
    m.assert_dst_matches("ZEROACC 16 rows, block 255");
    assert_eq!((r.addr_mode, r.dst_written), (Some(3), None));
}

/// docs/matrix-unit.md "ZEROACC's Dst half": Blackhole's sixteen-row block index is absolute
/// within the Dst half that the thread's Dst offset points into.
#[test]
fn sixteen_rows_mode_clears_in_the_half_of_the_dst_offset() {
    let mut m = filled();
    m.run(
        zeroacc(1, false, 3),
        regs(bf16(false), 0, 0, 0x200 + 0x40, 0),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    for row in 512 + 48..512 + 64 {
        m.reference.0[row] = [0; 16];
    }
    m.assert_dst_matches("ZEROACC 16 rows, block 3 of the upper half");
    // DEST_ACCESS_CFG_zeroacc_absolute_tile_mode: the index is absolute in all of Dst.
    let mut m = filled();
    let mut r = regs(bf16(false), 0, 0, 0x200, 0);
    r.zeroacc_absolute_tile_mode = true;
    m.run(zeroacc(1, false, 3), r)
        .unwrap_or_else(|e| panic!("{e:?}"));
    for row in 48..64 {
        m.reference.0[row] = [0; 16];
    }
    m.assert_dst_matches("ZEROACC 16 rows, absolute block 3");
}
