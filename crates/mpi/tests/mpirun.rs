//! docs/multi-chip.md MC-12: a system run as several MPI processes computes what one process
//! computes — every chip's cycle, state digest, finished tiles and link payloads.
//!
//! Needs the binary built with `--features mpi` and Open MPI's `mpirun`; otherwise the tests
//! print "skipped" (and fail instead when `BHEMU_REQUIRE_MPI=1`, as `scripts/test.sh` sets for
//! its MPI pass).
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bhemu-mpi");

fn mpirun() -> Option<Command> {
    let why = if !cfg!(feature = "mpi") {
        "bhemu-mpi is built without the mpi feature"
    } else if Command::new("mpirun").arg("--version").output().is_err() {
        "no mpirun (Debian's openmpi-bin)"
    } else {
        let mut c = Command::new("mpirun");
        // Open MPI refuses root without these; CI runs as root.
        c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .arg("--oversubscribe");
        return Some(c);
    };
    assert!(
        std::env::var("BHEMU_REQUIRE_MPI").as_deref() != Ok("1"),
        "BHEMU_REQUIRE_MPI=1 but {why}"
    );
    eprintln!("skipped: {why}");
    None
}

/// The chip lines the command printed, sorted (processes print in any order).
fn chip_lines(c: &mut Command) -> Vec<String> {
    let out = c.output().expect("start");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    eprint!("{stderr}");
    let mut lines: Vec<String> = stdout
        .lines()
        .filter(|l| l.starts_with("chip "))
        .map(String::from)
        .collect();
    lines.sort_by_key(|l| l[5..].split(':').next().and_then(|n| n.parse::<u32>().ok()));
    lines
}

fn compare(system: &str, processes: &str, tiles: &str, chips: usize) {
    let Some(mut mpi) = mpirun() else { return };
    let args = ["--system", system, "--tiles", tiles];
    let one = chip_lines(Command::new(BIN).args(args));
    let many = chip_lines(mpi.args(["-n", processes, BIN]).args(args));
    assert_eq!(one.len(), chips, "{one:#?}");
    for l in &one {
        assert!(l.contains(" tiles done, ") && !l.contains(" 0/"), "{l}");
        let (done, links) = (l.split(", ").nth(1), l.split(", ").nth(2));
        let whole = |s: Option<&str>| {
            s.and_then(|s| s.split(' ').next())
                .and_then(|f| f.split_once('/'))
                .is_some_and(|(a, b)| a == b)
        };
        assert!(
            whole(done) && whole(links),
            "every tile finished and every payload arrived: {l}"
        );
    }
    assert_eq!(many, one, "{processes} processes against one");
}

#[test]
fn mc12_p300_as_two_mpi_processes_computes_what_one_process_does() {
    compare("p300", "2", "all", 2);
}

#[test]
fn mc12_galaxy_as_four_mpi_processes_computes_what_one_process_does() {
    compare("galaxy", "4", "4", 32);
}

#[test]
fn mc12_a_build_without_mpi_refuses_to_run_as_one_of_several() {
    if cfg!(feature = "mpi") {
        eprintln!("skipped: this build has MPI");
        return;
    }
    let out = Command::new(BIN)
        .env("OMPI_COMM_WORLD_SIZE", "2")
        .output()
        .expect("start");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("started as one of 2 MPI processes, but built without MPI"),
        "{stderr}"
    );
}
