//! Vector Unit (SFPU) operands, from the generated instruction table's typed fields.
//!
//! The table splits each word into its fields (docs/instruction-table.md); the shape
//! constructors here resolve what the encoding diagrams of each instruction page
//! (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFP*.md, "Encoding") add
//! on top: which register an instruction without a `VB` / `VC` field reads instead, where
//! SFPLOADMACRO's `VD` and `MacroIndex` sit, which bits of a wide table field are the
//! register index.

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

/// One Vector Unit instruction with its operands resolved, as a sub-unit sees it: built from
/// the generated table's typed fields (the coprocessor's `Visit` methods call the shape
/// constructors below; [`Insn::decode`] does the same for words the unit reads back from
/// SFPLOADMACRO templates), so no SFPU function extracts bits from an instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub op: Op,
    /// The instruction word as issued. Not read for fields: it is the datum the backdoor
    /// load writes into `LoadMacroConfig.InstructionTemplate`, and what errors name.
    pub word: u32,
    /// `Mod1` (or `Mod0` for the instructions that call it that).
    pub modifier: u8,
    /// Result (or for SFPSTORE: source) register index: 0..=15, or 16 via SFPLOADMACRO.
    pub vd: u8,
    pub vc: u8,
    pub vb: u8,
    pub va: u8,
    /// The shape's immediate: `Imm12` (bits 12..23) for the register-and-immediate shape,
    /// `Imm16` for SFPLOADI / SFPADDI / SFPMULI / SFPCONFIG, the `Imm10` `Dst` address for
    /// SFPLOAD / SFPSTORE / SFPLOADMACRO, `Imm5` for SFP_STOCH_RND; 0 where there is none.
    pub imm: u32,
    /// SFPLOAD / SFPSTORE / SFPLOADMACRO: the 3-bit `AddrMod` (bits 13..15).
    pub addr_mode: u8,
    /// SFPLOADMACRO: `MacroIndex` (bits 22..23).
    pub macro_index: u8,
    /// SFP_STOCH_RND: the rounding mode (bits 21..22).
    pub rounding: u8,
    /// SFP_STOCH_RND: `Mod1` bit 3, the shift amount comes from `Imm5` rather than `VB`.
    pub shift_from_imm: bool,
    /// Scheduled by SFPLOADMACRO: no backdoor template writes, no RWC update, the store
    /// address is the one computed at the SFPLOADMACRO.
    pub from_macro: bool,
}

impl Insn {
    /// The fields every shape starts from: `VC = VB = VD` (instructions without those
    /// fields), no immediate.
    fn base(op: Op, word: u32, vd: u8, modifier: u8) -> Insn {
        Insn {
            op,
            word,
            modifier,
            vd,
            vc: vd,
            vb: vd,
            va: 0,
            imm: 0,
            addr_mode: 0,
            macro_index: 0,
            rounding: 0,
            shift_from_imm: false,
            from_macro: false,
        }
    }

    /// SFPLOAD / SFPSTORE / SFPLOADMACRO: `VD` (for SFPLOADMACRO `VDHi:VDLo`, the high bit
    /// being bit 0 of `Imm10`, and `MacroIndex` above `VDLo`), `Mod0`, `AddrMod`, `Imm10`.
    pub fn dst_access(
        op: Op,
        word: u32,
        lreg_ind: u8,
        instr_mod0: u8,
        sfpu_addr_mode: u8,
        dest_reg_addr: u16,
    ) -> Insn {
        let (vd, macro_index) = if op == Op::Sfploadmacro {
            (
                (lreg_ind & 3) | ((dest_reg_addr as u8 & 1) << 2),
                lreg_ind >> 2,
            )
        } else {
            (lreg_ind, 0)
        };
        Insn {
            va: instr_mod0,
            imm: u32::from(dest_reg_addr) & 0x3ff,
            addr_mode: sfpu_addr_mode,
            macro_index,
            ..Insn::base(op, word, vd, instr_mod0)
        }
    }

