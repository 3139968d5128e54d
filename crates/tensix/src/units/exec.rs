//! The one place that maps every Blackhole opcode to what it does to the data state: an
//! implementation of the generated [`Visit`] trait, so an opcode added to the table without a
//! decision here does not compile. Each method hands its typed fields to the one unit
//! function that holds the instruction's semantics (docs/instruction-table.md); a parameter
//! spelled `_name` is a field that function does not need.
//!
//! - Frontend/sync instructions (MOP, REPLAY, semaphores, STALLWAIT, mutexes, bank hand-over)
//!   have their effects in the coprocessor's frontend and Wait Gate (`insn::decode` reads
//!   their fields); here they are `Ok(())`.
//! - Matrix Unit computations build their [`MatrixOp`] from their fields and go to
//!   [`compute::matrix_unit`].
//! - Every `SFP*` instruction builds its Vector Unit operands from its fields (one
//!   [`SfpuInsn`] constructor per encoding shape) and goes to [`compute::vector_unit`],
//!   whose pipeline hands them to the one SFPU function of that instruction.
//!
//! Written one method a line (`rustfmt::skip`): the impl reads as a table, like the
//! generated one it implements.
use bhemu_isa::tensix::blackhole::operands::{Pacr, Unpacr};
use bhemu_isa::tensix::blackhole::Visit;

use super::{
    adc, compute, config, moves, pack, rwc, thcon, thcon_mem, thcon_mmio, unpack, Ctx, UnitResult,
};
use crate::error::ErrorKind;
use crate::matrix::MatrixOp;
use crate::sfpu::{Insn as SfpuInsn, Op as SfpuOp};

/// Applies one instruction's data effects through its unit function.
pub struct Exec<'c, 'a> {
    pub ctx: &'c mut Ctx<'a>,
}

impl Exec<'_, '_> {
    /// Issues the Vector Unit instruction `operands` builds (given the instruction word,
    /// which the unit keeps as a datum for SFPLOADMACRO's backdoor load and for errors).
    fn vector_unit(&mut self, operands: impl FnOnce(u32) -> SfpuInsn) -> UnitResult {
        let insn = operands(self.ctx.word);
        compute::vector_unit(self.ctx, insn)
    }
}

