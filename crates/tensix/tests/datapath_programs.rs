//! LLK idioms as `.tsx` programs (examples/tensix/data/), run through the coprocessor with
//! real data: the bytes they leave in L1 and `Dst` are compared with values computed here,
//! independently, from the ISA pages' definitions of the formats.
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{run, DumpResult, RunOptions, RunResult};
use bhemu_tensix::Arch;

fn example(name: &str) -> RunResult {
    let path = format!(
        "{}/../../examples/tensix/data/{name}.tsx",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let p = parse(Arch::Blackhole, &path, &text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{name}: {:?}", r.error);
    r
}

fn dump<'a>(r: &'a RunResult, what: &str) -> &'a DumpResult {
    r.dumps
        .iter()
        .find(|d| d.what == what)
        .unwrap_or_else(|| panic!("no dump `{what}`"))
}

/// The two input tiles of copy_*.tsx, as the program's ramps define them: eight runs of 256
/// values `start + step * i`.
fn input_tiles() -> Vec<f32> {
    let ramps = [
        (0.0, 1.0),
        (-1.0, -1.0),
        (0.5, 0.5),
        (-0.5, -0.5),
        (1000.0, -8.0),
        (0.0078125, 0.0078125),
        (-256.0, 2.0),
        (0.125, 0.125),
    ];
    let mut v = Vec::new();
    for (start, step) in ramps {
        for i in 0..256 {
            v.push((start + step * i as f64) as f32);
        }
    }
    v
}

/// BF16 as the top half of FP32 (FloatBitPatterns.md: BF16 is truncated FP32).
fn bf16(f: f32) -> u32 {
    f.to_bits() >> 16
}

#[test]
fn unpack_two_bf16_tiles_move_to_dst_and_pack_bf16() {
    let r = example("copy_bf16");
    let want: Vec<u32> = input_tiles().into_iter().map(bf16).collect();
    // Every input value has at most 8 significant bits, so BF16 holds it exactly.
    for (i, f) in input_tiles().into_iter().enumerate() {
        assert_eq!(f32::from_bits(want[i] << 16), f, "input {i} exact in bf16");
    }
    assert_eq!(
        dump(&r, "dst 0..127").bits,
        want,
        "Dst rows 0..127 = tile A then tile B"
    );
    assert_eq!(dump(&r, "l1 0x20000").bits, want, "packed bf16 = input");
}

#[test]
fn pack_dst_bf16_as_fp32_widens_with_zero_low_bits() {
    let r = example("copy_fp32");
    let want: Vec<u32> = input_tiles().into_iter().map(|f| bf16(f) << 16).collect();
    assert_eq!(dump(&r, "l1 0x20000").bits, want);
}

/// Reference BFP8 (bfp8_b) packing of 16 values, from FloatBitPatterns.md's meaning of a
/// datum (Mag/2^6 * 2^(Exp-127)) and the packer's round-to-nearest, ties away from zero,
/// with the open cases of docs/tensix-formats.md (saturate at 127, no sign on zero).
fn bfp8_reference(vals: &[f32]) -> (u8, Vec<u8>) {
    let exp_of = |f: f32| ((f.to_bits() >> 23) & 0xff) as i32;
    let shared = vals.iter().map(|&f| exp_of(f)).max().unwrap_or(0);
    let quantum = 2f64.powi(shared - 127) / 64.0;
    let datums = vals
        .iter()
        .map(|&f| {
            if exp_of(f) == 0 {
                return 0;
            }
            let q = (f.abs() as f64) / quantum;
            let mag = (q + 0.5).floor().min(127.0) as u8; // ties away from zero
            if mag == 0 {
                0
            } else if f < 0.0 {
                0x80 | mag
            } else {
                mag
            }
        })
        .collect();
    (shared as u8, datums)
}

