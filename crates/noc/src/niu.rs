//! One NIU (NoC interface unit) as a register block: four request initiators ("command
//! buffers"), identification registers, configuration, counters (tt-isa-documentation
//! `BlackholeA0/NoC/MemoryMap.md`, `Counters.md`).
//!
//! The NIU knows nothing of the fabric: a write of 1 to `NOC_CMD_CTRL` returns
//! [`NiuWrite::Issue`], and the owner ([`crate::Noc`]) snapshots the command buffer into a
//! [`Request`], checks it, and calls [`Niu::begin`], which applies the counter increments the
//! hardware performs at that moment and marks the buffer busy until the fabric accepts it.
use crate::coord::{NocIndex, NodeId, NodeInfo, NOC_GRID_X, NOC_GRID_Y};
use crate::regs::{self, counter, ctrl, tag};
use crate::NocError;

/// The software-visible fields of one request initiator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CmdBuf {
    pub targ_addr_lo: u32,
    pub targ_addr_mid: u32,
    pub targ_addr_hi: u32,
    pub ret_addr_lo: u32,
    pub ret_addr_mid: u32,
    pub ret_addr_hi: u32,
    pub packet_tag: u32,
    pub ctrl: u32,
    pub at_len_be: u32,
    pub at_len_be_1: u32,
    pub at_data: u32,
    pub brcst_exclude: u32,
    pub l1_acc_at_instrn: u32,
    pub sec_ctrl: u32,
    /// Bit 0: 1 from the initiating write until the fabric has accepted the last packet.
    pub cmd_ctrl: u32,
}

/// The type of a request (`NOC_CTRL` bits 0–1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    Read,
    Atomic,
    /// `inline`: data is `NOC_AT_DATA`; `byte_enable`: `NOC_AT_LEN_BE` is a byte mask.
    Write {
        inline: bool,
        byte_enable: bool,
    },
}

/// A snapshot of a command buffer at the moment software initiated it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// The initiating node and NIU.
    pub origin: NodeId,
    pub noc: NocIndex,
    pub cmd_buf: u8,
    pub ctrl: u32,
    /// `NOC_TARG_ADDR_MID:LO` and `NOC_RET_ADDR_MID:LO` as 64-bit local addresses.
    pub targ_addr: u64,
    pub targ_hi: u32,
    pub ret_addr: u64,
    pub ret_hi: u32,
    pub packet_tag: u32,
    /// `NOC_AT_LEN_BE_1:NOC_AT_LEN_BE`.
    pub len_be: u64,
    pub at_data: u32,
}

impl Request {
    pub fn kind(&self) -> Result<RequestKind, NocError> {
        match self.ctrl & ctrl::TYPE_MASK {
            ctrl::NOC_CMD_RD => Ok(RequestKind::Read),
            ctrl::NOC_CMD_AT => Ok(RequestKind::Atomic),
            ctrl::NOC_CMD_WR => Ok(RequestKind::Write {
                inline: self.ctrl & ctrl::NOC_CMD_WR_INLINE != 0,
                byte_enable: self.ctrl & ctrl::NOC_CMD_WR_BE != 0,
            }),
            _ => Err(NocError::BadRequest {
                reason: "request type 3 in NOC_CTRL is reserved",
            }),
        }
    }
    /// `NOC_CMD_RESP_MARKED`: a response / acknowledgement is wanted (reads always get one).
    pub fn non_posted(&self) -> bool {
        self.ctrl & ctrl::NOC_CMD_RESP_MARKED != 0
    }
    pub fn broadcast(&self) -> bool {
        self.ctrl & ctrl::NOC_CMD_BRCST_PACKET != 0
    }
    pub fn src_include(&self) -> bool {
        self.ctrl & ctrl::NOC_CMD_BRCST_SRC_INCLUDE != 0
    }
    pub fn transaction_id(&self) -> usize {
        tag::transaction_id(self.packet_tag)
    }
    /// Length in bytes of a length-based read or write.
    pub fn length(&self) -> u64 {
        self.len_be
    }
    /// Packets the hardware splits the request into: `max(1, ceil(len / 16384))` for length-based
    /// reads and writes, else 1 (Counters.md).
    pub fn packets(&self) -> u64 {
        match self.kind() {
            Ok(RequestKind::Read)
            | Ok(RequestKind::Write {
                inline: false,
                byte_enable: false,
            }) => self.len_be.div_ceil(regs::NOC_MAX_BURST_SIZE).max(1),
            _ => 1,
        }
    }
}

