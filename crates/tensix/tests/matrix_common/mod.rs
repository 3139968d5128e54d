//! Shared by the `matrix_*` tests: a fixed-seed xorshift generator, operand generators, a
//! harness that runs one instruction through `MatrixUnit::execute`, and the *reference*:
//! the bit layouts of SrcASrcB.md / Dst.md decoded here by hand, and the arithmetic of
//! `docs/matrix-unit.md` (silicon's datapath) computed by `bhemu-refmath`, which is written
//! from that page alone and shares no code with the unit under test. Integer math (its own
//! section of the page: exact products, saturating accumulation) is computed here.
#![allow(dead_code)]

use bhemu_isa::tensix::{blackhole::Insn, Arch};
use bhemu_refmath::{DstKind, Operand};
use bhemu_tensix::matrix::{MathFormat, MathRegs, MatrixCtx, MatrixUnit, Retired};
use bhemu_tensix::state::{DestAccessCfg, Dst, SrcData};
use bhemu_tensix::TensixError;

/// xorshift64 with a fixed seed per test.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn bit(&mut self) -> bool {
        self.next() & 1 != 0
    }
}

/// The reference's operand style (the pages' `SrcAStyle`) and the format code that selects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Bf16,
    Fp16,
    Tf32,
    Int8,
}

/// Format configurations: (style, UseDst32b, MathFormat).
pub fn configs() -> Vec<(Style, bool, MathFormat)> {
    let f = |code: u32, fp32: bool| MathFormat {
        src_a_format: code,
        fp32_enabled: fp32,
        ..MathFormat::default()
    };
    vec![
        (Style::Bf16, false, f(5, false)),
        (Style::Bf16, true, f(5, true)),
        (Style::Fp16, false, f(1, false)),
        (Style::Fp16, true, f(1, true)),
        (Style::Tf32, false, f(4, false)),
        (Style::Tf32, true, f(4, true)),
        (
            Style::Int8,
            true,
            MathFormat {
                int8_math_enabled: true,
                ..MathFormat::default()
            },
        ),
    ]
}

// ---- Src layouts (SrcASrcB.md; GMPOOL.md ReadAndScaleSrc comments) ----

/// TF32/BF16 in Src: Sign(18), Man(17:8), Exp(7:0).
pub fn src_fp(sign: u32, man10: u32, exp8: u32) -> u32 {
    (sign << 18) | (man10 << 8) | exp8
}

/// A random Src datum of `style`; about 1 in 16 is a zero or a denormal pattern (exponent 0).
pub fn random_src(r: &mut Rng, style: Style) -> u32 {
    let sign = r.bit() as u32;
    let zeroish = r.below(16) == 0;
    match style {
        Style::Bf16 | Style::Tf32 => {
            let man = r.below(1024) as u32;
            let man = if style == Style::Bf16 {
                man & 0x3f8
            } else {
                man
            };
            // Mostly moderate exponents; one in eight anywhere, 255 included (O3: finite).
            let exp = if zeroish {
                0
            } else if r.below(8) == 0 {
                1 + r.below(255) as u32
            } else {
                96 + r.below(64) as u32
            };
            src_fp(sign, man, exp)
        }
        Style::Fp16 => {
            let exp = if zeroish { 0 } else { 1 + r.below(31) as u32 };
            src_fp(sign, r.below(1024) as u32, exp)
        }
        Style::Int8 => {
            let mag = if zeroish { 0 } else { r.below(1024) as u32 };
            (sign << 18) | (mag << 8) | if mag != 0 { 16 } else { 0 }
        }
    }
}

