//! Register blocks whose behaviour bhemu models as plain storage or nearly so: TDMA-RISC
//! (`TDMA-RISC.md`), the PIC (`PIC.md`), Tensix GPRs (`ScalarUnit.md` "RISCV access to GPRs")
//! and backend configuration (`BackendConfiguration.md`).

/// A block of 32-bit registers kept as storage.
pub struct RegFile {
    words: Vec<u32>,
}

impl RegFile {
    pub fn new(bytes: u32) -> Self {
        RegFile {
            words: vec![0; (bytes / 4) as usize],
        }
    }
    pub fn read(&self, off: u32, width: u32) -> Option<u32> {
        let w = *self.words.get((off / 4) as usize)?;
        Some(extract(w, off, width))
    }
    /// Word stores replace the word; narrower stores merge into it.
    pub fn write(&mut self, off: u32, width: u32, value: u32) -> bool {
        match self.words.get_mut((off / 4) as usize) {
            Some(w) => {
                *w = merge(*w, off, width, value);
                true
            }
            None => false,
        }
    }
}

/// The `width`-byte field at byte `off & 3` of `word`.
pub fn extract(word: u32, off: u32, width: u32) -> u32 {
    let shift = 8 * (off & 3);
    match width {
        1 => (word >> shift) & 0xFF,
        2 => (word >> shift) & 0xFFFF,
        _ => word,
    }
}

/// `word` with the low `width` bytes of `value` stored at byte `off & 3`.
pub fn merge(word: u32, off: u32, width: u32, value: u32) -> u32 {
    let shift = 8 * (off & 3);
    let mask: u32 = match width {
        1 => 0xFF,
        2 => 0xFFFF,
        _ => return value,
    };
    (word & !(mask << shift)) | ((value & mask) << shift)
}

/// The Tensix tile's PIC (PIC.md). Interrupt delivery is not modelled (the firmware under test
/// does not enable it); software IRQ registers behave as documented single-slot queues.
pub struct Pic {
    regs: RegFile,
}

impl Default for Pic {
    fn default() -> Self {
        Self::new()
    }
}

const PIC_SW_INT: u32 = 0x18;
const PIC_HW_INT: u32 = 0x98;
pub const PIC_SIZE: u32 = 0x138;

impl Pic {
    pub fn new() -> Self {
        Pic {
            regs: RegFile::new(PIC_SIZE),
        }
    }
    /// Reading a raised `SW_INT[i]` returns its value and clears it (PIC.md "Software IRQs").
    pub fn read(&mut self, off: u32) -> Option<u32> {
        let v = self.regs.read(off & !3, 4)?;
        if (PIC_SW_INT..PIC_HW_INT).contains(&off) {
            self.regs.write(off & !3, 4, 0);
        }
        Some(v)
    }
    pub fn write(&mut self, off: u32, value: u32) -> Result<(), &'static str> {
        match off {
            0x08 | 0x14 => Err("BRISC_INT_NO / NCRISC_INT_NO are read-only"),
            o if (PIC_HW_INT..PIC_HW_INT + 16).contains(&o) => {
                Err("HW_INT registers are read-only")
            }
            o if o < PIC_SIZE => {
                self.regs.write(o & !3, 4, value);
                Ok(())
            }
            _ => Err("beyond the PIC registers"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subword_merge_and_extract() {
        assert_eq!(merge(0x1122_3344, 1, 1, 0xAB), 0x1122_AB44);
        assert_eq!(merge(0x1122_3344, 2, 2, 0xBEEF), 0xBEEF_3344);
        assert_eq!(extract(0x1122_3344, 3, 1), 0x11);
    }

    /// PIC.md: a read of a raised software IRQ returns the value and clears it.
    #[test]
    fn pic_software_irq_is_a_single_slot_queue() {
        let mut p = Pic::new();
        assert!(p.write(0x18 + 4 * 3, 5).is_ok());
        assert_eq!(p.read(0x18 + 4 * 3), Some(5));
        assert_eq!(p.read(0x18 + 4 * 3), Some(0));
        assert!(p.write(0x08, 1).is_err());
    }
}
