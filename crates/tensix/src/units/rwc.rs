//! Register-window counters: SETRWC and INCRWC (Matrix Unit). Effects at dispatch; SETRWC's
//! bank flips (`clear_ab_vld`) are the Wait Gate's bank hand-over, applied by the frontend.
//! Pages: tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/{SETRWC,INCRWC}.md.
use super::{Ctx, UnitResult};

/// `SETRWC`: `BitMask` bits 0..3 select SrcA, SrcB, Dst, Fidelity; `rwc_cr` bits 0..3 are
/// SrcACr, SrcBCr, DstCr, DstCtoCr.
pub fn setrwc(
    ctx: &mut Ctx,
    _clear_ab_vld: u8,
    rwc_cr: u8,
    rwc_d: u8,
    rwc_b: u8,
    rwc_a: u8,
    bit_mask: u8,
) -> UnitResult {
    let t = ctx.thread;
    let r = &mut ctx.state.rwcs[t];
    if bit_mask & 1 != 0 {
        let mut v = rwc_a;
        if rwc_cr & 1 != 0 {
            v = v.wrapping_add(r.src_a_cr);
        }
        r.src_a = v & 0x3f;
        r.src_a_cr = v & 0x3f;
    }
    if bit_mask & 2 != 0 {
        let mut v = rwc_b;
        if rwc_cr & 2 != 0 {
            v = v.wrapping_add(r.src_b_cr);
        }
        r.src_b = v & 0x3f;
        r.src_b_cr = v & 0x3f;
    }
    if bit_mask & 4 != 0 || rwc_cr & 8 != 0 {
        let mut v = rwc_d as u16;
        if rwc_cr & 8 != 0 {
            v = v.wrapping_add(r.dst);
        } else if rwc_cr & 4 != 0 {
            v = v.wrapping_add(r.dst_cr);
        }
        r.dst = v & 0x3ff;
        r.dst_cr = v & 0x3ff;
    }
    if bit_mask & 8 != 0 {
        r.fidelity_phase = 0;
    }
    Ok(())
}

/// `INCRWC`: `rwc_cr` bits 0..2 are SrcACr, SrcBCr, DstCr.
pub fn incrwc(ctx: &mut Ctx, rwc_cr: u8, rwc_d: u8, rwc_b: u8, rwc_a: u8) -> UnitResult {
    let t = ctx.thread;
    let r = &mut ctx.state.rwcs[t];
    if rwc_cr & 1 != 0 {
        r.src_a_cr = r.src_a_cr.wrapping_add(rwc_a) & 0x3f;
        r.src_a = r.src_a_cr;
    } else {
        r.src_a = r.src_a.wrapping_add(rwc_a) & 0x3f;
    }
    if rwc_cr & 2 != 0 {
        r.src_b_cr = r.src_b_cr.wrapping_add(rwc_b) & 0x3f;
        r.src_b = r.src_b_cr;
    } else {
        r.src_b = r.src_b.wrapping_add(rwc_b) & 0x3f;
    }
    if rwc_cr & 4 != 0 {
        r.dst_cr = r.dst_cr.wrapping_add(rwc_d as u16) & 0x3ff;
        r.dst = r.dst_cr;
    } else {
        r.dst = r.dst.wrapping_add(rwc_d as u16) & 0x3ff;
    }
    Ok(())
}
