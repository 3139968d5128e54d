//! Shared harness of the Vector Unit tests: a deterministic xorshift generator, operand
//! distributions rich in edge cases, instruction encoders written from the pages' encoding
//! diagrams, and a unit with a `Dst` to run on.
#![allow(dead_code)]
use bhemu_tensix::sfpu::{SfpuContext, SrcbFormat, VectorUnit};
use bhemu_tensix::state::{DestAccessCfg, Dst};

/// xorshift64* (fixed seeds; no external crate).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.u32() as u64 * n as u64) >> 32) as u32
    }
    pub fn bool(&mut self) -> bool {
        self.u32() & 1 != 0
    }

    /// An FP32 bit pattern: one in four an edge case (zeros, infinities, NaNs, denormals,
    /// extremes, one), one in four a value near 1 (so sums cancel and products stay in range),
    /// otherwise uniform bits.
    pub fn f32_bits(&mut self) -> u32 {
        match self.below(4) {
            0 => {
                let specials = [
                    0x0000_0000u32,
                    0x8000_0000,
                    0x7f80_0000,
                    0xff80_0000,
                    0x7fc0_0000,
                    0xffc0_0000,
                    0x7f80_0001,
                    0xff80_0001,
                    0x7fff_ffff,
                    0x0000_0001,
                    0x8000_0001,
                    0x007f_ffff,
                    0x807f_ffff,
                    0x0080_0000,
                    0x8080_0000,
                    0x7f7f_ffff,
                    0xff7f_ffff,
                    0x3f80_0000,
                    0xbf80_0000,
                    0x0100_0000,
                    0x7f00_0000,
                ];
                specials[self.below(specials.len() as u32) as usize]
            }
            1 => {
                let exp = 120 + self.below(15);
                (self.u32() & 0x807f_ffff) | (exp << 23)
            }
            _ => self.u32(),
        }
    }

    /// A 32-bit integer pattern: edge cases or uniform.
    pub fn int_bits(&mut self) -> u32 {
        if self.below(4) == 0 {
            let specials = [
                0u32,
                1,
                0xffff_ffff,
                0x8000_0000,
                0x7fff_ffff,
                0x8000_0001,
                0x0000_ffff,
                0xffff_0000,
                31,
                32,
                0xffff_ffe0,
            ];
            specials[self.below(specials.len() as u32) as usize]
        } else {
            self.u32()
        }
    }
}

/// A unit and a `Dst` to run it against.
pub struct Bench {
    pub vu: VectorUnit,
    pub dst: Dst,
    pub cfg: DestAccessCfg,
    pub srcb: SrcbFormat,
}

impl Bench {
    pub fn new() -> Self {
        Bench {
            vu: VectorUnit::new(),
            dst: Dst::new(),
            cfg: DestAccessCfg::default(),
            srcb: SrcbFormat::Bf16,
        }
    }

    /// Issue `word` in a cycle of its own, with `Dst` address `addr`; panics with the error.
    pub fn run_at(&mut self, word: u32, addr: u32) {
        let mut ctx = SfpuContext {
            dst: &mut self.dst,
            dst_cfg: self.cfg,
            addr,
            srcb_format: self.srcb,
        };
        if let Err(e) = self.vu.execute(word, &mut ctx) {
            panic!("{e}");
        }
    }

    pub fn run(&mut self, word: u32) {
        self.run_at(word, 0)
    }

    /// Issue `word` and return the error it raises (panics if it raises none).
    pub fn run_err(&mut self, word: u32) -> bhemu_tensix::sfpu::SfpuError {
        let mut ctx = SfpuContext {
            dst: &mut self.dst,
            dst_cfg: self.cfg,
            addr: 0,
            srcb_format: self.srcb,
        };
        match self.vu.execute(word, &mut ctx) {
            Ok(()) => panic!("{word:#010x} was expected to be undefined behaviour"),
            Err(e) => e,
        }
    }

    /// One cycle with `word` (or none) through the cycle-level entry point.
    pub fn cycle(&mut self, word: Option<u32>) -> bhemu_tensix::sfpu::Issued {
        let mut ctx = SfpuContext {
            dst: &mut self.dst,
            dst_cfg: self.cfg,
            addr: 0,
            srcb_format: self.srcb,
        };
        match self.vu.cycle(word, &mut ctx) {
            Ok(i) => i,
            Err(e) => panic!("{e}"),
        }
    }

