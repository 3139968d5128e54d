//! Scalar Unit (ThCon) instructions that touch L1: LOADIND, STOREIND (L1 form), ATINCGET,
//! ATSWAP, ATCAS. Pages: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/
//! {LOADIND,STOREIND_L1,ATINCGET,ATSWAP,ATCAS}.md.
//!
//! Effects at dispatch: the pages capture the operands at dispatch and complete the memory
//! access "at some later point"; the coprocessor's timing keeps the unit (and, for loads, the
//! thread's memory request, condition C0) busy for that time, so a program that waits as the
//! hardware requires sees the same values. L1 addresses outside L1 are errors.
use crate::error::ErrorKind;
use crate::state::GPRS;

use super::{Ctx, UnitResult};

/// `GPRs[CurrentThread][AddrReg] * 16 + *Offset`, then the offset half-register's
/// post-increment (0, 2, 4 or 16).
fn indirect_address(ctx: &mut Ctx, addr_reg: u8, offset_half: u8, inc: u8) -> u32 {
    let t = ctx.thread;
    let g = &mut ctx.state.gprs[t];
    let (gi, shift) = ((offset_half / 2) as usize, 16 * (offset_half as u32 & 1));
    let off = (g[gi] >> shift) & 0xffff;
    let addr = g[addr_reg as usize & (GPRS - 1)]
        .wrapping_mul(16)
        .wrapping_add(off);
    let step = [0, 2, 4, 16][inc as usize & 3];
    let new = (off + step) & 0xffff;
    g[gi] = (g[gi] & !(0xffff << shift)) | (new << shift);
    addr
}

fn check_regs(ctx: &mut Ctx, name: &str, regs: &[u8]) -> Result<bool, crate::TensixError> {
    if let Some(r) = regs.iter().find(|&&r| r as usize >= GPRS) {
        ctx.undefined(format!("{name}: GPR index {r} >= 64; ignored"))?;
        return Ok(false);
    }
    Ok(true)
}

/// `LOADIND`: 16 bytes to four GPRs, or 32/16/8 bits to one GPR (16/8 into its low bits).
pub fn loadind(
    ctx: &mut Ctx,
    size: u8,
    offset_half: u8,
    inc: u8,
    result: u8,
    addr_reg: u8,
) -> UnitResult {
    if offset_half > 127 {
        return ctx.undefined("LOADIND: offset half-register beyond 127; ignored");
    }
    if !check_regs(ctx, "LOADIND", &[result, addr_reg])? {
        return Ok(());
    }
    let a = indirect_address(ctx, addr_reg, offset_half, inc);
    let t = ctx.thread;
    match size {
        0 => {
            let mut b = [0u8; 16];
            ctx.read_l1(a & !15, &mut b)?;
            let base = (result & 0x3c) as usize;
            for k in 0..4 {
                let mut w = [0u8; 4];
                w.copy_from_slice(&b[4 * k..4 * k + 4]);
                ctx.state.gprs[t][base + k] = u32::from_le_bytes(w);
            }
        }
        1 => {
            let mut b = [0u8; 4];
            ctx.read_l1(a & !3, &mut b)?;
            ctx.state.gprs[t][result as usize] = u32::from_le_bytes(b);
        }
        2 => {
            let mut b = [0u8; 2];
            ctx.read_l1(a & !1, &mut b)?;
            let g = &mut ctx.state.gprs[t][result as usize];
            *g = (*g & 0xffff_0000) | u16::from_le_bytes(b) as u32;
        }
        _ => {
            let mut b = [0u8; 1];
            ctx.read_l1(a, &mut b)?;
            let g = &mut ctx.state.gprs[t][result as usize];
            *g = (*g & 0xffff_ff00) | b[0] as u32;
        }
    }
    Ok(())
}

