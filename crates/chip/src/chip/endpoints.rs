//! What a NoC request or a host access reaches at a node: the chip's routing table
//! ([`Endpoint`]) and the one place that reads, writes and applies atomics to an endpoint,
//! for the NoC's deliveries ([`Ends`]) and the host's accesses alike.
use super::*;

/// The memory the NoC reaches, borrowed from the chip for one `Noc::tick`.
pub(super) struct Ends<'a> {
    pub tiles: &'a mut [Tile],
    pub due: &'a mut [u64],
    pub earliest: &'a mut u64,
    pub l1_written: &'a mut bool,
    pub endpoints: &'a [Endpoint],
    pub dram: &'a mut Dram,
    pub now: u64,
}

pub(super) fn access(node: NodeId, addr: u64, len: usize, reason: String) -> NocError {
    NocError::Access {
        node,
        addr,
        len: len as u64,
        reason,
    }
}

/// The node at translated `y * 64 + x`, as the chip's routing table has it.
pub(super) fn endpoint_at(endpoints: &[Endpoint], node: NodeId) -> Endpoint {
    if node.x >= 64 || node.y >= 64 {
        return Endpoint::None;
    }
    endpoints
        .get(usize::from(node.y) * 64 + usize::from(node.x))
        .copied()
        .unwrap_or(Endpoint::None)
}

/// A read of `buf.len()` bytes at `addr` of one endpoint: the one place that says what a
/// request arriving at a node reaches, for NoC transactions ([`Ends`]) and host accesses
/// ([`Chip::host_read`]) alike. Errors carry the chip's kind and a sentence.
pub(super) fn endpoint_read(
    tiles: &mut [Tile],
    dram: &Dram,
    ep: Endpoint,
    addr: u64,
    buf: &mut [u8],
    now: u64,
    next: u64,
) -> Result<(), (ErrorKind, String)> {
    match ep {
        Endpoint::Tile(i) => match tiles.get_mut(usize::from(i)) {
            Some(t) => t
                .noc_read(addr, buf, now, next)
                .map_err(|m| (ErrorKind::Unimplemented, m)),
            None => Err((ErrorKind::Unmapped, "no such tile".into())),
        },
        Endpoint::Dram(ch) => dram
            .read(usize::from(ch), addr, buf)
            .map_err(|e| (ErrorKind::AccessRule, e.to_string())),
        Endpoint::Pcie if addr >= NOC_HOST_WINDOW => Err((
            ErrorKind::Unimplemented,
            "host reads of the PCIe tile's NoC-to-host window are not modelled".into(),
        )),
        Endpoint::Pcie => Err((ErrorKind::Unimplemented, pcie_unmodelled(addr))),
        Endpoint::Arc => Err((ErrorKind::Unimplemented, ARC_FROM_NOC.into())),
        Endpoint::Eth(_) => Err((ErrorKind::Unimplemented, ETH_FROM_NOC.into())),
        Endpoint::None => Err((
            ErrorKind::Unmapped,
            "nothing bhemu models there (Ethernet, L2CPU, or off the grid)".into(),
        )),
    }
}

/// The write counterpart of [`endpoint_read`].
/// `next` is the first cycle no core has executed yet: `now + 1` in the NoC phase, `now` for
/// the host between cycles (it decides where a woken parked core resumes).
pub(super) fn endpoint_write(
    tiles: &mut [Tile],
    dram: &mut Dram,
    ep: Endpoint,
    addr: u64,
    data: &[u8],
    now: u64,
    next: u64,
) -> Result<(), (ErrorKind, String)> {
    match ep {
        Endpoint::Tile(i) => match tiles.get_mut(usize::from(i)) {
            Some(t) => t
                .noc_write_at(addr, data, now, next)
                .map_err(|m| (ErrorKind::Unimplemented, m)),
            None => Err((ErrorKind::Unmapped, "no such tile".into())),
        },
        Endpoint::Dram(ch) => dram
            .write(usize::from(ch), addr, data)
            .map_err(|e| (ErrorKind::AccessRule, e.to_string())),
        Endpoint::Pcie => Err((ErrorKind::Unimplemented, pcie_unmodelled(addr))),
        Endpoint::Arc => Err((ErrorKind::Unimplemented, ARC_FROM_NOC.into())),
        Endpoint::Eth(_) => Err((ErrorKind::Unimplemented, ETH_FROM_NOC.into())),
        Endpoint::None => Err((
            ErrorKind::Unmapped,
            "nothing bhemu models there (Ethernet, L2CPU, or off the grid)".into(),
        )),
    }
}

/// Why a NoC request from a core to the ARC tile fails: bhemu models the ARC tile as the host
/// sees it, not as a NoC target of kernels.
pub(super) const ARC_FROM_NOC: &str =
    "bhemu models the ARC tile for host accesses only, not NoC requests from cores";

/// Why a NoC request from a core to an Ethernet tile fails: bhemu models those tiles for the
/// host and the links only.
pub(super) const ETH_FROM_NOC: &str =
    "bhemu models Ethernet tiles for host accesses and links only, not NoC requests from cores";

pub(super) fn pcie_unmodelled(addr: u64) -> String {
    if addr >= NOC_HOST_WINDOW {
        "bhemu models no PCIe endpoint: accesses to host memory from the chip are not modelled"
            .into()
    } else {
        "bhemu does not model the PCIe tile's own memory".into()
    }
}

/// A tile's NIU registers from the host: 4-byte aligned words inside the two NIU windows
/// `0xFFB2_0000..0xFFB4_0000` (MemoryMap.md).
pub(super) fn niu_word(addr: u64, len: usize) -> Option<u32> {
    let a = u32::try_from(addr).ok()?;
    (len == 4 && a % 4 == 0 && decode_niu_address(a).is_some()).then_some(a)
}

impl NocEndpoints for Ends<'_> {
    fn read(&mut self, node: NodeId, addr: u64, buf: &mut [u8]) -> Result<(), NocError> {
        let ep = endpoint_at(self.endpoints, node);
        if ep == Endpoint::None {
            return Err(NocError::BadCoordinate {
                x: node.x,
                y: node.y,
            });
        }
        endpoint_read(self.tiles, self.dram, ep, addr, buf, self.now, self.now + 1)
            .map_err(|(_, r)| access(node, addr, buf.len(), r))
    }

    fn write(&mut self, node: NodeId, addr: u64, data: &[u8]) -> Result<(), NocError> {
        let ep = endpoint_at(self.endpoints, node);
        if ep == Endpoint::None {
            return Err(NocError::BadCoordinate {
                x: node.x,
                y: node.y,
            });
        }
        if let Endpoint::Tile(i) = ep {
            if let Some(d) = self.due.get_mut(usize::from(i)) {
                *d = 0;
                *self.earliest = 0;
            }
            *self.l1_written = true;
        }
        endpoint_write(
            self.tiles,
            self.dram,
            ep,
            addr,
            data,
            self.now,
            self.now + 1,
        )
        .map_err(|(_, r)| access(node, addr, data.len(), r))
    }

    fn atomic(&mut self, node: NodeId, addr: u64, op: &AtomicOp) -> Result<u32, NocError> {
        // Atomics.md: only Tensix (or Ethernet) L1; the NoC crate already refuses other kinds.
        let base = addr & !0xF;
        let mut line = [0u8; 16];
        self.read(node, base, &mut line)?;
        let r = op.apply(&mut line, ((addr >> 2) & 3) as usize)?;
        self.write(node, base, &line)?;
        Ok(r)
    }
}
