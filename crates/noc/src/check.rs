//! Which requests bhemu refuses at issue, and which tiles a broadcast reaches
//! (tt-isa-documentation `BlackholeA0/NoC/MemoryMap.md`, `Coordinates.md`).
use super::*;

/// Refuses requests that cannot be carried out (the checks [`Noc::mmio_write`] makes before
/// issuing); needs only the topology, so a tile's own NIU face ([`face::TileNoc`]) makes the
/// same ones.
pub(crate) fn check_request(topo: &Topology, req: &Request) -> Result<(), NocError> {
    let kind = req.kind()?;
    if req.ctrl & regs::ctrl::NOC_CMD_L1_ACC_AT_EN != 0 {
        // MemoryMap.md NOC_CTRL bit 31: broken in hardware, "should always be false".
        return Err(NocError::Unsupported {
            what: "NOC_CMD_L1_ACC_AT_EN (L1 accumulate on read/write)",
        });
    }
    let node = |hi: u32| topo.node(NodeId::from_xy_field(hi));
    // The node a request works on may be a disabled tile, which never answers (unanswered.rs).
    let reach = |hi: u32| topo.reach(NodeId::from_xy_field(hi));
    match kind {
        RequestKind::Read => {
            if req.broadcast() {
                // MemoryMap.md: broadcast "should always be false for read requests".
                return Err(NocError::BadRequest {
                    reason: "broadcast read",
                });
            }
            reach(req.targ_hi)?;
            node(req.ret_hi)?;
            check_len(req.length())?;
        }
        RequestKind::Atomic => {
            AtomicOp::decode(req.len_be as u32, req.at_data)?;
            if req.broadcast() {
                broadcast_receivers(topo, req, req.targ_hi)?;
            } else if reach(req.targ_hi)?
                .is_some_and(|s| !matches!(topo.nodes()[s].kind, NodeKind::Tensix { .. }))
            {
                // MemoryMap.md NOC_CTRL: atomics must target the L1 of a Tensix/Ethernet tile.
                return Err(NocError::BadRequest {
                    reason: "atomic to a node that is not a Tensix tile",
                });
            }
            if req.non_posted() {
                node(req.ret_hi)?;
            }
        }
        RequestKind::Write {
            inline,
            byte_enable,
        } => {
            let dest_hi = if inline { req.targ_hi } else { req.ret_hi };
            if req.broadcast() {
                broadcast_receivers(topo, req, dest_hi)?;
            } else {
                reach(dest_hi)?;
            }
            if req.non_posted() && !inline {
                node(req.targ_hi)?; // the acknowledgement goes there
            }
            if !inline && !byte_enable {
                check_len(req.length())?;
            }
        }
    }
    Ok(())
}

pub(crate) fn check_len(len: u64) -> Result<(), NocError> {
    if len > MAX_REQUEST_BYTES {
        return Err(NocError::Unsupported {
            what: "NoC request longer than 4 MiB (256 packets)",
        });
    }
    Ok(())
}

/// The receivers of a broadcast whose rectangle is in coordinate field `field` (MemoryMap.md
/// "NOC_TARG_ADDR and NOC_RET_ADDR"): EndX bits 0–5, EndY 6–11, StartX 12–17, StartY
/// 18–23. The corners are translated to raw coordinates of the NoC in use and the spans
/// taken there (wrapping when start > end); only enabled Tensix tiles receive broadcasts,
/// and the initiator only with `NOC_CMD_BRCST_SRC_INCLUDE`. On NoC 1 software must therefore
/// give start ≥ end in translated space (Coordinates.md). Slots come in slot order.
pub fn broadcast_receivers(
    topo: &Topology,
    req: &Request,
    field: u32,
) -> Result<Vec<usize>, NocError> {
    if req.ctrl & regs::ctrl::NOC_CMD_BRCST_PACKET == 0 {
        return Err(NocError::BadRequest {
            reason: "not a broadcast",
        });
    }
    let v = |shift: u32| ((field >> shift) & 0x3F) as u8;
    let (ex, ey, sx, sy) = (v(0), v(6), v(12), v(18));
    if [ex, sx].iter().any(|&x| x >= coord::NOC_GRID_X)
        || [ey, sy].iter().any(|&y| y >= coord::NOC_GRID_Y)
    {
        return Err(NocError::BadBroadcast {
            field,
            reason: "corner outside the 17 x 12 Tensix/router grid",
        });
    }
    let (sx, sy) = coord::raw_on((sx, sy), req.noc);
    let (ex, ey) = coord::raw_on((ex, ey), req.noc);
    let span = |v: u8, s: u8, e: u8| {
        if s <= e {
            s <= v && v <= e
        } else {
            v <= e || s <= v
        }
    };
    let mut out = Vec::new();
    for (slot, n) in topo.nodes().iter().enumerate() {
        if !matches!(n.kind, NodeKind::Tensix { .. }) {
            continue;
        }
        if n.id == req.origin && !req.src_include() {
            continue;
        }
        let (x, y) = n.raw_on(req.noc);
        if span(x, sx, ex) && span(y, sy, ey) {
            out.push(slot);
        }
    }
    Ok(out)
}
