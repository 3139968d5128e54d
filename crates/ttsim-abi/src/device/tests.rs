use super::*;
use crate::backend::MemoryBackend;
use crate::config::{BAR0_BASE, BAR2_BASE, BAR4_BASE};
use crate::tlb::{TlbEntry, TLB_CFG_ENTRY_BYTES};

fn dev() -> Device {
    let cfg = BackendConfig::default();
    Device::new(&cfg, Box::new(MemoryBackend::new(&cfg)))
}

/// tt-umd programs an entry with three 4-byte writes at +0, +4, +8 (§3.3).
fn program(d: &mut Device, index: usize, x: u32, y: u32, addr: u64) {
    let kind = WindowKind::of_index(index);
    let e = TlbEntry {
        local_offset: addr / kind.size(),
        x_end: x,
        y_end: y,
        ..TlbEntry::default()
    };
    let cfg = BAR0_BASE + TLB_CFG_OFFSET + (index * TLB_CFG_ENTRY_BYTES) as u64;
    for (i, w) in e.encode(kind).into_iter().enumerate() {
        d.mem_write(cfg + 4 * i as u64, &w.to_le_bytes()).unwrap();
    }
}

#[test]
fn window_access_reaches_the_programmed_node_and_address() {
    let mut d = dev();
    program(&mut d, 0, 1, 2, 0xFFA0_0000);
    d.mem_write(BAR0_BASE + 0x1121B0, &0x47800u32.to_le_bytes())
        .unwrap();
    let mut buf = [0u8; 4];
    d.tile_read(1, 2, 0xFFB1_21B0, &mut buf).unwrap();
    assert_eq!(u32::from_le_bytes(buf), 0x47800);
}

/// §3.4: accesses split at window ends, each piece through its own window.
#[test]
fn access_crossing_a_window_end_splits_into_the_next_window() {
    let mut d = dev();
    program(&mut d, 0, 1, 2, 0);
    program(&mut d, 1, 3, 4, 0x20_0000);
    let data: Vec<u8> = (0..16).collect();
    d.mem_write(BAR0_BASE + TLB_2M_SIZE - 8, &data).unwrap();
    let mut a = [0u8; 8];
    d.tile_read(1, 2, 0x1F_FFF8, &mut a).unwrap();
    assert_eq!(a, data[..8]);
    d.tile_read(3, 4, 0x20_0000, &mut a).unwrap();
    assert_eq!(a, data[8..]);
}

#[test]
fn routing_rejects_addresses_outside_every_bar_and_runs_past_a_bar() {
    let d = dev();
    assert_eq!(d.route(0x1000, 4).unwrap_err().kind, ErrorKind::Unmapped);
    assert_eq!(
        d.route(BAR2_BASE + (1 << 20) - 2, 4).unwrap_err().kind,
        ErrorKind::AccessRule
    );
    assert_eq!(
        d.route(BAR4_BASE + (32 << 30) - 1, 1).unwrap()[0].target,
        Target::Window {
            index: 209,
            offset: TLB_4G_SIZE - 1
        }
    );
}

#[test]
fn bar4_window_uses_the_4g_entry_layout() {
    let mut d = dev();
    program(&mut d, 203, 9, 6, 3 * TLB_4G_SIZE);
    d.mem_write(BAR4_BASE + TLB_4G_SIZE + 0x10, &[7, 8])
        .unwrap();
    let mut b = [0u8; 2];
    d.tile_read(9, 6, 3 * TLB_4G_SIZE + 0x10, &mut b).unwrap();
    assert_eq!(b, [7, 8]);
}

/// §8: NIU_CFG_0 bit 14 reports the translation the backend implements (MemoryBackend: off).
#[test]
fn niu_cfg0_reports_translation_state() {
    let mut d = dev();
    d.mem_write(BAR0_BASE + NIU_CFG_0_OFFSET, &0xFFFF_FFFFu32.to_le_bytes())
        .unwrap();
    let mut b = [0u8; 4];
    d.mem_read(BAR0_BASE + NIU_CFG_0_OFFSET, &mut b).unwrap();
    assert_eq!(u32::from_le_bytes(b) & NIU_CFG_0_TRANSLATE_BIT, 0);
}

/// tt-umd's reachability check: BAR0 0x1FD0_4044 is the PCIe tile's NOC_NODE_ID, raw (2, 0).
#[test]
fn pcie_node_id_reads_the_pcie_tile_and_refuses_writes() {
    let mut d = dev();
    let mut b = [0u8; 4];
    d.mem_read(BAR0_BASE + 0x1FD0_4044, &mut b).unwrap();
    assert_eq!(
        u32::from_le_bytes(b),
        2 | (17 << 12) | (12 << 19) | (1 << 28)
    );
    d.mem_read(BAR0_BASE + 0x1FD1_4044, &mut b).unwrap();
    assert_eq!(
        u32::from_le_bytes(b),
        14 | (11 << 6) | (17 << 12) | (12 << 19)
    );
    let e = d.mem_write(BAR0_BASE + 0x1FD0_4044, &[0; 4]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::AccessRule);
    assert!(e.message.contains("0x1fd04044"), "{}", e.message);
}

