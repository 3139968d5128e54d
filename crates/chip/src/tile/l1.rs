//! L1: the tile's 1536 KiB scratchpad (tt-isa-documentation `BlackholeA0/TensixTile/L1.md`,
//! BabyRISCV/README.md memory map). It is the only memory cores can execute from.
//!
//! Harts cache decoded instructions, so L1 remembers which 64-byte lines have been fetched as
//! code and accumulates the range of such lines written since the tile last invalidated its
//! harts' caches. Writes to data-only lines (mailboxes, stacks, buffers) cost one bit test.
use super::memory_map::L1_SIZE;
use crate::zeroed::ZeroedBytes;

const LINE_SHIFT: u32 = 6;
const LINES: usize = (L1_SIZE >> LINE_SHIFT) as usize;

pub struct L1 {
    /// Zero pages mapped on first touch (see [`crate::zeroed`]).
    mem: ZeroedBytes,
    code_lines: Vec<u64>,
    /// `[lo, hi)` of code written since [`L1::take_code_dirty`].
    dirty: Option<(u32, u32)>,
    /// Per line, the cores (bit per core index) parked on a loop that reads the line or runs
    /// from it (see `tile::park`).
    watch: Vec<u8>,
    /// Cores whose watched lines were written since [`L1::take_woken`].
    woken: u8,
    /// Writes so far (any source), so that pollers can tell "nothing changed" in one compare.
    writes: u64,
    /// Writes so far that hit lines fetched as code.
    code_writes: u64,
}

impl Default for L1 {
    fn default() -> Self {
        Self::new()
    }
}

impl L1 {
    pub fn new() -> Self {
        L1 {
            mem: ZeroedBytes::new(L1_SIZE as usize),
            code_lines: vec![0; LINES.div_ceil(64)],
            dirty: None,
            watch: vec![0; LINES],
            woken: 0,
            writes: 0,
            code_writes: 0,
        }
    }

    pub const fn size(&self) -> u32 {
        L1_SIZE
    }

    /// The whole of L1, for digests.
    pub fn bytes(&self) -> &[u8] {
        &self.mem
    }

    /// True when `[addr, addr+len)` lies inside L1.
    pub fn contains(&self, addr: u64, len: usize) -> bool {
        addr.checked_add(len as u64)
            .is_some_and(|end| end <= u64::from(L1_SIZE))
    }

    /// An instruction fetch: marks the line as code.
    #[inline]
    pub fn fetch(&mut self, addr: u32) -> Option<u32> {
        let v = self.read_u32(addr)?;
        let line = (addr >> LINE_SHIFT) as usize;
        if let Some(w) = self.code_lines.get_mut(line / 64) {
            *w |= 1 << (line % 64);
        }
        Some(v)
    }

