//! What the NIU refuses, reports and orders: bad requests refused at issue, endpoint faults,
//! busy command buffers, hop latency, same-tick ordering, the NIU's address decode, the
//! firmware's boot reads, and random register traffic.
use super::*;

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
