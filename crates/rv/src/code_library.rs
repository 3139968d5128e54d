//! Decoded code shared between harts.
//!
//! Why: every Tensix tile runs the same firmware and, after a launch, the same kernel, at the
//! same addresses. Each hart decoding its own copy (lazily, one instruction at a time, into a
//! window of its own) cost the 140-tile firmware boot a fifth of its host time — 700 windows,
//! 27 MB of fresh memory to fault in and clear, 100,000 decodes — and put 700 copies of the
//! same ops in the host's caches. A [`CodeLibrary`] keeps one decoded window per distinct
//! content: a hart whose bus can read a whole window's words ([`crate::Bus::fetch_block`])
//! adopts the library's copy when its memory holds exactly those words, and decodes them once
//! for everybody when no hart has yet.
//!
//! Results cannot change: a window is adopted only when its words equal the hart's memory
//! word for word, the bus marks the whole window as fetched code (so any later write to it
//! invalidates it, as it does a lazily decoded slot), and a hart never writes into a window it
//! shares (it gives the window up, or copies it, first: `crate::cache`). Decoding is pure
//! ([`crate::op::lower`]), so an op decoded by one hart is the op any other would decode from
//! the same word at the same address. Which hart decodes first, on which host thread, decides
//! nothing but who pays for it.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::op::{lower, Op};

/// Distinct contents kept per window span; the oldest goes first.
const PER_SPAN: usize = 8;
/// Decoded bytes kept in all; beyond it the library starts again empty (harts keep the windows
/// they hold).
const MAX_BYTES: usize = 64 << 20;

/// One decoded window: the ops and the words they were decoded from.
#[derive(Clone)]
pub(crate) struct Shared {
    pub ops: Arc<[Op]>,
    pub words: Arc<[u32]>,
}

#[derive(Default)]
struct Shelf {
    /// By (first address, words).
    spans: HashMap<(u32, usize), Vec<Shared>>,
    bytes: usize,
}

/// Decoded windows of code shared by the harts that hold the same words at the same addresses
/// (see the module documentation). One per chip; cheap to clone into each hart's
/// [`crate::HartConfig`] as an `Arc`.
#[derive(Default)]
pub struct CodeLibrary {
    shelf: Mutex<Shelf>,
}

impl std::fmt::Debug for CodeLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (spans, bytes) = match self.shelf.lock() {
            Ok(s) => (s.spans.len(), s.bytes),
            Err(_) => (0, 0),
        };
        f.debug_struct("CodeLibrary")
            .field("spans", &spans)
            .field("bytes", &bytes)
            .finish()
    }
}

impl CodeLibrary {
    pub fn new() -> Self {
        Self::default()
    }

    /// The decoded window of `words` at `base`: the library's copy if it holds these words,
    /// else decoded now (and kept for the next hart).
    pub(crate) fn window(&self, base: u32, words: &[u32]) -> Shared {
        let Ok(mut shelf) = self.shelf.lock() else {
            // A thread panicked while holding the lock (a bug elsewhere): decode privately.
            return decode(base, words);
        };
        let key = (base, words.len());
        if let Some(s) = shelf
            .spans
            .get(&key)
            .and_then(|list| list.iter().find(|s| *s.words == *words))
        {
            return s.clone();
        }
        let s = decode(base, words);
        let size = words.len() * (std::mem::size_of::<Op>() + 4);
        if shelf.bytes + size > MAX_BYTES {
            shelf.spans.clear();
            shelf.bytes = 0;
        }
        let list = shelf.spans.entry(key).or_default();
        let evicted = if list.len() >= PER_SPAN {
            list.remove(0);
            size
        } else {
            0
        };
        list.push(s.clone());
        shelf.bytes = shelf.bytes + size - evicted;
        s
    }

    /// Distinct windows held (for tests and statistics).
    pub fn windows(&self) -> usize {
        self.shelf
            .lock()
            .map(|s| s.spans.values().map(Vec::len).sum())
            .unwrap_or(0)
    }
}

fn decode(base: u32, words: &[u32]) -> Shared {
    let ops: Arc<[Op]> = words
        .iter()
        .enumerate()
        .map(|(i, &w)| lower(w, base.wrapping_add(4 * i as u32)))
        .collect();
    Shared {
        ops,
        words: Arc::from(words),
    }
}
