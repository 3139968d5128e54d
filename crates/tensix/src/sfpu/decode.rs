//! Field extraction for Vector Unit (SFPU) instruction words.
//!
//! Bit positions come from the encoding diagrams of each instruction page
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFP*.md, "Encoding"):
//! opcode in bits 24..31; for most instructions `Mod1` 0..3, `VD` 4..7, `VC` 8..11,
//! `VB` 12..15 (or an immediate from bit 12), `VA` 16..19; `SFPLOAD` / `SFPLOADI` /
//! `SFPSTORE` / `SFPLUT` put `Mod0` at 16..19 and `VD` at 20..23.

/// A Vector Unit opcode: the generated table's [`SfpuOpcode`](bhemu_isa::tensix::blackhole::SfpuOpcode)
/// (its instructions whose unit is the SFPU), so the SFPU keys on the same identity and name
/// (`SFP_STOCH_RND`) as every other unit, and matches it exhaustively.
pub use bhemu_isa::tensix::blackhole::SfpuOpcode as Op;

/// The opcode of `word` if the table puts it on the Vector Unit.
pub fn sfpu_op(word: u32) -> Option<Op> {
    Op::from_u8((word >> 24) as u8)
}

/// Instructions with a `VB` field in their encoding (others use `VB = VD` where they read
/// a `VB` at all). The YAML's fields differ from the pages' here (SFPSHFT2's `VB` sits in its
/// `imm12_math`), so this is the pages' fact, kept beside the decode that uses it.
pub fn has_vb_field(op: Op) -> bool {
    matches!(
        op,
        Op::Sfpmad
            | Op::Sfpadd
            | Op::Sfpmul
            | Op::Sfpmul24
            | Op::Sfpand
            | Op::Sfpor
            | Op::Sfpshft2
            | Op::SfpStochRnd
            | Op::Sfparecip
    )
}

/// Instructions without a `VC` field (SFPADDI / SFPMULI then use `VC = VD`).
pub fn has_vc_field(op: Op) -> bool {
    !matches!(
        op,
        Op::Sfpaddi
            | Op::Sfpmuli
            | Op::Sfplut
            | Op::Sfplutfp32
            | Op::Sfploadi
            | Op::Sfpload
            | Op::Sfpstore
            | Op::Sfpconfig
            | Op::Sfpnop
            | Op::Sfploadmacro
    )
}

/// The MAD sub-unit's instructions (BlackholeA0 VectorUnit.md): the table's 2-cycle
/// (`timing::SFPU_MAD`) instructions except SFPSWAP, which runs on the simple sub-unit.
pub fn is_mad_unit(op: Op) -> bool {
    op.def().latency == bhemu_isa::tensix::timing::SFPU_MAD && op != Op::Sfpswap
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
        let op = sfpu_op(word)?;
        let (vd, modifier) = match op {
            Op::Sfpload | Op::Sfploadi | Op::Sfpstore | Op::Sfplut => {
                (nib(word, 20), nib(word, 16))
            }
            Op::Sfploadmacro => (
                ((word >> 20) & 3) as u8 | (((word & 1) as u8) << 2),
                nib(word, 16),
            ),
            Op::SfpStochRnd => (nib(word, 4), (word & 7) as u8),
            _ => (nib(word, 4), nib(word, 0)),
        };
        let vc = if has_vc_field(op) { nib(word, 8) } else { vd };
        let vb = if has_vb_field(op) { nib(word, 12) } else { vd };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's SFPU unit is Blackhole's 0x70..=0x99 block (VectorUnit.md), nothing else.
    #[test]
    fn the_vector_unit_opcodes_are_0x70_to_0x99() {
        let ops: Vec<u8> = (0..=255u8)
            .filter(|&o| sfpu_op(u32::from(o) << 24).is_some())
            .collect();
        assert_eq!(ops, (0x70..=0x99).collect::<Vec<u8>>());
    }

    /// The MAD sub-unit, derived from the table's latency, is the list VectorUnit.md gives.
    #[test]
    fn the_mad_sub_unit_is_the_documented_list() {
        let mad: Vec<&str> = (0..=255u8)
            .filter_map(Op::from_u8)
            .filter(|&o| is_mad_unit(o))
            .map(Op::name)
            .collect();
        assert_eq!(
            mad,
            [
                "SFPLUT",
                "SFPMULI",
                "SFPADDI",
                "SFPMAD",
                "SFPADD",
                "SFPMUL",
                "SFPLUTFP32",
                "SFPMUL24"
            ]
        );
    }
}
