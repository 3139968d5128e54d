//! SFPLOAD / SFPSTORE: every `Mod0` format, the even/odd column and row addressing, the
//! `LaneConfig` bits that affect them, and the `Addr` computation the dispatcher performs
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPLOAD.md, SFPSTORE.md).
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
#![allow(clippy::manual_rotate)] // SFPSTORE.md's `(Datum << 16) | (Datum >> 16)`, kept as written
mod sfpu_common;
use bhemu_tensix::sfpu::{DstAddrInputs, SrcbFormat};
use sfpu_common::*;

/// Dst position of `lane` for `addr` (rows `addr & !3 ..+4`, columns even or odd).
fn place(addr: u32, lane: usize) -> (u32, usize) {
    (
        (addr & !3) + lane as u32 / 8,
        (lane % 8) * 2 + ((addr >> 1) & 1) as usize,
    )
}

// Restated conversions of the pages.
fn unshuffle_bf16(x: u32) -> u32 {
    let (s, e, m) = (x & 0x8000, x & 0xff, (x >> 8) & 0x7f);
    s | (e << 7) | m
}
fn read_fp16(x: u32, inf: bool) -> u32 {
    let (s, m, mut e) = (x >> 15, (x >> 5) & 0x3ff, x & 0x1f);
    let mut mm = m;
    if inf && e == 31 && m == 0x3ff {
        e = 255;
        mm = 0;
    } else if e != 0 {
        e += 112;
    }
    (s << 31) | (e << 23) | (mm << 13)
}
fn load_ref(mod0: u32, d16: u32, d32: u32, old: u32, inf: bool) -> u32 {
    match mod0 {
        1 => read_fp16(d16, inf),
        2 => unshuffle_bf16(d16) << 16,
        3 | 4 | 10 | 12 => (unshuffle_bf16(d32 >> 16) << 16) | (d32 & 0xffff),
        5 => ((d16 >> 15) << 31) | ((d16 >> 5) & 0xff),
        13 => ((d16 >> 15) << 31) | ((d16 >> 5) & 0x3ff),
        14 => (old & 0xffff_0000) | d16,
        15 => (d16 << 16) | (old & 0xffff),
        8 => ((d16 >> 15) << 31) | (d16 & 0x7fff),
        6 | 9 => d16,
        7 => d16 << 16,
        _ => 0,
    }
}

#[test]
fn sfpload_every_format_even_and_odd_columns() {
    let mut rng = Rng::new(1000);
    let mut b = Bench::new();
    for i in 0..VECTORS {
        // Fresh Dst contents every 16 rounds; fresh addresses every round.
        if i % 16 == 0 {
            for row in b.dst.bits_mut().iter_mut() {
                for v in row.iter_mut() {
                    *v = rng.u32() as u16;
                }
            }
        }
        let inf = rng.bool();
        for l in 0..32 {
            b.vu.state.lane_config[l] = inf as u32;
        }
        for mod0 in 1..16u32 {
            let addr = rng.below(1024);
            let vd = rng.below(8) as usize;
            let old: [u32; 32] = std::array::from_fn(|_| rng.u32());
            b.set(vd, old);
            b.run_at(enc_mem(SFPLOAD, vd as u32, mod0, addr), addr);
            for l in 0..32 {
                let (row, col) = place(addr, l);
                let d16 = b.dst.read16(row, col, b.cfg) as u32;
                let d32 = b.dst.read32(row, col, b.cfg);
                assert_eq!(
                    b.lreg(vd)[l],
                    load_ref(mod0, d16, d32, old[l], inf),
                    "mod0 {mod0} addr {addr} lane {l}"
                );
            }
        }
    }
}

fn bf16_shuffle(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x7f) << 8) | ((x & 0x7f80) >> 7)
}
fn fp16_shuffle(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x3ff) << 5) | ((x & 0x7c00) >> 10)
}
fn flush(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}
fn to_fp16(x: u32) -> u32 {
    let s = x >> 31;
    let mut e = ((x >> 23) & 0xff) as i32 - 112;
    let mut m = x & 0x7fffff;
    if e <= 0 {
        e = 0;
        m = 0;
    } else if e > 31 {
        e = 31;
        m = 0x7fffff;
    }
    (s << 15) | ((e as u32) << 10) | (m >> 13)
}

