//! The chip: tiles, grid, DRAM, host driver, ELF loading.
pub mod dram;
pub mod elf;
