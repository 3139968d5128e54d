//! Buffer tokens: `get_buf` / `rls_buf`.
//!
//! Sources: get-buf.md and rls-buf.md (Mechanism, Constraints, Exceptions),
//! vector/pipeline-sync.md Examples 2 and 3b.
//!
//! Model: each core has 32 buffer ids (get-buf.md table: "32 (global pool)"). A buffer is free or
//! held by one pipe. Acquires are granted in program order: "Buffer IDs use program order … to
//! implicitly resolve RAW and WAR dependencies" (get-buf.md) and "if MTE2 releases buf_A and
//! Vector later acquires buf_A, the hardware ensures the acquire cannot proceed until the release
//! completes" (vector/pipeline-sync.md, Example 2). So the scalar unit takes a ticket for each
//! `get_buf` when it issues it, and the `get_buf` completes at the head of its pipe only when the
//! buffer is free and its ticket is the oldest. The implicit `set_flag`s of the docs are exactly
//! this hand-over; they use hardware-internal event ids that no trace can name, so they are not
//! modelled as separate events.
use std::collections::{BTreeSet, VecDeque};

use crate::pipes::Pipe;
use crate::profile::BUFFER_IDS;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ticket {
    pipe: Pipe,
    idx: usize,
    line: usize,
}

#[derive(Debug, Clone, Default)]
struct Buffer {
    holder: Option<Ticket>,
    waiting: VecDeque<Ticket>,
}

/// The buffer tokens of one core.
#[derive(Debug, Clone)]
pub struct BufferTable {
    bufs: Vec<Buffer>,
}

impl Default for BufferTable {
    fn default() -> Self {
        BufferTable {
            bufs: vec![Buffer::default(); BUFFER_IDS as usize],
        }
    }
}

impl BufferTable {
    fn buf(&mut self, id: u8) -> Option<&mut Buffer> {
        self.bufs.get_mut(usize::from(id))
    }

    /// The scalar unit issued `get_buf` number `idx` of the program: take a ticket.
    pub fn enqueue(&mut self, id: u8, pipe: Pipe, idx: usize, line: usize) {
        if let Some(b) = self.buf(id) {
            b.waiting.push_back(Ticket { pipe, idx, line });
        }
    }

    /// `get_buf` number `idx` is at the head of its pipe: acquire, or say what it waits on.
    pub fn try_acquire(&mut self, id: u8, idx: usize) -> Result<(), String> {
        let Some(b) = self.buf(id) else {
            return Err(format!("buffer {id} does not exist"));
        };
        if let Some(h) = b.holder {
            return Err(format!(
                "buffer {id}, held by {} since get_buf at line {}",
                h.pipe, h.line
            ));
        }
        match b.waiting.front() {
            Some(t) if t.idx == idx => {
                b.holder = Some(*t);
                b.waiting.pop_front();
                Ok(())
            }
            Some(t) => Err(format!(
                "buffer {id}: the get_buf by {} at line {} was issued earlier and is served first",
                t.pipe, t.line
            )),
            None => Err(format!("buffer {id} (no ticket)")),
        }
    }

    /// `rls_buf` at the head of its pipe.
    pub fn release(&mut self, id: u8, pipe: Pipe) -> Result<(), String> {
        let Some(b) = self.buf(id) else {
            return Err(format!("buffer {id} does not exist"));
        };
        match b.holder {
            Some(h) if h.pipe == pipe => {
                b.holder = None;
                Ok(())
            }
            Some(h) => Err(format!(
                "rls_buf by {pipe} of buffer {id}, which {} holds",
                h.pipe
            )),
            None => Err(format!(
                "rls_buf by {pipe} of buffer {id}, which no pipe holds"
            )),
        }
    }

    /// Buffers still held: (id, pipe, line of its get_buf).
    pub fn held(&self) -> impl Iterator<Item = (u8, Pipe, usize)> + '_ {
        self.bufs
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.holder.map(|h| (i as u8, h.pipe, h.line)))
    }
}

/// The program-order pairing rules, checked before the run:
/// get-buf.md "Acquiring the same buffer ID twice on the same pipeline without an intervening
/// rls_buf is illegal"; rls-buf.md "Releasing a buffer that was never acquired is illegal" and
/// "Illegal if %buf_id was not previously acquired by the calling pipeline".
#[derive(Debug, Clone, Default)]
pub struct Pairing {
    held: BTreeSet<(Pipe, u8)>,
}

impl Pairing {
    pub fn get(&mut self, pipe: Pipe, id: u8) -> Result<(), String> {
        if self.held.insert((pipe, id)) {
            Ok(())
        } else {
            Err(format!("double get_buf: {pipe} already holds buffer {id} (no rls_buf since its last get_buf)"))
        }
    }

    pub fn rls(&mut self, pipe: Pipe, id: u8) -> Result<(), String> {
        if self.held.remove(&(pipe, id)) {
            Ok(())
        } else {
            Err(format!(
                "rls_buf without get_buf: {pipe} does not hold buffer {id}"
            ))
        }
    }
}
