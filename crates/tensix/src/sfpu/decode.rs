//! Field extraction for Vector Unit (SFPU) instruction words.
//!
//! Bit positions come from the encoding diagrams of each instruction page
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFP*.md, "Encoding"):
//! opcode in bits 24..31; for most instructions `Mod1` 0..3, `VD` 4..7, `VC` 8..11,
//! `VB` 12..15 (or an immediate from bit 12), `VA` 16..19; `SFPLOAD` / `SFPLOADI` /
//! `SFPSTORE` / `SFPLUT` put `Mod0` at 16..19 and `VD` at 20..23.

/// Every Vector Unit opcode of the Blackhole table (0x70..=0x99).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Load,
    LoadI,
    Store,
    Lut,
    MulI,
    AddI,
    DivP2,
    ExExp,
    ExMan,
    IAdd,
    Shft,
    SetCc,
    Mov,
    Abs,
    And,
    Or,
    Not,
    Lz,
    SetExp,
    SetMan,
    Mad,
    Add,
    Mul,
    PushC,
    PopC,
    SetSgn,
    EnCc,
    CompC,
    Transp,
    Xor,
    StochRnd,
    Nop,
    Cast,
    Config,
    Swap,
    LoadMacro,
    Shft2,
    LutFp32,
    Le,
    Gt,
    Mul24,
    ARecip,
}

const OPS: [Op; 42] = [
    Op::Load,
    Op::LoadI,
    Op::Store,
    Op::Lut,
    Op::MulI,
    Op::AddI,
    Op::DivP2,
    Op::ExExp,
    Op::ExMan,
    Op::IAdd,
    Op::Shft,
    Op::SetCc,
    Op::Mov,
    Op::Abs,
    Op::And,
    Op::Or,
    Op::Not,
    Op::Lz,
    Op::SetExp,
    Op::SetMan,
    Op::Mad,
    Op::Add,
    Op::Mul,
    Op::PushC,
    Op::PopC,
    Op::SetSgn,
    Op::EnCc,
    Op::CompC,
    Op::Transp,
    Op::Xor,
    Op::StochRnd,
    Op::Nop,
    Op::Cast,
    Op::Config,
    Op::Swap,
    Op::LoadMacro,
    Op::Shft2,
    Op::LutFp32,
    Op::Le,
    Op::Gt,
    Op::Mul24,
    Op::ARecip,
];

/// First Vector Unit opcode (`SFPLOAD`).
pub const FIRST_OPCODE: u32 = 0x70;

impl Op {
    /// The opcode in bits 24..31 of `word`, if it is a Vector Unit instruction.
    pub fn from_word(word: u32) -> Option<Op> {
        let opc = word >> 24;
        opc.checked_sub(FIRST_OPCODE)
            .and_then(|i| OPS.get(i as usize).copied())
    }

    /// The opcode value.
    pub fn opcode(self) -> u32 {
        // The enum lists the opcodes in encoding order.
        FIRST_OPCODE + self as u32
    }

