//! `tt_cfg_qstatus` (CSR 0xBC0): which kinds of instruction still occupy the frontend.
//!
//! Bit layout: tt-llk `tt_llk_blackhole/common/inc/ckernel.h` `union qstatus_u` and
//! BlackholeA0 BabyRISCV/CSRs.md: bits 0-10 this thread (replay, mop, thcon, xmov, unpack,
//! pack, cfg, sync, tdma, sfpu, fpu), bits 11-12 sfpucc, bits 13-23 the same eleven OR-reduced
//! over all threads (13 = any replay, 14 = any MOP, docs/mop-replay.md), bits 24-25 global sfpucc.
//! sfpucc (Vector Unit lane enables) is 0 until the Vector Unit's state is modelled.
use crate::insn::{block, Insn, Op, Unit};

pub const REPLAY: u32 = 1 << 0;
pub const MOP: u32 = 1 << 1;
pub const THCON: u32 = 1 << 2;
pub const XMOV: u32 = 1 << 3;
pub const UNPACK: u32 = 1 << 4;
pub const PACK: u32 = 1 << 5;
pub const CFG: u32 = 1 << 6;
pub const SYNC: u32 = 1 << 7;
/// "Miscellaneous Unit, Mover, Scalar Unit (ThCon), Packer, or Unpacker" (CSRs.md) = B0.
pub const TDMA: u32 = 1 << 8;
pub const SFPU: u32 = 1 << 9;
pub const FPU: u32 = 1 << 10;
/// Shift of the all-threads copy.
pub const GLOBAL_SHIFT: u32 = 13;

/// The eleven-bit type mask of one queued instruction.
pub fn type_bits(i: &Insn) -> u32 {
    let mut b = match i.op {
        // CSRs.md: REPLAY counts "provided that Exec is true, or Load is false".
        Op::Replay { exec, load, .. } => return if exec || !load { REPLAY } else { 0 },
        Op::Mop { .. } => return MOP,
        _ => 0,
    };
    b |= match i.unit {
        Unit::ThCon => THCON,
        Unit::Mover => XMOV,
        Unit::Unpack0 | Unit::Unpack1 => UNPACK,
        Unit::Pack => PACK,
        Unit::Config => CFG,
        Unit::Sync => SYNC,
        Unit::Vector => SFPU,
        Unit::Matrix => FPU,
        Unit::Misc | Unit::None => 0,
    };
    if i.block_bits & block::TDMA != 0
        && !matches!(
            i.op,
            Op::Nop | Op::StallWait { .. } | Op::SemWait { .. } | Op::Unknown
        )
    {
        b |= TDMA;
    }
    b
}