/// A Src datum (SrcASrcB.md's layout: Sign(18), Man(17:8), Exp(7:0)) as the IEEE bits of
/// its style's format, handed to `bhemu-refmath` (which applies O1 and O3).
pub fn src_operand(style: Style, v: u32) -> Operand {
    let sign = (v >> 18) & 1;
    let man = (v >> 8) & 0x3ff;
    let exp = v & 0xff;
    match style {
        // BF16 keeps the top 7 mantissa bits (O1); the low three are dropped here.
        Style::Bf16 => Operand::bf16(((sign << 15) | (exp << 7) | (man >> 3)) as u16),
        Style::Tf32 => Operand::tf32((sign << 31) | (exp << 23) | (man << 13)),
        // FP16 reads the exponent's low 5 bits (O1).
        Style::Fp16 => Operand::fp16(((sign << 15) | ((exp & 0x1f) << 10) | man) as u16),
        Style::Int8 => panic!("integer datum read as float"),
    }
}

/// The Dst format of a float configuration: FP32 for a 32-bit Dst, else BF16 with 8-bit
/// exponents and FP16 with 5-bit ones.
pub fn dst_kind(style: Style, dst32: bool) -> DstKind {
    if dst32 {
        DstKind::Fp32
    } else {
        DstKind::sixteen(style != Style::Fp16)
    }
}

pub fn ref_read_int8(v: u32) -> i32 {
    let mag = ((v >> 8) & 0x3ff) as i32;
    if v >> 18 != 0 {
        -mag
    } else {
        mag
    }
}

// ---- Dst layouts (Dst.md) and the Dst write helpers ----

/// IEEE FP32 bits to the Dst32b layout: Sign, Man[22:16], Exp, Man[15:0].
pub fn ieee_to_dst32(i: u32) -> u32 {
    let sign = i & 0x8000_0000;
    let exp = (i >> 23) & 0xff;
    let man_hi = (i >> 16) & 0x7f;
    sign | (man_hi << 24) | (exp << 16) | (i & 0xffff)
}

pub fn dst32_to_ieee(d: u32) -> u32 {
    let sign = d & 0x8000_0000;
    let man_hi = (d >> 24) & 0x7f;
    let exp = (d >> 16) & 0xff;
    sign | (exp << 23) | (man_hi << 16) | (d & 0xffff)
}

/// Dst16b BF16 (Sign, Man(7), Exp(8)) to IEEE BF16 bits and back.
pub fn dst16_bf16_to_ieee(v: u16) -> u16 {
    (v & 0x8000) | ((v & 0xff) << 7) | ((v >> 8) & 0x7f)
}

pub fn ieee_bf16_to_dst16(h: u16) -> u16 {
    (h & 0x8000) | ((h & 0x7f) << 8) | ((h >> 7) & 0xff)
}

/// Dst16b FP16 (Sign, Man(10), Exp(5)) to IEEE FP16 bits and back.
pub fn dst16_fp16_to_ieee(v: u16) -> u16 {
    (v & 0x8000) | ((v & 0x1f) << 10) | ((v >> 5) & 0x3ff)
}

pub fn ieee_fp16_to_dst16(h: u16) -> u16 {
    (h & 0x8000) | ((h & 0x3ff) << 5) | ((h >> 10) & 0x1f)
}

pub fn ref_read_dst_int32(d: u32) -> i32 {
    let i = dst32_to_ieee(d);
    let mag = (i & 0x7fff_ffff) as i32;
    if i >> 31 != 0 {
        -mag
    } else {
        mag
    }
}

pub fn ref_write_dst_int32(x: i32) -> u32 {
    let sign = if x < 0 { 0x8000_0000 } else { 0 };
    ieee_to_dst32(sign | x.unsigned_abs())
}

pub fn ref_saturate_add(a: i32, b: i32) -> i32 {
    let s = a as i64 + b as i64;
    s.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32
}

/// The reference's own Dst storage with Dst16b / Dst32b views (Dst.md, no remap/swizzle).
#[derive(Clone)]
pub struct RefDst(pub Vec<[u16; 16]>);

