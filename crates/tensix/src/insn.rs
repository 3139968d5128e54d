//! Pre-decoded instructions: each word is decoded once, when it enters the frontend (or when a
//! MopCfg register is written), into the few facts the frontend and backend need. The hot path
//! then never looks at tables again.
//!
//! Every fact comes from the generated instruction table (`bhemu_isa::tensix::{blackhole,
//! wormhole}`, `scripts/gen-tensix-tables.py`): unit, block-mask category, latency, interval,
//! load tail and bank facts from the opcode's [`bhemu_isa::tensix::InsnDef`], the fields the
//! frontend reads (MOP, REPLAY, STALLWAIT, semaphores, bank hand-over) from the generated typed
//! decode. No instruction is recognised by its name here (docs/instruction-table.md).
use bhemu_isa::tensix::{self as isa, bank, Arch, ExUnit};

/// Block-mask bits B0-B8 (docs/wait-gate.md WG-1, WG-4, `stall_res`): the ISA crate owns them.
pub use bhemu_isa::tensix::block;

/// Condition bits C0-C12 in Blackhole's numbering (docs/wait-gate.md WG-8; STALLWAIT.md). Wormhole's 15-bit
/// mask is translated into this numbering when decoded, so the Wait Gate has one layout.
pub mod cond {
    pub const THCON: u16 = 1 << 0;
    pub const UNPACK0: u16 = 1 << 1;
    pub const UNPACK1: u16 = 1 << 2;
    pub const PACK: u16 = 1 << 3;
    pub const MATH: u16 = 1 << 4;
    pub const SRCA_CLR: u16 = 1 << 5;
    pub const SRCB_CLR: u16 = 1 << 6;
    pub const SRCA_VLD: u16 = 1 << 7;
    pub const SRCB_VLD: u16 = 1 << 8;
    pub const XMOV: u16 = 1 << 9;
    pub const TRISC_CFG: u16 = 1 << 10;
    pub const SFPU: u16 = 1 << 11;
    pub const CFGEXU: u16 = 1 << 12;
    pub const ALL: u16 = 0x1fff;
    /// Names for reports, index = bit.
    pub const NAMES: [&str; 13] = [
        "C0 THCON (ThCon memory request outstanding)",
        "C1 UNPACK0 (thread busy in Unpacker 0)",
        "C2 UNPACK1 (thread busy in Unpacker 1)",
        "C3 PACK0 (thread busy in Packer)",
        "C4 MATH (thread busy in Matrix Unit)",
        "C5 SRCA_CLR (SrcA unpack bank not owned by Unpackers)",
        "C6 SRCB_CLR (SrcB unpack bank not owned by Unpackers)",
        "C7 SRCA_VLD (SrcA math bank not owned by MatrixUnit)",
        "C8 SRCB_VLD (SrcB math bank not owned by MatrixUnit)",
        "C9 XMOV (Mover request outstanding)",
        "C10 TRISC_CFG (RISC-V config write pending)",
        "C11 SFPU (thread busy in Vector Unit)",
        "C12 CFGEXU (any thread busy in Configuration Unit)",
    ];

    /// Wormhole STALLWAIT's 15-bit condition mask (WormholeB0 STALLWAIT.md) in Blackhole
    /// numbering. Wormhole's four packers (C3-C6) all map onto bhemu's single packer model.
    pub fn from_wormhole(m: u32) -> u16 {
        let bit = |i: u32| (m >> i) & 1 == 1;
        let mut c = 0;
        if bit(0) {
            c |= THCON;
        }
        if bit(1) {
            c |= UNPACK0;
        }
        if bit(2) {
            c |= UNPACK1;
        }
        if bit(3) || bit(4) || bit(5) || bit(6) {
            c |= PACK;
        }
        if bit(7) {
            c |= MATH;
        }
        if bit(8) {
            c |= SRCA_CLR;
        }
        if bit(9) {
            c |= SRCB_CLR;
        }
        if bit(10) {
            c |= SRCA_VLD;
        }
        if bit(11) {
            c |= SRCB_VLD;
        }
        if bit(12) {
            c |= XMOV;
        }
        if bit(13) {
            c |= TRISC_CFG;
        }
        if bit(14) {
            c |= SFPU;
        }
        c
    }

