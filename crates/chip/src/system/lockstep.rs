//! Chips of one system clocked together (docs/multi-chip.md MC-9, MC-11): each chip steps on
//! its own, on host threads when there are several, as far as the links allow.
//!
//! What one chip does can reach another only over a link, and a link takes
//! [`LINK_LATENCY`] cycles. So while the slowest chip is at cycle c, no send it has yet to
//! issue can arrive anywhere before c + [`LINK_LATENCY`]: every chip may run up to that
//! horizon without looking at the others — the link's latency is each chip's quantum, as the
//! NoC's hop latency is each tile's (docs/noc-lookahead.md). A chip also stops at the cycle a
//! send already in flight is due at it, takes the send, and goes on. Sends therefore arrive at
//! exactly their due cycle, and each chip's run is the same whatever the thread count and
//! however the caller splits the time into calls.
use crate::chip::Chip;
use crate::error::ChipError;
use crate::eth::{Payload, Send as EthSend};

use super::{Wires, LINK_LATENCY};

/// A chip as the lockstep sees it: a [`Chip`] of this process, or a chip behind its PCIe face
/// (which may stop short of where it was asked to go, to wait for its host).
pub trait Stepped: std::marker::Send {
    type Error: std::marker::Send;
    fn cycle(&self) -> u64;
    /// Runs towards cycle `to` (never past it); may stop short, as long as it returns.
    fn run_to(&mut self, to: u64) -> Result<(), Self::Error>;
    /// Moves the sends the chip's TX queues issued into `out`, oldest first.
    fn take_sends(&mut self, out: &mut Vec<EthSend>);
    /// Applies a send that arrived over the link of Ethernet channel `channel`.
    fn deliver(&mut self, channel: u8, payload: &Payload) -> Result<(), Self::Error>;
    /// A link fault (a send from a channel without a link) as this chip's error.
    fn link_error(e: ChipError) -> Self::Error;
}

impl Stepped for Chip {
    type Error = ChipError;
    fn cycle(&self) -> u64 {
        Chip::cycle(self)
    }
    fn run_to(&mut self, to: u64) -> Result<(), ChipError> {
        self.clock(to.saturating_sub(Chip::cycle(self)))
    }
    fn take_sends(&mut self, out: &mut Vec<EthSend>) {
        self.take_eth_sends(out);
    }
    fn deliver(&mut self, channel: u8, payload: &Payload) -> Result<(), ChipError> {
        self.deliver_eth(channel, payload)
    }
    fn link_error(e: ChipError) -> ChipError {
        e
    }
}

/// How a system's chips share `threads` host threads: (threads the chips are stepped on, at
/// most one per chip; threads each chip's tiles may use, an equal share and at least one).
pub fn share_threads(threads: usize, chips: usize) -> (usize, usize) {
    let threads = threads.max(1);
    let chips = chips.max(1);
    (threads.min(chips), (threads / chips).max(1))
}

/// A step worth a host thread of its own: at least this many cycles for at least two chips
/// (a thread costs tens of microseconds to start and join; a quiet chip's cycles cost
/// nanoseconds).
pub const PARALLEL_MIN_CYCLES: u64 = 256;

/// Runs every chip `i` towards cycle `end[i]`, on up to `threads` host threads, carrying the
/// links' sends: posted after each step, delivered at their due cycle. Returns when no chip
/// can move: all at their end, or those short of it stopped on their own (a chip behind a
/// PCIe face waiting for its host). The first error, in chip order, stops the run; a chip
/// that failed stops at the cycle it failed in, the others at the end of that step.
pub fn run<M: Stepped>(
    wires: &mut Wires,
    chips: &mut [M],
    end: &[u64],
    threads: usize,
) -> Result<(), M::Error> {
    let mut targets = vec![0u64; chips.len()];
    loop {
        for (i, c) in chips.iter_mut().enumerate() {
            let now = c.cycle();
            wires.deliver(i as u32, now, |ch, p| c.deliver(ch, p))?;
        }
        let slowest = chips.iter().map(Stepped::cycle).min().unwrap_or(0);
        let horizon = slowest.saturating_add(LINK_LATENCY);
        for (i, c) in chips.iter().enumerate() {
            let due = wires.next_due(i as u32).unwrap_or(u64::MAX);
            targets[i] = end[i].min(horizon).min(due).max(c.cycle());
        }
        let before: Vec<u64> = chips.iter().map(Stepped::cycle).collect();
        step(chips, &targets, threads)?;
        for (i, c) in chips.iter_mut().enumerate() {
            wires
                .post(i as u32, |out| c.take_sends(out))
                .map_err(M::link_error)?;
        }
        if chips.iter().zip(&before).all(|(c, b)| c.cycle() == *b) {
            return Ok(());
        }
    }
}

/// One step: chip `i` runs towards `targets[i]`; in parallel when that is worth it.
fn step<M: Stepped>(chips: &mut [M], targets: &[u64], threads: usize) -> Result<(), M::Error> {
    let long = chips
        .iter()
        .zip(targets)
        .filter(|(c, t)| **t >= c.cycle() + PARALLEL_MIN_CYCLES)
        .count();
    let width = threads.min(chips.len());
    if width < 2 || long < 2 {
        for (c, t) in chips.iter_mut().zip(targets) {
            if *t > c.cycle() {
                c.run_to(*t)?;
            }
        }
        return Ok(());
    }
    // Chip i on thread i % width; each thread returns its chips' first error.
    let mut results: Vec<(usize, Result<(), M::Error>)> = Vec::new();
    std::thread::scope(|s| {
        let mut groups: Vec<Vec<(usize, &mut M)>> = (0..width).map(|_| Vec::new()).collect();
        for (i, c) in chips.iter_mut().enumerate() {
            groups[i % width].push((i, c));
        }
        let handles: Vec<_> = groups
            .into_iter()
            .map(|g| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for (i, c) in g {
                        let t = targets[i];
                        if t > c.cycle() {
                            if let Err(e) = c.run_to(t) {
                                out.push((i, Err(e)));
                            }
                        }
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            match h.join() {
                Ok(r) => results.extend(r),
                // A chip's step panicked: let it unwind as it would have on this thread.
                Err(p) => std::panic::resume_unwind(p),
            }
        }
    });
    results.sort_by_key(|(i, _)| *i);
    match results.into_iter().next() {
        Some((_, e)) => e,
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
