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
//!
//! The chips need not all live in one process ([`run_shared`], MC-12): after each step every
//! process tells the others, through an [`Exchange`], the least cycle of its chips, whether
//! they moved, and what they sent; each keeps the sends bound for its own chips. A process
//! that runs every chip exchanges with itself ([`Alone`]): [`run`] is that case, so one
//! process and several compute the same.
use crate::chip::Chip;
use crate::error::{ChipError, ErrorKind};
use crate::eth::{Payload, Send as EthSend};

use super::{Wires, LINK_LATENCY};

/// A chip as the lockstep sees it: a [`Chip`] of this process, or a chip behind its PCIe face
/// (which may stop short of where it was asked to go, to wait for its host).
pub trait Stepped: std::marker::Send {
    type Error: std::marker::Send + std::fmt::Display;
    fn cycle(&self) -> u64;
    /// Runs towards cycle `to` (never past it); may stop short, as long as it returns.
    fn run_to(&mut self, to: u64) -> Result<(), Self::Error>;
    /// Moves the sends the chip's TX queues issued into `out`, oldest first.
    fn take_sends(&mut self, out: &mut Vec<EthSend>);
    /// Applies a send that arrived over the link of Ethernet channel `channel`.
    fn deliver(&mut self, channel: u8, payload: &Payload) -> Result<(), Self::Error>;
    /// A link fault (a send from a channel without a link), or a failure elsewhere in the
    /// system, as this chip's error.
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

/// What one process of a system tells the others after each step (MC-12).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The least cycle of the chips it runs (`u64::MAX` for none).
    pub least: u64,
    /// Whether any of its chips moved in the step.
    pub moved: bool,
    /// The sends its chips issued in the step: (sending chip, send), oldest first per chip.
    pub sends: Vec<(u32, EthSend)>,
    /// One of its chips failed: the error's text.
    pub failed: Option<String>,
}

/// How the processes running a system's chips share their [`Report`]s.
pub trait Exchange {
    /// Every process's report, this one's included, in process order (a collective: every
    /// process calls it once per step).
    fn exchange(&mut self, mine: Report) -> Result<Vec<Report>, String>;
}

/// A process that runs every chip of its system.
pub struct Alone;

impl Exchange for Alone {
    fn exchange(&mut self, mine: Report) -> Result<Vec<Report>, String> {
        Ok(vec![mine])
    }
}

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
    let ids: Vec<u32> = (0..chips.len() as u32).collect();
    run_shared(wires, chips, &ids, end, threads, &mut Alone)
}

/// [`run`] for the chips `ids` of a system whose other chips run in other processes, reached
/// through `x`. Every process must call it with the same system and its own chips; a failure
/// in one process ends the run in all of them (the others report it as a
/// [`ErrorKind::System`] error naming the process).
pub fn run_shared<M: Stepped, X: Exchange>(
    wires: &mut Wires,
    chips: &mut [M],
    ids: &[u32],
    end: &[u64],
    threads: usize,
    x: &mut X,
) -> Result<(), M::Error> {
    let fail = |m: String| M::link_error(ChipError::new(ErrorKind::System, m));
    if ids.len() != chips.len() || end.len() != chips.len() {
        return Err(fail(format!(
            "lockstep: {} chips with {} ids and {} end cycles",
            chips.len(),
            ids.len(),
            end.len()
        )));
    }
    let least = |chips: &[M]| chips.iter().map(Stepped::cycle).min().unwrap_or(u64::MAX);
    let first = Report {
        least: least(chips),
        moved: true,
        ..Report::default()
    };
    let mut global = x.exchange(first).map_err(fail)?;
    let mut targets = vec![0u64; chips.len()];
    let mut sends = Vec::new();
    loop {
        let horizon = global
            .iter()
            .map(|r| r.least)
            .min()
            .unwrap_or(u64::MAX)
            .saturating_add(LINK_LATENCY);
        let mut mine = Report::default();
        let stepped = (|| {
            for (k, c) in chips.iter_mut().enumerate() {
                let now = c.cycle();
                wires.deliver(ids[k], now, |ch, p| c.deliver(ch, p))?;
            }
            for (k, c) in chips.iter().enumerate() {
                let due = wires.next_due(ids[k]).unwrap_or(u64::MAX);
                targets[k] = end[k].min(horizon).min(due).max(c.cycle());
            }
            let before: Vec<u64> = chips.iter().map(Stepped::cycle).collect();
            let r = step(chips, &targets, threads);
            mine.moved = chips.iter().zip(&before).any(|(c, b)| c.cycle() != *b);
            r
        })();
        for (k, c) in chips.iter_mut().enumerate() {
            c.take_sends(&mut sends);
            mine.sends.extend(sends.drain(..).map(|s| (ids[k], s)));
        }
        mine.least = least(chips);
        mine.failed = stepped.as_ref().err().map(ToString::to_string);
        global = x.exchange(mine).map_err(fail)?;
        stepped?;
        if let Some((p, m)) = global
            .iter()
            .enumerate()
            .find_map(|(p, r)| r.failed.as_ref().map(|m| (p, m)))
        {
            return Err(fail(format!("process {p} of the system failed: {m}")));
        }
        for r in &mut global {
            for (chip, s) in r.sends.drain(..) {
                sends.push(s);
                wires
                    .post_sends(chip, &mut sends, |to| ids.contains(&to))
                    .map_err(M::link_error)?;
            }
        }
        if !global.iter().any(|r| r.moved) {
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
