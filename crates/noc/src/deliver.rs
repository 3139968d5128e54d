//! What a request does once issued: the fabric accepts it from its command buffer (the
//! initiator's counters), and each scheduled step lands its effects — data at the receivers,
//! read responses, acknowledgements and the counters at both ends (tt-isa-documentation
//! `BlackholeA0/NoC/Counters.md`, `MemoryMap.md`). [`Noc::tick`] drives both.
use super::*;

impl Noc {
    /// The fabric takes the request from its command buffer (Counters.md "as the virtual channel
    /// number for the first hop ... is assigned" and "as the ... packet leaves the NIU").
    pub(crate) fn accept<E: NocEndpoints + ?Sized>(
        &mut self,
        req: &Request,
        now: u64,
        ep: &mut E,
    ) -> Result<(), NocError> {
        let origin = self.slot(req.origin)?;
        let noc = req.noc;
        if self.log.is_some() {
            self.record(req, now, origin);
        }
        self.niu_mut(origin, noc).accepted(req.cmd_buf);
        match req.kind()? {
            RequestKind::Read => self.accept_read(req, now, origin),
            RequestKind::Atomic => self.accept_atomic(req, now, origin),
            RequestKind::Write {
                inline,
                byte_enable,
            } => self.accept_write(req, now, ep, origin, (inline, byte_enable)),
        }
    }

    /// A read: one request per packet of at most `NOC_MAX_BURST_SIZE` bytes, each arriving
    /// at the target after the path's latency.
    fn accept_read(&mut self, req: &Request, now: u64, origin: usize) -> Result<(), NocError> {
        let noc = req.noc;
        let dest = NodeId::from_xy_field(req.targ_hi);
        let target = self.topo.reach(dest)?;
        let ret = self.slot(NodeId::from_xy_field(req.ret_hi))?;
        let len = req.length();
        for p in 0..req.packets() {
            let off = p * regs::NOC_MAX_BURST_SIZE;
            let n = (len - off.min(len)).min(regs::NOC_MAX_BURST_SIZE);
            let niu = self.niu_mut(origin, noc);
            niu.bump(c::NIU_MST_CMD_ACCEPTED, 1);
            niu.bump(c::NIU_MST_RD_REQ_STARTED, 1);
            niu.bump(c::NIU_MST_RD_REQ_SENT, 1);
            let Some(target) = target else {
                niu.lose(dest, Awaited::ReadResponse, 1);
                continue;
            };
            let due = now + self.latency(noc, origin, target);
            self.schedule(
                due,
                Event::ReadArrive {
                    req: *req,
                    target,
                    addr: req.targ_addr.wrapping_add(off),
                    len: n,
                    ret,
                    ret_addr: req.ret_addr.wrapping_add(off),
                },
            );
        }
        Ok(())
    }

    /// An atomic: to one receiver or every receiver of a broadcast; a non-posted one gets its
    /// response back (or waits forever for a disabled tile's).
    fn accept_atomic(&mut self, req: &Request, now: u64, origin: usize) -> Result<(), NocError> {
        let noc = req.noc;
        let np = req.non_posted();
        let op = AtomicOp::decode(req.len_be as u32, req.at_data)?;
        let niu = self.niu_mut(origin, noc);
        niu.bump(c::NIU_MST_CMD_ACCEPTED, 1);
        if np {
            niu.bump(c::NIU_MST_NONPOSTED_ATOMIC_STARTED, 1);
            niu.bump(c::NIU_MST_NONPOSTED_ATOMIC_SENT, 1);
        } else {
            niu.bump(c::NIU_MST_POSTED_ATOMIC_SENT, 1);
        }
        let dest = NodeId::from_xy_field(req.targ_hi);
        let receivers = if req.broadcast() {
            self.broadcast_receivers(req, req.targ_hi)?
        } else {
            self.topo.reach(dest)?.into_iter().collect()
        };
        let ret = if np {
            Some(self.slot(NodeId::from_xy_field(req.ret_hi))?)
        } else {
            None
        };
        if np && !req.broadcast() && receivers.is_empty() {
            self.niu_mut(origin, noc)
                .lose(dest, Awaited::AtomicResponse, 1);
        }
        for receiver in receivers {
            let due = now + self.latency(noc, origin, receiver);
            self.schedule(
                due,
                Event::AtomicArrive {
                    req: *req,
                    receiver,
                    op,
                    ret,
                },
            );
        }
        Ok(())
    }

