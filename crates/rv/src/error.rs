//! What a hart reports when it stops retiring: a pause (ebreak), or an error that software did
//! not handle (no trap handler installed).

/// Why the hart paused. A halted hart stays halted until [`crate::Hart::resume`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HaltReason {
    /// `ebreak` at `pc` retired and the core paused before the next instruction
    /// (WormholeB0/TensixTile/BabyRISCV/DebugInterface.md, "ebreak and ecall instructions";
    /// BlackholeA0 InstructionSet.md: "ebreak triggers a debug pause").
    Ebreak { pc: u32 },
}

/// The kinds of precise exceptions (riscv-privileged, `mcause` exception codes) plus the hart's
/// own conditions. Each exception kind maps to the `mcause` value used when a handler exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HartErrorKind {
    MisalignedFetch,
    FetchFault,
    IllegalInstruction,
    MisalignedLoad,
    LoadFault,
    MisalignedStore,
    StoreFault,
    EnvironmentCall,
}

impl HartErrorKind {
    /// The `mcause` exception code (riscv-privileged, table "Machine cause register values").
    pub const fn mcause(self) -> u32 {
        match self {
            HartErrorKind::MisalignedFetch => 0,
            HartErrorKind::FetchFault => 1,
            HartErrorKind::IllegalInstruction => 2,
            HartErrorKind::MisalignedLoad => 4,
            HartErrorKind::LoadFault => 5,
            HartErrorKind::MisalignedStore => 6,
            HartErrorKind::StoreFault => 7,
            HartErrorKind::EnvironmentCall => 11,
        }
    }
    pub const fn describe(self) -> &'static str {
        match self {
            HartErrorKind::MisalignedFetch => "misaligned instruction address",
            HartErrorKind::FetchFault => "instruction access fault",
            HartErrorKind::IllegalInstruction => "illegal instruction",
            HartErrorKind::MisalignedLoad => "misaligned load",
            HartErrorKind::LoadFault => "load access fault",
            HartErrorKind::MisalignedStore => "misaligned store/AMO",
            HartErrorKind::StoreFault => "store/AMO access fault",
            HartErrorKind::EnvironmentCall => "ecall",
        }
    }
}

/// An exception no handler took (mtvec is 0), with everything needed to locate it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hart {hart_id}: {message} at pc 0x{pc:08x} (insn 0x{insn:08x}), cycle {cycle}")]
pub struct HartError {
    pub kind: HartErrorKind,
    pub hart_id: u32,
    pub pc: u32,
    /// The instruction word at `pc` (0 when the fetch itself failed).
    pub insn: u32,
    /// Faulting address for memory errors, the word for illegal instructions (as `mtval`).
    pub tval: u32,
    pub cycle: u64,
    pub instret: u64,
    /// One sentence, e.g. "load access fault at 0x01800000: address is outside RAM".
    pub message: String,
}

/// Result of [`crate::Hart::step`], one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    /// One instruction retired.
    Retired,
    /// One instruction (a store, AMO or `.ttinsn`) retired, then the bus asked to stop
    /// ([`crate::Bus::stop_requested`]).
    Stop,
    /// An exception was taken to the handler at `mtvec`; nothing retired.
    Trapped {
        cause: u32,
    },
    /// The bus answered `Stall`: nothing retired, the same instruction is retried next cycle.
    Stalled,
    /// Under the pipeline timing (docs/core-timing.md) the instruction at pc waits in EX1 for
    /// the pipeline (an operand, a bubble, a queue): nothing retired, and unlike a stall the
    /// wait ends by itself.
    Waited,
    /// The hart is paused (this cycle's instruction may have retired, e.g. `ebreak`).
    Halted(HaltReason),
    Error(HartError),
}

/// Why [`crate::Hart::run`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunExit {
    /// The cycle budget is spent.
    MaxInsns,
    Halted(HaltReason),
    /// The bus asked to stop after a store ([`crate::Bus::stop_requested`]).
    Stop,
    Error(HartError),
}