/// What a register write asks of the NIU's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NiuWrite {
    /// Nothing further to do.
    Done,
    /// Software initiated a request through this command buffer.
    Issue { cmd_buf: u8 },
}

/// One NIU.
#[derive(Debug, Clone)]
pub struct Niu {
    home: NodeId,
    noc: NocIndex,
    node_id: u32,
    endpoint_id: u32,
    bufs: [CmdBuf; regs::NUM_CMD_BUFS],
    counters: [u32; regs::NUM_COUNTERS],
    cfg: [u32; regs::NUM_CFG_REGS],
    sec_fence: [u32; regs::SEC_FENCE_WORDS],
    rtz_source: u32,
    /// Requests this NIU sent to disabled tiles, whose answers never come ([`crate::unanswered`]).
    pub(crate) unanswered: Vec<crate::unanswered::Unanswered>,
}

impl Niu {
    /// The NIU of `node` on `noc`, in the state firmware finds after the chip's own start-up
    /// (coordinate translation on, `NOC_ID_LOGICAL` holding the translated coordinates).
    pub fn new(node: &NodeInfo, noc: NocIndex) -> Self {
        let mut cfg = [0u32; regs::NUM_CFG_REGS];
        // MemoryMap.md NIU_CFG_0 bit 14; firmware relies on translated coordinates.
        cfg[regs::NIU_CFG_0] = regs::NIU_CFG_0_NOC_ID_TRANSLATE_EN;
        // MemoryMap.md NOC_ID_LOGICAL: x bits 0–5, y bits 6–11, in translated space; read by
        // noc_init() (noc_nonblocking_api.h) to learn the tile's own coordinates.
        cfg[regs::NOC_ID_LOGICAL] = node.id.xy_field();
        // ROUTER_CFG_1 / ROUTER_CFG_3: broadcast opt-out masks (columns / rows) so that only
        // Tensix tiles receive broadcasts. Raw NoC columns 0, 8, 9 and rows 0, 1 hold no Tensix.
        let cols0: u32 = (1 << 0) | (1 << 8) | (1 << 9);
        let rows0: u32 = (1 << 0) | (1 << 1);
        let (cols, rows) = match noc {
            NocIndex::Noc0 => (cols0, rows0),
            NocIndex::Noc1 => (
                mirror_bits(cols0, NOC_GRID_X as u32),
                mirror_bits(rows0, NOC_GRID_Y as u32),
            ),
        };
        cfg[regs::ROUTER_CFG_1] = cols;
        cfg[regs::ROUTER_CFG_3] = rows;
        Niu {
            home: node.id,
            noc,
            node_id: node.node_id_reg(noc),
            endpoint_id: node.endpoint_id(noc),
            bufs: [CmdBuf::default(); regs::NUM_CMD_BUFS],
            counters: [0; regs::NUM_COUNTERS],
            cfg,
            sec_fence: [0; regs::SEC_FENCE_WORDS],
            rtz_source: 0,
            unanswered: Vec::new(),
        }
    }

    pub fn home(&self) -> NodeId {
        self.home
    }
    pub fn noc(&self) -> NocIndex {
        self.noc
    }
    pub fn cmd_buf(&self, i: usize) -> Option<&CmdBuf> {
        self.bufs.get(i)
    }
    /// Counter `i` of Counters.md (0..=61).
    pub fn counter(&self, i: usize) -> u32 {
        self.counters.get(i).copied().unwrap_or(0)
    }
    /// `NOC_CFG(i)`.
    pub fn cfg(&self, i: usize) -> u32 {
        self.cfg.get(i).copied().unwrap_or(0)
    }
    /// True when no command buffer is waiting for the fabric.
    pub fn idle(&self) -> bool {
        self.bufs.iter().all(|b| b.cmd_ctrl & 1 == 0)
    }

