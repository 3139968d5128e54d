//! Intra-core events: `set_flag` / `wait_flag` on a `(src pipe, dst pipe, id)` triple, modelled
//! as a counter per triple and core.
//!
//! Sources: set-flag.md ("Signals the named event, making later `pto.wait_flag` operations on the
//! matching (SRC_PIPE, DST_PIPE, EVENT_ID) tuple eligible to unblock"), wait-flag.md ("The
//! destination pipeline stalls until the matching signal becomes visible"),
//! machine-model/ordering-and-synchronization.md ("An event is identified by a triple"). Each wait
//! consumes one signal ("a counter … until the count is non-zero, then decrements"); the
//! ping-pong example of vector/pipeline-sync.md (prime with set_flag, drain with wait_flag after
//! the loop) only balances under that reading.
use std::collections::BTreeMap;

use crate::pipes::Pipe;
use crate::profile::COUNTER_MAX;

/// A 4-bit counter and the line of the op that last raised it (for "unbalanced" reports).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counter {
    pub count: u8,
    pub last_set_line: usize,
}

impl Counter {
    /// Add one; `Err` with the count it already has if that would pass 15.
    pub fn raise(&mut self, line: usize) -> Result<(), u8> {
        if self.count >= COUNTER_MAX {
            return Err(self.count);
        }
        self.count += 1;
        self.last_set_line = line;
        Ok(())
    }

    /// Take one if there is one.
    pub fn take(&mut self) -> bool {
        if self.count == 0 {
            return false;
        }
        self.count -= 1;
        true
    }
}

/// The key of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventKey {
    pub src: Pipe,
    pub dst: Pipe,
    pub id: u8,
}

impl std::fmt::Display for EventKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {}, EVENT_ID{})", self.src, self.dst, self.id)
    }
}

/// The events of one core.
#[derive(Debug, Clone, Default)]
pub struct EventTable {
    counters: BTreeMap<EventKey, Counter>,
}

impl EventTable {
    /// `set_flag` fired: count one more. `Err` is the overflow sentence.
    pub fn set(&mut self, key: EventKey, line: usize) -> Result<(), String> {
        self.counters.entry(key).or_default().raise(line).map_err(|n| {
            format!("event {key} already has {n} pending signals; one more would overflow its 4-bit counter past {COUNTER_MAX}")
        })
    }

    /// `wait_flag` at the head of its pipe: consume one signal if there is one.
    pub fn try_wait(&mut self, key: EventKey) -> bool {
        self.counters.get_mut(&key).is_some_and(Counter::take)
    }

    pub fn count(&self, key: EventKey) -> u8 {
        self.counters.get(&key).map_or(0, |c| c.count)
    }

    /// Events still set, in key order.
    pub fn leftovers(&self) -> impl Iterator<Item = (EventKey, Counter)> + '_ {
        self.counters
            .iter()
            .filter(|(_, c)| c.count > 0)
            .map(|(k, c)| (*k, *c))
    }
}