/// The `Dst` datum SFPSTORE writes: (is 32-bit, value).
fn store_ref(mod0: u32, d: u32) -> (bool, u32) {
    match mod0 {
        1 => (false, fp16_shuffle(to_fp16(d))),
        2 => (false, bf16_shuffle(flush(d) >> 16)),
        3 => (
            true,
            (bf16_shuffle(flush(d) >> 16) << 16) | (flush(d) & 0xffff),
        ),
        4 | 10 | 12 => (true, (bf16_shuffle(d >> 16) << 16) | (d & 0xffff)),
        5 | 13 => (
            false,
            fp16_shuffle(((d >> 31) << 15) | (16 << 10) | (d & 0x3ff)),
        ),
        14 | 6 => (false, d & 0xffff),
        15 => (false, d >> 16),
        8 => (false, ((d >> 31) << 15) | (d & 0x7fff)),
        9 => (true, (d << 16) | (d >> 16)),
        7 => (true, d),
        _ => (false, 0),
    }
}

#[test]
fn sfpstore_every_format_even_and_odd_columns() {
    let mut rng = Rng::new(1010);
    let mut b = Bench::new();
    for _ in 0..VECTORS {
        for mod0 in 1..16u32 {
            let addr = rng.below(1024);
            let vd = rng.below(8) as usize;
            let v: [u32; 32] = std::array::from_fn(|_| rng.f32_bits());
            b.set(vd, v);
            b.run_at(enc_mem(SFPSTORE, vd as u32, mod0, addr), addr);
            for l in 0..32 {
                let (row, col) = place(addr, l);
                let (wide, want) = store_ref(mod0, v[l]);
                let got = if wide {
                    b.dst.read32(row, col, b.cfg)
                } else {
                    b.dst.read16(row, col, b.cfg) as u32
                };
                assert_eq!(got, want, "mod0 {mod0} value {:#x} lane {l}", v[l]);
            }
        }
    }
}

#[test]
fn store_then_load_round_trips_fp32_int32_and_16_bit_formats() {
    let mut rng = Rng::new(1020);
    let mut b = Bench::new();
    for _ in 0..VECTORS {
        let v: [u32; 32] = std::array::from_fn(|_| rng.u32());
        b.set(1, v);
        b.run_at(enc_mem(SFPSTORE, 1, 4, 8), 8);
        b.run_at(enc_mem(SFPLOAD, 2, 4, 8), 8);
        assert_eq!(b.lreg(2), v, "INT32");
        b.run_at(enc_mem(SFPSTORE, 1, 7, 16), 16); // HI16: opaque 32 bits
        b.run_at(enc_mem(SFPLOAD, 3, 3, 16), 16);
        for l in 0..32 {
            // Loading as FP32 unshuffles the high half once.
            assert_eq!(b.lreg(3)[l] & 0xffff, v[l] & 0xffff);
        }
    }
}

#[test]
fn srcb_format_resolves_per_context() {
    let mut b = Bench::new();
    b.set(1, [0x3fc0_1234; 32]);
    for (fmt, want16, wide) in [
        (SrcbFormat::Bf16, bf16_shuffle(0x3fc0), false),
        (SrcbFormat::Fp16, fp16_shuffle(to_fp16(0x3fc0_1234)), false),
        (SrcbFormat::Fp32, 0, true),
    ] {
        b.srcb = fmt;
        b.run_at(enc_mem(SFPSTORE, 1, 0, 0), 0);
        if wide {
            assert_eq!(
                b.dst.read32(0, 0, b.cfg),
                (bf16_shuffle(0x3fc0) << 16) | 0x1234
            );
        } else {
            assert_eq!(b.dst.read16(0, 0, b.cfg) as u32, want16, "{fmt:?}");
        }
    }
}

