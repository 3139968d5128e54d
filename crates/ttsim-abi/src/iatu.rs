//! Outbound iATU regions reached through BAR2 + 0x1000 + r × 0x200 (docs/tt-umd-sim-interface.md
//! §4). They translate an offset inside the chip's NoC→host window (NoC address − 2⁶⁰) into
//! the host address handed to the DMA callbacks (§9).

/// Offset of region 0's registers in BAR2 (Blackhole; §4).
pub const IATU_OFFSET: u64 = 0x1000;
/// Stride between regions (§4).
pub const IATU_STRIDE: u64 = 0x200;
/// Regions bhemu models: 0.9.14 programs 0–3 and 5 (§4); the real bound
/// (`OUTBOUND_IATU_REGION_COUNT`) is not known, 16 is bhemu's choice.
pub const IATU_REGIONS: usize = 16;
pub const IATU_BYTES: usize = IATU_REGIONS * IATU_STRIDE as usize;

/// region_ctrl_2 bit 31 enables the region (§4 "REGION_EN").
const REGION_EN: u32 = 1 << 31;

// Register offsets inside a region (§4 table).
const CTRL_2: usize = 0x04;
const BASE_LO: usize = 0x08;
const BASE_HI: usize = 0x0C;
const LIMIT_LO: usize = 0x10;
const TARGET_LO: usize = 0x14;
const TARGET_HI: usize = 0x18;
const LIMIT_HI: usize = 0x1C;

/// One region as decoded from its registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub enabled: bool,
    pub base: u64,
    /// Inclusive.
    pub limit: u64,
    pub target: u64,
}

/// A piece of a translated host access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostPiece {
    /// Offset of the piece inside the request.
    pub at: usize,
    pub len: usize,
    /// Host address, or `None` if no enabled region covers the piece.
    pub paddr: Option<u64>,
}

/// The raw register block; writes of any size and alignment latch byte by byte.
#[derive(Clone, Debug)]
pub struct Iatu {
    bytes: Vec<u8>,
}

impl Default for Iatu {
    fn default() -> Iatu {
        Iatu {
            bytes: vec![0; IATU_BYTES],
        }
    }
}

impl Iatu {
    pub fn write(&mut self, off: usize, data: &[u8]) {
        self.bytes[off..off + data.len()].copy_from_slice(data);
    }
    pub fn read(&self, off: usize, dst: &mut [u8]) {
        dst.copy_from_slice(&self.bytes[off..off + dst.len()]);
    }
    fn word(&self, r: usize, reg: usize) -> u32 {
        let o = r * IATU_STRIDE as usize + reg;
        u32::from_le_bytes([
            self.bytes[o],
            self.bytes[o + 1],
            self.bytes[o + 2],
            self.bytes[o + 3],
        ])
    }

    /// Region `r`. The limit's upper half is the base's upper half unless limit-hi (+0x1C) was
    /// written non-zero: tt-umd's simulation path leaves +0x1C unwritten (§4 table).
    pub fn region(&self, r: usize) -> Region {
        let base = u64::from(self.word(r, BASE_HI)) << 32 | u64::from(self.word(r, BASE_LO));
        let limit_hi = self.word(r, LIMIT_HI);
        let limit_hi = if limit_hi == 0 {
            self.word(r, BASE_HI)
        } else {
            limit_hi
        };
        Region {
            enabled: self.word(r, CTRL_2) & REGION_EN != 0,
            base,
            limit: u64::from(limit_hi) << 32 | u64::from(self.word(r, LIMIT_LO)),
            target: u64::from(self.word(r, TARGET_HI)) << 32 | u64::from(self.word(r, TARGET_LO)),
        }
    }

    /// Whether any region is enabled.
    pub fn any_enabled(&self) -> bool {
        (0..IATU_REGIONS).any(|r| self.region(r).enabled)
    }

