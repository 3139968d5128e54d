//! Unpacker tests: expected values are written from the pages' bit layouts, not from the
//! formats module.
use super::*;
use DataFormat::*;

// Expected values are written from the pages' bit layouts, not from the formats module.

#[test]
fn fp32_to_bf16_unpack_flushes_denormals_and_keeps_the_top_half() {
    // Src BF16: Sign 18, Man 17..11, Exp 7..0.
    assert_eq!(
        convert(Fp32, Bf16, 0x3fc0_1234, 0, false, false, false),
        Ok((0x40 << 11) | 0x7f)
    );
    assert_eq!(
        convert(Fp32, Bf16, 0x8000_0001, 0, false, false, false),
        Ok(1 << 18)
    );
    // To Dst: Dst16b BF16 Sign 15, Man 14..8, Exp 7..0.
    assert_eq!(
        convert(Fp32, Bf16, 0x3fc0_0000, 0, true, false, false),
        Ok(0x407f)
    );
}

#[test]
fn fp32_to_tf32_unpack_keeps_ten_mantissa_bits() {
    // 0x3fc02000: exp 0x7f, mantissa top 10 bits 0b1000000001.
    assert_eq!(
        convert(Fp32, Tf32, 0x3fc0_2000, 0, false, false, false),
        Ok((0x201 << 8) | 0x7f)
    );
    // To Dst, TF32 means FP32: the whole word, rearranged.
    assert_eq!(
        convert(Fp32, Tf32, 0x3fc0_2001, 0, true, false, false),
        Ok(0x407f_2001)
    );
}

#[test]
fn fp8_unpacks_as_fp16_with_a_zero_low_byte() {
    // FP8 0x3e: sign 0, exp 0b01111, man 0b10 -> FP16 0x3e00; Src FP16: Man 17..8,
    // Exp 4..0.
    assert_eq!(
        convert(Fp8, Fp8, 0x3e, 0, false, false, false),
        Ok((0x200 << 8) | 0x0f)
    );
}

#[test]
fn bfp4_and_bfp2_datums_unpack_through_bfp8() {
    // BFP4 0b0110 = 6/4 = 1.5 at exp 127 -> BF16 0x3fc0.
    assert_eq!(
        convert(Bfp4, Bfp4, 0b0110, 127, false, false, false),
        Ok((0x40 << 11) | 0x7f)
    );
    // BFP2 0b11 = -1 at exp 130 -> -8.0 = BF16 0xc100.
    assert_eq!(
        convert(Bfp2, Bfp2, 0b11, 130, true, false, false),
        Ok(0x8082)
    );
}

#[test]
fn bfp8a_unpacks_to_fp16_and_rejects_exponents_beyond_5_bits() {
    // 0x40 at exp 15 = 1.0 = FP16 0x3c00 -> Src: Man 0, Exp 15.
    assert_eq!(convert(Bfp8a, Bfp8a, 0x40, 15, false, false, false), Ok(15));
    assert!(convert(Bfp8a, Bfp8a, 0x40, 40, false, false, false).is_err());
}

#[test]
fn int8_unpacks_sign_magnitude_or_unsigned_onto_exponent_16() {
    // Src INT8: Sign 18, Magnitude 17..8, 16 in bits 4..0 (0 when the magnitude is zero).
    assert_eq!(
        convert(Int8, Int8, 0x85, 0, false, false, false),
        Ok((1 << 18) | (5 << 8) | 16)
    );
    assert_eq!(
        convert(Int8, Int8, 0x85, 0, false, true, false),
        Ok((0x85 << 8) | 16)
    );
    assert_eq!(
        convert(Int8, Int8, 0x80, 0, false, false, false),
        Ok(1 << 18)
    );
}

