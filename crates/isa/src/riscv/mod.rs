//! RV32 encodings of the baby RISC-V cores (docs/blackhole-facts.md §10, `BabyRISCV/InstructionSet.md`):
//! RV32IM, Zicsr, Zicntr, Zaamo, Zba, Zbb, `pack`/`brev8` of Zbkb, `grevi` of Bitmanip 0.94,
//! `fence.i`, `mret` and `.ttinsn`.
//!
//! One decoder ([`decode`]) turns a word into the typed [`Insn`]; [`Insn::accept`] drives a
//! [`Visitor`], which is how the disassembler (and any other consumer that wants one method per
//! instruction format) reads it. [`encode`] is the exact inverse for every valid instruction, so
//! tests and benchmarks assemble from the same table.
mod csr_names;
mod decode;
mod disasm;
mod encode;
mod insn;
mod visit;

pub mod asm;
pub use csr_names::csr_name;
pub use decode::decode;
pub use disasm::{disassemble, reg_name, Disasm};
pub use encode::encode;
pub use insn::{AmoOp, BranchOp, CsrOp, ImmOp, Insn, LoadOp, RegOp, StoreOp, UnaryOp};
pub use visit::{visit, Visitor};

#[cfg(test)]
mod tests;
