//! The Vector Unit inside the coprocessor: `.tsx` programs (examples/tensix/sfpu/) preload
//! `Dst`, run `SFP*` sequences through the frontend, the Wait Gate and the unit, and dump
//! `Dst`. Each result is checked against a reference written here from the instruction
//! pages (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPADDI.md,
//! SFPSETCC.md, SFPENCC.md, SFPMAD.md, SFPSHFT.md, SFPIADD.md, SFPLUT.md, SFPSWAP.md,
//! SFPLOADMACRO.md), never by calling the unit.
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{run, RunOptions, RunResult};
use bhemu_tensix::Arch;

fn program(name: &str) -> RunResult {
    let path = format!(
        "{}/../../examples/tensix/sfpu/{name}.tsx",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let p = parse(Arch::Blackhole, &path, &text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{name}: {:?}", r.error);
    assert!(r.warnings.is_empty(), "{name}: {:?}", r.warnings);
    r
}

/// Dst rows 0..3 as the program dumps them (64 values, row-major).
fn dst(r: &RunResult) -> Vec<u32> {
    let d = r
        .dumps
        .iter()
        .find(|d| d.what == "dst 0..3")
        .unwrap_or_else(|| panic!("no Dst dump"));
    assert_eq!(d.bits.len(), 64);
    d.bits.clone()
}

/// `ramp START STEP` values of the preload, exact in FP32.
fn ramp(start: f64, step: f64, n: usize) -> Vec<f32> {
    (0..n).map(|i| (start + step * i as f64) as f32).collect()
}

fn as_f32(bits: &[u32]) -> Vec<f32> {
    bits.iter().map(|&b| f32::from_bits(b)).collect()
}

#[test]
fn sfpaddi_adds_a_bf16_constant_to_every_dst_datum() {
    let x = ramp(-8.0, 0.25, 64);
    let out = as_f32(&dst(&program("add_const")));
    for i in 0..64 {
        // Quarter steps plus 0.5 are exact: no rounding is involved.
        assert_eq!(out[i], x[i] + 0.5, "datum {i}");
    }
}

#[test]
fn relu_by_lane_predication_zeroes_only_negative_lanes() {
    let x = ramp(-8.0, 0.25, 64);
    let out = dst(&program("relu"));
    for i in 0..64 {
        let want = if x[i] < 0.0 { 0.0f32 } else { x[i] };
        assert_eq!(out[i], want.to_bits(), "datum {i} ({})", x[i]);
    }
}

#[test]
fn sfpmad_computes_x_times_x_plus_c() {
    let x = ramp(-8.0, 0.25, 64);
    let r = program("square_plus_c");
    let out = as_f32(&dst(&r));
    for i in 0..64 {
        // x has at most 6 significant bits: x*x - 1.5 is exact in FP32.
        assert_eq!(out[i], x[i] * x[i] - 1.5, "datum {i}");
    }
}

#[test]
fn sfpmad_result_hazard_holds_the_next_reader_one_cycle_at_the_gate() {
    // SFPMAD.md "Instruction scheduling": an instruction reading the SFPMAD's VD on the
    // next cycle is stalled one cycle, so SFPMAD -> SFPSTORE takes two cycles at least.
    let text = std::fs::read_to_string(format!(
        "{}/../../examples/tensix/sfpu/square_plus_c.tsx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let p = parse(Arch::Blackhole, "square_plus_c.tsx", &text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{:?}", r.error);
    let mad = p.threads[1].words[2].0;
    let store = p.threads[1].words[3].0;
    let at = |w: u32| {
        r.dispatched[1]
            .iter()
            .find(|d| d.1 == w)
            .map(|d| d.0)
            .unwrap_or_else(|| panic!("{w:#x} never dispatched"))
    };
    let load = p.threads[1].words[1].0;
    // Without a hazard the unit takes one instruction a cycle (SFPLOAD -> SFPMAD).
    assert_eq!(at(mad), at(load) + 1, "load {} mad {}", at(load), at(mad));
    assert_eq!(
        at(store),
        at(mad) + 2,
        "mad {} store {}",
        at(mad),
        at(store)
    );
}

#[test]
fn int32_shift_and_add_matches_twos_complement_arithmetic() {
    let out = dst(&program("int_shift_add"));
    for i in 0..64u32 {
        let x = i as i32;
        let want = ((x << 3) - 100) >> 1;
        // Results lie in -50..=202: the high 16 bits are 0x0000 or 0xffff, which Dst's
        // FP32 arrangement of the high half (sign, mantissa, exponent; Dst.md) leaves as
        // they are, so the raw Dst32b word is the integer itself.
        assert_eq!(out[i as usize] as i32, want, "datum {i}");
    }
}

/// `Lut8ToFp32` of SFPLUT.md: sign bit 7, 3-bit exponent e giving 2^-e, 4-bit mantissa.
fn lut8(x: u8) -> f64 {
    if x == 0xff {
        return 0.0;
    }
    let sign = if x & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((x >> 4) & 7) as i32;
    let m = (x & 15) as f64;
    sign * (1.0 + m / 16.0) * 2f64.powi(-e)
}

#[test]
fn sfplut_applies_the_segment_of_abs_x_and_keeps_the_sign() {
    let x = ramp(-4.0, 0.125, 64);
    let out = as_f32(&dst(&program("lut")));
    let coeffs = [0x1020u16, 0x2131, 0x3342];
    for i in 0..64 {
        let b = (x[i] as f64).abs();
        let k = coeffs[if b < 1.0 {
            0
        } else if b < 2.0 {
            1
        } else {
            2
        }];
        let d = lut8((k >> 8) as u8) * b + lut8(k as u8);
        // Both Lut8 values have at most 5 significant bits and x at most 6: exact in FP32.
        let want = if x[i] < 0.0 { -d } else { d } as f32;
        assert_eq!(out[i], want, "datum {i} ({})", x[i]);
    }
}

#[test]
fn sfpswap_min_max_orders_each_column_pair() {
    let mut x = ramp(7.75, -0.25, 32);
    x.extend(ramp(-3.0, 0.375, 32));
    let out = as_f32(&dst(&program("swap")));
    for row in 0..4 {
        for pair in 0..8 {
            let (e, o) = (row * 16 + pair * 2, row * 16 + pair * 2 + 1);
            assert_eq!(out[e], x[e].min(x[o]), "row {row} pair {pair} min");
            assert_eq!(out[o], x[e].max(x[o]), "row {row} pair {pair} max");
        }
    }
}

#[test]
fn sfploadmacro_kernel_loads_increments_and_stores_every_datum() {
    let out = dst(&program("loadmacro"));
    for i in 0..64u32 {
        // Values 0..630: high half 0, so the raw Dst32b word is the integer.
        assert_eq!(out[i as usize], i * 10 + 1, "datum {i}");
    }
}

#[test]
fn sfpstore_to_bf16_dst_truncates_the_sum() {
    // SFPSTORE.md: with a BF16 format the low 16 bits of the FP32 result are dropped
    // (after flushing denormals); no rounding. SFPLOAD.md: MOD0_FMT_SRCB is BF16 when SrcB's
    // format is FP32 (code 0, the power-on configuration).
    let mut x = ramp(129.0, 2.0, 32);
    x.extend(ramp(-1.0, 0.125, 32));
    let out = dst(&program("bf16_add_const"));
    for i in 0..64 {
        let sum = (x[i] + 0.5).to_bits(); // exact in FP32
        let want = sum >> 16;
        assert_eq!(out[i], want, "datum {i} ({} + 0.5)", x[i]);
        if i < 32 {
            assert_eq!(f32::from_bits(want << 16), x[i], "129.5 etc. truncate to x");
        }
    }
}

#[test]
fn dst_preload_writes_fp32_in_dsts_layout_and_u32_raw() {
    // Dst.md: Dst32b holds FP32 with its high half as sign, mantissa(7), exponent(8).
    let mut cp = bhemu_tensix::Coprocessor::new(Arch::Blackhole);
    // The same preload applied by hand, through the layout written from Dst.md.
    let hi = 0x3fc0_0000u32 >> 16; // 1.5: sign 0, exponent 0x7f, mantissa 0x40
    let dst_hi = (hi & 0x8000) | ((hi & 0x7f) << 8) | ((hi >> 7) & 0xff);
    let plain = bhemu_tensix::state::DestAccessCfg::default();
    cp.state_mut().dst.write32(5, 0, dst_hi << 16, plain);
    cp.state_mut().dst.write32(6, 0, 0x1234_5678, plain);
    let text = "dst 5 = fp32 [1.5]\ndst 6 = u32 [0x12345678]\ndump dst 5..6 u32\n[t0]\nttnop\n";
    let p = parse(Arch::Blackhole, "t.tsx", text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none(), "{:?}", r.error);
    let d = &r.dumps[0].bits;
    assert_eq!(d[0], cp.state().dst.read32(5, 0, plain));
    assert_eq!(d[16], 0x1234_5678);
}

#[test]
fn dst_preload_must_fit_dst_and_name_a_dst_format() {
    for (text, says) in [
        ("dst 1023 = fp32 ramp 0 1 32\n", "leave Dst"),
        ("dst 0 = u8 [1]\n", "FORMAT one of"),
    ] {
        match parse(Arch::Blackhole, "t.tsx", text) {
            Ok(_) => panic!("{text}: accepted"),
            Err(e) => {
                assert!(e.message.contains("t.tsx:1"), "{e}");
                assert!(e.message.contains(says), "{e}");
            }
        }
    }
}
