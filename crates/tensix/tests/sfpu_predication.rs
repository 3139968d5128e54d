//! Lane predication of every instruction (VectorUnit.md, "Lane Predication Masks"): with some
//! lanes disabled (by `LaneFlags` under `UseLaneFlagsForLaneEnable`, or by `ROW_MASK`), a
//! predicated instruction leaves the disabled lanes' registers untouched and gives the enabled
//! lanes exactly what it gives them with every lane enabled; the documented exceptions ignore
//! predication entirely.
#![allow(clippy::needless_range_loop)] // lane loops index several arrays at once
mod sfpu_common;
use sfpu_common::*;

/// One word per instruction (and per distinct predication behaviour).
fn predicated_words() -> Vec<u32> {
    vec![
        enc_mad(SFPMAD, 1, 2, 3, 4, 0),
        enc_mad(SFPMAD, 1, 2, 3, 4, 12), // indirect VA / VD
        enc_mad(SFPADD, 10, 2, 3, 4, 1),
        enc_mad(SFPMUL, 1, 2, 9, 4, 2),
        enc_imm16(SFPADDI, 0x3f80, 5, 0),
        enc_imm16(SFPMULI, 0x4000, 5, 2),
        enc_mad(SFPMUL24, 1, 2, 9, 4, 1),
        enc(SFPIADD, 7, 1, 2, 1),
        enc(SFPIADD, 0, 1, 2, 2),
        enc(SFPABS, 0, 1, 2, 1),
        enc(SFPARECIP, 3, 1, 2, 1),
        enc(SFPARECIP, 0, 1, 2, 2),
        enc(SFPAND, 3, 1, 2, 1),
        enc(SFPOR, 3, 1, 2, 0),
        enc(SFPXOR, 0, 1, 2, 0),
        enc(SFPNOT, 0, 1, 2, 0),
        enc(SFPLZ, 0, 1, 2, 4),
        enc(SFPSHFT, 0xffd, 1, 2, 3),
        enc(SFPDIVP2, 3, 1, 2, 1),
        enc(SFPEXEXP, 0, 1, 2, 0),
        enc(SFPEXMAN, 0, 1, 2, 1),
        enc(SFPSETEXP, 0, 1, 2, 2),
        enc(SFPSETMAN, 0x123, 1, 2, 1),
        enc(SFPSETSGN, 0, 1, 2, 0),
        enc(SFPCAST, 0, 1, 2, 0),
        enc(SFPCAST, 0, 1, 2, 1),
        enc(SFPCAST, 0, 1, 2, 3),
        (SFPSTOCHRND << 24) | (1 << 21) | (1 << 8) | (2 << 4) | 1,
        (SFPSTOCHRND << 24) | (1 << 21) | (1 << 8) | (2 << 4) | 7,
        (SFPSTOCHRND << 24) | (1 << 21) | (5 << 16) | (1 << 8) | (2 << 4) | 8 | 5,
        enc(SFPMOV, 0, 1, 2, 1),
        enc(SFPMOV, 0, 9, 2, 8), // PRNG
        enc(SFPGT, 0, 1, 2, 8),
        enc(SFPLE, 0, 1, 2, 8),
        enc(SFPSWAP, 0, 1, 2, 0),
        enc(SFPSWAP, 0, 1, 2, 3),
        enc(SFPTRANSP, 0, 0, 0, 0),
        enc(SFPSHFT2, 0, 0, 0, 0),
        enc(SFPSHFT2, 0, 0, 0, 1),
        enc(SFPSHFT2, 0, 5, 0, 2),
        enc(SFPSHFT2, 0, 1, 2, 3),
        enc(SFPSHFT2, 0, 1, 2, 4),
        enc(SFPSHFT2, 3, 1, 2, 5),
        enc_mem(SFPLUT, 5, 4, 0),
        enc(SFPLUTFP32, 0, 0, 5, 2),
        enc_mem(SFPLOADI, 2, 0, 0x4049),
        enc_mem(SFPLOADI, 2, 10, 0x1234),
        enc_mem(SFPLOAD, 2, 3, 0),
        enc_mem(SFPLOAD, 2, 15, 0),
    ]
}

