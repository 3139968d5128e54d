//! NoC overlay stream registers at `0xFFB4_0000` (64 streams, `0x1000` apart; register `r` of
//! stream `s` at `+ s*0x1000 + 4r`: `STREAM_REG_ADDR` of tt-metal's Blackhole
//! `noc_overlay_parameters.h`). bhemu models only their use as general-purpose registers
//! (tt-isa-documentation `WormholeB0/NoC/Overlay/AsGeneralUse.md`), which is how the firmware
//! uses them: circular-buffer "tiles received" / "tiles acked" counters live in
//! `STREAM_REMOTE_DEST_BUF_SIZE` (10) and `STREAM_REMOTE_DEST_BUF_START` (8) of stream
//! `operand` (`stream_io_map.h`), and TRISC0 zeroes them at boot. Streams never transfer data.

pub const STREAMS: usize = 64;
/// Register indices kept as storage: the configuration block 0..=41 (through
/// `STREAM_SCRATCH_REG_INDEX + 5`) rounded up.
const STORED: usize = 64;
const REMOTE_DEST_BUF_START: usize = 8;
const REMOTE_DEST_BUF_SIZE: usize = 10;
const REMOTE_DEST_WR_PTR: usize = 11;
const BUF_START: usize = 17;
const RD_PTR: usize = 19;
const WR_PTR: usize = 20;
const REMOTE_DEST_BUF_SPACE_AVAILABLE_UPDATE: usize = 270;
const REMOTE_DEST_BUF_SPACE_AVAILABLE: usize = 297;
const MASK17: u32 = (1 << 17) - 1;

pub struct Overlay {
    regs: Vec<u32>,
    space_available: [u32; STREAMS],
    /// Bit per stream written (by a core or the coprocessor's `STOREREG`) since
    /// [`Overlay::take_written`], so that the tile can wake the cores parked on a poll of that
    /// stream's registers (see `tile::park`). A write changes only its own stream's registers.
    written: u64,
}

impl Default for Overlay {
    fn default() -> Self {
        Self::new()
    }
}

fn split(off: u32) -> (usize, usize) {
    ((off >> 12) as usize, ((off & 0xFFF) >> 2) as usize)
}

impl Overlay {
    pub fn new() -> Self {
        Overlay {
            regs: vec![0; STREAMS * STORED],
            space_available: [0; STREAMS],
            written: 0,
        }
    }

    /// The streams written since the last call (bit per stream), cleared.
    #[inline]
    pub fn take_written(&mut self) -> u64 {
        std::mem::take(&mut self.written)
    }

    /// The stream whose register is at `off` from the overlay base.
    pub fn stream_of(off: u32) -> usize {
        split(off).0
    }

    /// A word read at `off` from the overlay base.
    pub fn read(&self, off: u32) -> Result<u32, String> {
        let (s, r) = split(off);
        if s >= STREAMS {
            return Err(format!("overlay stream {s} does not exist (64 streams)"));
        }
        match r {
            r if r < STORED => Ok(self.regs[s * STORED + r]),
            REMOTE_DEST_BUF_SPACE_AVAILABLE => Ok(self.space_available[s]),
            _ => Err(format!(
                "overlay stream {s} register index {r} is not modelled"
            )),
        }
    }

    /// A word write at `off` with the side effects AsGeneralUse.md lists.
    pub fn write(&mut self, off: u32, value: u32) -> Result<(), String> {
        let (s, r) = split(off);
        if s >= STREAMS {
            return Err(format!("overlay stream {s} does not exist (64 streams)"));
        }
        self.written |= 1 << s;
        let base = s * STORED;
        match r {
            REMOTE_DEST_BUF_START => {
                self.regs[base + r] = value & MASK17;
                self.regs[base + REMOTE_DEST_WR_PTR] = 0;
            }
            REMOTE_DEST_BUF_SIZE => {
                self.regs[base + r] = value & MASK17;
                self.space_available[s] = value & MASK17;
            }
            REMOTE_DEST_WR_PTR => self.regs[base + r] = value & MASK17,
            BUF_START => {
                self.regs[base + r] = value & MASK17;
                self.regs[base + RD_PTR] = 0;
                self.regs[base + WR_PTR] = 0;
            }
            r if r < STORED => self.regs[base + r] = value,
            REMOTE_DEST_BUF_SPACE_AVAILABLE_UPDATE => {
                // (j << 6) + i increments SPACE_AVAILABLE[i] by j; only i == 0 exists for
                // streams that do not multicast.
                if value & 0x3F == 0 {
                    self.space_available[s] = (self.space_available[s] + (value >> 6)) & MASK17;
                } else {
                    return Err(format!(
                        "stream {s}: SPACE_AVAILABLE index {} needs a multicast stream",
                        value & 0x3F
                    ));
                }
            }
            _ => {
                return Err(format!(
                    "overlay stream {s} register index {r} is not modelled"
                ))
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AsGeneralUse.md: BUF_SIZE also sets SPACE_AVAILABLE; BUF_START clears WR_PTR.
    #[test]
    fn general_use_side_effects() {
        let mut o = Overlay::new();
        let reg = |s: u32, r: u32| s * 0x1000 + 4 * r;
        assert!(o.write(reg(3, 11), 5).is_ok());
        assert!(o.write(reg(3, 8), 0x1_2345).is_ok());
        assert_eq!(o.read(reg(3, 11)), Ok(0));
        assert_eq!(o.read(reg(3, 8)), Ok(0x1_2345));
        assert!(o.write(reg(3, 10), 7).is_ok());
        assert_eq!(o.read(reg(3, 297)), Ok(7));
        assert!(o.write(reg(3, 270), 2 << 6).is_ok());
        assert_eq!(o.read(reg(3, 297)), Ok(9));
        assert!(o.read(reg(3, 400)).is_err());
        assert!(o.read(reg(64, 0)).is_err());
    }

    /// A write marks its stream written, once, whatever register it hits.
    #[test]
    fn writes_mark_their_stream_written() {
        let mut o = Overlay::new();
        let reg = |s: u32, r: u32| s * 0x1000 + 4 * r;
        assert_eq!(o.take_written(), 0);
        assert!(o.write(reg(3, 10), 7).is_ok());
        assert!(o.write(reg(63, 8), 1).is_ok());
        assert!(o.write(reg(3, 270), 1 << 6).is_ok());
        assert_eq!(o.take_written(), (1 << 3) | (1 << 63));
        assert_eq!(o.take_written(), 0);
        assert_eq!(Overlay::stream_of(reg(17, 297)), 17);
    }
}
