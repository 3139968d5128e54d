//! RISC-V program pieces the chip's integration tests assemble their cores' code from
//! (through `bhemu_isa::riscv::encode`, the same encoder the disassembler is checked against).
#![allow(dead_code)] // each test file uses its own subset

use bhemu_chip::{grid, Chip, ChipConfig, Schedule};
#[allow(unused_imports)] // each test file uses its own subset
pub use bhemu_isa::riscv::asm::{addi, bytes, li, lw, spin, sw};
use bhemu_isa::riscv::{BranchOp, CsrOp, Insn, LoadOp};

pub const T0: u8 = 5;
pub const T1: u8 = 6;
pub const T2: u8 = 7;
pub const S0: u8 = 8;

pub fn branch(op: BranchOp, rs1: u8, rs2: u8, offset: i32) -> Insn {
    Insn::Branch {
        op,
        rs1,
        rs2,
        offset,
    }
}

/// `csrr rd, mcycle`.
pub fn mcycle(rd: u8) -> Insn {
    Insn::Csr {
        op: CsrOp::Rs,
        rd,
        csr: 0xB00,
        src: 0,
    }
}

/// Polls the word at `addr` with `extra` ALU instructions in the loop body until it reads
/// non-zero, then stores mcycle at `out`.
pub fn poll_then_record(addr: u32, extra: usize, out: u32) -> Vec<Insn> {
    let mut p = li(T0, addr);
    p.push(Insn::Load {
        op: LoadOp::Lw,
        rd: T2,
        rs1: T0,
        offset: 0,
    });
    for _ in 0..extra {
        p.push(addi(T1, T2, 3));
    }
    p.push(branch(BranchOp::Beq, T2, 0, -4 * (extra as i32 + 1)));
    p.push(mcycle(T1));
    p.extend(li(T0, out));
    p.push(sw(T1, T0));
    p
}

/// A chip of `tiles` (as `--tiles` takes them) under `schedule`.
pub fn chip(tiles: &str, schedule: Schedule) -> Chip {
    let mut c = Chip::new(&ChipConfig {
        tiles: grid::parse_tiles(tiles).expect("tiles"),
        ..ChipConfig::default()
    })
    .expect("chip");
    c.set_schedule(schedule).expect("schedule");
    c
}

/// Puts `program(i)` at L1 0 of tile `i` and releases its BRISC (soft reset 0x47000); returns
/// the tiles' coordinates in slot order.
pub fn release_briscs(c: &mut Chip, program: impl Fn(usize) -> Vec<u8>) -> Vec<(u8, u8)> {
    let xy: Vec<(u8, u8)> = c.tiles().iter().map(|t| (t.node().x, t.node().y)).collect();
    for (i, &(x, y)) in xy.iter().enumerate() {
        c.write_l1(x, y, 0, &program(i)).expect("program");
        c.write_reg(x, y, 0xFFB1_21B0, 0x47000)
            .expect("release BRISC");
    }
    xy
}