    /// A write (inline, byte-enable or a block in packets): the initiator's counters per packet,
    /// and each packet scheduled at every receiver with the acknowledgement it asks for.
    fn accept_write<E: NocEndpoints + ?Sized>(
        &mut self,
        req: &Request,
        now: u64,
        ep: &mut E,
        origin: usize,
        (inline, byte_enable): (bool, bool),
    ) -> Result<(), NocError> {
        let noc = req.noc;
        let id = req.transaction_id();
        let np = req.non_posted();
        let dest_hi = if inline { req.targ_hi } else { req.ret_hi };
        let dest = NodeId::from_xy_field(dest_hi);
        let receivers = if req.broadcast() {
            self.broadcast_receivers(req, dest_hi)?
        } else {
            self.topo.reach(dest)?.into_iter().collect()
        };
        // A unicast to a disabled tile: its acknowledgements never come (unanswered.rs).
        let lost = np && !req.broadcast() && receivers.is_empty();
        // Acknowledgements: inline writes ack the initiator; others ack TARG_ADDR_HI.
        let ack = match (np, inline) {
            (false, _) => None,
            (true, true) => Some(origin),
            (true, false) => Some(self.slot(NodeId::from_xy_field(req.targ_hi))?),
        };
        let (started, sent, words) = if np {
            (
                c::NIU_MST_NONPOSTED_WR_REQ_STARTED,
                c::NIU_MST_NONPOSTED_WR_REQ_SENT,
                c::NIU_MST_NONPOSTED_WR_DATA_WORD_SENT,
            )
        } else {
            (
                c::NIU_MST_POSTED_WR_REQ_STARTED,
                c::NIU_MST_POSTED_WR_REQ_SENT,
                c::NIU_MST_POSTED_WR_DATA_WORD_SENT,
            )
        };
        let packets = write_packets(req, inline, byte_enable, ep);
        let mut first_err = None;
        for (addr, data, mask, nflits) in packets {
            let niu = self.niu_mut(origin, noc);
            niu.bump(c::NIU_MST_CMD_ACCEPTED, 1);
            niu.bump(started, 1);
            niu.bump(sent, 1);
            if !inline {
                niu.bump(words, nflits);
                niu.retire_outgoing(id);
            }
            if lost {
                niu.lose(dest, Awaited::WriteAck, 1);
            }
            let data = match data {
                Ok(d) => Some(d),
                Err(e) => {
                    first_err.get_or_insert(e);
                    None
                }
            };
            for &receiver in &receivers {
                let due = now + self.latency(noc, origin, receiver);
                self.schedule(
                    due,
                    Event::WriteArrive {
                        req: *req,
                        receiver,
                        addr,
                        data: data.clone(),
                        mask,
                        flits: nflits,
                        ack,
                    },
                );
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Performs one step; on failure returns the request for the fault report.
    pub(crate) fn process<E: NocEndpoints + ?Sized>(
        &mut self,
        ev: Event,
        now: u64,
        ep: &mut E,
    ) -> Result<(), (Request, NocError)> {
        match ev {
            Event::ReadArrive {
                req,
                target,
                addr,
                len,
                ret,
                ret_addr,
            } => {
                let nflits = flits(len);
                let t = self.niu_mut(target, req.noc);
                t.bump(c::NIU_SLV_REQ_ACCEPTED, 1);
                t.bump(c::NIU_SLV_RD_REQ_RECEIVED, 1);
                t.bump(c::NIU_SLV_RD_RESP_SENT, 1);
                t.bump(c::NIU_SLV_RD_DATA_WORD_SENT, nflits);
                let node = self.topo.nodes()[target].id;
                let r = read_shared(ep, node, addr, len as usize);
                let data = r.as_ref().ok().cloned();
                let r = r.map(|_| ());
                let due = now + self.latency(req.noc, target, ret);
                self.schedule(
                    due,
                    Event::ReadReturn {
                        req,
                        ret,
                        ret_addr,
                        data,
                        flits: nflits,
                    },
                );
                r.map_err(|e| (req, e))
            }
            Event::ReadReturn {
                req,
                ret,
                ret_addr,
                data,
                flits: nflits,
            } => {
                let node = self.topo.nodes()[ret].id;
                let r = match &data {
                    Some(d) => ep.write(node, ret_addr, d),
                    None => Ok(()),
                };
                let n = self.niu_mut(ret, req.noc);
                n.bump(c::NIU_MST_RD_RESP_RECEIVED, 1);
                n.bump(c::NIU_MST_RD_DATA_WORD_RECEIVED, nflits);
                n.retire_outstanding(req.transaction_id());
                r.map_err(|e| (req, e))
            }
            Event::WriteArrive {
                req,
                receiver,
                addr,
                data,
                mask,
                flits: nflits,
                ack,
            } => {
                let node = self.topo.nodes()[receiver].id;
                let r = match &data {
                    None => Ok(()),
                    Some(d) => store_write(ep, node, &req, addr, d, mask),
                };
                self.niu_mut(receiver, req.noc)
                    .count_write_received(req.non_posted(), nflits);
                if let Some(a) = ack {
                    let due = now + self.latency(req.noc, receiver, a);
                    self.schedule(due, Event::WriteAck { req, niu: a });
                }
                r.map_err(|e| (req, e))
            }
            Event::WriteAck { req, niu } => {
                let n = self.niu_mut(niu, req.noc);
                n.bump(c::NIU_MST_WR_ACK_RECEIVED, 1);
                n.retire_outstanding(req.transaction_id());
                Ok(())
            }
            Event::AtomicArrive {
                req,
                receiver,
                op,
                ret,
            } => {
                let rcv = self.niu_mut(receiver, req.noc);
                rcv.bump(c::NIU_SLV_REQ_ACCEPTED, 1);
                if ret.is_some() {
                    rcv.bump(c::NIU_SLV_NONPOSTED_ATOMIC_RECEIVED, 1);
                    rcv.bump(c::NIU_SLV_ATOMIC_RESP_SENT, 1);
                } else {
                    rcv.bump(c::NIU_SLV_POSTED_ATOMIC_RECEIVED, 1);
                }
                let node = self.topo.nodes()[receiver].id;
                let r = ep.atomic(node, req.targ_addr, &op);
                if let Some(ret) = ret {
                    let due = now + self.latency(req.noc, receiver, ret);
                    self.schedule(
                        due,
                        Event::AtomicReturn {
                            req,
                            ret,
                            result: r.as_ref().ok().copied(),
                        },
                    );
                }
                r.map(|_| ()).map_err(|e| (req, e))
            }
            Event::AtomicReturn { req, ret, result } => {
                // Atomics.md: the result is stored at NOC_RET_ADDR_LO, then the counters move.
                let node = self.topo.nodes()[ret].id;
                let r = match result {
                    Some(v) => ep.write(node, req.ret_addr & !3, &v.to_le_bytes()),
                    None => Ok(()),
                };
                let n = self.niu_mut(ret, req.noc);
                n.bump(c::NIU_MST_ATOMIC_RESP_RECEIVED, 1);
                n.retire_outstanding(req.transaction_id());
                r.map_err(|e| (req, e))
            }
        }
    }
}

/// A write's data stored at its receiver: all of it, or the bytes `mask` selects; a posted
/// write with NOC_PACKET_TAG bit 9 (MemoryMap.md) also stores its first 16 bytes at
/// `NOC_AT_DATA << 4`.
fn store_write<E: NocEndpoints + ?Sized>(
    ep: &mut E,
    node: NodeId,
    req: &Request,
    addr: u64,
    data: &[u8],
    mask: Option<u64>,
) -> Result<(), NocError> {
    match mask {
        None => ep.write(node, addr, data)?,
        Some(m) => write_masked(ep, node, addr, data, m)?,
    }
    let inline = req.ctrl & regs::ctrl::NOC_CMD_WR_INLINE != 0;
    if !req.non_posted() && !inline && req.packet_tag & regs::tag::NOC_PACKET_TAG_HEADER_STORE != 0
    {
        let n = data.len().min(16);
        ep.write(node, (req.at_data as u64) << 4, &data[..n])?;
    }
    Ok(())
}

/// Data flits for `len` bytes (64 bytes per flit, NoC/README.md). bhemu ignores the extra flit
/// an unaligned transfer may need.
fn flits(len: u64) -> u32 {
    len.div_ceil(regs::NOC_WORD_BYTES) as u32
}

/// Writes the bytes of `data` (64 bytes based at `base`) whose bits are set in `mask`, one
/// endpoint write per contiguous run.
fn write_masked<E: NocEndpoints + ?Sized>(
    ep: &mut E,
    node: NodeId,
    base: u64,
    data: &[u8],
    mask: u64,
) -> Result<(), NocError> {
    let mut i = 0usize;
    while i < 64 && i < data.len() {
        if mask & (1 << i) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < 64 && i < data.len() && mask & (1 << i) != 0 {
            i += 1;
        }
        ep.write(node, base + start as u64, &data[start..i])?;
    }
    Ok(())
}

/// `len` bytes at `addr` in `node`'s address space, read straight into the shared buffer a
/// packet or a read's return carries: one allocation, no copy out of a scratch vector.
fn read_shared<E: NocEndpoints + ?Sized>(
    ep: &mut E,
    node: NodeId,
    addr: u64,
    len: usize,
) -> Result<Arc<[u8]>, NocError> {
    let mut shared: Arc<[u8]> = std::iter::repeat_n(0u8, len).collect();
    match Arc::get_mut(&mut shared) {
        Some(buf) => ep.read(node, addr, buf).map(|_| shared),
        // Not reached (the buffer was made just above and is not shared yet); a plain read
        // keeps every path free of panics.
        None => {
            let mut buf = vec![0u8; len];
            ep.read(node, addr, &mut buf).map(|_| Arc::from(buf))
        }
    }
}

/// The packets of a write, with the data read from the initiator's memory when the request
/// is accepted (or the read's fault): an inline write's 32-bit store, a byte-enable write's
/// masked 64 bytes (or a 32-bit store to MMIO), or a block cut at `NOC_MAX_BURST_SIZE`.
fn write_packets<E: NocEndpoints + ?Sized>(
    req: &Request,
    inline: bool,
    byte_enable: bool,
    ep: &mut E,
) -> Vec<WritePacket> {
    let mut packets: Vec<WritePacket> = Vec::new();
    if inline {
        // MemoryMap.md NOC_AT_LEN_BE: an inline write is a 32-bit store of
        // NOC_AT_DATA (to MMIO; to L1 it is unsafe on hardware and modelled the same).
        let data: Arc<[u8]> = Arc::from(req.at_data.to_le_bytes());
        packets.push((req.targ_addr & !3, Ok(data), None, 1));
    } else if byte_enable {
        let ret_lo = req.ret_addr & 0xFFFF_FFFF;
        if ret_lo >= regs::NOC_REG_SPACE_START_ADDR {
            // MemoryMap.md: to an MMIO address, a 32-bit store; the mask is ignored.
            let mut b = [0u8; 4];
            let r = ep
                .read(req.origin, req.targ_addr, &mut b)
                .map(|_| Arc::from(b));
            packets.push((req.ret_addr, r, None, 1));
        } else {
            // MemoryMap.md: up to 64 bytes from TARG & ~0xf to RET & ~0xf, masked.
            let mut b = [0u8; 64];
            let mask = req.len_be;
            let r = if mask == 0 {
                Ok(Arc::from(b))
            } else {
                let first = mask.trailing_zeros() as usize;
                let last = 63 - mask.leading_zeros() as usize;
                ep.read(
                    req.origin,
                    (req.targ_addr & !0xF) + first as u64,
                    &mut b[first..=last],
                )
                .map(|_| Arc::from(b))
            };
            packets.push((req.ret_addr & !0xF, r, Some(mask), 1));
        }
    } else {
        let len = req.length();
        for p in 0..req.packets() {
            let off = p * regs::NOC_MAX_BURST_SIZE;
            let n = (len - off.min(len)).min(regs::NOC_MAX_BURST_SIZE);
            let r = read_shared(ep, req.origin, req.targ_addr.wrapping_add(off), n as usize);
            packets.push((req.ret_addr.wrapping_add(off), r, None, flits(n)));
        }
    }
    packets
}
