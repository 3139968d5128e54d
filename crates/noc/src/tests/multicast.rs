//! Multicast writes: the rectangle each NoC covers (wrapping, NoC 1's swapped corners, the
//! initiator with `SRC_INCLUDE`) and the acks the initiator counts.
use super::*;

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
