//! `bhemu demo`: the README's first command. Runs built-in jobs — nothing to download, no files
//! needed — and says in a few lines what each showed, so a new user sees every part of the
//! emulator do something real and checked:
//! 1. a self-checking RISC-V program on one baby-core hart;
//! 2. docs/wait-gate.md pattern 4 on the Tensix coprocessor: math (T1) and pack (T2) double-buffering
//!    the Dst register through semaphore 1 (max 2);
//! 3. the whole chip computing: 140 Tensix tiles each unpack two bf16 32x32 tiles, add and
//!    multiply them on the Matrix Unit and pack the results, from the project's own kernels
//!    started at the cores' reset pcs (`crate::demo_chip`), checked bit for bit;
//! 4. the PTO engine running one cube→vector hand-off on the A5 and A2/A3 profiles.
use std::process::ExitCode;

use bhemu_isa::tensix::{opcodes, Arch};
use bhemu_pto::Profile;
use bhemu_tensix::{program, runner};

use crate::CliError;

#[derive(clap::Args)]
pub struct DemoArgs {}

const PATTERN4: &str = include_str!("../../../examples/tensix/pattern4.tsx");
const HANDOFF: &str = include_str!("../../../examples/pto/handoff.pto");

pub fn run(_a: DemoArgs) -> Result<ExitCode, CliError> {
    println!("bhemu demo: built-in jobs, nothing to download\n");
    println!("1. RISC-V: a self-checking program on one baby-core hart");
    let riscv_ok = crate::cmd_riscv::run_demo()? == ExitCode::SUCCESS;
    println!();
    let tensix_ok = tensix_part()?;
    println!();
    let chip_ok = chip_part()?;
    println!();
    let pto_ok = pto_part()?;
    println!();
    let all = riscv_ok && tensix_ok && chip_ok && pto_ok;
    println!("demo {}", if all { "passed" } else { "FAILED" });
    Ok(if all {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn tensix_part() -> Result<bool, CliError> {
    println!("2. Tensix coprocessor: math (T1) -> pack (T2) through semaphore 1, max 2 (docs/wait-gate.md, pattern 4)");
    let prog = program::parse(Arch::Blackhole, "examples/tensix/pattern4.tsx", PATTERN4)
        .map_err(|e| CliError::new(format!("demo: {}", runner::error_sentence(&e))))?;
    let r = runner::run(&prog, runner::RunOptions::default());
    let posts = r.cycles_of(1, opcodes::SEMPOST);
    let gets = r.cycles_of(2, opcodes::SEMGET);
    let packs = r.cycles_of(2, opcodes::PACR);
    println!("   T1 posted a finished Dst half at cycles {posts:?}");
    println!("   T2 released a packed half at cycles    {gets:?}");
    println!(
        "   T2 dispatched {} PACR, the first at cycle {}",
        packs.len(),
        packs.first().map_or("-".to_string(), |c| c.to_string())
    );
    let (value, max) = r.semaphores[1];
    println!(
        "   {} cycles; semaphore 1 ends at value {value}, max {max}",
        r.cycles
    );
    // Math may run at most two halves ahead of pack: post k+2 waits for get k.
    let ordered =
        posts.len() == 4 && gets.len() == 4 && posts.iter().skip(2).zip(&gets).all(|(p, g)| p > g);
    match (&r.error, ordered) {
        (None, true) => {
            println!("   ok: math never ran more than two halves ahead of pack");
            Ok(true)
        }
        (Some(e), _) => {
            println!("   FAILED: {}", runner::error_sentence(e));
            Ok(false)
        }
        (None, false) => {
            println!("   FAILED: the double-buffering order does not hold");
            Ok(false)
        }
    }
}

fn chip_part() -> Result<bool, CliError> {
    println!("3. Chip: bf16 C = A + B and C = B @ A (32x32) on all 140 Tensix tiles, each its own random A, B");
    println!("   own kernels from the reset pcs, no firmware: BRISC configures, TRISC0 UNPACR A->SrcA B->SrcB,");
    println!("   TRISC1 ELWADD x8 + MVMUL x64 (4 fidelity phases) into Dst, TRISC2 PACR Dst->L1 after semaphore 1");
    let j = crate::demo_chip::run()?;
    println!(
        "   A + B bit-exact on {}/{} tiles, B @ A bit-exact on {}/{} tiles (reference: ISA pages' ELWADD/MVMUL models)",
        j.sum_exact, j.tiles, j.product_exact, j.tiles
    );
    println!(
        "   {} simulated cycles, {:.2} s wall, {:.2} M tile-clocks/s",
        j.cycles,
        j.wall.as_secs_f64(),
        j.tile_clocks_per_second() / 1e6
    );
    if let Some(((x, y), sum, product)) = j.sample {
        println!("   e.g. tile ({x},{y}): (A + B)[0][0] = {sum}, (B @ A)[0][0] = {product}");
    }
    println!(
        "   {} MVMUL of 8x16x16: {:.0} M multiply-adds/s",
        j.tiles as u64 * crate::demo_chip::MVMULS_PER_TILE,
        j.multiply_adds_per_second() / 1e6
    );
    let ok = j.sum_exact == j.tiles && j.product_exact == j.tiles;
    match &j.first_mismatch {
        None if ok => {
            println!("   ok: every tile's sum and product equal the reference bit for bit")
        }
        Some(m) => println!("   FAILED: first difference: {m}"),
        None => println!("   FAILED"),
    }
    Ok(ok)
}

fn pto_part() -> Result<bool, CliError> {
    println!("4. Ascend PTO: one cube->vector hand-off, two profiles (examples/pto/handoff.pto)");
    let a5 = bhemu_pto::run_source(HANDOFF, Profile::A5);
    let a2 = bhemu_pto::run_source(HANDOFF, Profile::A2A3);
    let first_mte2 = |r: &bhemu_pto::Report| {
        r.timeline
            .lanes()
            .find(|(core, pipe, _)| core.to_string() == "aiv0" && pipe.to_string() == "PIPE_MTE2")
            .and_then(|(_, _, spans)| spans.first().map(|s| s.start))
    };
    for (name, r, how) in [
        ("A5  ", &a5, "wait_intra_core stalls only the vector pipe"),
        ("A2A3", &a2, "wait_flag_dev stalls the whole scalar unit"),
    ] {
        println!(
            "   {name}: {} cycles, aiv0's MTE2 load starts at cycle {} ({how})",
            r.cycles,
            first_mte2(r).map_or("-".to_string(), |c| c.to_string())
        );
    }
    let ok = a5.ok() && a2.ok() && a5.cycles < a2.cycles;
    println!(
        "   {}",
        if ok {
            "ok: per-pipe blocking on A5 finishes sooner"
        } else {
            "FAILED: unexpected result"
        }
    );
    Ok(ok)
}