    /// SFPLOADI: `VD`, `Mod0`, `Imm16`.
    pub fn load_imm(word: u32, lreg_ind: u8, instr_mod0: u8, imm16: u16) -> Insn {
        Insn {
            va: instr_mod0,
            imm: u32::from(imm16),
            ..Insn::base(Op::Sfploadi, word, lreg_ind, instr_mod0)
        }
    }

    /// SFPLUT: `VD`, `Mod0`.
    pub fn lut(word: u32, lreg_ind: u8, instr_mod0: u8, _dest_reg_addr: u16) -> Insn {
        Insn {
            va: instr_mod0,
            ..Insn::base(Op::Sfplut, word, lreg_ind, instr_mod0)
        }
    }

    /// SFPADDI / SFPMULI / SFPCONFIG: `Imm16`, `VD` (SFPCONFIG's configuration target),
    /// `Mod1`; `VC = VD`.
    pub fn imm16(op: Op, word: u32, imm16_math: u16, lreg_dest: u8, instr_mod1: u8) -> Insn {
        Insn {
            va: (imm16_math >> 8) as u8 & 15,
            imm: u32::from(imm16_math),
            ..Insn::base(op, word, lreg_dest, instr_mod1)
        }
    }

    /// The register-and-immediate shape (SFPIADD, SFPSHFT, SFPSETCC, SFPSWAP, ...):
    /// `Imm12`, `VC`, `VD`, `Mod1`; instructions with a `VB` field ([`has_vb_field`]) have
    /// it in the immediate's low four bits.
    pub fn reg_imm(
        op: Op,
        word: u32,
        imm12_math: u16,
        lreg_c: u8,
        lreg_dest: u8,
        instr_mod1: u8,
    ) -> Insn {
        let vb = if has_vb_field(op) {
            imm12_math as u8 & 15
        } else {
            lreg_dest
        };
        Insn {
            vc: lreg_c,
            vb,
            va: (imm12_math >> 4) as u8 & 15,
            imm: u32::from(imm12_math),
            ..Insn::base(op, word, lreg_dest, instr_mod1)
        }
    }

    /// SFPMAD / SFPADD / SFPMUL / SFPMUL24: `VA`, `VB`, `VC`, `VD`, `Mod1`.
    pub fn mad(
        op: Op,
        word: u32,
        lreg_src_a: u8,
        lreg_src_b: u8,
        lreg_src_c: u8,
        lreg_dest: u8,
        instr_mod1: u8,
    ) -> Insn {
        Insn {
            vc: lreg_src_c,
            vb: lreg_src_b,
            va: lreg_src_a & 15,
            ..Insn::base(op, word, lreg_dest, instr_mod1)
        }
    }

    /// SFP_STOCH_RND: rounding mode, `Imm5`, `VB`, `VC`, `VD`, `Mod1` (low three bits; bit 3
    /// selects `Imm5` as the shift).
    pub fn stoch_rnd(
        word: u32,
        rnd_mode: u8,
        imm8_math: u8,
        lreg_src_b: u8,
        lreg_src_c: u8,
        lreg_dest: u8,
        instr_mod1: u8,
    ) -> Insn {
        Insn {
            vc: lreg_src_c,
            vb: lreg_src_b,
            va: imm8_math & 15,
            imm: u32::from(imm8_math),
            rounding: rnd_mode & 3,
            shift_from_imm: instr_mod1 & 8 != 0,
            ..Insn::base(Op::SfpStochRnd, word, lreg_dest, instr_mod1 & 7)
        }
    }

    /// SFPCAST: `VC` (the table's field runs on into unused bits), `VD`, `Mod1`.
    pub fn cast(word: u32, lreg_src_c: u16, lreg_dest: u8, instr_mod1: u8) -> Insn {
        Insn {
            vc: lreg_src_c as u8 & 15,
            va: (lreg_src_c >> 8) as u8 & 15,
            ..Insn::base(Op::Sfpcast, word, lreg_dest, instr_mod1)
        }
    }

    /// SFPLUTFP32: `VD` (the table's field runs on over `Mod1Mirror`, bits 16..19, kept in
    /// `va`: the stall logic reads it), `Mod1`.
    pub fn lutfp32(word: u32, lreg_dest: u32, instr_mod1: u8) -> Insn {
        Insn {
            va: (lreg_dest >> 12) as u8 & 15,
            ..Insn::base(Op::Sfplutfp32, word, lreg_dest as u8 & 15, instr_mod1)
        }
    }