#[test]
fn int16_is_opaque_and_int32_goes_to_dst_only() {
    assert_eq!(
        convert(Int16, Int16, 0xbeef, 0, true, false, false),
        Ok(0xbeef)
    );
    assert_eq!(
        convert(Int16, Int16, 0xbeef, 0, false, false, false),
        Ok((0xbe << 11) | 0xef)
    );
    // INT32 to Dst takes the FP32 rearrangement (WriteDstFP32): sign 31 stays, bits
    // 22..16 (0x12) move to 30..24, bits 30..23 (0) to 23..16, the low half stays.
    assert_eq!(
        convert(Int32, Int32, 0x8012_3456, 0, true, false, false),
        Ok(0x9200_3456)
    );
    assert!(convert(Int32, Int32, 1, 0, false, false, false).is_err());
}

#[test]
fn only_fp32_converts_between_formats() {
    assert!(convert(Bf16, Fp16, 0, 0, false, false, false).is_err());
}

/// Src FP16 layout: sign 18, mantissa 17..8, exponent 4..0.
fn src_fp16(sign: u32, exp: u32, man: u32) -> u32 {
    (sign << 18) | (man << 8) | exp
}

#[test]
fn fp32_to_fp16_rebiases_the_exponent_and_truncates_the_mantissa() {
    // 1.5 + 2^-20: exponent 127 -> 15, mantissa 0x400000 | 8 -> top ten bits 0x200.
    assert_eq!(
        convert(Fp32, Fp16, 0x3fc0_0008, 0, false, false, false),
        Ok(src_fp16(0, 15, 0x200))
    );
    // -2^-15 (exponent 112) -> exponent 0 (reads as zero), sign kept.
    assert_eq!(
        convert(Fp32, Fp16, 0xb800_0000, 0, false, false, false),
        Ok(src_fp16(1, 0, 0))
    );
    // 2^-16 (exponent 111) is below FP16's range: a signed zero.
    assert_eq!(
        convert(Fp32, Fp16, 0x3780_0000, 0, false, false, false),
        Ok(src_fp16(0, 0, 0))
    );
    // 2^17 (exponent 144 -> 32) saturates to exponent 31, mantissa 1023.
    assert_eq!(
        convert(Fp32, Fp16, 0x4800_0000, 0, false, false, false),
        Ok(src_fp16(0, 31, 0x3ff))
    );
}

#[test]
fn fp8_e5m2_all_ones_sets_every_low_fp16_bit() {
    // 0x7f: exponent 31, mantissa 3 -> FP16 0x7fff (exponent 31, mantissa 1023).
    assert_eq!(
        convert(Fp8, Fp8, 0x7f, 0, false, false, false),
        Ok(src_fp16(0, 31, 0x3ff))
    );
}

#[test]
fn fp8_e4m3_rebiases_by_eight() {
    // 0x3c: sign 0, exponent 7, mantissa 4 -> exponent 15, mantissa 4 << 7 = 0x200 (1.5).
    assert_eq!(
        convert(Fp8, Fp8, 0x3c, 0, false, false, true),
        Ok(src_fp16(0, 15, 0x200))
    );
    // 0xff: exponent 15, mantissa 7 -> exponent 23, mantissa 0x380 | 0x7f.
    assert_eq!(
        convert(Fp8, Fp8, 0xff, 0, false, false, true),
        Ok(src_fp16(1, 23, 0x3ff))
    );
    // Exponent 0 stays 0.
    assert_eq!(
        convert(Fp8, Fp8, 0x05, 0, false, false, true),
        Ok(src_fp16(0, 0, 0x280))
    );
}

/// docs/tensix-datapath.md "Unpacker conversions": BFP4/BFP2 (and their `a` forms) unpacked with
/// OutDataFormat BFP8 (BFP8a) give what unpacking them as themselves gives.
#[test]
fn narrow_bfp_unpacks_as_its_8_bit_form() {
    use DataFormat::*;
    for (narrow, wide) in [(Bfp4, Bfp8), (Bfp2, Bfp8), (Bfp4a, Bfp8a), (Bfp2a, Bfp8a)] {
        let n = if matches!(narrow, Bfp4 | Bfp4a) {
            16
        } else {
            4
        };
        for bits in 0..n {
            for exp in [0u8, 1, 100, 127, 130, 254, 255] {
                let a = convert(narrow, narrow, bits, exp, false, false, false);
                let b = convert(narrow, wide, bits, exp, false, false, false);
                assert_eq!(a, b, "{narrow:?} -> {wide:?} bits {bits:#x} exp {exp}");
            }
        }
    }
    assert!(convert(Bfp4, Bf16, 1, 127, false, false, false).is_err());
}

