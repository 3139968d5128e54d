//! The Blackhole NoC: NIUs, request initiators, transactions, counters, routing latency.
//!
//! [`Noc`] owns the two NIUs (NoC 0 and NoC 1) of every node in a [`Topology`] and the
//! transactions in flight. It knows nothing of tiles: memory at the ends of a transaction is
//! reached through the [`NocEndpoints`] trait, which the chip implements.
//!
//! Life of a request (tt-isa-documentation `BlackholeA0/NoC/MemoryMap.md`, `Counters.md`):
//! 1. A core writes a command buffer's registers and then 1 to `NOC_CMD_CTRL`
//!    ([`Noc::mmio_write`]). The request is checked (coordinates, type, atomic encoding) — a bad
//!    one is refused with an error and nothing happens — and the NIU applies the counter
//!    increments made "as software writes to NOC_CMD_CTRL"; `NOC_CMD_CTRL` reads 1.
//! 2. At the next [`Noc::tick`] the request is accepted: `NOC_CMD_CTRL` returns to 0 and the
//!    initiator's "started"/"sent" counters move. Data of a non-inline write is read from the
//!    initiator's memory now.
//! 3. Each packet arrives at its receiver(s) after the forward latency, the data or atomic takes
//!    effect and the receiver's `NIU_SLV_*` counters move; responses and acknowledgements travel
//!    back and move the `NIU_MST_*` counters and `NIU_MST_REQS_OUTSTANDING_ID` of the NIU they
//!    are addressed to.
//!
//! With [`Timing::Functional`] every latency is zero, so a request issued during a cycle is
//! complete, counters included, at the end of that cycle's tick (docs/execution-model.md: firmware barriers
//! resolve on the next poll). [`Timing::Hops`] charges NIU↔router and per-hop router latency by
//! the directional torus distance (NoC/README.md "Performance": ~5 cycles NIU↔router, 9 per hop).
//! Processing order is fully determined by issue order and due cycle.
//!
//! ```
//! use bhemu_noc::{regs, Noc, NocEndpoints, NocError, NocIndex, NodeId};
//!
//! /// The chip's memory; here one flat L1 per tile.
//! struct Mem(std::collections::HashMap<NodeId, Vec<u8>>);
//! impl NocEndpoints for Mem {
//!     fn read(&mut self, n: NodeId, a: u64, buf: &mut [u8]) -> Result<(), NocError> {
//!         let l1 = self.0.entry(n).or_insert_with(|| vec![0; 1 << 16]);
//!         buf.copy_from_slice(&l1[a as usize..a as usize + buf.len()]);
//!         Ok(())
//!     }
//!     fn write(&mut self, n: NodeId, a: u64, data: &[u8]) -> Result<(), NocError> {
//!         let l1 = self.0.entry(n).or_insert_with(|| vec![0; 1 << 16]);
//!         l1[a as usize..a as usize + data.len()].copy_from_slice(data);
//!         Ok(())
//!     }
//! }
//!
//! let mut noc = Noc::blackhole();
//! let mut mem = Mem(Default::default());
//! let (me, other) = (NodeId::new(1, 2), NodeId::new(3, 4));
//! mem.write(other, 0x100, b"data").unwrap();
//! // What BRISC's stores to 0xFFB2_08xx do (ncrisc_noc_fast_read on command buffer 1):
//! let base = 0xFFB2_0800;
//! noc.tile_mmio_write(me, base + regs::NOC_CTRL, regs::ctrl::NOC_CMD_RD)?;
//! noc.tile_mmio_write(me, base + regs::NOC_RET_ADDR_HI, me.xy_field())?;
//! noc.tile_mmio_write(me, base + regs::NOC_RET_ADDR_LO, 0x200)?;
//! noc.tile_mmio_write(me, base + regs::NOC_TARG_ADDR_HI, other.xy_field())?;
//! noc.tile_mmio_write(me, base + regs::NOC_TARG_ADDR_LO, 0x100)?;
//! noc.tile_mmio_write(me, base + regs::NOC_AT_LEN_BE, 4)?;
//! noc.tile_mmio_write(me, base + regs::NOC_CMD_CTRL, 1)?;
//! // End of the cycle: the scheduler ticks the NoC.
//! assert!(noc.tick(0, &mut mem).is_empty());
//! // The firmware's read barrier polls NIU_MST_RD_RESP_RECEIVED.
//! assert_eq!(noc.tile_mmio_read(me, 0xFFB2_0200 + 4 * 2)?, 1);
//! let mut got = [0u8; 4];
//! mem.read(me, 0x200, &mut got).unwrap();
//! assert_eq!(&got, b"data");
//! # Ok::<(), NocError>(())
//! ```
pub mod atomic;
pub mod coord;
pub mod face;
pub mod niu;
pub mod regs;
pub mod unanswered;

