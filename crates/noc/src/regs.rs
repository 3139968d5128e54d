//! NIU register map and bit fields of Blackhole.
//!
//! Offsets are relative to an NIU's base (`0xFFB2_0000` for NoC 0, `0xFFB3_0000` for NoC 1, as
//! seen from a Tensix tile). Sources: tt-isa-documentation `BlackholeA0/NoC/MemoryMap.md` and
//! `Counters.md`; the same numbers appear in the firmware's `noc/noc_parameters.h` (ttnn 0.81.1).
//! See docs/blackhole-facts.md.

/// NIU base address of NoC 0 in a Tensix tile's address space (MemoryMap.md).
pub const NIU0_BASE: u32 = 0xFFB2_0000;
/// NIU base address of NoC 1 (MemoryMap.md).
pub const NIU1_BASE: u32 = 0xFFB3_0000;
/// Bytes of address space decoded by one NIU (`NOC_INSTANCE_OFFSET`, noc_parameters.h).
pub const NIU_WINDOW: u32 = 0x1_0000;

/// Stride between the four request initiators ("command buffers"), `NOC_CMD_BUF_OFFSET`.
pub const CMD_BUF_STRIDE: u32 = 0x800;
/// Request initiators per NIU.
pub const NUM_CMD_BUFS: usize = 4;

// Per-command-buffer registers (MemoryMap.md "NIU Request Initiators").
pub const NOC_TARG_ADDR_LO: u32 = 0x00;
pub const NOC_TARG_ADDR_MID: u32 = 0x04;
pub const NOC_TARG_ADDR_HI: u32 = 0x08;
pub const NOC_RET_ADDR_LO: u32 = 0x0C;
pub const NOC_RET_ADDR_MID: u32 = 0x10;
pub const NOC_RET_ADDR_HI: u32 = 0x14;
pub const NOC_PACKET_TAG: u32 = 0x18;
pub const NOC_CTRL: u32 = 0x1C;
pub const NOC_AT_LEN_BE: u32 = 0x20;
pub const NOC_AT_LEN_BE_1: u32 = 0x24;
pub const NOC_AT_DATA: u32 = 0x28;
pub const NOC_BRCST_EXCLUDE: u32 = 0x2C;
/// Named in noc_parameters.h only; kept as plain storage.
pub const NOC_L1_ACC_AT_INSTRN: u32 = 0x30;
/// Named in noc_parameters.h only; kept as plain storage.
pub const NOC_SEC_CTRL: u32 = 0x34;
pub const NOC_CMD_CTRL: u32 = 0x40;
/// Read-only identification, mirrored in each command buffer's window.
pub const NOC_NODE_ID: u32 = 0x44;
pub const NOC_ENDPOINT_ID: u32 = 0x48;
/// ECC / parity error counts (noc_parameters.h), not modelled.
pub const NUM_MEM_PARITY_ERR: u32 = 0x50;
pub const ECC_CTRL: u32 = 0x5C;
/// Write-only: clears `NIU_MST_REQS_OUTSTANDING_ID(i)` for each set bit i (Counters.md).
pub const NOC_CLEAR_OUTSTANDING_REQ_CNT: u32 = 0x60;
/// Request FIFO status (`CMD_BUF_AVAIL`, `CMD_BUF_OVFL`), mirrored per command buffer; not modelled.
pub const CMD_BUF_AVAIL: u32 = 0x64;
pub const CMD_BUF_OVFL: u32 = 0x68;

/// `NOC_CFG(i)` registers: `NIU_BASE + 0x100 + 4 * i`, i < 32.
pub const NOC_CFG_BASE: u32 = 0x100;
pub const NUM_CFG_REGS: usize = 32;
/// End of the configuration block (MemoryMap.md: `0x100`–`0x17F`).
pub const NOC_CFG_END: u32 = NOC_CFG_BASE + 4 * NUM_CFG_REGS as u32;
// Indices into NOC_CFG (noc_parameters.h; MemoryMap.md "NIU and NoC Router Configuration").
pub const NIU_CFG_0: usize = 0x00;
pub const ROUTER_CFG_0: usize = 0x01;
pub const ROUTER_CFG_1: usize = 0x02;
pub const ROUTER_CFG_2: usize = 0x03;
pub const ROUTER_CFG_3: usize = 0x04;
pub const ROUTER_CFG_4: usize = 0x05;
pub const NOC_X_ID_TRANSLATE_TABLE_0: usize = 0x06;
pub const NOC_Y_ID_TRANSLATE_TABLE_0: usize = 0x0C;
pub const NOC_ID_LOGICAL: usize = 0x12;
pub const MEMORY_SHUTDOWN_CONTROL: usize = 0x13;
pub const NOC_ID_TRANSLATE_COL_MASK: usize = 0x14;
pub const NOC_ID_TRANSLATE_ROW_MASK: usize = 0x15;
pub const DDR_COORD_TRANSLATE_TABLE_0: usize = 0x16;
pub const DDR_COORD_TRANSLATE_COL_SWAP: usize = 0x1C;
pub const DEBUG_COUNTER_RESET: usize = 0x1D;
pub const NIU_TRANS_COUNT_RTZ_CFG: usize = 0x1E;
pub const NIU_TRANS_COUNT_RTZ_CLR: usize = 0x1F;
/// `NIU_CFG_0` bit 14: coordinate translation enable (MemoryMap.md "NIU_CFG_0").
pub const NIU_CFG_0_NOC_ID_TRANSLATE_EN: u32 = 1 << 14;