    fn err(&self, offset: u32, write: bool, reason: &'static str) -> NocError {
        NocError::BadRegister {
            noc: self.noc.index() as u8,
            offset,
            write,
            reason,
        }
    }

    /// Reads the 32-bit register at `offset` from the NIU base. Unmapped, write-only and
    /// unmodelled registers are errors.
    pub fn mmio_read(&mut self, offset: u32) -> Result<u32, NocError> {
        if offset & 3 != 0 || offset >= regs::NIU_WINDOW {
            return Err(self.err(offset, false, "not a 32-bit NIU register"));
        }
        if let Some((buf, reg)) = cmd_buf_reg(offset) {
            let b = &self.bufs[buf];
            return match reg {
                regs::NOC_TARG_ADDR_LO => Ok(b.targ_addr_lo),
                regs::NOC_TARG_ADDR_MID => Ok(b.targ_addr_mid),
                regs::NOC_TARG_ADDR_HI => Ok(b.targ_addr_hi),
                regs::NOC_RET_ADDR_LO => Ok(b.ret_addr_lo),
                regs::NOC_RET_ADDR_MID => Ok(b.ret_addr_mid),
                regs::NOC_RET_ADDR_HI => Ok(b.ret_addr_hi),
                regs::NOC_PACKET_TAG => Ok(b.packet_tag),
                regs::NOC_CTRL => Ok(b.ctrl),
                regs::NOC_AT_LEN_BE => Ok(b.at_len_be),
                regs::NOC_AT_LEN_BE_1 => Ok(b.at_len_be_1),
                regs::NOC_AT_DATA => Ok(b.at_data),
                regs::NOC_BRCST_EXCLUDE => Ok(b.brcst_exclude),
                regs::NOC_L1_ACC_AT_INSTRN => Ok(b.l1_acc_at_instrn),
                regs::NOC_SEC_CTRL => Ok(b.sec_ctrl),
                regs::NOC_CMD_CTRL => Ok(b.cmd_ctrl),
                regs::NOC_NODE_ID => Ok(self.node_id),
                regs::NOC_ENDPOINT_ID => Ok(self.endpoint_id),
                regs::NOC_CLEAR_OUTSTANDING_REQ_CNT if buf == 0 => {
                    Err(self.err(offset, false, "write-only register"))
                }
                regs::NUM_MEM_PARITY_ERR..=regs::ECC_CTRL if buf == 0 => {
                    Err(self.err(offset, false, "ECC registers are not modelled"))
                }
                regs::CMD_BUF_AVAIL | regs::CMD_BUF_OVFL => {
                    Err(self.err(offset, false, "request FIFO status is not modelled"))
                }
                _ => Err(self.err(offset, false, "unmapped NIU offset")),
            };
        }
        match offset {
            o if (regs::NOC_CFG_BASE..regs::NOC_CFG_END).contains(&o) => {
                let i = ((o - regs::NOC_CFG_BASE) / 4) as usize;
                Ok(if i == regs::NIU_TRANS_COUNT_RTZ_CLR {
                    0
                } else {
                    self.cfg[i]
                })
            }
            o if (regs::NOC_STATUS_BASE..regs::ROUTER_DEBUG_BASE).contains(&o) => {
                let i = ((o - regs::NOC_STATUS_BASE) / 4) as usize;
                self.counters
                    .get(i)
                    .copied()
                    .ok_or_else(|| self.err(offset, false, "undocumented counter index"))
            }
            regs::NIU_TRANS_COUNT_RTZ_SOURCE => Ok(self.rtz_source),
            regs::NIU_TRANS_COUNT_RTZ_NUM => {
                // MemoryMap.md NIU_TRANS_COUNT_RTZ_NUM: index of a pending enabled bit (here the
                // lowest), cleared by the read unless RC_DISABLE (RTZ_CFG bit 28) is set.
                let rtz_cfg = self.cfg[regs::NIU_TRANS_COUNT_RTZ_CFG];
                let pending = self.rtz_source & rtz_cfg & 0xFFFF;
                if pending == 0 {
                    return Ok(0);
                }
                let i = pending.trailing_zeros();
                if rtz_cfg & (1 << 28) == 0 {
                    self.rtz_source &= !(1 << i);
                }
                Ok(i)
            }
            o if (regs::SEC_FENCE_BASE..regs::FLIT_COUNTERS_BASE).contains(&o) => {
                Ok(self.sec_fence[((o - regs::SEC_FENCE_BASE) / 4) as usize])
            }
            o if (regs::ROUTER_DEBUG_BASE..regs::SEC_FENCE_BASE).contains(&o)
                || (regs::FLIT_COUNTERS_BASE..regs::FLIT_COUNTERS_END).contains(&o) =>
            {
                Err(self.err(offset, false, "router/NIU debug registers are not modelled"))
            }
            _ => Err(self.err(offset, false, "unmapped NIU offset")),
        }
    }