/// `STOREIND`. `MemHierSel` = 1 is the L1 form (Size = `SizeSel`:`RegSizeSel`); the MMIO and
/// Src forms are not modelled yet.
#[allow(clippy::too_many_arguments)]
pub fn storeind(
    ctx: &mut Ctx,
    mem_hier_sel: u8,
    size_sel: u8,
    reg_size_sel: u8,
    offset_half: u8,
    inc: u8,
    data: u8,
    addr_reg: u8,
) -> UnitResult {
    if mem_hier_sel == 0 {
        return ctx.not_modelled(if size_sel != 0 {
            "STOREIND to MMIO"
        } else {
            "STOREIND to SrcA/SrcB"
        });
    }
    if !check_regs(ctx, "STOREIND", &[data, addr_reg])? {
        return Ok(());
    }
    let a = indirect_address(ctx, addr_reg, offset_half, inc);
    let t = ctx.thread;
    let size = (size_sel << 1) | reg_size_sel;
    let g = ctx.state.gprs[t];
    match size {
        0 => {
            let base = (data & 0x3c) as usize;
            let mut b = [0u8; 16];
            for k in 0..4 {
                b[4 * k..4 * k + 4].copy_from_slice(&g[base + k].to_le_bytes());
            }
            ctx.write_l1(a & !15, &b)
        }
        1 => ctx.write_l1(a & !3, &g[data as usize].to_le_bytes()),
        2 => ctx.write_l1(a & !1, &(g[data as usize] as u16).to_le_bytes()),
        _ => ctx.write_l1(a, &[g[data as usize] as u8]),
    }
}

