//! One RV32 hart of a Blackhole baby RISC-V core, over a [`Bus`].
pub mod bus;

pub use bus::{Access, Bus, BusFault, Width};
