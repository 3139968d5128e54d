//! Blackhole TLB windows: 202 × 2 MiB in BAR0, 8 × 4 GiB in BAR4, and their 12-byte
//! configuration entries at BAR0 + 0x1FC0_0000 (docs/tt-umd-sim-interface.md §3; tt-umd
//! `blackhole_implementation.hpp` TLB_2M_OFFSET / TLB_4G_OFFSET).

/// Number of 2 MiB windows, indices 0–201 (`TLB_COUNT_2M`, §3.1).
pub const TLB_COUNT_2M: usize = 202;
/// Number of 4 GiB windows, indices 202–209 (`TLB_COUNT_4G`, §3.1).
pub const TLB_COUNT_4G: usize = 8;
pub const TLB_COUNT: usize = TLB_COUNT_2M + TLB_COUNT_4G;
pub const TLB_2M_SIZE: u64 = 2 << 20;
pub const TLB_4G_SIZE: u64 = 4 << 30;
/// Offset of the configuration entries in BAR0 (`STATIC_TLB_CFG_ADDR`, §3.1).
pub const TLB_CFG_OFFSET: u64 = 0x1FC0_0000;
/// Bytes per configuration entry (`TLB_CFG_REG_SIZE_BYTES`, §3.1).
pub const TLB_CFG_ENTRY_BYTES: usize = 12;
pub const TLB_CFG_BYTES: usize = TLB_COUNT * TLB_CFG_ENTRY_BYTES;

/// Window sizes, which select the entry layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowKind {
    Tlb2M,
    Tlb4G,
}

impl WindowKind {
    pub fn of_index(index: usize) -> WindowKind {
        if index < TLB_COUNT_2M {
            WindowKind::Tlb2M
        } else {
            WindowKind::Tlb4G
        }
    }
    pub fn size(self) -> u64 {
        match self {
            WindowKind::Tlb2M => TLB_2M_SIZE,
            WindowKind::Tlb4G => TLB_4G_SIZE,
        }
    }
    /// Start bit of each field, in the order of [`TlbEntry`], then the end of the last field
    /// (§3.3 table: each field runs up to the next one's start).
    fn offsets(self) -> [u32; 11] {
        match self {
            //                 local x_end y_end x_st y_st noc mcast ord linked vc end
            WindowKind::Tlb2M => [0, 43, 49, 55, 61, 67, 69, 70, 72, 73, 75],
            WindowKind::Tlb4G => [0, 32, 38, 44, 50, 56, 58, 59, 61, 62, 64],
        }
    }
}

/// Request ordering of a window (§3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    Relaxed,
    Strict,
    Posted,
    /// The value 3, which tt-umd never writes.
    Reserved,
}

/// One decoded configuration entry. Every field of the §3.3 bit layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TlbEntry {
    /// Target address ÷ window size.
    pub local_offset: u64,
    pub x_end: u32,
    pub y_end: u32,
    pub x_start: u32,
    pub y_start: u32,
    pub noc_sel: u8,
    pub mcast: bool,
    /// 0 relaxed, 1 strict, 2 posted.
    pub ordering: u8,
    pub linked: bool,
    pub static_vc: u8,
}

fn bits(v: u128, lo: u32, hi: u32) -> u64 {
    ((v >> lo) & ((1u128 << (hi - lo)) - 1)) as u64
}

impl TlbEntry {
    /// Decode the 96-bit entry (three little-endian words, w0 lowest).
    pub fn decode(kind: WindowKind, words: [u32; 3]) -> TlbEntry {
        let v = u128::from(words[0]) | u128::from(words[1]) << 32 | u128::from(words[2]) << 64;
        let o = kind.offsets();
        TlbEntry {
            local_offset: bits(v, o[0], o[1]),
            x_end: bits(v, o[1], o[2]) as u32,
            y_end: bits(v, o[2], o[3]) as u32,
            x_start: bits(v, o[3], o[4]) as u32,
            y_start: bits(v, o[4], o[5]) as u32,
            noc_sel: bits(v, o[5], o[6]) as u8,
            mcast: bits(v, o[6], o[7]) != 0,
            ordering: bits(v, o[7], o[8]) as u8,
            linked: bits(v, o[8], o[9]) != 0,
            static_vc: bits(v, o[9], o[10]) as u8,
        }
    }

