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

/// The arms both architectures encode with the same field names (ELWADD/ELWSUB/ELWMUL, MVMUL,
/// DOTPV): one source for both decoders, so a fix to one cannot miss the other.
macro_rules! shared_arms {
    ($insn:expr, $I:ident) => {
        'shared: {
            Some(match *$insn {
                $I::Elwadd {
                    clear_dvalid,
                    dest_accum_en,
                    instr_mod19,
                    addr_mode,
                    dst,
                } => MatrixOp::Elwadd(elw(
                    clear_dvalid,
                    dest_accum_en,
                    instr_mod19,
                    addr_mode,
                    dst,
                )),
                $I::Elwsub {
                    clear_dvalid,
                    dest_accum_en,
                    instr_mod19,
                    addr_mode,
                    dst,
                } => MatrixOp::Elwsub(elw(
                    clear_dvalid,
                    dest_accum_en,
                    instr_mod19,
                    addr_mode,
                    dst,
                )),
                $I::Elwmul {
                    clear_dvalid,
                    dest_accum_en,
                    instr_mod19,
                    addr_mode,
                    dst,
                } => MatrixOp::Elwmul(elw(
                    clear_dvalid,
                    dest_accum_en,
                    instr_mod19,
                    addr_mode,
                    dst,
                )),
                $I::Mvmul {
                    clear_dvalid,
                    instr_mod19,
                    addr_mode,
                    dst,
                } => MatrixOp::Mvmul(matmul(clear_dvalid, instr_mod19, addr_mode, dst, true)),
                $I::Dotpv {
                    clear_dvalid,
                    dest_accum_en,
                    instr_mod19,
                    addr_mode,
                    dst,
                } => {
                    // `TT_DOTPV` fixes both the accumulate bit and the modifier to zero.
                    let mut m = matmul(clear_dvalid, instr_mod19, addr_mode, dst, false);
                    m.undocumented |= (dest_accum_en as u32) << 3;
                    MatrixOp::Dotpv(m)
                }
                _ => break 'shared None,
            })
        }
    };
}

impl MatrixOp {
    /// The Matrix Unit operation of a Blackhole instruction, `None` for other instructions.
    pub fn from_blackhole(insn: &blackhole::Insn) -> Option<MatrixOp> {
        use blackhole::Insn as I;
        if let Some(op) = shared_arms!(insn, I) {
            return Some(op);
        }
        Some(match *insn {
            I::Gapool {
                clear_dvalid,
                instr_mod19,
                pool_addr_mode,
                max_pool_index_en,
                dst,
            } => {
                // Bit 0 of the modifier is tt-llk's `DIM_16X16`, which GAPOOL's model does not
                // depend on; the other bits and the index enable are undocumented for GAPOOL.
                let mut m = matmul(clear_dvalid, 0, pool_addr_mode, dst, false);
                m.undocumented = ((instr_mod19 & !1) as u32) | ((max_pool_index_en as u32) << 3);
                MatrixOp::Gapool(m)
            }
            I::Gmpool {
                clear_dvalid,
                instr_mod19,
                pool_addr_mode,
                max_pool_index_en,
                dst,
            } => MatrixOp::Gmpool(gmpool(
                clear_dvalid,
                instr_mod19,
                pool_addr_mode,
                max_pool_index_en,
                dst,
            )),
            I::Zeroacc {
                clear_mode,
                use_32_bit_mode,
                clear_zero_flags,
                addr_mode,
                where_,
            } => MatrixOp::Zeroacc(zeroacc::Zeroacc {
                mode: clear_mode & 3,
                use_dst32b: use_32_bit_mode != 0 || clear_mode & 4 != 0,
                addr_mode,
                imm: where_ as u32,
                revert: clear_zero_flags != 0,
                undocumented: (clear_mode >> 3) as u32,
                half_from_offset: true,
            }),
            I::Clrexphist => MatrixOp::Clrexphist,
            I::Conv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Conv3s2 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Mfconv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            } => MatrixOp::LegacyNoOp {
                flip_a: clear_dvalid & 1 != 0,
                flip_b: clear_dvalid & 2 != 0,
                addr_mode,
            },
            I::Apool3s1 {
                clear_dvalid,
                pool_addr_mode,
                ..
            }
            | I::Apool3s2 {
                clear_dvalid,
                pool_addr_mode,
                ..
            } => MatrixOp::LegacyNoOp {
                flip_a: clear_dvalid & 1 != 0,
                flip_b: clear_dvalid & 2 != 0,
                addr_mode: pool_addr_mode,
            },
            I::Mpool3s1 { .. } | I::Mpool3s2 { .. } => MatrixOp::LegacyMpool,
            _ => return None,
        })
    }

    /// The Matrix Unit operation of a Wormhole B0 instruction.
    pub fn from_wormhole(insn: &wormhole::Insn) -> Option<MatrixOp> {
        use wormhole::Insn as I;
        if let Some(op) = shared_arms!(insn, I) {
            return Some(op);
        }
        Some(match *insn {
            I::Gapool {
                clear_dvalid,
                instr_mod19,
                addr_mode,
                max_pool_index_en,
                dst,
            } => {
                // Bit 0 of the modifier is tt-llk's `DIM_16X16`, which GAPOOL's model does not
                // depend on; the other bits and the index enable are undocumented for GAPOOL.
                let mut m = matmul(clear_dvalid, 0, addr_mode, dst, false);
                m.undocumented = ((instr_mod19 & !1) as u32) | ((max_pool_index_en as u32) << 3);
                MatrixOp::Gapool(m)
            }
            I::Gmpool {
                clear_dvalid,
                instr_mod19,
                addr_mode,
                max_pool_index_en,
                dst,
            } => MatrixOp::Gmpool(gmpool(
                clear_dvalid,
                instr_mod19,
                addr_mode,
                max_pool_index_en,
                dst,
            )),
            I::Zeroacc {
                clear_mode,
                addr_mode,
                dst,
            } => MatrixOp::Zeroacc(zeroacc::Zeroacc {
                mode: clear_mode & 3,
                use_dst32b: clear_mode & 4 != 0,
                // AddrMod is bits 15-16; bit 18 is Revert (undefined behaviour), bit 17 unused.
                addr_mode: addr_mode & 3,
                revert: false,
                imm: (dst & 0x3ff) as u32,
                undocumented: ((clear_mode >> 3) as u32)
                    | (((addr_mode >> 2) as u32) << 2)
                    | (((dst >> 10) as u32) << 4),
                half_from_offset: false,
            }),
            I::Clrexphist => MatrixOp::Clrexphist,
            I::Conv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Conv3s2 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Mfconv3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Apool3s1 {
                clear_dvalid,
                addr_mode,
                ..
            }
            | I::Apool3s2 {
                clear_dvalid,
                addr_mode,
                ..
            } => MatrixOp::LegacyNoOp {
                flip_a: clear_dvalid & 1 != 0,
                flip_b: clear_dvalid & 2 != 0,
                addr_mode,
            },
            I::Mpool3s1 { .. } | I::Mpool3s2 { .. } => MatrixOp::LegacyMpool,
            _ => return None,
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
