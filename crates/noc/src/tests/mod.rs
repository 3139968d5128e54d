//! Transaction tests. Each drives the NIU registers in the order tt-metal's firmware does
//! (`ncrisc_noc_fast_read`, `ncrisc_noc_fast_write`, `noc_fast_write_dw_inline`,
//! `noc_fast_atomic_increment` in the ttnn 0.81.1 `noc_nonblocking_api.h`) and checks the
//! counters of Counters.md at both ends. This module holds the harness (a test memory, the
//! firmware's register sequences); the tests are in its submodules, by kind of transaction.
use super::*;
use crate::coord::NOC_GRID_X;
use crate::regs::{atomic as at, ctrl, tag, *};
use std::collections::HashMap;

mod atomics;
mod multicast;
mod requests;
mod unicast;

const L1_SIZE: usize = 1536 * 1024;

/// Test memory: a lazily allocated L1 per Tensix tile, one shared store per DRAM bank (all
/// three ports see the same memory), and a log of MMIO writes (addresses ≥ 0xFF00_0000).
struct Mem {
    topo: Topology,
    l1: HashMap<NodeId, Vec<u8>>,
    dram: HashMap<u8, HashMap<u64, u8>>,
    mmio: Vec<(NodeId, u64, Vec<u8>)>,
}

impl Mem {
    fn new(topo: &Topology) -> Self {
        Mem {
            topo: topo.clone(),
            l1: HashMap::new(),
            dram: HashMap::new(),
            mmio: Vec::new(),
        }
    }
    fn l1(&mut self, n: NodeId) -> &mut Vec<u8> {
        self.l1.entry(n).or_insert_with(|| vec![0u8; L1_SIZE])
    }
    fn put(&mut self, n: NodeId, addr: u64, data: &[u8]) {
        let a = addr as usize;
        self.l1(n)[a..a + data.len()].copy_from_slice(data);
    }
    fn get(&mut self, n: NodeId, addr: u64, len: usize) -> Vec<u8> {
        let a = addr as usize;
        self.l1(n)[a..a + len].to_vec()
    }
    fn word(&mut self, n: NodeId, addr: u64) -> u32 {
        u32::from_le_bytes(self.get(n, addr, 4).try_into().unwrap())
    }
    fn fault(node: NodeId, addr: u64, len: usize) -> NocError {
        NocError::Access {
            node,
            addr,
            len: len as u64,
            reason: "outside L1".into(),
        }
    }
}

impl NocEndpoints for Mem {
    fn read(&mut self, node: NodeId, addr: u64, buf: &mut [u8]) -> Result<(), NocError> {
        match self.topo.node(node)?.kind {
            NodeKind::Dram { bank, .. } => {
                let m = self.dram.entry(bank).or_default();
                for (i, b) in buf.iter_mut().enumerate() {
                    *b = m.get(&(addr + i as u64)).copied().unwrap_or(0);
                }
                Ok(())
            }
            _ => {
                let end = addr as usize + buf.len();
                if end > L1_SIZE {
                    return Err(Self::fault(node, addr, buf.len()));
                }
                buf.copy_from_slice(&self.l1(node)[addr as usize..end]);
                Ok(())
            }
        }
    }
    fn write(&mut self, node: NodeId, addr: u64, data: &[u8]) -> Result<(), NocError> {
        match self.topo.node(node)?.kind {
            NodeKind::Dram { bank, .. } => {
                let m = self.dram.entry(bank).or_default();
                for (i, b) in data.iter().enumerate() {
                    m.insert(addr + i as u64, *b);
                }
                Ok(())
            }
            _ if (NOC_REG_SPACE_START_ADDR..1 << 32).contains(&addr) => {
                self.mmio.push((node, addr, data.to_vec()));
                Ok(())
            }
            _ => {
                let end = addr as usize + data.len();
                if end > L1_SIZE {
                    return Err(Self::fault(node, addr, data.len()));
                }
                self.l1(node)[addr as usize..end].copy_from_slice(data);
                Ok(())
            }
        }
    }
}

const A: NodeId = NodeId::new(1, 2);

const B: NodeId = NodeId::new(3, 4);

const DRAM0: NodeId = NodeId::new(17, 12);

const N0: NocIndex = NocIndex::Noc0;

const N1: NocIndex = NocIndex::Noc1;

fn setup() -> (Noc, Mem) {
    let noc = Noc::blackhole();
    let mem = Mem::new(noc.topology());
    (noc, mem)
}

fn wr(noc: &mut Noc, node: NodeId, n: NocIndex, buf: u32, reg: u32, v: u32) {
    noc.mmio_write(node, n, buf * CMD_BUF_STRIDE + reg, v)
        .unwrap_or_else(|e| panic!("write {reg:#x}: {e}"));
}

fn rd(noc: &mut Noc, node: NodeId, n: NocIndex, off: u32) -> u32 {
    noc.mmio_read(node, n, off).unwrap()
}

fn ctr(noc: &Noc, node: NodeId, n: NocIndex, i: usize) -> u32 {
    noc.niu(node, n).unwrap().counter(i)
}

