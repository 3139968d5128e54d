//! Transaction tests. Each drives the NIU registers in the order tt-metal's firmware does
//! (`ncrisc_noc_fast_read`, `ncrisc_noc_fast_write`, `noc_fast_write_dw_inline`,
//! `noc_fast_atomic_increment` in the ttnn 0.81.1 `noc_nonblocking_api.h`) and checks the
//! counters of Counters.md at both ends.
use super::*;
use crate::coord::NOC_GRID_X;
use crate::regs::{atomic as at, ctrl, tag, *};
use std::collections::HashMap;

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

/// Counters.md "Read requests"; docs/execution-model.md (complete on the next tick).
#[test]
fn read_unicast_moves_data_and_counters() {
    let (mut noc, mut mem) = setup();
    let data: Vec<u8> = (0..100u8).collect();
    mem.put(B, 0x1000, &data);
    fast_read(&mut noc, A, N0, B.noc_addr(0x1000), 0x2000, 100);
    // Issued: buffer busy, outstanding counted, nothing delivered yet.
    assert_eq!(rd(&mut noc, A, N0, 0x800 + NOC_CMD_CTRL), 1);
    assert_eq!(ctr(&noc, A, N0, counter::niu_mst_reqs_outstanding_id(0)), 1);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_RD_RESP_RECEIVED), 0);
    assert_eq!(mem.get(A, 0x2000, 100), vec![0u8; 100]);
    tick(&mut noc, &mut mem, 0);
    assert_eq!(mem.get(A, 0x2000, 100), data);
    assert_eq!(rd(&mut noc, A, N0, 0x800 + NOC_CMD_CTRL), 0);
    // The firmware's barrier reads NOC_STATUS(NIU_MST_RD_RESP_RECEIVED) through MMIO.
    assert_eq!(rd(&mut noc, A, N0, 0x200 + 4 * 2), 1);
    for (i, v) in [
        (counter::NIU_MST_CMD_ACCEPTED, 1),
        (counter::NIU_MST_RD_REQ_STARTED, 1),
        (counter::NIU_MST_RD_REQ_SENT, 1),
        (counter::NIU_MST_RD_DATA_WORD_RECEIVED, 2),
        (counter::niu_mst_reqs_outstanding_id(0), 0),
    ] {
        assert_eq!(ctr(&noc, A, N0, i), v, "initiator counter {i}");
    }
    for (i, v) in [
        (counter::NIU_SLV_REQ_ACCEPTED, 1),
        (counter::NIU_SLV_RD_REQ_RECEIVED, 1),
        (counter::NIU_SLV_RD_RESP_SENT, 1),
        (counter::NIU_SLV_RD_DATA_WORD_SENT, 2),
    ] {
        assert_eq!(ctr(&noc, B, N0, i), v, "target counter {i}");
    }
    // NoC 1 was not involved.
    assert_eq!(ctr(&noc, A, N1, counter::NIU_MST_RD_RESP_RECEIVED), 0);
    assert!(noc.idle());
}

/// Counters.md "Automatic request splitting": 16 KiB packets, counters per packet.
#[test]
fn read_longer_than_16k_splits_into_packets() {
    let (mut noc, mut mem) = setup();
    let data: Vec<u8> = (0..40000u32).map(|i| (i % 251) as u8).collect();
    mem.put(B, 0x10000, &data);
    fast_read(&mut noc, A, N1, B.noc_addr(0x10000), 0x40000, 40000);
    assert_eq!(ctr(&noc, A, N1, counter::niu_mst_reqs_outstanding_id(0)), 3);
    tick(&mut noc, &mut mem, 0);
    assert_eq!(mem.get(A, 0x40000, 40000), data);
    assert_eq!(ctr(&noc, A, N1, counter::NIU_MST_RD_RESP_RECEIVED), 3);
    assert_eq!(ctr(&noc, A, N1, counter::NIU_MST_CMD_ACCEPTED), 3);
    assert_eq!(
        ctr(&noc, A, N1, counter::NIU_MST_RD_DATA_WORD_RECEIVED),
        625
    );
    assert_eq!(ctr(&noc, A, N1, counter::niu_mst_reqs_outstanding_id(0)), 0);
}

