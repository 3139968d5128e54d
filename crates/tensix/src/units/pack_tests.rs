//! Unit tests of the packer's rules that need no coprocessor.
use super::*;

#[test]
fn packer_edge_mask_zeroes_columns_by_tile_row() {
    // Row 0 uses mask set 0 (only column 0), rows 1-15 set 1 (every column); two rows per
    // plane, so the third row of 16 datums is row 0 again.
    let edges = EdgeMasks {
        masks: [0x0001, 0xffff, 0, 0],
        mapping: 0x5555_5554,
        rows_per_plane: 2,
    };
    let mut pos = (0, 0);
    let kept: Vec<bool> = (0..48).map(|i| edges.keeps(&mut pos, i)).collect();
    for (i, k) in kept.iter().enumerate() {
        let want = match i / 16 {
            1 => true,
            _ => i % 16 == 0,
        };
        assert_eq!(*k, want, "datum {i}");
    }
    assert_eq!(pos, (0, 1));
    // The column is the datum's place in the instruction, not in the tile position.
    let mut pos = (3, 0);
    assert!(edges.keeps(&mut pos, 0));
    assert!(!edges.keeps(&mut pos, 1));
}

#[test]
fn packer_edge_mask_writes_zero_of_the_intermediate_width() {
    use crate::units::FlatL1;
    // INT16 read from 32-bit Dst: an INT16 intermediate (the stored datum's upper half), 16
    // bits a datum in L1. Edge mask SEC0 = 0x0001 for every row: column 0 of each row kept,
    // the other 15 written as 16-bit zeros, so 64 datums take 128 bytes.
    let mut l1 = FlatL1::blackhole();
    l1.bytes[0x1010..0x1010 + 160].fill(0xee);
    let (e, warnings) = pack_64_int16(&mut l1, 0x100, 0x0001, |row, col| {
        0xa000_0000 | (row << 20) | (col << 16) | 0x5555
    });
    assert_eq!(e, None, "a modelled PACR");
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut want = [0u8; 128];
    for row in 0..4 {
        let h = 0xa000u16 | (row << 4) as u16;
        want[row * 32..row * 32 + 2].copy_from_slice(&h.to_le_bytes());
    }
    assert_eq!(&l1.bytes[0x1010..0x1010 + 128], &want[..]);
    // Nothing past the tile (128 bytes end on a 16-byte boundary: no padding).
    assert_eq!(l1.bytes[0x1010 + 128], 0xee);
}

use crate::units::{run_unit, DatumByDatum};

/// One PACR (`Last`) of 64 INT16 datums — the upper halves of `dst(row, col)`, rows 0..3 of
/// a 32-bit Dst — to the data stream at `(dest + 1) * 16`, edge mask `mask` on every row;
/// returns its error, if any, and its warnings.
fn pack_64_int16(
    mem: &mut dyn crate::TensixMemory,
    dest: u32,
    mask: u32,
    dst: impl Fn(u32, u32) -> u32,
) -> (Option<String>, Vec<crate::TensixError>) {
    use crate::state::TensixState;
    use crate::Mode;
    let mut st = TensixState::new();
    let t = 2;
    for (fl, v) in [
        (f::ALU_FORMAT_SPEC_REG2_Dstacc, 9),
        (f::THCON_SEC0_REG1_In_data_format, 9),
        (f::THCON_SEC0_REG1_Out_data_format, 9),
        (f::THCON_SEC0_REG1_Disable_zero_compress, 1),
        (f::THCON_SEC0_REG1_L1_Dest_addr, dest),
        (f::PCK_DEST_RD_CTRL_Read_32b_data, 1),
        (f::PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16),
        (f::PCK_EDGE_OFFSET_SEC0_mask, mask),
    ] {
        st.cfg.set(t, fl, v);
    }
    st.adcs[t].packers[1].set_both(Coord::X, 15);
    let dcfg = st.dest_access_cfg(t);
    for row in 0..4u32 {
        for col in 0..16u32 {
            st.dst.write32(row, col as usize, dst(row, col), dcfg);
        }
    }
    let insn = Pacr {
        cfg_context: 0,
        row_pad_zero: 0,
        dst_access_mode: 0,
        addr_mode: 0,
        addr_cnt_context: 0,
        zero_write: 0,
        read_intf_sel: 0,
        ovrd_thread_id: 0,
        concat: 0,
        ctxt_ctrl: 0,
        flush: 0,
        last: 1,
    };
    let (r, warnings) = run_unit(&mut st, mem, t, Mode::Strict, |ctx| pacr(ctx, insn));
    (r.err().map(|e| e.message), warnings)
}