fn hi(noc_addr: u64) -> u32 {
    ((noc_addr >> 36) & 0xFF_FFFF) as u32
}

/// The register writes of `ncrisc_noc_fast_read` (plus the NOC_CTRL that noc_init programs).
fn fast_read(noc: &mut Noc, me: NodeId, n: NocIndex, src: u64, dst: u32, len: u32) {
    let buf = 1;
    wr(
        noc,
        me,
        n,
        buf,
        NOC_CTRL,
        ctrl::NOC_CMD_RD
            | ctrl::NOC_CMD_RESP_MARKED
            | ctrl::NOC_CMD_VC_STATIC
            | ctrl::noc_cmd_static_vc(1),
    );
    wr(noc, me, n, buf, NOC_RET_ADDR_HI, me.xy_field());
    wr(noc, me, n, buf, NOC_RET_ADDR_LO, dst);
    wr(noc, me, n, buf, NOC_TARG_ADDR_LO, src as u32);
    wr(noc, me, n, buf, NOC_TARG_ADDR_HI, hi(src));
    wr(noc, me, n, buf, NOC_AT_LEN_BE, len);
    wr(noc, me, n, buf, NOC_CMD_CTRL, 1);
}

/// The register writes of `ncrisc_noc_fast_write` (unicast or multicast).
#[allow(clippy::too_many_arguments)]
fn fast_write(
    noc: &mut Noc,
    me: NodeId,
    n: NocIndex,
    src: u32,
    dst: u64,
    len: u32,
    mcast: bool,
    posted: bool,
    trid: Option<u32>,
) {
    let buf = 0;
    if let Some(t) = trid {
        wr(
            noc,
            me,
            n,
            buf,
            NOC_PACKET_TAG,
            tag::noc_packet_tag_transaction_id(t),
        );
    }
    let mut c = ctrl::NOC_CMD_WR | ctrl::NOC_CMD_VC_STATIC;
    if mcast {
        c |= ctrl::NOC_CMD_BRCST_PACKET | ctrl::NOC_CMD_PATH_RESERVE;
    }
    if !posted {
        c |= ctrl::NOC_CMD_RESP_MARKED;
    }
    wr(noc, me, n, buf, NOC_CTRL, c);
    wr(noc, me, n, buf, NOC_TARG_ADDR_HI, me.xy_field());
    wr(noc, me, n, buf, NOC_TARG_ADDR_LO, src);
    wr(noc, me, n, buf, NOC_RET_ADDR_LO, dst as u32);
    wr(noc, me, n, buf, NOC_RET_ADDR_HI, hi(dst));
    wr(noc, me, n, buf, NOC_AT_LEN_BE, len);
    wr(noc, me, n, buf, NOC_CMD_CTRL, 1);
}

/// `NOC_MULTICAST_ADDR(x_start, y_start, x_end, y_end, addr)` of noc_parameters.h.
fn mcast_addr(xs: u8, ys: u8, xe: u8, ye: u8, addr: u32) -> u64 {
    ((ys as u64) << 54)
        | ((xs as u64) << 48)
        | ((ye as u64) << 42)
        | ((xe as u64) << 36)
        | addr as u64
}

/// The register writes of `noc_fast_atomic_increment` (non-posted; firmware forces it).
fn atomic_inc(noc: &mut Noc, me: NodeId, n: NocIndex, addr: u64, incr: u32, mcast: bool) {
    let buf = 3;
    wr(noc, me, n, buf, NOC_RET_ADDR_LO, 4); // MEM_NOC_ATOMIC_RET_VAL_ADDR, set by noc_init
    wr(noc, me, n, buf, NOC_RET_ADDR_HI, me.xy_field());
    wr(noc, me, n, buf, NOC_TARG_ADDR_LO, addr as u32);
    wr(noc, me, n, buf, NOC_TARG_ADDR_MID, 0);
    wr(noc, me, n, buf, NOC_TARG_ADDR_HI, hi(addr));
    let mut c = ctrl::NOC_CMD_VC_STATIC | ctrl::NOC_CMD_RESP_MARKED | ctrl::NOC_CMD_AT;
    if mcast {
        c |= ctrl::NOC_CMD_BRCST_PACKET;
    }
    wr(noc, me, n, buf, NOC_CTRL, c);
    let len_be = at::noc_at_ins(at::NOC_AT_INS_INCR_GET)
        | at::noc_at_wrap(31)
        | at::noc_at_ind_32(((addr >> 2) & 3) as u32);
    wr(noc, me, n, buf, NOC_AT_LEN_BE, len_be);
    wr(noc, me, n, buf, NOC_AT_DATA, incr);
    wr(noc, me, n, buf, NOC_CMD_CTRL, 1);
}

fn tick(noc: &mut Noc, mem: &mut Mem, now: u64) {
    let f = noc.tick(now, mem);
    assert!(f.is_empty(), "faults: {f:?}");
}

/// The upper address word of a multicast to the rectangle (xs, ys)..=(xe, ye).
fn field(xs: u8, ys: u8, xe: u8, ye: u8) -> u32 {
    hi(mcast_addr(xs, ys, xe, ye, 0))
}
