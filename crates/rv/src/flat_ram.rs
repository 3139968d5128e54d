//! A flat RAM bus for programs run outside a tile (`bhemu riscv`, tests, benchmarks): one byte
//! array at a base address, a recorder standing in for the Tensix coprocessor port, and the
//! riscv-tests `tohost` convention. Anything outside the array is an access fault.
use crate::bus::{Access, Bus, BusFault, Width};

pub struct FlatRam {
    base: u32,
    mem: Vec<u8>,
    tohost: Option<u32>,
    tohost_value: Option<u32>,
    stop: bool,
    tensix: Vec<u32>,
}

impl FlatRam {
    /// `size` bytes of zeroed RAM at `base`; clipped so that the RAM ends at 4 GiB at most.
    pub fn new(base: u32, size: u32) -> FlatRam {
        let size = u64::from(size).min((1u64 << 32) - u64::from(base)) as usize;
        FlatRam {
            base,
            mem: vec![0; size],
            tohost: None,
            tohost_value: None,
            stop: false,
            tensix: Vec::new(),
        }
    }

    pub fn base(&self) -> u32 {
        self.base
    }
    pub fn size(&self) -> u32 {
        self.mem.len() as u32
    }
    pub fn bytes(&self) -> &[u8] {
        &self.mem
    }
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.mem
    }

    fn range(&self, addr: u32, len: usize) -> Result<std::ops::Range<usize>, BusFault> {
        let off = addr.wrapping_sub(self.base) as usize;
        match off.checked_add(len) {
            Some(end) if end <= self.mem.len() && addr >= self.base => Ok(off..end),
            _ => Err(BusFault {
                addr,
                reason: format!(
                    "{len} byte(s) at 0x{addr:08x} are outside RAM 0x{:08x}..0x{:08x}",
                    self.base,
                    u64::from(self.base) + self.mem.len() as u64
                ),
            }),
        }
    }

    /// Copies `data` to `addr` (e.g. an ELF segment).
    pub fn load_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), BusFault> {
        let r = self.range(addr, data.len())?;
        if let Some(dst) = self.mem.get_mut(r) {
            dst.copy_from_slice(data);
        }
        Ok(())
    }
    pub fn read_bytes(&self, addr: u32, len: u32) -> Result<&[u8], BusFault> {
        let r = self.range(addr, len as usize)?;
        Ok(self.mem.get(r).unwrap_or(&[]))
    }
    pub fn read_u8(&self, addr: u32) -> Result<u8, BusFault> {
        Ok(self.read_bytes(addr, 1)?.first().copied().unwrap_or(0))
    }
    pub fn read_u32(&self, addr: u32) -> Result<u32, BusFault> {
        match self.read_bytes(addr, 4)? {
            &[a, b, c, d] => Ok(u32::from_le_bytes([a, b, c, d])),
            _ => Ok(0),
        }
    }
    pub fn write_u32(&mut self, addr: u32, value: u32) -> Result<(), BusFault> {
        self.load_bytes(addr, &value.to_le_bytes())
    }

    /// Watches the 4 bytes at `addr`: a store there ends `Hart::run` with `RunExit::Stop`.
    pub fn set_tohost(&mut self, addr: u32) {
        self.tohost = Some(addr);
    }
    /// The word at `tohost` after the latest store to it, if any.
    pub fn tohost_value(&self) -> Option<u32> {
        self.tohost_value
    }
    /// Tensix instruction words pushed by `.ttinsn`, in order.
    pub fn pushed_tensix(&self) -> &[u32] {
        &self.tensix
    }
    pub fn clear_pushed_tensix(&mut self) {
        self.tensix.clear();
    }

    #[inline(always)]
    fn word_at(&self, addr: u32) -> Option<u32> {
        let off = addr.wrapping_sub(self.base) as usize;
        match self.mem.get(off..off.wrapping_add(4)) {
            Some(&[a, b, c, d]) => Some(u32::from_le_bytes([a, b, c, d])),
            _ => None,
        }
    }

    #[cold]
    fn fault<T>(&self, addr: u32, width: u32) -> Access<T> {
        match self.range(addr, width as usize) {
            Err(f) => Access::Fault(f),
            Ok(_) => Access::Fault(BusFault {
                addr,
                reason: "internal: access failed".into(),
            }),
        }
    }

    #[cold]
    fn after_tohost_store(&mut self, addr: u32) {
        if let Some(t) = self.tohost {
            if addr.wrapping_sub(t) < 4 {
                self.tohost_value = self.word_at(t).or(self.tohost_value);
                self.stop = true;
            }
        }
    }
}

impl Bus for FlatRam {
    #[inline(always)]
    fn fetch(&mut self, addr: u32) -> Access<u32> {
        match self.word_at(addr) {
            Some(w) => Access::Done(w),
            None => self.fault(addr, 4),
        }
    }

    /// Flat RAM records nothing on a fetch: the words, when all of them are in range.
    fn fetch_block(&mut self, addr: u32, out: &mut [u32]) -> bool {
        let off = addr.wrapping_sub(self.base) as usize;
        let Some(bytes) = self.mem.get(off..off.wrapping_add(4 * out.len())) else {
            return false;
        };
        if addr & 3 != 0 {
            return false;
        }
        for (w, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        true
    }

    #[inline(always)]
    fn load(&mut self, addr: u32, width: Width) -> Access<u32> {
        let off = addr.wrapping_sub(self.base) as usize;
        let v = match width {
            Width::Word => self.word_at(addr),
            Width::Half => match self.mem.get(off..off.wrapping_add(2)) {
                Some(&[a, b]) => Some(u32::from(u16::from_le_bytes([a, b]))),
                _ => None,
            },
            Width::Byte => self.mem.get(off).map(|&b| u32::from(b)),
        };
        match v {
            Some(v) => Access::Done(v),
            None => self.fault(addr, width.bytes()),
        }
    }

    #[inline(always)]
    fn store(&mut self, addr: u32, width: Width, value: u32) -> Access<()> {
        let off = addr.wrapping_sub(self.base) as usize;
        let n = width.bytes() as usize;
        match self.mem.get_mut(off..off.wrapping_add(n)) {
            Some(dst) => {
                let bytes = value.to_le_bytes();
                dst.copy_from_slice(bytes.get(..n).unwrap_or(&bytes));
            }
            None => return self.fault(addr, width.bytes()),
        }
        if self.tohost.is_some() {
            self.after_tohost_store(addr);
        }
        Access::Done(())
    }

    fn push_tensix(&mut self, word: u32) -> Access<()> {
        self.tensix.push(word);
        Access::Done(())
    }

    #[inline(always)]
    fn stop_requested(&mut self) -> bool {
        std::mem::take(&mut self.stop)
    }
}