    /// Names of the conditions set in `mask`, joined for a report.
    pub fn describe(mask: u16) -> String {
        let v: Vec<&str> = (0..13)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| NAMES[i])
            .collect();
        v.join(", ")
    }
}

/// The backend unit an instruction occupies after the Wait Gate (README.md "Backend": nine
/// units; the two unpackers are separate pipelines for C1/C2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// No backend unit: NOP, and the frontend-only MOP/MOP_CFG/REPLAY/RESOURCEDECL.
    None,
    Sync,
    Unpack0,
    Unpack1,
    Pack,
    Matrix,
    Vector,
    Config,
    Mover,
    ThCon,
    Misc,
}

/// What the frontend or backend must do specially with an instruction.
/// What an `UNPACR_NOP` waits for inside its unpacker before it clears its bank and hands
/// it over: nothing, the unpacker's own bank (as UNPACR waits), or the Matrix Unit's
/// current bank of the same Src, in each case until that bank is not the Matrix Unit's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NopWait {
    None,
    UnpackBank,
    MatrixBank,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Nop,
    /// MOP (MOP.md): template bit 23, Count1 bits 22:16, MaskLo bits 15:0.
    Mop {
        template: u8,
        count1: u8,
        mask_lo: u16,
    },
    /// MOP_CFG: MaskHi bits 15:0.
    MopCfg {
        mask_hi: u16,
    },
    /// REPLAY (REPLAY.md: u5 Index, u6 Count; YAML start_idx bit 14, len bit 4).
    Replay {
        start: u8,
        len: u8,
        exec: bool,
        load: bool,
    },
    ResourceDecl,
    /// STALLWAIT: block mask (B0-B8) and condition mask (canonical C0-C12), defaults applied.
    StallWait {
        block: u16,
        conds: u16,
    },
    /// SEMWAIT: block mask, semaphore mask, condition (C0 zero / C1 max); cond 0 kept raw.
    SemWait {
        block: u16,
        sems: u8,
        cond: u8,
    },
    SemInit {
        sems: u8,
        value: u8,
        max: u8,
    },
    SemPost {
        sems: u8,
    },
    SemGet {
        sems: u8,
    },
    AtGetM {
        index: u32,
    },
    AtRelM {
        index: u32,
    },
    /// UNPACR (UNPACR_Regular.md): which unpacker (bit 23), FlipSrc = YAML `SetDatValid` (bit 6).
    Unpacr {
        flip: bool,
    },
    /// UNPACR_NOP; `set_dvalid` = the mode that gives the bank to the Matrix Unit; `wait` =
    /// which bank must not be the Matrix Unit's before it starts (docs/tensix-datapath.md,
    /// "UNPACR_NOP waits").
    UnpacrNop {
        set_dvalid: bool,
        wait: NopWait,
    },
    /// SETDVALID (Misc unit): give unpacker banks to the Matrix Unit.
    SetDvalid {
        a: bool,
        b: bool,
    },
    /// CLEARDVALID: give Matrix Unit banks to the Unpackers (or reset everything).
    ClearDvalid {
        a: bool,
        b: bool,
        keep: bool,
        reset: bool,
    },
    /// A Matrix Unit instruction: which banks it waits for at the Wait Gate (MVMUL.md etc.)
    /// and which it hands back (`clear_dvalid` / `clear_ab_vld`, bits 23:22).
    Math {
        wait_a: bool,
        wait_b: bool,
        flip_a: bool,
        flip_b: bool,
        movd2a: bool,
    },
    /// A Scalar Unit (ThCon) instruction; `mem_tail` extra cycles of outstanding memory request
    /// after it leaves ThCon (loads, ScalarUnit.md †).
    ThCon {
        mem_tail: u8,
    },
    Xmov,
    Other,
    /// An opcode this architecture does not define.
    Unknown,
}

