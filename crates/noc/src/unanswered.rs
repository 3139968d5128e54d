//! Requests to a disabled Tensix tile, and the answers that never come.
//!
//! A Blackhole chip is sold with some Tensix columns harvested: a p100 keeps 120 of the 140
//! tiles (docs/blackhole-facts.md §4), and tt-umd reads which columns from the chip's harvesting
//! mask and moves them to the end of the translated grid (tt-umd
//! `device/coordinates/blackhole_coordinate_manager.cpp`), so their translated coordinates still
//! name a router of the NoC. A harvested tile is fenced off: its router forwards traffic but
//! nothing behind its NIU takes a request. bhemu models every Tensix coordinate of the grid
//! (translated x 1–7 and 10–16, y 2–11) whose tile is not enabled in the chip's tile set — a
//! harvested column, or a tile left out of `--tiles` / a program's `tiles` — the same way
//! ([`crate::Topology::reach`]):
//! - a request to it is issued and sent like any other (no error; the initiator's "started" and
//!   "sent" counters move, `NOC_CMD_CTRL` returns to 0);
//! - its data is dropped, and no write acknowledgement, read response or atomic response ever
//!   comes back: `NIU_MST_WR_ACK_RECEIVED` / `NIU_MST_RD_RESP_RECEIVED` /
//!   `NIU_MST_ATOMIC_RESP_RECEIVED` stay behind their "sent" counters and
//!   `NIU_MST_REQS_OUTSTANDING_ID` never returns to zero, so a firmware barrier polls forever —
//!   the hang the report of `bhemu_chip::hang` then explains with the counts kept here;
//! - a posted request is simply lost.
//!
//! Coordinates outside the grid, or in it but holding no Tensix, DRAM or PCIe node (e.g. x 8),
//! stay a `BadCoordinate` error at issue. A broadcast never reaches a disabled tile (only
//! enabled Tensix tiles receive broadcasts). Only the node a request works on may be disabled:
//! a request whose answer is addressed to a disabled tile (a read's or atomic's `NOC_RET_ADDR`,
//! a write's acknowledgement coordinates in `NOC_TARG_ADDR`) is refused at issue, since bhemu
//! does not model where such an answer would go.
use crate::coord::NodeId;
use crate::niu::Niu;

/// Requests one NIU sent to one disabled tile that expect an answer (counted per packet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unanswered {
    /// The disabled tile (translated coordinates).
    pub dest: NodeId,
    /// Non-posted write packets: acknowledgements that never come.
    pub writes: u32,
    /// Read packets: responses that never come.
    pub reads: u32,
    /// Non-posted atomics: responses that never come.
    pub atomics: u32,
}

/// What an unanswered request waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaited {
    WriteAck,
    ReadResponse,
    AtomicResponse,
}

impl Niu {
    /// Requests this NIU sent to disabled tiles, per tile, in the order first sent.
    pub fn unanswered(&self) -> &[Unanswered] {
        &self.unanswered
    }

    /// Records `n` packets sent to the disabled tile `dest` that wait for `what`.
    pub(crate) fn lose(&mut self, dest: NodeId, what: Awaited, n: u32) {
        let i = match self.unanswered.iter().position(|u| u.dest == dest) {
            Some(i) => i,
            None => {
                self.unanswered.push(Unanswered {
                    dest,
                    writes: 0,
                    reads: 0,
                    atomics: 0,
                });
                self.unanswered.len() - 1
            }
        };
        let u = &mut self.unanswered[i];
        let c = match what {
            Awaited::WriteAck => &mut u.writes,
            Awaited::ReadResponse => &mut u.reads,
            Awaited::AtomicResponse => &mut u.atomics,
        };
        *c = c.saturating_add(n);
    }
}

#[cfg(test)]
mod tests {
    use crate::regs::{self, counter as c, ctrl};
    use crate::{Noc, NocEndpoints, NocError, NocIndex, NodeId, Timing, Topology};

    /// Flat memory that fails every access to a node other than `me`: a dropped request
    /// must never reach it.
    struct Mem {
        me: NodeId,
        l1: Vec<u8>,
    }
    impl NocEndpoints for Mem {
        fn read(&mut self, n: NodeId, a: u64, buf: &mut [u8]) -> Result<(), NocError> {
            assert_eq!(n, self.me, "read reached {n}");
            buf.copy_from_slice(&self.l1[a as usize..a as usize + buf.len()]);
            Ok(())
        }
        fn write(&mut self, n: NodeId, a: u64, data: &[u8]) -> Result<(), NocError> {
            assert_eq!(n, self.me, "write reached {n}");
            self.l1[a as usize..a as usize + data.len()].copy_from_slice(data);
            Ok(())
        }
    }

    const ME: NodeId = NodeId::new(1, 2);
    const DEAD: NodeId = NodeId::new(5, 7);
    const N0: NocIndex = NocIndex::Noc0;

