//! The hart's only window on the world. A hart knows nothing of Tensix tiles: a tile, a flat
//! RAM or a test double implements [`Bus`] and decides what each address means.
//!
//! Back-pressure is a value (docs/execution-model.md EM-2): an access may answer [`Access::Stall`], in which
//! case the hart retires nothing this cycle and retries the same instruction next cycle.

/// Width of a data access in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    Byte = 1,
    Half = 2,
    Word = 4,
}

impl Width {
    pub const fn bytes(self) -> u32 {
        self as u32
    }
}

/// Why a bus refused an access. The hart turns this into a precise trap (or a typed error when
/// no handler is installed), so it carries only what the bus knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusFault {
    pub addr: u32,
    /// One sentence for the user, e.g. "address 0x01800000 is outside L1 (1536 KiB)".
    pub reason: String,
}

/// Outcome of one access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access<T> {
    Done(T),
    /// Not possible this cycle (full FIFO, blocking PC-buffer access, mop_sync): retry next cycle.
    Stall,
    Fault(BusFault),
}

/// Memory and memory-mapped devices as seen by one hart. Implementations are used generically
/// (`Hart::step<B: Bus>`), never through `dyn`, so the flat-RAM fast path inlines.
pub trait Bus {
    /// Fetch one 32-bit instruction word (the baby cores have no compressed instructions).
    fn fetch(&mut self, addr: u32) -> Access<u32>;
    /// Fetch the words of `[addr, addr + 4 * out.len())` at once, as if each were fetched now
    /// with [`Bus::fetch`] (whatever a fetch records, it records for each), for a hart that
    /// shares decoded code ([`crate::CodeLibrary`]). `false`, changing nothing, unless every
    /// one of those fetches would complete: the hart then fetches one word at a time. The
    /// default never answers at once.
    fn fetch_block(&mut self, _addr: u32, _out: &mut [u32]) -> bool {
        false
    }
    /// Load `width` bytes, zero-extended into the low bits; the hart sign-extends where needed.
    fn load(&mut self, addr: u32, width: Width) -> Access<u32>;
    /// Store the low `width` bytes of `value`.
    fn store(&mut self, addr: u32, width: Width, value: u32) -> Access<()>;
    /// `.ttinsn`: a Tensix instruction word (already rotated right by 2) pushed exactly as if it
    /// had been stored to this core's instruction-push address (BabyRISCV docs, docs/blackhole-facts.md §10).
    fn push_tensix(&mut self, word: u32) -> Access<()>;
    /// Read a custom (non-standard) CSR the hart does not model itself, e.g. Tensix's
    /// `tt_cfg_qstatus` (0xBC0). `None` means no such CSR: the hart raises illegal instruction.
    fn read_custom_csr(&mut self, _csr: u16) -> Option<Access<u32>> {
        None
    }
    /// Write a custom CSR (see [`Bus::read_custom_csr`]); `None` means no such CSR.
    fn write_custom_csr(&mut self, _csr: u16, _value: u32) -> Option<Access<()>> {
        None
    }
    /// Which kind of memory `addr` is, for the load latencies of the pipeline timing
    /// (docs/core-timing.md CT-2); asked only under [`crate::CoreTiming::Pipeline`]. A bus with
    /// no memory map of its own answers local RAM, the shortest latency.
    #[inline]
    fn region(&self, _addr: u32) -> crate::timing::MemRegion {
        crate::timing::MemRegion::LocalRam
    }
    /// Asked right after each store, AMO or `.ttinsn` retires: `true` makes `Hart::run` return
    /// `RunExit::Stop` (e.g. the riscv-tests `tohost` convention). Only stores can raise the
    /// request, so checking there keeps the rest of the hot loop free of it. Answering `true`
    /// consumes the request.
    #[inline]
    fn stop_requested(&mut self) -> bool {
        false
    }
}
