//! The RISC-V views of `Config`/`ThreadConfig`, the GPRs and `Dst` (BackendConfiguration.md,
//! ScalarUnit.md, Dst.md "RISCV access to Dst"), checked against bit patterns worked out
//! from those pages.
use bhemu_tensix::state::cfg_fields as f;
use bhemu_tensix::state::DestAccessCfg;
use bhemu_tensix::{Arch, Coprocessor};

const PLAIN: DestAccessCfg = DestAccessCfg {
    remap_addrs: false,
    swizzle_32b: false,
};

fn cp() -> Coprocessor {
    Coprocessor::new(Arch::Blackhole)
}

fn must<T>(r: Result<T, String>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn config_window_is_config0_config1_dualwrite_then_threadconfig() {
    let mut c = cp();
    must(c.cfg_window_write(20, 4, 0x1111)); // Config[0][5]
    must(c.cfg_window_write(0x380 + 20, 4, 0x2222)); // Config[1][5]
    assert_eq!(c.state().cfg.word(0, 5), Some(0x1111));
    assert_eq!(c.state().cfg.word(1, 5), Some(0x2222));
    must(c.cfg_window_write(0x700 + 24, 4, 0x3333)); // ConfigDualWrite[6]
    assert_eq!(c.state().cfg.word(0, 6), Some(0x3333));
    assert_eq!(c.state().cfg.word(1, 6), Some(0x3333));
    assert_eq!(
        must(c.cfg_window_read(0x700 + 20, 4)),
        0x1111,
        "DualWrite reads Config[0]"
    );
    // ThreadConfig[1][12] at 0xA80 + (68 + 12) * 4, 16-bit value with padding.
    c.state_mut().cfg.write_thread_word(1, 12, 0xabcd);
    assert_eq!(must(c.cfg_window_read(0xa80 + (68 + 12) * 4, 4)), 0xabcd);
    assert_eq!(must(c.cfg_window_read(0xa80 + (68 + 12) * 4 + 1, 1)), 0xab);
}

#[test]
fn config_window_writes_are_sw_only_and_threadconfig_is_read_only() {
    let mut c = cp();
    let e = c.cfg_window_write(0, 2, 1).err().unwrap_or_default();
    assert!(e.contains("`sw` only"), "{e}");
    let e = c.cfg_window_write(0xa80, 4, 1).err().unwrap_or_default();
    assert!(e.contains("SETC16"), "{e}");
    assert!(
        c.cfg_window_read(0xa80 + 3 * 68 * 4, 4).is_err(),
        "past ThreadConfig"
    );
}

#[test]
fn gpr_window_is_gprs_3_by_64_and_narrow_stores_merge() {
    let mut c = cp();
    must(c.gpr_window_write(0, (64 + 3) * 4, 4, 0x1234_5678)); // B's view: GPRs[1][3]
    assert_eq!(c.state().gprs[1][3], 0x1234_5678);
    must(c.gpr_window_write(1, 3 * 4 + 2, 2, 0xbeef)); // T1's own view
    assert_eq!(c.state().gprs[1][3], 0xbeef_5678);
    assert_eq!(must(c.gpr_window_read(1, 3 * 4 + 1, 1)), 0x56);
}

fn with_fmt(c: &mut Coprocessor, t: usize, fmt: u32) {
    let fl = [
        f::RISC_DEST_ACCESS_CTRL_SEC0_fmt,
        f::RISC_DEST_ACCESS_CTRL_SEC1_fmt,
        f::RISC_DEST_ACCESS_CTRL_SEC2_fmt,
    ][t];
    c.state_mut().cfg.set(t, fl, fmt);
}

#[test]
fn dst_window_bf16_converts_between_cpu_and_dst_layouts() {
    let mut c = cp();
    with_fmt(&mut c, 0, 3);
    // 1.5 as BF16 = 0x3fc0: sign 0, exp 0x7f, man 0x40 -> Dst16b (Sign Man Exp) 0x407f.
    must(c.dst_window_write(0, 2 * 17, 2, 0x3fc0)); // Dst16b[1][1]
    assert_eq!(c.state().dst.read16(1, 1, PLAIN), 0x407f);
    assert_eq!(must(c.dst_window_read(0, 2 * 17, 2)), 0x3fc0);
}

#[test]
fn dst_window_fp32_is_split_across_rows_eight_apart() {
    let mut c = cp();
    with_fmt(&mut c, 1, 0);
    // 1.5f = 0x3fc00000 -> Dst32b 0x407f0000 (ManHi 0x40, Exp 0x7f, ManLo 0).
    must(c.dst_window_write(1, 4 * 2, 4, 0x3fc0_0001)); // Dst32b[0][2]
    assert_eq!(c.state().dst.bits()[0][2], 0x407f);
    assert_eq!(c.state().dst.bits()[8][2], 0x0001);
    assert_eq!(must(c.dst_window_read(1, 8, 4)), 0x3fc0_0001);
}

#[test]
fn dst_window_int16_and_int32_convert_twos_complement_to_sign_magnitude() {
    let mut c = cp();
    with_fmt(&mut c, 0, 4);
    must(c.dst_window_write(0, 0, 2, 0xfffb)); // -5
    assert_eq!(c.state().dst.read16(0, 0, PLAIN), 0x8005);
    assert_eq!(must(c.dst_window_read(0, 0, 2)), 0xfffb);
    must(c.dst_window_write(0, 2, 2, 0x8000)); // -32768 clamps to -32767
    assert_eq!(c.state().dst.read16(0, 1, PLAIN), 0xffff);
    with_fmt(&mut c, 0, 1);
    must(c.dst_window_write(0, 64, 4, (-7i32) as u32));
    // Sign-magnitude 0x80000007, then the FP32-style swizzle: bits 23..16 stay 0.
    assert_eq!(c.state().dst.read32(1, 0, PLAIN), 0x8000_0007);
    assert_eq!(must(c.dst_window_read(0, 64, 4)), (-7i32) as u32);
}

#[test]
fn dst_window_int8_wraps_magnitude_with_exponent_16() {
    let mut c = cp();
    with_fmt(&mut c, 0, 5);
    must(c.dst_window_write(0, 3, 1, 5));
    assert_eq!(c.state().dst.read16(0, 3, PLAIN), (5 << 5) | 16);
    assert_eq!(must(c.dst_window_read(0, 3, 1)), 5);
    must(c.dst_window_write(0, 4, 1, 0));
    assert_eq!(
        c.state().dst.read16(0, 4, PLAIN),
        0,
        "zero magnitude: exponent bits 0"
    );
}

#[test]
fn dst_window_element_size_must_match_fmt_except_t2_wider_loads() {
    let mut c = cp();
    with_fmt(&mut c, 0, 3);
    assert!(
        c.dst_window_read(0, 0, 4).is_err(),
        "T0: one element at a time"
    );
    with_fmt(&mut c, 2, 3);
    c.state_mut().dst.write16(0, 0, 0x407f, PLAIN);
    c.state_mut().dst.write16(0, 1, 0x0080, PLAIN); // 2.0: exp 0x80, man 0
    assert_eq!(must(c.dst_window_read(2, 0, 4)), 0x4000_3fc0);
    with_fmt(&mut c, 0, 6);
    let e = c.dst_window_read(0, 0, 2).err().unwrap_or_default();
    assert!(e.contains("reserved"), "fmt 6: {e}");
}
