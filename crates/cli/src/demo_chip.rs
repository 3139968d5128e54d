//! `bhemu demo`'s chip job: all 140 Tensix tiles compute a 32x32 bf16 `A + B` and `B @ A` on
//! the emulated coprocessor, each on its own seeded random tiles, from the project's own
//! bare-metal kernels (crates/cli/demo/src, rebuilt by scripts/build-demo-kernels.sh): BRISC
//! configures and releases the TRISCs; TRISC0 unpacks, TRISC1 runs ELWADD and MVMUL, TRISC2
//! packs and raises a done flag. Every output is compared bit for bit with [`crate::demo_ref`].
use std::time::{Duration, Instant};

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN};
use bhemu_chip::{Chip, ChipConfig};

use crate::demo_ref;
use crate::CliError;

/// The kernels, one per core, each linked at that core's reset pc.
pub const KERNELS: [(&str, &[u8]); 4] = [
    ("brisc.elf", include_bytes!("../demo/brisc.elf")),
    ("trisc0.elf", include_bytes!("../demo/trisc0.elf")),
    ("trisc1.elf", include_bytes!("../demo/trisc1.elf")),
    ("trisc2.elf", include_bytes!("../demo/trisc2.elf")),
];

const L1_A: u64 = 0x20000;
const L1_B: u64 = 0x20800;
const L1_SUM: u64 = 0x30000;
const L1_PRODUCT: u64 = 0x30800;
const L1_DONE: u32 = 0x31000;
const DONE: u32 = 0x600D_F00D;
/// MVMULs per tile in trisc1.c (4 output faces x 2 k-faces x 2 row halves x 4 phases), each
/// 8x16x16 multiply-adds.
pub const MVMULS_PER_TILE: u64 = 64;
/// Far beyond the few thousand cycles the job takes; reaching it is reported as a hang.
const MAX_CYCLES: u64 = 1_000_000;

/// What the job did.
pub struct ChipJob {
    pub tiles: usize,
    pub cycles: u64,
    pub wall: Duration,
    /// Tiles whose `A + B` / `B @ A` equal the reference bit for bit.
    pub sum_exact: usize,
    pub product_exact: usize,
    /// The first differing datum, as a sentence.
    pub first_mismatch: Option<String>,
    /// The first tile's coordinates and its `(A + B)[0][0]`, `(B @ A)[0][0]` as computed.
    pub sample: Option<((u8, u8), f32, f32)>,
}

impl ChipJob {
    pub fn tile_clocks_per_second(&self) -> f64 {
        self.tiles as f64 * self.cycles as f64 / self.wall.as_secs_f64().max(1e-9)
    }

    /// Matrix Unit multiply-adds (MVMUL only) per wall second.
    pub fn multiply_adds_per_second(&self) -> f64 {
        (self.tiles as u64 * MVMULS_PER_TILE * 8 * 16 * 16) as f64
            / self.wall.as_secs_f64().max(1e-9)
    }
}

/// xorshift64: the tiles' inputs are reproducible from the tile's index.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// 1024 random BF16 values, magnitudes 2^-8 .. 2^8, both signs.
fn random_tile(r: &mut Rng) -> Vec<u16> {
    (0..1024)
        .map(|_| {
            let x = r.next();
            let sign = (x & 0x8000) as u16;
            let exp = 119 + ((x >> 20) % 16) as u16;
            sign | (exp << 7) | ((x >> 40) & 0x7f) as u16
        })
        .collect()
}