/// One instruction, decoded once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub word: u32,
    pub opcode: u8,
    pub unit: Unit,
    /// B0-B8 categories (docs/wait-gate.md WG-4..WG-6); NOP carries ALL, MOP/MOP_CFG/REPLAY/RESOURCEDECL 0.
    pub block_bits: u16,
    pub op: Op,
    /// Cycles the instruction stays in its unit (occupancy/latency); see `timing`.
    pub latency: u16,
    /// Minimum cycles before the same unit accepts another instruction (1 = fully pipelined).
    pub interval: u8,
    /// Pushed by BRISC (entering after the MOP expander) rather than by the thread's TRISC.
    pub from_brisc: bool,
    /// The pc of the RISC-V store that pushed it — for an instruction a MOP or REPLAY
    /// produced, that of the MOP or REPLAY — so that a report names the line of the kernel;
    /// `None` for instructions pushed by a host or a test without one.
    pub pc: Option<u32>,
}

impl Insn {
    /// A NOP, used to fill unwritten replay-buffer and MopCfg slots.
    pub fn nop(arch: Arch) -> Insn {
        decode(arch, 0x0200_0000)
    }
}

/// Documented timing figures: the ISA crate owns them, the generated tables name them per
/// opcode ([`bhemu_isa::tensix::InsnDef::latency`]).
pub use bhemu_isa::tensix::timing;

fn bit(w: u32, i: u32) -> bool {
    (w >> i) & 1 == 1
}

/// The frontend's view of an instruction whose fields it reads itself (MOP, REPLAY, the
/// Sync Unit's waits and semaphores, the bank hand-over), from the generated typed decode.
/// The arms both architectures encode alike are written once (`shared_frontend_arms!`).
macro_rules! shared_frontend_arms {
    ($insn:expr, $I:ident, { $($arch_arms:tt)* }) => {
        match *$insn {
            $I::Nop => Some(Op::Nop),
            $I::MopCfg { zmask_hi16 } => Some(Op::MopCfg {
                mask_hi: zmask_hi16 as u16,
            }),
            // REPLAY.md: u5 Index, u6 Count; of `execute_while_loading` only bit 1 of the word
            // is the Exec flag.
            $I::Replay {
                start_idx,
                len,
                execute_while_loading,
                load_mode,
            } => Some(Op::Replay {
                start: (start_idx & 0x1f) as u8,
                len: (len & 0x3f) as u8,
                exec: execute_while_loading & 1 == 1,
                load: load_mode == 1,
            }),
            $I::Semwait {
                stall_res,
                sem_sel,
                wait_sem_cond,
            } => Some(Op::SemWait {
                block: default_block(stall_res),
                sems: sem_sel as u8,
                cond: wait_sem_cond,
            }),
            $I::Seminit {
                max_value,
                init_value,
                sem_sel,
            } => Some(Op::SemInit {
                sems: sem_sel as u8,
                value: init_value,
                max: max_value,
            }),
            $I::Sempost { sem_sel } => Some(Op::SemPost {
                sems: sem_sel as u8,
            }),
            $I::Semget { sem_sel } => Some(Op::SemGet {
                sems: sem_sel as u8,
            }),
            $I::Atgetm { mutex_index } => Some(Op::AtGetM { index: mutex_index }),
            $I::Atrelm { mutex_index } => Some(Op::AtRelM { index: mutex_index }),
            // UNPACR_Regular.md: FlipSrc is the YAML's `SetDatValid`.
            $I::Unpacr { set_dat_valid, .. } => Some(Op::Unpacr {
                flip: set_dat_valid == 1,
            }),
            $I::Setdvalid { setvalid } => Some(Op::SetDvalid {
                a: setvalid & 1 == 1,
                b: setvalid & 2 == 2,
            }),
            $I::Cleardvalid { cleardvalid, reset } => Some(Op::ClearDvalid {
                a: cleardvalid & 1 == 1,
                b: cleardvalid & 2 == 2,
                keep: reset & 2 == 2,
                reset: reset & 1 == 1,
            }),
            $I::Xmov { .. } => Some(Op::Xmov),
            $($arch_arms)*
        }
    };
}

/// STALLWAIT.md / SEMWAIT.md: a zero block mask means B6 (Matrix Unit).
fn default_block(stall_res: u16) -> u16 {
    if stall_res == 0 {
        block::MATH
    } else {
        stall_res
    }
}

