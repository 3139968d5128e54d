//! docs/noc-lookahead.md, one test per clause: what a tile's own NIU face touches, how soon an
//! issued request can be seen at another tile, and the order outboxes are merged in.
use super::*;
use crate::regs::{counter, ctrl, NIU0_BASE};
use std::collections::HashMap;

/// Flat memory per node.
#[derive(Default)]
struct Mem(HashMap<NodeId, Vec<u8>>);

impl Mem {
    fn at(&mut self, n: NodeId) -> &mut Vec<u8> {
        self.0.entry(n).or_insert_with(|| vec![0; 1 << 16])
    }
    fn word(&mut self, n: NodeId, a: usize) -> u32 {
        let m = self.at(n);
        u32::from_le_bytes([m[a], m[a + 1], m[a + 2], m[a + 3]])
    }
}

impl NocEndpoints for Mem {
    fn read(&mut self, n: NodeId, a: u64, buf: &mut [u8]) -> Result<(), NocError> {
        let a = a as usize;
        buf.copy_from_slice(&self.at(n)[a..a + buf.len()]);
        Ok(())
    }
    fn write(&mut self, n: NodeId, a: u64, data: &[u8]) -> Result<(), NocError> {
        let a = a as usize;
        self.at(n)[a..a + data.len()].copy_from_slice(data);
        Ok(())
    }
}

const A: NodeId = NodeId::new(1, 2);
/// One hop east of A on NoC 0.
const EAST: NodeId = NodeId::new(2, 2);
const C: NodeId = NodeId::new(5, 6);

/// The register writes of a posted `ncrisc_noc_fast_write` of 4 bytes from `src` in `me`'s
/// L1 to `dst` in `to`, on command buffer 0 of NoC 0, as tile addresses (`reg`, value).
fn posted_write(me: NodeId, src: u32, to: NodeId, dst: u32) -> [(u32, u32); 7] {
    let r = |off: u32| NIU0_BASE + off;
    [
        (
            r(regs::NOC_CTRL),
            ctrl::NOC_CMD_WR | ctrl::NOC_CMD_VC_STATIC,
        ),
        (r(regs::NOC_TARG_ADDR_HI), me.xy_field()),
        (r(regs::NOC_TARG_ADDR_LO), src),
        (r(regs::NOC_RET_ADDR_LO), dst),
        (r(regs::NOC_RET_ADDR_HI), to.xy_field()),
        (r(regs::NOC_AT_LEN_BE), 4),
        (r(regs::NOC_CMD_CTRL), 1),
    ]
}

fn issue_on_face(noc: &mut Noc, me: NodeId, w: &[(u32, u32)], outbox: &mut Vec<Request>) {
    let mut face = noc.tile_face(me).unwrap();
    for &(a, v) in w {
        face.tile_mmio_write(a, v, outbox).unwrap();
    }
}

fn slv_posted(noc: &Noc, n: NodeId) -> u32 {
    noc.niu(n, NocIndex::Noc0)
        .unwrap()
        .counter(counter::NIU_SLV_POSTED_WR_REQ_RECEIVED)
}

/// Clause 1: a tile's face reads and writes its own two NIUs exactly as the fabric-wide
/// register access does, and changes no other node's NIU.
#[test]
fn nl1_tile_face_touches_only_its_own_nius() {
    let mut via_face = Noc::blackhole();
    let mut via_noc = Noc::blackhole();
    let mut outbox = Vec::new();
    let w = posted_write(A, 0x100, C, 0x200);
    issue_on_face(&mut via_face, A, &w, &mut outbox);
    for &(a, v) in &w {
        via_noc.tile_mmio_write(A, a, v).unwrap();
    }
    assert_eq!(outbox.len(), 1, "one request issued");
    for off in (0..0x100).step_by(4) {
        let a = NIU0_BASE + off;
        assert_eq!(
            via_face.tile_face(A).unwrap().tile_mmio_read(a),
            via_noc.tile_mmio_read(A, a),
            "NIU0 register {off:#x}"
        );
    }
    let fresh = Noc::blackhole();
    for n in [C, EAST] {
        for i in 0..64 {
            assert_eq!(
                via_face.niu(n, NocIndex::Noc0).unwrap().counter(i),
                fresh.niu(n, NocIndex::Noc0).unwrap().counter(i),
                "{n} counter {i}"
            );
        }
    }
    assert!(via_face.idle(), "nothing reaches the fabric before submit");
}