mod check;
mod deliver;
pub use check::broadcast_receivers;
pub(crate) use check::check_request;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

pub use atomic::{AmoOp, AtomicOp};
pub use coord::{NocIndex, NodeId, NodeInfo, NodeKind, Topology};
pub use face::TileNoc;
pub use niu::{CmdBuf, Niu, NiuWrite, Request, RequestKind};
use unanswered::Awaited;
pub use unanswered::Unanswered;

use regs::counter as c;

/// Everything that can go wrong on the NoC. No input makes this crate panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NocError {
    #[error("NIU{noc} register {offset:#x} ({}): {reason}", if *write { "write" } else { "read" })]
    BadRegister {
        noc: u8,
        offset: u32,
        write: bool,
        reason: &'static str,
    },
    #[error(
        "NIU{noc} command buffer {cmd_buf} written at {offset:#x} while its previous request is \
         still being issued (NOC_CMD_CTRL reads 1)"
    )]
    CmdBufBusy { noc: u8, cmd_buf: u8, offset: u32 },
    #[error("no NoC node at ({x}, {y})")]
    BadCoordinate { x: u8, y: u8 },
    #[error("node ({x}, {y}) listed twice")]
    DuplicateNode { x: u8, y: u8 },
    #[error("there is no NoC {noc}")]
    BadNoc { noc: usize },
    #[error("bad NoC request: {reason}")]
    BadRequest { reason: &'static str },
    #[error("undefined NoC atomic encoding NOC_AT_LEN_BE = {len_be:#x}")]
    BadAtomic { len_be: u32 },
    #[error("bad broadcast rectangle {field:#08x}: {reason}")]
    BadBroadcast { field: u32, reason: &'static str },
    #[error("not supported: {what}")]
    Unsupported { what: &'static str },
    #[error("NoC access of {len} bytes at {addr:#x} in node {node}: {reason}")]
    Access {
        node: NodeId,
        addr: u64,
        len: u64,
        reason: String,
    },
}

/// A transaction that failed after it was issued, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cycle {cycle}: NoC {} request from {origin} (command buffer {cmd_buf}): {error}", noc.index())]
pub struct NocFault {
    pub cycle: u64,
    pub origin: NodeId,
    pub noc: NocIndex,
    pub cmd_buf: u8,
    pub error: NocError,
}

/// The memory behind the NoC, implemented by the chip. Addresses are the 64-bit local addresses
/// software put in `NOC_*_ADDR_MID:LO`; `node` is always a node's canonical translated id.
pub trait NocEndpoints {
    /// Reads `buf.len()` bytes at `addr` in `node`'s address space.
    fn read(&mut self, node: NodeId, addr: u64, buf: &mut [u8]) -> Result<(), NocError>;
    /// Writes `data` at `addr` in `node`'s address space.
    fn write(&mut self, node: NodeId, addr: u64, data: &[u8]) -> Result<(), NocError>;
    /// Performs `op` on the 16-byte L1 line holding `addr` and returns the result word
    /// (Atomics.md). The default reads the line, applies the op and writes it back, which is
    /// atomic because the NoC runs alone in its tick.
    fn atomic(&mut self, node: NodeId, addr: u64, op: &AtomicOp) -> Result<u32, NocError> {
        let base = addr & !0xF;
        let mut line = [0u8; 16];
        self.read(node, base, &mut line)?;
        let r = op.apply(&mut line, ((addr >> 2) & 3) as usize)?;
        self.write(node, base, &line)?;
        Ok(r)
    }
}

/// How long transactions take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Timing {
    /// Everything completes within the tick that accepts it (docs/execution-model.md).
    #[default]
    Functional,
    /// `2 * niu_cycles + hops * cycles_per_hop` per traversal, hops by directional torus distance.
    Hops {
        niu_cycles: u32,
        cycles_per_hop: u32,
    },
}

impl Timing {
    /// NoC/README.md "Performance": ~5 cycles NIU↔router, 9 cycles router↔router.
    pub const BLACKHOLE: Timing = Timing::Hops {
        niu_cycles: 5,
        cycles_per_hop: 9,
    };

    /// [`Timing::BLACKHOLE`] when `per_hop` (a `--noc-hops` flag or knob), else functional.
    pub fn per_hop(per_hop: bool) -> Timing {
        if per_hop {
            Timing::BLACKHOLE
        } else {
            Timing::Functional
        }
    }
}

/// Longest request accepted: 256 packets of 16 KiB, the most an 8-bit outstanding counter can
/// track (Counters.md "Automatic request splitting").
pub const MAX_REQUEST_BYTES: u64 = 256 * regs::NOC_MAX_BURST_SIZE;

/// Maps a Tensix tile address to (NoC, offset) when it falls in an NIU window
/// (`0xFFB2_0000..0xFFB4_0000`, MemoryMap.md).
pub fn decode_niu_address(addr: u32) -> Option<(NocIndex, u32)> {
    match addr {
        a if (regs::NIU0_BASE..regs::NIU0_BASE + regs::NIU_WINDOW).contains(&a) => {
            Some((NocIndex::Noc0, a - regs::NIU0_BASE))
        }
        a if (regs::NIU1_BASE..regs::NIU1_BASE + regs::NIU_WINDOW).contains(&a) => {
            Some((NocIndex::Noc1, a - regs::NIU1_BASE))
        }
        _ => None,
    }
}

/// A write packet being sent: destination address, data (or why it could not be read), byte
/// mask, data flits.
type WritePacket = (u64, Result<Arc<[u8]>, NocError>, Option<u64>, u32);

/// One step of a transaction, waiting for its due cycle.
#[derive(Debug, Clone)]
enum Event {
    /// A read request packet reaches the node that holds the data.
    ReadArrive {
        req: Request,
        target: usize,
        addr: u64,
        len: u64,
        ret: usize,
        ret_addr: u64,
    },
    /// Read data reaches the return node.
    ReadReturn {
        req: Request,
        ret: usize,
        ret_addr: u64,
        data: Option<Arc<[u8]>>,
        flits: u32,
    },
    /// Write data reaches one receiver: contiguous bytes, or byte-enabled runs.
    WriteArrive {
        req: Request,
        receiver: usize,
        addr: u64,
        data: Option<Arc<[u8]>>,
        mask: Option<u64>,
        flits: u32,
        ack: Option<usize>,
    },
    /// A write acknowledgement reaches its NIU.
    WriteAck { req: Request, niu: usize },
    /// An atomic request reaches one receiver.
    AtomicArrive {
        req: Request,
        receiver: usize,
        op: AtomicOp,
        ret: Option<usize>,
    },
    /// An atomic response reaches the return node.
    AtomicReturn {
        req: Request,
        ret: usize,
        result: Option<u32>,
    },
}

/// The NoC fabric: both NoCs of every node.
#[derive(Debug, Clone)]
pub struct Noc {
    topo: Topology,
    nius: Vec<[Niu; 2]>,
    timing: Timing,
    /// Issued, not yet accepted, in issue order.
    pending: VecDeque<Request>,
    /// In flight, by (due cycle, sequence number).
    events: BTreeMap<(u64, u64), Event>,
    seq: u64,
    /// Accepted transactions, recorded only while a timeline trace asks ([`Noc::set_log`]).
    log: Option<Vec<Transfer>>,
}

/// One transaction the fabric accepted, as a timeline trace shows it: from its origin to its
/// target (the first corner of a broadcast rectangle), landing `latency` cycles later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    pub cycle: u64,
    pub noc: NocIndex,
    pub origin: NodeId,
    pub target: NodeId,
    /// `read`, `write`, `inline write`, `atomic`; `broadcast` prefixed for broadcasts.
    pub kind: &'static str,
    pub len: u64,
    pub latency: u64,
}