/// Counters.md "Write requests with NOC_CMD_WR_INLINE=false", non-posted, with a transaction id.
#[test]
fn write_nonposted_with_transaction_id() {
    let (mut noc, mut mem) = setup();
    mem.put(A, 0x3000, b"hello, tile");
    fast_write(
        &mut noc,
        A,
        N0,
        0x3000,
        B.noc_addr(0x5000),
        11,
        false,
        false,
        Some(5),
    );
    assert_eq!(ctr(&noc, A, N0, counter::niu_mst_reqs_outstanding_id(5)), 1);
    assert_eq!(
        ctr(&noc, A, N0, counter::niu_mst_write_reqs_outgoing_id(5)),
        1
    );
    tick(&mut noc, &mut mem, 7);
    assert_eq!(mem.get(B, 0x5000, 11), b"hello, tile");
    for (i, v) in [
        (counter::NIU_MST_CMD_ACCEPTED, 1),
        (counter::NIU_MST_NONPOSTED_WR_REQ_STARTED, 1),
        (counter::NIU_MST_NONPOSTED_WR_REQ_SENT, 1),
        (counter::NIU_MST_NONPOSTED_WR_DATA_WORD_SENT, 1),
        (counter::NIU_MST_WR_ACK_RECEIVED, 1),
        (counter::NIU_MST_POSTED_WR_REQ_SENT, 0),
        (counter::niu_mst_reqs_outstanding_id(5), 0),
        (counter::niu_mst_write_reqs_outgoing_id(5), 0),
    ] {
        assert_eq!(ctr(&noc, A, N0, i), v, "initiator counter {i}");
    }
    for (i, v) in [
        (counter::NIU_SLV_NONPOSTED_WR_REQ_STARTED, 1),
        (counter::NIU_SLV_NONPOSTED_WR_REQ_RECEIVED, 1),
        (counter::NIU_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED, 1),
        (counter::NIU_SLV_WR_ACK_SENT, 1),
    ] {
        assert_eq!(ctr(&noc, B, N0, i), v, "receiver counter {i}");
    }
    // MemoryMap.md NIU_TRANS_COUNT_RTZ_SOURCE: id 5 went positive → zero.
    assert_eq!(rd(&mut noc, A, N0, NIU_TRANS_COUNT_RTZ_SOURCE), 1 << 5);
}

/// Counters.md: a posted write gets no acknowledgement and no outstanding count.
#[test]
fn write_posted() {
    let (mut noc, mut mem) = setup();
    mem.put(A, 0x3000, &[9; 32]);
    fast_write(
        &mut noc,
        A,
        N0,
        0x3000,
        B.noc_addr(0x100),
        32,
        false,
        true,
        None,
    );
    assert_eq!(ctr(&noc, A, N0, counter::niu_mst_reqs_outstanding_id(0)), 0);
    assert_eq!(
        ctr(&noc, A, N0, counter::niu_mst_write_reqs_outgoing_id(0)),
        1
    );
    tick(&mut noc, &mut mem, 0);
    assert_eq!(mem.get(B, 0x100, 32), vec![9; 32]);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_POSTED_WR_REQ_SENT), 1);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_WR_ACK_RECEIVED), 0);
    assert_eq!(
        ctr(&noc, A, N0, counter::niu_mst_write_reqs_outgoing_id(0)),
        0
    );
    assert_eq!(ctr(&noc, B, N0, counter::NIU_SLV_POSTED_WR_REQ_RECEIVED), 1);
    assert_eq!(ctr(&noc, B, N0, counter::NIU_SLV_WR_ACK_SENT), 0);
}