    pub fn cycle_at(&mut self, word: Option<u32>, addr: u32) {
        let mut ctx = SfpuContext {
            dst: &mut self.dst,
            dst_cfg: self.cfg,
            addr,
            srcb_format: self.srcb,
        };
        if let Err(e) = self.vu.cycle(word, &mut ctx) {
            panic!("{e}");
        }
    }

    pub fn lreg(&self, r: usize) -> [u32; 32] {
        self.vu.state.lreg[r]
    }

    pub fn set(&mut self, r: usize, v: [u32; 32]) {
        self.vu.state.lreg[r] = v;
    }

    /// Fill `LReg[0..8]` with `f(reg, lane)`.
    pub fn fill(&mut self, mut f: impl FnMut(usize, usize) -> u32) {
        for r in 0..8 {
            for l in 0..32 {
                self.vu.state.lreg[r][l] = f(r, l);
            }
        }
    }
}

// ---- Encoders, from the pages' encoding diagrams: opcode in bits 24..31. ----

/// The common layout: Mod1 0..3, VD 4..7, VC 8..11, VB (or immediate) from bit 12.
pub fn enc(opcode: u32, imm_or_vb: u32, vc: u32, vd: u32, mod1: u32) -> u32 {
    (opcode << 24) | (imm_or_vb << 12) | (vc << 8) | (vd << 4) | mod1
}

/// SFPMAD-shaped: VA 16..19, VB 12..15, VC 8..11, VD 4..7, Mod1 0..3.
pub fn enc_mad(opcode: u32, va: u32, vb: u32, vc: u32, vd: u32, mod1: u32) -> u32 {
    (opcode << 24) | (va << 16) | (vb << 12) | (vc << 8) | (vd << 4) | mod1
}

/// SFPADDI / SFPMULI / SFPCONFIG: Imm16 8..23, VD 4..7, Mod1 0..3.
pub fn enc_imm16(opcode: u32, imm16: u32, vd: u32, mod1: u32) -> u32 {
    (opcode << 24) | (imm16 << 8) | (vd << 4) | mod1
}

/// SFPLOAD / SFPSTORE / SFPLOADI / SFPLUT: VD 20..23, Mod0 16..19, low 16 bits.
pub fn enc_mem(opcode: u32, vd: u32, mod0: u32, low16: u32) -> u32 {
    (opcode << 24) | (vd << 20) | (mod0 << 16) | low16
}

pub const SFPLOAD: u32 = 0x70;
pub const SFPLOADI: u32 = 0x71;
pub const SFPSTORE: u32 = 0x72;
pub const SFPLUT: u32 = 0x73;
pub const SFPMULI: u32 = 0x74;
pub const SFPADDI: u32 = 0x75;
pub const SFPDIVP2: u32 = 0x76;
pub const SFPEXEXP: u32 = 0x77;
pub const SFPEXMAN: u32 = 0x78;
pub const SFPIADD: u32 = 0x79;
pub const SFPSHFT: u32 = 0x7a;
pub const SFPSETCC: u32 = 0x7b;
pub const SFPMOV: u32 = 0x7c;
pub const SFPABS: u32 = 0x7d;
pub const SFPAND: u32 = 0x7e;
pub const SFPOR: u32 = 0x7f;
pub const SFPNOT: u32 = 0x80;
pub const SFPLZ: u32 = 0x81;
pub const SFPSETEXP: u32 = 0x82;
pub const SFPSETMAN: u32 = 0x83;
pub const SFPMAD: u32 = 0x84;
pub const SFPADD: u32 = 0x85;
pub const SFPMUL: u32 = 0x86;
pub const SFPPUSHC: u32 = 0x87;
pub const SFPPOPC: u32 = 0x88;
pub const SFPSETSGN: u32 = 0x89;
pub const SFPENCC: u32 = 0x8a;
pub const SFPCOMPC: u32 = 0x8b;
pub const SFPTRANSP: u32 = 0x8c;
pub const SFPXOR: u32 = 0x8d;
pub const SFPSTOCHRND: u32 = 0x8e;
pub const SFPNOP: u32 = 0x8f;
pub const SFPCAST: u32 = 0x90;
pub const SFPCONFIG: u32 = 0x91;
pub const SFPSWAP: u32 = 0x92;
pub const SFPLOADMACRO: u32 = 0x93;
pub const SFPSHFT2: u32 = 0x94;
pub const SFPLUTFP32: u32 = 0x95;
pub const SFPLE: u32 = 0x96;
pub const SFPGT: u32 = 0x97;
pub const SFPMUL24: u32 = 0x98;
pub const SFPARECIP: u32 = 0x99;