    /// Pack into three words, as tt-umd's `pack_bits` does; fields are truncated to their width.
    pub fn encode(&self, kind: WindowKind) -> [u32; 3] {
        let o = kind.offsets();
        let fields = [
            self.local_offset,
            u64::from(self.x_end),
            u64::from(self.y_end),
            u64::from(self.x_start),
            u64::from(self.y_start),
            u64::from(self.noc_sel),
            u64::from(self.mcast),
            u64::from(self.ordering),
            u64::from(self.linked),
            u64::from(self.static_vc),
        ];
        let mut v: u128 = 0;
        for (i, f) in fields.iter().enumerate() {
            let width = o[i + 1] - o[i];
            v |= (u128::from(*f) & ((1u128 << width) - 1)) << o[i];
        }
        [v as u32, (v >> 32) as u32, (v >> 64) as u32]
    }

    pub fn ordering(&self) -> Ordering {
        match self.ordering {
            0 => Ordering::Relaxed,
            1 => Ordering::Strict,
            2 => Ordering::Posted,
            _ => Ordering::Reserved,
        }
    }

    /// NoC address of byte `offset` of the window.
    pub fn target(&self, kind: WindowKind, offset: u64) -> u64 {
        self.local_offset
            .wrapping_mul(kind.size())
            .wrapping_add(offset)
    }
}

/// The 210 configuration entries as raw bytes: writes of any size and alignment latch byte by
/// byte, and the entry is decoded when a window is used (§3.3: "latch each word as it arrives").
#[derive(Clone, Debug)]
pub struct TlbRegs {
    bytes: Vec<u8>,
}

impl Default for TlbRegs {
    fn default() -> TlbRegs {
        TlbRegs {
            bytes: vec![0; TLB_CFG_BYTES],
        }
    }
}