/// Counters.md "Write requests with NOC_CMD_WR_INLINE=true"; MemoryMap.md: a 32-bit store of
/// NOC_AT_DATA (the firmware uses it for MMIO destinations).
#[test]
fn inline_write_to_mmio() {
    let (mut noc, mut mem) = setup();
    let dest = B.noc_addr(0xFFB1_2000);
    let c = ctrl::NOC_CMD_VC_STATIC
        | ctrl::NOC_CMD_WR
        | ctrl::NOC_CMD_WR_INLINE
        | ctrl::NOC_CMD_RESP_MARKED;
    wr(&mut noc, A, N0, 2, NOC_AT_DATA, 0xCAFE_F00D);
    wr(&mut noc, A, N0, 2, NOC_CTRL, c);
    wr(&mut noc, A, N0, 2, NOC_TARG_ADDR_LO, dest as u32);
    wr(&mut noc, A, N0, 2, NOC_TARG_ADDR_MID, 0);
    wr(&mut noc, A, N0, 2, NOC_TARG_ADDR_HI, hi(dest));
    wr(&mut noc, A, N0, 2, NOC_AT_LEN_BE, 0xF);
    wr(&mut noc, A, N0, 2, NOC_CMD_CTRL, 1);
    assert_eq!(ctr(&noc, A, N0, counter::niu_mst_reqs_outstanding_id(0)), 1);
    tick(&mut noc, &mut mem, 0);
    assert_eq!(
        mem.mmio,
        vec![(B, 0xFFB1_2000, 0xCAFE_F00Du32.to_le_bytes().to_vec())]
    );
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_NONPOSTED_WR_REQ_SENT), 1);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_WR_ACK_RECEIVED), 1);
    assert_eq!(ctr(&noc, A, N0, counter::niu_mst_reqs_outstanding_id(0)), 0);
    // Inline writes do not use NIU_MST_WRITE_REQS_OUTGOING_ID.
    assert_eq!(
        ctr(&noc, A, N0, counter::niu_mst_write_reqs_outgoing_id(0)),
        0
    );
    assert_eq!(
        ctr(
            &noc,
            B,
            N0,
            counter::NIU_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED
        ),
        1
    );
}

/// MemoryMap.md NOC_AT_LEN_BE with NOC_CMD_WR_BE: masked bytes of a 16-byte aligned block.
#[test]
fn byte_enable_write() {
    let (mut noc, mut mem) = setup();
    let src: Vec<u8> = (1..=64).collect();
    mem.put(A, 0x2000, &src);
    mem.put(B, 0x6000, &[0xEE; 64]);
    let c = ctrl::NOC_CMD_WR | ctrl::NOC_CMD_WR_BE | ctrl::NOC_CMD_RESP_MARKED;
    wr(&mut noc, A, N0, 0, NOC_CTRL, c);
    wr(&mut noc, A, N0, 0, NOC_TARG_ADDR_LO, 0x2004);
    wr(&mut noc, A, N0, 0, NOC_TARG_ADDR_HI, A.xy_field());
    wr(&mut noc, A, N0, 0, NOC_RET_ADDR_LO, 0x6008);
    wr(&mut noc, A, N0, 0, NOC_RET_ADDR_HI, B.xy_field());
    wr(&mut noc, A, N0, 0, NOC_AT_LEN_BE, 0x0000_F00F);
    wr(&mut noc, A, N0, 0, NOC_AT_LEN_BE_1, 0x8000_0000);
    wr(&mut noc, A, N0, 0, NOC_CMD_CTRL, 1);
    tick(&mut noc, &mut mem, 0);
    let got = mem.get(B, 0x6000, 64);
    for (i, &b) in got.iter().enumerate() {
        let on = matches!(i, 0..=3 | 12..=15 | 63);
        assert_eq!(b, if on { src[i] } else { 0xEE }, "byte {i}");
    }
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_WR_ACK_RECEIVED), 1);
}

