//! Atomic increments: the old value returned, multicast and posted atomics.
use super::*;

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
