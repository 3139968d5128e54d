//! A host-speed benchmark of the Vector Unit: a fixed kernel-like mix of instructions (loads,
//! MADs, integer and bit operations, conditional execution, conversions, a swap, stores)
//! issued back to back. For `examples/sfpu_bench.rs` and a `bhemu bench sfpu` hook.
use std::time::Instant;

use super::{Insn, SfpuContext, SrcbFormat, VectorUnit};
use crate::state::{DestAccessCfg, Dst};

/// The figures of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    /// Vector Unit instructions executed.
    pub instructions: u64,
    /// Host seconds taken.
    pub seconds: f64,
    /// Instructions that reported an error (0 for the built-in mix).
    pub errors: u64,
}

impl BenchReport {
    /// SFPU instructions per second of host time.
    pub fn per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.instructions as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// The mix: one iteration of an activation-like loop over four Dst rows.
const MIX: [u32; 16] = [
    0x7000_0000 | (1 << 20) | (3 << 16), // SFPLOAD  L1 <- Dst (FP32)
    0x8400_0000 | (1 << 16) | (1 << 12) | (10 << 8) | (2 << 4), // SFPMAD  L2 = L1*L1 + 1
    0x7500_0000 | (0x3f00 << 8) | (2 << 4), // SFPADDI L2 += 0.5
    0x8a00_0000 | (1 << 12) | 2,         // SFPENCC enable flags
    0x7b00_0000 | (1 << 8),              // SFPSETCC L1 < 0
    0x8600_0000 | (2 << 16) | (2 << 12) | (9 << 8) | (2 << 4), // SFPMUL L2 = L2*L2
    0x8a00_0000 | (1 << 12) | 2,         // SFPENCC (all lanes again)
    0x7900_0000 | (3 << 12) | (2 << 8) | (3 << 4) | 5, // SFPIADD L3 = L2 + 3
    0x7a00_0000 | (0xffe << 12) | (3 << 4) | 1, // SFPSHFT L3 >>= 2
    0x8e00_0000 | (1 << 12) | (2 << 8) | (4 << 4) | 1, // SFPSTOCHRND L4 = bf16(L2)
    0x7300_0000 | (5 << 20),             // SFPLUT  L5
    0x9200_0000 | (5 << 8) | (4 << 4) | 1, // SFPSWAP min/max L4, L5
    0x9000_0000 | (3 << 8) | (6 << 4),   // SFPCAST L6 = float(L3)
    0x8d00_0000 | (6 << 8) | (3 << 4),   // SFPXOR  L3 ^= L6
    0x7200_0000 | (2 << 20) | (3 << 16), // SFPSTORE L2 -> Dst (FP32)
    0x8f00_0000,                         // SFPNOP
];

/// Run about `instructions` instructions of the mix and time them.
pub fn run(instructions: u64) -> BenchReport {
    let mut vu = VectorUnit::new();
    let mut dst = Dst::new();
    for (i, row) in dst.bits_mut().iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (i as u16).wrapping_mul(31).wrapping_add(j as u16 * 7) ^ 0x3c00;
        }
    }
    let mut ctx = SfpuContext {
        dst: &mut dst,
        dst_cfg: DestAccessCfg::default(),
        addr: 0,
        srcb_format: SrcbFormat::Bf16,
    };
    // Decoded once, as the coprocessor's dispatcher hands the unit typed operands.
    let mix: Vec<Option<Insn>> = MIX.iter().map(|&w| Insn::decode(w)).collect();
    let iterations = instructions / MIX.len() as u64 + 1;
    let start = Instant::now();
    let mut errors = 0u64;
    for it in 0..iterations {
        ctx.addr = ((it as u32) * 4) & 0x3fc;
        for &insn in mix.iter() {
            if insn.is_none() || vu.cycle_insn(insn, &mut ctx).is_err() {
                errors += 1;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    BenchReport {
        instructions: vu.executed(),
        seconds,
        errors,
    }
}

/// The figures of the same mix issued through the coprocessor: thread T1's instruction FIFO,
/// its Wait Gate (automatic stalls included) and the dispatch to the unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoprocessorBenchReport {
    /// Vector Unit instructions executed.
    pub instructions: u64,
    /// Coprocessor cycles taken.
    pub cycles: u64,
    /// Host seconds taken.
    pub seconds: f64,
}

impl CoprocessorBenchReport {
    /// SFPU instructions per second of host time.
    pub fn per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.instructions as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Push about `instructions` instructions of the mix to thread T1 of a Blackhole
/// coprocessor and step it until they have all executed.
pub fn run_in_coprocessor(
    instructions: u64,
) -> Result<CoprocessorBenchReport, crate::error::TensixError> {
    use crate::coprocessor::{Coprocessor, PushSource};
    use crate::fifo::Pushed;
    let mut cp = Coprocessor::new(bhemu_isa::tensix::Arch::Blackhole);
    let total = (instructions / MIX.len() as u64 + 1) * MIX.len() as u64;
    let mut pushed = 0u64;
    let mut cycle = 0u64;
    let start = Instant::now();
    while pushed < total || !cp.all_idle() {
        if pushed < total {
            let w = MIX[(pushed % MIX.len() as u64) as usize];
            if cp.push(1, PushSource::Trisc, w)? == Pushed::Accepted {
                pushed += 1;
            }
        }
        cp.step(cycle)?;
        cycle += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(CoprocessorBenchReport {
        instructions: cp.state().sfpu.executed(),
        cycles: cycle,
        seconds,
    })
}