/// Status counters `NOC_STATUS(i)`: `NIU_BASE + 0x200 + 4 * i` (Counters.md).
pub const NOC_STATUS_BASE: u32 = 0x200;
/// Counters 0..=61 are documented; 62 and 63 are not.
pub const NUM_COUNTERS: usize = 62;
/// Router debug information, read only, not modelled (MemoryMap.md).
pub const ROUTER_DEBUG_BASE: u32 = 0x300;
/// `NIU_TRANS_COUNT_RTZ_NUM` (index 0x5E of NOC_STATUS) and `..._SOURCE` (0x5F).
pub const NIU_TRANS_COUNT_RTZ_NUM: u32 = 0x378;
pub const NIU_TRANS_COUNT_RTZ_SOURCE: u32 = 0x37C;
/// NIU debug information, read only, not modelled.
pub const NIU_DEBUG_BASE: u32 = 0x380;
/// Security fence configuration: read/write storage here.
pub const SEC_FENCE_BASE: u32 = 0x400;
pub const SEC_FENCE_WORDS: usize = 64;
/// Router per-port per-VC flit counters, read only, not modelled.
pub const FLIT_COUNTERS_BASE: u32 = 0x500;
pub const FLIT_COUNTERS_END: u32 = 0x600;

/// Counter indices (Counters.md table; `NIU_MST_*`/`NIU_SLV_*` in noc_parameters.h).
pub mod counter {
    pub const NIU_MST_ATOMIC_RESP_RECEIVED: usize = 0;
    pub const NIU_MST_WR_ACK_RECEIVED: usize = 1;
    pub const NIU_MST_RD_RESP_RECEIVED: usize = 2;
    pub const NIU_MST_RD_DATA_WORD_RECEIVED: usize = 3;
    pub const NIU_MST_CMD_ACCEPTED: usize = 4;
    pub const NIU_MST_RD_REQ_SENT: usize = 5;
    pub const NIU_MST_NONPOSTED_ATOMIC_SENT: usize = 6;
    pub const NIU_MST_POSTED_ATOMIC_SENT: usize = 7;
    pub const NIU_MST_NONPOSTED_WR_DATA_WORD_SENT: usize = 8;
    pub const NIU_MST_POSTED_WR_DATA_WORD_SENT: usize = 9;
    pub const NIU_MST_NONPOSTED_WR_REQ_SENT: usize = 10;
    pub const NIU_MST_POSTED_WR_REQ_SENT: usize = 11;
    pub const NIU_MST_NONPOSTED_WR_REQ_STARTED: usize = 12;
    pub const NIU_MST_POSTED_WR_REQ_STARTED: usize = 13;
    pub const NIU_MST_RD_REQ_STARTED: usize = 14;
    pub const NIU_MST_NONPOSTED_ATOMIC_STARTED: usize = 15;
    /// `NIU_MST_REQS_OUTSTANDING_ID(i)` = 16 + i, 8 bits wide.
    pub const fn niu_mst_reqs_outstanding_id(id: usize) -> usize {
        16 + (id & 15)
    }
    /// `NIU_MST_WRITE_REQS_OUTGOING_ID(i)` = 32 + i, 8 bits wide.
    pub const fn niu_mst_write_reqs_outgoing_id(id: usize) -> usize {
        32 + (id & 15)
    }
    pub const NIU_SLV_ATOMIC_RESP_SENT: usize = 48;
    pub const NIU_SLV_WR_ACK_SENT: usize = 49;
    pub const NIU_SLV_RD_RESP_SENT: usize = 50;
    pub const NIU_SLV_RD_DATA_WORD_SENT: usize = 51;
    pub const NIU_SLV_REQ_ACCEPTED: usize = 52;
    pub const NIU_SLV_RD_REQ_RECEIVED: usize = 53;
    pub const NIU_SLV_NONPOSTED_ATOMIC_RECEIVED: usize = 54;
    pub const NIU_SLV_POSTED_ATOMIC_RECEIVED: usize = 55;
    pub const NIU_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED: usize = 56;
    pub const NIU_SLV_POSTED_WR_DATA_WORD_RECEIVED: usize = 57;
    pub const NIU_SLV_NONPOSTED_WR_REQ_RECEIVED: usize = 58;
    pub const NIU_SLV_POSTED_WR_REQ_RECEIVED: usize = 59;
    pub const NIU_SLV_NONPOSTED_WR_REQ_STARTED: usize = 60;
    pub const NIU_SLV_POSTED_WR_REQ_STARTED: usize = 61;
}

