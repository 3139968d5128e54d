//! One tile's own face of the NoC: its two NIUs, as its cores see them.
//!
//! A core reaches the NoC only through the NIU register windows of its own tile
//! (`0xFFB2_0000..0xFFB4_0000`, MemoryMap.md). Reads and writes there touch that tile's two
//! [`Niu`]s and nothing else, except that a write of 1 to `NOC_CMD_CTRL` issues a request.
//! [`TileNoc`] lends a tile exactly that: its NIU pair, the (read-only) topology for the
//! checks made at issue, and — per write — the tile's own outbox, where issued requests wait
//! in issue order. Because no state is shared, tiles can be stepped on different host threads
//! in the same cycle; the chip then hands every outbox to [`crate::Noc::submit`] in tile order,
//! which rebuilds the single issue order the one-thread loop produces (docs/noc-lookahead.md
//! clause 4).
use crate::coord::{NodeId, Topology};
use crate::niu::{Niu, NiuWrite, Request};
use crate::{check_request, decode_niu_address, NocError};

/// A tile's two NIUs (NoC 0, NoC 1), borrowed from the [`crate::Noc`] for one step.
pub struct TileNoc<'a> {
    topo: &'a Topology,
    nius: &'a mut [Niu; 2],
    node: NodeId,
}

impl<'a> TileNoc<'a> {
    pub(crate) fn new(topo: &'a Topology, nius: &'a mut [Niu; 2], node: NodeId) -> Self {
        TileNoc { topo, nius, node }
    }

    /// The tile this face belongs to.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// A core of this tile reads tile address `addr` in `0xFFB2_0000..0xFFB4_0000`
    /// (same result as [`crate::Noc::tile_mmio_read`]).
    pub fn tile_mmio_read(&mut self, addr: u32) -> Result<u32, NocError> {
        let (noc, off) = decode_niu_address(addr).ok_or(NocError::BadRegister {
            noc: 0,
            offset: addr,
            write: false,
            reason: "address outside both NIU windows",
        })?;
        self.nius[noc.index()].mmio_read(off)
    }

    /// A core of this tile writes tile address `addr`; a request it issues is checked as
    /// [`crate::Noc::mmio_write`] checks it and appended to `outbox` (same effect on the NIU).
    pub fn tile_mmio_write(
        &mut self,
        addr: u32,
        value: u32,
        outbox: &mut Vec<Request>,
    ) -> Result<(), NocError> {
        let (noc, off) = decode_niu_address(addr).ok_or(NocError::BadRegister {
            noc: 0,
            offset: addr,
            write: true,
            reason: "address outside both NIU windows",
        })?;
        let niu = &mut self.nius[noc.index()];
        match niu.mmio_write(off, value)? {
            NiuWrite::Done => Ok(()),
            NiuWrite::Issue { cmd_buf } => {
                let req = niu.snapshot(cmd_buf).ok_or(NocError::BadRequest {
                    reason: "no such command buffer",
                })?;
                check_request(self.topo, &req)?;
                niu.begin(&req);
                outbox.push(req);
                Ok(())
            }
        }
    }
}