use crate::units::DatumByDatum;

/// How [`unpack_to_src`] unpacks: which unpacker (0: SrcA, 1: SrcB), whether SrcA rows wrap
/// at 64 (`SetOvrdWithAddr`) or follow `SrcRow`, and `SrcRow`'s base.
#[derive(Clone, Copy, Debug)]
struct Unpacking {
    unpacker: usize,
    set_ovrd: bool,
    src_row: u8,
    /// The output address of the first datum (`ADDR_BASE_REG_1_Base`, bytes): off a multiple of
    /// 16 datums, a run of datums starts and ends inside a Src row.
    out_base: u32,
}

/// One UNPACR of `count` datums of `fmt` (unpacked as `out`) from the tile at 16-byte unit
/// `base` into the unpacker's Src; returns its error, if any, and that Src.
fn unpack_to_src(
    mem: &mut dyn crate::TensixMemory,
    fmt: DataFormat,
    out: DataFormat,
    base: u32,
    count: u32,
    how: Unpacking,
) -> (Option<String>, crate::state::SrcData) {
    use crate::state::cfg_fields as f;
    use crate::state::{Coord, TensixState};
    let mut st = TensixState::new();
    let t = 0;
    let u = how.unpacker;
    let sid = st.cfg.state_id(t);
    let (td, out_fmt, base_addr, out_base) = if u == 0 {
        (
            f::THCON_SEC0_REG0_TileDescriptor_ADDR32,
            f::THCON_SEC0_REG2_Out_data_format,
            f::THCON_SEC0_REG3_Base_address,
            f::UNP0_ADDR_BASE_REG_1_Base,
        )
    } else {
        (
            f::THCON_SEC1_REG0_TileDescriptor_ADDR32,
            f::THCON_SEC1_REG2_Out_data_format,
            f::THCON_SEC1_REG3_Base_address,
            f::UNP1_ADDR_BASE_REG_1_Base,
        )
    };
    st.cfg.write_word(sid, td, fmt.code() | 0x10 | (1024 << 16));
    st.cfg.write_word(sid, td + 1, 1);
    for (fl, v) in [
        (out_fmt, out.code()),
        (base_addr, base),
        (out_base, how.out_base),
        (f::SRCA_SET_SetOvrdWithAddr, how.set_ovrd as u32),
    ] {
        st.cfg.set(t, fl, v);
    }
    st.unpackers[u].src_row[t] = how.src_row;
    st.adcs[t].unpacker[u][0].set_both(Coord::X, 0);
    st.adcs[t].unpacker[u][1].set_both(Coord::X, count - 1);
    let insn = bhemu_isa::tensix::blackhole::operands::Unpacr {
        unpack_block_selection: u as u8,
        addr_mode: 0,
        cfg_context_cnt_inc: 0,
        cfg_context_id: 0,
        addr_cnt_context_id: 0,
        ovrd_thread_id: 0,
        set_dat_valid: 0,
        srcb_bcast: 0,
        zero_write2: 0,
        auto_inc_context_id: 0,
        row_search: 0,
        search_cache_flush: 0,
        last: 0,
    };
    let (r, _) = crate::units::run_unit(&mut st, mem, t, crate::Mode::Strict, |ctx| {
        super::unpacr(ctx, insn)
    });
    let e = r.err().map(|e| e.message);
    (
        e,
        if u == 0 {
            st.src_a.clone()
        } else {
            st.src_b.clone()
        },
    )
}