    /// Writes the 32-bit register at `offset`. Writing a command buffer's fields while it is
    /// busy is an error (MemoryMap.md: "software must not write to any fields of the initiator"
    /// until `NOC_CMD_CTRL` reads 0).
    pub fn mmio_write(&mut self, offset: u32, value: u32) -> Result<NiuWrite, NocError> {
        if offset & 3 != 0 || offset >= regs::NIU_WINDOW {
            return Err(self.err(offset, true, "not a 32-bit NIU register"));
        }
        if let Some((buf, reg)) = cmd_buf_reg(offset) {
            let busy = self.bufs[buf].cmd_ctrl & 1 != 0;
            let is_field = matches!(reg, 0x00..=0x34 | regs::NOC_CMD_CTRL);
            if busy && is_field {
                return Err(NocError::CmdBufBusy {
                    noc: self.noc.index() as u8,
                    cmd_buf: buf as u8,
                    offset,
                });
            }
            let b = &mut self.bufs[buf];
            match reg {
                regs::NOC_TARG_ADDR_LO => b.targ_addr_lo = value,
                regs::NOC_TARG_ADDR_MID => b.targ_addr_mid = value,
                regs::NOC_TARG_ADDR_HI => b.targ_addr_hi = value,
                regs::NOC_RET_ADDR_LO => b.ret_addr_lo = value,
                regs::NOC_RET_ADDR_MID => b.ret_addr_mid = value,
                regs::NOC_RET_ADDR_HI => b.ret_addr_hi = value,
                // MemoryMap.md NOC_PACKET_TAG: bits 16–31 ignored, read as zero.
                regs::NOC_PACKET_TAG => b.packet_tag = value & tag::WRITABLE_MASK,
                regs::NOC_CTRL => b.ctrl = value,
                regs::NOC_AT_LEN_BE => b.at_len_be = value,
                regs::NOC_AT_LEN_BE_1 => b.at_len_be_1 = value,
                regs::NOC_AT_DATA => b.at_data = value,
                regs::NOC_BRCST_EXCLUDE => b.brcst_exclude = value,
                regs::NOC_L1_ACC_AT_INSTRN => b.l1_acc_at_instrn = value,
                regs::NOC_SEC_CTRL => b.sec_ctrl = value,
                regs::NOC_CMD_CTRL => {
                    if value & 1 != 0 {
                        return Ok(NiuWrite::Issue { cmd_buf: buf as u8 });
                    }
                }
                regs::NOC_NODE_ID | regs::NOC_ENDPOINT_ID => {
                    return Err(self.err(offset, true, "read-only register"))
                }
                regs::NOC_CLEAR_OUTSTANDING_REQ_CNT if buf == 0 => {
                    // Counters.md "Clear NIU transaction ID counters".
                    for i in 0..16 {
                        if value & (1 << i) != 0 {
                            self.counters[counter::niu_mst_reqs_outstanding_id(i)] = 0;
                        }
                    }
                }
                regs::NUM_MEM_PARITY_ERR..=regs::ECC_CTRL if buf == 0 => {
                    return Err(self.err(offset, true, "ECC registers are not modelled"))
                }
                regs::CMD_BUF_AVAIL | regs::CMD_BUF_OVFL => {
                    return Err(self.err(offset, true, "read-only register"))
                }
                _ => return Err(self.err(offset, true, "unmapped NIU offset")),
            }
            return Ok(NiuWrite::Done);
        }
        match offset {
            o if (regs::NOC_CFG_BASE..regs::NOC_CFG_END).contains(&o) => {
                let i = ((o - regs::NOC_CFG_BASE) / 4) as usize;
                match i {
                    // MemoryMap.md NIU_TRANS_COUNT_RTZ_CLR: clears bits of RTZ_SOURCE.
                    regs::NIU_TRANS_COUNT_RTZ_CLR => self.rtz_source &= !value,
                    // Self-clearing pulse; counters it resets are not modelled.
                    regs::DEBUG_COUNTER_RESET => {}
                    // Plain storage. Translation tables and masks are kept but bhemu always
                    // routes with the fixed Blackhole translation (docs/blackhole-facts.md).
                    _ => self.cfg[i] = value,
                }
                Ok(NiuWrite::Done)
            }
            o if (regs::NOC_STATUS_BASE..regs::ROUTER_DEBUG_BASE).contains(&o) => {
                Err(self.err(offset, true, "counters are read-only"))
            }
            // MemoryMap.md: writes to RTZ_SOURCE and RTZ_NUM have no effect.
            regs::NIU_TRANS_COUNT_RTZ_SOURCE | regs::NIU_TRANS_COUNT_RTZ_NUM => Ok(NiuWrite::Done),
            o if (regs::SEC_FENCE_BASE..regs::FLIT_COUNTERS_BASE).contains(&o) => {
                self.sec_fence[((o - regs::SEC_FENCE_BASE) / 4) as usize] = value;
                Ok(NiuWrite::Done)
            }
            o if (regs::ROUTER_DEBUG_BASE..regs::SEC_FENCE_BASE).contains(&o)
                || (regs::FLIT_COUNTERS_BASE..regs::FLIT_COUNTERS_END).contains(&o) =>
            {
                Err(self.err(offset, true, "debug registers are read-only"))
            }
            _ => Err(self.err(offset, true, "unmapped NIU offset")),
        }
    }

