//! The machine-mode CSRs the hart models itself (BlackholeA0/TensixTile/BabyRISCV/CSRs.md plus
//! the trap CSRs standard bare-metal programs use). Everything else goes to the bus
//! ([`crate::Bus::read_custom_csr`]), else is an illegal instruction.

/// `mstatus` as the hardware reads it: SD, FS and VS permanently dirty (CSRs.md). The hardware
/// register is read-only; bhemu additionally lets MIE (bit 3) and MPIE (bit 7) change so that
/// standard trap handlers and `mret` behave as the privileged spec says.
pub(crate) const MSTATUS_FIXED: u32 = 0x8000_6600;
pub(crate) const MSTATUS_MIE: u32 = 1 << 3;
pub(crate) const MSTATUS_MPIE: u32 = 1 << 7;
/// `misa` is read-only `0x40201123` (RV32IMABFV) on the babies (CSRs.md).
pub(crate) const MISA: u32 = 0x4020_1123;

#[derive(Clone, Debug, Default)]
pub(crate) struct Csrs {
    pub mstatus_bits: u32,
    pub mie: u32,
    pub mtvec: u32,
    pub mscratch: u32,
    pub mepc: u32,
    pub mcause: u32,
    pub mtval: u32,
    pub mcountinhibit: u32,
    /// mhpmevent3, mhpmevent4 (CSRs.md lists only these two event selectors).
    pub mhpmevent: [u32; 2],
    /// mhpmcounter3/4 as written; bhemu does not model the events they count.
    pub mhpmcounter: [u64; 2],
}

impl Csrs {
    pub fn mstatus(&self) -> u32 {
        MSTATUS_FIXED | (self.mstatus_bits & (MSTATUS_MIE | MSTATUS_MPIE))
    }
}

/// Where a CSR number lands.
pub(crate) enum CsrSlot {
    Mstatus,
    Misa,
    Mie,
    Mip,
    Mtvec,
    Mscratch,
    Mepc,
    Mcause,
    Mtval,
    Mcountinhibit,
    Mhpmevent(usize),
    /// Counter index (0 = cycle, 1 = instret, 2/3 = mhpmcounter3/4), high half?
    Counter(usize, bool),
    /// mvendorid/marchid/mimpid read 0 ("not implemented", riscv-privileged); mhartid.
    ReadOnlyZero,
    Mhartid,
    /// `intp_restore_pc` (0xBCA): a copy of the pc `mret` returns to; writes have no effect
    /// (CSRs.md).
    IntpRestorePc,
    Custom,
}

pub(crate) fn slot(csr: u16) -> CsrSlot {
    use CsrSlot::*;
    match csr {
        0x300 => Mstatus,
        0x301 => Misa,
        0x304 => Mie,
        0x344 => Mip,
        0x305 => Mtvec,
        0x340 => Mscratch,
        0x341 => Mepc,
        0x342 => Mcause,
        0x343 => Mtval,
        0x320 => Mcountinhibit,
        0x323 => Mhpmevent(0),
        0x324 => Mhpmevent(1),
        // cycle/instret(h) are read/write aliases of mcycle/minstret(h) on the babies (CSRs.md);
        // `time` does not exist (InstructionSet.md).
        0xb00 | 0xc00 => Counter(0, false),
        0xb80 | 0xc80 => Counter(0, true),
        0xb02 | 0xc02 => Counter(1, false),
        0xb82 | 0xc82 => Counter(1, true),
        0xb03 => Counter(2, false),
        0xb83 => Counter(2, true),
        0xb04 => Counter(3, false),
        0xb84 => Counter(3, true),
        0xf11..=0xf13 => ReadOnlyZero,
        0xf14 => Mhartid,
        0xbca => IntpRestorePc,
        _ => Custom,
    }
}
