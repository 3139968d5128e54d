//! Names of the memory-mapped registers a core stalls on or polls, in the words of the
//! hardware documents (MemoryMap.md, PCBufs.md, Counters.md; the overlay's CB counters as
//! `stream_io_map.h` uses them), for timeline traces and hang reports.
use bhemu_noc::regs::counter as c;
use bhemu_noc::regs::{CMD_BUF_STRIDE, NOC_CMD_CTRL, NOC_STATUS_BASE, NUM_COUNTERS};

use crate::tile::memory_map::{INSTRN_BUF_BASE, MAILBOX_BASE, PC_BUF_BASE};

/// The NoC overlay's stream registers (`STREAM_REG_ADDR`); stream `s` < 64 is CB `s`'s.
pub const OVERLAY_BASE: u32 = 0xFFB4_0000;
/// `STREAM_REMOTE_DEST_BUF_SIZE_REG_INDEX`: a CB's "tiles received" counter.
pub const TILES_RECEIVED_REG: u32 = 10;
/// `STREAM_REMOTE_DEST_BUF_START_REG_INDEX`: a CB's "tiles acked" counter.
pub const TILES_ACKED_REG: u32 = 8;

/// `NOC_STATUS(i)`'s name (Counters.md), for the counters barriers poll.
pub fn counter_name(i: usize) -> String {
    let n = match i {
        c::NIU_MST_ATOMIC_RESP_RECEIVED => "NIU_MST_ATOMIC_RESP_RECEIVED",
        c::NIU_MST_WR_ACK_RECEIVED => "NIU_MST_WR_ACK_RECEIVED (write acks)",
        c::NIU_MST_RD_RESP_RECEIVED => "NIU_MST_RD_RESP_RECEIVED (read responses)",
        c::NIU_MST_CMD_ACCEPTED => "NIU_MST_CMD_ACCEPTED",
        c::NIU_MST_NONPOSTED_WR_REQ_SENT => "NIU_MST_NONPOSTED_WR_REQ_SENT (writes sent)",
        c::NIU_MST_POSTED_WR_REQ_SENT => "NIU_MST_POSTED_WR_REQ_SENT",
        c::NIU_MST_NONPOSTED_ATOMIC_SENT => "NIU_MST_NONPOSTED_ATOMIC_SENT",
        c::NIU_MST_RD_REQ_SENT => "NIU_MST_RD_REQ_SENT",
        16..=31 => return format!("NIU_MST_REQS_OUTSTANDING_ID({})", i - 16),
        32..=47 => return format!("NIU_MST_WRITE_REQS_OUTGOING_ID({})", i - 32),
        _ => return format!("NOC_STATUS({i})"),
    };
    n.to_string()
}

/// What `addr` is, for a core of a Tensix tile.
pub fn describe(addr: u32) -> String {
    if let Some((noc, off)) = bhemu_noc::decode_niu_address(addr) {
        let n = noc.index();
        if (NOC_STATUS_BASE..NOC_STATUS_BASE + 4 * NUM_COUNTERS as u32).contains(&off) {
            return format!(
                "NIU{n} {}",
                counter_name(((off - NOC_STATUS_BASE) / 4) as usize)
            );
        }
        if off < 4 * CMD_BUF_STRIDE {
            let (b, r) = (off / CMD_BUF_STRIDE, off % CMD_BUF_STRIDE);
            if r == NOC_CMD_CTRL {
                return format!("NIU{n} command buffer {b} NOC_CMD_CTRL (ready)");
            }
            return format!("NIU{n} command buffer {b} register {r:#x}");
        }
        return format!("NIU{n} register {off:#x}");
    }
    if (OVERLAY_BASE..OVERLAY_BASE + 0x4_0000).contains(&addr) {
        let off = addr - OVERLAY_BASE;
        let (s, r) = (off >> 12, (off & 0xFFF) >> 2);
        return match r {
            TILES_RECEIVED_REG if s < 64 => format!("CB {s} tiles-received counter"),
            TILES_ACKED_REG if s < 64 => format!("CB {s} tiles-acked counter"),
            _ => format!("overlay stream {s} register {r}"),
        };
    }
    if (INSTRN_BUF_BASE..INSTRN_BUF_BASE + 0x3_0000).contains(&addr) {
        let t = (addr - INSTRN_BUF_BASE) >> 16;
        return format!("Tensix instruction buffer {t} (push into a full FIFO)");
    }
    if (PC_BUF_BASE..PC_BUF_BASE + 0x3_0000).contains(&addr) {
        let (t, off) = ((addr - PC_BUF_BASE) >> 16, (addr - PC_BUF_BASE) & 0xFFFF);
        return match off {
            0 => format!("PC buffer {t}"),
            4 => format!(
                "PC buffer {t} CoprocessorDoneCheck (TTSync: waits for its Tensix thread to drain)"
            ),
            8 => format!("PC buffer {t} MOPExpanderDoneCheck"),
            o if (0x20..0x40).contains(&o) => {
                format!("PC buffer {t} SemaphoreAccess[{}]", (o - 0x20) / 4)
            }
            o => format!("PC buffer {t} offset {o:#x}"),
        };
    }
    if (MAILBOX_BASE..MAILBOX_BASE + 0x1_0000).contains(&addr) {
        return format!("mailbox {:#x}", addr - MAILBOX_BASE);
    }
    format!("{addr:#010x}")
}

/// Registers software polls in a loop (barriers, CB waits, semaphores).
pub fn is_poll_target(addr: u32) -> bool {
    bhemu_noc::decode_niu_address(addr).is_some()
        || (OVERLAY_BASE..OVERLAY_BASE + 0x4_0000).contains(&addr)
        || (PC_BUF_BASE..PC_BUF_BASE + 0x3_0000).contains(&addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mmio_names_follow_the_memory_map() {
        assert_eq!(
            describe(0xFFB2_0000 + 0x200 + 4),
            "NIU0 NIU_MST_WR_ACK_RECEIVED (write acks)"
        );
        assert_eq!(
            describe(0xFFB3_0000 + 0x200 + 4 * 17),
            "NIU1 NIU_MST_REQS_OUTSTANDING_ID(1)"
        );
        assert_eq!(
            describe(0xFFB4_0000 + (3 << 12) + 40),
            "CB 3 tiles-received counter"
        );
        assert_eq!(
            describe(0xFFE5_0000),
            "Tensix instruction buffer 1 (push into a full FIFO)"
        );
        assert_eq!(
            describe(0xFFE8_0000 + 0x24),
            "PC buffer 0 SemaphoreAccess[1]"
        );
        assert_eq!(describe(0x1234), "0x00001234");
    }
}