    /// A snapshot of command buffer `cmd_buf` as a request.
    pub fn snapshot(&self, cmd_buf: u8) -> Option<Request> {
        let b = self.bufs.get(cmd_buf as usize)?;
        Some(Request {
            origin: self.home,
            noc: self.noc,
            cmd_buf,
            ctrl: b.ctrl,
            targ_addr: (b.targ_addr_mid as u64) << 32 | b.targ_addr_lo as u64,
            targ_hi: b.targ_addr_hi,
            ret_addr: (b.ret_addr_mid as u64) << 32 | b.ret_addr_lo as u64,
            ret_hi: b.ret_addr_hi,
            packet_tag: b.packet_tag,
            len_be: (b.at_len_be_1 as u64) << 32 | b.at_len_be as u64,
            at_data: b.at_data,
        })
    }

    /// Software's write of 1 to `NOC_CMD_CTRL` took effect: mark the buffer busy and apply the
    /// increments Counters.md lists "as software writes to NOC_CMD_CTRL".
    pub fn begin(&mut self, req: &Request) {
        if let Some(b) = self.bufs.get_mut(req.cmd_buf as usize) {
            b.cmd_ctrl = 1;
        }
        let id = req.transaction_id();
        let n = req.packets() as u32;
        match req.kind() {
            Ok(RequestKind::Read) => self.add_outstanding(id, n),
            Ok(RequestKind::Atomic) | Ok(RequestKind::Write { inline: true, .. }) => {
                if req.non_posted() {
                    self.add_outstanding(id, 1);
                }
            }
            Ok(RequestKind::Write { inline: false, .. }) => {
                if req.non_posted() {
                    self.add_outstanding(id, n);
                }
                let c = &mut self.counters[counter::niu_mst_write_reqs_outgoing_id(id)];
                *c = c.wrapping_add(n) & 0xFF;
            }
            Err(_) => {}
        }
    }