/// The frontend op of a Blackhole instruction, `None` where only the table's facts matter.
fn frontend_op_blackhole(insn: &isa::blackhole::Insn) -> Option<Op> {
    use isa::blackhole::Insn as I;
    shared_frontend_arms!(insn, I, {
        I::Mop {
            mop_type,
            loop_count,
            zmask_lo16_or_loop_count,
        } => Some(Op::Mop {
            template: mop_type,
            count1: loop_count,
            mask_lo: zmask_lo16_or_loop_count,
        }),
        I::Resourcedecl { .. } => Some(Op::ResourceDecl),
        // STALLWAIT.md: ConditionMask ? ConditionMask : 0x0F.
        I::Stallwait {
            stall_res,
            wait_res,
        } => Some(Op::StallWait {
            block: default_block(stall_res),
            conds: (if wait_res == 0 { 0x0f } else { wait_res }) & cond::ALL,
        }),
        // Field Set_Dvalid (bit 8) gives the bank to the Matrix Unit.
        // The clearing form (Unpack_Pop = 1) waits like UNPACR with Stall_Clr_Cntrl, otherwise
        // on the Matrix Unit's bank.
        I::UnpacrNop { set_dvalid, unpack_pop, stall_clr_cntrl, .. } => Some(Op::UnpacrNop {
            set_dvalid: set_dvalid & 1 == 1,
            wait: match (unpack_pop, stall_clr_cntrl) {
                (1, 0) => NopWait::MatrixBank,
                (1, _) => NopWait::UnpackBank,
                _ => NopWait::None,
            },
        }),
        _ => None,
    })
}

/// The frontend op of a Wormhole B0 instruction, `None` where only the table's facts matter.
fn frontend_op_wormhole(insn: &isa::wormhole::Insn) -> Option<Op> {
    use isa::wormhole::Insn as I;
    shared_frontend_arms!(insn, I, {
        I::Mop {
            mop_type,
            loop_count,
            zmask_lo16,
        } => Some(Op::Mop {
            template: mop_type,
            count1: loop_count,
            mask_lo: zmask_lo16,
        }),
        // WormholeB0 STALLWAIT.md: ConditionMask ? ConditionMask : 0x7F, in its own numbering.
        I::Stallwait {
            stall_res,
            wait_res,
        } => Some(Op::StallWait {
            block: default_block(stall_res),
            conds: cond::from_wormhole(if wait_res == 0 { 0x7f } else { wait_res as u32 }),
        }),
        // Mode 0b111 in the low bits (UNPACR_NOP_SETDVALID.md, p_unpacr_nop::UNP_SET_DVALID).
        I::UnpacrNop { no_op, .. } => Some(Op::UnpacrNop {
            set_dvalid: no_op & 7 == 7,
            wait: NopWait::None,
        }),
        _ => None,
    })
}

/// Words decoded before, by word: a frontend sees the same few dozen words over and over (a
/// kernel's loop pushes the same instructions for every tile), and [`decode`] — the typed
/// decode, the table's facts, the frontend's fields — cost ≈ 140 host instructions a push
/// (callgrind, the add stream). [`decode`] depends on the architecture and the word alone, so
/// a remembered result is the result.
///
/// Coprocessors use one memo per host thread and architecture ([`decode_memoized`],
/// [`blackhole_memoized`]), not one each: a chip steps a hundred coprocessors a cycle, which
/// push the same kernels' words, and a memo of each coprocessor's own was out of the host's
/// cache by its turn — in tt-metal's eltwise add on 130 cores (perf) the load of its slot was
/// the costliest single instruction of the coprocessor's step. Shared, it stays warm and
/// misses less (the kit's add stream on 14 tiles: 1,661 words decoded in all).
#[derive(Debug)]
struct DecodeMemo {
    arch: Arch,
    slots: [Option<Decoded>; DecodeMemo::SLOTS],
}

/// One remembered word: the frontend's decode, and for a Blackhole word the generated typed
/// decode the data path's visitor takes at dispatch (≈ 50 host instructions when decoded anew).
#[derive(Clone, Copy, Debug)]
struct Decoded {
    insn: Insn,
    typed: Option<isa::blackhole::Insn>,
}

