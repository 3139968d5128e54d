//! DRAM: the chip's GDDR6, modelled sparsely.
//!
//! Blackhole has 8 DRAM channels ("banks" in tt-metal) of 4 GiB each; every channel is exposed
//! through three DRAM tiles that all see the same 4 GiB (tt-isa-documentation,
//! `BlackholeA0/NoC/README.md` and `Coordinates.md`; docs/blackhole-facts.md §4). Each channel here is its
//! own address space `0 .. channel_size`: an access names the channel and an offset in it, and an
//! access that would run past the end of its channel is an error, never a wrap into the next
//! channel (a DRAM tile cannot reach another channel's memory). [`Dram::read_flat`] and
//! [`Dram::write_flat`] offer the host's concatenated view (channel `c` at `c * channel_size`),
//! where an access may span channels and is split at the boundary.
//!
//! Memory is allocated in pages on first write; reading memory that was never written returns
//! zeros without allocating (the memory model). Nothing here panics on any input.
//!
//! tt-metal only hands out the low `0xFF00_0000` bytes of each channel (`MEM_DRAM_SIZE` in the
//! firmware's `dev_mem_map.h`, `dram_view_size` in `blackhole_140_arch.yaml`); the rest exists and
//! is accessible here, as on the hardware. See docs/blackhole-facts.md.

/// Number of DRAM channels on an unharvested Blackhole (p150).
pub const DRAM_CHANNELS: usize = 8;
/// Bytes per channel: 4 GiB.
pub const DRAM_CHANNEL_SIZE: u64 = 4 << 30;
/// Bytes per channel that tt-metal uses (`MEM_DRAM_SIZE` = 4177920 KiB, `dev_mem_map.h`).
pub const DRAM_USABLE_SIZE: u64 = 0xFF00_0000;
/// Allocation granule of the sparse store.
pub const DRAM_PAGE_SIZE: usize = 64 << 10;
const PAGE_SHIFT: u32 = DRAM_PAGE_SIZE.trailing_zeros();
const PAGE_MASK: u64 = DRAM_PAGE_SIZE as u64 - 1;

/// Why a DRAM access failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DramError {
    #[error("DRAM channel {channel} does not exist (the chip has {channels})")]
    NoSuchChannel { channel: usize, channels: usize },
    #[error(
        "DRAM access of {len} bytes at {addr:#x} in channel {channel} runs past the channel's end \
         ({size:#x})"
    )]
    OutOfRange {
        channel: usize,
        addr: u64,
        len: u64,
        size: u64,
    },
    #[error("DRAM flat access of {len} bytes at {addr:#x} runs past the end of DRAM ({size:#x})")]
    FlatOutOfRange { addr: u64, len: u64, size: u64 },
    #[error("invalid DRAM geometry: {0}")]
    BadGeometry(&'static str),
}

type Page = Box<[u8; DRAM_PAGE_SIZE]>;

/// Pages per directory of a channel's page table (16 MiB of DRAM).
const DIR_PAGES: usize = 256;
type Dir = Box<[Option<Page>; DIR_PAGES]>;

/// One channel: a two-level page table — a directory slot per 16 MiB, a page slot per 64 KiB
/// — filled on first write. One flat slot per page was 4 MiB of pointers for eight channels,
/// all of which every digest and the chip's drop had to read (and the host to fault in).
#[derive(Debug, Clone)]
struct Channel {
    dirs: Vec<Option<Dir>>,
    /// Pages the channel holds (its size over [`DRAM_PAGE_SIZE`]).
    pages: usize,
    allocated: usize,
}

impl Channel {
    fn new(pages: usize) -> Self {
        Channel {
            dirs: vec![None; pages.div_ceil(DIR_PAGES)],
            pages,
            allocated: 0,
        }
    }

    /// The page `page`, if it was ever written.
    fn page(&self, page: usize) -> Option<&Page> {
        self.dirs.get(page / DIR_PAGES)?.as_ref()?[page % DIR_PAGES].as_ref()
    }

