//! ARC message queues, the firmware side (docs/tt-metal-on-bhemu.md "ARC messages").
//!
//! The control block in CSM holds the first queue's address and a word whose low byte is the
//! number of entries per queue (tt-umd: device/arc/blackhole_arc_message_queue.cpp). Each queue
//! is a 32-byte header followed by `ENTRIES` request slots and `ENTRIES` response slots of 8
//! words each. Header words: 0 request write pointer, 1 response read pointer (host-owned);
//! 4 request read pointer, 5 response write pointer (firmware-owned). Pointers count modulo
//! 2 × `ENTRIES`, so a full queue and an empty one differ.
//!
//! A request's word 0 holds the message code in its low byte and arguments follow. A response's
//! word 0 holds a status in the low byte (0 = done; 0xFF = message not recognised) and a 16-bit
//! result in the high half.

/// Entries per queue and number of queues the control block announces.
pub const ENTRIES: usize = 8;
pub const QUEUES: usize = 4;
const WORDS_PER_ENTRY: usize = 8;
const HEADER_WORDS: usize = 8;
/// Bytes of one queue: header, requests, responses.
pub const QUEUE_BYTES: usize = 4 * (HEADER_WORDS + 2 * ENTRIES * WORDS_PER_ENTRY);

/// Message codes the model answers (tt-umd: device/api/umd/device/types/blackhole_arc.hpp).
pub const MSG_NOP: u32 = 0x11;
pub const MSG_AICLK_GO_BUSY: u32 = 0x52;
pub const MSG_AICLK_GO_LONG_IDLE: u32 = 0x54;
/// Status of a message the firmware does not recognise.
pub const STATUS_UNKNOWN: u32 = 0xFF;

const REQ_WPTR: usize = 0;
const REQ_RPTR: usize = 4;
const RESP_WPTR: usize = 5;

/// The control block's second word: entries per queue in bits 0–7, number of queues in 8–15.
pub fn control_word() -> u32 {
    ENTRIES as u32 | (QUEUES as u32) << 8
}

fn word(q: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3]])
}

fn set_word(q: &mut [u8], i: usize, v: u32) {
    q[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
}

/// The response word 0 for request word 0 `code`; AICLK messages move `aiclk_mhz`.
pub fn answer(code: u32, aiclk_mhz: &mut u32) -> u32 {
    match code & 0xFF {
        MSG_NOP => 0,
        MSG_AICLK_GO_BUSY => {
            *aiclk_mhz = super::telemetry::AICLK_BUSY_MHZ;
            0
        }
        MSG_AICLK_GO_LONG_IDLE => {
            *aiclk_mhz = super::telemetry::AICLK_IDLE_MHZ;
            0
        }
        _ => STATUS_UNKNOWN,
    }
}

/// Answers every request queued in `q` (one queue's bytes). Pointers outside 0..2×`ENTRIES`
/// are taken modulo that range, as the host computes slots.
pub fn service(q: &mut [u8], aiclk_mhz: &mut u32) {
    let wrap = 2 * ENTRIES as u32;
    let wptr = word(q, REQ_WPTR) % wrap;
    let mut rptr = word(q, REQ_RPTR) % wrap;
    let mut resp = word(q, RESP_WPTR) % wrap;
    while rptr != wptr {
        let req = HEADER_WORDS + (rptr as usize % ENTRIES) * WORDS_PER_ENTRY;
        let status = answer(word(q, req), aiclk_mhz);
        let slot = HEADER_WORDS + (ENTRIES + resp as usize % ENTRIES) * WORDS_PER_ENTRY;
        set_word(q, slot, status);
        for w in 1..WORDS_PER_ENTRY {
            set_word(q, slot + w, 0);
        }
        rptr = (rptr + 1) % wrap;
        resp = (resp + 1) % wrap;
    }
    set_word(q, REQ_RPTR, rptr);
    set_word(q, RESP_WPTR, resp);
}