/// MemoryMap.md broadcast rectangle; receivers are Tensix tiles only, the initiator excluded
/// unless NOC_CMD_BRCST_SRC_INCLUDE; one acknowledgement per receiver (Counters.md).
#[test]
fn multicast_write_rectangle_and_acks() {
    let (mut noc, mut mem) = setup();
    let me = NodeId::new(3, 3);
    mem.put(me, 0x3000, &[0x5A; 16]);
    // Rectangle x 2..=4, y 3..=5 contains the initiator (3, 3).
    fast_write(
        &mut noc,
        me,
        N0,
        0x3000,
        mcast_addr(2, 3, 4, 5, 0x8000),
        16,
        true,
        false,
        None,
    );
    tick(&mut noc, &mut mem, 0);
    let mut got = Vec::new();
    for y in 0..24u8 {
        for x in 0..NOC_GRID_X + 3 {
            let n = NodeId::new(x, y);
            if mem.l1.contains_key(&n) && mem.get(n, 0x8000, 1)[0] == 0x5A {
                got.push((x, y));
            }
        }
    }
    let want: Vec<(u8, u8)> = (3..=5u8)
        .flat_map(|y| (2..=4u8).map(move |x| (x, y)))
        .filter(|&p| p != (3, 3))
        .collect();
    assert_eq!(got, want);
    assert_eq!(ctr(&noc, me, N0, counter::NIU_MST_NONPOSTED_WR_REQ_SENT), 1);
    assert_eq!(ctr(&noc, me, N0, counter::NIU_MST_WR_ACK_RECEIVED), 8);
    // One increment at issue, one decrement per ack: the 8-bit counter wraps (Counters.md
    // "Clear NIU transaction ID counters", reason 2).
    assert_eq!(
        ctr(&noc, me, N0, counter::niu_mst_reqs_outstanding_id(0)),
        (1u32.wrapping_sub(8)) & 0xFF
    );

    // With SRC_INCLUDE (ncrisc_noc_fast_write_loopback_src) the initiator receives too.
    let (mut noc, mut mem) = setup();
    mem.put(me, 0x3000, &[0x77; 16]);
    wr(
        &mut noc,
        me,
        N0,
        0,
        NOC_CTRL,
        ctrl::NOC_CMD_WR
            | ctrl::NOC_CMD_BRCST_PACKET
            | ctrl::NOC_CMD_BRCST_SRC_INCLUDE
            | ctrl::NOC_CMD_RESP_MARKED,
    );
    wr(&mut noc, me, N0, 0, NOC_TARG_ADDR_HI, me.xy_field());
    wr(&mut noc, me, N0, 0, NOC_TARG_ADDR_LO, 0x3000);
    let d = mcast_addr(2, 3, 4, 5, 0x8000);
    wr(&mut noc, me, N0, 0, NOC_RET_ADDR_LO, d as u32);
    wr(&mut noc, me, N0, 0, NOC_RET_ADDR_HI, hi(d));
    wr(&mut noc, me, N0, 0, NOC_AT_LEN_BE, 16);
    wr(&mut noc, me, N0, 0, NOC_CMD_CTRL, 1);
    tick(&mut noc, &mut mem, 0);
    assert_eq!(mem.get(me, 0x8000, 1)[0], 0x77);
    assert_eq!(ctr(&noc, me, N0, counter::NIU_MST_WR_ACK_RECEIVED), 9);
}

fn receivers(noc: &Noc, from: NodeId, n: NocIndex, ctrl_bits: u32, field: u32) -> Vec<(u8, u8)> {
    let req = noc.niu(from, n).unwrap().snapshot(0).unwrap();
    let req = Request {
        ctrl: ctrl::NOC_CMD_WR | ctrl::NOC_CMD_BRCST_PACKET | ctrl_bits,
        ..req
    };
    let nodes = noc.topology().nodes();
    noc.broadcast_receivers(&req, field)
        .unwrap()
        .into_iter()
        .map(|s| (nodes[s].id.x, nodes[s].id.y))
        .collect()
}

fn field(xs: u8, ys: u8, xe: u8, ye: u8) -> u32 {
    hi(mcast_addr(xs, ys, xe, ye, 0))
}

/// Rectangle coverage: whole grid, the non-Tensix columns 8 and 9, wrap-around spans, and NoC 1,
/// where translated start/end must be swapped (Coordinates.md).
#[test]
fn multicast_rectangle_coverage() {
    let noc = Noc::blackhole();
    let far = NodeId::new(16, 11);
    // The whole Tensix grid from a tile outside it... every Tensix but the sender.
    assert_eq!(receivers(&noc, far, N0, 0, field(1, 2, 16, 11)).len(), 139);
    assert_eq!(
        receivers(
            &noc,
            far,
            N0,
            ctrl::NOC_CMD_BRCST_SRC_INCLUDE,
            field(1, 2, 16, 11)
        )
        .len(),
        140
    );
    // Columns 7..=10 hold Tensix only at 7 and 10.
    let r = receivers(&noc, far, N0, 0, field(7, 2, 10, 2));
    assert_eq!(r, vec![(7, 2), (10, 2)]);
    // start > end wraps: x in {15, 16, 0, 1} → Tensix at 1, 15, 16.
    let r = receivers(&noc, far, N0, 0, field(15, 5, 1, 5));
    assert_eq!(r, vec![(1, 5), (15, 5), (16, 5)]);
    // NoC 1 with software's swap (start = larger) covers the same rectangle as NoC 0.
    let n0 = receivers(&noc, far, N0, 0, field(2, 3, 4, 5));
    let n1 = receivers(&noc, far, N1, 0, field(4, 5, 2, 3));
    assert_eq!(n0, n1);
    assert_eq!(n0.len(), 9);
    // Without the swap NoC 1 wraps the other way round.
    assert!(receivers(&noc, far, N1, 0, field(2, 3, 4, 5)).len() > 9);
    // Corners outside the grid are errors.
    let req = noc.niu(far, N0).unwrap().snapshot(0).unwrap();
    let req = Request {
        ctrl: ctrl::NOC_CMD_WR | ctrl::NOC_CMD_BRCST_PACKET,
        ..req
    };
    assert!(matches!(
        noc.broadcast_receivers(&req, field(1, 2, 17, 12)),
        Err(NocError::BadBroadcast { .. })
    ));
}