fn random_state(b: &mut Bench, rng: &mut Rng) {
    b.fill(|r, _| if r == 7 { rng.below(8) } else { rng.f32_bits() });
    for l in 0..32 {
        b.vu.state.prng[l] = rng.u32();
    }
    for row in b.dst.bits_mut().iter_mut().take(8) {
        for v in row.iter_mut() {
            *v = rng.u32() as u16;
        }
    }
}

#[test]
fn predicated_instructions_touch_only_enabled_lanes() {
    let mut rng = Rng::new(1600);
    for word in predicated_words() {
        for trial in 0..300 {
            let mut all = Bench::new();
            random_state(&mut all, &mut rng);
            let mut some = Bench::new();
            some.vu.state = all.vu.state.clone();
            some.dst = all.dst.clone();
            // Disable lanes by flags, or (every third trial) by ROW_MASK as well.
            let flags = rng.u32();
            some.vu.state.use_lane_flags = u32::MAX;
            some.vu.state.lane_flags = flags;
            all.vu.state.use_lane_flags = 0;
            let mut enabled = flags;
            if trial % 3 == 0 {
                let rows = rng.below(16);
                for c in 0..8 {
                    some.vu.state.lane_config[c] = rows << 12;
                }
                for l in 0..32 {
                    if (rows >> (l / 8)) & 1 != 0 {
                        enabled &= !(1 << l);
                    }
                }
            }
            let before = some.vu.state.lreg;
            all.run(word);
            some.run(word);
            for r in 0..17 {
                for l in 0..32 {
                    let want = if (enabled >> l) & 1 != 0 {
                        all.lreg(r)[l]
                    } else {
                        before[r][l]
                    };
                    assert_eq!(
                        some.lreg(r)[l],
                        want,
                        "word {word:#010x} LReg[{r}] lane {l} enabled {enabled:#x}"
                    );
                }
            }
        }
    }
}

#[test]
fn sfpstore_writes_only_enabled_lanes() {
    let mut rng = Rng::new(1610);
    for _ in 0..300 {
        let mut b = Bench::new();
        b.fill(|_, _| rng.u32());
        let flags = rng.u32();
        b.vu.state.use_lane_flags = u32::MAX;
        b.vu.state.lane_flags = flags;
        b.run_at(enc_mem(SFPSTORE, 3, 4, 4), 4);
        for l in 0..32 {
            let (row, col) = (4 + l as u32 / 8, (l % 8) * 2);
            let got = b.dst.read32(row, col, b.cfg);
            if (flags >> l) & 1 == 0 {
                assert_eq!(got, 0, "lane {l}");
            } else {
                assert_eq!(got & 0xffff, b.lreg(3)[l] & 0xffff, "lane {l}");
            }
        }
    }
}

#[test]
fn unpredicated_instructions_ignore_lane_enables() {
    // SFPMOV ALL_LANES_ENABLED, and INT32_ALL loads and stores, act in every lane.
    let mut b = Bench::new();
    b.vu.state.use_lane_flags = u32::MAX;
    b.vu.state.lane_flags = 0;
    b.set(1, [9; 32]);
    b.run(enc(SFPMOV, 0, 1, 2, 2));
    assert_eq!(b.lreg(2), [9; 32]);
    b.run_at(enc_mem(SFPSTORE, 1, 10, 0), 0);
    b.run_at(enc_mem(SFPLOAD, 3, 10, 0), 0);
    assert_eq!(b.lreg(3), [9; 32]);
    // A predicated move in the same state writes nothing.
    b.run(enc(SFPMOV, 0, 1, 4, 0));
    assert_eq!(b.lreg(4), [0; 32]);
}