impl RefDst {
    pub fn adj32(r: u32) -> usize {
        let r = r & 0x3ff;
        (((r & 0x1f8) << 1) | (r & 0x207)) as usize
    }
    pub fn r16(&self, row: u32, c: usize) -> u16 {
        self.0[(row & 0x3ff) as usize][c]
    }
    pub fn w16(&mut self, row: u32, c: usize, v: u16) {
        self.0[(row & 0x3ff) as usize][c] = v;
    }
    pub fn r32(&self, row: u32, c: usize) -> u32 {
        let a = Self::adj32(row);
        ((self.0[a][c] as u32) << 16) | self.0[a + 8][c] as u32
    }
    pub fn w32(&mut self, row: u32, c: usize, v: u32) {
        let a = Self::adj32(row);
        self.0[a][c] = (v >> 16) as u16;
        self.0[a + 8][c] = v as u16;
    }

    /// The Dst datum at (`row`, `c`) as IEEE bits of [`dst_kind`]`(style, dst32)`.
    pub fn read_ieee(&self, style: Style, dst32: bool, row: u32, c: usize) -> u32 {
        match dst_kind(style, dst32) {
            DstKind::Fp32 => dst32_to_ieee(self.r32(row, c)),
            DstKind::Bf16 => dst16_bf16_to_ieee(self.r16(row, c)) as u32,
            DstKind::Fp16 => dst16_fp16_to_ieee(self.r16(row, c)) as u32,
        }
    }

    /// Writes IEEE bits of [`dst_kind`]`(style, dst32)` at (`row`, `c`) in Dst's layout.
    pub fn write_ieee(&mut self, style: Style, dst32: bool, row: u32, c: usize, bits: u32) {
        match dst_kind(style, dst32) {
            DstKind::Fp32 => self.w32(row, c, ieee_to_dst32(bits)),
            DstKind::Bf16 => self.w16(row, c, ieee_bf16_to_dst16(bits as u16)),
            DstKind::Fp16 => self.w16(row, c, ieee_fp16_to_dst16(bits as u16)),
        }
    }

    pub fn store_int(&mut self, row: u32, c: usize, x: i32, add: bool) {
        let r = if add {
            ref_saturate_add(x, ref_read_dst_int32(self.r32(row, c)))
        } else {
            x
        };
        self.w32(row, c, ref_write_dst_int32(r));
    }
}

/// Random Dst data for the style's Dst view: mostly moderate exponents, some anywhere.
pub fn random_dst_fill(r: &mut Rng, style: Style, dst32: bool, d: &mut RefDst) {
    for row in 0..1024u32 {
        for c in 0..16 {
            if dst32 {
                if row & 8 != 0 {
                    continue; // Dst32b rows fill both halves through w32.
                }
                let v = if style == Style::Int8 {
                    let m = r.below(1 << 31) as i32;
                    let m = if r.below(4) == 0 { m } else { m >> r.below(31) };
                    ref_write_dst_int32(if r.bit() { -m } else { m })
                } else {
                    // One in eight anywhere: exponent 0 (zero) and 255 (finite) included.
                    let exp = if r.below(8) == 0 {
                        r.below(256) as u32
                    } else {
                        96 + r.below(64) as u32
                    };
                    let ieee =
                        ((r.bit() as u32) << 31) | (exp << 23) | (r.next() as u32 & 0x7f_ffff);
                    ieee_to_dst32(ieee)
                };
                // Rows with bit 3 clear, mapped through Adj32 from the 10-bit row space.
                let a = row as usize;
                d.0[a][c] = (v >> 16) as u16;
                d.0[a + 8][c] = v as u16;
            } else if style == Style::Fp16 {
                let exp = if r.below(16) == 0 {
                    0
                } else {
                    1 + r.below(31) as u16
                };
                d.0[row as usize][c] =
                    ((r.bit() as u16) << 15) | ((r.below(1024) as u16) << 5) | exp;
            } else {
                let exp = if r.below(8) == 0 {
                    r.below(256) as u16
                } else {
                    96 + r.below(64) as u16
                };
                d.0[row as usize][c] =
                    ((r.bit() as u16) << 15) | ((r.below(128) as u16) << 8) | exp;
            }
        }
    }
}

