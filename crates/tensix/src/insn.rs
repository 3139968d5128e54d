//! Pre-decoded instructions: each word is decoded once, when it enters the frontend (or when a
//! MopCfg register is written), into the few facts the frontend and backend need. The hot path
//! then never looks at strings or tables again.
//!
//! Field positions come from `blackhole_assembly.yaml` / `wormhole_b0_assembly.yaml` (tt-llk
//! 0.81.1); where both architectures agree the raw bits are read directly.
use bhemu_isa::tensix::{self as isa, Arch, ExUnit};

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
}

impl Insn {
    /// A NOP, used to fill unwritten replay-buffer and MopCfg slots.
    pub fn nop(arch: Arch) -> Insn {
        predecode(arch, 0x0200_0000)
    }
}

/// Documented timing figures, one place. Each figure names its page; "placeholder" marks a
/// number the documentation does not give (what the unit computes, and so how long it takes,
/// arrives in a later issue).
pub mod timing {
    /// Sync Unit: every instruction 1 cycle (SyncUnit.md table).
    pub const SYNC: u16 = 1;
    /// MVMUL, DOTPV, GAPOOL, ELWMUL, GMPOOL, ELWADD, ELWSUB: 5 cycles (MatrixUnit.md).
    pub const MATH_MAC: u16 = 5;
    /// MOVA2D, MOVDBGA2D, MOVB2D, MOVB2A: 4 cycles (MatrixUnit.md).
    pub const MATH_MOV4: u16 = 4;
    /// MOVD2A: 2 cycles (MatrixUnit.md); bhemu uses the same for MOVD2B.
    pub const MATH_MOVD2A: u16 = 2;
    /// SHIFTXB: latency 2, throughput 0.5 (MatrixUnit.md).
    pub const MATH_SHIFTXB: u16 = 2;
    /// SETRWC, INCRWC, CLEARDVALID, CLREXPHIST, GATESRCRST, SHIFTXA, ZEROACC, ZEROSRC,
    /// TRNSPSRCB: 1 cycle (MatrixUnit.md); other Matrix Unit instructions assumed 1.
    pub const MATH_SIMPLE: u16 = 1;
    /// Vector Unit: SFPADD/SFPMAD/SFPMUL/SFPADDI/SFPMULI/SFPLUT/SFPLUTFP32/SFPSWAP/SFPMUL24 2
    /// cycles, the rest 1 (BlackholeA0 VectorUnit.md tables).
    pub const SFPU_MAD: u16 = 2;
    pub const SFPU_SIMPLE: u16 = 1;
    /// Configuration Unit (BlackholeA0 ConfigurationUnit.md): SETC16 1, WRCFG 2, CFGSHIFTMASK 2
    /// (IPC 1/2), RMWCIB 1, RDCFG >= 2, STREAMWRCFG >= 5.
    pub const CFG_SETC16: u16 = 1;
    pub const CFG_WRCFG: u16 = 2;
    pub const CFG_RDCFG: u16 = 2;
    pub const CFG_STREAMWRCFG: u16 = 5;
    /// Miscellaneous Unit: single cycle, one per thread per cycle (MiscellaneousUnit.md).
    pub const MISC: u16 = 1;
    /// ThCon (ScalarUnit.md): DMANOP/SETDMAREG 1; REG2FLOP/FLUSHDMA >= 2; ADD/SUB/MUL/CMP/
    /// BITWOP/SHIFTDMAREG "3 or 4" (bhemu: 3); STOREIND/STOREREG/ATSWAP >= 3; LOADIND/LOADREG/
    /// ATINCGET >= 3; ATCAS/ATINCGETPTR >= 15. bhemu uses the lower bounds.
    pub const THCON_1: u16 = 1;
    pub const THCON_2: u16 = 2;
    pub const THCON_3: u16 = 3;
    pub const THCON_15: u16 = 15;
    /// Placeholder: cycles a load's result stays outstanding after it leaves ThCon
    /// (ScalarUnit.md: "the load result isn't delivered until some time later").
    pub const THCON_LOAD_TAIL: u8 = 4;
    /// Placeholder: UNPACR occupancy of its unpacker once its bank is available (depends on
    /// tile size and format; not documented as a figure). UNPACR_NOP: 1 ("Occupy Unpacker for
    /// one cycle", UNPACR_NOP_Nop.md).
    pub const UNPACR: u16 = 4;
    pub const UNPACR_NOP: u16 = 1;
    /// Placeholder: PACR's time in the packer pipeline; PACR_SETREG 1.
    pub const PACR: u16 = 4;
    pub const PACR_SETREG: u16 = 1;
    /// Placeholder: how long the Mover stays busy after accepting an XMOV (XMOV.md: XMOV
    /// executes in one cycle, "the mover proceeds with the task in the background").
    pub const XMOV: u16 = 4;
}