#[test]
fn int32_all_ignores_predication_other_formats_do_not() {
    let mut b = Bench::new();
    b.vu.state.use_lane_flags = u32::MAX;
    b.vu.state.lane_flags = 0x0000_00ff;
    b.set(1, [0x1234_5678; 32]);
    b.run_at(enc_mem(SFPSTORE, 1, 10, 0), 0);
    b.run_at(enc_mem(SFPSTORE, 1, 4, 4), 4);
    for l in 0..32 {
        let (r0, c0) = place(0, l);
        let (r4, c4) = place(4, l);
        assert_eq!(
            b.dst.read32(r0, c0, b.cfg),
            (bf16_shuffle(0x1234) << 16) | 0x5678
        );
        assert_eq!(
            b.dst.read32(r4, c4, b.cfg),
            if l < 8 {
                (bf16_shuffle(0x1234) << 16) | 0x5678
            } else {
                0
            }
        );
    }
    b.run_at(enc_mem(SFPLOAD, 2, 10, 0), 0);
    assert_eq!(b.lreg(2), [0x1234_5678; 32]);
}

#[test]
fn lane_config_blocks_and_column_exchange() {
    let mut b = Bench::new();
    b.set(1, [0xabcd; 32]);
    for l in 0..32 {
        // Lane columns 0..3: block Dst writes; columns 4..7: store to odd columns.
        b.vu.state.lane_config[l] = if l % 8 < 4 { 1 << 4 } else { 1 << 7 };
    }
    b.run_at(enc_mem(SFPSTORE, 1, 6, 0), 0);
    for l in 0..32 {
        let (row, col) = place(0, l);
        if l % 8 < 4 {
            assert_eq!(b.dst.read16(row, col, b.cfg), 0);
            assert_eq!(b.dst.read16(row, col + 1, b.cfg), 0);
        } else {
            assert_eq!(b.dst.read16(row, col, b.cfg), 0);
            assert_eq!(b.dst.read16(row, col + 1, b.cfg), 0xabcd);
        }
    }
    for l in 0..32 {
        // Block reads in lanes 8..15; elsewhere capture the Dst index; the column exchange
        // comes from LaneConfig[Lane & 7], i.e. lanes 0..7 (which have it).
        b.vu.state.lane_config[l] = if (8..16).contains(&l) {
            1 << 5
        } else {
            (1 << 6) | 0b1100
        };
    }
    b.set(2, [7; 32]);
    b.run_at(enc_mem(SFPLOAD, 2, 6, 0), 0);
    for l in 0..32 {
        let (row, col) = place(0, l);
        if (8..16).contains(&l) {
            assert_eq!(b.lreg(2)[l], 7);
        } else {
            let want = if l % 8 < 4 { 0 } else { 0xabcd };
            assert_eq!(b.lreg(2)[l], want, "lane {l}");
            assert_eq!(
                b.lreg(6)[l],
                (row << 4) | (col as u32 + 1),
                "captured index lane {l}"
            );
        }
    }
}

#[test]
fn dst_address_computation_of_the_pages() {
    let i = DstAddrInputs {
        imm10: 0x10,
        math_offset: 0x20,
        rwc_dst: 0x41,
        regw_base: 0x100,
        rwc_sp: 6,
        sp_base: 0x200,
        stack_incr: 2,
    };
    // Non-INT32_ALL: Imm10 + offset + (Dst + base) + ((Sp + spbase) & 3).
    assert_eq!(i.load(3), ((0x10 + 0x20 + 0x141 + 2) & 0x3ff, 6));
    assert_eq!(i.store(3), ((0x10 + 0x20 + 0x141 + 2) & 0x3ff, 6));
    // INT32_ALL load: Sp pre-decremented (when non-zero), address by Sp, low bits of Dst.
    assert_eq!(i.load(10), ((0x10 + 0x20 + 4 + 0x200 + 1) & 0x3ff, 4));
    // INT32_ALL store: address by Sp, then Sp post-incremented.
    assert_eq!(i.store(10), ((0x10 + 0x20 + 6 + 0x200 + 1) & 0x3ff, 8));
    let z = DstAddrInputs { rwc_sp: 0, ..i };
    assert_eq!(z.load(10).1, 0, "Sp of 0 is not decremented");
}
