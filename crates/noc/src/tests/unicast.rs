//! Unicast reads and writes, tile to tile and to DRAM: data, packets, transaction ids,
//! posted and non-posted, inline and byte-enable writes, and the counters at both ends.
use super::*;

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
