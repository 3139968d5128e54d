//! The chip's side of its Ethernet links: the sends its TX queues issued, and what arrives.
use super::*;

impl Chip {
    /// The chip's Ethernet tiles ([`crate::eth`]).
    pub fn eth(&self) -> &Ethernet {
        &self.eth
    }

    /// Brings the Ethernet tiles' cores to the chip's cycle (they run lazily,
    /// docs/multi-chip.md MC-13); an error names the chip and the channel's tile.
    pub fn advance_eth(&mut self) -> Result<(), ChipError> {
        let now = self.cycle;
        self.eth.advance(now).map_err(|(c, (kind, m))| {
            let (x, y) = crate::eth::channel_noc0(c);
            let mut e = ChipError::new(kind, format!("Ethernet channel {c}: {m}"))
                .at_cycle(now)
                .at_tile(x, y);
            e.loc.chip = self.id;
            e
        })
    }

    /// Takes the sends the chip's TX queues issued (oldest first; call after [`Chip::clock`],
    /// which brings the Ethernet cores to the chip's cycle).
    pub fn take_eth_sends(&mut self, out: &mut Vec<crate::eth::Send>) {
        self.eth.take_sends(out);
    }

    /// Applies what arrived over the link of Ethernet channel `channel`; an error names the chip
    /// and the channel's tile.
    pub fn deliver_eth(
        &mut self,
        channel: u8,
        payload: &crate::eth::Payload,
    ) -> Result<(), ChipError> {
        let now = self.cycle;
        self.eth
            .deliver(channel, payload, now)
            .map_err(|(kind, m)| {
                let (x, y) = crate::eth::channel_noc0(channel);
                let mut e = ChipError::new(kind, m).at_cycle(now).at_tile(x, y);
                e.loc.chip = self.id;
                e
            })
    }
}
