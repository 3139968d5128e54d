//! Address counters (ADCs) of the unpackers and packers: the Miscellaneous Unit's SETADC
//! family. Effects at dispatch. Pages: tt-isa-documentation WormholeB0/TensixTile/
//! TensixCoprocessor/{SETADC,SETADCXX,SETADCXY,SETADCZW,INCADCXY,INCADCZW,ADDRCRXY,
//! ADDRCRZW}.md.
//!
//! `CntSetMask` bit 0 selects Unpacker 0, bit 1 Unpacker 1, bit 2 the packers. In the XY/ZW
//! forms the field that the instruction table calls `Ch1_Y` holds `Y1Val` (bits 0..2) and
//! `ThreadOverride` (bits 3..4): 0 means the current thread, n means thread n-1.
use crate::state::{AdcUnit, Coord};

use super::{Ctx, UnitResult};

/// The units selected by `CntSetMask`.
fn units(mask: u8) -> impl Iterator<Item = AdcUnit> {
    [AdcUnit::Unpacker0, AdcUnit::Unpacker1, AdcUnit::Packers]
        .into_iter()
        .enumerate()
        .filter(move |(i, _)| mask & (1 << i) != 0)
        .map(|(_, u)| u)
}

/// `ThreadOverride == 0 ? CurrentThread : ThreadOverride - 1`; 3 is not a thread.
fn which_thread(ctx: &mut Ctx, name: &str, ovr: u32) -> Result<Option<usize>, crate::TensixError> {
    match ovr {
        0 => Ok(Some(ctx.thread)),
        1..=3 => Ok(Some(ovr as usize - 1)),
        _ => {
            ctx.undefined(format!(
                "{name}: ThreadOverride {ovr} names no thread; ignored"
            ))?;
            Ok(None)
        }
    }
}

/// `SETADC`: one counter (X/Y/Z/W by `XYZW`) of one channel, and its carriage-return copy,
/// to `NewValue` (18 bits, whose top two bits are also `ThreadOverride`).
pub fn setadc(
    ctx: &mut Ctx,
    cnt_set_mask: u8,
    channel_index: u8,
    dimension_index: u8,
    value: u32,
) -> UnitResult {
    let Some(t) = which_thread(ctx, "SETADC", value >> 16)? else {
        return Ok(());
    };
    let c = [Coord::X, Coord::Y, Coord::Z, Coord::W][dimension_index as usize & 3];
    for u in units(cnt_set_mask) {
        ctx.state.adcs[t].unit_mut(u)[channel_index as usize & 1].set_both(c, value);
    }
    Ok(())
}

/// `SETADCXX`: both channels' X (and X_Cr): channel 0 to `X0Val`, channel 1 to `X1Val`.
pub fn setadcxx(ctx: &mut Ctx, cnt_set_mask: u8, x_end2: u16, x_start: u16) -> UnitResult {
    if x_end2 >> 10 != 0 {
        return ctx.undefined("SETADCXX: reserved bit 20 set; ignored");
    }
    let t = ctx.thread;
    for u in units(cnt_set_mask) {
        let ch = ctx.state.adcs[t].unit_mut(u);
        ch[0].set_both(Coord::X, x_start as u32);
        ch[1].set_both(Coord::X, x_end2 as u32);
    }
    Ok(())
}

/// The four 3-bit values and the thread of the XY / ZW forms.
struct Four {
    t: usize,
    v0a: u32,
    v0b: u32,
    v1a: u32,
    v1b: u32,
}

fn four(
    ctx: &mut Ctx,
    name: &str,
    ch1_y: u8,
    ch1_x: u8,
    ch0_y: u8,
    ch0_x: u8,
) -> Result<Option<Four>, crate::TensixError> {
    if ch1_y >> 5 != 0 {
        ctx.undefined(format!("{name}: reserved bit 20 set; ignored"))?;
        return Ok(None);
    }
    let Some(t) = which_thread(ctx, name, (ch1_y >> 3) as u32)? else {
        return Ok(None);
    };
    Ok(Some(Four {
        t,
        v0a: ch0_x as u32,
        v0b: ch0_y as u32,
        v1a: ch1_x as u32,
        v1b: (ch1_y & 7) as u32,
    }))
}