/// `NOC_CTRL` fields (MemoryMap.md "NOC_CTRL"; `NOC_CMD_*` in noc_parameters.h).
pub mod ctrl {
    /// Bits 0–1: request type.
    pub const TYPE_MASK: u32 = 0x3;
    pub const NOC_CMD_RD: u32 = 0;
    pub const NOC_CMD_AT: u32 = 1;
    pub const NOC_CMD_WR: u32 = 2;
    pub const NOC_CMD_WR_BE: u32 = 1 << 2;
    pub const NOC_CMD_WR_INLINE: u32 = 1 << 3;
    pub const NOC_CMD_RESP_MARKED: u32 = 1 << 4;
    pub const NOC_CMD_BRCST_PACKET: u32 = 1 << 5;
    pub const NOC_CMD_VC_LINKED: u32 = 1 << 6;
    pub const NOC_CMD_VC_STATIC: u32 = 1 << 7;
    pub const NOC_CMD_PATH_RESERVE: u32 = 1 << 8;
    pub const NOC_CMD_MEM_RD_DROP_ACK: u32 = 1 << 9;
    /// Bits 13–15: static VC (buddy bit 13, class bits 14–15).
    pub const fn noc_cmd_static_vc(vc: u32) -> u32 {
        (vc & 7) << 13
    }
    /// Bit 16: broadcast major axis (0 = X, 1 = Y).
    pub const NOC_CMD_BRCST_XY: u32 = 1 << 16;
    pub const NOC_CMD_BRCST_SRC_INCLUDE: u32 = 1 << 17;
    /// Bits 27–30: arbitration priority.
    pub const fn noc_cmd_arb_priority(p: u32) -> u32 {
        (p & 15) << 27
    }
    /// Bit 31: L1 accumulate; broken in hardware, rejected here.
    pub const NOC_CMD_L1_ACC_AT_EN: u32 = 1 << 31;
}

/// `NOC_PACKET_TAG` fields (MemoryMap.md "NOC_PACKET_TAG").
pub mod tag {
    /// Bit 9: posted writes also store the first 16 bytes at `NOC_AT_DATA << 4`.
    pub const NOC_PACKET_TAG_HEADER_STORE: u32 = 1 << 9;
    /// Bits 10–13: transaction id.
    pub const fn noc_packet_tag_transaction_id(id: u32) -> u32 {
        (id & 15) << 10
    }
    pub const fn transaction_id(tag: u32) -> usize {
        ((tag >> 10) & 15) as usize
    }
    /// Bits 16–31 read as zero.
    pub const WRITABLE_MASK: u32 = 0xFFFF;
}

/// `NOC_AT_LEN_BE` for atomics: opcode in bits 12–15 (Atomics.md; `NOC_AT_INS_*` in
/// noc_parameters.h).
pub mod atomic {
    pub const NOC_AT_INS_INCR_GET: u32 = 0x1;
    pub const NOC_AT_INS_SWAP: u32 = 0x3;
    pub const NOC_AT_INS_CAS: u32 = 0x4;
    pub const NOC_AT_INS_STORE_IND: u32 = 0x6;
    pub const NOC_AT_INS_SWAP_4B: u32 = 0x7;
    pub const NOC_AT_INS_ACC: u32 = 0x9;
    /// Opcode 0xA: swap (index variant, bits 8–11 = 3) or a Zaamo op (bit 11 set).
    pub const NOC_AT_INS_EXT: u32 = 0xA;
    pub const fn noc_at_ins(ins: u32) -> u32 {
        (ins & 15) << 12
    }
    /// Increment: bits 2–6 hold IntWidth (the "wrap" of `NOC_AT_WRAP`).
    pub const fn noc_at_wrap(w: u32) -> u32 {
        (w & 31) << 2
    }
    /// Bits 0–1: index of the 32-bit word within the 16-byte line.
    pub const fn noc_at_ind_32(i: u32) -> u32 {
        i & 3
    }
}

/// Largest payload of one packet: 256 flits × 64 bytes (Counters.md "Automatic request splitting").
pub const NOC_MAX_BURST_SIZE: u64 = 16384;
/// Bytes per flit (NoC/README.md).
pub const NOC_WORD_BYTES: u64 = 64;
/// Addresses at or above this (low 32 bits) in a Tensix tile are MMIO (`NOC_REG_SPACE_START_ADDR`).
pub const NOC_REG_SPACE_START_ADDR: u64 = 0xFF00_0000;
