//! The address map of a Tensix tile as seen by each of its five cores, decoded once per access
//! into a [`Target`]. Source: tt-isa-documentation `BlackholeA0/TensixTile/BabyRISCV/README.md`
//! ("Memory map" table: which core sees what), `PCBufs.md`, `ManualTTSync.md`,
//! `PushTensixInstruction.md`, `Mailboxes.md`, `TensixCoprocessor/SyncUnit.md` ("RISCV access to
//! semaphores"), `WormholeB0/.../ScalarUnit.md` ("RISCV access to GPRs").

/// The five baby RISC-V cores of a tile, in scheduling order (docs/execution-model.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Core {
    Brisc = 0,
    Ncrisc = 1,
    Trisc0 = 2,
    Trisc1 = 3,
    Trisc2 = 4,
}

impl Core {
    pub const ALL: [Core; 5] = [
        Core::Brisc,
        Core::Ncrisc,
        Core::Trisc0,
        Core::Trisc1,
        Core::Trisc2,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }
    pub fn from_index(i: usize) -> Option<Core> {
        Core::ALL.get(i).copied()
    }
    pub const fn name(self) -> &'static str {
        match self {
            Core::Brisc => "BRISC",
            Core::Ncrisc => "NCRISC",
            Core::Trisc0 => "TRISC0",
            Core::Trisc1 => "TRISC1",
            Core::Trisc2 => "TRISC2",
        }
    }
    /// The Tensix thread of a TRISC.
    pub const fn thread(self) -> Option<usize> {
        match self {
            Core::Trisc0 => Some(0),
            Core::Trisc1 => Some(1),
            Core::Trisc2 => Some(2),
            _ => None,
        }
    }
    /// Index among the four cores that have mailboxes (B 0, T0 1, T1 2, T2 3); NCRISC has none
    /// (Mailboxes.md).
    pub const fn mailbox_index(self) -> Option<usize> {
        match self {
            Core::Brisc => Some(0),
            Core::Trisc0 => Some(1),
            Core::Trisc1 => Some(2),
            Core::Trisc2 => Some(3),
            Core::Ncrisc => None,
        }
    }
    /// Bytes of local data RAM: 8 KiB for B and NC, 4 KiB for each TRISC (README.md "Local
    /// Data RAM").
    pub const fn local_ram_size(self) -> u32 {
        match self {
            Core::Brisc | Core::Ncrisc => 8 << 10,
            _ => 4 << 10,
        }
    }
    /// Base of this core's "slow access path" alias of its local RAM (README.md memory map).
    pub const fn local_ram_slow_base(self) -> u32 {
        match self {
            Core::Brisc => 0xFFB1_4000,
            Core::Ncrisc => 0xFFB1_6000,
            Core::Trisc0 => 0xFFB1_8000,
            Core::Trisc1 => 0xFFB1_A000,
            Core::Trisc2 => 0xFFB1_C000,
        }
    }
}

impl std::fmt::Display for Core {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

pub const L1_SIZE: u32 = 1536 << 10;
pub const LOCAL_RAM_BASE: u32 = 0xFFB0_0000;
pub const TDMA_BASE: u32 = 0xFFB1_1000;
pub const DEBUG_REGS_BASE: u32 = 0xFFB1_2000;
pub const PIC_BASE: u32 = 0xFFB1_3000;
pub const PC_SNAPSHOT_BASE: u32 = 0xFFB1_3138;
pub const NIU_BASE: u32 = 0xFFB2_0000;
pub const OVERLAY_BASE: u32 = 0xFFB4_0000;
pub const MOP_CFG_BASE: u32 = 0xFFB8_0000;
pub const DST_BASE: u32 = 0xFFBD_8000;
pub const REGFILE_BASE: u32 = 0xFFE0_0000;
pub const INSTRN_BUF_BASE: u32 = 0xFFE4_0000;
pub const PC_BUF_BASE: u32 = 0xFFE8_0000;
pub const MAILBOX_BASE: u32 = 0xFFEC_0000;
pub const TENSIX_CFG_BASE: u32 = 0xFFEF_0000;
/// `Config` + `ThreadConfig` + `ConfigDualWrite` fit in the 64 KiB window (BackendConfiguration.md).
pub const TENSIX_CFG_SIZE: u32 = 0x1_0000;

/// Where a PC-buffer access lands (PCBufs.md, ManualTTSync.md, SyncUnit.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PcBufPort {
    /// RISCV B's side of `PCBuf[i]` (push on write, "wait for T_i" on read).
    BriscSide(usize),
    /// RISCV T_i's side of its PCBuf (pop on read, writes discarded), `PC_BUF_BASE + 0`.
    TriscSide(usize),
    /// `CoprocessorDoneCheck`, `PC_BUF_BASE + 4`.
    CoprocessorDone(usize),
    /// `MOPExpanderDoneCheck` (mop_sync), `PC_BUF_BASE + 8`.
    MopDone(usize),
    /// `SemaphoreAccess[i]`, `PC_BUF_BASE + 0x20 + 4i`.
    Semaphore(usize),
}

