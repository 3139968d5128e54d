//! A system of Blackhole chips run as several processes (docs/multi-chip.md MC-12): each
//! process runs some of the chips, and after each step of [`lockstep::run_shared`] the
//! processes share what their chips did — the least cycle, whether they moved, the sends on
//! their links — through MPI (`--features mpi`, Open MPI). The links' latency is the quantum
//! that makes this exact: one process or many compute the same cycles and the same state.
//!
//! * [`codec`]: a step's [`Report`] as bytes, the way it crosses between processes.
//! * [`workload`]: the program the binary runs on every chip (a countdown on every BRISC and
//!   64 bytes over every link) and the per-chip results it prints.
//! * [`world`] (with MPI): the [`Exchange`] over `MPI_COMM_WORLD`.
//!
//! [`lockstep::run_shared`]: bhemu_chip::system::lockstep::run_shared
//! [`Report`]: bhemu_chip::system::lockstep::Report
//! [`Exchange`]: bhemu_chip::system::lockstep::Exchange
pub mod codec;
pub mod workload;
#[cfg(feature = "mpi")]
pub mod world;

/// Which of a system's `chips` process `rank` of `size` runs: consecutive blocks, as even as
/// they come (a process beyond the chips runs none but still takes part in every step).
pub fn chips_of(rank: usize, size: usize, chips: usize) -> std::ops::Range<usize> {
    let size = size.max(1);
    let per = chips.div_ceil(size);
    let lo = (rank * per).min(chips);
    lo..((rank + 1) * per).min(chips)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mc12_processes_take_consecutive_blocks_of_chips() {
        assert_eq!(chips_of(0, 2, 2), 0..1);
        assert_eq!(chips_of(1, 2, 2), 1..2);
        assert_eq!(chips_of(0, 1, 32), 0..32);
        assert_eq!(chips_of(3, 4, 32), 24..32);
        assert_eq!(
            chips_of(2, 3, 2),
            2..2,
            "a third process for two chips runs none"
        );
    }
}