/// Whole-byte datums are read a row of L1 at a time, and 16-bit ones unchanged in format go
/// to Src a row at a time: every format of 8, 16 and 32 bits gives SrcA and SrcB what reading
/// and writing datum by datum gives (SrcA rows wrapping at 64, or following `SrcRow` until a
/// row past 16 stops the unpack; output runs aligned to a Src row or not), and an input that runs off the end of L1 fails at the same
/// datum with the same error, the datums before it written.
#[test]
fn unpacker_row_reads_give_what_datum_reads_give() {
    use crate::units::FlatL1;
    let end = 1536 * 1024u32;
    let mut seed = 0x1234_5678u32;
    let mut fill = |l1: &mut FlatL1| {
        for b in l1.bytes.iter_mut() {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            *b = (seed >> 16) as u8;
        }
    };
    let mut bytes = FlatL1::blackhole();
    fill(&mut bytes);
    for (fmt, out) in [
        (Bf16, Bf16),
        (Fp16, Fp16),
        (Fp32, Bf16),
        (Fp32, Fp16),
        (Fp32, Tf32),
        (Int8, Int8),
        (Fp8, Fp8),
        (Int16, Int16),
    ] {
        let bytes_per = fmt.datum_bits() / 8;
        let wrapping = Unpacking {
            unpacker: 0,
            set_ovrd: true,
            src_row: 0,
            out_base: 128,
        };
        // Inside L1; and ending 100 datums into an input that runs off its end.
        for base in [0x100, (end - 100 * bytes_per) / 16 - 1] {
            let mut rows = FlatL1 {
                bytes: bytes.bytes.clone(),
            };
            let mut single = DatumByDatum(FlatL1 {
                bytes: bytes.bytes.clone(),
            });
            let (e1, a1) = unpack_to_src(&mut rows, fmt, out, base, 1024, wrapping);
            let (e2, a2) = unpack_to_src(&mut single, fmt, out, base, 1024, wrapping);
            assert_eq!(e1, e2, "{} base {base:#x}", fmt.name());
            assert!(a1 == a2, "{} base {base:#x}: SrcA differs", fmt.name());
            if base == 0x100 {
                assert_eq!(e1, None, "{}", fmt.name());
            } else {
                let e = e1.unwrap_or_default();
                assert!(
                    e.contains("UNPACR") || e.contains(&format!("{end:#x}")),
                    "{}: {e}",
                    fmt.name()
                );
                // The datums before the end were written.
                assert!(a1 != crate::state::SrcData::new(), "{}", fmt.name());
            }
        }
        // SrcB, and SrcA following SrcRow: 256 datums fit its 16 rows, 400 run past them.
        for how in [
            Unpacking {
                unpacker: 1,
                set_ovrd: false,
                src_row: 0,
                out_base: 128,
            },
            Unpacking {
                unpacker: 1,
                set_ovrd: false,
                src_row: 40,
                out_base: 128,
            },
            Unpacking {
                unpacker: 0,
                set_ovrd: false,
                src_row: 8,
                out_base: 128,
            },
        ]
        .into_iter()
        .flat_map(|h| [h, Unpacking { out_base: 148, ..h }])
        {
            for count in [256, 400] {
                let mut rows = FlatL1 {
                    bytes: bytes.bytes.clone(),
                };
                let mut single = DatumByDatum(FlatL1 {
                    bytes: bytes.bytes.clone(),
                });
                let (e1, a1) = unpack_to_src(&mut rows, fmt, out, 0x200, count, how);
                let (e2, a2) = unpack_to_src(&mut single, fmt, out, 0x200, count, how);
                assert_eq!(e1, e2, "{} {how:?} {count}", fmt.name());
                assert!(a1 == a2, "{} {how:?} {count}: Src differs", fmt.name());
                assert!(a1 != crate::state::SrcData::new(), "{} {how:?}", fmt.name());
            }
        }
    }
}
