//! RV32 encodings of the baby RISC-V cores.
