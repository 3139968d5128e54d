//! The ARC tile's host face, checked against the layouts tt-umd reads (docs/tt-metal-on-bhemu.md).
use super::*;

fn rd32(arc: &mut Arc, addr: u64, now: u64) -> u32 {
    let mut b = [0u8; 4];
    arc.read(addr, &mut b, now).unwrap();
    u32::from_le_bytes(b)
}

fn wr32(arc: &mut Arc, addr: u64, v: u32) {
    arc.write(addr, &v.to_le_bytes()).unwrap();
}

#[test]
fn boot_status_reads_ready_and_postcode_zero() {
    let mut arc = Arc::new();
    // tt-umd waits for (SCRATCH_RAM_2 & 7) == 5.
    assert_eq!(rd32(&mut arc, 0x8003_0408, 0) & 7, 5);
    assert_eq!(rd32(&mut arc, 0x8003_0060, 0), 0);
}

#[test]
fn scratch_registers_point_at_telemetry_and_message_queues() {
    let mut arc = Arc::new();
    assert_eq!(rd32(&mut arc, 0x8003_0434, 0), 0x1000_0100); // SCRATCH_RAM_13: table
    assert_eq!(rd32(&mut arc, 0x8003_0430, 0), 0x1000_0200); // SCRATCH_RAM_12: values
    assert_eq!(rd32(&mut arc, 0x8003_042C, 0), 0x1000_0300); // SCRATCH_RAM_11: queues
    let mut cb = [0u8; 8];
    arc.read(0x1000_0300, &mut cb, 0).unwrap();
    assert_eq!(
        u32::from_le_bytes(cb[0..4].try_into().unwrap()),
        0x1000_0400
    );
    assert_eq!(cb[4], 8, "entries per queue");
}

/// Reads the table the way tt-umd's telemetry reader does and returns (tag → value).
fn telemetry(arc: &mut Arc, now: u64) -> Vec<(u16, u32)> {
    let table = u64::from(rd32(arc, 0x8003_0434, now));
    let values = u64::from(rd32(arc, 0x8003_0430, now));
    let n = rd32(arc, table + 4, now) as usize;
    let mut tags = vec![0u8; 4 * n];
    arc.read(table + 8, &mut tags, now).unwrap();
    let mut vals = vec![0u8; 4 * n];
    arc.read(values, &mut vals, now).unwrap();
    (0..n)
        .map(|i| {
            let tag = u16::from_le_bytes([tags[4 * i], tags[4 * i + 1]]);
            let idx = u16::from_le_bytes([tags[4 * i + 2], tags[4 * i + 3]]) as usize;
            let v = u32::from_le_bytes(vals[4 * idx..4 * idx + 4].try_into().unwrap());
            (tag, v)
        })
        .collect()
}

fn entry(t: &[(u16, u32)], tag: u16) -> u32 {
    t.iter().find(|e| e.0 == tag).map(|e| e.1).unwrap()
}

#[test]
fn telemetry_describes_a_p150_without_ethernet() {
    let mut arc = Arc::new();
    let t = telemetry(&mut arc, 0);
    assert_eq!(t.len(), 18);
    let board = u64::from(entry(&t, 1)) << 32 | u64::from(entry(&t, 2));
    assert_eq!((board >> 36) & 0xF_FFFF, 0x40, "p150 UPI");
    assert_eq!(entry(&t, 4), 0, "no Tensix harvesting");
    assert_eq!(
        !entry(&t, 35) & 0x3FFF,
        0x3FFF,
        "all 14 Ethernet ports harvested"
    );
    assert_eq!(entry(&t, 14), 1350, "AICLK busy");
    for ch in 0..8 {
        assert_eq!((entry(&t, 22) >> (2 * ch)) & 3, 1, "GDDR {ch} trained");
    }
    assert_eq!(entry(&t, 38) & 3, 1, "PCIe 0 is an endpoint");
    assert_ne!(
        (entry(&t, 38) >> 2) & 3,
        1,
        "PCIe 1 is not (a p150 harvests it)"
    );
}