    /// The fabric accepted the request's last packet: `NOC_CMD_CTRL` reverts to 0.
    pub fn accepted(&mut self, cmd_buf: u8) {
        if let Some(b) = self.bufs.get_mut(cmd_buf as usize) {
            b.cmd_ctrl = 0;
        }
    }

    /// Adds to a 32-bit counter (wrapping).
    /// The receiver's counters for a write request of `flits` data flits.
    pub(crate) fn count_write_received(&mut self, non_posted: bool, flits: u32) {
        if non_posted {
            self.bump(counter::NIU_SLV_NONPOSTED_WR_REQ_STARTED, 1);
            self.bump(counter::NIU_SLV_NONPOSTED_WR_DATA_WORD_RECEIVED, flits);
            self.bump(counter::NIU_SLV_NONPOSTED_WR_REQ_RECEIVED, 1);
            self.bump(counter::NIU_SLV_WR_ACK_SENT, 1);
        } else {
            self.bump(counter::NIU_SLV_POSTED_WR_REQ_STARTED, 1);
            self.bump(counter::NIU_SLV_POSTED_WR_DATA_WORD_RECEIVED, flits);
            self.bump(counter::NIU_SLV_POSTED_WR_REQ_RECEIVED, 1);
        }
    }

    pub fn bump(&mut self, i: usize, n: u32) {
        if let Some(c) = self.counters.get_mut(i) {
            *c = c.wrapping_add(n);
        }
    }

    fn add_outstanding(&mut self, id: usize, n: u32) {
        let c = &mut self.counters[counter::niu_mst_reqs_outstanding_id(id)];
        *c = c.wrapping_add(n) & 0xFF;
    }

    /// Decrements `NIU_MST_REQS_OUTSTANDING_ID(id)` (8 bits, wrapping); a positive-to-zero
    /// transition sets bit `id` of `NIU_TRANS_COUNT_RTZ_SOURCE` (MemoryMap.md).
    pub fn retire_outstanding(&mut self, id: usize) {
        let c = &mut self.counters[counter::niu_mst_reqs_outstanding_id(id)];
        let was = *c;
        *c = c.wrapping_sub(1) & 0xFF;
        if was == 1 {
            self.rtz_source |= 1 << (id & 15);
        }
    }

    /// Decrements `NIU_MST_WRITE_REQS_OUTGOING_ID(id)` (8 bits, wrapping).
    pub fn retire_outgoing(&mut self, id: usize) {
        let c = &mut self.counters[counter::niu_mst_write_reqs_outgoing_id(id)];
        *c = c.wrapping_sub(1) & 0xFF;
    }
}

/// Splits an offset inside one of the four request-initiator windows (the first 0x100 bytes of
/// each 0x800 stride) into (buffer, register); the rest of the NIU map lives in buffer 0's
/// window from 0x100 (MemoryMap.md).
fn cmd_buf_reg(offset: u32) -> Option<(usize, u32)> {
    let buf = (offset / regs::CMD_BUF_STRIDE) as usize;
    let reg = offset % regs::CMD_BUF_STRIDE;
    (buf < regs::NUM_CMD_BUFS && reg < regs::NOC_CFG_BASE).then_some((buf, reg))
}

/// Reverses the low `n` bits of `v` (bit i ↔ bit n−1−i).
fn mirror_bits(v: u32, n: u32) -> u32 {
    (0..n)
        .filter(|i| v & (1 << i) != 0)
        .fold(0, |acc, i| acc | 1 << (n - 1 - i))
}

#[cfg(test)]
#[path = "niu_tests.rs"]
mod tests;
