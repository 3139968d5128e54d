//! The baby cores' pipeline timing (docs/core-timing.md, clauses CT-n): when an instruction
//! may enter EX1, given what the instructions before it are still doing.
//!
//! By default a hart retires one instruction per cycle ([`CoreTiming::OnePerCycle`], the
//! reference simulator's timing and the one the fast schedule's proofs assume:
//! docs/execution-model.md EM-2). [`CoreTiming::Pipeline`] adds what the Blackhole BabyRISCV
//! page (tt-isa-documentation `BlackholeA0/TensixTile/BabyRISCV/README.md`) documents of the
//! core's pipeline: load latencies by memory region, the four-cycle bubble of a mispredicted
//! branch, multi-cycle divides, the eight-entry retire-order queue, the serialising CSR and
//! fence instructions, the store queue and the four-line L0 data cache. Only *when* each
//! instruction executes changes: values are those of one-per-cycle execution at that cycle.
//!
//! The model is a scoreboard, not a cycle-by-cycle pipeline: it remembers, per register, the
//! cycle its pending value can be forwarded to EX1, and per queue the cycles their entries
//! leave. An instruction that may not enter EX1 in a cycle spends the cycle waiting
//! ([`crate::Step::Waited`]: like a bus stall it changes nothing but `cycle`, but it ends by
//! itself, so the core still counts as running) and is asked again next cycle.
use crate::op::{Kind, Op};

/// How a hart's instructions are timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CoreTiming {
    /// One instruction per cycle unless the bus stalls it (docs/execution-model.md EM-2).
    #[default]
    OnePerCycle,
    /// The documented pipeline: load latencies, branch bubbles, divides, queues
    /// (docs/core-timing.md).
    Pipeline,
}

impl CoreTiming {
    /// `instruction` (one per cycle) or `pipeline`.
    pub fn parse(s: &str) -> Option<CoreTiming> {
        match s {
            "instruction" => Some(CoreTiming::OnePerCycle),
            "pipeline" => Some(CoreTiming::Pipeline),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CoreTiming::OnePerCycle => "instruction",
            CoreTiming::Pipeline => "pipeline",
        }
    }
}

/// Which kind of memory an address reaches, for its load latency (BabyRISCV/README.md,
/// "Load/Store Unit" table). The bus that owns the memory map answers it
/// ([`crate::Bus::region`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemRegion {
    /// The core's local data RAM through `MEM_LOCAL_BASE`: 2 cycles.
    LocalRam,
    /// L1: 2 cycles on an L0 data cache hit, 8 on a miss, 12 for an atomic.
    L1,
    /// Mailboxes, PC buffers, manual TTSync, Tensix semaphores: 3 cycles.
    Fifo,
    /// Tensix GPRs, backend configuration, TDMA-RISC: 4 cycles.
    TensixRegs,
    /// Tile control / debug / status, PIC, NoC and overlay registers: 7 cycles.
    TileRegs,
    /// Any core's local data RAM through its slow alias: 8 cycles.
    SlowLocalRam,
}

impl MemRegion {
    /// Load latency in cycles, on an L0 data cache miss for L1 (CT-2).
    pub const fn load_latency(self) -> u64 {
        match self {
            MemRegion::LocalRam => 2,
            MemRegion::L1 => 8,
            MemRegion::Fifo => 3,
            MemRegion::TensixRegs => 4,
            MemRegion::TileRegs => 7,
            MemRegion::SlowLocalRam => 8,
        }
    }
}

/// A mispredicted branch leaves a four-cycle bubble: the next instruction enters EX1 five
/// cycles after the branch did (CT-3).
pub const MISPREDICT_CYCLES: u64 = 5;
/// Entries of the retire-order queue (CT-5).
pub const RETIRE_QUEUE: usize = 8;
/// Entries of the Load/Store Unit's store queue (CT-7).
pub const STORE_QUEUE: usize = 4;
/// Cycles the store queue takes to write one L1 store that did not coalesce (CT-7).
pub const L1_STORE_CYCLES: u64 = 5;
/// L0 data cache: four lines of 16 bytes (CT-8).
pub const L0_LINES: usize = 4;
/// Cycles an atomic on L1 takes (CT-2).
pub const L1_ATOMIC_CYCLES: u64 = 12;
/// Cycles a load that hits the L0 data cache takes (CT-2, CT-8).
pub const L0_HIT_CYCLES: u64 = 2;

/// What a memory instruction touches, worked out before it executes (its base register may be
/// its destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemAccess {
    pub addr: u32,
    pub bytes: u32,
    pub region: MemRegion,
}

/// The address and size an op accesses, if it is a load, store or AMO.
pub(crate) fn access_of(op: Op, x: &[u32]) -> Option<(u32, u32)> {
    let base = x.get(usize::from(op.rs1)).copied().unwrap_or(0);
    let bytes = match op.kind {
        Kind::Lb | Kind::Lbu | Kind::Sb => 1,
        Kind::Lh | Kind::Lhu | Kind::Sh => 2,
        Kind::Lw | Kind::Sw => 4,
        Kind::Amo => return Some((base, 4)),
        _ => return None,
    };
    Some((base.wrapping_add(op.imm), bytes))
}

