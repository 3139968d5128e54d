//! PCI configuration space of the one Blackhole endpoint (docs/tt-umd-sim-interface.md §2).
//!
//! Only BDF 0 holds a device; every other BDF reads all-ones, as an empty slot does (§1.4:
//! tt-umd's endpoint scan decides presence by offset 0). The BARs are 64-bit prefetchable
//! memory BARs and implement the sizing protocol (write all-ones, read back the size mask),
//! though tt-umd 0.9.14 never writes config space (§0).

/// `0xB140_1E52`: vendor 0x1E52 (low half), device 0xB140 = Blackhole (high half), §2.
pub const VENDOR_ID: u16 = 0x1E52;
pub const DEVICE_ID: u16 = 0xB140;
/// The device's bus/device/function (bus << 8 | device << 3 | function).
pub const DEVICE_BDF: u32 = 0;
/// Extended configuration space is 4 KiB per function.
pub const CONFIG_SPACE_BYTES: u32 = 4096;

/// Low nibble of a 64-bit prefetchable memory BAR: type 0b10 (64-bit) in bits 2:1, prefetchable
/// bit 3 (§2 "honest values ... low nibble 0xC").
const BAR_FLAGS: u64 = 0xC;

/// Sizes (§2): BAR0 reaches 0x2000_0000 (TLB windows, TLB registers, NIU, ARC APB), BAR4 holds
/// 8 × 4 GiB windows. BAR2's size is bhemu's choice: 1 MiB, enough for the iATU block at 0x1000.
pub const BAR0_SIZE: u64 = 512 << 20;
pub const BAR2_SIZE: u64 = 1 << 20;
pub const BAR4_SIZE: u64 = 32 << 30;

/// Power-on bases, bhemu's choice (§2: distinct, non-overlapping, low 4 bits clear); each is
/// aligned to its size as a real BAR is.
pub const BAR0_BASE: u64 = 0xC000_0000;
pub const BAR2_BASE: u64 = 0xE000_0000;
pub const BAR4_BASE: u64 = 0x8_0000_0000;

/// Command register bits bhemu sets at power-on: memory space enable (1) and bus master (2).
const COMMAND_RESET: u16 = 0x0006;
/// Writable command bits: I/O (0), memory (1), bus master (2), parity (6), SERR (8), INTx disable (10).
const COMMAND_WRITABLE: u16 = 0x0547;
/// Class code 0x12 "processing accelerator", subclass 0, prog-if 0; revision 0.
const CLASS_REVISION: u32 = 0x1200_0000;

/// Which BAR a config offset belongs to, with the BAR's index (0, 2, 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarId {
    Bar0,
    Bar2,
    Bar4,
}

impl BarId {
    pub const ALL: [BarId; 3] = [BarId::Bar0, BarId::Bar2, BarId::Bar4];
    pub fn size(self) -> u64 {
        match self {
            BarId::Bar0 => BAR0_SIZE,
            BarId::Bar2 => BAR2_SIZE,
            BarId::Bar4 => BAR4_SIZE,
        }
    }
    fn config_offset(self) -> u32 {
        match self {
            BarId::Bar0 => 0x10,
            BarId::Bar2 => 0x18,
            BarId::Bar4 => 0x20,
        }
    }
    fn slot(self) -> usize {
        match self {
            BarId::Bar0 => 0,
            BarId::Bar2 => 1,
            BarId::Bar4 => 2,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            BarId::Bar0 => "BAR0",
            BarId::Bar2 => "BAR2",
            BarId::Bar4 => "BAR4",
        }
    }
}

/// Why a config access got no data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// Offset not a multiple of 4.
    Unaligned,
    /// Offset ≥ 4096.
    OutOfRange,
}

#[derive(Clone, Debug)]
pub struct ConfigSpace {
    /// The PCI device number (bus 0, function 0): the chip's index in its system.
    device: u32,
    command: u16,
    /// BAR register value without flags (the base), per BAR (0, 2, 4).
    bars: [u64; 3],
}

impl Default for ConfigSpace {
    fn default() -> ConfigSpace {
        Self::of_device(0)
    }
}

/// How far apart the BARs of consecutive devices of a system lie: device i's BARs are device
/// 0's plus i × 64 GiB, beyond the top of BAR4 (docs/multi-chip.md MC-2), so a host address
/// names its device.
pub const DEVICE_STRIDE: u64 = 64 << 30;

impl ConfigSpace {
    /// The config space of PCI device `device` (bdf `device << 3`) of a system.
    pub fn of_device(device: u32) -> ConfigSpace {
        let shift = u64::from(device) * DEVICE_STRIDE;
        ConfigSpace {
            device,
            command: COMMAND_RESET,
            bars: [BAR0_BASE + shift, BAR2_BASE + shift, BAR4_BASE + shift],
        }
    }

    /// This function's bus/device/function number.
    pub fn bdf(&self) -> u32 {
        DEVICE_BDF | self.device << 3
    }

    /// Base address currently programmed in `bar`.
    pub fn bar_base(&self, bar: BarId) -> u64 {
        self.bars[bar.slot()]
    }

    /// Whether memory decoding is on (command bit 1). With it off the BARs answer nothing.
    pub fn memory_enabled(&self) -> bool {
        self.command & 2 != 0
    }

    fn check(offset: u32) -> Result<(), ConfigError> {
        if offset & 3 != 0 {
            Err(ConfigError::Unaligned)
        } else if offset >= CONFIG_SPACE_BYTES {
            Err(ConfigError::OutOfRange)
        } else {
            Ok(())
        }
    }