/// The packer gathers a PACR's data-stream bytes into one L1 write: the same bytes land, and
/// a stream that runs off the end of L1 writes the datums that fit and fails at the first
/// that does not, with the error the datum-by-datum writes give.
#[test]
fn packer_gathered_writes_land_and_fail_as_datum_by_datum_writes() {
    use crate::units::FlatL1;
    let end = 1536 * 1024;
    // Inside L1, and 32 bytes before its end (16 datums fit).
    for dest in [0x100, end / 16 - 3] {
        let mut gathered = FlatL1::blackhole();
        let mut single = DatumByDatum(FlatL1::blackhole());
        gathered.bytes.fill(0xee);
        single.0.bytes.fill(0xee);
        let upper = |row: u32, col: u32| 0xa000_0000 | (row << 20) | (col << 16);
        let (e1, _) = pack_64_int16(&mut gathered, dest, 0xffff, upper);
        let (e2, _) = pack_64_int16(&mut single, dest, 0xffff, upper);
        assert_eq!(e1, e2, "dest {dest:#x}");
        assert!(
            gathered.bytes == single.0.bytes,
            "dest {dest:#x}: L1 differs"
        );
        let at = ((dest + 1) * 16) as usize;
        let fits = (end as usize - at).min(128) / 2;
        for d in 0..fits {
            let (row, col) = (d / 16, d % 16);
            let want = 0xa000u16 | (row << 4) as u16 | col as u16;
            let got =
                u16::from_le_bytes([gathered.bytes[at + 2 * d], gathered.bytes[at + 2 * d + 1]]);
            assert_eq!(got, want, "dest {dest:#x} datum {d}");
        }
        if fits < 64 {
            let e = e1.unwrap_or_default();
            assert!(e.contains(&format!("{:#x}", end)), "{e}");
        } else {
            assert_eq!(e1, None);
        }
    }
}

/// One packer configuration of [`pack_twice`].
#[derive(Clone, Copy, Debug)]
struct PackCase {
    read32: bool,
    inter: DataFormat,
    out: DataFormat,
    round10: bool,
    read_raw: bool,
    e4m3: bool,
    mask: u32,
    relu: u32,
    l1_acc: bool,
    read_intf_sel: u8,
    dst_access_mode: u8,
    zero_write: bool,
    dest: u32,
}

/// Two PACRs of `case` from a `Dst` of pseudo-random bits — the first leaving the stream
/// open, the second (`Last`) continuing and closing it — with 8 datums per interface each.
/// Returns the error, the packer's state and the warnings' messages.
fn pack_twice(
    mem: &mut dyn crate::TensixMemory,
    case: PackCase,
) -> (Option<String>, PackerState, Vec<String>) {
    use crate::state::TensixState;
    use crate::Mode;
    let mut st = TensixState::new();
    let t = 0;
    for (fl, v) in [
        (f::ALU_FORMAT_SPEC_REG2_Dstacc, case.inter.code()),
        (
            f::THCON_SEC0_REG1_In_data_format,
            if case.read32 { 0 } else { 5 },
        ),
        (f::THCON_SEC0_REG1_Out_data_format, case.out.code()),
        (f::THCON_SEC0_REG1_Disable_zero_compress, 1),
        (f::THCON_SEC0_REG1_L1_Dest_addr, case.dest),
        (f::THCON_SEC0_REG1_Pac_LF8_4b_exp, case.e4m3 as u32),
        (f::THCON_SEC0_REG1_Pack_L1_Acc, case.l1_acc as u32),
        (f::PCK_DEST_RD_CTRL_Read_32b_data, case.read32 as u32),
        (f::PCK_DEST_RD_CTRL_Round_10b_mant, case.round10 as u32),
        (f::PCK_DEST_RD_CTRL_Read_int8, case.read_raw as u32),
        (f::PACK_COUNTERS_SEC0_pack_reads_per_xy_plane, 16),
        (f::PCK_EDGE_OFFSET_SEC0_mask, case.mask),
        (f::STACC_RELU_ApplyRelu, case.relu),
        (f::STACC_RELU_ReluThreshold, 0x3f80),
        (f::ADDR_MOD_PACK_SEC0_YsrcIncr, 1),
    ] {
        st.cfg.set(t, fl, v);
    }
    st.adcs[t].packers[1].set_both(Coord::X, 7);
    let dcfg = st.dest_access_cfg(t);
    let mut seed = 0x9e37_79b9u32;
    for row in 0..512u32 {
        for col in 0..16 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let hi = seed >> 16;
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            st.dst.write32(row, col, hi << 16 | seed >> 16, dcfg);
        }
    }
    let insn = |last| Pacr {
        cfg_context: 0,
        row_pad_zero: 0,
        dst_access_mode: case.dst_access_mode,
        addr_mode: 0,
        addr_cnt_context: 0,
        zero_write: case.zero_write as u8,
        read_intf_sel: case.read_intf_sel,
        ovrd_thread_id: 0,
        concat: 0,
        ctxt_ctrl: 0,
        flush: 0,
        last,
    };
    let (r, warnings) = run_unit(&mut st, mem, t, Mode::Permissive, |ctx| {
        pacr(ctx, insn(0)).and_then(|()| pacr(ctx, insn(1)))
    });
    let e = r.err().map(|e| e.message);
    let state = st.packers[0].clone();
    (e, state, warnings.into_iter().map(|w| w.message).collect())
}

