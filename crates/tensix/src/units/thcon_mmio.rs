//! Scalar Unit (ThCon) instructions that reach the tile's MMIO space: `STOREREG` and
//! `LOADREG`. Pages: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/
//! {STOREREG,LOADREG}.md (Blackhole has no pages of its own; tt-llk's Blackhole
//! `llk_io_unpack.h` / `llk_io_pack.h` use both exactly as documented there, to write the
//! circular-buffer "tiles acked" / "tiles received" counters in the NoC overlay).
//!
//! Both address a 32-bit word `0xFFB0_0000 + (AddrLo << 2)`; addresses below `0xFFB1_1000`
//! (the baby cores' local data RAMs) are `UndefinedBehaviour()`. Effects at dispatch, as for
//! the L1 forms in [`super::thcon_mem`]: the pages complete the access "at some later point",
//! which the coprocessor's timing keeps the unit (and condition C0 for LOADREG) busy for, so a
//! program that waits as the hardware requires sees the same values.
use crate::state::GPRS;

use super::{Ctx, UnitResult};

/// The lowest address either instruction may reach (the pages' `0xFFB11000`).
pub const MMIO_WINDOW_START: u32 = 0xFFB1_1000;

/// `0xFFB00000 + (AddrLo << 2)`, with `AddrLo` the 18-bit field.
pub fn mmio_address(addr_lo: u32) -> u32 {
    0xFFB0_0000u32.wrapping_add((addr_lo & 0x3_FFFF) << 2)
}

/// `STOREREG`: `*(uint32_t*)Addr = GPRs[CurrentThread][DataReg]`.
pub fn storereg(ctx: &mut Ctx, data_reg: u8, addr_lo: u32) -> UnitResult {
    let addr = mmio_address(addr_lo);
    if addr < MMIO_WINDOW_START {
        return ctx.undefined(format!(
            "STOREREG to {addr:#x}, below the MMIO window at {MMIO_WINDOW_START:#x}; ignored"
        ));
    }
    if data_reg as usize >= GPRS {
        return ctx.undefined(format!("STOREREG: GPR index {data_reg} >= 64; ignored"));
    }
    let value = ctx.state.gprs[ctx.thread][data_reg as usize];
    ctx.write_reg(addr, value)
}

/// `LOADREG`: `GPRs[CurrentThread][ResultReg] = *Addr`.
pub fn loadreg(ctx: &mut Ctx, result_reg: u8, addr_lo: u32) -> UnitResult {
    let addr = mmio_address(addr_lo);
    if addr < MMIO_WINDOW_START {
        return ctx.undefined(format!(
            "LOADREG from {addr:#x}, below the MMIO window at {MMIO_WINDOW_START:#x}; ignored"
        ));
    }
    if result_reg as usize >= GPRS {
        return ctx.undefined(format!("LOADREG: GPR index {result_reg} >= 64; ignored"));
    }
    let value = ctx.read_reg(addr)?;
    ctx.state.gprs[ctx.thread][result_reg as usize] = value;
    Ok(())
}