    /// The slot of page `page` (its directory made on demand), `None` past the channel's end.
    fn slot_mut(&mut self, page: usize) -> Option<&mut Option<Page>> {
        if page >= self.pages {
            return None;
        }
        let dir = self
            .dirs
            .get_mut(page / DIR_PAGES)?
            .get_or_insert_with(|| Box::new([const { None }; DIR_PAGES]));
        Some(&mut dir[page % DIR_PAGES])
    }

    /// Every written page with its index, in order.
    fn written(&self) -> impl Iterator<Item = (usize, &Page)> {
        self.dirs.iter().enumerate().flat_map(|(d, dir)| {
            dir.iter().flat_map(move |dir| {
                dir.iter()
                    .enumerate()
                    .filter_map(move |(j, p)| p.as_ref().map(|p| (d * DIR_PAGES + j, p)))
            })
        })
    }

    /// Caller has checked the range.
    fn read(&self, addr: u64, buf: &mut [u8]) {
        let mut done = 0usize;
        while done < buf.len() {
            let a = addr + done as u64;
            let page = (a >> PAGE_SHIFT) as usize;
            let off = (a & PAGE_MASK) as usize;
            let n = (DRAM_PAGE_SIZE - off).min(buf.len() - done);
            let dst = &mut buf[done..done + n];
            match self.page(page) {
                Some(p) => dst.copy_from_slice(&p[off..off + n]),
                None => dst.fill(0),
            }
            done += n;
        }
    }

    /// Caller has checked the range.
    fn write(&mut self, addr: u64, data: &[u8]) {
        let mut done = 0usize;
        while done < data.len() {
            let a = addr + done as u64;
            let page = (a >> PAGE_SHIFT) as usize;
            let off = (a & PAGE_MASK) as usize;
            let n = (DRAM_PAGE_SIZE - off).min(data.len() - done);
            let src = &data[done..done + n];
            // Writing zeros to an untouched page changes nothing: keep it sparse (no directory
            // either).
            if self.page(page).is_none() && src.iter().all(|&b| b == 0) {
                done += n;
                continue;
            }
            let mut fresh = false;
            if let Some(slot) = self.slot_mut(page) {
                let p = slot.get_or_insert_with(|| {
                    fresh = true;
                    Box::new([0u8; DRAM_PAGE_SIZE])
                });
                p[off..off + n].copy_from_slice(src);
            }
            self.allocated += usize::from(fresh);
            done += n;
        }
    }
}

/// The chip's DRAM: `channels` independent channels of `channel_size` bytes each.
#[derive(Debug, Clone)]
pub struct Dram {
    channels: Vec<Channel>,
    channel_size: u64,
}

impl Default for Dram {
    fn default() -> Self {
        Self::new()
    }
}

impl Dram {
    /// Blackhole's DRAM: 8 channels × 4 GiB, all untouched.
    pub fn new() -> Self {
        let pages = (DRAM_CHANNEL_SIZE >> PAGE_SHIFT) as usize;
        Dram {
            channels: (0..DRAM_CHANNELS).map(|_| Channel::new(pages)).collect(),
            channel_size: DRAM_CHANNEL_SIZE,
        }
    }

    /// Any geometry (for tests and harvested parts, e.g. 7 channels on a p100): `channel_size`
    /// must be a non-zero multiple of [`DRAM_PAGE_SIZE`] and at most 2^40 bytes.
    pub fn with_geometry(channels: usize, channel_size: u64) -> Result<Self, DramError> {
        if channels == 0 || channels > 64 {
            return Err(DramError::BadGeometry("channel count must be 1 to 64"));
        }
        if channel_size == 0 || channel_size & PAGE_MASK != 0 || channel_size > 1 << 40 {
            return Err(DramError::BadGeometry(
                "channel size must be a non-zero multiple of the 64 KiB page, at most 1 TiB",
            ));
        }
        let pages = (channel_size >> PAGE_SHIFT) as usize;
        Ok(Dram {
            channels: (0..channels).map(|_| Channel::new(pages)).collect(),
            channel_size,
        })
    }

