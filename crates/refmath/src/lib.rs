//! Silicon's Matrix Unit (FPU) arithmetic, written from `docs/matrix-unit.md` alone, as the
//! reference that bhemu's tests and `bhemu run` compare the emulator with. It does not depend
//! on `bhemu-tensix`: the emulator's datapath (`crates/tensix/src/matrix/`) is the code under
//! test, and a reference that shared its code could not catch its mistakes.
//!
//! Everything is value-level: operands are IEEE-layout bit patterns ([`Operand`]: BF16, FP16,
//! TF32, FP32), results are IEEE-layout bits of the `Dst` datum ([`DstKind`]: FP32, BF16,
//! FP16). The Src/Dst register *layouts* (SrcASrcB.md, Dst.md) are the caller's business.
//!
//! Each item is named after the page's rule it implements:
//! - [`operand`]: O1 precision by format, O3 zero (O2, which format a bank has, is the
//!   caller's choice of [`SrcFormat`]; its last sentence, `e8` from SrcA alone, is
//!   [`Operand::e8`]).
//! - [`term`]: T1 element-wise add, T2 product, T4 dot-product groups, T5 FP16 into a 32-bit
//!   Dst, T6 fidelity on ELWADD.
//! - [`accumulator`]: A1–A6, one function ([`accumulate`]).
//! - [`ops`]: the instructions' datum (ELWADD/ELWSUB, ELWMUL = T3, one MVMUL output = T4).
//! - [`tile`]: what tt-llk's kernels do to 32x32 BF16 tiles.
//! - [`pack`]: the packer's conversion of a `Dst` datum into a BF16 output.
//! - [`sfpu`]: the SFPU example kernels' results, from the Vector Unit instruction pages.

pub mod accumulator;
pub mod operand;
pub mod ops;
pub mod pack;
pub mod sfpu;
pub mod term;
pub mod tile;

pub use accumulator::{accumulate, DstKind};
pub use operand::{Operand, SrcFormat};
pub use ops::{dot16, elwadd, elwmul};
pub use term::{Product, Term};
