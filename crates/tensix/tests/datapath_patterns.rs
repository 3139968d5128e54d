//! Every 16-bit pattern through the data path, and the packer's FP32 -> BF16 rounding, as
//! `.tsx` programs built here: the bytes they leave in L1 are compared with values computed
//! here, independently, from the ISA pages' definitions of the formats.
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{run, DumpResult, RunOptions, RunResult};
use bhemu_tensix::Arch;

fn dump<'a>(r: &'a RunResult, what: &str) -> &'a DumpResult {
    r.dumps
        .iter()
        .find(|d| d.what == what)
        .unwrap_or_else(|| panic!("no dump `{what}`"))
}

fn run_text(name: &str, text: &str) -> RunResult {
    let p = parse(Arch::Blackhole, name, text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{name}: {:?}", r.error);
    r
}

/// A one-thread program moving all 2^16 16-bit patterns L1 -> SrcA -> Dst -> L1, 64 tiles of
/// 1024: UNPACR (Ch0 Y += 1 selects the next tile, FlipSrc), eight MOVA2D of 8 rows, SETRWC
/// (bank back, counters cleared), PACR (one output stream; Last on the final tile). Effects
/// apply at dispatch in program order, so one thread needs no semaphores.
fn all_patterns_program(fmt_code: u32, flush_src: bool) -> String {
    let mut p = String::new();
    p.push_str("l1 0x10000 = u16 ramp 0 1 65536\n");
    // TileDescriptor: format | IsUncompressed | XDim 1024; YDim 64 (tiles).
    p.push_str(&format!(
        "cfg 64 = {:#x}\ncfg 65 = 64\n",
        fmt_code | 0x10 | (1024 << 16)
    ));
    for line in [
        format!("cfg THCON_SEC0_REG2_Out_data_format = {fmt_code}"),
        "cfg THCON_SEC0_REG3_Base_address = 0xfff".into(),
        "cfg UNP0_ADDR_BASE_REG_1_Base = 128".into(),
        format!("cfg ALU_FORMAT_SPEC_REG0_SrcA = {fmt_code}"),
        format!("cfg ALU_FORMAT_SPEC_REG2_Dstacc = {fmt_code}"),
        format!(
            "cfg ALU_ACC_CTRL_Zero_Flag_disabled_src = {}",
            !flush_src as u32
        ),
        "cfg PCK_DEST_RD_CTRL_Read_int8 = 1".into(),
        format!("cfg THCON_SEC0_REG1_In_data_format = {fmt_code}"),
        format!("cfg THCON_SEC0_REG1_Out_data_format = {fmt_code}"),
        "cfg THCON_SEC0_REG1_Disable_zero_compress = 1".into(),
        "cfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff".into(),
        "cfg THCON_SEC0_REG1_L1_Dest_addr = 0x3fff".into(),
        "[t0]".into(),
        "cfg SRCA_SET_SetOvrdWithAddr = 1".into(),
        "cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8".into(),
        "cfg ADDR_MOD_DST_SEC0_DestIncr = 8".into(),
        "ttsetadcxx 5, 1023, 0".into(),
    ] {
        p.push_str(&line);
        p.push('\n');
    }
    for tile in 0..64 {
        p.push_str("ttunpacr 0, 4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1\n");
        for _ in 0..8 {
            p.push_str("ttmova2d 0, 0, 0, 2, 0\n");
        }
        p.push_str("ttsetrwc 1, 0, 0, 0, 0, 5\n");
        let last = (tile == 63) as u32;
        p.push_str(&format!("ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, {last}\n"));
    }
    p.push_str("dump l1 0x40000 u16 65536\n");
    p
}

#[test]
fn every_bf16_pattern_passes_unpacr_mova2d_pacr_unchanged() {
    let r = run_text("bf16-all.tsx", &all_patterns_program(5, false));
    let out = &dump(&r, "l1 0x40000").bits;
    for (i, &b) in out.iter().enumerate() {
        assert_eq!(b, i as u32, "pattern {i:#06x}");
    }
}

#[test]
fn every_fp16_pattern_passes_unpacr_mova2d_pacr_unchanged() {
    let r = run_text("fp16-all.tsx", &all_patterns_program(1, false));
    let out = &dump(&r, "l1 0x40000").bits;
    for (i, &b) in out.iter().enumerate() {
        assert_eq!(b, i as u32, "pattern {i:#06x}");
    }
}

#[test]
fn mova2d_flush_turns_every_zero_exponent_bf16_into_plus_zero() {
    // MOVA2D.md: FlushDenormals (Zero_Flag_disabled_src clear) zeroes a Src datum whose
    // exponent byte is zero: BF16 denormals and -0 become +0, everything else is unchanged.
    let r = run_text("bf16-flush.tsx", &all_patterns_program(5, true));
    let out = &dump(&r, "l1 0x40000").bits;
    for (i, &b) in out.iter().enumerate() {
        let exp = (i >> 7) & 0xff;
        let want = if exp == 0 { 0 } else { i as u32 };
        assert_eq!(b, want, "pattern {i:#06x}");
    }
}

/// Packers/FormatConversion.md, early conversion "Rounding": FP32 in `Dst` to BF16 rounds to
/// nearest with ties away from zero, flushes denormals and -0 to +0, and turns NaN into
/// infinity (8-bit exponent).
fn bf16_round_reference(x: u32) -> u32 {
    let f = f32::from_bits(x);
    let exp = (x >> 23) & 0xff;
    if exp == 0 {
        return 0;
    }
    if exp == 0xff {
        return ((x >> 31) << 15) | 0x7f80;
    }
    // Real values of the two neighbouring BF16 patterns; the upper one may carry into
    // exponent 255, whose real value (2^128) is what "nearest" compares against.
    let real = |bits: u32| {
        let e = ((bits >> 23) & 0xff) as i32;
        let m = (bits & 0x7f_ffff) as f64 / (1u64 << 23) as f64;
        let s = if bits >> 31 != 0 { -1.0 } else { 1.0 };
        s * (1.0 + m) * 2f64.powi(e - 127)
    };
    let lo = real(x & 0xffff_0000);
    let hi_bits = (x & 0xffff_0000) + 0x1_0000;
    let hi = real(hi_bits);
    let v = f as f64;
    if (hi - v).abs() <= (v - lo).abs() {
        hi_bits >> 16
    } else {
        x >> 16
    }
}

#[test]
fn pack_fp32_dst_to_bf16_rounds_ties_away_and_flushes() {
    let specials = [
        0x0000_0001u32, // denormal
        0x8000_0000,    // -0
        0x7fc0_0000,    // NaN
        0xffc0_0001,    // -NaN
        0x3f80_8000,    // tie -> away
        0xbf80_8000,    // negative tie -> away
        0x3f80_7fff,    // just below the tie
        0x7f7f_ffff,    // rounds up into infinity
    ];
    let mut text = String::from(
        "sem 1 init 0 max 1\nl1 0x10000 = fp32 ramp 0.1 0.37 1016\nl1 0x10fe0 = fp32 [",
    );
    text.push_str(
        &specials
            .iter()
            .map(|v| format!("{v:#x}"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    text.push_str("]\n");
    text.push_str(
        "cfg 64 = 0x04000010\ncfg 65 = 1\ncfg THCON_SEC0_REG2_Out_data_format = 0\n\
         cfg THCON_SEC0_REG2_Unpack_If_Sel = 1\ncfg THCON_SEC0_REG3_Base_address = 0xfff\n\
         cfg UNP0_ADDR_BASE_REG_1_Base = 256\ncfg ALU_FORMAT_SPEC_REG2_Dstacc = 5\n\
         cfg PCK_DEST_RD_CTRL_Read_32b_data = 1\ncfg THCON_SEC0_REG1_In_data_format = 0\n\
         cfg THCON_SEC0_REG1_Out_data_format = 5\ncfg THCON_SEC0_REG1_Disable_zero_compress = 1\ncfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff\n\
         cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff\n\
         [t0]\nttsetadcxx 1, 1023, 0\nttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1\n\
         ttstallwait 2, 2\nttsempost 2\n\
         [t2]\nttsemwait 5, 2, 1\nttsetadcxx 4, 1023, 0\n\
         ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1\n\
         dump l1 0x10000 u32 1024\ndump l1 0x20000 bf16 1024\n",
    );
    let r = run_text("round.tsx", &text);
    let input = &dump(&r, "l1 0x10000").bits;
    assert_eq!(&input[1016..], &specials);
    let want: Vec<u32> = input.iter().map(|&x| bf16_round_reference(x)).collect();
    let got = &dump(&r, "l1 0x20000").bits;
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "datum {i}: fp32 {:#010x}", input[i]);
    }
    assert_eq!(
        &got[1016..],
        &[0, 0, 0x7f80, 0xff80, 0x3f81, 0xbf81, 0x3f80, 0x7f80]
    );
}
