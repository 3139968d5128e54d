//! Matrix Unit throughput: MVMUL instructions per second of host time (the arithmetic of
//! [`super::MatrixUnit`]) and simulated cycles per 32x32x32 tile matmul through the
//! coprocessor's frontend and backend timing, against the documented rate of one MVMUL per
//! cycle per fidelity phase (`tt-isa-documentation:
//! WormholeB0/TensixTile/TensixCoprocessor/MatrixUnit.md`). For `bhemu bench`.
use super::{MathFormat, MathRegs, MatrixCtx, MatrixUnit};
use crate::error::TensixError;
use crate::state::{Dst, SrcData};
use bhemu_isa::tensix::{blackhole::Insn, Arch};
use std::time::Instant;

/// MVMULs in one 32x32x32 matmul: 32x32 outputs in 8x16 blocks (8), times 32/16 k-steps (2).
pub const MVMULS_PER_TILE: u64 = 16;

/// What [`run`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixBench {
    pub mvmuls: u64,
    pub host_seconds: f64,
    pub mvmul_per_second: f64,
    /// Fidelity phases per tile in the timing run (4 = HiFi4).
    pub phases: u64,
    /// Cycles from the first MVMUL's dispatch to the last one's, inclusive, for one tile.
    pub tile_issue_cycles: u64,
    /// The documented figure: one MVMUL per cycle, so `MVMULS_PER_TILE * phases`.
    pub documented_cycles: u64,
}

impl MatrixBench {
    pub fn to_text(&self) -> String {
        format!(
            "matrix unit: {} MVMUL (BF16, FP32 Dst) in {:.3} s host = {:.0} MVMUL/s\n\
             32x32x32 tile, {} fidelity phase(s): {} simulated cycles of MVMUL issue \
             (documented: {} at 1 MVMUL/cycle)",
            self.mvmuls,
            self.host_seconds,
            self.mvmul_per_second,
            self.phases,
            self.tile_issue_cycles,
            self.documented_cycles
        )
    }
}

/// Runs `mvmuls` MVMULs on pseudo-random BF16 data, then one 4-phase tile through the
/// coprocessor's timing model.
pub fn run(mvmuls: u64) -> Result<MatrixBench, TensixError> {
    let mut src_a = SrcData::new();
    let mut src_b = SrcData::new();
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for bank in 0..2 {
        for row in 0..64 {
            for col in 0..16 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                // BF16 in Src: sign, 7 mantissa bits (low 3 zero), exponent near 127.
                let v = ((s as u32) & 0x4_7f00) | (120 + (s >> 40) as u32 % 16);
                src_a.write(bank, row, col, v);
                src_b.write(bank, row, col, v ^ 0x4_0000);
            }
        }
    }
    let mut dst = Dst::new();
    let mut unit = MatrixUnit::new();
    let word = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    let start = Instant::now();
    for n in 0..mvmuls {
        let mut ctx = MatrixCtx {
            src_a: &src_a,
            src_b: &src_b,
            dst: &mut dst,
            regs: MathRegs {
                rwc_src_a: (n as u32 % 4) * 16,
                rwc_src_b: (n as u32 % 8) * 8,
                dst_row_base: (n as u32 % 64) * 8,
                fidelity_phase: n as u32,
                format: MathFormat {
                    src_a_format: crate::formats::DataFormat::Bf16.code(),
                    fp32_enabled: true,
                    ..MathFormat::default()
                },
                ..MathRegs::default()
            },
            thread: 1,
            cycle: n,
        };
        unit.execute(Arch::Blackhole, word, &mut ctx)?;
    }
    let host_seconds = start.elapsed().as_secs_f64();
    let phases = 4;
    let tile_issue_cycles = tile_cycles(phases)?;
    Ok(MatrixBench {
        mvmuls,
        host_seconds,
        mvmul_per_second: mvmuls as f64 / host_seconds.max(1e-9),
        phases,
        tile_issue_cycles,
        documented_cycles: MVMULS_PER_TILE * phases,
    })
}

/// Simulated cycles of one tile's MVMUL stream on thread 1 after thread 0 hands both Src banks
/// to the Matrix Unit (SETDVALID), measured from the dispatch log.
pub fn tile_cycles(phases: u64) -> Result<u64, TensixError> {
    let setdvalid = Insn::Setdvalid { setvalid: 3 }.encode();
    let mut text = format!("[t0]\n.word {setdvalid:#010x}\n[t1]\n");
    for phase in 0..phases {
        for n in 0..MVMULS_PER_TILE {
            let word = Insn::Mvmul {
                clear_dvalid: 0,
                instr_mod19: 0,
                addr_mode: 0,
                dst: ((n % 8) * 8) as u16,
            }
            .encode();
            text.push_str(&format!(".word {word:#010x}  # phase {phase}\n"));
        }
    }
    let program = crate::program::parse(Arch::Blackhole, "matrix-bench", &text)?;
    let result = crate::runner::run(&program, crate::runner::RunOptions::default());
    if let Some(e) = result.error {
        return Err(e);
    }
    let cycles = result.cycles_of(1, 0x26);
    match (cycles.first(), cycles.last()) {
        (Some(first), Some(last)) => Ok(last - first + 1),
        _ => Ok(0),
    }
}
