//! The links of a system in flight (docs/multi-chip.md MC-6): what each chip's TX queues sent,
//! on its way to the peer, and when it arrives.
//!
//! A send issued at cycle s by one chip arrives at the peer once the peer has reached cycle
//! s + [`LINK_LATENCY`]: whoever clocks the chips posts each chip's sends after its step and
//! delivers what is due. Nothing on a chip reads an Ethernet tile's L1 but the host and the
//! links, so as long as delivery happens between steps, the order the chips are stepped in
//! changes nothing.
use crate::chip::Chip;
use crate::error::{ChipError, ErrorKind};
use crate::eth::{Payload, Send};

use super::{Port, SystemKind};

/// Cycles between a send leaving one chip and arriving at its peer: bhemu's figure for one
/// Ethernet hop, about 0.74 µs at the 1.35 GHz AICLK.
pub const LINK_LATENCY: u64 = 1000;

struct Flight {
    due: u64,
    to: Port,
    payload: Payload,
}

/// Sends on their way between the chips of one system.
pub struct Wires {
    kind: SystemKind,
    flights: Vec<Flight>,
    sends: Vec<Send>,
}

impl Wires {
    pub fn new(kind: SystemKind) -> Wires {
        Wires {
            kind,
            flights: Vec::new(),
            sends: Vec::new(),
        }
    }

    /// Puts the sends of chip `chip` (taken with `take`) on their links.
    pub fn post(&mut self, chip: u32, take: impl FnOnce(&mut Vec<Send>)) -> Result<(), ChipError> {
        take(&mut self.sends);
        for s in self.sends.drain(..) {
            let from = Port {
                chip,
                channel: s.channel,
            };
            let to = peer_of(self.kind, from)?;
            self.flights.push(Flight {
                due: s.cycle + LINK_LATENCY,
                to,
                payload: s.payload,
            });
        }
        Ok(())
    }

    /// Hands every send due at chip `chip`, now at cycle `now`, to `deliver` (channel, payload),
    /// in the order they were posted.
    pub fn deliver<E>(
        &mut self,
        chip: u32,
        now: u64,
        mut deliver: impl FnMut(u8, &Payload) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut k = 0;
        while k < self.flights.len() {
            let f = &self.flights[k];
            if f.to.chip == chip && now >= f.due {
                let f = self.flights.remove(k);
                deliver(f.to.channel, &f.payload)?;
            } else {
                k += 1;
            }
        }
        Ok(())
    }

    /// Sends still on their way.
    pub fn in_flight(&self) -> usize {
        self.flights.len()
    }

    /// One step of chips that all live here: every chip's sends posted, then what is due
    /// delivered.
    pub fn carry(&mut self, chips: &mut [Chip]) -> Result<(), ChipError> {
        for (i, c) in chips.iter_mut().enumerate() {
            self.post(i as u32, |out| c.take_eth_sends(out))?;
        }
        for (i, c) in chips.iter_mut().enumerate() {
            let now = c.cycle();
            self.deliver(i as u32, now, |ch, p| c.deliver_eth(ch, p))?;
        }
        Ok(())
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