/// Atomics.md "Atomic increment" as `noc_fast_atomic_increment` issues it; Counters.md "Atomic
/// requests".
#[test]
fn atomic_increment_returns_old_value() {
    let (mut noc, mut mem) = setup();
    mem.put(B, 0x9008, &41u32.to_le_bytes());
    atomic_inc(&mut noc, A, N0, B.noc_addr(0x9008), 1, false);
    assert_eq!(ctr(&noc, A, N0, counter::niu_mst_reqs_outstanding_id(0)), 1);
    tick(&mut noc, &mut mem, 0);
    assert_eq!(mem.word(B, 0x9008), 42);
    assert_eq!(mem.word(A, 4), 41, "result at NOC_RET_ADDR_LO");
    for (i, v) in [
        (counter::NIU_MST_CMD_ACCEPTED, 1),
        (counter::NIU_MST_NONPOSTED_ATOMIC_STARTED, 1),
        (counter::NIU_MST_NONPOSTED_ATOMIC_SENT, 1),
        (counter::NIU_MST_ATOMIC_RESP_RECEIVED, 1),
        (counter::niu_mst_reqs_outstanding_id(0), 0),
    ] {
        assert_eq!(ctr(&noc, A, N0, i), v, "initiator counter {i}");
    }
    for (i, v) in [
        (counter::NIU_SLV_REQ_ACCEPTED, 1),
        (counter::NIU_SLV_NONPOSTED_ATOMIC_RECEIVED, 1),
        (counter::NIU_SLV_ATOMIC_RESP_SENT, 1),
    ] {
        assert_eq!(ctr(&noc, B, N0, i), v, "receiver counter {i}");
    }
}

/// `noc_fast_multicast_atomic_increment`: one response per receiver.
#[test]
fn atomic_increment_multicast() {
    let (mut noc, mut mem) = setup();
    atomic_inc(&mut noc, A, N0, mcast_addr(5, 6, 6, 7, 0x100), 3, true);
    tick(&mut noc, &mut mem, 0);
    for (x, y) in [(5, 6), (6, 6), (5, 7), (6, 7)] {
        assert_eq!(mem.word(NodeId::new(x, y), 0x100), 3);
    }
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_ATOMIC_RESP_RECEIVED), 4);
}

/// Counters.md: a posted atomic moves NIU_MST_POSTED_ATOMIC_SENT and sends no response.
#[test]
fn atomic_posted() {
    let (mut noc, mut mem) = setup();
    wr(&mut noc, A, N0, 3, NOC_TARG_ADDR_LO, 0x200);
    wr(&mut noc, A, N0, 3, NOC_TARG_ADDR_HI, B.xy_field());
    wr(&mut noc, A, N0, 3, NOC_CTRL, ctrl::NOC_CMD_AT);
    wr(
        &mut noc,
        A,
        N0,
        3,
        NOC_AT_LEN_BE,
        at::noc_at_ins(0xA) | 0x800 | (2 << 8),
    ); // amoor
    wr(&mut noc, A, N0, 3, NOC_AT_DATA, 0xF0);
    wr(&mut noc, A, N0, 3, NOC_CMD_CTRL, 1);
    tick(&mut noc, &mut mem, 0);
    assert_eq!(mem.word(B, 0x200), 0xF0);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_POSTED_ATOMIC_SENT), 1);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_ATOMIC_RESP_RECEIVED), 0);
    assert_eq!(ctr(&noc, B, N0, counter::NIU_SLV_POSTED_ATOMIC_RECEIVED), 1);
}