fn read_word(ctx: &mut Ctx, a: u32) -> Result<u32, crate::TensixError> {
    let mut b = [0u8; 4];
    ctx.read_l1(a, &mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// `ATINCGET`: atomically adds `GPR` to the low `IntWidth + 1` bits of an L1 word and returns
/// the original word in the GPR.
pub fn atincget(
    ctx: &mut Ctx,
    mem_hier_sel: u8,
    wrap_val: u16,
    ofs: u8,
    reg: u8,
    addr_reg: u8,
) -> UnitResult {
    if mem_hier_sel != 0 {
        return ctx.not_modelled("ATINCGET with MemHierSel = 1");
    }
    if wrap_val > 31 {
        return ctx.undefined("ATINCGET IntWidth wider than 5 bits; ignored");
    }
    if !check_regs(ctx, "ATINCGET", &[reg, addr_reg])? {
        return Ok(());
    }
    let t = ctx.thread;
    let a = ctx.state.gprs[t][addr_reg as usize]
        .wrapping_mul(16)
        .wrapping_add(4 * ofs as u32);
    let inc = ctx.state.gprs[t][reg as usize];
    let mask = ((2u64 << wrap_val) - 1) as u32;
    let old = read_word(ctx, a)?;
    let new = (old.wrapping_add(inc) & mask) | (old & !mask);
    ctx.write_l1(a, &new.to_le_bytes())?;
    ctx.state.gprs[t][reg as usize] = old;
    Ok(())
}

/// `ATSWAP`: writes the 16-bit halves selected by `Mask` of four GPRs (or of one GPR placed
/// at its position, `SingleDataReg`) to an aligned 16 bytes of L1. Nothing is read back.
pub fn atswap(
    ctx: &mut Ctx,
    mem_hier_sel: u8,
    swap_mask: u16,
    data: u8,
    addr_reg: u8,
) -> UnitResult {
    if mem_hier_sel != 0 {
        return ctx.not_modelled("ATSWAP with MemHierSel = 1");
    }
    if !check_regs(ctx, "ATSWAP", &[data, addr_reg])? {
        return Ok(());
    }
    let (mask, single) = ((swap_mask & 0xff) as u8, swap_mask & 0x100 != 0);
    let t = ctx.thread;
    let g = ctx.state.gprs[t];
    let mut to_write = [0u8; 16];
    if single {
        let k = (data & 3) as usize;
        to_write[4 * k..4 * k + 4].copy_from_slice(&g[data as usize].to_le_bytes());
    } else {
        let base = (data & 0x3c) as usize;
        for k in 0..4 {
            to_write[4 * k..4 * k + 4].copy_from_slice(&g[base + k].to_le_bytes());
        }
    }
    let a = g[addr_reg as usize].wrapping_mul(16);
    for i in 0..8 {
        if mask & (1 << i) != 0 {
            ctx.write_l1(a + 2 * i, &to_write[2 * i as usize..2 * i as usize + 2])?;
        }
    }
    Ok(())
}

/// `ATCAS`: if the L1 word equals `CmpVal`, writes `SetVal`. The hardware retries a failed
/// comparison until it succeeds; bhemu does not model that spin and reports it.
pub fn atcas(
    ctx: &mut Ctx,
    mem_hier_sel: u8,
    swap_val: u8,
    cmp_val: u8,
    ofs: u8,
    _data: u8,
    addr_reg: u8,
) -> UnitResult {
    if mem_hier_sel != 0 {
        return ctx.not_modelled("ATCAS with MemHierSel = 1");
    }
    if swap_val > 15 {
        return ctx.undefined("ATCAS SetVal wider than 4 bits; ignored");
    }
    if !check_regs(ctx, "ATCAS", &[addr_reg])? {
        return Ok(());
    }
    let t = ctx.thread;
    let a = ctx.state.gprs[t][addr_reg as usize]
        .wrapping_mul(16)
        .wrapping_add(4 * ofs as u32);
    if read_word(ctx, a)? == cmp_val as u32 {
        ctx.write_l1(a, &(swap_val as u32).to_le_bytes())
    } else {
        Err(ctx.error(
            ErrorKind::Hang,
            format!("ATCAS at {a:#x}: comparison with {cmp_val} fails; the hardware retries until another agent changes the word, which bhemu does not model"),
        ))
    }
}

/// `ATINCGETPTR`: a FIFO pointer bump on a 16-byte `{Rd, Wr, pad, pad}` control block in L1:
/// `Ofs` odd pushes (fails while full), even pops (fails while empty); the selected word's
/// low `IntWidth` bits advance by `1 << IncrLog2` (0 with `NoIncr`) and its old value goes to
/// the GPR. A failing check retries forever on hardware; bhemu reports the hang.
#[allow(clippy::too_many_arguments)]
pub fn atincgetptr(
    ctx: &mut Ctx,
    mem_hier_sel: u8,
    no_incr: u8,
    incr_log2: u8,
    int_width: u8,
    ofs: u8,
    result: u8,
    addr_reg: u8,
) -> UnitResult {
    if mem_hier_sel != 0 {
        return ctx.not_modelled("ATINCGETPTR with MemHierSel = 1");
    }
    if !check_regs(ctx, "ATINCGETPTR", &[result, addr_reg])? {
        return Ok(());
    }
    let t = ctx.thread;
    let a = ctx.state.gprs[t][addr_reg as usize].wrapping_mul(16);
    let rd = read_word(ctx, a)?;
    let wr = read_word(ctx, a + 4)?;
    let size = wr.wrapping_sub(rd);
    let empty = size == 0;
    if ofs & 1 != 0 {
        let capacity = if int_width != 0 {
            1u32 << (int_width - 1)
        } else {
            0x8000
        };
        if size % capacity == 0 && !empty {
            return Err(ctx.error(
                ErrorKind::Hang,
                format!("ATINCGETPTR push onto the full FIFO at {a:#x}: the hardware retries until it is popped, which bhemu does not model"),
            ));
        }
    } else if empty {
        return Err(ctx.error(
            ErrorKind::Hang,
            format!("ATINCGETPTR pop from the empty FIFO at {a:#x}: the hardware retries until it is pushed, which bhemu does not model"),
        ));
    }
    let wa = a + 4 * ofs as u32;
    let old = read_word(ctx, wa)?;
    let inc = ((no_incr == 0) as u32) << incr_log2;
    let mask = ((1u64 << int_width) - 1) as u32;
    let new = (old.wrapping_add(inc) & mask) | (old & !mask);
    ctx.write_l1(wa, &new.to_le_bytes())?;
    ctx.state.gprs[t][result as usize] = old;
    Ok(())
}