impl TlbRegs {
    /// `off` + `data.len()` must lie inside the register block (the caller routes).
    pub fn write(&mut self, off: usize, data: &[u8]) {
        self.bytes[off..off + data.len()].copy_from_slice(data);
    }
    pub fn read(&self, off: usize, dst: &mut [u8]) {
        dst.copy_from_slice(&self.bytes[off..off + dst.len()]);
    }
    pub fn words(&self, index: usize) -> [u32; 3] {
        let b = &self.bytes[index * TLB_CFG_ENTRY_BYTES..(index + 1) * TLB_CFG_ENTRY_BYTES];
        let w = |i: usize| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        [w(0), w(1), w(2)]
    }
    pub fn entry(&self, index: usize) -> TlbEntry {
        TlbEntry::decode(WindowKind::of_index(index), self.words(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §3.3 word formulas: w1 = local_offset[42:32] | x_end<<11 | y_end<<17 | x_start<<23 | (y_start&7)<<29.
    #[test]
    fn tlb_2m_word_layout_matches_the_notes_formulas() {
        let e = TlbEntry {
            local_offset: 0x5_1234_5678,
            x_end: 0x2A,
            y_end: 0x15,
            x_start: 0x3F,
            y_start: 0x2D,
            noc_sel: 1,
            mcast: true,
            ordering: 2,
            linked: true,
            static_vc: 3,
        };
        let w = e.encode(WindowKind::Tlb2M);
        assert_eq!(w[0], 0x1234_5678);
        assert_eq!(
            w[1],
            0x5 | 0x2A << 11 | 0x15 << 17 | 0x3F << 23 | (0x2D & 7) << 29
        );
        assert_eq!(
            w[2],
            (0x2D >> 3) | 1 << 3 | 1 << 5 | 2 << 6 | 1 << 8 | 3 << 9
        );
        assert_eq!(TlbEntry::decode(WindowKind::Tlb2M, w), e);
    }

    /// §3.3 "Checked against the trace": tile (1,2) gives w1 = 0x0004_0800, tile (18,23) 0x002E_9000.
    #[test]
    fn tlb_2m_trace_values_decode_to_their_tiles() {
        let e = TlbEntry::decode(WindowKind::Tlb2M, [0, 0x0004_0800, 0]);
        assert_eq!((e.x_end, e.y_end, e.local_offset), (1, 2, 0));
        let e = TlbEntry::decode(WindowKind::Tlb2M, [0, 0x002E_9000, 0]);
        assert_eq!((e.x_end, e.y_end), (18, 23));
    }

    /// §5: the soft-reset access uses w0 = 0x7FD, i.e. window 0xFFA0_0000.
    #[test]
    fn tlb_2m_local_offset_is_address_divided_by_window_size() {
        let e = TlbEntry::decode(WindowKind::Tlb2M, [0x7FD, 0x0004_0800, 0]);
        assert_eq!(e.target(WindowKind::Tlb2M, 0x1121B0), 0xFFB1_21B0);
    }

    /// §3.3: 43-bit local offset spills 11 bits into w1.
    #[test]
    fn tlb_2m_local_offset_uses_all_43_bits() {
        let e = TlbEntry::decode(WindowKind::Tlb2M, [0xFFFF_FFFF, 0x7FF, 0]);
        assert_eq!(e.local_offset, (1 << 43) - 1);
        assert_eq!(e.x_end, 0);
    }

    /// §3.3 4 GiB column: local_offset 0–31, x_end 32–37, y_end 38–43, x_start 44–49,
    /// y_start 50–55, noc_sel 56–57, mcast 58, ordering 59–60, linked 61, static_vc 62–63.
    #[test]
    fn tlb_4g_fields_sit_at_their_bits() {
        let w1 = 3 | 4 << 6 | 5 << 12 | 6 << 18 | 1 << 24 | 1 << 26 | 1 << 27 | 1 << 29 | 2 << 30;
        let e = TlbEntry::decode(WindowKind::Tlb4G, [0x12, w1, 0xFFFF_FFFF]);
        assert_eq!(
            e,
            TlbEntry {
                local_offset: 0x12,
                x_end: 3,
                y_end: 4,
                x_start: 5,
                y_start: 6,
                noc_sel: 1,
                mcast: true,
                ordering: 1,
                linked: true,
                static_vc: 2
            }
        );
        assert_eq!(e.target(WindowKind::Tlb4G, 0x10), 0x12 * TLB_4G_SIZE + 0x10);
        assert_eq!(
            TlbEntry::decode(WindowKind::Tlb4G, e.encode(WindowKind::Tlb4G)),
            e
        );
    }

    /// §3.3: bits 75–95 of a 2 MiB entry are unused and ignored.
    #[test]
    fn tlb_2m_unused_bits_are_ignored() {
        let e = TlbEntry::decode(WindowKind::Tlb2M, [0, 0, 0xFFFF_F800]);
        assert_eq!(e, TlbEntry::default());
        assert_eq!(e.ordering(), Ordering::Relaxed);
    }

    #[test]
    fn tlb_regs_latch_unaligned_byte_writes() {
        let mut r = TlbRegs::default();
        let w = TlbEntry {
            local_offset: 1,
            x_end: 1,
            y_end: 2,
            ..TlbEntry::default()
        }
        .encode(WindowKind::Tlb2M);
        let mut bytes = Vec::new();
        for x in w {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        // Entry 5, written as 3 + 5 + 4 bytes.
        let base = 5 * TLB_CFG_ENTRY_BYTES;
        r.write(base, &bytes[..3]);
        r.write(base + 3, &bytes[3..8]);
        r.write(base + 8, &bytes[8..]);
        assert_eq!(r.words(5), w);
        assert_eq!(
            (r.entry(5).x_end, r.entry(5).y_end, r.entry(5).local_offset),
            (1, 2, 1)
        );
        assert_eq!(WindowKind::of_index(201), WindowKind::Tlb2M);
        assert_eq!(WindowKind::of_index(202), WindowKind::Tlb4G);
    }
}