/// Tile ↔ DRAM: all three ports of a bank expose the same memory (NoC/README.md).
#[test]
fn tile_to_dram_and_back() {
    let (mut noc, mut mem) = setup();
    mem.put(A, 0x3000, &0x1234_5678u32.to_le_bytes());
    fast_write(
        &mut noc,
        A,
        N0,
        0x3000,
        DRAM0.noc_addr(0x40),
        4,
        false,
        false,
        None,
    );
    tick(&mut noc, &mut mem, 0);
    // Read it back through another port of bank 0, on NoC 1.
    fast_read(
        &mut noc,
        A,
        N1,
        NodeId::new(17, 14).noc_addr(0x40),
        0x3100,
        4,
    );
    tick(&mut noc, &mut mem, 1);
    assert_eq!(mem.word(A, 0x3100), 0x1234_5678);
    assert_eq!(
        ctr(&noc, DRAM0, N0, counter::NIU_SLV_NONPOSTED_WR_REQ_RECEIVED),
        1
    );
    assert_eq!(
        ctr(
            &noc,
            NodeId::new(17, 14),
            N1,
            counter::NIU_SLV_RD_REQ_RECEIVED
        ),
        1
    );
    // Raw coordinates of a DRAM port are accepted as an alias: (0, 11) is bank 0 port 2.
    fast_read(
        &mut noc,
        A,
        N0,
        NodeId::new(0, 11).noc_addr(0x40),
        0x3200,
        4,
    );
    tick(&mut noc, &mut mem, 2);
    assert_eq!(mem.word(A, 0x3200), 0x1234_5678);
}

/// Bad coordinates, reserved types, broadcast reads, atomics to DRAM, undefined atomics and the
/// broken L1-accumulate flag are refused at NOC_CMD_CTRL; nothing is issued.
#[test]
fn bad_requests_are_refused_at_issue() {
    let (mut noc, mut mem) = setup();
    let issue = |noc: &mut Noc, c: u32, targ_hi: u32, ret_hi: u32, len_be: u32| {
        wr(noc, A, N0, 1, NOC_CTRL, c);
        wr(noc, A, N0, 1, NOC_TARG_ADDR_HI, targ_hi);
        wr(noc, A, N0, 1, NOC_RET_ADDR_HI, ret_hi);
        wr(noc, A, N0, 1, NOC_AT_LEN_BE, len_be);
        noc.mmio_write(A, N0, 0x800 + NOC_CMD_CTRL, 1)
    };
    let rd_np = ctrl::NOC_CMD_RD | ctrl::NOC_CMD_RESP_MARKED;
    assert_eq!(
        issue(
            &mut noc,
            rd_np,
            NodeId::new(8, 5).xy_field(),
            A.xy_field(),
            4
        ),
        Err(NocError::BadCoordinate { x: 8, y: 5 })
    );
    assert_eq!(
        issue(
            &mut noc,
            rd_np,
            B.xy_field(),
            NodeId::new(0, 40).xy_field(),
            4
        ),
        Err(NocError::BadCoordinate { x: 0, y: 40 })
    );
    assert!(matches!(
        issue(&mut noc, 3, B.xy_field(), A.xy_field(), 4),
        Err(NocError::BadRequest { .. })
    ));
    assert!(matches!(
        issue(
            &mut noc,
            rd_np | ctrl::NOC_CMD_BRCST_PACKET,
            field(1, 2, 3, 3),
            A.xy_field(),
            4
        ),
        Err(NocError::BadRequest { .. })
    ));
    let inc = at::noc_at_ins(1) | at::noc_at_wrap(31);
    assert!(matches!(
        issue(
            &mut noc,
            ctrl::NOC_CMD_AT | ctrl::NOC_CMD_RESP_MARKED,
            DRAM0.xy_field(),
            A.xy_field(),
            inc
        ),
        Err(NocError::BadRequest { .. })
    ));
    assert_eq!(
        issue(
            &mut noc,
            ctrl::NOC_CMD_AT,
            B.xy_field(),
            A.xy_field(),
            at::noc_at_ins(2)
        ),
        Err(NocError::BadAtomic { len_be: 0x2000 })
    );
    assert!(matches!(
        issue(
            &mut noc,
            rd_np | ctrl::NOC_CMD_L1_ACC_AT_EN,
            B.xy_field(),
            A.xy_field(),
            4
        ),
        Err(NocError::Unsupported { .. })
    ));
    wr(&mut noc, A, N0, 1, NOC_AT_LEN_BE_1, 1);
    assert!(matches!(
        issue(&mut noc, rd_np, B.xy_field(), A.xy_field(), 0),
        Err(NocError::Unsupported { .. })
    ));
    // Nothing was issued; the buffer is free and no counter moved.
    assert_eq!(rd(&mut noc, A, N0, 0x800 + NOC_CMD_CTRL), 0);
    assert_eq!(ctr(&noc, A, N0, counter::niu_mst_reqs_outstanding_id(0)), 0);
    assert!(noc.idle());
    assert!(noc.tick(0, &mut mem).is_empty());
    // Unknown nodes and NoCs at the MMIO interface.
    assert_eq!(
        noc.mmio_read(NodeId::new(8, 8), N0, 0),
        Err(NocError::BadCoordinate { x: 8, y: 8 })
    );
    assert_eq!(NocIndex::from_index(2), Err(NocError::BadNoc { noc: 2 }));
}