#[rustfmt::skip]
impl Visit for Exec<'_, '_> {
    type Out = UnitResult;
    fn mop(&mut self, _mop_type: u8, _loop_count: u8, _zmask_lo16_or_loop_count: u16) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn nop(&mut self) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn mop_cfg(&mut self, _zmask_hi16: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn replay(&mut self, _start_idx: u16, _len: u16, _execute_while_loading: u8, _load_mode: u8) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn resourcedecl(&mut self, _linger_time: u16, _resources: u16, _op_class: u8) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn movd2a(&mut self, dest_32b_lo: u8, src: u8, addr_mode: u8, instr_mod: u8, dst: u16) -> UnitResult { moves::movd2a(self.ctx, dest_32b_lo, src, addr_mode, instr_mod, dst) }
    fn movdbga2d(&mut self, dest_32b_lo: u8, src: u8, addr_mode: u8, instr_mod: u8, dst: u16) -> UnitResult { moves::movdbga2d(self.ctx, dest_32b_lo, src, addr_mode, instr_mod, dst) }
    fn movd2b(&mut self, dest_32b_lo: u8, src: u8, addr_mode: u8, instr_mod: u8, dst: u16) -> UnitResult { moves::movd2b(self.ctx, dest_32b_lo, src, addr_mode, instr_mod, dst) }
    fn movb2a(&mut self, srca: u8, addr_mode: u8, instr_mod: u8, srcb: u16) -> UnitResult { moves::movb2a(self.ctx, srca, addr_mode, instr_mod, srcb) }
    fn movdbgb2d(&mut self, _dest_32b_lo: u8, _src: u8, _addr_mode: u8, _movb2d_instr_mod: u8, _dst: u16) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn zeroacc(&mut self, clear_mode: u8, use_32_bit_mode: u8, clear_zero_flags: u8, addr_mode: u8, where_: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::zeroacc_blackhole(clear_mode, use_32_bit_mode, clear_zero_flags, addr_mode, where_)) }
    fn zerosrc(&mut self, zero_val: u32, write_mode: u8, bank_mask: u8, src_mask: u8) -> UnitResult { moves::zerosrc(self.ctx, zero_val, write_mode, bank_mask, src_mask) }
    fn mova2d(&mut self, dest_32b_lo: u8, src: u8, addr_mode: u8, instr_mod: u8, dst: u16) -> UnitResult { moves::mova2d(self.ctx, dest_32b_lo, src, addr_mode, instr_mod, dst) }
    fn movb2d(&mut self, dest_32b_lo: u8, src: u8, addr_mode: u8, movb2d_instr_mod: u8, dst: u16) -> UnitResult { moves::movb2d(self.ctx, dest_32b_lo, src, addr_mode, movb2d_instr_mod, dst) }
    fn trnspsrca(&mut self) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn rareb(&mut self) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn trnspsrcb(&mut self) -> UnitResult { moves::trnspsrcb(self.ctx) }
    fn shiftxa(&mut self, _log2_amount2: u32, _shift_mode: u8) -> UnitResult { self.ctx.not_modelled("SHIFTXA") }
    fn shiftxb(&mut self, addr_mode: u16, rot_shift: u8, shift_row: u16) -> UnitResult { moves::shiftxb(self.ctx, addr_mode, rot_shift, shift_row) }
    fn setashrmh0(&mut self, _reg_mask: u32, _halo_mask: u8) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn setashrmh1(&mut self, _reg_mask: u32, _halo_mask: u8) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn setashrmv(&mut self, _reg_mask2: u32) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn setpkedgof(&mut self, _y_end: u16, _y_start: u8, _x_end: u8, _x_start: u8) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn setashrmh(&mut self, _reg_mask: u32, _halo_mask: u8) -> UnitResult { compute::not_a_matrix_computation(self.ctx) }
    fn clrexphist(&mut self) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::Clrexphist) }
    fn conv3s1(&mut self, clear_dvalid: u8, _rotate_weights: u8, addr_mode: u8, _dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::legacy_no_op(clear_dvalid, addr_mode)) }
    fn conv3s2(&mut self, clear_dvalid: u8, _rotate_weights: u8, addr_mode: u8, _dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::legacy_no_op(clear_dvalid, addr_mode)) }
    fn mpool3s1(&mut self, _clear_dvalid: u8, _pool_addr_mode: u8, _index_en: u8, _dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::LegacyMpool) }
    fn apool3s1(&mut self, clear_dvalid: u8, pool_addr_mode: u8, _index_en: u8, _dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::legacy_no_op(clear_dvalid, pool_addr_mode)) }
    fn mvmul(&mut self, clear_dvalid: u8, instr_mod19: u8, addr_mode: u8, dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::mvmul(clear_dvalid, instr_mod19, addr_mode, dst)) }
    fn elwmul(&mut self, clear_dvalid: u8, dest_accum_en: u8, instr_mod19: u8, addr_mode: u8, dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::elwmul(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst)) }
    fn elwadd(&mut self, clear_dvalid: u8, dest_accum_en: u8, instr_mod19: u8, addr_mode: u8, dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::elwadd(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst)) }
    fn dotpv(&mut self, clear_dvalid: u8, dest_accum_en: u8, instr_mod19: u8, addr_mode: u8, dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::dotpv(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst)) }
    fn elwsub(&mut self, clear_dvalid: u8, dest_accum_en: u8, instr_mod19: u8, addr_mode: u8, dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::elwsub(clear_dvalid, dest_accum_en, instr_mod19, addr_mode, dst)) }
    fn mpool3s2(&mut self, _clear_dvalid: u8, _pool_addr_mode: u8, _index_en: u8, _dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::LegacyMpool) }
    fn apool3s2(&mut self, clear_dvalid: u8, pool_addr_mode: u8, _index_en: u8, _dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::legacy_no_op(clear_dvalid, pool_addr_mode)) }
    fn gmpool(&mut self, clear_dvalid: u8, instr_mod19: u8, pool_addr_mode: u8, max_pool_index_en: u8, dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::gmpool(clear_dvalid, instr_mod19, pool_addr_mode, max_pool_index_en, dst)) }
    fn gapool(&mut self, clear_dvalid: u8, instr_mod19: u8, pool_addr_mode: u8, max_pool_index_en: u8, dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::gapool(clear_dvalid, instr_mod19, pool_addr_mode, max_pool_index_en, dst)) }
    fn gatesrcrst(&mut self, _reset_srcb_gate_control: u32, _reset_srca_gate_control: u8) -> UnitResult {
        // Resets the Matrix Unit's Src read gating, a power-saving detail with no effect on
        // any datum; tt-llk issues it between reconfigurations. Nothing to compute.
        Ok(())
    }
    fn cleardvalid(&mut self, _cleardvalid: u8, _reset: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn setrwc(&mut self, clear_ab_vld: u8, rwc_cr: u8, rwc_d: u8, rwc_b: u8, rwc_a: u8, bit_mask: u8) -> UnitResult {
        rwc::setrwc(
            self.ctx,
            clear_ab_vld,
            rwc_cr,
            rwc_d,
            rwc_b,
            rwc_a,
            bit_mask,
        )
    }
    fn incrwc(&mut self, rwc_cr: u8, rwc_d: u8, rwc_b: u8, rwc_a: u8) -> UnitResult { rwc::incrwc(self.ctx, rwc_cr, rwc_d, rwc_b, rwc_a) }
    fn setibrwc(&mut self, _rwc_cr: u8, _rwc_bias: u16, _set_inc_ctrl: u8) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn mfconv3s1(&mut self, clear_dvalid: u8, _rotate_weights: u8, addr_mode: u8, _dst: u16) -> UnitResult { compute::matrix_unit(self.ctx, MatrixOp::legacy_no_op(clear_dvalid, addr_mode)) }
    fn xmov(&mut self, _mov_block_selection: u8, _last: u32) -> UnitResult { self.ctx.not_modelled("XMOV") }
    fn pacr(&mut self, cfg_context: u8, row_pad_zero: u8, dst_access_mode: u8, addr_mode: u8, addr_cnt_context: u8, zero_write: u8, read_intf_sel: u8, ovrd_thread_id: u8, concat: u8, ctxt_ctrl: u8, flush: u8, last: u8) -> UnitResult {
        pack::pacr(
            self.ctx,
            Pacr { cfg_context, row_pad_zero, dst_access_mode, addr_mode, addr_cnt_context, zero_write, read_intf_sel, ovrd_thread_id, concat, ctxt_ctrl, flush, last },
        )
    }
    fn unpacr(&mut self, unpack_block_selection: u8, addr_mode: u8, cfg_context_cnt_inc: u8, cfg_context_id: u8, addr_cnt_context_id: u8, ovrd_thread_id: u8, set_dat_valid: u8, srcb_bcast: u8, zero_write2: u8, auto_inc_context_id: u8, row_search: u8, search_cache_flush: u8, last: u8) -> UnitResult {
        unpack::unpacr(
            self.ctx,
            Unpacr { unpack_block_selection, addr_mode, cfg_context_cnt_inc, cfg_context_id, addr_cnt_context_id, ovrd_thread_id, set_dat_valid, srcb_bcast, zero_write2, auto_inc_context_id, row_search, search_cache_flush, last },
        )
    }
    fn unpacr_nop(&mut self, unpacker_select: u8, _stream_id: u8, _msg_clr_cnt: u8, set_dvalid: u8, _clr_to1_fmt_ctrl: u8, _stall_clr_cntrl: u8, bank_clr_ctrl: u8, src_clr_val_ctrl: u8, unpack_pop: u8) -> UnitResult {
        unpack::unpacr_nop(
            self.ctx,
            unpacker_select,
            set_dvalid,
            bank_clr_ctrl,
            src_clr_val_ctrl,
            unpack_pop,
        )
    }
    fn rstdma(&mut self) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn setdmareg(&mut self, payload_sig_sel_size: u8, payload_sig_sel: u16, set_signals_mode: u8, reg_index16b: u8) -> UnitResult {
        thcon::setdmareg(
            self.ctx,
            payload_sig_sel_size,
            payload_sig_sel,
            set_signals_mode,
            reg_index16b,
        )
    }
    fn flushdma(&mut self, _flush_spec: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn reg2flop(&mut self, size_sel: u8, target_sel: u8, byte_offset: u8, context_id_2: u8, flop_index: u16, reg_index: u8) -> UnitResult {
        thcon::reg2flop(
            self.ctx,
            size_sel,
            target_sel,
            byte_offset,
            context_id_2,
            flop_index,
            reg_index,
        )
    }
    fn loadind(&mut self, size_sel: u8, offset_index: u8, auto_inc_spec: u8, data_reg_index: u8, addr_reg_index: u8) -> UnitResult {
        thcon_mem::loadind(
            self.ctx,
            size_sel,
            offset_index,
            auto_inc_spec,
            data_reg_index,
            addr_reg_index,
        )
    }
    fn pacr_setreg(&mut self, _push: u8, _mode_sel: u8, _unused: u16, _disable_stall: u8, _addr_sel: u8, _stream_id: u8, _flush: u8, _last: u8) -> UnitResult { self.ctx.not_modelled("PACR_SETREG") }
    fn tbufcmd(&mut self) -> UnitResult { self.ctx.not_modelled("TBUFCMD") }
    fn setadc(&mut self, cnt_set_mask: u8, channel_index: u8, dimension_index: u8, value: u32) -> UnitResult {
        adc::setadc(
            self.ctx,
            cnt_set_mask,
            channel_index,
            dimension_index,
            value,
        )
    }
    fn setadcxy(&mut self, cnt_set_mask: u8, ch1_y: u8, ch1_x: u8, ch0_y: u8, ch0_x: u8, bit_mask: u8) -> UnitResult { adc::setadcxy(self.ctx, cnt_set_mask, ch1_y, ch1_x, ch0_y, ch0_x, bit_mask) }
    fn incadcxy(&mut self, cnt_set_mask: u8, ch1_y: u8, ch1_x: u8, ch0_y: u8, ch0_x: u8) -> UnitResult { adc::incadcxy(self.ctx, cnt_set_mask, ch1_y, ch1_x, ch0_y, ch0_x) }
    fn addrcrxy(&mut self, cnt_set_mask: u8, ch1_y: u8, ch1_x: u8, ch0_y: u8, ch0_x: u8, bit_mask: u8) -> UnitResult { adc::addrcrxy(self.ctx, cnt_set_mask, ch1_y, ch1_x, ch0_y, ch0_x, bit_mask) }
    fn setadczw(&mut self, cnt_set_mask: u8, ch1_y: u8, ch1_x: u8, ch0_y: u8, ch0_x: u8, bit_mask: u8) -> UnitResult { adc::setadczw(self.ctx, cnt_set_mask, ch1_y, ch1_x, ch0_y, ch0_x, bit_mask) }
    fn incadczw(&mut self, cnt_set_mask: u8, ch1_y: u8, ch1_x: u8, ch0_y: u8, ch0_x: u8) -> UnitResult { adc::incadczw(self.ctx, cnt_set_mask, ch1_y, ch1_x, ch0_y, ch0_x) }
    fn addrcrzw(&mut self, cnt_set_mask: u8, ch1_y: u8, ch1_x: u8, ch0_y: u8, ch0_x: u8, bit_mask: u8) -> UnitResult { adc::addrcrzw(self.ctx, cnt_set_mask, ch1_y, ch1_x, ch0_y, ch0_x, bit_mask) }
    fn setdvalid(&mut self, _setvalid: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn adddmareg(&mut self, op_bis_const: u8, result_reg_index: u16, op_breg_index: u8, op_areg_index: u8) -> UnitResult {
        thcon::adddmareg(
            self.ctx,
            op_bis_const,
            result_reg_index,
            op_breg_index,
            op_areg_index,
        )
    }
    fn subdmareg(&mut self, op_bis_const: u8, result_reg_index: u16, op_breg_index: u8, op_areg_index: u8) -> UnitResult {
        thcon::subdmareg(
            self.ctx,
            op_bis_const,
            result_reg_index,
            op_breg_index,
            op_areg_index,
        )
    }
    fn muldmareg(&mut self, op_bis_const: u8, result_reg_index: u16, op_breg_index: u8, op_areg_index: u8) -> UnitResult {
        thcon::muldmareg(
            self.ctx,
            op_bis_const,
            result_reg_index,
            op_breg_index,
            op_areg_index,
        )
    }
    fn bitwopdmareg(&mut self, op_bis_const: u8, op_sel: u8, result_reg_index: u8, op_breg_index: u8, op_areg_index: u8) -> UnitResult {
        thcon::bitwopdmareg(
            self.ctx,
            op_bis_const,
            op_sel,
            result_reg_index,
            op_breg_index,
            op_areg_index,
        )
    }
    fn shiftdmareg(&mut self, op_bis_const: u8, op_sel: u8, result_reg_index: u8, op_breg_index: u8, op_areg_index: u8) -> UnitResult {
        thcon::shiftdmareg(
            self.ctx,
            op_bis_const,
            op_sel,
            result_reg_index,
            op_breg_index,
            op_areg_index,
        )
    }
    fn cmpdmareg(&mut self, op_bis_const: u8, op_sel: u8, result_reg_index: u8, op_breg_index: u8, op_areg_index: u8) -> UnitResult {
        thcon::cmpdmareg(
            self.ctx,
            op_bis_const,
            op_sel,
            result_reg_index,
            op_breg_index,
            op_areg_index,
        )
    }
    fn setadcxx(&mut self, cnt_set_mask: u8, x_end2: u16, x_start: u16) -> UnitResult { adc::setadcxx(self.ctx, cnt_set_mask, x_end2, x_start) }
    fn dmanop(&mut self) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn atincget(&mut self, mem_hier_sel: u8, wrap_val: u16, sel32b: u8, data_reg_index: u8, addr_reg_index: u8) -> UnitResult {
        thcon_mem::atincget(
            self.ctx,
            mem_hier_sel,
            wrap_val,
            sel32b,
            data_reg_index,
            addr_reg_index,
        )
    }
    fn atincgetptr(&mut self, mem_hier_sel: u8, no_incr: u8, incr_val: u8, wrap_val: u8, sel32b: u8, data_reg_index: u8, addr_reg_index: u8) -> UnitResult {
        thcon_mem::atincgetptr(
            self.ctx,
            mem_hier_sel,
            no_incr,
            incr_val,
            wrap_val,
            sel32b,
            data_reg_index,
            addr_reg_index,
        )
    }
    fn atswap(&mut self, mem_hier_sel: u8, swap_mask: u16, data_reg_index: u8, addr_reg_index: u8) -> UnitResult {
        thcon_mem::atswap(
            self.ctx,
            mem_hier_sel,
            swap_mask,
            data_reg_index,
            addr_reg_index,
        )
    }
    fn atcas(&mut self, mem_hier_sel: u8, swap_val: u8, cmp_val: u8, sel32b: u8, data_reg_index: u8, addr_reg_index: u8) -> UnitResult {
        thcon_mem::atcas(
            self.ctx,
            mem_hier_sel,
            swap_val,
            cmp_val,
            sel32b,
            data_reg_index,
            addr_reg_index,
        )
    }
    fn storeind(&mut self, mem_hier_sel: u8, size_sel: u8, reg_size_sel: u8, offset_index: u8, auto_inc_spec: u8, data_reg_index: u8, addr_reg_index: u8) -> UnitResult {
        thcon_mem::storeind(
            self.ctx,
            mem_hier_sel,
            size_sel,
            reg_size_sel,
            offset_index,
            auto_inc_spec,
            data_reg_index,
            addr_reg_index,
        )
    }
    fn storereg(&mut self, tdma_data_reg_index: u8, reg_addr: u32) -> UnitResult { thcon_mmio::storereg(self.ctx, tdma_data_reg_index, reg_addr) }
    fn loadreg(&mut self, tdma_data_reg_index: u8, reg_addr: u32) -> UnitResult { thcon_mmio::loadreg(self.ctx, tdma_data_reg_index, reg_addr) }
    fn sfpload(&mut self, lreg_ind: u8, instr_mod0: u8, sfpu_addr_mode: u8, dest_reg_addr: u16) -> UnitResult { self.vector_unit(|w| SfpuInsn::dst_access(SfpuOp::Sfpload, w, lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr)) }
    fn sfploadi(&mut self, lreg_ind: u8, instr_mod0: u8, imm16: u16) -> UnitResult { self.vector_unit(|w| SfpuInsn::load_imm(w, lreg_ind, instr_mod0, imm16)) }
    fn sfpstore(&mut self, lreg_ind: u8, instr_mod0: u8, sfpu_addr_mode: u8, dest_reg_addr: u16) -> UnitResult { self.vector_unit(|w| SfpuInsn::dst_access(SfpuOp::Sfpstore, w, lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr)) }
    fn sfplut(&mut self, lreg_ind: u8, instr_mod0: u8, dest_reg_addr: u16) -> UnitResult { self.vector_unit(|w| SfpuInsn::lut(w, lreg_ind, instr_mod0, dest_reg_addr)) }
    fn sfpmuli(&mut self, imm16_math: u16, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::imm16(SfpuOp::Sfpmuli, w, imm16_math, lreg_dest, instr_mod1)) }
    fn sfpaddi(&mut self, imm16_math: u16, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::imm16(SfpuOp::Sfpaddi, w, imm16_math, lreg_dest, instr_mod1)) }
    fn sfpdivp2(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpdivp2, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpexexp(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpexexp, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpexman(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpexman, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpiadd(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpiadd, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpshft(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpshft, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpsetcc(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpsetcc, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpmov(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpmov, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpabs(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpabs, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpand(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpand, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpor(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpor, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpnot(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpnot, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfplz(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfplz, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpsetexp(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpsetexp, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpsetman(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpsetman, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpmad(&mut self, lreg_src_a: u8, lreg_src_b: u8, lreg_src_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::mad(SfpuOp::Sfpmad, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfpadd(&mut self, lreg_src_a: u8, lreg_src_b: u8, lreg_src_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::mad(SfpuOp::Sfpadd, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfpmul(&mut self, lreg_src_a: u8, lreg_src_b: u8, lreg_src_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::mad(SfpuOp::Sfpmul, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfppushc(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfppushc, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfppopc(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfppopc, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpsetsgn(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpsetsgn, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpencc(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpencc, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpcompc(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpcompc, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfptransp(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfptransp, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpxor(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpxor, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfp_stoch_rnd(&mut self, rnd_mode: u8, imm8_math: u8, lreg_src_b: u8, lreg_src_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::stoch_rnd(w, rnd_mode, imm8_math, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfpnop(&mut self) -> UnitResult { self.vector_unit(SfpuInsn::nop) }
    fn sfpcast(&mut self, lreg_src_c: u16, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::cast(w, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfpconfig(&mut self, imm16_math: u16, config_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::imm16(SfpuOp::Sfpconfig, w, imm16_math, config_dest, instr_mod1)) }
    fn sfpswap(&mut self, imm12_math: u16, lreg_src_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpswap, w, imm12_math, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfploadmacro(&mut self, lreg_ind: u8, instr_mod0: u8, sfpu_addr_mode: u8, dest_reg_addr: u16) -> UnitResult { self.vector_unit(|w| SfpuInsn::dst_access(SfpuOp::Sfploadmacro, w, lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr)) }
    fn sfpshft2(&mut self, imm12_math: u16, lreg_src_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpshft2, w, imm12_math, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfplutfp32(&mut self, lreg_dest: u32, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::lutfp32(w, lreg_dest, instr_mod1)) }
    fn sfple(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfple, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpgt(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfpgt, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn sfpmul24(&mut self, lreg_src_a: u8, lreg_src_b: u8, lreg_src_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::mad(SfpuOp::Sfpmul24, w, lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)) }
    fn sfparecip(&mut self, imm12_math: u16, lreg_c: u8, lreg_dest: u8, instr_mod1: u8) -> UnitResult { self.vector_unit(|w| SfpuInsn::reg_imm(SfpuOp::Sfparecip, w, imm12_math, lreg_c, lreg_dest, instr_mod1)) }
    fn atgetm(&mut self, _mutex_index: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn atrelm(&mut self, _mutex_index: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn stallwait(&mut self, _stall_res: u16, _wait_res: u16) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn seminit(&mut self, _max_value: u8, _init_value: u8, _sem_sel: u16) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn sempost(&mut self, _sem_sel: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn semget(&mut self, _sem_sel: u32) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn semwait(&mut self, _stall_res: u16, _sem_sel: u16, _wait_sem_cond: u8) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn streamwait(&mut self, _stall_res: u16, _target_value: u16, _target_sel: u8, _wait_stream_sel: u8) -> UnitResult { Ok(()) } // timing only: no data effect modelled
    fn wrcfg(&mut self, gpr_address: u8, wr128b: u8, cfg_reg: u16) -> UnitResult { config::wrcfg(self.ctx, gpr_address, wr128b, cfg_reg) }
    fn rdcfg(&mut self, gpr_address: u8, cfg_reg: u16) -> UnitResult { config::rdcfg(self.ctx, gpr_address, cfg_reg) }
    fn setc16(&mut self, setc16_reg: u8, setc16_value: u16) -> UnitResult { config::setc16(self.ctx, setc16_reg, setc16_value) }
    fn rmwcib0(&mut self, mask: u8, data: u8, cfg_reg_addr: u8) -> UnitResult { config::rmwcib(self.ctx, 0, mask, data, cfg_reg_addr) }
    fn rmwcib1(&mut self, mask: u8, data: u8, cfg_reg_addr: u8) -> UnitResult { config::rmwcib(self.ctx, 1, mask, data, cfg_reg_addr) }
    fn rmwcib2(&mut self, mask: u8, data: u8, cfg_reg_addr: u8) -> UnitResult { config::rmwcib(self.ctx, 2, mask, data, cfg_reg_addr) }
    fn rmwcib3(&mut self, mask: u8, data: u8, cfg_reg_addr: u8) -> UnitResult { config::rmwcib(self.ctx, 3, mask, data, cfg_reg_addr) }
    fn streamwrcfg(&mut self, _stream_id_sel: u8, _stream_reg_addr: u16, _cfg_reg: u16) -> UnitResult { self.ctx.not_modelled("STREAMWRCFG") }
    fn cfgshiftmask(&mut self, disable_mask_on_old_val: u8, operation: u8, mask_width: u8, right_cshift_amt: u8, scratch_sel: u8, cfg_reg: u8) -> UnitResult {
        config::cfgshiftmask(
            self.ctx,
            disable_mask_on_old_val,
            operation,
            mask_width,
            right_cshift_amt,
            scratch_sel,
            cfg_reg,
        )
    }
    fn unknown(&mut self, word: u32) -> UnitResult { Err(self.ctx.error(ErrorKind::Invalid, format!("unknown opcode {:#04x} dispatched", word >> 24))) }
}
