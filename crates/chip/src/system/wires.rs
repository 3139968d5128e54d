//! The links of a system in flight (docs/multi-chip.md MC-6): what each chip's TX queues sent,
//! on its way to the peer, and when it arrives.
//!
//! A send issued at cycle s by one chip arrives at the peer at cycle s + [`LINK_LATENCY`],
//! before the peer runs that cycle: whoever clocks the chips posts each chip's sends after its
//! step and delivers what is due, stepping no chip past a due arrival
//! ([`super::lockstep`]). Sends due at one chip in the same cycle arrive in a fixed order —
//! by sending chip, then in the order each chip issued them — whichever steps the chips were
//! run in.
use crate::error::{ChipError, ErrorKind};
use crate::eth::{Payload, Send};

use super::{Port, SystemKind};

/// Cycles between a send leaving one chip and arriving at its peer: bhemu's figure for one
/// Ethernet hop, about 0.74 µs at the 1.35 GHz AICLK.
pub const LINK_LATENCY: u64 = 1000;

struct Flight {
    due: u64,
    from: u32,
    /// Posting order among the sends of `from`.
    seq: u64,
    to: Port,
    payload: Payload,
}

/// Sends on their way between the chips of one system.
pub struct Wires {
    kind: SystemKind,
    flights: Vec<Flight>,
    posted: u64,
}

impl Wires {
    pub fn new(kind: SystemKind) -> Wires {
        Wires {
            kind,
            flights: Vec::new(),
            posted: 0,
        }
    }

    /// Puts the sends of chip `chip` (drained from `sends`) on their links, keeping only those
    /// bound for a chip `mine` accepts (a process that runs some of the system's chips keeps
    /// what is on its way to them).
    pub fn post_sends(
        &mut self,
        chip: u32,
        sends: &mut Vec<Send>,
        mine: impl Fn(u32) -> bool,
    ) -> Result<(), ChipError> {
        for s in sends.drain(..) {
            let from = Port {
                chip,
                channel: s.channel,
            };
            let to = peer_of(self.kind, from)?;
            if !mine(to.chip) {
                continue;
            }
            self.posted += 1;
            self.flights.push(Flight {
                due: s.cycle + LINK_LATENCY,
                from: chip,
                seq: self.posted,
                to,
                payload: s.payload,
            });
        }
        Ok(())
    }

    /// Hands every send due at chip `chip`, now at cycle `now`, to `deliver` (channel, payload):
    /// earliest due first, then by sending chip, then in the order that chip issued them.
    pub fn deliver<E>(
        &mut self,
        chip: u32,
        now: u64,
        mut deliver: impl FnMut(u8, &Payload) -> Result<(), E>,
    ) -> Result<(), E> {
        let due = |f: &Flight| f.to.chip == chip && now >= f.due;
        if !self.flights.iter().any(due) {
            return Ok(());
        }
        let (mut now_due, later): (Vec<Flight>, Vec<Flight>) =
            std::mem::take(&mut self.flights).into_iter().partition(due);
        self.flights = later;
        now_due.sort_by_key(|f| (f.due, f.from, f.seq));
        let mut rest = now_due.into_iter();
        for f in rest.by_ref() {
            if let Err(e) = deliver(f.to.channel, &f.payload) {
                // What was not delivered stays on its way.
                self.flights.extend(rest);
                return Err(e);
            }
        }
        Ok(())
    }

    /// The earliest cycle a send in flight is due at chip `chip`.
    pub fn next_due(&self, chip: u32) -> Option<u64> {
        self.flights
            .iter()
            .filter(|f| f.to.chip == chip)
            .map(|f| f.due)
            .min()
    }

    /// Sends still on their way.
    pub fn in_flight(&self) -> usize {
        self.flights.len()
    }
}

/// The port at the other end of `from`'s link. A TX queue refuses a command on an unlinked
/// channel, so a miss here means the chip was built for another system.
fn peer_of(kind: SystemKind, from: Port) -> Result<Port, ChipError> {
    kind.links()
        .iter()
        .find_map(|l| match (l.a == from, l.b == from) {
            (true, _) => Some(l.b),
            (_, true) => Some(l.a),
            _ => None,
        })
        .ok_or_else(|| {
            let mut e = ChipError::new(
                ErrorKind::InvalidInput,
                format!(
                    "a send left Ethernet channel {} of chip {}, which has no link in a {}",
                    from.channel,
                    from.chip,
                    kind.name()
                ),
            );
            e.loc.chip = from.chip;
            e
        })
}