    fn one_tile(timing: Timing) -> (Noc, Mem) {
        let topo = Topology::blackhole_with_tensix([ME]).unwrap();
        let noc = Noc::new(topo, timing);
        let mem = Mem {
            me: ME,
            l1: vec![0; 1 << 16],
        };
        (noc, mem)
    }

    /// Issues through command buffer 0 of NIU0: `NOC_CTRL` = `ctrl_v`, target `targ` / return
    /// `ret` coordinates, 16 bytes (`ncrisc_noc_fast_write` / `_read` register order).
    fn issue(noc: &mut Noc, ctrl_v: u32, targ: NodeId, ret: NodeId) -> Result<(), NocError> {
        let w = |noc: &mut Noc, r: u32, v: u32| noc.mmio_write(ME, N0, r, v);
        w(noc, regs::NOC_CTRL, ctrl_v)?;
        w(noc, regs::NOC_TARG_ADDR_LO, 0x100)?;
        w(noc, regs::NOC_TARG_ADDR_HI, targ.xy_field())?;
        w(noc, regs::NOC_RET_ADDR_LO, 0x200)?;
        w(noc, regs::NOC_RET_ADDR_HI, ret.xy_field())?;
        w(noc, regs::NOC_AT_LEN_BE, 16)?;
        w(noc, regs::NOC_CMD_CTRL, 1)
    }

    /// A non-posted write to a disabled tile is sent without error, but no acknowledgement
    /// ever comes: `NIU_MST_WR_ACK_RECEIVED` stays behind `NIU_MST_NONPOSTED_WR_REQ_SENT`
    /// however long the NoC runs, and the NIU records where the writes went.
    #[test]
    fn write_to_a_disabled_tile_gets_no_ack_and_no_error() {
        for timing in [Timing::Functional, Timing::BLACKHOLE] {
            let (mut noc, mut mem) = one_tile(timing);
            let np_write = ctrl::NOC_CMD_WR | ctrl::NOC_CMD_RESP_MARKED;
            for cycle in 0..3 {
                issue(&mut noc, np_write, ME, DEAD).unwrap();
                assert!(noc.tick(cycle, &mut mem).is_empty(), "no fault");
                assert_eq!(noc.mmio_read(ME, N0, regs::NOC_CMD_CTRL), Ok(0));
            }
            for cycle in 3..1000 {
                assert!(noc.tick(cycle, &mut mem).is_empty());
            }
            let niu = noc.niu(ME, N0).unwrap();
            assert_eq!(niu.counter(c::NIU_MST_NONPOSTED_WR_REQ_SENT), 3);
            assert_eq!(niu.counter(c::NIU_MST_WR_ACK_RECEIVED), 0);
            assert_eq!(niu.counter(c::niu_mst_reqs_outstanding_id(0)), 3);
            assert_eq!(
                niu.unanswered(),
                &[super::Unanswered {
                    dest: DEAD,
                    writes: 3,
                    reads: 0,
                    atomics: 0
                }]
            );
            assert!(noc.idle(), "nothing left in flight: the packets are gone");
        }
    }

    /// A read of a disabled tile never gets its response; a posted write to one is lost
    /// without a record (nothing waits for it).
    #[test]
    fn read_of_a_disabled_tile_gets_no_response() {
        let (mut noc, mut mem) = one_tile(Timing::Functional);
        issue(&mut noc, ctrl::NOC_CMD_RD, DEAD, ME).unwrap();
        assert!(noc.tick(0, &mut mem).is_empty());
        issue(&mut noc, ctrl::NOC_CMD_WR, ME, DEAD).unwrap();
        assert!(noc.tick(1, &mut mem).is_empty());
        let niu = noc.niu(ME, N0).unwrap();
        assert_eq!(niu.counter(c::NIU_MST_RD_REQ_SENT), 1);
        assert_eq!(niu.counter(c::NIU_MST_RD_RESP_RECEIVED), 0);
        assert_eq!(niu.counter(c::NIU_MST_POSTED_WR_REQ_SENT), 1);
        assert_eq!(niu.unanswered().len(), 1);
        assert_eq!(
            (niu.unanswered()[0].reads, niu.unanswered()[0].writes),
            (1, 0)
        );
    }

    /// A coordinate that names no node of the grid (x 8 holds no Tensix tile; y 40 is off the
    /// grid) is still refused at issue, and nothing is recorded.
    #[test]
    fn write_to_an_off_grid_coordinate_is_still_an_error() {
        let (mut noc, _) = one_tile(Timing::Functional);
        let np_write = ctrl::NOC_CMD_WR | ctrl::NOC_CMD_RESP_MARKED;
        for (x, y) in [(8, 5), (3, 40)] {
            assert_eq!(
                issue(&mut noc, np_write, ME, NodeId::new(x, y)),
                Err(NocError::BadCoordinate { x, y })
            );
        }
        let niu = noc.niu(ME, N0).unwrap();
        assert_eq!(niu.counter(c::NIU_MST_NONPOSTED_WR_REQ_SENT), 0);
        assert!(niu.unanswered().is_empty());
    }
}
