//! `cargo bench -p bhemu-rv`: MIPS of one hart on the mixed integer workload (the same as
//! `bhemu bench riscv`), best of five runs. No benchmark framework: the workspace adds no
//! dependencies for this.
use std::time::Instant;

use bhemu_rv::{workload, FlatRam, Hart, HartConfig, RunExit};

fn main() {
    let words = workload::mixed_integer(100_000);
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut best = 0.0f64;
    for _ in 0..5 {
        let mut ram = FlatRam::new(0, 1 << 20);
        ram.load_bytes(workload::CODE_BASE, &code)
            .expect("workload fits in RAM");
        let mut hart = Hart::new(HartConfig::default());
        let start = Instant::now();
        let exit = hart.run(&mut ram, u64::MAX);
        let secs = start.elapsed().as_secs_f64();
        assert!(matches!(exit, RunExit::Halted(_)), "{exit:?}");
        best = best.max(hart.instret() as f64 / secs / 1e6);
    }
    println!("hart/mixed_integer: {best:.1} MIPS (best of 5)");
}