    /// Calls `f(channel, page, bytes)` for every page holding a non-zero byte, in order; pages
    /// never written or written only with zeros read as zero and are left out.
    pub fn fold_pages(&self, f: &mut dyn FnMut(usize, usize, &[u8])) {
        for (c, ch) in self.channels.iter().enumerate() {
            for (i, p) in ch.written() {
                if p.iter().any(|&b| b != 0) {
                    f(c, i, &p[..]);
                }
            }
        }
    }

    /// Number of channels.
    pub fn channels(&self) -> usize {
        self.channels.len()
    }

    /// Bytes per channel.
    pub fn channel_size(&self) -> u64 {
        self.channel_size
    }

    /// Total bytes over all channels (the size of the flat view).
    pub fn total_size(&self) -> u64 {
        self.channel_size * self.channels.len() as u64
    }

    /// Pages allocated so far (each [`DRAM_PAGE_SIZE`] bytes), over all channels.
    pub fn allocated_pages(&self) -> usize {
        self.channels.iter().map(|c| c.allocated).sum()
    }

    fn check(&self, channel: usize, addr: u64, len: usize) -> Result<(), DramError> {
        if channel >= self.channels.len() {
            return Err(DramError::NoSuchChannel {
                channel,
                channels: self.channels.len(),
            });
        }
        let len = len as u64;
        match addr.checked_add(len) {
            Some(end) if end <= self.channel_size => Ok(()),
            _ => Err(DramError::OutOfRange {
                channel,
                addr,
                len,
                size: self.channel_size,
            }),
        }
    }

    /// Reads `buf.len()` bytes at `addr` of `channel`; untouched bytes read as zero.
    pub fn read(&self, channel: usize, addr: u64, buf: &mut [u8]) -> Result<(), DramError> {
        self.check(channel, addr, buf.len())?;
        self.channels[channel].read(addr, buf);
        Ok(())
    }

    /// Writes `data` at `addr` of `channel`, allocating pages as needed.
    pub fn write(&mut self, channel: usize, addr: u64, data: &[u8]) -> Result<(), DramError> {
        self.check(channel, addr, data.len())?;
        self.channels[channel].write(addr, data);
        Ok(())
    }