#[test]
fn pack_dst_bf16_as_bfp8_b_with_shared_exponents() {
    let r = example("copy_bfp8");
    let tile_a = &input_tiles()[..1024];
    let exps = &dump(&r, "l1 0x20000").bits;
    let datums = &dump(&r, "l1 0x20040").bits;
    for block in 0..64 {
        let (e, d) = bfp8_reference(&tile_a[block * 16..block * 16 + 16]);
        assert_eq!(exps[block], e as u32, "shared exponent of block {block}");
        let got: Vec<u8> = datums[block * 16..block * 16 + 16]
            .iter()
            .map(|&b| b as u8)
            .collect();
        assert_eq!(got, d, "datums of block {block}");
    }
}

/// `BFP8ToBF16` as FloatBitPatterns.md writes it, `uint8_t` arithmetic included: for the
/// blocks whose shared exponent (0, 255) leaves the range the value table covers exactly.
fn bfp8_to_bf16_page(datum: u8, exp: u8) -> u32 {
    let sign = (datum >> 7) as u32;
    let mut mag = datum << 1;
    if mag == 0 {
        return if sign != 0 { 0xff80 } else { 0 };
    }
    let lz = mag.leading_zeros();
    mag <<= lz;
    let e = exp.wrapping_sub(lz as u8) as u32;
    (sign << 15) | (e << 7) | (mag & 0x7e) as u32
}

#[test]
fn unpack_bfp8_b_tile_with_edge_exponents_then_move_and_pack_bf16() {
    let r = example("unpack_bfp8");
    let exps = &dump(&r, "l1 0x10000").bits;
    let datums = &dump(&r, "l1 0x10040").bits;
    assert_eq!((exps[0], exps[1], exps[2], exps[63]), (0, 255, 13, 196));
    let mut dst = Vec::new();
    for i in 0..1024 {
        let (d, e) = (datums[i] as u8, exps[i / 16] as u8);
        let bf16_bits = if i / 16 >= 2 {
            // Blocks 2..63: the table's meaning, +-Mag/2^6 * 2^(Exp-127), exact in BF16;
            // sign with zero magnitude is -2^128, i.e. -infinity.
            let mag = (d & 0x7f) as f64;
            let v = mag / 64.0 * 2f64.powi(e as i32 - 127);
            match (d >> 7, d & 0x7f) {
                (1, 0) => 0xff80,
                (1, _) => bf16(-v as f32),
                _ => bf16(v as f32),
            }
        } else {
            bfp8_to_bf16_page(d, e)
        };
        // MOVA2D.md: FlushDenormals (Zero_Flag_disabled_src clear) zeroes a datum whose
        // exponent is 0. The packer's early conversion is the identity here
        // (PCK_DEST_RD_CTRL_Read_int8, as in copy_bf16.tsx): NaNs pass unchanged.
        let moved = if (bf16_bits >> 7) & 0xff == 0 {
            0
        } else {
            bf16_bits
        };
        dst.push(moved);
    }
    // Spot checks of the edge cases the blocks hold.
    assert_eq!(dst[16], 0x7f80, "mag 64 at exponent 255: +infinity");
    assert_eq!(dst[17], 0xff80, "-mag 64 at exponent 255: -infinity");
    assert_eq!(dst[18], 0x7f82, "mag 65 at exponent 255: a NaN");
    assert_eq!(dst[2], 250 << 7, "mag 1 at exponent 0: 0 - 6 wraps to 250");
    assert_eq!(
        (dst[4], dst[5], dst[6]),
        (0, 0, 0),
        "exponent 0 stays: flushed"
    );
    assert_eq!(
        dst[0x80], 0xff80,
        "sign, zero magnitude (block 8): -infinity"
    );
    assert_eq!(dump(&r, "dst 0..63").bits, dst, "Dst");
    assert_eq!(dump(&r, "l1 0x20000").bits, dst, "packed bf16");
}