    /// Instruction fetches of the words of `[addr, addr + 4 * out.len())` at once: marks their
    /// lines as code. False, changing nothing, unless the words are aligned and inside L1.
    pub fn fetch_block(&mut self, addr: u32, out: &mut [u32]) -> bool {
        let a = addr as usize;
        let Some(bytes) = self.mem.get(a..a + 4 * out.len()) else {
            return false;
        };
        if addr & 3 != 0 || out.is_empty() {
            return false;
        }
        for (w, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        let first = a >> LINE_SHIFT;
        let last = (a + 4 * out.len() - 1) >> LINE_SHIFT;
        for line in first..=last {
            if let Some(w) = self.code_lines.get_mut(line / 64) {
                *w |= 1 << (line % 64);
            }
        }
        true
    }

    #[inline]
    pub fn read_u32(&self, addr: u32) -> Option<u32> {
        let a = addr as usize;
        let b = self.mem.get(a..a + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Reads `width` (1, 2 or 4) bytes little-endian.
    #[inline]
    pub fn read(&self, addr: u32, width: u32) -> Option<u32> {
        super::le_bytes::read(&self.mem, addr, width)
    }

    /// Writes the low `width` bytes of `value`; false when out of range.
    #[inline]
    pub fn write(&mut self, addr: u32, width: u32, value: u32) -> bool {
        if !super::le_bytes::write(&mut self.mem, addr, width, value) {
            return false;
        }
        self.note_write(addr, width);
        true
    }

    pub fn read_bytes(&self, addr: u64, buf: &mut [u8]) -> bool {
        if !self.contains(addr, buf.len()) {
            return false;
        }
        let a = addr as usize;
        buf.copy_from_slice(&self.mem[a..a + buf.len()]);
        true
    }

    pub fn write_bytes(&mut self, addr: u64, data: &[u8]) -> bool {
        if !self.contains(addr, data.len()) {
            return false;
        }
        let a = addr as usize;
        self.mem[a..a + data.len()].copy_from_slice(data);
        self.note_write(addr as u32, data.len() as u32);
        true
    }

    #[inline]
    fn note_write(&mut self, addr: u32, len: u32) {
        if len == 0 {
            return;
        }
        self.writes = self.writes.wrapping_add(1);
        let first = (addr >> LINE_SHIFT) as usize;
        let last = ((addr + len - 1) >> LINE_SHIFT) as usize;
        if let Some(w) = self.watch.get(first..=last) {
            self.woken |= w.iter().fold(0, |a, &b| a | b);
        }
        let code = (first..=last).any(|l| {
            self.code_lines
                .get(l / 64)
                .is_some_and(|w| w & (1 << (l % 64)) != 0)
        });
        if code {
            self.code_writes = self.code_writes.wrapping_add(1);
            let (lo, hi) = (addr, addr + len);
            self.dirty = Some(match self.dirty {
                Some((a, b)) => (a.min(lo), b.max(hi)),
                None => (lo, hi),
            });
        }
    }

    /// Writes so far, from any source.
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Writes so far that hit code.
    #[inline]
    pub fn code_writes(&self) -> u64 {
        self.code_writes
    }

    /// Whether code was overwritten since the last [`L1::take_code_dirty`].
    #[inline]
    pub fn code_dirty(&self) -> bool {
        self.dirty.is_some()
    }

    /// Cores whose watched lines were written since the last call.
    #[inline]
    pub fn woken(&self) -> u8 {
        self.woken
    }

    /// Marks the cores in `mask` woken by something other than an L1 write (a write to MMIO
    /// registers they poll, see `tile::park`); the tile handles them as it does L1 wakes.
    #[inline]
    pub fn wake(&mut self, mask: u8) {
        self.woken |= mask;
    }

    /// Clears `mask` from the woken cores.
    pub fn clear_woken(&mut self, mask: u8) {
        self.woken &= !mask;
    }

    /// The index of the line holding `addr` (as [`L1::watch`] returns and [`L1::unwatch`]
    /// takes).
    #[inline]
    pub fn line_of(addr: u32) -> usize {
        (addr >> LINE_SHIFT) as usize
    }

    /// Adds `mask` to the watchers of the line holding `addr`; the line's index, or `None`
    /// outside L1.
    pub fn watch(&mut self, addr: u32, mask: u8) -> Option<usize> {
        let l = Self::line_of(addr);
        let w = self.watch.get_mut(l)?;
        *w |= mask;
        Some(l)
    }

    /// Removes `mask` from the watchers of line `line`.
    pub fn unwatch(&mut self, line: usize, mask: u8) {
        if let Some(w) = self.watch.get_mut(line) {
            *w &= !mask;
        }
    }

    /// `[lo, hi)` of code overwritten since the last [`L1::take_code_dirty`], left as it is.
    #[inline]
    pub fn code_dirty_range(&self) -> Option<(u32, u32)> {
        self.dirty
    }

    /// The range of code overwritten since the last call, for hart cache invalidation.
    #[inline]
    pub fn take_code_dirty(&mut self) -> Option<(u32, u32)> {
        self.dirty.take()
    }
}

/// The coprocessor's unpackers and packers reach L1 through this.
impl bhemu_tensix::TensixMemory for L1 {
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> Result<(), String> {
        if self.read_bytes(u64::from(addr), buf) {
            Ok(())
        } else {
            Err(format!(
                "{} bytes at {addr:#x} are not all in L1",
                buf.len()
            ))
        }
    }

    fn holds(&self, addr: u32, len: usize) -> bool {
        self.contains(u64::from(addr), len)
    }

    fn write(&mut self, addr: u32, data: &[u8]) -> Result<(), String> {
        if self.write_bytes(u64::from(addr), data) {
            Ok(())
        } else {
            Err(format!(
                "{} bytes at {addr:#x} are not all in L1",
                data.len()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_to_fetched_lines_are_reported_once() {
        let mut l1 = L1::new();
        l1.write(0x100, 4, 0x1234_5678);
        assert_eq!(l1.take_code_dirty(), None);
        assert_eq!(l1.fetch(0x100), Some(0x1234_5678));
        l1.write(0x104, 2, 0xFFFF);
        l1.write(0x13C, 4, 0);
        assert_eq!(l1.take_code_dirty(), Some((0x104, 0x140)));
        assert_eq!(l1.take_code_dirty(), None);
    }

    #[test]
    fn writes_to_watched_lines_wake_their_watchers_only() {
        let mut l1 = L1::new();
        assert_eq!(l1.watch(0x68, 0b10), Some(1));
        assert_eq!(l1.watch(0x1000, 0b100), Some(0x40));
        l1.write(0x80, 4, 1);
        assert_eq!(l1.woken(), 0, "line 2 is not watched");
        l1.write(0x7F, 1, 1);
        assert_eq!(l1.woken(), 0b10);
        l1.write_bytes(0xFF0, &[0u8; 32]);
        assert_eq!(l1.woken(), 0b110);
        l1.clear_woken(0b110);
        l1.unwatch(1, 0b10);
        l1.write(0x68, 4, 2);
        assert_eq!(l1.woken(), 0);
        assert_eq!(l1.writes(), 4);
    }

    #[test]
    fn out_of_range_is_refused() {
        let mut l1 = L1::new();
        assert!(!l1.write(L1_SIZE - 2, 4, 0));
        assert_eq!(l1.read(L1_SIZE, 1), None);
        assert!(!l1.write_bytes(u64::from(L1_SIZE), &[1]));
    }
}