/// The packer's row path (`pack_rows`) gives, for every configuration, the L1 bytes, packer
/// state, error and warnings that the datum-by-datum path gives: the datum path is what a
/// memory that cannot say where L1 is gets ([`DatumByDatum`]). Configurations off the row
/// path (edge masks dropping datums, ReLU, L1 accumulation, BFP, pairs not modelled) are in
/// the sweep too, and a stream that runs off the end of L1.
#[test]
fn packer_row_path_gives_what_the_datum_path_gives() {
    use crate::units::FlatL1;
    use DataFormat::*;
    let end = 1536 * 1024u32;
    let pairs = [
        (Bf16, Bf16),
        (Fp16, Fp16),
        (Fp16, Bf16),
        (Fp16, Fp32),
        (Bf16, Fp32),
        (Fp32, Fp32),
        (Fp32, Bf16),
        (Fp32, Fp16),
        (Tf32, Tf32),
        (Int16, Int16),
        (Int32, Int32),
        (Int8, Int8),
        (Fp16, Fp8),
        (Bf16, Bfp8),
        (Bfp8a, Bfp8a),
        (Fp8, Fp8),
    ];
    let mut rows_taken = 0;
    for read32 in [false, true] {
        for (inter, out) in pairs {
            for variant in 0..8u32 {
                let case = PackCase {
                    read32,
                    inter,
                    out,
                    round10: variant & 1 != 0,
                    read_raw: variant & 2 != 0,
                    e4m3: variant & 4 != 0,
                    mask: if variant == 5 { 0x00ff } else { 0xffff },
                    relu: u32::from(variant == 6),
                    l1_acc: variant == 7,
                    read_intf_sel: if variant & 1 != 0 { 0b0101 } else { 0 },
                    dst_access_mode: (variant >> 1 & 1) as u8,
                    zero_write: variant == 3,
                    dest: if variant == 4 { end / 16 - 5 } else { 0x100 },
                };
                let mut rows = FlatL1::blackhole();
                let mut single = DatumByDatum(FlatL1::blackhole());
                rows.bytes.fill(0x5a);
                single.0.bytes.fill(0x5a);
                let (e1, s1, w1) = pack_twice(&mut rows, case);
                let (e2, s2, w2) = pack_twice(&mut single, case);
                assert_eq!(e1, e2, "{case:?}");
                assert_eq!(s1, s2, "{case:?}");
                assert_eq!(w1, w2, "{case:?}");
                assert!(rows.bytes == single.0.bytes, "{case:?}: L1 differs");
                let wrote = rows.bytes[0x1010..0x1030].iter().any(|&b| b != 0x5a);
                if e1.is_none() && case.dest == 0x100 && wrote && !case.l1_acc {
                    rows_taken += 1;
                }
            }
        }
    }
    // The sweep reaches the row path often (not only configurations it declines).
    assert!(rows_taken > 100, "{rows_taken} configurations packed");
}