    /// A 32-bit read. Other BDFs answer all-ones (empty slot); unmodelled offsets of the device
    /// read 0, as unimplemented registers of a real function do.
    pub fn read32(&self, bdf: u32, offset: u32) -> Result<u32, ConfigError> {
        Self::check(offset)?;
        if bdf != self.bdf() {
            return Ok(0xFFFF_FFFF);
        }
        Ok(match offset {
            0x00 => u32::from(DEVICE_ID) << 16 | u32::from(VENDOR_ID),
            0x04 => u32::from(self.command),
            0x08 => CLASS_REVISION,
            0x2C => u32::from(VENDOR_ID),
            _ => {
                for bar in BarId::ALL {
                    let v = self.bars[bar.slot()] | BAR_FLAGS;
                    if offset == bar.config_offset() {
                        return Ok(v as u32);
                    }
                    if offset == bar.config_offset() + 4 {
                        return Ok((v >> 32) as u32);
                    }
                }
                0
            }
        })
    }

    /// A 32-bit write. Writable: the command register and the BAR base bits (so all-ones reads
    /// back the size mask); everything else is read-only and ignores the write.
    pub fn write32(&mut self, bdf: u32, offset: u32, data: u32) -> Result<(), ConfigError> {
        Self::check(offset)?;
        if bdf != self.bdf() {
            return Ok(());
        }
        if offset == 0x04 {
            self.command = (data as u16 & COMMAND_WRITABLE) | (self.command & !COMMAND_WRITABLE);
            return Ok(());
        }
        for bar in BarId::ALL {
            let mask = !(bar.size() - 1);
            let cur = &mut self.bars[bar.slot()];
            if offset == bar.config_offset() {
                *cur = ((*cur & !0xFFFF_FFFF) | u64::from(data)) & mask;
            } else if offset == bar.config_offset() + 4 {
                *cur = ((*cur & 0xFFFF_FFFF) | u64::from(data) << 32) & mask;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §2: offset 0 of BDF 0 is 0xB140_1E52.
    #[test]
    fn config_offset0_is_vendor_and_device() {
        let c = ConfigSpace::default();
        assert_eq!(c.read32(0, 0).unwrap(), 0xB140_1E52);
    }

    /// §1.4: the endpoint scan of bus 0 finds exactly one device; empty slots read all-ones.
    #[test]
    fn config_other_bdfs_read_all_ones() {
        let c = ConfigSpace::default();
        let present: Vec<u32> = (0..32)
            .map(|d| d << 3)
            .filter(|&bdf| c.read32(bdf, 0).unwrap() != 0xFFFF_FFFF)
            .collect();
        assert_eq!(present, vec![0]);
        assert_eq!(c.read32(0x100, 0x10).unwrap(), 0xFFFF_FFFF);
    }

    /// §2: tt-umd masks the low 4 bits of BAR low words; bases are distinct, aligned, 64-bit prefetchable.
    #[test]
    fn config_bars_are_64bit_prefetchable_with_their_bases() {
        let c = ConfigSpace::default();
        let bar = |lo: u32| {
            u64::from(c.read32(0, lo).unwrap()) | u64::from(c.read32(0, lo + 4).unwrap()) << 32
        };
        assert_eq!(bar(0x10), BAR0_BASE | 0xC);
        assert_eq!(bar(0x18), BAR2_BASE | 0xC);
        assert_eq!(bar(0x20), BAR4_BASE | 0xC);
        for b in BarId::ALL {
            assert_eq!(
                c.bar_base(b) % b.size(),
                0,
                "{} aligned to its size",
                b.name()
            );
        }
    }

    /// PCI BAR sizing: all-ones written, the size mask reads back; restoring the base restores it.
    #[test]
    fn config_bar_sizing_protocol() {
        let mut c = ConfigSpace::default();
        c.write32(0, 0x10, 0xFFFF_FFFF).unwrap();
        c.write32(0, 0x14, 0xFFFF_FFFF).unwrap();
        let lo = c.read32(0, 0x10).unwrap();
        let hi = c.read32(0, 0x14).unwrap();
        let size = !(u64::from(lo & !0xF) | u64::from(hi) << 32) + 1;
        assert_eq!(size, BAR0_SIZE);
        c.write32(0, 0x20, 0xFFFF_FFFF).unwrap();
        c.write32(0, 0x24, 0xFFFF_FFFF).unwrap();
        let size4 = !(u64::from(c.read32(0, 0x20).unwrap() & !0xF)
            | u64::from(c.read32(0, 0x24).unwrap()) << 32)
            + 1;
        assert_eq!(size4, BAR4_SIZE);
        c.write32(0, 0x10, BAR0_BASE as u32).unwrap();
        c.write32(0, 0x14, 0).unwrap();
        assert_eq!(c.bar_base(BarId::Bar0), BAR0_BASE);
    }

    #[test]
    fn config_ids_are_read_only_and_offsets_must_be_aligned() {
        let mut c = ConfigSpace::default();
        c.write32(0, 0, 0).unwrap();
        assert_eq!(c.read32(0, 0).unwrap(), 0xB140_1E52);
        assert_eq!(c.read32(0, 2), Err(ConfigError::Unaligned));
        assert_eq!(c.read32(0, 0x1000), Err(ConfigError::OutOfRange));
        assert_eq!(c.write32(0, 0x11, 1), Err(ConfigError::Unaligned));
        assert_eq!(c.read32(0, 0x08).unwrap() >> 24, 0x12);
        assert!(c.memory_enabled());
    }
}