impl Noc {
    pub fn new(topo: Topology, timing: Timing) -> Self {
        let nius = topo
            .nodes()
            .iter()
            .map(|n| [Niu::new(n, NocIndex::Noc0), Niu::new(n, NocIndex::Noc1)])
            .collect();
        Noc {
            topo,
            nius,
            timing,
            pending: VecDeque::new(),
            events: BTreeMap::new(),
            seq: 0,
            log: None,
        }
    }

    /// The unharvested p150 with functional timing.
    pub fn blackhole() -> Self {
        Self::new(Topology::blackhole(), Timing::Functional)
    }

    pub fn topology(&self) -> &Topology {
        &self.topo
    }
    pub fn timing(&self) -> Timing {
        self.timing
    }
    pub fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
    }

    /// The NIU of `node` on `noc`.
    pub fn niu(&self, node: NodeId, noc: NocIndex) -> Result<&Niu, NocError> {
        let s = self.slot(node)?;
        Ok(&self.nius[s][noc.index()])
    }

    /// Starts (`true`) or stops recording accepted transactions for [`Noc::take_log`].
    pub fn set_log(&mut self, on: bool) {
        self.log = on.then(Vec::new);
    }

    /// The transactions accepted since the last call (empty when not recording).
    pub fn take_log(&mut self) -> Vec<Transfer> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// True when nothing is waiting to be accepted or in flight.
    pub fn idle(&self) -> bool {
        self.pending.is_empty() && self.events.is_empty()
    }

    /// The first cycle whose tick has work: any cycle (`Some(0)`) while a request waits to be
    /// accepted, else the due cycle of the earliest step in flight; `None` when idle. Before
    /// it, ticks change nothing, so tiles may run up to it without looking at the NoC
    /// (docs/noc-lookahead.md, the quantum).
    pub fn next_due(&self) -> Option<u64> {
        if !self.pending.is_empty() {
            return Some(0);
        }
        self.events.first_key_value().map(|(&(due, _), _)| due)
    }

    /// Requests waiting for acceptance plus packets and responses in flight.
    pub fn in_flight(&self) -> usize {
        self.pending.len() + self.events.len()
    }

    fn slot(&self, node: NodeId) -> Result<usize, NocError> {
        self.topo.slot(node).ok_or(NocError::BadCoordinate {
            x: node.x,
            y: node.y,
        })
    }

    /// A core of `node` reads NIU register `offset` of `noc`.
    pub fn mmio_read(&mut self, node: NodeId, noc: NocIndex, offset: u32) -> Result<u32, NocError> {
        let s = self.slot(node)?;
        self.nius[s][noc.index()].mmio_read(offset)
    }

    /// A core of `node` writes NIU register `offset` of `noc`. A write of 1 to `NOC_CMD_CTRL`
    /// issues the command buffer's request, or fails with the reason it cannot be issued.
    pub fn mmio_write(
        &mut self,
        node: NodeId,
        noc: NocIndex,
        offset: u32,
        value: u32,
    ) -> Result<(), NocError> {
        let s = self.slot(node)?;
        let niu = &mut self.nius[s][noc.index()];
        match niu.mmio_write(offset, value)? {
            NiuWrite::Done => Ok(()),
            NiuWrite::Issue { cmd_buf } => {
                let req = niu.snapshot(cmd_buf).ok_or(NocError::BadRequest {
                    reason: "no such command buffer",
                })?;
                self.check(&req)?;
                self.nius[s][noc.index()].begin(&req);
                self.pending.push_back(req);
                Ok(())
            }
        }
    }

    /// The NIU face of the Tensix tile at `node` (see [`face`]).
    pub fn tile_face(&mut self, node: NodeId) -> Result<TileNoc<'_>, NocError> {
        let s = self.slot(node)?;
        Ok(TileNoc::new(&self.topo, &mut self.nius[s], node))
    }

    /// The NIU faces of every Tensix tile, in slot order (the order tiles are stepped in),
    /// each borrowable by a different host thread.
    pub fn tile_faces(&mut self) -> Vec<TileNoc<'_>> {
        let topo = &self.topo;
        topo.nodes()
            .iter()
            .zip(self.nius.iter_mut())
            .filter(|(n, _)| matches!(n.kind, NodeKind::Tensix { .. }))
            .map(|(n, nius)| TileNoc::new(topo, nius, n.id))
            .collect()
    }

    /// Takes the requests a tile issued through its [`TileNoc`] (emptying `outbox`), after
    /// those already issued: called per tile in slot order, this is the issue order of one
    /// host thread stepping the tiles (docs/noc-lookahead.md clause 4).
    pub fn submit(&mut self, outbox: &mut Vec<Request>) {
        // Most tiles issue nothing in most cycles: an empty drain into the deque still cost
        // tens of host instructions per tile and cycle (callgrind, firmware boot).
        if !outbox.is_empty() {
            self.pending.extend(outbox.drain(..));
        }
    }

    /// The NoC's lookahead: the fewest cycles from the cycle a core issues a request to the
    /// first cycle in which any effect of it (data, counters, `NOC_CMD_CTRL`) is visible to a
    /// core of *another* tile — the longest stretch tiles may run without looking at each
    /// other (docs/noc-lookahead.md clauses 1-3). Functional timing: 1 (effects land in the
    /// issue cycle's tick, seen from the next cycle). Hop timing: the latency of one hop,
    /// `2 * niu_cycles + cycles_per_hop` (19 on Blackhole), plus the cycle of the tick.
    pub fn lookahead(&self) -> u64 {
        match self.timing {
            Timing::Functional => 1,
            Timing::Hops {
                niu_cycles,
                cycles_per_hop,
            } => 2 * u64::from(niu_cycles) + u64::from(cycles_per_hop) + 1,
        }
    }

    /// A core of `node` reads tile address `addr` in `0xFFB2_0000..0xFFB4_0000`.
    pub fn tile_mmio_read(&mut self, node: NodeId, addr: u32) -> Result<u32, NocError> {
        let (noc, off) = decode_niu_address(addr).ok_or(NocError::BadRegister {
            noc: 0,
            offset: addr,
            write: false,
            reason: "address outside both NIU windows",
        })?;
        self.mmio_read(node, noc, off)
    }

    /// A core of `node` writes tile address `addr` in `0xFFB2_0000..0xFFB4_0000`.
    pub fn tile_mmio_write(&mut self, node: NodeId, addr: u32, value: u32) -> Result<(), NocError> {
        let (noc, off) = decode_niu_address(addr).ok_or(NocError::BadRegister {
            noc: 0,
            offset: addr,
            write: true,
            reason: "address outside both NIU windows",
        })?;
        self.mmio_write(node, noc, off, value)
    }

    /// Refuses requests that cannot be carried out; see [`Noc::mmio_write`].
    fn check(&self, req: &Request) -> Result<(), NocError> {
        check_request(&self.topo, req)
    }

    /// The receivers of a broadcast; see [`broadcast_receivers`].
    pub fn broadcast_receivers(&self, req: &Request, field: u32) -> Result<Vec<usize>, NocError> {
        broadcast_receivers(&self.topo, req, field)
    }

    fn latency(&self, noc: NocIndex, from: usize, to: usize) -> u64 {
        match self.timing {
            Timing::Functional => 0,
            Timing::Hops {
                niu_cycles,
                cycles_per_hop,
            } => {
                let nodes = self.topo.nodes();
                let hops = self.topo.hops(noc, &nodes[from], &nodes[to]);
                2 * niu_cycles as u64 + hops as u64 * cycles_per_hop as u64
            }
        }
    }

    fn schedule(&mut self, due: u64, ev: Event) {
        self.seq += 1;
        self.events.insert((due, self.seq), ev);
    }

    fn niu_mut(&mut self, slot: usize, noc: NocIndex) -> &mut Niu {
        &mut self.nius[slot][noc.index()]
    }

    /// Advances the NoC to the end of cycle `now`: accepts every issued request, then performs
    /// every step due by `now` (in functional timing, all of them). Returns the transactions
    /// that failed in the process; their counters still complete so that firmware does not hang
    /// on a fault the emulator has already reported.
    pub fn tick<E: NocEndpoints + ?Sized>(&mut self, now: u64, ep: &mut E) -> Vec<NocFault> {
        let mut faults = Vec::new();
        while let Some(req) = self.pending.pop_front() {
            if let Err(error) = self.accept(&req, now, ep) {
                faults.push(fault(&req, now, error));
            }
        }
        while let Some(entry) = self.events.first_entry() {
            if entry.key().0 > now {
                break;
            }
            // Follow-on steps are timed from when this one was due, not from `now`, so a
            // caller that skips cycles sees the same schedule.
            let due = entry.key().0;
            let ev = entry.remove();
            if let Err((req, error)) = self.process(ev, due, ep) {
                faults.push(fault(&req, now, error));
            }
        }
        faults
    }

    /// Adds `req` to the trace log (cold: kept out of `accept`'s code when no one traces).
    #[cold]
    #[inline(never)]
    fn record(&mut self, req: &Request, now: u64, origin: usize) {
        let target = NodeId::from_xy_field(req.targ_hi);
        let latency = match self.slot(target) {
            Ok(t) => self.latency(req.noc, origin, t),
            Err(_) => 0,
        };
        let kind = match (req.kind(), req.broadcast()) {
            (Ok(RequestKind::Read), _) => "read",
            (Ok(RequestKind::Atomic), false) => "atomic",
            (Ok(RequestKind::Atomic), true) => "broadcast atomic",
            (Ok(RequestKind::Write { inline: true, .. }), false) => "inline write",
            (Ok(RequestKind::Write { .. }), false) => "write",
            (Ok(RequestKind::Write { .. }), true) => "broadcast write",
            (Err(_), _) => "bad request",
        };
        let t = Transfer {
            cycle: now,
            noc: req.noc,
            origin: req.origin,
            target,
            kind,
            len: req.length(),
            latency,
        };
        if let Some(l) = self.log.as_mut() {
            l.push(t);
        }
    }
}

fn fault(req: &Request, cycle: u64, error: NocError) -> NocFault {
    NocFault {
        cycle,
        origin: req.origin,
        noc: req.noc,
        cmd_buf: req.cmd_buf,
        error,
    }
}

#[cfg(test)]
mod lookahead_tests;
#[cfg(test)]
mod tests;