    /// SFPNOP: no operands, but bits 4..7 of its word still count as `VD` for the backdoor
    /// template load, as for every other instruction of the register shapes: an SFPNOP word
    /// with 12..15 there writes itself to `InstructionTemplate[VD - 12]` (the reference
    /// simulator's rule, docs/sfpu-reference.md). The canonical SFPNOP (all zero) has `VD` 0.
    /// This is the one shape that reads a field from the word: the table gives SFPNOP none.
    pub fn nop(word: u32) -> Insn {
        Insn::base(Op::Sfpnop, word, ((word >> 4) & 15) as u8, 0)
    }

    /// The instruction `word` holds, through the generated table's decode (`None` if it is
    /// not a Vector Unit instruction): for words the unit reads back rather than receives
    /// from a dispatcher (SFPLOADMACRO templates, tools driving the unit with words).
    #[rustfmt::skip]
    pub fn decode(word: u32) -> Option<Insn> {
        use bhemu_isa::tensix::blackhole::Insn as T;
        let w = word;
        Some(match T::decode(word) {
            T::Sfpload { lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr } => Insn::dst_access(Op::Sfpload, w, lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr),
            T::Sfpstore { lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr } => Insn::dst_access(Op::Sfpstore, w, lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr),
            T::Sfploadmacro { lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr } => Insn::dst_access(Op::Sfploadmacro, w, lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr),
            T::Sfploadi { lreg_ind, instr_mod0, imm16 } => Insn::load_imm(w, lreg_ind, instr_mod0, imm16),
            T::Sfplut { lreg_ind, instr_mod0, dest_reg_addr } => Insn::lut(w, lreg_ind, instr_mod0, dest_reg_addr),
            T::Sfpmuli { imm16_math, lreg_dest, instr_mod1 } => Insn::imm16(Op::Sfpmuli, w, imm16_math, lreg_dest, instr_mod1),
            T::Sfpaddi { imm16_math, lreg_dest, instr_mod1 } => Insn::imm16(Op::Sfpaddi, w, imm16_math, lreg_dest, instr_mod1),
            T::Sfpconfig { imm16_math, config_dest, instr_mod1 } => Insn::imm16(Op::Sfpconfig, w, imm16_math, config_dest, instr_mod1),
            T::Sfpmad { lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1 } => Insn::mad(Op::Sfpmad, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1),
            T::Sfpadd { lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1 } => Insn::mad(Op::Sfpadd, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1),
            T::Sfpmul { lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1 } => Insn::mad(Op::Sfpmul, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1),
            T::Sfpmul24 { lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1 } => Insn::mad(Op::Sfpmul24, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1),
            T::SfpStochRnd { rnd_mode, imm8_math, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1 } => Insn::stoch_rnd(w, rnd_mode, imm8_math, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1),
            T::Sfpcast { lreg_src_c, lreg_dest, instr_mod1 } => Insn::cast(w, lreg_src_c, lreg_dest, instr_mod1),
            T::Sfplutfp32 { lreg_dest, instr_mod1 } => Insn::lutfp32(w, lreg_dest, instr_mod1),
            T::Sfpnop => Insn::nop(w),
            T::Sfpswap { imm12_math, lreg_src_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpswap, w, imm12_math, lreg_src_c, lreg_dest, instr_mod1),
            T::Sfpshft2 { imm12_math, lreg_src_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpshft2, w, imm12_math, lreg_src_c, lreg_dest, instr_mod1),
            T::Sfpdivp2 { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpdivp2, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpexexp { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpexexp, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpexman { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpexman, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpiadd { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpiadd, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpshft { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpshft, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpsetcc { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpsetcc, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpmov { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpmov, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpabs { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpabs, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpand { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpand, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpor { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpor, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpnot { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpnot, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfplz { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfplz, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpsetexp { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpsetexp, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpsetman { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpsetman, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfppushc { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfppushc, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfppopc { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfppopc, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpsetsgn { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpsetsgn, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpencc { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpencc, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpcompc { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpcompc, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfptransp { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfptransp, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpxor { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpxor, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfple { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfple, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfpgt { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfpgt, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            T::Sfparecip { imm12_math, lreg_c, lreg_dest, instr_mod1 } => Insn::reg_imm(Op::Sfparecip, w, imm12_math, lreg_c, lreg_dest, instr_mod1),
            _ => return None,
        })
    }

    /// Signed 12-bit immediate (`Imm12` sign-extended).
    pub fn imm12(&self) -> i32 {
        ((self.imm & 0xfff) as i32) << 20 >> 20
    }

    /// Unsigned 12-bit immediate.
    pub fn uimm12(&self) -> u32 {
        self.imm & 0xfff
    }

    /// 16-bit immediate (SFPLOADI, SFPADDI, SFPMULI, SFPCONFIG).
    pub fn imm16_math(&self) -> u32 {
        self.imm & 0xffff
    }

    /// 10-bit Dst address immediate (SFPLOAD, SFPSTORE, SFPLOADMACRO).
    pub fn imm10(&self) -> u32 {
        self.imm & 0x3ff
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-encoded words, one per shape, against the fields the SFP*.md encoding diagrams
    /// give them (bits computed by hand, not by the table).
    #[test]
    fn sfpu_operands_from_the_table_fields_match_the_encoding_diagrams() {
        let d = |w: u32| Insn::decode(w).expect("an SFPU word");
        // SFPMAD: VA 16..19 = 3, VB = 5, VC = 7, VD = 2, Mod1 = 9.
        let i = d(0x8403_5729);
        assert_eq!(
            (i.op, i.va, i.vb, i.vc, i.vd, i.modifier),
            (Op::Sfpmad, 3, 5, 7, 2, 9)
        );
        // SFPLOADMACRO: bits 20..23 = 0b1110 (MacroIndex 3, VDLo 2), Mod0 4, AddrMod 5,
        // Imm10 0x201 (bit 0 = VDHi): VD = 6.
        let i = d(0x93E4_A201);
        assert_eq!((i.vd, i.macro_index, i.modifier), (6, 3, 4));
        assert_eq!((i.addr_mode, i.imm10()), (5, 0x201));
        // SFPAND: VB in Imm12's low nibble (Imm12 = 0x0A3), VC 1, VD 4.
        let i = d(0x7E0A_3140);
        assert_eq!((i.vb, i.vc, i.vd, i.uimm12()), (3, 1, 4, 0xA3));
        // SFPIADD (no VB field): Imm12 = 0xFFF is -1; VB reads as VD.
        let i = d(0x79FF_F123);
        assert_eq!((i.imm12(), i.vc, i.vd, i.vb, i.modifier), (-1, 1, 2, 2, 3));
        // SFP_STOCH_RND: RndMode 2, Imm5 0x13, VB 4, VC 5, VD 6, Mod1 0b1101.
        let i = d(0x8E53_456D);
        assert_eq!(
            (i.rounding, i.imm, i.modifier, i.shift_from_imm),
            (2, 0x13, 5, true)
        );
        assert_eq!((i.vb, i.vc, i.vd), (4, 5, 6));
        // SFPLOADI: VD 3, Mod0 2, Imm16 0xBEEF; no VB / VC field.
        let i = d(0x7132_BEEF);
        assert_eq!(
            (i.vd, i.modifier, i.imm16_math(), i.vc, i.vb),
            (3, 2, 0xBEEF, 3, 3)
        );
        // SFPADDI: Imm16 0x3F80 in bits 8..23, VD 7; VC reads as VD.
        let i = d(0x753F_8070);
        assert_eq!((i.imm16_math(), i.vd, i.vc), (0x3F80, 7, 7));
        // SFPLUTFP32: VD 3, Mod1 1, Mod1Mirror (bits 16..19) 8.
        let i = d(0x9508_0031);
        assert_eq!((i.vd, i.modifier, i.va), (3, 1, 8));
        // Not a Vector Unit instruction.
        assert_eq!(Insn::decode(0x0200_0000), None);
    }

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