    /// Translate `len` bytes at window offset `off`, split where regions end. An enabled region
    /// with `base ≤ off ≤ limit` maps `off` to `target + (off − base)` (§4); the lowest-numbered
    /// matching region wins.
    pub fn translate(&self, off: u64, len: usize) -> Vec<HostPiece> {
        let mut out: Vec<HostPiece> = Vec::new();
        let mut at = 0usize;
        while at < len {
            let a = off.wrapping_add(at as u64);
            let left = (len - at) as u64;
            let hit = (0..IATU_REGIONS)
                .map(|r| self.region(r))
                .find(|g| g.enabled && g.base <= g.limit && g.base <= a && a <= g.limit);
            let (n, paddr) = match hit {
                Some(g) => (
                    (g.limit - a).saturating_add(1).min(left),
                    Some(g.target.wrapping_add(a - g.base)),
                ),
                None => {
                    // Up to the start of the next enabled region, or the end.
                    let next = (0..IATU_REGIONS)
                        .map(|r| self.region(r))
                        .filter(|g| g.enabled && g.base > a)
                        .map(|g| g.base - a)
                        .min();
                    (next.unwrap_or(left).min(left), None)
                }
            };
            let n = n as usize;
            match out.last_mut() {
                Some(p) if p.paddr.is_none() && paddr.is_none() => p.len += n,
                _ => out.push(HostPiece { at, len: n, paddr }),
            }
            at += n;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §4 write order: +4 ← 0, +0, +8, +C, +10, +14, +18, +4 ← 0x8000_0000.
    fn program(i: &mut Iatu, r: usize, base: u64, limit: u64, target: u64) {
        let o = r * IATU_STRIDE as usize;
        for (reg, v) in [
            (4, 0u32),
            (0, 0),
            (8, base as u32),
            (0xC, (base >> 32) as u32),
            (0x10, limit as u32),
            (0x14, target as u32),
            (0x18, (target >> 32) as u32),
            (4, REGION_EN),
        ] {
            i.write(o + reg, &v.to_le_bytes());
        }
    }

    #[test]
    fn iatu_region_is_valid_only_once_enabled() {
        let mut i = Iatu::default();
        i.write(5 * 0x200 + 8, &0u32.to_le_bytes());
        i.write(5 * 0x200 + 0x10, &0xFFFD_FFFFu32.to_le_bytes());
        assert!(!i.any_enabled());
        assert_eq!(
            i.translate(0x10, 4),
            vec![HostPiece {
                at: 0,
                len: 4,
                paddr: None
            }]
        );
        i.write(5 * 0x200 + 4, &REGION_EN.to_le_bytes());
        assert_eq!(
            i.translate(0x10, 4),
            vec![HostPiece {
                at: 0,
                len: 4,
                paddr: Some(0x10)
            }]
        );
    }

    /// §4 table, N = 2: channels 0 and 1 of 1 GiB, region 5 maps the rest identically.
    #[test]
    fn iatu_translation_splits_at_region_ends() {
        let mut i = Iatu::default();
        program(&mut i, 0, 0, 0x3FFF_FFFF, 0);
        program(&mut i, 1, 0x4000_0000, 0x7FFF_FFFF, 0x4000_0000);
        program(&mut i, 5, 0x8000_0000, 0xFFFD_FFFF, 0x8000_0000);
        assert_eq!(
            i.region(1),
            Region {
                enabled: true,
                base: 0x4000_0000,
                limit: 0x7FFF_FFFF,
                target: 0x4000_0000
            }
        );
        assert_eq!(
            i.translate(0x4000_0010, 8),
            vec![HostPiece {
                at: 0,
                len: 8,
                paddr: Some(0x4000_0010)
            }]
        );
        assert_eq!(
            i.translate(0x3FFF_FFFC, 8),
            vec![
                HostPiece {
                    at: 0,
                    len: 4,
                    paddr: Some(0x3FFF_FFFC)
                },
                HostPiece {
                    at: 4,
                    len: 4,
                    paddr: Some(0x4000_0000)
                }
            ]
        );
        assert_eq!(
            i.translate(0xFFFD_FFFE, 4),
            vec![
                HostPiece {
                    at: 0,
                    len: 2,
                    paddr: Some(0xFFFD_FFFE)
                },
                HostPiece {
                    at: 2,
                    len: 2,
                    paddr: None
                }
            ]
        );
    }

    #[test]
    fn iatu_target_offsets_rebase() {
        let mut i = Iatu::default();
        program(&mut i, 2, 0x1000, 0x1FFF, 0x10_0000_0000);
        assert_eq!(i.translate(0x1800, 1)[0].paddr, Some(0x10_0000_0800));
        assert_eq!(
            i.translate(0x800, 0x1000),
            vec![
                HostPiece {
                    at: 0,
                    len: 0x800,
                    paddr: None
                },
                HostPiece {
                    at: 0x800,
                    len: 0x800,
                    paddr: Some(0x10_0000_0000)
                }
            ]
        );
    }
}
