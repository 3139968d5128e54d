//! Vector Unit (SFPU) host-speed benchmark: `cargo run --release -p bhemu-tensix --example
//! sfpu_bench [instructions]` prints SFPU instructions per second of host time.
fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000_000u64);
    let r = bhemu_tensix::sfpu::bench::run(n);
    println!(
        "sfpu: {} instructions in {:.3} s = {:.2} M SFPU instructions/s (32 lanes each), {} errors",
        r.instructions,
        r.seconds,
        r.per_second() / 1e6,
        r.errors
    );
}