/// The device under test plus the reference's copy of Dst.
pub struct Machine {
    pub unit: MatrixUnit,
    pub src_a: SrcData,
    pub src_b: SrcData,
    pub dst: Dst,
    pub reference: RefDst,
}

impl Machine {
    pub fn new() -> Self {
        Machine {
            unit: MatrixUnit::new(),
            src_a: SrcData::new(),
            src_b: SrcData::new(),
            dst: Dst::new(),
            reference: RefDst(vec![[0; 16]; 1024]),
        }
    }

    pub fn fill_src(&mut self, r: &mut Rng, style: Style) {
        for bank in 0..2 {
            for row in 0..64 {
                for col in 0..16 {
                    self.src_a.write(bank, row, col, random_src(r, style));
                    self.src_b.write(bank, row, col, random_src(r, style));
                }
            }
        }
    }

    pub fn fill_dst(&mut self, r: &mut Rng, style: Style, dst32: bool) {
        random_dst_fill(r, style, dst32, &mut self.reference);
        self.sync_dst_from_reference();
    }

    pub fn sync_dst_from_reference(&mut self) {
        for (row, vals) in self.reference.0.iter().enumerate() {
            self.dst.bits_mut()[row] = *vals;
        }
    }

    pub fn run(&mut self, word: u32, regs: MathRegs) -> Result<Retired, TensixError> {
        let mut ctx = MatrixCtx {
            src_a: &self.src_a,
            src_b: &self.src_b,
            dst: &mut self.dst,
            regs,
            thread: 1,
            cycle: 100,
        };
        self.unit.execute(Arch::Blackhole, word, &mut ctx)
    }

    /// Panics with the first differing Dst datum (row of DstBits, column, both values).
    pub fn assert_dst_matches(&self, what: &str) {
        for (row, (got, want)) in self
            .dst
            .bits()
            .iter()
            .zip(self.reference.0.iter())
            .enumerate()
        {
            if got != want {
                let c = (0..16).find(|&c| got[c] != want[c]).unwrap_or(0);
                panic!(
                    "{what}: DstBits[{row}][{c}] = {:#06x}, reference {:#06x}",
                    got[c], want[c]
                );
            }
        }
    }
}

pub fn regs(format: MathFormat, rwc_a: u32, rwc_b: u32, dst_base: u32, phase: u32) -> MathRegs {
    MathRegs {
        src_a_bank: 0,
        src_b_bank: 0,
        rwc_src_a: rwc_a,
        rwc_src_b: rwc_b,
        dst_row_base: dst_base,
        fidelity_phase: phase,
        format,
        dest_access: DestAccessCfg::default(),
        zeroacc_absolute_tile_mode: false,
    }
}

pub fn elw_word(
    op: u8,
    flip: u8,
    add_dst: bool,
    bcast_row: bool,
    bcast_col0: bool,
    dst: u16,
) -> u32 {
    let mod19 = ((bcast_row as u8) << 1) | bcast_col0 as u8;
    let (clear_dvalid, dest_accum_en, instr_mod19, addr_mode) = (flip, add_dst as u8, mod19, 0);
    match op {
        0x28 => Insn::Elwadd {
            clear_dvalid,
            dest_accum_en,
            instr_mod19,
            addr_mode,
            dst,
        },
        0x30 => Insn::Elwsub {
            clear_dvalid,
            dest_accum_en,
            instr_mod19,
            addr_mode,
            dst,
        },
        _ => Insn::Elwmul {
            clear_dvalid,
            dest_accum_en,
            instr_mod19,
            addr_mode,
            dst,
        },
    }
    .encode()
}

/// Random operand rounds per configuration: 800 instructions of 128 results = 102,400 results
/// per configuration in release builds (CI); a tenth in debug builds.
pub const ROUNDS: usize = if cfg!(debug_assertions) { 80 } else { 800 };