#[test]
fn telemetry_heartbeat_advances_with_simulated_time() {
    let mut arc = Arc::new();
    let a = entry(&telemetry(&mut arc, 0), 32);
    let b = entry(&telemetry(&mut arc, 3 * telemetry::HEARTBEAT_CYCLES), 32);
    assert_eq!(b - a, 3);
}

#[test]
fn niu_node_id_names_the_arc_tile_on_each_noc() {
    let mut arc = Arc::new();
    // MemoryMap.md NOC_NODE_ID: x | y<<6 | 17<<12 | 12<<19 | xfirst<<28.
    let want0 = 8 | (17 << 12) | (12 << 19) | (1 << 28);
    let want1 = 8 | (11 << 6) | (17 << 12) | (12 << 19);
    assert_eq!(rd32(&mut arc, 0x8005_0044, 0), want0);
    assert_eq!(rd32(&mut arc, 0x8005_8044, 0), want1);
    assert_eq!(
        rd32(&mut arc, 0x8005_0100, 0) >> 14 & 1,
        1,
        "translation on"
    );
}

/// Pushes one request the way tt-umd's message queue does and returns response word 0.
fn send(arc: &mut Arc, queue: u64, code: u32) -> u32 {
    let q = 0x1000_0400 + queue * (32 + 2 * 8 * 32);
    let wptr = rd32(arc, q, 0);
    let slot = q + 32 + u64::from(wptr % 8) * 32;
    wr32(arc, slot, code);
    wr32(arc, q, (wptr + 1) % 16);
    wr32(arc, 0x8003_0100, 1 << 16);
    let rptr = rd32(arc, q + 4, 0);
    assert_ne!(rd32(arc, q + 20, 0), rptr, "a response is queued");
    let resp = rd32(arc, q + 32 + (8 + u64::from(rptr % 8)) * 32, 0);
    wr32(arc, q + 4, (rptr + 1) % 16);
    resp
}

#[test]
fn aiclk_messages_move_the_reported_clock() {
    let mut arc = Arc::new();
    assert_eq!(send(&mut arc, 2, 0x54) & 0xFF, 0);
    assert_eq!(entry(&telemetry(&mut arc, 0), 14), 800);
    assert_eq!(send(&mut arc, 2, 0x52) & 0xFF, 0);
    assert_eq!(entry(&telemetry(&mut arc, 0), 14), 1350);
}

#[test]
fn unknown_message_is_answered_not_recognised() {
    let mut arc = Arc::new();
    assert_eq!(send(&mut arc, 0, 0x77) & 0xFF, 0xFF);
    // The queue keeps working: 17 more messages wrap both pointers.
    for _ in 0..17 {
        assert_eq!(send(&mut arc, 0, 0x11) & 0xFF, 0);
    }
}

#[test]
fn unmodelled_arc_addresses_are_errors_naming_the_address() {
    let mut arc = Arc::new();
    let mut b = [0u8; 4];
    let e = arc.read(0x8004_0000, &mut b, 7).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unimplemented);
    assert!(e.message.contains("0x80040000"), "{}", e.message);
    let e = arc.write(0x8003_0408, &[1, 2]).unwrap_err();
    assert!(e.message.contains("0x80030408"), "{}", e.message);
    // Past the end of CSM.
    assert!(arc.read(0x1007_FFFE, &mut b, 0).is_err());
}

#[test]
fn refclk_counts_50mhz_against_the_aiclk_of_simulated_cycles() {
    let mut arc = Arc::new();
    // 27,000 cycles at 1350 MHz = 20 µs = 1,000 ticks of 50 MHz.
    assert_eq!(rd32(&mut arc, 0x8003_00E0, 27_000), 1_000);
    assert_eq!(rd32(&mut arc, 0x8003_00E4, 27_000), 0);
    let far = (1u64 << 32) * 1350 / 50 * 3; // 3 × 2^32 ticks
    assert_eq!(rd32(&mut arc, 0x8003_00E4, far), 3);
}