    /// Little-endian 32-bit read.
    pub fn read_u32(&self, channel: usize, addr: u64) -> Result<u32, DramError> {
        let mut b = [0u8; 4];
        self.read(channel, addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Little-endian 32-bit write.
    pub fn write_u32(&mut self, channel: usize, addr: u64, value: u32) -> Result<(), DramError> {
        self.write(channel, addr, &value.to_le_bytes())
    }

    fn check_flat(&self, addr: u64, len: usize) -> Result<(), DramError> {
        let len = len as u64;
        let size = self.total_size();
        match addr.checked_add(len) {
            Some(end) if end <= size => Ok(()),
            _ => Err(DramError::FlatOutOfRange { addr, len, size }),
        }
    }

    /// Reads from the concatenated view (channel `c` starts at `c * channel_size`); an access
    /// may span channels.
    pub fn read_flat(&self, addr: u64, buf: &mut [u8]) -> Result<(), DramError> {
        self.check_flat(addr, buf.len())?;
        let mut done = 0usize;
        while done < buf.len() {
            let a = addr + done as u64;
            let ch = (a / self.channel_size) as usize;
            let off = a % self.channel_size;
            let n = ((self.channel_size - off) as usize).min(buf.len() - done);
            self.channels[ch].read(off, &mut buf[done..done + n]);
            done += n;
        }
        Ok(())
    }

    /// Writes to the concatenated view; an access may span channels.
    pub fn write_flat(&mut self, addr: u64, data: &[u8]) -> Result<(), DramError> {
        self.check_flat(addr, data.len())?;
        let mut done = 0usize;
        while done < data.len() {
            let a = addr + done as u64;
            let ch = (a / self.channel_size) as usize;
            let off = a % self.channel_size;
            let n = ((self.channel_size - off) as usize).min(data.len() - done);
            self.channels[ch].write(off, &data[done..done + n]);
            done += n;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(n: usize, seed: u8) -> Vec<u8> {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect()
    }

    /// Blackhole: 8 channels of 4 GiB (NoC/README.md; docs/blackhole-facts.md §4).
    #[test]
    fn geometry_is_eight_channels_of_four_gib() {
        let d = Dram::new();
        assert_eq!(d.channels(), 8);
        assert_eq!(d.channel_size(), 4 << 30);
        assert_eq!(d.total_size(), 32 << 30);
        assert_eq!(d.allocated_pages(), 0);
    }

    /// bhemu: reads of untouched memory return zero and allocate nothing.
    #[test]
    fn untouched_reads_are_zero_and_do_not_allocate() {
        let d = Dram::new();
        let mut buf = vec![0xAAu8; 300];
        d.read(7, DRAM_CHANNEL_SIZE - 300, &mut buf).unwrap();
        assert!(buf.iter().all(|&b| b == 0));
        assert_eq!(d.read_u32(3, 0x1234_5678).unwrap(), 0);
        assert_eq!(d.allocated_pages(), 0);
    }

    /// bhemu: pages are allocated on first write.
    #[test]
    fn pages_allocate_on_first_write_only() {
        let mut d = Dram::new();
        d.write_u32(0, 0x10, 0xDEAD_BEEF).unwrap();
        assert_eq!(d.allocated_pages(), 1);
        d.write_u32(0, 0x20, 1).unwrap();
        assert_eq!(d.allocated_pages(), 1);
        // Zeros into an untouched page keep it unallocated.
        d.write(1, 0, &[0u8; 128]).unwrap();
        assert_eq!(d.allocated_pages(), 1);
        assert_eq!(d.read_u32(0, 0x10).unwrap(), 0xDEAD_BEEF);
        assert_eq!(d.read_u32(0, 0x14).unwrap(), 0);
    }

    #[test]
    fn access_across_page_boundary() {
        let mut d = Dram::new();
        let data = pattern(3 * DRAM_PAGE_SIZE + 17, 5);
        let addr = 5 * DRAM_PAGE_SIZE as u64 - 9;
        d.write(2, addr, &data).unwrap();
        assert_eq!(d.allocated_pages(), 5);
        let mut back = vec![0u8; data.len()];
        d.read(2, addr, &mut back).unwrap();
        assert_eq!(back, data);
        // A read straddling written and untouched pages.
        let mut edge = vec![0xFFu8; 32];
        d.read(2, addr - 16, &mut edge).unwrap();
        assert_eq!(&edge[..16], &[0u8; 16]);
        assert_eq!(&edge[16..], &data[..16]);
    }

    /// Writes on both sides of a 16 MiB boundary (where the page table's directories meet)
    /// and at a channel's last byte read back, and the digest walk lists exactly the written
    /// pages, in order, each once.
    #[test]
    fn pages_across_sixteen_mib_boundaries_read_back_and_fold_in_order() {
        let mut d = Dram::new();
        let boundary = 16u64 << 20;
        let data = pattern(2 * DRAM_PAGE_SIZE, 9);
        d.write(3, boundary - DRAM_PAGE_SIZE as u64, &data).unwrap();
        d.write(3, DRAM_CHANNEL_SIZE - 1, &[0x5A]).unwrap();
        d.write(0, 3 * boundary + 8, &[1, 2, 3]).unwrap();
        assert_eq!(d.allocated_pages(), 4);
        let mut back = vec![0u8; data.len() + 64];
        d.read(3, boundary - DRAM_PAGE_SIZE as u64 - 32, &mut back)
            .unwrap();
        assert_eq!(&back[..32], &[0u8; 32]);
        assert_eq!(&back[32..32 + data.len()], &data[..]);
        assert_eq!(&back[32 + data.len()..], &[0u8; 32]);
        let mut last = [0u8; 2];
        d.read(3, DRAM_CHANNEL_SIZE - 2, &mut last).unwrap();
        assert_eq!(last, [0, 0x5A]);
        let mut seen = Vec::new();
        d.fold_pages(&mut |c, page, bytes| seen.push((c, page, bytes.len())));
        let per_16mib = (boundary / DRAM_PAGE_SIZE as u64) as usize;
        let last_page = (DRAM_CHANNEL_SIZE / DRAM_PAGE_SIZE as u64) as usize - 1;
        assert_eq!(
            seen,
            vec![
                (0, 3 * per_16mib, DRAM_PAGE_SIZE),
                (3, per_16mib - 1, DRAM_PAGE_SIZE),
                (3, per_16mib, DRAM_PAGE_SIZE),
                (3, last_page, DRAM_PAGE_SIZE),
            ]
        );
    }

    #[test]
    fn channels_are_independent() {
        let mut d = Dram::new();
        for ch in 0..DRAM_CHANNELS {
            d.write_u32(ch, 0x100, 0x1000 + ch as u32).unwrap();
        }
        for ch in 0..DRAM_CHANNELS {
            assert_eq!(d.read_u32(ch, 0x100).unwrap(), 0x1000 + ch as u32);
        }
    }

    /// A channel is its own 4 GiB: an access past its end is an error, not a wrap.
    #[test]
    fn channel_end_is_a_hard_boundary() {
        let mut d = Dram::new();
        let last = DRAM_CHANNEL_SIZE - 4;
        d.write_u32(0, last, 7).unwrap();
        assert_eq!(d.read_u32(0, last).unwrap(), 7);
        let err = d.write(0, last, &[0u8; 8]).unwrap_err();
        assert_eq!(
            err,
            DramError::OutOfRange {
                channel: 0,
                addr: last,
                len: 8,
                size: DRAM_CHANNEL_SIZE
            }
        );
        let mut b = [0u8; 8];
        assert!(matches!(
            d.read(0, last, &mut b),
            Err(DramError::OutOfRange { .. })
        ));
        assert!(matches!(
            d.read(0, u64::MAX, &mut b),
            Err(DramError::OutOfRange { .. })
        ));
        // The failed write left the next channel alone.
        assert_eq!(d.read_u32(1, 0).unwrap(), 0);
        // An empty access at the very end is fine.
        d.read(0, DRAM_CHANNEL_SIZE, &mut []).unwrap();
    }

    #[test]
    fn bad_channel_is_an_error() {
        let mut d = Dram::new();
        assert_eq!(
            d.write_u32(8, 0, 1),
            Err(DramError::NoSuchChannel {
                channel: 8,
                channels: 8
            })
        );
        assert!(d.read_u32(usize::MAX, 0).is_err());
    }

    /// The flat view concatenates channels; an access spanning two channels is split.
    #[test]
    fn flat_view_spans_channels() {
        let mut d = Dram::new();
        let data = pattern(64, 1);
        let addr = DRAM_CHANNEL_SIZE * 3 - 32;
        d.write_flat(addr, &data).unwrap();
        let mut tail = [0u8; 32];
        d.read(2, DRAM_CHANNEL_SIZE - 32, &mut tail).unwrap();
        assert_eq!(&tail[..], &data[..32]);
        let mut head = [0u8; 32];
        d.read(3, 0, &mut head).unwrap();
        assert_eq!(&head[..], &data[32..]);
        let mut back = vec![0u8; 64];
        d.read_flat(addr, &mut back).unwrap();
        assert_eq!(back, data);
        assert!(matches!(
            d.read_flat(d.total_size() - 2, &mut [0u8; 4]),
            Err(DramError::FlatOutOfRange { .. })
        ));
    }

    #[test]
    fn small_geometry_for_tests() {
        let mut d = Dram::with_geometry(2, 2 * DRAM_PAGE_SIZE as u64).unwrap();
        d.write_flat(DRAM_PAGE_SIZE as u64 * 2 - 2, &[1, 2, 3, 4])
            .unwrap();
        assert_eq!(d.read_u32(1, 0).unwrap() & 0xFFFF, 0x0403);
        assert!(Dram::with_geometry(0, 1 << 20).is_err());
        assert!(Dram::with_geometry(1, 1000).is_err());
    }
}
