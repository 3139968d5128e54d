//! What a run ahead's stores to the hart's local RAM overwrote, so that a rewind can put the
//! RAM back as it was at the checkpoint (docs/execution-model.md EM-28).
//!
//! Why lines and not stores: tt-metal's firmware fills and zeroes its local RAM word by word at
//! boot, over a thousand stores in one run. A record per store (12 bytes each, the list grown
//! as it went) made each core of a 140-tile boot touch tens of KiB of fresh memory, and the
//! host's page faults on it cost ≈ 5 ms of a ≈ 36 ms boot (docs/performance.md). A line's bytes are saved once,
//! before the run's first store to it, so the log never holds more than the RAM itself.

/// Bytes per saved line.
const UNDO_LINE: usize = 64;

/// The lines of a local RAM that a run stored to, each with its bytes from before the run's
/// first store to it. A core keeps an emptied log for its next run (its capacity stays).
#[derive(Clone, Debug, Default)]
pub struct UndoLog {
    /// Bit `k % 64` of word `k / 64`: line `k` is saved. Lines past the map's 256 (a RAM
    /// over 16 KiB) are saved at every store instead, which [`UndoLog::restore`]'s order
    /// makes harmless.
    saved: [u64; 4],
    /// (line number, its bytes before the store that saved it), oldest first; a line at the
    /// RAM's end shorter than [`UNDO_LINE`] keeps only its own bytes.
    lines: Vec<(u32, [u8; UNDO_LINE])>,
}

impl UndoLog {
    /// Saves, where not saved yet, every line that the `n` bytes at `off` of `mem` lie in: to be
    /// called before those bytes are written. The range must lie inside `mem`.
    #[inline(always)]
    pub fn before_store(&mut self, mem: &[u8], off: usize, n: usize) {
        let first = off / UNDO_LINE;
        let last = (off + n.max(1) - 1) / UNDO_LINE;
        self.note(mem, first);
        if last != first {
            self.note(mem, last);
        }
    }

    #[inline(always)]
    fn note(&mut self, mem: &[u8], line: usize) {
        let saved = self
            .saved
            .get(line / 64)
            .is_some_and(|s| (s >> (line % 64)) & 1 != 0);
        if !saved {
            self.save(mem, line);
        }
    }

    #[inline(never)]
    fn save(&mut self, mem: &[u8], line: usize) {
        if let Some(s) = self.saved.get_mut(line / 64) {
            *s |= 1 << (line % 64);
        }
        let start = line * UNDO_LINE;
        let mut bytes = [0u8; UNDO_LINE];
        if let Some(src) = mem.get(start..mem.len().min(start + UNDO_LINE)) {
            bytes[..src.len()].copy_from_slice(src);
        }
        self.lines.push((line as u32, bytes));
    }

    /// Puts every saved line back into `mem`, newest first (so that a line saved twice ends as
    /// it was before the first), and empties the log.
    pub fn restore(&mut self, mem: &mut [u8]) {
        for (line, bytes) in self.lines.iter().rev() {
            let start = *line as usize * UNDO_LINE;
            let end = mem.len().min(start + UNDO_LINE);
            if let Some(dst) = mem.get_mut(start..end) {
                dst.copy_from_slice(&bytes[..end - start]);
            }
        }
        self.clear();
    }

    /// Forgets every saved line (the run is kept, or the log is recycled).
    pub fn clear(&mut self) {
        self.lines.clear();
        self.saved = [0; 4];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift, so that the test needs no crate.
    fn xorshift(mut s: u64) -> impl FnMut() -> u64 {
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    /// Random stores of 1, 2 and 4 bytes anywhere in a RAM whose size is not a whole number of
    /// lines (stores straddling two lines, and the short last line among them), each preceded
    /// by `before_store`: `restore` gives back the RAM as it was, byte for byte, and a line is
    /// saved once however often it is stored to — in a RAM over the map's 16 KiB too, whose
    /// far lines are saved at every store.
    #[test]
    fn restoring_puts_back_every_byte_the_stores_overwrote() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut log = UndoLog::default();
        for round in 0..300 {
            let size = [4096usize, 8192, 1000, 64, 70, 20_000][round % 6];
            let before: Vec<u8> = (0..size).map(|_| next() as u8).collect();
            let mut mem = before.clone();
            let mut touched = std::collections::BTreeSet::new();
            for _ in 0..(next() % 3000) {
                let n = [1usize, 2, 4][(next() % 3) as usize];
                let off = (next() as usize) % (size - n + 1);
                log.before_store(&mem, off, n);
                for b in &mut mem[off..off + n] {
                    *b = next() as u8;
                }
                touched.insert(off / UNDO_LINE);
                touched.insert((off + n - 1) / UNDO_LINE);
            }
            if size <= 256 * UNDO_LINE {
                assert_eq!(
                    log.lines.len(),
                    touched.len(),
                    "round {round}: one record per line"
                );
            }
            log.restore(&mut mem);
            assert_eq!(mem, before, "round {round}: size {size}");
            assert!(log.lines.is_empty());
        }
    }

    /// After `restore` or `clear` no line counts as saved: the next run saves the bytes it
    /// finds then, not the ones of the run before.
    #[test]
    fn an_emptied_log_saves_lines_afresh() {
        let mut mem = vec![1u8; 256];
        let mut log = UndoLog::default();
        log.before_store(&mem, 10, 4);
        mem[10] = 2;
        log.clear();
        log.before_store(&mem, 10, 4);
        mem[10] = 3;
        log.restore(&mut mem);
        assert_eq!(mem[10], 2, "the line as the second run found it");
        assert!(log.lines.is_empty());
    }
}