thread_local! {
    /// This host thread's memos, by architecture (`Arch::Blackhole` first).
    static MEMOS: std::cell::RefCell<[DecodeMemo; 2]> = const {
        std::cell::RefCell::new([
            DecodeMemo::new(Arch::Blackhole),
            DecodeMemo::new(Arch::WormholeB0),
        ])
    };
}

/// `f` on this host thread's memo for `arch`.
#[inline]
fn with_memo<R>(arch: Arch, f: impl FnOnce(&mut DecodeMemo) -> R) -> R {
    MEMOS.with_borrow_mut(|m| f(&mut m[usize::from(arch != Arch::Blackhole)]))
}

/// [`decode`] through this host thread's memo for `arch`.
#[inline]
pub(crate) fn decode_memoized(arch: Arch, word: u32) -> Insn {
    with_memo(arch, |m| m.decode(word))
}

/// [`DecodeMemo::blackhole`] through this host thread's memo for `arch`: the typed decode of
/// a Blackhole word, `None` for another architecture's.
#[inline]
pub(crate) fn blackhole_memoized(arch: Arch, word: u32) -> Option<isa::blackhole::Insn> {
    with_memo(arch, |m| m.blackhole(word))
}

impl DecodeMemo {
    /// Slots, direct-mapped: a collision only decodes again.
    const SLOTS: usize = 128;

    const fn new(arch: Arch) -> Self {
        DecodeMemo {
            arch,
            slots: [None; Self::SLOTS],
        }
    }

    /// The remembered decodes of `word`, decoded (once, both ways) and remembered on a miss.
    /// Fibonacci hashing picks the slot: the top 7 bits of the product mix every bit.
    #[inline(always)]
    fn entry(&mut self, word: u32) -> &Decoded {
        let i = (word.wrapping_mul(0x9e37_79b1) >> 25) as usize & (Self::SLOTS - 1);
        let arch = self.arch;
        let slot = &mut self.slots[i];
        // A slot holding another word is given up, then filled.
        if slot.is_some_and(|d| d.insn.word != word) {
            *slot = None;
        }
        slot.get_or_insert_with(|| {
            let (insn, typed) = decode_both(arch, word);
            Decoded { insn, typed }
        })
    }

    /// `isa::blackhole::Insn::decode(word)`, or `None` for another architecture's coprocessor.
    #[inline]
    fn blackhole(&mut self, word: u32) -> Option<isa::blackhole::Insn> {
        if self.arch != Arch::Blackhole {
            return None;
        }
        self.entry(word).typed
    }

    /// [`decode`] of `word` for this memo's architecture.
    #[inline]
    fn decode(&mut self, word: u32) -> Insn {
        self.entry(word).insn
    }
}

/// Decode one word for this frontend: the generated table gives the unit, block category,
/// latency, interval, load tail and bank facts; the generated typed decode gives the fields
/// the frontend reads. Never fails: unknown opcodes become `Op::Unknown`, which the Wait Gate
/// reports if one ever tries to pass.
pub fn decode(arch: Arch, word: u32) -> Insn {
    decode_both(arch, word).0
}