    /// The hardware's mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            Op::Load => "SFPLOAD",
            Op::LoadI => "SFPLOADI",
            Op::Store => "SFPSTORE",
            Op::Lut => "SFPLUT",
            Op::MulI => "SFPMULI",
            Op::AddI => "SFPADDI",
            Op::DivP2 => "SFPDIVP2",
            Op::ExExp => "SFPEXEXP",
            Op::ExMan => "SFPEXMAN",
            Op::IAdd => "SFPIADD",
            Op::Shft => "SFPSHFT",
            Op::SetCc => "SFPSETCC",
            Op::Mov => "SFPMOV",
            Op::Abs => "SFPABS",
            Op::And => "SFPAND",
            Op::Or => "SFPOR",
            Op::Not => "SFPNOT",
            Op::Lz => "SFPLZ",
            Op::SetExp => "SFPSETEXP",
            Op::SetMan => "SFPSETMAN",
            Op::Mad => "SFPMAD",
            Op::Add => "SFPADD",
            Op::Mul => "SFPMUL",
            Op::PushC => "SFPPUSHC",
            Op::PopC => "SFPPOPC",
            Op::SetSgn => "SFPSETSGN",
            Op::EnCc => "SFPENCC",
            Op::CompC => "SFPCOMPC",
            Op::Transp => "SFPTRANSP",
            Op::Xor => "SFPXOR",
            Op::StochRnd => "SFPSTOCHRND",
            Op::Nop => "SFPNOP",
            Op::Cast => "SFPCAST",
            Op::Config => "SFPCONFIG",
            Op::Swap => "SFPSWAP",
            Op::LoadMacro => "SFPLOADMACRO",
            Op::Shft2 => "SFPSHFT2",
            Op::LutFp32 => "SFPLUTFP32",
            Op::Le => "SFPLE",
            Op::Gt => "SFPGT",
            Op::Mul24 => "SFPMUL24",
            Op::ARecip => "SFPARECIP",
        }
    }

    /// Instructions with a `VB` field in their encoding (others use `VB = VD` where they read
    /// a `VB` at all).
    pub fn has_vb_field(self) -> bool {
        matches!(
            self,
            Op::Mad
                | Op::Add
                | Op::Mul
                | Op::Mul24
                | Op::And
                | Op::Or
                | Op::Shft2
                | Op::StochRnd
                | Op::ARecip
        )
    }

    /// Instructions without a `VC` field (SFPADDI / SFPMULI then use `VC = VD`).
    pub fn has_vc_field(self) -> bool {
        !matches!(
            self,
            Op::AddI
                | Op::MulI
                | Op::Lut
                | Op::LutFp32
                | Op::LoadI
                | Op::Load
                | Op::Store
                | Op::Config
                | Op::Nop
                | Op::LoadMacro
        )
    }

    /// The MAD sub-unit's instructions (2-cycle latency).
    pub fn is_mad_unit(self) -> bool {
        matches!(
            self,
            Op::Mad | Op::Add | Op::Mul | Op::MulI | Op::AddI | Op::Lut | Op::LutFp32 | Op::Mul24
        )
    }
}

/// One decoded instruction with its register operands resolved, as a sub-unit sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub op: Op,
    /// The instruction word (immediates are read from it by each instruction's function).
    pub word: u32,
    /// `Mod1` (or `Mod0` for the instructions that call it that).
    pub modifier: u8,
    /// Result (or for SFPSTORE: source) register index: 0..=15, or 16 via SFPLOADMACRO.
    pub vd: u8,
    pub vc: u8,
    pub vb: u8,
    pub va: u8,
    /// Scheduled by SFPLOADMACRO: no backdoor template writes, no RWC update, the store
    /// address is the one computed at the SFPLOADMACRO.
    pub from_macro: bool,
}

#[inline(always)]
fn nib(word: u32, at: u32) -> u8 {
    ((word >> at) & 15) as u8
}

impl Insn {
    /// Decode `word` as issued by a thread (`None` if it is not a Vector Unit instruction).
    pub fn decode(word: u32) -> Option<Insn> {
        let op = Op::from_word(word)?;
        let (vd, modifier) = match op {
            Op::Load | Op::LoadI | Op::Store | Op::Lut => (nib(word, 20), nib(word, 16)),
            Op::LoadMacro => (
                ((word >> 20) & 3) as u8 | (((word & 1) as u8) << 2),
                nib(word, 16),
            ),
            Op::StochRnd => (nib(word, 4), (word & 7) as u8),
            _ => (nib(word, 4), nib(word, 0)),
        };
        let vc = if op.has_vc_field() { nib(word, 8) } else { vd };
        let vb = if op.has_vb_field() { nib(word, 12) } else { vd };
        Some(Insn {
            op,
            word,
            modifier,
            vd,
            vc,
            vb,
            va: nib(word, 16),
            from_macro: false,
        })
    }

    /// Signed 12-bit immediate in bits 12..23.
    pub fn imm12(&self) -> i32 {
        (((self.word >> 12) & 0xfff) as i32) << 20 >> 20
    }

    /// Unsigned 12-bit immediate in bits 12..23.
    pub fn uimm12(&self) -> u32 {
        (self.word >> 12) & 0xfff
    }

    /// 16-bit immediate in bits 8..23 (SFPADDI, SFPMULI, SFPCONFIG).
    pub fn imm16_math(&self) -> u32 {
        (self.word >> 8) & 0xffff
    }

    /// 10-bit Dst address immediate in bits 0..9 (SFPLOAD, SFPSTORE, SFPLOADMACRO).
    pub fn imm10(&self) -> u32 {
        self.word & 0x3ff
    }
}