/// Tile `i`'s inputs A and B.
pub fn inputs(i: usize) -> (Vec<u16>, Vec<u16>) {
    let mut r = Rng(0xB1AC_4013_0000_0000 ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (random_tile(&mut r), random_tile(&mut r))
}

fn bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn chip_err(e: impl std::fmt::Display) -> CliError {
    CliError::new(format!("demo (chip): {e}"))
}

/// Runs the job on all 140 tiles.
pub fn run() -> Result<ChipJob, CliError> {
    let mut chip = Chip::new(&ChipConfig::default()).map_err(chip_err)?;
    let images = KERNELS
        .iter()
        .map(|(name, b)| ElfImage::parse(b, name).map_err(chip_err))
        .collect::<Result<Vec<_>, _>>()?;
    let coords: Vec<(u8, u8)> = chip
        .tiles()
        .iter()
        .map(|t| (t.node().x, t.node().y))
        .collect();
    let mut expected = Vec::with_capacity(coords.len());
    for (i, &(x, y)) in coords.iter().enumerate() {
        for img in &images {
            for s in &img.segments {
                let mut data = s.data.clone();
                data.resize(s.mem_size.max(data.len() as u32) as usize, 0);
                chip.write_l1(x, y, u64::from(s.addr), &data)
                    .map_err(chip_err)?;
            }
        }
        let (a, b) = inputs(i);
        chip.write_l1(x, y, L1_A, &bytes(&a)).map_err(chip_err)?;
        chip.write_l1(x, y, L1_B, &bytes(&b)).map_err(chip_err)?;
        expected.push((demo_ref::elwadd(&a, &b), demo_ref::matmul(&a, &b)));
    }
    let start = Instant::now();
    let c0 = chip.cycle();
    for &(x, y) in &coords {
        chip.write_reg(x, y, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)
            .map_err(chip_err)?;
    }
    let done = chip
        .run_until_l1(MAX_CYCLES, |c| {
            c.tiles()
                .iter()
                .all(|t| t.read_l1_u32(L1_DONE).ok() == Some(DONE))
        })
        .map_err(chip_err)?;
    let wall = start.elapsed();
    let cycles = chip.cycle() - c0;
    if !done {
        let waiting: Vec<String> = chip
            .tiles()
            .iter()
            .filter(|t| t.read_l1_u32(L1_DONE).ok() != Some(DONE))
            .take(4)
            .map(|t| format!("({},{})", t.node().x, t.node().y))
            .collect();
        return Err(chip_err(format!(
            "tiles {} not done after {cycles} cycles",
            waiting.join(" ")
        )));
    }
    let mut job = ChipJob {
        tiles: coords.len(),
        cycles,
        wall,
        sum_exact: 0,
        product_exact: 0,
        first_mismatch: None,
        sample: None,
    };
    for (&(x, y), (sum, product)) in coords.iter().zip(&expected) {
        for (what, addr, want, count) in [
            ("A + B", L1_SUM, sum, &mut job.sum_exact),
            ("B @ A", L1_PRODUCT, product, &mut job.product_exact),
        ] {
            let mut raw = vec![0u8; 2048];
            chip.read_l1(x, y, addr, &mut raw).map_err(chip_err)?;
            let got: Vec<u16> = raw
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect();
            match got.iter().zip(want).position(|(g, w)| g != w) {
                None => *count += 1,
                Some(i) if job.first_mismatch.is_none() => {
                    job.first_mismatch = Some(format!(
                        "tile ({x},{y}) {what} datum {i}: bf16 {:#06x}, reference {:#06x}",
                        got[i], want[i]
                    ));
                }
                Some(_) => {}
            }
        }
    }
    if let Some(&(x, y)) = coords.first() {
        let mut first = |addr: u64| -> Result<f32, CliError> {
            let mut b = [0u8; 2];
            chip.read_l1(x, y, addr, &mut b).map_err(chip_err)?;
            Ok(f32::from_bits(u32::from(u16::from_le_bytes(b)) << 16))
        };
        job.sample = Some(((x, y), first(L1_SUM)?, first(L1_PRODUCT)?));
    }
    Ok(job)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The job's verdict: every tile's A + B and B @ A equal the reference bit for bit, and
    /// the reference is not trivially satisfied (nonzero, different on every tile).
    #[test]
    fn chip_job_bit_exact_on_all_140_tiles() {
        let j = run().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(j.tiles, 140);
        assert_eq!(j.first_mismatch, None);
        assert_eq!((j.sum_exact, j.product_exact), (140, 140));
        let (a0, b0) = inputs(0);
        let (a1, _) = inputs(1);
        assert_ne!(a0, a1, "tiles get different inputs");
        let p = demo_ref::matmul(&a0, &b0);
        assert!(p.iter().filter(|&&v| v & 0x7fff != 0).count() > 1000);
        let s = demo_ref::elwadd(&a0, &b0);
        assert!(s.iter().filter(|&&v| v & 0x7fff != 0).count() > 1000);
    }

    /// Runs are deterministic: the same job takes the same number of cycles.
    #[test]
    fn chip_job_deterministic_cycles() {
        let a = run().unwrap_or_else(|e| panic!("{e}"));
        let b = run().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.cycles, b.cycles);
        assert!(a.cycles > 100, "{} cycles", a.cycles);
    }
}
