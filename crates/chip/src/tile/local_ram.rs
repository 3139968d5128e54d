//! Per-core local data RAM (BabyRISCV/README.md "Local Data RAM"): 8 KiB for B and NC, 4 KiB
//! for each TRISC, at `0xFFB0_0000` for its own core and at a slow-path alias for everyone.
//! Data only: the cores cannot execute from it.

pub struct LocalRam {
    mem: Vec<u8>,
}

impl LocalRam {
    pub fn new(size: u32) -> Self {
        LocalRam {
            mem: vec![0; size as usize],
        }
    }
    pub fn size(&self) -> u32 {
        self.mem.len() as u32
    }
    /// The whole RAM, for digests.
    pub fn bytes(&self) -> &[u8] {
        &self.mem
    }
    /// The whole RAM to write, for its owner's run ahead (docs/execution-model.md EM-28).
    pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.mem
    }
    #[inline]
    pub fn read(&self, off: u32, width: u32) -> Option<u32> {
        super::le_bytes::read(&self.mem, off, width)
    }
    #[inline]
    pub fn write(&mut self, off: u32, width: u32, value: u32) -> bool {
        super::le_bytes::write(&mut self.mem, off, width, value)
    }
    pub fn read_bytes(&self, off: u64, buf: &mut [u8]) -> bool {
        let a = off as usize;
        match self.mem.get(a..a.saturating_add(buf.len())) {
            Some(s) => {
                buf.copy_from_slice(s);
                true
            }
            None => false,
        }
    }
    pub fn write_bytes(&mut self, off: u64, data: &[u8]) -> bool {
        let a = off as usize;
        match self.mem.get_mut(a..a.saturating_add(data.len())) {
            Some(s) => {
                s.copy_from_slice(data);
                true
            }
            None => false,
        }
    }
    /// Leaving soft reset re-initialises the RAM to zero unless `RISCV_DEBUG_REG_DISABLE_RESET`
    /// says otherwise (SoftReset.md "Upon leaving soft reset"). bhemu does it at once rather
    /// than over 2048 cycles.
    pub fn clear(&mut self) {
        self.mem.fill(0);
    }
}