/// One store waiting in the store queue to be written.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    addr: u32,
    bytes: u32,
    /// Where the last store merged into this entry started (coalescing compares with it).
    last: u32,
    l1: bool,
    /// The cycle by which the store has left the queue.
    done: u64,
}

/// The scoreboard of one hart (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Pipeline {
    /// Per register (and the `x0` sink), the first cycle EX1 can have its pending value.
    ready: [u64; 33],
    /// The first cycle the next instruction may enter EX1 (bubbles, divides, serialising).
    issue_at: u64,
    /// The cycles the last [`RETIRE_QUEUE`] instructions retire, oldest at `slot`.
    retired: [u64; RETIRE_QUEUE],
    slot: usize,
    last_retire: u64,
    /// The store queue, oldest first; entries whose `done` has passed have left.
    stores: [Pending; STORE_QUEUE],
    nstores: usize,
    /// L0 data cache line numbers (address / 16), most recently used first.
    l0: [Option<u32>; L0_LINES],
}

impl Default for Pipeline {
    fn default() -> Pipeline {
        Pipeline {
            ready: [0; 33],
            issue_at: 0,
            retired: [0; RETIRE_QUEUE],
            slot: 0,
            last_retire: 0,
            stores: [Pending::default(); STORE_QUEUE],
            nstores: 0,
            l0: [None; L0_LINES],
        }
    }
}

/// The registers an op reads.
fn sources(op: Op) -> [u8; 2] {
    use Kind::*;
    match op.kind {
        Beq | Bne | Blt | Bge | Bltu | Bgeu | Sb | Sh | Sw | Amo => [op.rs1, op.rs2],
        Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Mul | Mulh | Mulhsu | Mulhu
        | Div | Divu | Rem | Remu | Sh1add | Sh2add | Sh3add | Andn | Orn | Xnor | Max | Maxu
        | Min | Minu | Rol | Ror | Pack => [op.rs1, op.rs2],
        Jalr | Lb | Lh | Lw | Lbu | Lhu | Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli
        | Srai | Rori | Grevi | Clz | Ctz | Cpop | SextB | SextH | OrcB => [op.rs1, 0],
        // csrrw/csrrs/csrrc read rs1; the immediate forms (index 3..5) hold a constant there.
        Csr if op.rs2 < 3 => [op.rs1, 0],
        _ => [0, 0],
    }
}

fn overlaps(a: u32, an: u32, b: u32, bn: u32) -> bool {
    let (a, an, b, bn) = (u64::from(a), u64::from(an), u64::from(b), u64::from(bn));
    a < b + bn && b < a + an
}

/// Cycles a divide or remainder occupies EX1 (CT-4): two when dividing by zero or one or
/// for -2³¹ / -1; otherwise one more than the dividend's significant bits, from six to 33.
pub(crate) fn divide_cycles(kind_signed: bool, dividend: u32, divisor: u32) -> u64 {
    if divisor == 0 || divisor == 1 {
        return 2;
    }
    if kind_signed && dividend == 0x8000_0000 && divisor == u32::MAX {
        return 2;
    }
    let magnitude = if kind_signed {
        (dividend as i32).unsigned_abs()
    } else {
        dividend
    };
    let bits = 32 - u64::from(magnitude.leading_zeros());
    (bits + 1).clamp(6, 33)
}

impl Pipeline {
    /// The scoreboard a hart under `t` keeps: an empty one for the pipeline, none for one
    /// instruction per cycle.
    pub(crate) fn for_timing(t: CoreTiming) -> Option<Box<Pipeline>> {
        match t {
            CoreTiming::Pipeline => Some(Box::default()),
            CoreTiming::OnePerCycle => None,
        }
    }

    /// Drops the stores that have left the queue by `now`.
    fn drain(&mut self, now: u64) {
        let mut kept = 0;
        for i in 0..self.nstores {
            if self.stores[i].done > now {
                self.stores[kept] = self.stores[i];
                kept += 1;
            }
        }
        self.nstores = kept;
    }

    fn newest(&self) -> Option<&Pending> {
        self.nstores.checked_sub(1).and_then(|i| self.stores.get(i))
    }

    /// A store coalesces with the newest queued one when both are to L1, in the same 16-byte
    /// line, starting within four bytes of each other (CT-7).
    fn coalesces(&self, addr: u32) -> bool {
        self.newest()
            .is_some_and(|p| p.l1 && p.last >> 4 == addr >> 4 && p.last.abs_diff(addr) <= 4)
    }

