//! Instruction sets of the Blackhole chip: RISC-V for the baby cores, Tensix for the
//! coprocessor. Each has one table from which decode, disassembly and assembly follow.
pub mod riscv;
pub mod tensix;
