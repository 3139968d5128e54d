//! `cargo bench -p bhemu-tensix --bench matrix [-- MVMULS]`: Matrix Unit throughput (MVMUL per
//! second of host time) and simulated cycles per 32x32x32 tile matmul against the documented
//! 1 MVMUL per cycle. The same figures come from `bhemu_tensix::matrix::bench::run`.
use bhemu_tensix::matrix::bench;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mvmuls = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<u64>().ok())
        .unwrap_or(200_000);
    match bench::run(mvmuls) {
        Ok(b) => {
            println!("{}", b.to_text());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("matrix bench failed: {e:?}");
            ExitCode::FAILURE
        }
    }
}