    /// Whether `op` may enter EX1 at `now` (CT-1..CT-7); `mem` is what it accesses.
    pub(crate) fn may_enter(&mut self, op: Op, mem: Option<MemAccess>, now: u64) -> bool {
        if now < self.issue_at || now < self.retired[self.slot] {
            return false;
        }
        let [a, b] = sources(op);
        if now < self.ready[usize::from(a)] || now < self.ready[usize::from(b)] {
            return false;
        }
        self.drain(now);
        if let Some(m) = mem {
            if op.kind.is_store() {
                let l1 = m.region == MemRegion::L1;
                if self.nstores == STORE_QUEUE && !(l1 && self.coalesces(m.addr)) {
                    return false;
                }
            } else if self.stores[..self.nstores]
                .iter()
                .any(|p| overlaps(p.addr, p.bytes, m.addr, m.bytes))
            {
                // A load or AMO overlapping a queued store waits for the queue to drain.
                return false;
            }
        }
        true
    }

    /// `op` entered EX1 at `now` and retired: records when its result is ready, when it
    /// retires and what it left in the queues. `next_pc` is where it went; `operands` the
    /// values of its source registers before it ran.
    pub(crate) fn entered(
        &mut self,
        op: Op,
        pc: u32,
        next_pc: u32,
        operands: (u32, u32),
        mem: Option<MemAccess>,
        now: u64,
    ) {
        let mut latency = 1;
        let mut serialise = false;
        self.issue_at = now + 1;
        match op.kind {
            k if k.is_load() => {
                if let Some(m) = mem {
                    latency = self.load_cycles(m);
                }
            }
            k if k.is_store() => {
                if let Some(m) = mem {
                    self.store(m, now);
                }
            }
            Kind::Amo => {
                self.l0 = [None; L0_LINES];
                if let Some(m) = mem {
                    latency = match m.region {
                        MemRegion::L1 => L1_ATOMIC_CYCLES,
                        r => r.load_latency(),
                    };
                }
            }
            Kind::Mul | Kind::Mulh | Kind::Mulhsu | Kind::Mulhu => latency = 2,
            Kind::Div | Kind::Rem | Kind::Divu | Kind::Remu => {
                let signed = matches!(op.kind, Kind::Div | Kind::Rem);
                latency = divide_cycles(signed, operands.0, operands.1);
                self.issue_at = now + latency;
            }
            Kind::Csr | Kind::Ecall | Kind::Ebreak => serialise = true,
            Kind::Fence | Kind::FenceI => {
                self.l0 = [None; L0_LINES];
                let drained = self.stores[..self.nstores]
                    .iter()
                    .map(|p| p.done)
                    .max()
                    .unwrap_or(0);
                latency = latency.max(drained.saturating_sub(now));
                serialise = true;
            }
            k if k.is_branch() => {
                let taken = next_pc != pc.wrapping_add(4);
                let predicted_taken = op.imm < pc;
                if taken != predicted_taken {
                    self.issue_at = now + MISPREDICT_CYCLES;
                }
            }
            _ => {}
        }
        let ready = now + latency;
        let retire = ready.max(self.last_retire + 1);
        self.retired[self.slot] = retire;
        self.slot = (self.slot + 1) % RETIRE_QUEUE;
        self.last_retire = retire;
        if let Some(r) = self.ready.get_mut(usize::from(op.rd)) {
            *r = ready;
        }
        if serialise {
            self.issue_at = self.issue_at.max(retire);
        }
    }

    /// An exception or interrupt redirected the core: the instructions behind it are
    /// discarded as after a mispredicted branch.
    pub(crate) fn redirected(&mut self, now: u64) {
        self.issue_at = now + MISPREDICT_CYCLES;
    }

    fn load_cycles(&mut self, m: MemAccess) -> u64 {
        if m.region != MemRegion::L1 {
            return m.region.load_latency();
        }
        let line = m.addr >> 4;
        match self.l0.iter().position(|&l| l == Some(line)) {
            Some(i) => {
                self.l0[..=i].rotate_right(1);
                L0_HIT_CYCLES
            }
            None => {
                self.l0.rotate_right(1);
                self.l0[0] = Some(line);
                MemRegion::L1.load_latency()
            }
        }
    }

    fn store(&mut self, m: MemAccess, now: u64) {
        let l1 = m.region == MemRegion::L1;
        if l1 {
            // A store to L1 flushes the line it writes from the L0 data cache (CT-8).
            let line = m.addr >> 4;
            for l in &mut self.l0 {
                if *l == Some(line) {
                    *l = None;
                }
            }
            if self.coalesces(m.addr) {
                if let Some(i) = self.nstores.checked_sub(1) {
                    let p = &mut self.stores[i];
                    let lo = p.addr.min(m.addr);
                    let hi = p
                        .addr
                        .saturating_add(p.bytes)
                        .max(m.addr.saturating_add(m.bytes));
                    p.addr = lo;
                    p.bytes = hi - lo;
                    p.last = m.addr;
                }
                return;
            }
        }
        let after = self.newest().map_or(now, |p| p.done.max(now));
        let cost = if l1 { L1_STORE_CYCLES } else { 1 };
        if self.nstores < STORE_QUEUE {
            self.stores[self.nstores] = Pending {
                addr: m.addr,
                bytes: m.bytes,
                last: m.addr,
                l1,
                done: after + cost,
            };
            self.nstores += 1;
        }
    }
}