/// `SignMagIsSmaller` of SFPGT.md, restated: compare (sign, magnitude) pairs.
pub fn sm_less(c: u32, d: u32) -> bool {
    let (cs, cm) = (c >> 31, c & 0x7fff_ffff);
    let (ds, dm) = (d >> 31, d & 0x7fff_ffff);
    match (cs, ds) {
        (1, 0) => true,
        (0, 1) => false,
        (0, 0) => cm < dm,
        _ => cm > dm,
    }
}

/// Number of random 32-lane instructions per op so that each op sees at least 10^5 operands.
pub const VECTORS: usize = 100_000 / 32 + 1;

/// The independent bit-exact MAD model: a literal transcription of `fma_model_bh` as the
/// page Miscellaneous/FMA/README.md presents it (same variable names, same steps).
pub fn fma_model_bh(x: u32, y: u32, z: u32) -> u32 {
    let unpack = |v: u32| -> (i32, u32) {
        let e = ((v >> 23) & 255) as i32;
        let mut m = (v & 0x7fffff) ^ 0x800000;
        if e == 0 {
            m = 0;
        }
        (e, m)
    };
    let (x_e, x_m) = unpack(x);
    let (y_e, y_m) = unpack(y);
    let (z_e, z_m) = unpack(z);
    let z_sign = z & 0x80000000;
    let p_sign = (x ^ y) & 0x80000000;
    let mut p_m: u64 = x_m as u64 * y_m as u64;
    let mut p_e: i32 = x_e + y_e - 23 - 127;
    p_m <<= 3;
    let mut z_m: u32 = z_m << 3;
    p_m = (p_m >> 23) | ((p_m & 0x7fffff) != 0) as u64;
    p_e += 23;
    if x_e == 255 || y_e == 255 || p_e >= 255 || z_e == 255 {
        if (x_e == 255 && (x_m != 0x800000 || y_m == 0))
            || (y_e == 255 && (y_m != 0x800000 || x_m == 0))
            || (z_e == 255 && z_m != 0x4000000)
            || (z_e == 255 && (x_e == 255 || y_e == 255) && (z_sign != p_sign))
        {
            return 0x7fc00000;
        } else if z_e == 255 {
            return z;
        } else {
            return p_sign | 0x7f800000;
        }
    }
    if p_m == 0 || p_e < 0 {
        return if z_m != 0 { z } else { z_sign & p_sign };
    }
    let r_e0 = if p_e > z_e { p_e } else { z_e };
    if p_e < r_e0 {
        let s = r_e0 - p_e;
        if s >= 64 {
            p_m = 0;
        } else {
            let orig = p_m;
            p_m >>= s;
            if p_m != 0 {
                p_m |= ((p_m << s) != orig) as u64;
            }
        }
    }
    if z_e < r_e0 {
        let s = r_e0 - z_e;
        if s >= 32 {
            z_m = 0;
        } else {
            let orig = z_m;
            z_m >>= s;
            if z_m != 0 {
                z_m |= ((z_m << s) != orig) as u32;
            }
        }
    }
    let r_sign = if p_m >= z_m as u64 { p_sign } else { z_sign };
    if z_sign != r_sign {
        z_m = !z_m;
    }
    if p_sign != r_sign {
        p_m = !p_m;
    }
    let mut r_m: u32 = (z_m as u64)
        .wrapping_add(p_m)
        .wrapping_add((p_sign != z_sign) as u64) as u32;
    if r_m == 0 {
        return z_sign & p_sign;
    }
    let mut n: i32 = 5 - r_m.leading_zeros() as i32;
    let mut r_e = r_e0 + n;
    if r_e >= 255 {
        return r_sign | 0x7f800000;
    }
    if r_e <= 0 {
        n += 1;
        r_e = 0;
    }
    if n <= 0 {
        r_m <<= -n;
    } else {
        r_m = (r_m >> n) | ((r_m & (n as u32 | 1)) != 0) as u32;
    }
    let mut r: u32 = ((r_e as u32) << 23).wrapping_add((r_m >> 3) & 0x7fffff);
    r += (((r_m & 7) + (r & 1)) > 4) as u32;
    if r >> 23 == 0 {
        r = 0;
    }
    r_sign | r
}