/// Clause 2: functional timing — a request issued in cycle t has no effect anywhere but the
/// issuing NIU before the tick of cycle t, and every effect after it: lookahead 1.
#[test]
fn nl2_functional_lookahead_is_one_cycle() {
    let mut noc = Noc::blackhole();
    let mut mem = Mem::default();
    mem.write(A, 0x100, &0xC0FFEEu32.to_le_bytes()).unwrap();
    let mut outbox = Vec::new();
    issue_on_face(&mut noc, A, &posted_write(A, 0x100, C, 0x200), &mut outbox);
    assert_eq!(mem.word(C, 0x200), 0);
    assert_eq!(slv_posted(&noc, C), 0);
    noc.submit(&mut outbox);
    assert!(outbox.is_empty());
    assert!(noc.tick(7, &mut mem).is_empty());
    assert_eq!(mem.word(C, 0x200), 0xC0FFEE);
    assert_eq!(slv_posted(&noc, C), 1);
    assert_eq!(noc.lookahead(), 1);
}

/// Clause 3: hop timing — the first effect at another tile of a request issued in cycle t is
/// in the tick of cycle t + 2·5 + 9 = t + 19 (one hop, the nearest tile), seen from cycle t + 20;
/// no two distinct nodes are less than one hop apart on either NoC.
#[test]
fn nl3_hop_timing_first_remote_effect_after_one_hop() {
    let mut noc = Noc::blackhole();
    noc.set_timing(Timing::BLACKHOLE);
    assert_eq!(noc.lookahead(), 20);
    let mut mem = Mem::default();
    mem.write(A, 0x100, &0xBEEFu32.to_le_bytes()).unwrap();
    let mut outbox = Vec::new();
    issue_on_face(
        &mut noc,
        A,
        &posted_write(A, 0x100, EAST, 0x200),
        &mut outbox,
    );
    noc.submit(&mut outbox);
    let t = 100;
    for now in t..t + 19 {
        assert!(noc.tick(now, &mut mem).is_empty());
        assert_eq!(mem.word(EAST, 0x200), 0, "tick of cycle {now}");
        assert_eq!(slv_posted(&noc, EAST), 0, "tick of cycle {now}");
    }
    assert!(noc.tick(t + 19, &mut mem).is_empty());
    assert_eq!(mem.word(EAST, 0x200), 0xBEEF);
    assert_eq!(slv_posted(&noc, EAST), 1);
    let topo = noc.topology();
    for a in topo.nodes() {
        for b in topo.nodes() {
            if a.id != b.id {
                for n in [NocIndex::Noc0, NocIndex::Noc1] {
                    assert!(topo.hops(n, a, b) >= 1, "{} → {} on {n:?}", a.id, b.id);
                }
            }
        }
    }
}

/// Clause 4: outboxes submitted in tile order give the issue order of one thread stepping the
/// tiles in that order, whatever order the tiles were stepped in: two tiles write the same
/// word of a third in the same cycle; the later tile's write lands last.
#[test]
fn nl4_outboxes_merge_in_tile_order() {
    let (first, second) = (A, EAST);
    let mut mem = Mem::default();
    mem.write(first, 0x100, &1u32.to_le_bytes()).unwrap();
    mem.write(second, 0x100, &2u32.to_le_bytes()).unwrap();
    // One thread: tiles in slot order.
    let mut one = Noc::blackhole();
    for n in [first, second] {
        for (a, v) in posted_write(n, 0x100, C, 0x300) {
            one.tile_mmio_write(n, a, v).unwrap();
        }
    }
    let mut m1 = Mem(mem.0.clone());
    assert!(one.tick(0, &mut m1).is_empty());
    // Two "threads": the second tile steps first, outboxes are submitted in tile order.
    let mut two = Noc::blackhole();
    let (mut o1, mut o2) = (Vec::new(), Vec::new());
    issue_on_face(
        &mut two,
        second,
        &posted_write(second, 0x100, C, 0x300),
        &mut o2,
    );
    issue_on_face(
        &mut two,
        first,
        &posted_write(first, 0x100, C, 0x300),
        &mut o1,
    );
    two.submit(&mut o1);
    two.submit(&mut o2);
    let mut m2 = Mem(mem.0.clone());
    assert!(two.tick(0, &mut m2).is_empty());
    assert_eq!(m1.word(C, 0x300), 2);
    assert_eq!(m2.word(C, 0x300), 2);
}