fn bit(w: u32, i: u32) -> bool {
    (w >> i) & 1 == 1
}

/// Decode one word for this frontend. Never fails: unknown opcodes become `Op::Unknown`, which
/// the Wait Gate reports if one ever tries to pass.
pub fn predecode(arch: Arch, word: u32) -> Insn {
    let d = isa::decode(arch, word);
    let opcode = (word >> 24) as u8;
    let Some(def) = d.def else {
        return Insn {
            word,
            opcode,
            unit: Unit::None,
            block_bits: block::ALL,
            op: Op::Unknown,
            latency: 1,
            interval: 1,
            from_brisc: false,
        };
    };
    let name = def.name;
    let mut unit = match def.unit {
        ExUnit::Cfg => Unit::Config,
        ExUnit::Math => Unit::Matrix,
        ExUnit::None => Unit::None,
        ExUnit::Pack => Unit::Pack,
        ExUnit::Sfpu => Unit::Vector,
        ExUnit::Sync => Unit::Sync,
        ExUnit::Tdma => Unit::Misc,
        ExUnit::Thcon => Unit::ThCon,
        ExUnit::Unpack => {
            // Unpack_block_selection / Unpacker_Select: bit 23 (both YAMLs).
            if bit(word, 23) {
                Unit::Unpack1
            } else {
                Unit::Unpack0
            }
        }
        ExUnit::Xmov => Unit::Mover,
    };
    let block_bits = def.block_bits;
    let mut latency: u16 = 1;
    let mut interval: u8 = 1;
    let flips = ((word >> 22) & 3) as u8;
    let op = match name {
        "NOP" => Op::Nop,
        "MOP" => Op::Mop {
            template: ((word >> 23) & 1) as u8,
            count1: ((word >> 16) & 0x7f) as u8,
            mask_lo: (word & 0xffff) as u16,
        },
        "MOP_CFG" => Op::MopCfg {
            mask_hi: (word & 0xffff) as u16,
        },
        "REPLAY" => Op::Replay {
            start: ((word >> 14) & 0x1f) as u8,
            len: ((word >> 4) & 0x3f) as u8,
            exec: bit(word, 1),
            load: bit(word, 0),
        },
        "RESOURCEDECL" => Op::ResourceDecl,
        "STALLWAIT" => {
            let stall = ((word >> 15) & 0x1ff) as u16;
            let raw = word & 0x7fff;
            // STALLWAIT.md: ConditionMask ? ConditionMask : 0x0F (Blackhole), 0x7F (Wormhole);
            // BlockMask ? BlockMask : 1 << 6.
            let conds = match arch {
                Arch::Blackhole => (if raw == 0 { 0x0f } else { raw as u16 }) & cond::ALL,
                Arch::WormholeB0 => cond::from_wormhole(if raw == 0 { 0x7f } else { raw }),
            };
            Op::StallWait {
                block: if stall == 0 { block::MATH } else { stall },
                conds,
            }
        }
        "SEMWAIT" => {
            let stall = ((word >> 15) & 0x1ff) as u16;
            Op::SemWait {
                block: if stall == 0 { block::MATH } else { stall },
                sems: ((word >> 2) & 0xff) as u8,
                cond: (word & 3) as u8,
            }
        }
        "SEMINIT" => Op::SemInit {
            sems: ((word >> 2) & 0xff) as u8,
            value: ((word >> 16) & 0xf) as u8,
            max: ((word >> 20) & 0xf) as u8,
        },
        "SEMPOST" => Op::SemPost {
            sems: ((word >> 2) & 0xff) as u8,
        },
        "SEMGET" => Op::SemGet {
            sems: ((word >> 2) & 0xff) as u8,
        },
        "ATGETM" => Op::AtGetM {
            index: word & 0x00ff_ffff,
        },
        "ATRELM" => Op::AtRelM {
            index: word & 0x00ff_ffff,
        },
        "UNPACR" => {
            latency = timing::UNPACR;
            Op::Unpacr { flip: bit(word, 6) }
        }
        "UNPACR_NOP" => {
            latency = timing::UNPACR_NOP;
            // Blackhole: field Set_Dvalid (bit 8); Wormhole: mode 0b111 in the low bits
            // (UNPACR_NOP_SETDVALID.md, p_unpacr_nop::UNP_SET_DVALID).
            let set_dvalid = match arch {
                Arch::Blackhole => bit(word, 8),
                Arch::WormholeB0 => word & 7 == 7,
            };
            // Blackhole's clearing form (Unpack_Pop = 1) waits like UNPACR when
            // Stall_Clr_Cntrl (bit 5) is set, otherwise on the Matrix Unit's bank.
            let wait = match arch {
                Arch::Blackhole if word & 3 == 1 && bit(word, 5) => NopWait::UnpackBank,
                Arch::Blackhole if word & 3 == 1 => NopWait::MatrixBank,
                _ => NopWait::None,
            };
            Op::UnpacrNop { set_dvalid, wait }
        }
        "SETDVALID" => Op::SetDvalid {
            a: bit(word, 0),
            b: bit(word, 1),
        },
        "CLEARDVALID" => Op::ClearDvalid {
            a: flips & 1 == 1,
            b: flips & 2 == 2,
            keep: bit(word, 1),
            reset: bit(word, 0),
        },
        "XMOV" => {
            latency = timing::XMOV;
            Op::Xmov
        }
        _ => match unit {
            Unit::Matrix => {
                let (wait_a, wait_b, fl, lat) = match name {
                    // MVMUL.md, ELWADD.md, ...: wait for both banks; clear_dvalid hands back.
                    "MVMUL" | "DOTPV" | "GAPOOL" | "GMPOOL" | "ELWADD" | "ELWSUB" | "ELWMUL" => {
                        (true, true, flips, timing::MATH_MAC)
                    }
                    // MOVA2D.md / SHIFTXA.md wait for SrcA only.
                    "MOVA2D" => (true, false, 0, timing::MATH_MOV4),
                    "SHIFTXA" => (true, false, 0, timing::MATH_SIMPLE),
                    "MOVDBGA2D" => (false, false, 0, timing::MATH_MOV4),
                    // MOVB2A.md / MOVB2D.md / SHIFTXB.md / TRNSPSRCB.md wait for SrcB only.
                    "MOVB2A" | "MOVB2D" => (false, true, 0, timing::MATH_MOV4),
                    "SHIFTXB" => {
                        interval = 2;
                        (false, true, 0, timing::MATH_SHIFTXB)
                    }
                    "TRNSPSRCB" => (false, true, 0, timing::MATH_SIMPLE),
                    // MOVD2A.md: does NOT wait (docs/wait-gate.md, LLK pattern 2).
                    "MOVD2A" | "MOVD2B" => (false, false, 0, timing::MATH_MOVD2A),
                    // SETRWC.md: clear_ab_vld flips banks like CLR_A/CLR_B.
                    "SETRWC" => (false, false, flips, timing::MATH_SIMPLE),
                    _ => (false, false, 0, timing::MATH_SIMPLE),
                };
                latency = lat;
                Op::Math {
                    wait_a,
                    wait_b,
                    flip_a: fl & 1 == 1,
                    flip_b: fl & 2 == 2,
                    movd2a: name == "MOVD2A",
                }
            }
            Unit::ThCon => {
                let (lat, tail) = match name {
                    "DMANOP" | "SETDMAREG" | "RSTDMA" => (timing::THCON_1, 0),
                    "REG2FLOP" | "FLUSHDMA" => (timing::THCON_2, 0),
                    "LOADIND" | "LOADREG" | "ATINCGET" => {
                        (timing::THCON_3, timing::THCON_LOAD_TAIL)
                    }
                    "ATCAS" | "ATINCGETPTR" => (timing::THCON_15, 0),
                    _ => (timing::THCON_3, 0),
                };
                latency = lat;
                Op::ThCon { mem_tail: tail }
            }
            _ => {
                latency = match (unit, name) {
                    (
                        Unit::Vector,
                        "SFPADD" | "SFPMAD" | "SFPMUL" | "SFPADDI" | "SFPMULI" | "SFPLUT"
                        | "SFPLUTFP32" | "SFPSWAP" | "SFPMUL24",
                    ) => timing::SFPU_MAD,
                    (Unit::Vector, _) => timing::SFPU_SIMPLE,
                    (Unit::Config, "WRCFG") => timing::CFG_WRCFG,
                    (Unit::Config, "CFGSHIFTMASK") => {
                        interval = 2;
                        timing::CFG_WRCFG
                    }
                    (Unit::Config, "RDCFG") => timing::CFG_RDCFG,
                    (Unit::Config, "STREAMWRCFG") => timing::CFG_STREAMWRCFG,
                    (Unit::Config, _) => timing::CFG_SETC16,
                    (Unit::Pack, "PACR_SETREG") => timing::PACR_SETREG,
                    (Unit::Pack, _) => timing::PACR,
                    (Unit::Misc, _) => timing::MISC,
                    (Unit::Sync, _) => timing::SYNC,
                    _ => 1,
                };
                Op::Other
            }
        },
    };
    if matches!(
        op,
        Op::Nop | Op::Mop { .. } | Op::MopCfg { .. } | Op::Replay { .. } | Op::ResourceDecl
    ) {
        unit = Unit::None;
    }
    Insn {
        word,
        opcode,
        unit,
        block_bits,
        op,
        latency,
        interval,
        from_brisc: false,
    }
}

/// The instruction as the compiler spells it, for logs and reports.
pub fn disasm(arch: Arch, word: u32) -> String {
    isa::disassemble(arch, word)
}