pub type Regs = [[u32; 32]; 17];

/// Issue `word` on the current state and compare the whole register file with `reference`,
/// which gets the state before and computes, lane by lane, the state after.
pub fn check_word(b: &mut Bench, word: u32, reference: impl Fn(&Regs, usize, &mut Regs)) {
    let before = b.vu.state.lreg;
    let mut expected = before;
    for lane in 0..32 {
        reference(&before, lane, &mut expected);
    }
    b.run(word);
    // `r` and `lane` index the unit's LRegs and the expectation alike, and name them in messages.
    #[allow(clippy::needless_range_loop)]
    for r in 0..17 {
        for lane in 0..32 {
            assert_eq!(
                b.vu.state.lreg[r][lane],
                expected[r][lane],
                "word {word:#010x}: LReg[{r}][{lane}] = {:#010x}, expected {:#010x}; inputs \
                 L0..L7 of the lane: {:08x?}",
                b.vu.state.lreg[r][lane],
                expected[r][lane],
                (0..8).map(|i| before[i][lane]).collect::<Vec<_>>()
            );
        }
    }
}

/// Run `word` on `VECTORS` random register files (from `gen`) against `reference`.
pub fn random_check(
    seed: u64,
    word: u32,
    mut gen: impl FnMut(&mut Rng, usize) -> u32,
    reference: impl Fn(&Regs, usize, &mut Regs) + Copy,
) {
    let mut rng = Rng::new(seed);
    let mut b = Bench::new();
    for _ in 0..VECTORS {
        for r in 0..8 {
            for l in 0..32 {
                b.vu.state.lreg[r][l] = gen(&mut rng, r);
            }
        }
        check_word(&mut b, word, reference);
    }
}

/// `VD < 8 || VD == 16`.
pub fn writable(vd: usize) -> bool {
    vd < 8 || vd == 16
}

/// Like [`check_word`], also comparing `LaneFlags`: the reference gets the lane's flag to
/// update (flags start random, predication off).
pub fn check_flags(
    b: &mut Bench,
    word: u32,
    reference: impl Fn(&Regs, usize, &mut Regs, &mut bool),
) {
    let before = b.vu.state.lreg;
    let flags_before = b.vu.state.lane_flags;
    let mut expected = before;
    let mut flags = flags_before;
    for lane in 0..32 {
        let mut f = (flags_before >> lane) & 1 != 0;
        reference(&before, lane, &mut expected, &mut f);
        flags = (flags & !(1 << lane)) | ((f as u32) << lane);
    }
    b.run(word);
    assert_eq!(b.vu.state.lreg, expected, "word {word:#010x}: registers");
    assert_eq!(
        b.vu.state.lane_flags, flags,
        "word {word:#010x}: LaneFlags {:#010x}, expected {flags:#010x}",
        b.vu.state.lane_flags
    );
}

pub fn random_check_flags(
    seed: u64,
    word: u32,
    mut gen: impl FnMut(&mut Rng, usize) -> u32,
    reference: impl Fn(&Regs, usize, &mut Regs, &mut bool) + Copy,
) {
    let mut rng = Rng::new(seed);
    let mut b = Bench::new();
    for _ in 0..VECTORS {
        for r in 0..8 {
            for l in 0..32 {
                b.vu.state.lreg[r][l] = gen(&mut rng, r);
            }
        }
        b.vu.state.lane_flags = rng.u32();
        check_flags(&mut b, word, reference);
    }
}

/// SFPCONFIG with `Imm16`, target `VD` and `Mod1`.
pub fn config(imm16: u32, vd: u32, mod1: u32) -> u32 {
    enc_imm16(SFPCONFIG, imm16, vd, mod1)
}

/// A 32-lane value from a function of the lane index.
pub fn lanes8(f: impl Fn(usize) -> u32) -> [u32; 32] {
    std::array::from_fn(f)
}
