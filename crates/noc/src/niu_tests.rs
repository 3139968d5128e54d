//! The NIU as a register block on its own: command-buffer storage, identification
//! registers, typed errors for bad offsets, issue and buffer locking, counters.
use super::*;
use crate::coord::Topology;

fn niu(noc: NocIndex) -> Niu {
    let t = Topology::blackhole();
    Niu::new(t.node(NodeId::new(3, 4)).unwrap(), noc)
}

/// MemoryMap.md: each command buffer's fields live at i * 0x800.
#[test]
fn command_buffer_fields_are_storage() {
    let mut n = niu(NocIndex::Noc0);
    for buf in 0..4u32 {
        for (k, reg) in (0x00..=0x34).step_by(4).enumerate() {
            let off = buf * 0x800 + reg;
            let v = 0x1000 * buf + k as u32 + 1;
            assert_eq!(n.mmio_write(off, v).unwrap(), NiuWrite::Done);
            let want = if reg == regs::NOC_PACKET_TAG {
                v & 0xFFFF
            } else {
                v
            };
            assert_eq!(n.mmio_read(off).unwrap(), want, "offset {off:#x}");
        }
    }
}

/// noc_init() reads NOC_CFG(NOC_ID_LOGICAL) for the tile's translated coordinates.
#[test]
fn identification_registers() {
    let mut n = niu(NocIndex::Noc1);
    assert_eq!(n.mmio_read(0x100 + 4 * 0x12).unwrap(), (4 << 6) | 3);
    let id = n.mmio_read(regs::NOC_NODE_ID).unwrap();
    assert_eq!((id & 0x3F, (id >> 6) & 0x3F), (13, 7));
    assert_eq!(n.mmio_read(0x1800 + regs::NOC_NODE_ID).unwrap(), id);
    assert_eq!(n.mmio_read(regs::NOC_ENDPOINT_ID).unwrap() >> 24, 1);
    assert!(n.mmio_write(regs::NOC_NODE_ID, 0).is_err());
}

#[test]
fn bad_offsets_are_typed_errors() {
    let mut n = niu(NocIndex::Noc0);
    for off in [
        0x2u32, 0x38, 0x3C, 0x4C, 0x870, 0x2000, 0x9000, 0xFFFC, 0x10000, 0x2F8,
    ] {
        assert!(
            matches!(
                n.mmio_read(off),
                Err(NocError::BadRegister { write: false, .. })
            ),
            "{off:#x}"
        );
    }
    assert!(matches!(
        n.mmio_write(0x204, 1),
        Err(NocError::BadRegister { write: true, .. })
    ));
    assert!(n.mmio_read(regs::NOC_CLEAR_OUTSTANDING_REQ_CNT).is_err());
    assert!(n.mmio_read(0x300).is_err());
}

/// MemoryMap.md NOC_CMD_CTRL: writing 1 initiates; fields are locked until accepted.
#[test]
fn cmd_ctrl_issues_and_locks_buffer() {
    let mut n = niu(NocIndex::Noc0);
    n.mmio_write(0x800 + regs::NOC_CTRL, ctrl::NOC_CMD_RD)
        .unwrap();
    n.mmio_write(0x800 + regs::NOC_AT_LEN_BE, 40000).unwrap();
    assert_eq!(
        n.mmio_write(0x800 + regs::NOC_CMD_CTRL, 0).unwrap(),
        NiuWrite::Done
    );
    assert_eq!(
        n.mmio_write(0x800 + regs::NOC_CMD_CTRL, 1).unwrap(),
        NiuWrite::Issue { cmd_buf: 1 }
    );
    let r = n.snapshot(1).unwrap();
    assert_eq!(r.packets(), 3);
    n.begin(&r);
    assert_eq!(n.mmio_read(0x800 + regs::NOC_CMD_CTRL).unwrap(), 1);
    assert_eq!(n.counter(counter::niu_mst_reqs_outstanding_id(0)), 3);
    assert!(matches!(
        n.mmio_write(0x800 + regs::NOC_TARG_ADDR_LO, 0),
        Err(NocError::CmdBufBusy { cmd_buf: 1, .. })
    ));
    // Other buffers stay usable.
    n.mmio_write(regs::NOC_TARG_ADDR_LO, 0).unwrap();
    n.accepted(1);
    assert_eq!(n.mmio_read(0x800 + regs::NOC_CMD_CTRL).unwrap(), 0);
}

/// Counters.md "Clear NIU transaction ID counters" and MemoryMap.md RTZ registers.
#[test]
fn clear_outstanding_and_rtz() {
    let mut n = niu(NocIndex::Noc0);
    n.add_outstanding(3, 2);
    n.add_outstanding(5, 1);
    n.retire_outstanding(5);
    assert_eq!(
        n.mmio_read(regs::NIU_TRANS_COUNT_RTZ_SOURCE).unwrap(),
        1 << 5
    );
    // Not enabled: RTZ_NUM reads 0.
    assert_eq!(n.mmio_read(regs::NIU_TRANS_COUNT_RTZ_NUM).unwrap(), 0);
    n.mmio_write(0x100 + 4 * 0x1E, 0xFFFF).unwrap();
    assert_eq!(n.mmio_read(regs::NIU_TRANS_COUNT_RTZ_NUM).unwrap(), 5);
    assert_eq!(n.mmio_read(regs::NIU_TRANS_COUNT_RTZ_SOURCE).unwrap(), 0);
    n.mmio_write(regs::NOC_CLEAR_OUTSTANDING_REQ_CNT, 1 << 3)
        .unwrap();
    assert_eq!(n.mmio_read(0x200 + 4 * (16 + 3)).unwrap(), 0);
    // 8-bit counters wrap.
    n.retire_outstanding(7);
    assert_eq!(n.counter(counter::niu_mst_reqs_outstanding_id(7)), 0xFF);
}

/// Every offset of the 64 KiB window, read and written, ends in a value or a typed error.
#[test]
fn whole_window_never_panics() {
    let mut n = niu(NocIndex::Noc0);
    for off in (0..0x1_0010u32).step_by(2) {
        let _ = n.mmio_read(off);
        let _ = n.mmio_write(off, 0xFFFF_FFFE);
    }
    assert!(n.mmio_read(0x180).is_err());
    assert!(n.mmio_write(0x1FC, 0).is_err());
}

#[test]
fn broadcast_opt_out_masks_mirror_on_noc1() {
    assert_eq!(mirror_bits(0b1, 17), 1 << 16);
    let n = niu(NocIndex::Noc1);
    assert_eq!(n.cfg(regs::ROUTER_CFG_3), (1 << 11) | (1 << 10));
}
