//! Matrix Unit instructions decoded into the documentation's field names (`FlipSrcA`,
//! `BroadcastSrcBRow`, ...) from either architecture's encoding (`bhemu_isa::tensix::
//! {blackhole, wormhole}`), with the bits no page documents kept aside so the unit can report
//! them instead of guessing.
use super::zeroacc;
use bhemu_isa::tensix::{blackhole, wormhole, Arch};

/// A decoded Matrix Unit instruction with the documentation's field names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixOp {
    /// `Dst = SrcA + SrcB` or `Dst += SrcA + SrcB`.
    Elwadd(Elw),
    /// `Dst = SrcA - SrcB` or `Dst += SrcA - SrcB`.
    Elwsub(Elw),
    /// `Dst += SrcA * SrcB` (the `AddDst` bit is ignored: the page's syntax fixes it to 1 and
    /// its model always accumulates).
    Elwmul(Elw),
    /// `Dst += SrcB @ SrcA`, 8x16 @ 16x16, optionally broadcasting one SrcB row.
    Mvmul(Matmul),
    /// MVMUL without the broadcast.
    Dotpv(Matmul),
    /// MVMUL on 4 rows.
    Gapool(Matmul),
    /// Column max of SrcA into a Dst row, optionally with argmax.
    Gmpool(Gmpool),
    /// Mark Dst rows undefined.
    Zeroacc(zeroacc::Zeroacc),
    /// Reset the packers' exponent histograms: left to the dispatcher.
    Clrexphist,
    /// CONV3S1, CONV3S2, APOOL3S1, APOOL3S2, MFCONV3S1: `Dst += 0` (MatrixUnit.md, legacy).
    LegacyNoOp {
        flip_a: bool,
        flip_b: bool,
        addr_mode: u8,
    },
    /// MPOOL3S1, MPOOL3S2: documented only as "similar to GMPOOL with SrcA zero".
    LegacyMpool,
}

/// Fields of ELWADD / ELWSUB / ELWMUL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elw {
    pub flip_a: bool,
    pub flip_b: bool,
    pub add_dst: bool,
    pub broadcast_row: bool,
    pub broadcast_col0: bool,
    pub addr_mode: u8,
    pub dst: u32,
}

/// Fields of MVMUL / DOTPV / GAPOOL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matmul {
    pub flip_a: bool,
    pub flip_b: bool,
    pub broadcast_row: bool,
    pub addr_mode: u8,
    pub dst: u32,
    /// Modifier bits no page documents (must be zero).
    pub undocumented: u32,
}

/// Fields of GMPOOL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gmpool {
    pub flip_a: bool,
    pub flip_b: bool,
    pub arg_max: bool,
    pub addr_mode: u8,
    pub dst: u32,
    pub undocumented: u32,
}

fn elw(clear_dvalid: u8, dest_accum_en: u8, mod19: u8, addr_mode: u8, dst: u16) -> Elw {
    Elw {
        flip_a: clear_dvalid & 1 != 0,
        flip_b: clear_dvalid & 2 != 0,
        add_dst: dest_accum_en != 0,
        broadcast_row: mod19 & 2 != 0,
        broadcast_col0: mod19 & 1 != 0,
        addr_mode,
        dst: dst as u32,
    }
}

fn matmul(clear_dvalid: u8, mod19: u8, addr_mode: u8, dst: u16, bcast_ok: bool) -> Matmul {
    let bcast_bit = if bcast_ok { 1 } else { 0 };
    Matmul {
        flip_a: clear_dvalid & 1 != 0,
        flip_b: clear_dvalid & 2 != 0,
        broadcast_row: mod19 & bcast_bit != 0,
        addr_mode,
        dst: dst as u32,
        undocumented: (mod19 & !bcast_bit) as u32,
    }
}

fn gmpool(clear_dvalid: u8, mod19: u8, addr_mode: u8, index_en: u8, dst: u16) -> Gmpool {
    Gmpool {
        flip_a: clear_dvalid & 1 != 0,
        flip_b: clear_dvalid & 2 != 0,
        arg_max: index_en != 0,
        addr_mode,
        dst: dst as u32,
        // `TT_GMPOOL` passes the constant `true` as bit 0 of the modifier; nothing documents
        // the other bits.
        undocumented: (mod19 & !1) as u32,
    }
}