/// A memory fault during a transaction is reported by tick; counters still complete.
#[test]
fn endpoint_fault_is_reported_and_counters_complete() {
    let (mut noc, mut mem) = setup();
    fast_read(&mut noc, A, N0, B.noc_addr(L1_SIZE as u64 - 2), 0x2000, 8);
    let faults = noc.tick(3, &mut mem);
    assert_eq!(faults.len(), 1);
    assert_eq!(faults[0].origin, A);
    assert_eq!(faults[0].cmd_buf, 1);
    assert_eq!(faults[0].cycle, 3);
    assert!(matches!(faults[0].error, NocError::Access { node: B, .. }));
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_RD_RESP_RECEIVED), 1);
    assert!(noc.idle());
}

/// MemoryMap.md NOC_CMD_CTRL: fields may not be written until the request was accepted.
#[test]
fn busy_command_buffer_rejects_writes_until_tick() {
    let (mut noc, mut mem) = setup();
    fast_read(&mut noc, A, N0, B.noc_addr(0), 0x2000, 4);
    assert!(matches!(
        noc.mmio_write(A, N0, 0x800 + NOC_TARG_ADDR_LO, 0),
        Err(NocError::CmdBufBusy { cmd_buf: 1, .. })
    ));
    tick(&mut noc, &mut mem, 0);
    noc.mmio_write(A, N0, 0x800 + NOC_TARG_ADDR_LO, 0).unwrap();
}

/// NoC/README.md "Performance": 2 × 5 NIU cycles plus 9 per hop, by directional torus distance.
#[test]
fn hop_latency_option() {
    let (mut noc, mut mem) = setup();
    noc.set_timing(Timing::BLACKHOLE);
    mem.put(B, 0x1000, &[1, 2, 3, 4]);
    fast_read(&mut noc, A, N0, B.noc_addr(0x1000), 0x2000, 4);
    // A (1,2) → B (3,4) on NoC 0: 2 + 2 hops; back: (17-2) + (12-2) = 25 hops.
    let there = 10 + 4 * 9;
    let back = 10 + 25 * 9;
    tick(&mut noc, &mut mem, 100);
    assert_eq!(
        rd(&mut noc, A, N0, 0x800 + NOC_CMD_CTRL),
        0,
        "accepted at the first tick"
    );
    tick(&mut noc, &mut mem, 100 + there + back - 1);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_RD_RESP_RECEIVED), 0);
    assert_eq!(ctr(&noc, B, N0, counter::NIU_SLV_RD_REQ_RECEIVED), 1);
    assert!(!noc.idle());
    tick(&mut noc, &mut mem, 100 + there + back);
    assert_eq!(ctr(&noc, A, N0, counter::NIU_MST_RD_RESP_RECEIVED), 1);
    assert_eq!(mem.get(A, 0x2000, 4), vec![1, 2, 3, 4]);
    assert!(noc.idle());
}

