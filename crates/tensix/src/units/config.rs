//! Configuration Unit: writes and reads of `Config` / `ThreadConfig`. Effects at dispatch.
//! Pages: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/{SETC16,WRCFG,RDCFG,
//! RMWCIB}.md.
use crate::state::cfg_fields::THD_STATE_SIZE;
use crate::state::{CFG_WORDS, GPRS};

use super::{Ctx, UnitResult};

/// `SETC16`: `ThreadConfig[CurrentThread][CfgIndex].Value = NewValue`.
pub fn setc16(ctx: &mut Ctx, setc16_reg: u8, setc16_value: u16) -> UnitResult {
    let idx = setc16_reg as usize;
    if idx >= THD_STATE_SIZE {
        return ctx.undefined(format!(
            "SETC16 index {idx} >= THD_STATE_SIZE ({THD_STATE_SIZE}); nothing written"
        ));
    }
    let t = ctx.thread;
    let _ = ctx.state.cfg.write_thread_word(t, idx, setc16_value);
    Ok(())
}

/// Checks a GPR operand field (the encoding leaves room for indices above 63).
fn gpr(ctx: &mut Ctx, what: &str, index: u32) -> Result<Option<usize>, crate::TensixError> {
    if index as usize >= GPRS {
        ctx.undefined(format!(
            "{what} GPR index {index} >= {GPRS}; instruction ignored"
        ))?;
        return Ok(None);
    }
    Ok(Some(index as usize))
}

/// Checks a `Config` word index.
fn cfg_index(ctx: &mut Ctx, what: &str, index: u32) -> Result<Option<usize>, crate::TensixError> {
    if index as usize >= CFG_WORDS {
        ctx.undefined(format!(
            "{what} configuration index {index} >= CFG_STATE_SIZE*4 ({CFG_WORDS}); instruction ignored"
        ))?;
        return Ok(None);
    }
    Ok(Some(index as usize))
}

/// `WRCFG`: `Config[StateID][CfgIndex] = GPRs[CurrentThread][InputReg]`, or 16 bytes from
/// the aligned group of four GPRs to the aligned group of four words.
pub fn wrcfg(ctx: &mut Ctx, gpr_address: u8, wr128b: u8, cfg_reg: u16) -> UnitResult {
    let (Some(g), Some(c)) = (
        gpr(ctx, "WRCFG", gpr_address as u32)?,
        cfg_index(ctx, "WRCFG", cfg_reg as u32)?,
    ) else {
        return Ok(());
    };
    let t = ctx.thread;
    let sid = ctx.state.cfg.state_id(t);
    if wr128b != 0 {
        for k in 0..4 {
            let v = ctx.state.gprs[t][(g & !3) + k];
            let _ = ctx.state.cfg.write_word(sid, (c & !3) + k, v);
        }
    } else {
        let v = ctx.state.gprs[t][g];
        let _ = ctx.state.cfg.write_word(sid, c, v);
    }
    Ok(())
}

/// `RDCFG`: `GPRs[CurrentThread][ResultReg] = Config[StateID][CfgIndex]`.
pub fn rdcfg(ctx: &mut Ctx, gpr_address: u8, cfg_reg: u16) -> UnitResult {
    let (Some(g), Some(c)) = (
        gpr(ctx, "RDCFG", gpr_address as u32)?,
        cfg_index(ctx, "RDCFG", cfg_reg as u32)?,
    ) else {
        return Ok(());
    };
    let t = ctx.thread;
    let sid = ctx.state.cfg.state_id(t);
    ctx.state.gprs[t][g] = ctx.state.cfg.word(sid, c).unwrap_or(0);
    Ok(())
}

/// `RMWCIB0..3`: read-modify-write of byte `index1` of `Config[StateID][Index4]`:
/// `(NewValue & Mask) | (Old & ~Mask)`. Never triggers the `STATE_RESET_EN` clear
/// (BackendConfiguration.md: "except via RMWCIB").
pub fn rmwcib(ctx: &mut Ctx, index1: u32, mask: u8, data: u8, cfg_reg_addr: u8) -> UnitResult {
    let Some(c) = cfg_index(ctx, "RMWCIB", cfg_reg_addr as u32)? else {
        return Ok(());
    };
    let t = ctx.thread;
    let sid = ctx.state.cfg.state_id(t);
    let old = ctx.state.cfg.word(sid, c).unwrap_or(0);
    let shift = 8 * index1;
    let old_byte = (old >> shift) as u8;
    let new_byte = (data & mask) | (old_byte & !mask);
    let word = (old & !(0xff << shift)) | ((new_byte as u32) << shift);
    let _ = ctx.state.cfg.write_word_plain(sid, c, word);
    Ok(())
}