impl MatrixOp {
    /// ELWADD (ELWADD.md) from its fields: each instruction's field meanings in one function,
    /// called by the Blackhole dispatcher (`units::exec`) and by both decoders below.
    pub fn elwadd(clear_dvalid: u8, dest_accum_en: u8, mod19: u8, addr_mode: u8, dst: u16) -> Self {
        MatrixOp::Elwadd(elw(clear_dvalid, dest_accum_en, mod19, addr_mode, dst))
    }

    /// ELWSUB (ELWSUB.md) from its fields.
    pub fn elwsub(clear_dvalid: u8, dest_accum_en: u8, mod19: u8, addr_mode: u8, dst: u16) -> Self {
        MatrixOp::Elwsub(elw(clear_dvalid, dest_accum_en, mod19, addr_mode, dst))
    }

    /// ELWMUL (ELWMUL.md) from its fields.
    pub fn elwmul(clear_dvalid: u8, dest_accum_en: u8, mod19: u8, addr_mode: u8, dst: u16) -> Self {
        MatrixOp::Elwmul(elw(clear_dvalid, dest_accum_en, mod19, addr_mode, dst))
    }

    /// MVMUL (MVMUL.md) from its fields: bit 0 of the modifier broadcasts one SrcB row.
    pub fn mvmul(clear_dvalid: u8, mod19: u8, addr_mode: u8, dst: u16) -> Self {
        MatrixOp::Mvmul(matmul(clear_dvalid, mod19, addr_mode, dst, true))
    }

    /// DOTPV (DOTPV.md) from its fields. `TT_DOTPV` fixes both the accumulate bit and the
    /// modifier to zero.
    pub fn dotpv(clear_dvalid: u8, dest_accum_en: u8, mod19: u8, addr_mode: u8, dst: u16) -> Self {
        let mut m = matmul(clear_dvalid, mod19, addr_mode, dst, false);
        m.undocumented |= (dest_accum_en as u32) << 3;
        MatrixOp::Dotpv(m)
    }

    /// GAPOOL (GAPOOL.md) from its fields. Bit 0 of the modifier is tt-llk's `DIM_16X16`,
    /// which GAPOOL's model does not depend on; the other bits and the index enable are
    /// undocumented for GAPOOL.
    pub fn gapool(clear_dvalid: u8, mod19: u8, addr_mode: u8, index_en: u8, dst: u16) -> Self {
        let mut m = matmul(clear_dvalid, 0, addr_mode, dst, false);
        m.undocumented = ((mod19 & !1) as u32) | ((index_en as u32) << 3);
        MatrixOp::Gapool(m)
    }

    /// GMPOOL (GMPOOL.md) from its fields.
    pub fn gmpool(clear_dvalid: u8, mod19: u8, addr_mode: u8, index_en: u8, dst: u16) -> Self {
        MatrixOp::Gmpool(gmpool(clear_dvalid, mod19, addr_mode, index_en, dst))
    }

    /// Blackhole ZEROACC (ZEROACC.md) from its fields.
    pub fn zeroacc_blackhole(
        clear_mode: u8,
        use_32_bit_mode: u8,
        clear_zero_flags: u8,
        addr_mode: u8,
        where_: u16,
    ) -> Self {
        MatrixOp::Zeroacc(zeroacc::Zeroacc {
            mode: clear_mode & 3,
            use_dst32b: use_32_bit_mode != 0 || clear_mode & 4 != 0,
            addr_mode,
            imm: where_ as u32,
            revert: clear_zero_flags != 0,
            undocumented: (clear_mode >> 3) as u32,
            half_from_offset: true,
        })
    }

    /// Wormhole B0 ZEROACC from its fields: AddrMod is bits 15-16; bit 18 is Revert
    /// (undefined behaviour), bit 17 unused.
    pub fn zeroacc_wormhole(clear_mode: u8, addr_mode: u8, dst: u16) -> Self {
        MatrixOp::Zeroacc(zeroacc::Zeroacc {
            mode: clear_mode & 3,
            use_dst32b: clear_mode & 4 != 0,
            addr_mode: addr_mode & 3,
            revert: false,
            imm: (dst & 0x3ff) as u32,
            undocumented: ((clear_mode >> 3) as u32)
                | (((addr_mode >> 2) as u32) << 2)
                | (((dst >> 10) as u32) << 4),
            half_from_offset: false,
        })
    }