/// SETADCXY / SETADCZW: set (with carriage-return copy) the counters whose `BitMask` bit
/// is set: bit 0 channel 0 first coordinate, bit 1 channel 0 second, bit 2 channel 1 first,
/// bit 3 channel 1 second.
fn set_pair(ctx: &mut Ctx, mask: u8, f: Four, a: Coord, b: Coord, bits: u8) {
    for u in units(mask) {
        let ch = ctx.state.adcs[f.t].unit_mut(u);
        if bits & 1 != 0 {
            ch[0].set_both(a, f.v0a);
        }
        if bits & 2 != 0 {
            ch[0].set_both(b, f.v0b);
        }
        if bits & 4 != 0 {
            ch[1].set_both(a, f.v1a);
        }
        if bits & 8 != 0 {
            ch[1].set_both(b, f.v1b);
        }
    }
}

/// INCADCXY / INCADCZW: add the four increments to the counters (not the CR copies).
fn inc_pair(ctx: &mut Ctx, mask: u8, f: Four, a: Coord, b: Coord) {
    for u in units(mask) {
        let ch = ctx.state.adcs[f.t].unit_mut(u);
        let (x, y) = (ch[0].get(a), ch[0].get(b));
        ch[0].set(a, x.wrapping_add(f.v0a));
        ch[0].set(b, y.wrapping_add(f.v0b));
        let (x, y) = (ch[1].get(a), ch[1].get(b));
        ch[1].set(a, x.wrapping_add(f.v1a));
        ch[1].set(b, y.wrapping_add(f.v1b));
    }
}

/// ADDRCRXY / ADDRCRZW: for the selected counters, `Cr += Inc; counter = Cr`.
fn cr_pair(ctx: &mut Ctx, mask: u8, f: Four, a: Coord, b: Coord, bits: u8) {
    for u in units(mask) {
        let ch = ctx.state.adcs[f.t].unit_mut(u);
        let sel = [(0, a, f.v0a), (0, b, f.v0b), (1, a, f.v1a), (1, b, f.v1b)];
        for (k, (c, coord, inc)) in sel.into_iter().enumerate() {
            if bits & (1 << k) != 0 {
                let v = ch[c].get_cr(coord).wrapping_add(inc);
                ch[c].set_both(coord, v);
            }
        }
    }
}

/// `SETADCXY`.
pub fn setadcxy(ctx: &mut Ctx, m: u8, c1y: u8, c1x: u8, c0y: u8, c0x: u8, bits: u8) -> UnitResult {
    if let Some(f) = four(ctx, "SETADCXY", c1y, c1x, c0y, c0x)? {
        set_pair(ctx, m, f, Coord::X, Coord::Y, bits);
    }
    Ok(())
}

/// `SETADCZW`.
pub fn setadczw(ctx: &mut Ctx, m: u8, c1y: u8, c1x: u8, c0y: u8, c0x: u8, bits: u8) -> UnitResult {
    if let Some(f) = four(ctx, "SETADCZW", c1y, c1x, c0y, c0x)? {
        set_pair(ctx, m, f, Coord::Z, Coord::W, bits);
    }
    Ok(())
}

/// `INCADCXY`.
pub fn incadcxy(ctx: &mut Ctx, m: u8, c1y: u8, c1x: u8, c0y: u8, c0x: u8) -> UnitResult {
    if let Some(f) = four(ctx, "INCADCXY", c1y, c1x, c0y, c0x)? {
        inc_pair(ctx, m, f, Coord::X, Coord::Y);
    }
    Ok(())
}

/// `INCADCZW`.
pub fn incadczw(ctx: &mut Ctx, m: u8, c1y: u8, c1x: u8, c0y: u8, c0x: u8) -> UnitResult {
    if let Some(f) = four(ctx, "INCADCZW", c1y, c1x, c0y, c0x)? {
        inc_pair(ctx, m, f, Coord::Z, Coord::W);
    }
    Ok(())
}

/// `ADDRCRXY`.
pub fn addrcrxy(ctx: &mut Ctx, m: u8, c1y: u8, c1x: u8, c0y: u8, c0x: u8, bits: u8) -> UnitResult {
    if let Some(f) = four(ctx, "ADDRCRXY", c1y, c1x, c0y, c0x)? {
        cr_pair(ctx, m, f, Coord::X, Coord::Y, bits);
    }
    Ok(())
}

/// `ADDRCRZW`.
pub fn addrcrzw(ctx: &mut Ctx, m: u8, c1y: u8, c1x: u8, c0y: u8, c0x: u8, bits: u8) -> UnitResult {
    if let Some(f) = four(ctx, "ADDRCRZW", c1y, c1x, c0y, c0x)? {
        cr_pair(ctx, m, f, Coord::Z, Coord::W, bits);
    }
    Ok(())
}
