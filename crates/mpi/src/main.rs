//! `bhemu-mpi`: a system of Blackhole chips as several processes (docs/multi-chip.md MC-12).
//!
//! `mpirun -n 2 bhemu-mpi --system p300` runs chip 0 in one process and chip 1 in the other;
//! `bhemu-mpi --system p300` (or a build without the `mpi` feature) runs both in one process.
//! Each process prints the reports of its chips; the same system computes the same lines
//! however many processes run it.
use std::process::ExitCode;

use bhemu_chip::SystemKind;
use clap::Parser;

#[derive(Parser)]
#[command(name = "bhemu-mpi", version, about)]
struct Args {
    /// p150, p300 or galaxy.
    #[arg(long, default_value = "p300")]
    system: String,
    /// Tensix tiles per chip: all (140), N (the first N by row), or x,y;x,y...
    #[arg(long, default_value = "all")]
    tiles: String,
    /// Host threads per process.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Cycles to run.
    #[arg(long, default_value_t = 40_000)]
    cycles: u64,
}

fn main() -> ExitCode {
    let a = Args::parse();
    match run(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bhemu-mpi: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(a: &Args) -> Result<(), String> {
    let system = SystemKind::parse(&a.system).map_err(|e| format!("--system: {}", e.message))?;
    let chips = system.chips() as usize;
    let t0 = std::time::Instant::now();
    let (rank, size, outcomes) = processes(a, system, chips)?;
    for o in &outcomes {
        println!("{o}");
    }
    eprintln!(
        "process {rank} of {size}: {} chip(s) of a {} in {:.2} s host time",
        outcomes.len(),
        system.name(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

type Outcomes = (usize, usize, Vec<bhemu_mpi::workload::Outcome>);

#[cfg(feature = "mpi")]
fn processes(a: &Args, system: SystemKind, chips: usize) -> Result<Outcomes, String> {
    let universe = mpi::initialize().ok_or("MPI was already initialised")?;
    let mut world = bhemu_mpi::world::World::new(universe.world());
    let (rank, size) = (world.rank(), world.size());
    let ids = bhemu_mpi::chips_of(rank, size, chips);
    let out = bhemu_mpi::workload::run(system, ids, &a.tiles, a.threads, a.cycles, &mut world)
        .map_err(|e| format!("process {rank}: {e}"))?;
    Ok((rank, size, out))
}

#[cfg(not(feature = "mpi"))]
fn processes(a: &Args, system: SystemKind, chips: usize) -> Result<Outcomes, String> {
    if let Some(n) = std::env::var("OMPI_COMM_WORLD_SIZE")
        .ok()
        .filter(|n| n != "1")
    {
        return Err(format!(
            "started as one of {n} MPI processes, but built without MPI: build with `cargo build --release -p bhemu-mpi --features mpi` (needs libopenmpi-dev and libclang-dev)"
        ));
    }
    let mut alone = bhemu_chip::system::lockstep::Alone;
    let out = bhemu_mpi::workload::run(system, 0..chips, &a.tiles, a.threads, a.cycles, &mut alone)
        .map_err(|e| e.to_string())?;
    Ok((0, 1, out))
}