/// [`decode`], and for a Blackhole word the typed decode it was computed from.
fn decode_both(arch: Arch, word: u32) -> (Insn, Option<isa::blackhole::Insn>) {
    let opcode = (word >> 24) as u8;
    let (def, front, typed) = match arch {
        Arch::Blackhole => {
            let i = isa::blackhole::Insn::decode(word);
            (i.def(), frontend_op_blackhole(&i), Some(i))
        }
        Arch::WormholeB0 => {
            let i = isa::wormhole::Insn::decode(word);
            (i.def(), frontend_op_wormhole(&i), None)
        }
    };
    let Some(def) = def else {
        return (
            Insn {
                word,
                opcode,
                unit: Unit::None,
                block_bits: block::ALL,
                op: Op::Unknown,
                latency: 1,
                interval: 1,
                from_brisc: false,
                pc: None,
            },
            typed,
        );
    };
    let unit = match def.unit {
        ExUnit::Cfg => Unit::Config,
        ExUnit::Math => Unit::Matrix,
        ExUnit::None => Unit::None,
        ExUnit::Pack => Unit::Pack,
        ExUnit::Sfpu => Unit::Vector,
        ExUnit::Sync => Unit::Sync,
        ExUnit::Tdma => Unit::Misc,
        ExUnit::Thcon => Unit::ThCon,
        // Unpack_block_selection / Unpacker_Select: bit 23 on every Unpacker instruction of
        // both architectures (checked by tests/instruction_facts.rs).
        ExUnit::Unpack if bit(word, 23) => Unit::Unpack1,
        ExUnit::Unpack => Unit::Unpack0,
        ExUnit::Xmov => Unit::Mover,
    };
    let op = match (front, unit) {
        (Some(op), _) => op,
        (None, Unit::Matrix) => {
            // Bits 23:22 (`clear_dvalid` / `clear_ab_vld`) where the table says they hand
            // banks back.
            let flips = if def.hands_back { (word >> 22) & 3 } else { 0 };
            Op::Math {
                wait_a: def.waits & bank::SRCA != 0,
                wait_b: def.waits & bank::SRCB != 0,
                flip_a: flips & 1 == 1,
                flip_b: flips & 2 == 2,
                movd2a: def.opcode == isa::opcodes::MOVD2A,
            }
        }
        (None, Unit::ThCon) => Op::ThCon {
            mem_tail: def.mem_tail,
        },
        (None, _) => Op::Other,
    };
    // MOP, MOP_CFG, REPLAY and RESOURCEDECL are consumed by the frontend (and NOP occupies
    // nothing): no backend unit.
    let unit = match op {
        Op::Nop | Op::Mop { .. } | Op::MopCfg { .. } | Op::Replay { .. } | Op::ResourceDecl => {
            Unit::None
        }
        _ => unit,
    };
    let insn = Insn {
        word,
        opcode,
        unit,
        block_bits: def.block_bits,
        op,
        latency: def.latency,
        interval: def.interval,
        from_brisc: false,
        pc: None,
    };
    (insn, typed)
}

/// The instruction as the compiler spells it, for logs and reports.
pub fn disasm(arch: Arch, word: u32) -> String {
    isa::disassemble(arch, word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo gives what decoding the word gives, for both architectures, on a stream of
    /// words that repeat (hits), share a slot (collisions) and cover every opcode.
    #[test]
    fn a_remembered_decode_is_the_decode() {
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d);
        for arch in [Arch::Blackhole, Arch::WormholeB0] {
            let mut memo = DecodeMemo::new(arch);
            let pool: Vec<u32> = (0..400).map(|_| next()).collect();
            let mut hits = 0;
            for k in 0..20_000 {
                let word = if k % 3 == 0 {
                    next()
                } else {
                    pool[(next() as usize) % pool.len()]
                };
                let before = memo.slots.iter().flatten().any(|d| d.insn.word == word);
                assert_eq!(
                    memo.decode(word),
                    decode(arch, word),
                    "{arch:?} {word:#010x}"
                );
                let typed = (arch == Arch::Blackhole).then(|| isa::blackhole::Insn::decode(word));
                assert_eq!(memo.blackhole(word), typed, "{arch:?} {word:#010x}");
                hits += usize::from(before);
            }
            assert!(hits > 1000, "{arch:?}: {hits} hits");
        }
    }

    /// The host thread's memos give what decoding gives, with words of both architectures
    /// interleaved: a word's Wormhole decode never answers for its Blackhole one, nor the
    /// other way round.
    #[test]
    fn the_shared_memos_keep_the_architectures_apart() {
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15);
        let pool: Vec<u32> = (0..300).map(|_| next()).collect();
        for k in 0..20_000 {
            let word = pool[(next() as usize) % pool.len()];
            let arch = if k % 2 == 0 {
                Arch::Blackhole
            } else {
                Arch::WormholeB0
            };
            assert_eq!(
                decode_memoized(arch, word),
                decode(arch, word),
                "{arch:?} {word:#010x}"
            );
            let typed = (arch == Arch::Blackhole).then(|| isa::blackhole::Insn::decode(word));
            assert_eq!(
                blackhole_memoized(arch, word),
                typed,
                "{arch:?} {word:#010x}"
            );
        }
    }
}
