//! DRAM.