/// What an address means for one core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    L1(u32),
    /// Local data RAM of `owner` at byte offset `off` (own fast path or the slow alias).
    LocalRam {
        owner: Core,
        off: u32,
    },
    Tdma(u32),
    DebugRegs(u32),
    Pic(u32),
    PcSnapshot(Core),
    /// NoC 0 / NoC 1 NIU registers; the full address is forwarded to `bhemu_noc`.
    Niu(u32),
    Overlay(u32),
    MopCfg {
        thread: usize,
        index: usize,
    },
    Dst(u32),
    /// Word index into `GPRs[3][64]` flattened.
    Gpr(usize),
    /// Push to Tensix thread `thread`; `after_mop` for RISCV B's path.
    InsnPush {
        thread: usize,
        after_mop: bool,
    },
    PcBuf(PcBufPort),
    /// Mailbox region `m` (0-3) at offset `off`.
    Mailbox {
        region: usize,
        off: u32,
    },
    TensixCfg(u32),
    /// Nothing there for this core; the sentence says why.
    Unmapped(&'static str),
    /// A Tensix window that RISCV NC is not connected to (README.md "Memory map"; "RISCV NC
    /// cannot push instructions"). The hardware's answer is not documented, so the access is
    /// undefined behaviour: it stops a strict chip and otherwise is reported once and has no
    /// effect (a load reads 0), because firmware that releases every core from reset at once
    /// (tt-llk's debug helpers write 0 to `SOFT_RESET_0`) lets RISCV NC run whatever L1 holds.
    NotConnected(&'static str),
}

/// Decodes `addr` for `core` (BabyRISCV/README.md "Memory map").
pub fn decode(core: Core, addr: u32) -> Target {
    use Target::*;
    let is_t = core.thread().is_some();
    let b_or_t = core != Core::Ncrisc;
    match addr {
        a if a < L1_SIZE => L1(a),
        a if a < LOCAL_RAM_BASE => Unmapped("between the end of L1 (0x00180000) and 0xFFB00000"),
        a if a < LOCAL_RAM_BASE + 0x2000 => {
            let off = a - LOCAL_RAM_BASE;
            if off < core.local_ram_size() {
                LocalRam { owner: core, off }
            } else {
                Unmapped("beyond this TRISC's 4 KiB local data RAM")
            }
        }
        a if a < TDMA_BASE => Unmapped("gap after local data RAM (0xFFB02000-0xFFB10FFF)"),
        a if a < DEBUG_REGS_BASE => {
            if b_or_t {
                Tdma(a - TDMA_BASE)
            } else {
                NotConnected("TDMA-RISC is not mapped for NCRISC")
            }
        }
        a if a < PIC_BASE => DebugRegs(a - DEBUG_REGS_BASE),
        a if a < PC_SNAPSHOT_BASE => Pic(a - PIC_BASE),
        a if a < PC_SNAPSHOT_BASE + 20 => {
            match Core::from_index(((a - PC_SNAPSHOT_BASE) / 4) as usize) {
                // Order of the snapshot words: B, NC, T0, T1, T2 (README.md "RISCV pc snapshot").
                Some(c) => PcSnapshot(c),
                None => Unmapped("pc snapshot index"),
            }
        }
        a if a < 0xFFB1_4000 => Unmapped("gap after the PIC (0xFFB1314C-0xFFB13FFF)"),
        a if a < 0xFFB2_0000 => slow_local_ram(a),
        a if a < OVERLAY_BASE => Niu(a),
        a if a < MOP_CFG_BASE => Overlay(a - OVERLAY_BASE),
        a if a < MOP_CFG_BASE + 0x24 => match core.thread() {
            Some(t) => MopCfg {
                thread: t,
                index: ((a - MOP_CFG_BASE) / 4) as usize,
            },
            None => Unmapped("MOP expander configuration is mapped for TRISCs only"),
        },
        a if (DST_BASE..DST_BASE + 0x8000).contains(&a) => {
            if is_t {
                Dst(a - DST_BASE)
            } else {
                Unmapped("Dst is mapped for TRISCs only")
            }
        }
        a if (REGFILE_BASE..REGFILE_BASE + 0x1000).contains(&a) => {
            let w = ((a - REGFILE_BASE) / 4) as usize;
            match core {
                Core::Brisc if w < 192 => Gpr(w),
                Core::Brisc => Unmapped("beyond GPRs[3][64] in RISCV B's view"),
                Core::Ncrisc => NotConnected("Tensix GPRs are not mapped for NCRISC"),
                c => match c.thread() {
                    Some(t) if w < 64 => Gpr(t * 64 + w),
                    _ => Unmapped("beyond this thread's 64 GPRs"),
                },
            }
        }
        a if (INSTRN_BUF_BASE..INSTRN_BUF_BASE + 0x3_0000).contains(&a) => {
            let which = ((a - INSTRN_BUF_BASE) >> 16) as usize;
            match (core, core.thread()) {
                (Core::Brisc, _) => InsnPush { thread: which, after_mop: true },
                (_, Some(t)) if which == 0 => InsnPush { thread: t, after_mop: false },
                (_, Some(_)) => Unmapped(
                    "INSTRN1/2_BUF_BASE from a TRISC: \"do not use; attempting to store here will hang the RISCV\"",
                ),
                _ => NotConnected("NCRISC cannot push Tensix instructions"),
            }
        }
        a if (PC_BUF_BASE..PC_BUF_BASE + 0x3_0000).contains(&a) => {
            let which = ((a - PC_BUF_BASE) >> 16) as usize;
            let off = a & 0xFFFF;
            match (core, core.thread()) {
                (Core::Brisc, _) => PcBuf(PcBufPort::BriscSide(which)),
                (_, Some(t)) if which == 0 => match off {
                    0..=3 => PcBuf(PcBufPort::TriscSide(t)),
                    4..=7 => PcBuf(PcBufPort::CoprocessorDone(t)),
                    8..=0xB => PcBuf(PcBufPort::MopDone(t)),
                    0x20..=0x3F => PcBuf(PcBufPort::Semaphore(((off - 0x20) / 4) as usize)),
                    _ => Unmapped("PC_BUF_BASE offset with no documented register for a TRISC"),
                },
                (_, Some(_)) => Unmapped("PC1/PC2_BUF_BASE are mapped for RISCV B only"),
                _ => NotConnected("PC buffers are not mapped for NCRISC"),
            }
        }
        a if (MAILBOX_BASE..MAILBOX_BASE + 0x4000).contains(&a) => {
            if b_or_t {
                Mailbox {
                    region: ((a - MAILBOX_BASE) >> 12) as usize,
                    off: a & 0xFFF,
                }
            } else {
                NotConnected("mailboxes are not mapped for NCRISC")
            }
        }
        a if a >= TENSIX_CFG_BASE && a - TENSIX_CFG_BASE < TENSIX_CFG_SIZE => {
            if b_or_t {
                TensixCfg(a - TENSIX_CFG_BASE)
            } else {
                NotConnected("Tensix backend configuration is not mapped for NCRISC")
            }
        }
        _ => Unmapped("no device at this address"),
    }
}

/// `0xFFB1_4000..0xFFB1_DFFF`: every core (and the NoC) reaches every local RAM here. T0-T2's
/// 4 KiB RAMs appear twice each (README.md memory map lists each TRISC on two 4 KiB rows).
fn slow_local_ram(a: u32) -> Target {
    let (owner, base, size) = match a {
        0xFFB1_4000..=0xFFB1_5FFF => (Core::Brisc, 0xFFB1_4000, 0x2000),
        0xFFB1_6000..=0xFFB1_7FFF => (Core::Ncrisc, 0xFFB1_6000, 0x2000),
        0xFFB1_8000..=0xFFB1_9FFF => (Core::Trisc0, 0xFFB1_8000, 0x1000),
        0xFFB1_A000..=0xFFB1_BFFF => (Core::Trisc1, 0xFFB1_A000, 0x1000),
        0xFFB1_C000..=0xFFB1_DFFF => (Core::Trisc2, 0xFFB1_C000, 0x1000),
        _ => return Target::Unmapped("gap after the local-RAM slow path (0xFFB1E000-0xFFB1FFFF)"),
    };
    Target::LocalRam {
        owner,
        off: (a - base) % size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BabyRISCV/README.md: L1 is 1536 KiB at 0; beyond it nothing until 0xFFB00000.
    #[test]
    fn l1_range_and_gap() {
        assert_eq!(decode(Core::Brisc, 0), Target::L1(0));
        assert_eq!(decode(Core::Trisc2, L1_SIZE - 1), Target::L1(L1_SIZE - 1));
        assert!(matches!(decode(Core::Brisc, L1_SIZE), Target::Unmapped(_)));
    }

    /// README.md "Local Data RAM": 8 KiB for B/NC, 4 KiB for TRISCs; slow-path aliases.
    #[test]
    fn local_ram_sizes_and_slow_aliases() {
        assert_eq!(
            decode(Core::Brisc, 0xFFB0_1FFC),
            Target::LocalRam {
                owner: Core::Brisc,
                off: 0x1FFC
            }
        );
        assert!(matches!(
            decode(Core::Trisc0, 0xFFB0_1000),
            Target::Unmapped(_)
        ));
        assert_eq!(
            decode(Core::Ncrisc, 0xFFB1_4010),
            Target::LocalRam {
                owner: Core::Brisc,
                off: 0x10
            }
        );
        assert_eq!(
            decode(Core::Brisc, 0xFFB1_9004),
            Target::LocalRam {
                owner: Core::Trisc0,
                off: 4
            }
        );
        assert_eq!(
            decode(Core::Brisc, 0xFFB1_C008),
            Target::LocalRam {
                owner: Core::Trisc2,
                off: 8
            }
        );
    }

    /// PushTensixInstruction.md: B pushes to any thread after the MOP expander, T_i to its own
    /// thread before it, NC cannot push, T_i at INSTRN1/2 would hang.
    #[test]
    fn instruction_push_access_rules() {
        assert_eq!(
            decode(Core::Brisc, 0xFFE5_0000),
            Target::InsnPush {
                thread: 1,
                after_mop: true
            }
        );
        assert_eq!(
            decode(Core::Trisc2, 0xFFE4_0000),
            Target::InsnPush {
                thread: 2,
                after_mop: false
            }
        );
        assert!(matches!(
            decode(Core::Trisc1, 0xFFE6_0000),
            Target::Unmapped(_)
        ));
        assert!(matches!(
            decode(Core::Ncrisc, 0xFFE4_0000),
            Target::NotConnected(_)
        ));
    }

    /// PCBufs.md / ManualTTSync.md / SyncUnit.md: B sees the B side of PCBuf 0-2; T_i sees its
    /// PCBuf, the two TTSync checks and the semaphores.
    #[test]
    fn pc_buffer_ports() {
        assert_eq!(
            decode(Core::Brisc, 0xFFEA_0000),
            Target::PcBuf(PcBufPort::BriscSide(2))
        );
        assert_eq!(
            decode(Core::Trisc1, 0xFFE8_0000),
            Target::PcBuf(PcBufPort::TriscSide(1))
        );
        assert_eq!(
            decode(Core::Trisc1, 0xFFE8_0004),
            Target::PcBuf(PcBufPort::CoprocessorDone(1))
        );
        assert_eq!(
            decode(Core::Trisc0, 0xFFE8_0008),
            Target::PcBuf(PcBufPort::MopDone(0))
        );
        assert_eq!(
            decode(Core::Trisc0, 0xFFE8_003C),
            Target::PcBuf(PcBufPort::Semaphore(7))
        );
        assert!(matches!(
            decode(Core::Ncrisc, 0xFFE8_0000),
            Target::NotConnected(_)
        ));
    }

    /// README.md: MOP config and Dst for TRISCs only; GPRs: B all three threads, T_i its own.
    #[test]
    fn per_core_views() {
        assert_eq!(
            decode(Core::Trisc1, 0xFFB8_0008),
            Target::MopCfg {
                thread: 1,
                index: 2
            }
        );
        assert!(matches!(
            decode(Core::Brisc, 0xFFB8_0000),
            Target::Unmapped(_)
        ));
        assert_eq!(decode(Core::Brisc, 0xFFE0_0100), Target::Gpr(64));
        assert_eq!(decode(Core::Trisc1, 0xFFE0_0004), Target::Gpr(65));
        assert!(matches!(
            decode(Core::Ncrisc, 0xFFE0_0000),
            Target::NotConnected(_)
        ));
        assert!(matches!(
            decode(Core::Ncrisc, 0xFFB1_1000),
            Target::NotConnected(_)
        ));
        assert_eq!(decode(Core::Ncrisc, 0xFFB1_21B0), Target::DebugRegs(0x1B0));
        assert!(matches!(
            decode(Core::Ncrisc, 0xFFEF_0000),
            Target::NotConnected(_)
        ));
    }
}
