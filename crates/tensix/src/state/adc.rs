//! Address counters (ADCs) of the unpackers and packers: per thread, for each of
//! Unpacker 0, Unpacker 1 and the packers, two channels of X/Y/Z/W counters with their
//! carriage-return copies. Widths are the documented ones (`uint18_t X`, `uint13_t Y`,
//! `uint8_t Z`, `uint8_t W`); every write keeps only those bits, as the hardware does.
//!
//! Source: tt-isa-documentation: WormholeB0/TensixTile/TensixCoprocessor/ADCs.md.

/// One channel's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdcChannel {
    pub x: u32,
    pub x_cr: u32,
    pub y: u32,
    pub y_cr: u32,
    pub z: u32,
    pub z_cr: u32,
    pub w: u32,
    pub w_cr: u32,
}

/// The four counters of a channel by name (`SETADC`'s `XYZW` selector order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coord {
    X,
    Y,
    Z,
    W,
}

impl Coord {
    /// Mask of the counter's documented width.
    pub fn mask(self) -> u32 {
        match self {
            Coord::X => (1 << 18) - 1,
            Coord::Y => (1 << 13) - 1,
            Coord::Z | Coord::W => 0xff,
        }
    }
}

impl AdcChannel {
    /// Counter value.
    pub fn get(&self, c: Coord) -> u32 {
        match c {
            Coord::X => self.x,
            Coord::Y => self.y,
            Coord::Z => self.z,
            Coord::W => self.w,
        }
    }

    /// Carriage-return copy.
    pub fn get_cr(&self, c: Coord) -> u32 {
        match c {
            Coord::X => self.x_cr,
            Coord::Y => self.y_cr,
            Coord::Z => self.z_cr,
            Coord::W => self.w_cr,
        }
    }

    /// Sets the counter (truncated to its width).
    pub fn set(&mut self, c: Coord, v: u32) {
        let v = v & c.mask();
        match c {
            Coord::X => self.x = v,
            Coord::Y => self.y = v,
            Coord::Z => self.z = v,
            Coord::W => self.w = v,
        }
    }

    /// Sets the carriage-return copy (truncated to its width).
    pub fn set_cr(&mut self, c: Coord, v: u32) {
        let v = v & c.mask();
        match c {
            Coord::X => self.x_cr = v,
            Coord::Y => self.y_cr = v,
            Coord::Z => self.z_cr = v,
            Coord::W => self.w_cr = v,
        }
    }

    /// Sets both the counter and its carriage-return copy (`SETADC` and friends).
    pub fn set_both(&mut self, c: Coord, v: u32) {
        self.set(c, v);
        self.set_cr(c, v);
    }
}

/// Which ADC set: `Unpacker[0]`, `Unpacker[1]` or `Packers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdcUnit {
    Unpacker0,
    Unpacker1,
    Packers,
}

/// One thread's ADCs: `Unpacker[2]` and `Packers`, each with `Channel[2]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adcs {
    pub unpacker: [[AdcChannel; 2]; 2],
    pub packers: [AdcChannel; 2],
}

impl Adcs {
    /// The two channels of one unit.
    pub fn unit(&self, u: AdcUnit) -> &[AdcChannel; 2] {
        match u {
            AdcUnit::Unpacker0 => &self.unpacker[0],
            AdcUnit::Unpacker1 => &self.unpacker[1],
            AdcUnit::Packers => &self.packers,
        }
    }

    /// The two channels of one unit, writable.
    pub fn unit_mut(&mut self, u: AdcUnit) -> &mut [AdcChannel; 2] {
        match u {
            AdcUnit::Unpacker0 => &mut self.unpacker[0],
            AdcUnit::Unpacker1 => &mut self.unpacker[1],
            AdcUnit::Packers => &mut self.packers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adc_counters_keep_their_documented_widths() {
        let mut c = AdcChannel::default();
        c.set_both(Coord::X, 0x7_ffff);
        c.set_both(Coord::Y, 0xffff);
        c.set(Coord::Z, 0x1ff);
        c.set(Coord::W, 0x100);
        assert_eq!((c.x, c.x_cr), (0x3_ffff, 0x3_ffff));
        assert_eq!((c.y, c.y_cr), (0x1fff, 0x1fff));
        assert_eq!((c.z, c.z_cr), (0xff, 0));
        assert_eq!(c.w, 0);
    }

    #[test]
    fn adc_units_are_separate() {
        let mut a = Adcs::default();
        a.unit_mut(AdcUnit::Unpacker1)[1].set(Coord::Y, 7);
        assert_eq!(a.unpacker[1][1].y, 7);
        assert_eq!(a.unit(AdcUnit::Unpacker0)[1].y, 0);
        assert_eq!(a.unit(AdcUnit::Packers)[1].y, 0);
    }
}
