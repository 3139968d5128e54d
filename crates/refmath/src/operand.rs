//! Operands: "Operands" of `docs/matrix-unit.md`, rules O1–O3.

/// The format a Src bank holds (O2: the unpacker's output format, or the ALU format
/// registers when implied formats are disabled). Only the formats whose IEEE layout a caller
/// can hand over are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcFormat {
    /// 8-bit exponent, 7 mantissa bits.
    Bf16,
    /// 5-bit exponent, 10 mantissa bits.
    Fp16,
    /// 8-bit exponent, 10 mantissa bits (FP32 layout, low 13 mantissa bits ignored).
    Tf32,
    /// FP32 layout; O1 reads it at BF16 precision.
    Fp32,
}

/// One Src datum as the Matrix Unit reads it: sign, exponent field and the 10-bit mantissa
/// field (SrcASrcB.md's TF32 layout), already cut to its format's precision (O1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The bank's format (O1, O2).
    pub format: SrcFormat,
    /// Sign bit.
    pub neg: bool,
    /// Exponent field: 8 bits, or the low 5 for FP16 (O1).
    pub exp: u32,
    /// 10-bit mantissa field; the low 3 bits are 0 unless the format is FP16 or TF32 (O1).
    pub man: u32,
    /// O3's `ALU_ACC_CTRL_Zero_Flag_disabled_src` on a SrcB datum of an element-wise
    /// instruction: exponent 0 is then `1.m` with exponent 0, not zero.
    pub zero_flag_disabled: bool,
}

/// O1 Precision by format: the mantissa bits an operand keeps. FP16 and TF32 keep all 10;
/// every other format keeps the top 7 (the low 3 read as zero).
pub const fn o1_kept_mantissa(format: SrcFormat, man10: u32) -> u32 {
    match format {
        SrcFormat::Fp16 | SrcFormat::Tf32 => man10 & 0x3ff,
        SrcFormat::Bf16 | SrcFormat::Fp32 => man10 & 0x3f8,
    }
}

impl Operand {
    /// An operand of `format` from its IEEE bits (BF16 and FP16 in the low 16 bits of
    /// `bits`; TF32 and FP32 as FP32 bits). Only the fields enter; O1 cuts the mantissa.
    pub const fn new(format: SrcFormat, bits: u32) -> Self {
        let (neg, exp, man10) = match format {
            SrcFormat::Bf16 => ((bits >> 15) & 1, (bits >> 7) & 0xff, (bits & 0x7f) << 3),
            SrcFormat::Fp16 => ((bits >> 15) & 1, (bits >> 10) & 0x1f, bits & 0x3ff),
            SrcFormat::Tf32 | SrcFormat::Fp32 => {
                ((bits >> 31) & 1, (bits >> 23) & 0xff, (bits >> 13) & 0x3ff)
            }
        };
        Operand {
            format,
            neg: neg != 0,
            exp,
            man: o1_kept_mantissa(format, man10),
            zero_flag_disabled: false,
        }
    }

    /// A BF16 datum.
    pub const fn bf16(bits: u16) -> Self {
        Self::new(SrcFormat::Bf16, bits as u32)
    }

    /// An FP16 datum.
    pub const fn fp16(bits: u16) -> Self {
        Self::new(SrcFormat::Fp16, bits as u32)
    }

    /// A TF32 datum, given as FP32 bits (the low 13 mantissa bits do not exist in Src).
    pub const fn tf32(bits: u32) -> Self {
        Self::new(SrcFormat::Tf32, bits)
    }

    /// An FP32 datum, read at BF16 precision (O1).
    pub const fn fp32(bits: u32) -> Self {
        Self::new(SrcFormat::Fp32, bits)
    }

    /// O3 with `ALU_ACC_CTRL_Zero_Flag_disabled_src`: for a SrcB datum of ELWADD, ELWSUB or
    /// ELWMUL, exponent 0 is `1.m` with exponent 0.
    pub const fn with_zero_flag_disabled(mut self) -> Self {
        self.zero_flag_disabled = true;
        self
    }

    /// O2's last sentence, asked of SrcA: exponents are 8-bit unless SrcA holds FP16 (the
    /// FP8 forms, the other 5-bit formats, have no IEEE layout here).
    pub const fn e8(&self) -> bool {
        !matches!(self.format, SrcFormat::Fp16)
    }

    /// O3 Zero: exponent field 0 is zero, whatever the mantissa and sign (unless the zero
    /// flag is disabled). Exponent 255 (FP16: 31) is an ordinary finite exponent.
    pub const fn is_zero(&self) -> bool {
        self.exp == 0 && !self.zero_flag_disabled
    }

    /// O3: the 11-bit significand `1.m` (implicit one at bit 10), or 0 for a zero operand.
    pub const fn significand(&self) -> u32 {
        if self.is_zero() {
            0
        } else {
            (1 << 10) | self.man
        }
    }

    /// The same operand with its sign flipped (ELWSUB's SrcB, T1).
    pub const fn negated(mut self) -> Self {
        self.neg = !self.neg;
        self
    }
}