    /// CONV3S1, CONV3S2, MFCONV3S1, APOOL3S1, APOOL3S2 (legacy, `Dst += 0`) from the fields
    /// the model uses.
    pub fn legacy_no_op(clear_dvalid: u8, addr_mode: u8) -> Self {
        MatrixOp::LegacyNoOp {
            flip_a: clear_dvalid & 1 != 0,
            flip_b: clear_dvalid & 2 != 0,
            addr_mode,
        }
    }
}

/// The arms of the two decoders: the typed decode has already placed each field, so every
/// instruction whose fields mean the same on both architectures is routed here once (only the
/// pooling address-mode field is spelled differently, `$pool_addr`). ZEROACC, whose fields
/// differ, is each decoder's own arm.
macro_rules! shared_arms {
    ($insn:expr, $I:ident, $pool_addr:ident, { $($arch_arms:tt)* }) => {
        match *$insn {
            $I::Elwadd { clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst } => {
                Some(MatrixOp::elwadd(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst))
            }
            $I::Elwsub { clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst } => {
                Some(MatrixOp::elwsub(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst))
            }
            $I::Elwmul { clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst } => {
                Some(MatrixOp::elwmul(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst))
            }
            $I::Mvmul { clear_dvalid, instr_mod19, addr_mode, dst } => {
                Some(MatrixOp::mvmul(clear_dvalid, instr_mod19, addr_mode, dst))
            }
            $I::Dotpv { clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst } => {
                Some(MatrixOp::dotpv(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst))
            }
            $I::Gapool { clear_dvalid, instr_mod19, $pool_addr: am, max_pool_index_en, dst } => {
                Some(MatrixOp::gapool(clear_dvalid, instr_mod19, am, max_pool_index_en, dst))
            }
            $I::Gmpool { clear_dvalid, instr_mod19, $pool_addr: am, max_pool_index_en, dst } => {
                Some(MatrixOp::gmpool(clear_dvalid, instr_mod19, am, max_pool_index_en, dst))
            }
            $I::Clrexphist => Some(MatrixOp::Clrexphist),
            $I::Conv3s1 { clear_dvalid, addr_mode, .. }
            | $I::Conv3s2 { clear_dvalid, addr_mode, .. }
            | $I::Mfconv3s1 { clear_dvalid, addr_mode, .. }
            | $I::Apool3s1 { clear_dvalid, $pool_addr: addr_mode, .. }
            | $I::Apool3s2 { clear_dvalid, $pool_addr: addr_mode, .. } => {
                Some(MatrixOp::legacy_no_op(clear_dvalid, addr_mode))
            }
            $I::Mpool3s1 { .. } | $I::Mpool3s2 { .. } => Some(MatrixOp::LegacyMpool),
            $($arch_arms)*
        }
    };
}

impl MatrixOp {
    /// The Matrix Unit operation of a Blackhole instruction, `None` for other instructions.
    pub fn from_blackhole(insn: &blackhole::Insn) -> Option<MatrixOp> {
        use blackhole::Insn as I;
        shared_arms!(insn, I, pool_addr_mode, {
            I::Zeroacc {
                clear_mode,
                use_32_bit_mode,
                clear_zero_flags,
                addr_mode,
                where_,
            } => Some(MatrixOp::zeroacc_blackhole(
                clear_mode,
                use_32_bit_mode,
                clear_zero_flags,
                addr_mode,
                where_,
            )),
            _ => None,
        })
    }

    /// The Matrix Unit operation of a Wormhole B0 instruction.
    pub fn from_wormhole(insn: &wormhole::Insn) -> Option<MatrixOp> {
        use wormhole::Insn as I;
        shared_arms!(insn, I, addr_mode, {
            I::Zeroacc {
                clear_mode,
                addr_mode,
                dst,
            } => Some(MatrixOp::zeroacc_wormhole(clear_mode, addr_mode, dst)),
            _ => None,
        })
    }

    /// Decodes a 32-bit instruction word of `arch`.
    pub fn decode(arch: Arch, word: u32) -> Option<MatrixOp> {
        match arch {
            Arch::Blackhole => MatrixOp::from_blackhole(&blackhole::Insn::decode(word)),
            Arch::WormholeB0 => MatrixOp::from_wormhole(&wormhole::Insn::decode(word)),
        }
    }
}