/// Determinism: requests complete in issue order; a later write to the same address wins.
#[test]
fn same_tick_requests_complete_in_issue_order() {
    let (mut noc, mut mem) = setup();
    mem.put(A, 0x3000, &[1; 4]);
    mem.put(NodeId::new(2, 2), 0x3000, &[2; 4]);
    fast_write(
        &mut noc,
        A,
        N0,
        0x3000,
        B.noc_addr(0x700),
        4,
        false,
        false,
        None,
    );
    fast_write(
        &mut noc,
        NodeId::new(2, 2),
        N1,
        0x3000,
        B.noc_addr(0x700),
        4,
        false,
        false,
        None,
    );
    tick(&mut noc, &mut mem, 0);
    assert_eq!(mem.get(B, 0x700, 4), vec![2; 4]);
}

#[test]
fn niu_address_decode() {
    assert_eq!(decode_niu_address(0xFFB2_0040), Some((N0, 0x40)));
    assert_eq!(decode_niu_address(0xFFB3_1840), Some((N1, 0x1840)));
    assert_eq!(decode_niu_address(0xFFB4_0000), None);
    assert_eq!(decode_niu_address(0xFFB1_FFFC), None);
}

/// The boot path: noc_init() reads NOC_CFG(NOC_ID_LOGICAL) at 0xFFB2_0148 / 0xFFB3_0148 and
/// the counters at 0xFFB2_0200.. (seen in the 0.81.1 brisc.elf).
#[test]
fn firmware_boot_reads_through_tile_addresses() {
    let mut noc = Noc::blackhole();
    let me = NodeId::new(16, 11);
    assert_eq!(noc.tile_mmio_read(me, 0xFFB2_0148).unwrap(), me.xy_field());
    assert_eq!(noc.tile_mmio_read(me, 0xFFB3_0148).unwrap(), me.xy_field());
    for i in [0u32, 1, 2, 10, 11] {
        assert_eq!(noc.tile_mmio_read(me, 0xFFB2_0200 + 4 * i).unwrap(), 0);
    }
    noc.tile_mmio_write(me, 0xFFB2_0100, 0x4001).unwrap();
    assert_eq!(noc.tile_mmio_read(me, 0xFFB2_0100).unwrap(), 0x4001);
    assert!(noc.tile_mmio_read(me, 0xFFB4_0000).is_err());
}

/// No sequence of register writes makes the NoC panic: random writes to random command-buffer
/// registers of a few tiles, random issues and ticks (docs/execution-model.md EM-7).
#[test]
fn random_register_traffic_never_panics() {
    let (mut noc, mut mem) = setup();
    noc.set_timing(Timing::BLACKHOLE);
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let nodes = [A, B, DRAM0, NodeId::new(16, 11)];
    let coords = [
        A.xy_field(),
        B.xy_field(),
        DRAM0.xy_field(),
        0xFFF,
        field(1, 2, 16, 11),
    ];
    let mut now = 0;
    for _ in 0..20000 {
        let r = next();
        let node = nodes[(r % 4) as usize];
        let n = if r & 4 != 0 { N1 } else { N0 };
        let buf = ((r >> 3) & 3) as u32;
        let v = next();
        let (reg, val) = match (r >> 5) % 9 {
            0 => (NOC_CTRL, v as u32 & 0x8003_00FF),
            1 => (NOC_TARG_ADDR_HI, coords[(v % 5) as usize]),
            2 => (NOC_RET_ADDR_HI, coords[(v % 5) as usize]),
            3 => (NOC_AT_LEN_BE, (v as u32) % 70000),
            4 => (NOC_TARG_ADDR_LO, (v as u32) % (L1_SIZE as u32 + 64)),
            5 => (NOC_RET_ADDR_LO, (v as u32) % (L1_SIZE as u32 + 64)),
            6 => (NOC_PACKET_TAG, v as u32),
            7 => (NOC_AT_LEN_BE_1, (v & 1) as u32),
            _ => (NOC_CMD_CTRL, 1),
        };
        let _ = noc.mmio_write(node, n, buf * CMD_BUF_STRIDE + reg, val);
        if r % 7 == 0 {
            now += 1 + (v % 300);
            let _ = noc.tick(now, &mut mem);
        }
    }
    let _ = noc.tick(u64::MAX / 2, &mut mem);
    assert!(noc.idle());
}