/// docs/tensix-datapath.md "Blackhole unpacker rows": in Tileize_mode Blackhole's unpacker
/// reads 32 datums of 16 bits per L1 row, then steps by the row stride; SrcA is written in
/// order, so a 32x32 matrix whose row stride is its row length lands in SrcA as 64 rows of 16:
/// row 2r is matrix row r's left half, row 2r + 1 its right half.
#[test]
fn blackhole_tilize_reads_rows_of_32_datums_into_src_in_order() {
    let r = example("tilize_bf16");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let input: Vec<u32> = input_tiles()[..1024].iter().map(|&f| bf16(f)).collect();
    let mut want = Vec::new();
    for src_row in 0..64 {
        let (row, half) = (src_row / 2, src_row % 2);
        for col in 0..16 {
            want.push(input[row * 32 + half * 16 + col]);
        }
    }
    assert_eq!(dump(&r, "l1 0x20000").bits, want);
}

/// The row stride applies per 32 datums: with a stride of two matrix rows, every other row is
/// read.
#[test]
fn blackhole_tilize_steps_by_the_row_stride_after_each_32_datums() {
    let path = format!(
        "{}/../../examples/tensix/data/tilize_bf16.tsx",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let stride = "cfg THCON_SEC0_REG2_Shift_amount_cntx0 = 4 ";
    assert!(text.contains(stride));
    let whole = "ttsetadcxx 1, 1023, 0 ";
    assert!(text.contains(whole));
    let r = run_text(
        "stride.tsx",
        &text
            .replace(stride, "cfg THCON_SEC0_REG2_Shift_amount_cntx0 = 8 ")
            .replace(whole, "ttsetadcxx 1, 511, 0 "),
    );
    let input: Vec<u32> = input_tiles()[..1024].iter().map(|&f| bf16(f)).collect();
    let packed = &dump(&r, "l1 0x20000").bits;
    for (k, &datum) in packed[..512].iter().enumerate() {
        let (row, col) = (2 * (k / 32), k % 32);
        assert_eq!(datum, input[row * 32 + col], "datum {k}");
    }
}

#[test]
fn untilize_four_faces_into_a_row_major_32x32_matrix() {
    let r = example("untilize_bf16");
    let tile: Vec<u32> = input_tiles()[..1024].iter().map(|&f| bf16(f)).collect();
    assert_eq!(
        dump(&r, "dst 0..63").bits,
        tile,
        "Dst holds the tile as in L1"
    );
    // Matrix element (row, col) sits in face (row / 16) * 2 + col / 16 of the tile, at
    // (row % 16) * 16 + col % 16 within the face; the output is the matrix row by row.
    let mut want = Vec::new();
    for row in 0..32 {
        for col in 0..32 {
            let face = (row / 16) * 2 + col / 16;
            want.push(tile[face * 256 + (row % 16) * 16 + col % 16]);
        }
    }
    assert_eq!(dump(&r, "l1 0x20000").bits, want);
}

#[test]
fn block_untilize_packs_two_tiles_as_one_32x64_matrix() {
    let r = example("untilize_block_bf16");
    let tiles: Vec<u32> = input_tiles().into_iter().map(bf16).collect();
    // Element (row, col) of tile t: face (row / 16) * 2 + col / 16, then (row % 16, col % 16).
    let at = |t: usize, row: usize, col: usize| {
        tiles[t * 1024 + ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16]
    };
    let mut want = Vec::new();
    for row in 0..32 {
        for col in 0..64 {
            want.push(at(col / 32, row, col % 32));
        }
    }
    assert_eq!(dump(&r, "l1 0x20000").bits, want);
}

#[test]
fn unpack_fp32_to_dst_and_pack_fp32_is_bit_exact() {
    let r = example("unpack_dst_fp32");
    let input = &dump(&r, "l1 0x10000").bits;
    // The ramp is not all-equal: a real copy, not zeros.
    assert_eq!(input[1], 0.47f32.to_bits());
    assert!(
        input.iter().any(|&b| b & 0xffff != 0),
        "full 23-bit mantissas"
    );
    assert_eq!(
        &dump(&r, "dst 0..63").bits,
        input,
        "Dst32b holds the FP32 values"
    );
    assert_eq!(&dump(&r, "l1 0x20000").bits, input, "packed back unchanged");
}

fn run_text(name: &str, text: &str) -> RunResult {
    let p = parse(Arch::Blackhole, name, text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{name}: {:?}", r.error);
    r
}

#[test]
fn pack_dst_fp16_as_bfp8a_with_shared_5_bit_exponents() {
    let text = "l1 0x10000 = fp16 ramp 0 1 256\nl1 0x10200 = fp16 ramp -1 -1 256\n\
        l1 0x10400 = fp16 ramp 0.5 0.5 256\nl1 0x10600 = fp16 ramp -0.25 -0.25 256\n\
        cfg 64 = 0x04000011\ncfg 65 = 1\ncfg THCON_SEC0_REG2_Out_data_format = 1\n\
        cfg THCON_SEC0_REG3_Base_address = 0xfff\ncfg UNP0_ADDR_BASE_REG_1_Base = 128\n\
        cfg ALU_FORMAT_SPEC_REG0_SrcA = 1\ncfg ALU_FORMAT_SPEC_REG2_Dstacc = 1\n\
        cfg PCK_DEST_RD_CTRL_Read_int8 = 1\ncfg THCON_SEC0_REG1_In_data_format = 1\n\
        cfg THCON_SEC0_REG1_Out_data_format = 2\ncfg THCON_SEC0_REG1_Exp_section_size = 4\n\
        cfg THCON_SEC0_REG1_Disable_zero_compress = 1\ncfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff\ncfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff\n\
        [t0]\ncfg SRCA_SET_SetOvrdWithAddr = 1\ncfg ADDR_MOD_AB_SEC0_SrcAIncr = 8\n\
        cfg ADDR_MOD_DST_SEC0_DestIncr = 8\nttsetadcxx 5, 1023, 0\n\
        ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1\n"
        .to_string()
        + &"ttmova2d 0, 0, 0, 2, 0\n".repeat(8)
        + "ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1\n\
           dump l1 0x20000 u8 64\ndump l1 0x20040 u8 1024\n";
    let r = run_text("bfp8a.tsx", &text);
    let mut vals = Vec::new();
    for (start, step) in [(0.0, 1.0), (-1.0, -1.0), (0.5, 0.5), (-0.25, -0.25)] {
        for i in 0..256 {
            vals.push(start + step * i as f64);
        }
    }
    let exps = &dump(&r, "l1 0x20000").bits;
    let datums = &dump(&r, "l1 0x20040").bits;
    for block in 0..64 {
        let v = &vals[block * 16..block * 16 + 16];
        // FP16 exponent of each (all values are exact in E5M7), 0 for zero.
        let exp = |x: f64| {
            if x == 0.0 {
                0
            } else {
                x.abs().log2().floor() as i32 + 15
            }
        };
        let shared = v.iter().map(|&x| exp(x)).max().unwrap_or(0);
        assert_eq!(exps[block], shared as u32, "block {block}");
        // BFP8a meaning: Mag/2^6 * 2^(Exp-15).
        let quantum = 2f64.powi(shared - 15) / 64.0;
        for (k, &x) in v.iter().enumerate() {
            let mag = ((x.abs() / quantum) + 0.5).floor().min(127.0) as u32;
            let want = if mag == 0 {
                0
            } else if x < 0.0 {
                0x80 | mag
            } else {
                mag
            };
            assert_eq!(
                datums[block * 16 + k],
                want,
                "block {block} datum {k} ({x})"
            );
        }
    }
}

/// Blackhole PACR `ReadIntfSel` (docs/tensix-datapath.md "Packer read interfaces"): interface
/// `k` packs the X range of `Dst` row `base + k`, the rows going to L1 one after the other;
/// `0b0000` activates all four (how tt-llk packs a 16x16 face: four PACRs of four rows).
/// FP32 through 32-bit `Dst` and back, so the datums are the unpacked values unchanged.
fn pack_rows_with_read_interfaces(sel: u32) -> Vec<u32> {
    pack_rows_with(0, sel)
}

/// [`pack_rows_with_read_interfaces`] with PACR's `DstAccessMode` (1: strided).
fn pack_rows_with(dst_access_mode: u32, sel: u32) -> Vec<u32> {
    let text = format!(
        "l1 0x10000 = fp32 ramp 1 1 1024\n\
         cfg 64 = 0x04000010\ncfg 65 = 1\ncfg THCON_SEC0_REG2_Out_data_format = 0\n\
         cfg THCON_SEC0_REG2_Unpack_If_Sel = 1\ncfg THCON_SEC0_REG3_Base_address = 0xfff\n\
         cfg UNP0_ADDR_BASE_REG_1_Base = 256\ncfg ALU_FORMAT_SPEC_REG2_Dstacc = 0\n\
         cfg PCK_DEST_RD_CTRL_Read_32b_data = 1\ncfg THCON_SEC0_REG1_In_data_format = 0\n\
         cfg THCON_SEC0_REG1_Out_data_format = 0\ncfg THCON_SEC0_REG1_Disable_zero_compress = 1\ncfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff\n\
         cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff\n\
         [t0]\nttsetadcxx 1, 1023, 0\nttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1\n\
         ttstallwait 2, 2\nttsempost 2\n\
         [t2]\nttsemwait 5, 2, 1\nttsetadcxx 4, 15, 0\n\
         ttpacr 0, 0, {dst_access_mode}, 0, 0, 0, {sel}, 0, 0, 0, 0, 1\n\
         dump l1 0x20000 u32 80\n"
    );
    let r = run_text("pack-intf.tsx", &text);
    dump(&r, "l1 0x20000").bits.clone()
}

#[test]
fn pacr_read_interface_k_packs_dst_row_base_plus_k() {
    let row = |r: u32| (0..16).map(move |c| (1.0 + (16 * r + c) as f32).to_bits());
    // All four interfaces (0b0000 and 0b1111): rows 0, 1, 2, 3; nothing after them.
    for sel in [0, 0b1111] {
        let got = pack_rows_with_read_interfaces(sel);
        let want: Vec<u32> = (0..4)
            .flat_map(row)
            .chain(std::iter::repeat_n(0, 16))
            .collect();
        assert_eq!(got, want, "ReadIntfSel {sel:#06b}");
    }
    // Interfaces 0 and 2 (tt-llk's tilize pattern 0b0101): rows 0 and 2, back to back.
    let got = pack_rows_with_read_interfaces(0b0101);
    let want: Vec<u32> = [0, 2]
        .into_iter()
        .flat_map(row)
        .chain(std::iter::repeat_n(0, 48))
        .collect();
    assert_eq!(got, want);
    // One interface (0b0001): row 0 only.
    let got = pack_rows_with_read_interfaces(0b0001);
    assert_eq!(&got[..16], &row(0).collect::<Vec<_>>()[..]);
    assert!(got[16..].iter().all(|&x| x == 0));
}

/// Blackhole PACR strided mode (docs/tensix-datapath.md "Packer read interfaces"): interface
/// `k` starts a face (16 rows) after interface `k - 1`, so `0b0011` packs row 0 of the left
/// and right faces (one 32-datum matrix row, tt-llk's untilize) and all four read rows 0, 16,
/// 32, 48.
#[test]
fn pacr_strided_mode_interface_k_packs_dst_row_base_plus_16k() {
    let row = |r: u32| (0..16).map(move |c| (1.0 + (16 * r + c) as f32).to_bits());
    let got = pack_rows_with(1, 0b0011);
    let want: Vec<u32> = [0, 16]
        .into_iter()
        .flat_map(row)
        .chain(std::iter::repeat_n(0, 48))
        .collect();
    assert_eq!(got, want, "interfaces 0 and 1");
    for sel in [0, 0b1111] {
        let got = pack_rows_with(1, sel);
        let want: Vec<u32> = [0, 16, 32, 48]
            .into_iter()
            .flat_map(row)
            .chain(std::iter::repeat_n(0, 16))
            .collect();
        assert_eq!(got, want, "ReadIntfSel {sel:#06b}");
    }
}

/// An UNPACR that waits inside its unpacker for its bank computes its addresses at dispatch
/// (docs/tensix-datapath.md "When effects happen"): the WRCFG of its base address right
/// behind it (tt-llk's matmul unpack does this) does not change which tile it unpacks, even
/// though the bank only arrives (CLEARDVALID on thread 1) after that WRCFG.
#[test]
fn waiting_unpacr_unpacks_the_tile_its_configuration_named_at_dispatch() {
    let text = r#"l1 0x10000 = bf16 ramp 0 1 1024
l1 0x10800 = bf16 ramp -1 -1 1024
cfg 64 = 0x04000015
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 5
cfg THCON_SEC0_REG3_Base_address = 0xfff
cfg UNP0_ADDR_BASE_REG_1_Base = 128
cfg ALU_FORMAT_SPEC_REG0_SrcA = 5
cfg ALU_FORMAT_SPEC_REG2_Dstacc = 5
[t0]
cfg SRCA_SET_SetOvrdWithAddr = 1
gpr 4 = 0x107f
ttsetdvalid 1
ttsetdvalid 1
ttsetadcxx 1, 1023, 0
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1
ttwrcfg 4, 0, 76
[t1]
cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8
cfg ADDR_MOD_DST_SEC0_DestIncr = 8
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttcleardvalid 1, 0
ttcleardvalid 1, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
dump dst 0..63 bf16
"#;
    let r = run_text("wait.tsx", text);
    let at = |t: usize, opcode: u32| {
        r.dispatched[t]
            .iter()
            .find(|(_, w)| w >> 24 == opcode)
            .map(|(c, _)| *c)
    };
    // UNPACR 0x42, WRCFG 0xb0, CLEARDVALID 0x36.
    let (unpacr, wrcfg, clear) = (at(0, 0x42), at(0, 0xb0), at(1, 0x36));
    assert!(
        unpacr < wrcfg && wrcfg < clear,
        "{unpacr:?} {wrcfg:?} {clear:?}"
    );
    // Tile A (ramp 0, 1, 2, ...), not tile B (ramp -1, -2, ...), in Dst rows 0..63.
    let got = &dump(&r, "dst 0..63").bits;
    let want: Vec<u32> = (0..1024).map(|i| bf16(i as f32)).collect();
    assert_eq!(got, &want);
}

/// Dst.md: an Integer "32" datum of `Dst32b` has FP32's arrangement (the high half as sign,
/// bits 22..16, bits 30..23; RISCV `Load32` undoes it for both). Written from the page.
fn dst32_arrangement(x: u32) -> u32 {
    (x & 0x8000_ffff) | ((x & 0x007f_0000) << 8) | ((x & 0x7f80_0000) >> 7)
}

/// INT32 unpacked to `Dst` and packed back (Packers/FormatConversion.md: INT32 to INT32 is
/// the identity early and late) is the input bit for bit, while `Dst32b` holds each datum in
/// FP32's arrangement: the packer undoes what the unpacker did.
#[test]
fn unpack_int32_to_dst_and_pack_int32_is_bit_exact() {
    let mut s = 0x1234_5677u32;
    let input: Vec<u32> = (0..1024)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        })
        .collect();
    let vals: Vec<String> = input.iter().map(|v| format!("{v:#x}")).collect();
    let text = format!(
        "sem 1 init 0 max 1\n\
         l1 0x10000 = u32 [{}]\n\
         cfg 64 = 0x04000018\ncfg 65 = 1\n\
         cfg THCON_SEC0_REG2_Out_data_format = 8\n\
         cfg THCON_SEC0_REG2_Unpack_If_Sel = 1\ncfg THCON_SEC0_REG3_Base_address = 0xfff\n\
         cfg UNP0_ADDR_BASE_REG_1_Base = 256\n\
         cfg ALU_FORMAT_SPEC_REG2_Dstacc = 8\ncfg PCK_DEST_RD_CTRL_Read_32b_data = 1\n\
         cfg THCON_SEC0_REG1_In_data_format = 8\ncfg THCON_SEC0_REG1_Out_data_format = 8\n\
         cfg THCON_SEC0_REG1_Disable_zero_compress = 1\ncfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff\ncfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff\n\
         [t0]\nttsetadcxx 1, 1023, 0\nttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1\n\
         ttstallwait 2, 2\nttsempost 2\n\
         [t2]\nttsemwait 5, 2, 1\nttsetadcxx 4, 1023, 0\n\
         ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1\nttsemget 2\n\
         dump dst 0..63 u32\ndump l1 0x20000 u32 1024\n",
        vals.join(", ")
    );
    let r = run_text("int32-dst.tsx", &text);
    let want_dst: Vec<u32> = input.iter().map(|&x| dst32_arrangement(x)).collect();
    assert_eq!(dump(&r, "dst 0..63").bits, want_dst, "Dst32b arrangement");
    assert_eq!(dump(&r, "l1 0x20000").bits, input, "packed back unchanged");
}

