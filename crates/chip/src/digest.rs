//! A fingerprint of everything software can observe on the chip — every hart's architectural
//! state (with `cycle` and `instret`), each core's scheduler state and last MMIO access, every
//! L1, local RAM and custom CSR, DRAM and the chip's cycle count — kept per part so that a
//! mismatch names where two runs diverged. Used to check that the fast schedule computes
//! exactly what the reference schedule does.
use crate::chip::Chip;
use crate::tile::Core;

/// FNV-1a over 64-bit words: order-sensitive, cheap, and stable across builds.
pub(crate) struct Fnv(pub u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    #[inline]
    pub fn word(&mut self, w: u64) {
        self.0 ^= w;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
    pub fn bytes(&mut self, b: &[u8]) {
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        for &x in chunks.remainder() {
            self.word(u64::from(x));
        }
        self.word(b.len() as u64);
    }
}

/// Named part hashes, in a fixed order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipDigest {
    pub parts: Vec<(String, u64)>,
}

impl ChipDigest {
    /// The first part that differs from `other` (or a difference in the list itself).
    pub fn first_difference(&self, other: &ChipDigest) -> Option<String> {
        for (a, b) in self.parts.iter().zip(&other.parts) {
            if a != b {
                return Some(format!("{}: {:016x} vs {} {:016x}", a.0, a.1, b.0, b.1));
            }
        }
        (self.parts.len() != other.parts.len())
            .then(|| format!("{} parts vs {} parts", self.parts.len(), other.parts.len()))
    }

    /// All parts folded into one number, for printing.
    pub fn total(&self) -> u64 {
        let mut h = Fnv::new();
        for (_, v) in &self.parts {
            h.word(*v);
        }
        h.0
    }
}

impl Chip {
    /// See the module documentation. Parked harts are brought up to date first, so the digest
    /// is the state as of [`Chip::cycle`].
    pub fn digest(&mut self) -> Result<ChipDigest, crate::ChipError> {
        self.sync_parked()?;
        let mut parts = vec![("cycle".to_string(), self.cycle())];
        for t in self.tiles() {
            let n = t.node();
            for c in Core::ALL {
                let s = &t.cores[c.index()];
                let mut h = Fnv::new();
                s.hart.fold_arch_state(&mut |w| h.word(w));
                h.word(s.state as u64);
                h.word(u64::from(s.releases));
                h.word(u64::from(t.p.pcs[c.index()]));
                // What a hang report shows of the core besides its pc (EM-9).
                if let Some(m) = t.p.last_mmio[c.index()] {
                    h.word(u64::from(m.pc));
                    h.word(u64::from(m.addr));
                    h.word(
                        u64::from(m.width) | u64::from(m.write) << 8 | u64::from(m.stalled) << 9,
                    );
                    h.word(u64::from(m.value));
                    h.word(m.cycle);
                }
                for v in t.p.csrs[c.index()] {
                    h.word(u64::from(v));
                }
                parts.push((format!("tile ({},{}) {}", n.x, n.y, c.name()), h.0));
            }
            let mut h = Fnv::new();
            h.bytes(t.p.l1.bytes());
            parts.push((format!("tile ({},{}) L1", n.x, n.y), h.0));
            let mut h = Fnv::new();
            for r in &t.p.local {
                h.bytes(r.bytes());
            }
            parts.push((format!("tile ({},{}) local RAMs", n.x, n.y), h.0));
        }
        let mut h = Fnv::new();
        self.dram().fold_pages(&mut |ch, page, data| {
            h.word(ch as u64);
            h.word(page as u64);
            h.bytes(data);
        });
        parts.push(("DRAM".to_string(), h.0));
        self.advance_eth()?;
        self.eth().for_each_tile(|c, l1, cores| {
            let mut h = Fnv::new();
            h.bytes(l1);
            parts.push((format!("Ethernet channel {c} L1"), h.0));
            for (k, core) in cores.iter().enumerate() {
                let mut h = Fnv::new();
                core.fold_state(&mut |w| h.word(w));
                parts.push((format!("Ethernet channel {c} ERISC{k}"), h.0));
            }
        });
        Ok(ChipDigest { parts })
    }
}
