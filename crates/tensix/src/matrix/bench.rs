//! Matrix Unit throughput: MVMUL and ELWADD instructions per second of host time (the
//! arithmetic of [`super::MatrixUnit`] driven directly, and MVMUL pushed through a coprocessor
//! thread: FIFO, Wait Gate, dispatch) and simulated cycles per 32x32x32 tile matmul through the
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
    /// ELWADDs (BF16, FP32 Dst) driven directly, and their rate.
    pub elwadds: u64,
    pub elwadd_per_second: f64,
    /// MVMULs pushed through thread T1 of a coprocessor, the cycles stepped and the rate.
    pub cp_mvmuls: u64,
    pub cp_cycles: u64,
    pub cp_mvmul_per_second: f64,
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
             matrix unit: {} ELWADD (BF16, FP32 Dst) = {:.0} ELWADD/s\n\
             coprocessor: {} MVMUL through thread T1 in {} cycles = {:.0} MVMUL/s \
             ({:.3} MVMUL per cycle)\n\
             32x32x32 tile, {} fidelity phase(s): {} simulated cycles of MVMUL issue \
             (documented: {} at 1 MVMUL/cycle)",
            self.mvmuls,
            self.host_seconds,
            self.mvmul_per_second,
            self.elwadds,
            self.elwadd_per_second,
            self.cp_mvmuls,
            self.cp_cycles,
            self.cp_mvmul_per_second,
            self.cp_mvmuls as f64 / self.cp_cycles.max(1) as f64,
            self.phases,
            self.tile_issue_cycles,
            self.documented_cycles
        )
    }
}

/// Runs `mvmuls` MVMULs and as many ELWADDs on pseudo-random BF16 data, a tenth of them as
/// MVMULs through a coprocessor thread, then one 4-phase tile through the coprocessor's
/// timing model.
pub fn run(mvmuls: u64) -> Result<MatrixBench, TensixError> {
    let mvmul = Insn::Mvmul {
        clear_dvalid: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    let elwadd = Insn::Elwadd {
        clear_dvalid: 0,
        dest_accum_en: 0,
        instr_mod19: 0,
        addr_mode: 0,
        dst: 0,
    }
    .encode();
    let host_seconds = direct(mvmul, mvmuls)?;
    let elw_seconds = direct(elwadd, mvmuls)?;
    let cp_mvmuls = (mvmuls / 10).max(16);
    let (cp_cycles, cp_seconds) = through_coprocessor(mvmul, cp_mvmuls)?;
    let phases = 4;
    let tile_issue_cycles = tile_cycles(phases)?;
    Ok(MatrixBench {
        mvmuls,
        host_seconds,
        mvmul_per_second: mvmuls as f64 / host_seconds.max(1e-9),
        elwadds: mvmuls,
        elwadd_per_second: mvmuls as f64 / elw_seconds.max(1e-9),
        cp_mvmuls,
        cp_cycles,
        cp_mvmul_per_second: cp_mvmuls as f64 / cp_seconds.max(1e-9),
        phases,
        tile_issue_cycles,
        documented_cycles: MVMULS_PER_TILE * phases,
    })
}

/// Seconds of host time for `count` executions of `word` by a [`MatrixUnit`] on its own,
/// walking the Src rows, Dst blocks and fidelity phases as a kernel's address modes would.
fn direct(word: u32, count: u64) -> Result<f64, TensixError> {
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
    let start = Instant::now();
    for n in 0..count {
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
    Ok(start.elapsed().as_secs_f64())
}

/// `(cycles, host seconds)` for `count` copies of `word` pushed to thread T1 of a Blackhole
/// coprocessor (T0 first hands both Src banks to the Matrix Unit with SETDVALID) and stepped
/// until all have executed.
pub fn through_coprocessor(word: u32, count: u64) -> Result<(u64, f64), TensixError> {
    use crate::coprocessor::{Coprocessor, PushSource};
    use crate::fifo::Pushed;
    let mut cp = Coprocessor::new(Arch::Blackhole);
    let setdvalid = Insn::Setdvalid { setvalid: 3 }.encode();
    while cp.push(0, PushSource::Trisc, setdvalid)? != Pushed::Accepted {}
    let (mut pushed, mut cycle) = (0u64, 0u64);
    let start = Instant::now();
    while pushed < count || !cp.all_idle() {
        if pushed < count && cp.push(1, PushSource::Trisc, word)? == Pushed::Accepted {
            pushed += 1;
        }
        cp.step(cycle)?;
        cycle += 1;
        if cycle > count.saturating_mul(64) + 1000 {
            return Err(TensixError::new(
                crate::error::ErrorKind::MaxCycles,
                cycle,
                format!("matrix bench: {pushed} of {count} pushed, the coprocessor never drained"),
            ));
        }
    }
    Ok((cycle, start.elapsed().as_secs_f64()))
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