/// docs/tensix-datapath.md "Packer output address": the output channel's Y/Z/W strides are in
/// bytes and the output address in 16-byte units, so a stream that starts at output row `y`
/// starts `y * Ystride` bytes after `L1_Dest_addr` (tt-llk's strided fast untilize programs one
/// row-major output row as channel 1's Y stride). Two one-row streams, at Y 0 and Y 1, with a
/// 256-byte stride: the second lands 256 bytes after the first, and nothing lands 16 × 256
/// bytes away.
#[test]
fn pack_output_y_stride_is_in_bytes() {
    let text = "l1 0x10000 = fp32 ramp 1 1 1024\n\
         cfg 64 = 0x04000010\ncfg 65 = 1\ncfg THCON_SEC0_REG2_Out_data_format = 0\n\
         cfg THCON_SEC0_REG2_Unpack_If_Sel = 1\ncfg THCON_SEC0_REG3_Base_address = 0xfff\n\
         cfg UNP0_ADDR_BASE_REG_1_Base = 256\ncfg ALU_FORMAT_SPEC_REG2_Dstacc = 0\n\
         cfg PCK_DEST_RD_CTRL_Read_32b_data = 1\ncfg THCON_SEC0_REG1_In_data_format = 0\n\
         cfg THCON_SEC0_REG1_Out_data_format = 0\ncfg THCON_SEC0_REG1_Disable_zero_compress = 1\ncfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff\n\
         cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff\ncfg PCK0_ADDR_CTRL_XY_REG_1_Ystride = 256\n\
         [t0]\nttsetadcxx 1, 1023, 0\nttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1\n\
         ttstallwait 2, 2\nttsempost 2\n\
         [t2]\nttsemwait 5, 2, 1\nttsetadcxx 4, 15, 0\n\
         ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1\n\
         ttsetadcxy 4, 1, 0, 0, 0, 8\n\
         ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1\n\
         dump l1 0x20000 u32 128\ndump l1 0x21000 u32 16\n";
    let r = run_text("pack-ystride.tsx", text);
    let row0: Vec<u32> = (0..16).map(|c| (1.0 + c as f32).to_bits()).collect();
    let got = &dump(&r, "l1 0x20000").bits;
    assert_eq!(&got[..16], &row0[..], "first stream at L1_Dest_addr");
    assert!(got[16..64].iter().all(|&x| x == 0), "gap up to one stride");
    assert_eq!(
        &got[64..80],
        &row0[..],
        "second stream one Y stride (256 bytes) later"
    );
    assert!(
        dump(&r, "l1 0x21000").bits.iter().all(|&x| x == 0),
        "nothing at 16 x the stride"
    );
}