#[test]
fn unmodelled_bar_space_faults_in_strict_and_reads_all_ones_in_permissive() {
    let mut d = dev();
    let mut b = [0u8; 4];
    assert_eq!(
        d.mem_read(BAR0_BASE + 0x1FF0_0000, &mut b)
            .unwrap_err()
            .kind,
        ErrorKind::Unimplemented
    );
    d.mode = MmioMode::Permissive;
    d.mem_read(BAR0_BASE + 0x1FF0_0000, &mut b).unwrap();
    assert_eq!(b, [0xFF; 4]);
    assert_eq!(d.warnings.len(), 1);
}

/// A faulting write has no partial effect: window 201's part is not written.
#[test]
fn strict_write_running_into_unmodelled_space_writes_nothing() {
    let mut d = dev();
    program(&mut d, 201, 1, 2, 0);
    let end = BAR0_BASE + TLB_COUNT_2M as u64 * TLB_2M_SIZE;
    assert_eq!(
        d.mem_write(end - 2, &[1, 2, 3, 4]).unwrap_err().kind,
        ErrorKind::Unimplemented
    );
    let mut b = [9u8; 2];
    d.tile_read(1, 2, TLB_2M_SIZE - 2, &mut b).unwrap();
    assert_eq!(b, [0, 0]);
}

#[test]
fn multicast_window_writes_the_rectangle() {
    let mut d = dev();
    let e = TlbEntry {
        local_offset: 0,
        x_start: 1,
        y_start: 2,
        x_end: 2,
        y_end: 3,
        mcast: true,
        ..TlbEntry::default()
    };
    let w = e.encode(WindowKind::Tlb2M);
    for (i, x) in w.into_iter().enumerate() {
        d.mem_write(BAR0_BASE + TLB_CFG_OFFSET + 4 * i as u64, &x.to_le_bytes())
            .unwrap();
    }
    d.mem_write(BAR0_BASE + 0x100, &[5]).unwrap();
    for (x, y) in [(1, 2), (2, 2), (1, 3), (2, 3)] {
        let mut b = [0u8];
        d.tile_read(x, y, 0x100, &mut b).unwrap();
        assert_eq!(b, [5], "({x},{y})");
    }
    assert_eq!(
        d.mem_read(BAR0_BASE, &mut [0u8; 1]).unwrap_err().kind,
        ErrorKind::AccessRule
    );
}

/// The entry points' fast return: nothing is pending after a plain window write and read;
/// a write into the PCIe tile's NoC-to-host window is (a host request), and so are cycles
/// still owed and a warning not yet logged.
#[test]
fn work_is_pending_only_for_a_host_request_an_owed_cycle_or_a_warning() {
    let mut d = dev();
    program(&mut d, 0, 1, 2, 0x1000);
    d.mem_write(BAR0_BASE + 0x1000, &[1, 2, 3, 4]).unwrap();
    d.mem_read(BAR0_BASE + 0x1000, &mut [0u8; 4]).unwrap();
    assert!(!d.work_pending());

    program(&mut d, 0, 2, 0, crate::backend::NOC_HOST_WINDOW);
    d.mem_write(BAR0_BASE, &[9]).unwrap();
    assert!(
        d.work_pending(),
        "a write to the host window queues a host request"
    );
    // No iATU region maps it: taking it is the strict-mode error, and it is gone.
    let e = d.host_calls(true, true).unwrap_err();
    assert_eq!(e.kind, ErrorKind::HostMemory, "{e}");
    assert!(!d.work_pending(), "taken");

    d.clock_remaining = 1;
    assert!(d.work_pending());
    d.clock_remaining = 0;
    d.warnings.push("w".into());
    assert!(d.work_pending());
}

/// The polling fast path finds the same target as the general routing, or leaves the
/// access to it: at the start, middle and end of windows, of the last 2 MiB window, of
/// the TLB configuration block and around it, for lengths that fit and lengths that cross.
#[test]
fn single_target_agrees_with_the_general_routing() {
    let d = dev();
    let cfg = TLB_CFG_OFFSET;
    let cfg_end = TLB_CFG_OFFSET + TLB_CFG_BYTES as u64;
    let last_win = (TLB_COUNT_2M as u64 - 1) * TLB_2M_SIZE;
    let offsets = [
        0,
        4,
        TLB_2M_SIZE - 4,
        TLB_2M_SIZE - 1,
        TLB_2M_SIZE,
        last_win + TLB_2M_SIZE - 8,
        cfg - 4,
        cfg,
        cfg + 12,
        cfg_end - 4,
        cfg_end,
        NIU_CFG_0_OFFSET,
    ];
    let mut fast = 0;
    for off in offsets {
        for len in [1usize, 4, 12, 1164, TLB_2M_SIZE as usize + 1] {
            let paddr = BAR0_BASE + off;
            let general = d.route(paddr, len);
            match d.single_target(paddr, len) {
                Some(t) => {
                    fast += 1;
                    let pieces = general.expect("a single target routes");
                    assert_eq!(pieces.len(), 1, "{off:#x}+{len}");
                    assert_eq!(pieces[0].target, t, "{off:#x}+{len}");
                    assert_eq!(pieces[0].len, len);
                }
                None => {
                    if let Ok(p) = general {
                        // Left to the general path: it spans pieces, or is neither kind.
                        assert!(
                            p.len() > 1
                                || !matches!(
                                    p[0].target,
                                    Target::Window { .. } | Target::TlbRegs { .. }
                                ),
                            "{off:#x}+{len} has one window or TLB piece: {p:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(fast >= 15, "the fast path took only {fast} accesses");
    assert_eq!(d.single_target(BAR2_BASE, 4), None);
    assert_eq!(d.single_target(BAR4_BASE, 4), None);
}
