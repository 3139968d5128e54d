//! Execution of one pre-decoded op. The common cases are inline in one `match` over a `u8`
//! kind; CSRs, AMOs and every exceptional path are out of line so the hot loop stays small.
use crate::alu;
use crate::bus::{Access, Bus, BusFault, Width};
use crate::cache::DecodeCache;
use crate::csr::{self, CsrSlot, Csrs};
use crate::error::HartErrorKind as E;
use crate::hart::{Flow, HartConfig, MisalignedAccess};
use crate::op::{Kind, Op, AMO_OPS, CSR_OPS, X0_SINK};
use bhemu_isa::riscv::{encode, AmoOp, CsrOp, Insn};

/// The architectural state instructions read and write, apart from the pc (which each op
/// receives and returns) and the decode cache (passed alongside: a separate struct lets
/// `Hart::step` lend both at once without moving either, which halves the cost of a step).
/// `repr(C)`: the counters first, then the registers, laid out as [`crate::Hart`] documents.
#[repr(C)]
pub(crate) struct Core {
    pub cycles: u64,
    pub instret: u64,
    /// x0..x31, then the sink slot for writes to x0 (see `op::X0_SINK`), then padding so
    /// that a 6-bit index needs no bounds check.
    pub x: [u32; 64],
    pub csr: Csrs,
    pub cfg: HartConfig,
    /// The bus's sentence for the latest access fault, for the error message.
    pub fault_reason: Option<String>,
}

impl Default for Core {
    fn default() -> Self {
        Core {
            x: [0; 64],
            cycles: 0,
            instret: 0,
            csr: Csrs::default(),
            cfg: HartConfig::default(),
            fault_reason: None,
        }
    }
}

/// Whether a branch of kind `kind` is taken (`a`, `b`: its `rs1`, `rs2`); false for other kinds.
#[inline(always)]
fn taken(kind: Kind, a: u32, b: u32) -> bool {
    match kind {
        Kind::Beq => a == b,
        Kind::Bne => a != b,
        Kind::Blt => (a as i32) < (b as i32),
        Kind::Bge => (a as i32) >= (b as i32),
        Kind::Bltu => a < b,
        Kind::Bgeu => a >= b,
        _ => false,
    }
}

/// The result of a straight-line private op (ALU, `lui`/`auipc`; `fence` gives 0, which its
/// lowered `rd` — the x0 sink — absorbs): each rule once, for the executor and for blocks
/// ([`crate::block`]). `a`/`b` are `rs1`/`rs2`. Other kinds give 0; neither caller passes them.
#[inline(always)]
pub(crate) fn value(kind: Kind, a: u32, b: u32, imm: u32) -> u32 {
    match kind {
        Kind::Li => imm,
        Kind::Addi => a.wrapping_add(imm),
        Kind::Slti => u32::from((a as i32) < (imm as i32)),
        Kind::Sltiu => u32::from(a < imm),
        Kind::Xori => a ^ imm,
        Kind::Ori => a | imm,
        Kind::Andi => a & imm,
        Kind::Slli => a.wrapping_shl(imm),
        Kind::Srli => a.wrapping_shr(imm),
        Kind::Srai => (a as i32).wrapping_shr(imm) as u32,
        Kind::Rori => a.rotate_right(imm & 31),
        Kind::Grevi => alu::grev(a, imm),
        Kind::Add => a.wrapping_add(b),
        Kind::Sub => a.wrapping_sub(b),
        // Register shifts use only the low 5 bits of rs2 (wrapping_shl/shr mask them).
        Kind::Sll => a.wrapping_shl(b),
        Kind::Slt => u32::from((a as i32) < (b as i32)),
        Kind::Sltu => u32::from(a < b),
        Kind::Xor => a ^ b,
        Kind::Srl => a.wrapping_shr(b),
        Kind::Sra => (a as i32).wrapping_shr(b) as u32,
        Kind::Or => a | b,
        Kind::And => a & b,
        Kind::Mul => a.wrapping_mul(b),
        Kind::Mulh => alu::mulh(a, b),
        Kind::Mulhsu => alu::mulhsu(a, b),
        Kind::Mulhu => alu::mulhu(a, b),
        Kind::Div => alu::div(a, b),
        Kind::Divu => alu::divu(a, b),
        Kind::Rem => alu::rem(a, b),
        Kind::Remu => alu::remu(a, b),
        Kind::Sh1add => (a << 1).wrapping_add(b),
        Kind::Sh2add => (a << 2).wrapping_add(b),
        Kind::Sh3add => (a << 3).wrapping_add(b),
        Kind::Andn => a & !b,
        Kind::Orn => a | !b,
        Kind::Xnor => !(a ^ b),
        Kind::Max => (a as i32).max(b as i32) as u32,
        Kind::Maxu => a.max(b),
        Kind::Min => (a as i32).min(b as i32) as u32,
        Kind::Minu => a.min(b),
        Kind::Rol => a.rotate_left(b & 31),
        Kind::Ror => a.rotate_right(b & 31),
        Kind::Pack => (a & 0xffff) | (b << 16),
        Kind::Clz => a.leading_zeros(),
        Kind::Ctz => a.trailing_zeros(),
        Kind::Cpop => a.count_ones(),
        Kind::SextB => a as u8 as i8 as i32 as u32,
        Kind::SextH => a as u16 as i16 as i32 as u32,
        Kind::OrcB => alu::orc_b(a),
        Kind::Fence
        | Kind::Empty
        | Kind::Jal
        | Kind::Jalr
        | Kind::Beq
        | Kind::Bne
        | Kind::Blt
        | Kind::Bge
        | Kind::Bltu
        | Kind::Bgeu
        | Kind::Lb
        | Kind::Lh
        | Kind::Lw
        | Kind::Lbu
        | Kind::Lhu
        | Kind::Sb
        | Kind::Sh
        | Kind::Sw
        | Kind::Amo
        | Kind::Csr
        | Kind::FenceI
        | Kind::Ecall
        | Kind::Ebreak
        | Kind::Mret
        | Kind::Tensix
        | Kind::Illegal => 0,
    }
}

impl Core {
    #[inline(always)]
    pub(crate) fn r(&self, i: u8) -> u32 {
        self.x[usize::from(i) & 63]
    }

    /// Writes `rd`; `x0` was lowered to the sink slot, so `x[0]` is never written.
    #[inline(always)]
    fn w(&mut self, rd: u8, v: u32) {
        self.x[usize::from(rd) & 63] = v;
    }

    #[inline(always)]
    pub(crate) fn exec<B: Bus>(
        &mut self,
        cache: &mut DecodeCache,
        bus: &mut B,
        op: Op,
        pc: u32,
    ) -> Flow {
        let a = self.r(op.rs1);
        let b = self.r(op.rs2);
        let imm = op.imm;
        let next = pc.wrapping_add(4);
        macro_rules! branch {
            ($cond:expr) => {
                return if $cond {
                    self.jump(imm)
                } else {
                    Flow::Next(next)
                }
            };
        }
        macro_rules! load {
            ($w:expr, $ext:expr) => {{
                let addr = a.wrapping_add(imm);
                let addr = if addr & ($w.bytes() - 1) != 0 {
                    match self.misaligned(addr, $w, E::MisalignedLoad) {
                        Ok(a) => a,
                        Err(f) => return f,
                    }
                } else {
                    addr
                };
                match bus.load(addr, $w) {
                    Access::Done(v) => $ext(v),
                    Access::Stall => return Flow::Stall,
                    Access::Fault(f) => return self.bus_fault(f, E::LoadFault, addr),
                }
            }};
        }
        macro_rules! store {
            ($w:expr) => {{
                let addr = a.wrapping_add(imm);
                let addr = if addr & ($w.bytes() - 1) != 0 {
                    match self.misaligned(addr, $w, E::MisalignedStore) {
                        Ok(a) => a,
                        Err(f) => return f,
                    }
                } else {
                    addr
                };
                match bus.store(addr, $w, b) {
                    Access::Done(()) => {}
                    Access::Stall => return Flow::Stall,
                    Access::Fault(f) => return self.bus_fault(f, E::StoreFault, addr),
                }
                cache.invalidate_word(addr & !3);
                return if bus.stop_requested() {
                    Flow::Stop(next)
                } else {
                    Flow::Next(next)
                };
            }};
        }
        let v = match op.kind {
            // The kind is passed as a constant so that `taken` and `value`, inlined, need no
            // second dispatch (which, measured with callgrind, cost the firmware boot ~1 % more
            // host instructions).
            Kind::Jal => return self.jal(op.rd, imm, next),
            Kind::Jalr => return self.jalr(op.rd, a, imm, next),
            Kind::Beq => branch!(taken(Kind::Beq, a, b)),
            Kind::Bne => branch!(taken(Kind::Bne, a, b)),
            Kind::Blt => branch!(taken(Kind::Blt, a, b)),
            Kind::Bge => branch!(taken(Kind::Bge, a, b)),
            Kind::Bltu => branch!(taken(Kind::Bltu, a, b)),
            Kind::Bgeu => branch!(taken(Kind::Bgeu, a, b)),
            Kind::Lb => load!(Width::Byte, |v: u32| v as u8 as i8 as i32 as u32),
            Kind::Lh => load!(Width::Half, |v: u32| v as u16 as i16 as i32 as u32),
            Kind::Lw => load!(Width::Word, |v: u32| v),
            Kind::Lbu => load!(Width::Byte, |v: u32| v & 0xff),
            Kind::Lhu => load!(Width::Half, |v: u32| v & 0xffff),
            Kind::Sb => store!(Width::Byte),
            Kind::Sh => store!(Width::Half),
            Kind::Sw => store!(Width::Word),
            Kind::Li => value(Kind::Li, a, b, imm),
            Kind::Addi => value(Kind::Addi, a, b, imm),
            Kind::Slti => value(Kind::Slti, a, b, imm),
            Kind::Sltiu => value(Kind::Sltiu, a, b, imm),
            Kind::Xori => value(Kind::Xori, a, b, imm),
            Kind::Ori => value(Kind::Ori, a, b, imm),
            Kind::Andi => value(Kind::Andi, a, b, imm),
            Kind::Slli => value(Kind::Slli, a, b, imm),
            Kind::Srli => value(Kind::Srli, a, b, imm),
            Kind::Srai => value(Kind::Srai, a, b, imm),
            Kind::Rori => value(Kind::Rori, a, b, imm),
            Kind::Grevi => value(Kind::Grevi, a, b, imm),
            Kind::Add => value(Kind::Add, a, b, imm),
            Kind::Sub => value(Kind::Sub, a, b, imm),
            Kind::Sll => value(Kind::Sll, a, b, imm),
            Kind::Slt => value(Kind::Slt, a, b, imm),
            Kind::Sltu => value(Kind::Sltu, a, b, imm),
            Kind::Xor => value(Kind::Xor, a, b, imm),
            Kind::Srl => value(Kind::Srl, a, b, imm),
            Kind::Sra => value(Kind::Sra, a, b, imm),
            Kind::Or => value(Kind::Or, a, b, imm),
            Kind::And => value(Kind::And, a, b, imm),
            Kind::Mul => value(Kind::Mul, a, b, imm),
            Kind::Mulh => value(Kind::Mulh, a, b, imm),
            Kind::Mulhsu => value(Kind::Mulhsu, a, b, imm),
            Kind::Mulhu => value(Kind::Mulhu, a, b, imm),
            Kind::Div => value(Kind::Div, a, b, imm),
            Kind::Divu => value(Kind::Divu, a, b, imm),
            Kind::Rem => value(Kind::Rem, a, b, imm),
            Kind::Remu => value(Kind::Remu, a, b, imm),
            Kind::Sh1add => value(Kind::Sh1add, a, b, imm),
            Kind::Sh2add => value(Kind::Sh2add, a, b, imm),
            Kind::Sh3add => value(Kind::Sh3add, a, b, imm),
            Kind::Andn => value(Kind::Andn, a, b, imm),
            Kind::Orn => value(Kind::Orn, a, b, imm),
            Kind::Xnor => value(Kind::Xnor, a, b, imm),
            Kind::Max => value(Kind::Max, a, b, imm),
            Kind::Maxu => value(Kind::Maxu, a, b, imm),
            Kind::Min => value(Kind::Min, a, b, imm),
            Kind::Minu => value(Kind::Minu, a, b, imm),
            Kind::Rol => value(Kind::Rol, a, b, imm),
            Kind::Ror => value(Kind::Ror, a, b, imm),
            Kind::Pack => value(Kind::Pack, a, b, imm),
            Kind::Clz => value(Kind::Clz, a, b, imm),
            Kind::Ctz => value(Kind::Ctz, a, b, imm),
            Kind::Cpop => value(Kind::Cpop, a, b, imm),
            Kind::SextB => value(Kind::SextB, a, b, imm),
            Kind::SextH => value(Kind::SextH, a, b, imm),
            Kind::OrcB => value(Kind::OrcB, a, b, imm),
            Kind::Fence => return Flow::Next(next),
            Kind::Amo => return self.exec_amo(cache, bus, op, a, b, next),
            Kind::Csr => return Flow::Slow,
            Kind::Tensix => return self.exec_tensix(bus, imm, next),
            Kind::FenceI => {
                cache.clear();
                return Flow::Next(next);
            }
            Kind::Ecall => return Flow::Exception(E::EnvironmentCall, 0),
            Kind::Ebreak => return Flow::Ebreak(next),
            Kind::Mret => return self.exec_mret(),
            Kind::Illegal => return Flow::Exception(E::IllegalInstruction, imm),
            // Not decoded yet: the caller fetches and decodes (`Hart::tick`).
            Kind::Empty => return Flow::Miss,
        };
        self.w(op.rd, v);
        Flow::Next(next)
    }

    /// Ops that must see `self` fully synchronised (CSRs read the counters).
    pub(crate) fn exec_slow<B: Bus>(&mut self, bus: &mut B, op: Op, pc: u32) -> Flow {
        match op.kind {
            Kind::Csr => self.exec_csr(bus, op, pc.wrapping_add(4)),
            _ => Flow::Exception(E::IllegalInstruction, op.imm),
        }
    }

    /// `jal` (`imm`: the lowered absolute target; `next`: the pc after it).
    #[inline(always)]
    fn jal(&mut self, rd: u8, imm: u32, next: u32) -> Flow {
        if imm & 3 != 0 {
            return Flow::Exception(E::MisalignedFetch, imm);
        }
        self.w(rd, next);
        Flow::Next(imm)
    }

    /// `jalr`: the target clears bit 0 of `rs1 + imm`.
    #[inline(always)]
    fn jalr(&mut self, rd: u8, a: u32, imm: u32, next: u32) -> Flow {
        let t = a.wrapping_add(imm) & !1;
        if t & 3 != 0 {
            return Flow::Exception(E::MisalignedFetch, t);
        }
        self.w(rd, next);
        Flow::Next(t)
    }

    /// A branch or jump of a block (`op` at `pc`), by the executor's rules above; branches
    /// were lowered with `rd` = the x0 sink, `imm` = the absolute target.
    #[inline(always)]
    pub(crate) fn control(&mut self, op: Op, pc: u32) -> Flow {
        let (a, b) = (self.r(op.rs1), self.r(op.rs2));
        let next = pc.wrapping_add(4);
        match op.kind {
            Kind::Jal => self.jal(op.rd, op.imm, next),
            Kind::Jalr => self.jalr(op.rd, a, op.imm, next),
            k if taken(k, a, b) => self.jump(op.imm),
            _ => Flow::Next(next),
        }
    }

    #[inline(always)]
    fn jump(&self, target: u32) -> Flow {
        // IALIGN = 32: a taken branch to a non-word address raises the exception on the branch.
        if target & 3 != 0 {
            return Flow::Exception(E::MisalignedFetch, target);
        }
        Flow::Next(target)
    }

    #[cold]
    fn misaligned(&self, addr: u32, w: Width, kind: E) -> Result<u32, Flow> {
        match self.cfg.misaligned {
            MisalignedAccess::Trap => Err(Flow::Exception(kind, addr)),
            MisalignedAccess::RoundDown => Ok(addr & !(w.bytes() - 1)),
        }
    }

    #[cold]
    fn bus_fault(&mut self, f: BusFault, kind: E, addr: u32) -> Flow {
        self.fault_reason = Some(f.reason);
        Flow::Exception(kind, addr)
    }

    /// Zaamo: read, modify, write one aligned word; `rd` gets the old value. Faults and
    /// misalignment raise store/AMO exceptions (riscv-privileged, exception codes 6 and 7).
    #[inline(never)]
    fn exec_amo<B: Bus>(
        &mut self,
        cache: &mut DecodeCache,
        bus: &mut B,
        op: Op,
        addr: u32,
        src: u32,
        next: u32,
    ) -> Flow {
        if addr & 3 != 0 {
            return Flow::Exception(E::MisalignedStore, addr);
        }
        let old = match bus.load(addr, Width::Word) {
            Access::Done(v) => v,
            Access::Stall => return Flow::Stall,
            Access::Fault(f) => return self.bus_fault(f, E::StoreFault, addr),
        };
        let amo = AMO_OPS.get(op.imm as usize).copied().unwrap_or(AmoOp::Swap);
        let new = match amo {
            AmoOp::Swap => src,
            AmoOp::Add => old.wrapping_add(src),
            AmoOp::Xor => old ^ src,
            AmoOp::And => old & src,
            AmoOp::Or => old | src,
            AmoOp::Min => (old as i32).min(src as i32) as u32,
            AmoOp::Max => (old as i32).max(src as i32) as u32,
            AmoOp::Minu => old.min(src),
            AmoOp::Maxu => old.max(src),
        };
        match bus.store(addr, Width::Word, new) {
            Access::Done(()) => {}
            Access::Stall => return Flow::Stall,
            Access::Fault(f) => return self.bus_fault(f, E::StoreFault, addr),
        }
        cache.invalidate_word(addr);
        self.w(op.rd, old);
        if bus.stop_requested() {
            Flow::Stop(next)
        } else {
            Flow::Next(next)
        }
    }

    /// `.ttinsn`: exactly a store of the word to the instruction-push address
    /// (PushTensixInstruction.md), so it stalls, faults and asks to stop like one.
    #[inline(never)]
    fn exec_tensix<B: Bus>(&mut self, bus: &mut B, word: u32, next: u32) -> Flow {
        match bus.push_tensix(word) {
            Access::Done(()) => {
                if bus.stop_requested() {
                    Flow::Stop(next)
                } else {
                    Flow::Next(next)
                }
            }
            Access::Stall => Flow::Stall,
            Access::Fault(f) => {
                let addr = f.addr;
                self.bus_fault(f, E::StoreFault, addr)
            }
        }
    }

    #[inline(never)]
    fn exec_mret(&mut self) -> Flow {
        // riscv-privileged "mret": MIE = MPIE, MPIE = 1; pc = mepc.
        let c = &mut self.csr;
        let mpie = c.mstatus_bits & csr::MSTATUS_MPIE != 0;
        c.mstatus_bits |= csr::MSTATUS_MPIE;
        if mpie {
            c.mstatus_bits |= csr::MSTATUS_MIE;
        } else {
            c.mstatus_bits &= !csr::MSTATUS_MIE;
        }
        Flow::Next(c.mepc)
    }

    /// Zicsr: `csrrw` with `rd = x0` does not read; `csrrs`/`csrrc` with `rs1 = x0` (or a zero
    /// immediate) do not write (riscv-isa-manual, "Zicsr", CSR instructions).
    #[inline(never)]
    fn exec_csr<B: Bus>(&mut self, bus: &mut B, op: Op, next: u32) -> Flow {
        let csr = op.imm as u16;
        let kind = CSR_OPS
            .get(usize::from(op.rs2))
            .copied()
            .unwrap_or(CsrOp::Rs);
        let operand = if kind.is_imm() {
            u32::from(op.rs1)
        } else {
            self.r(op.rs1)
        };
        let is_write_op = matches!(kind, CsrOp::Rw | CsrOp::Rwi);
        let writes = is_write_op || op.rs1 != 0;
        let reads = !(is_write_op && op.rd == X0_SINK);
        let word = encode(&Insn::Csr {
            op: kind,
            rd: op.rd & 31,
            csr,
            src: op.rs1,
        });
        let illegal = Flow::Exception(E::IllegalInstruction, word);
        let old = if reads {
            match self.read_csr(bus, csr) {
                Some(Access::Done(v)) => v,
                Some(Access::Stall) => return Flow::Stall,
                Some(Access::Fault(f)) => {
                    self.fault_reason = Some(f.reason);
                    return illegal;
                }
                None => return illegal,
            }
        } else {
            0
        };
        if writes {
            let new = match kind {
                CsrOp::Rw | CsrOp::Rwi => operand,
                CsrOp::Rs | CsrOp::Rsi => old | operand,
                CsrOp::Rc | CsrOp::Rci => old & !operand,
            };
            match self.write_csr(bus, csr, new) {
                Some(Access::Done(())) => {}
                Some(Access::Stall) => return Flow::Stall,
                Some(Access::Fault(f)) => {
                    self.fault_reason = Some(f.reason);
                    return illegal;
                }
                None => return illegal,
            }
        }
        self.w(op.rd, old);
        Flow::Next(next)
    }

    /// A CSR the hart models; `None` for custom/unknown ones. Counters read the number of
    /// cycles/instructions completed before the reading instruction.
    pub(crate) fn read_own_csr(&self, csr: u16) -> Option<u32> {
        let c = &self.csr;
        Some(match csr::slot(csr) {
            CsrSlot::Mstatus => c.mstatus(),
            CsrSlot::Misa => csr::MISA,
            CsrSlot::Mie => c.mie,
            CsrSlot::Mip => 0,
            CsrSlot::Mtvec => c.mtvec,
            CsrSlot::Mscratch => c.mscratch,
            CsrSlot::Mepc | CsrSlot::IntpRestorePc => c.mepc,
            CsrSlot::Mcause => c.mcause,
            CsrSlot::Mtval => c.mtval,
            CsrSlot::Mcountinhibit => c.mcountinhibit,
            CsrSlot::Mhpmevent(i) => c.mhpmevent.get(i).copied().unwrap_or(0),
            CsrSlot::Counter(i, high) => {
                let v = self.counter(i);
                if high {
                    (v >> 32) as u32
                } else {
                    v as u32
                }
            }
            CsrSlot::ReadOnlyZero => 0,
            CsrSlot::Mhartid => self.cfg.mhartid,
            CsrSlot::Custom => return None,
        })
    }

    fn counter(&self, i: usize) -> u64 {
        match i {
            0 => self.cycles,
            1 => self.instret,
            _ => self.csr.mhpmcounter.get(i - 2).copied().unwrap_or(0),
        }
    }

    fn read_csr<B: Bus>(&mut self, bus: &mut B, csr: u16) -> Option<Access<u32>> {
        match self.read_own_csr(csr) {
            Some(v) => Some(Access::Done(v)),
            None => bus.read_custom_csr(csr),
        }
    }

    fn write_csr<B: Bus>(&mut self, bus: &mut B, csr: u16, v: u32) -> Option<Access<()>> {
        let c = &mut self.csr;
        match csr::slot(csr) {
            CsrSlot::Mstatus => c.mstatus_bits = v & (csr::MSTATUS_MIE | csr::MSTATUS_MPIE),
            CsrSlot::Misa | CsrSlot::Mip | CsrSlot::IntpRestorePc => {}
            CsrSlot::Mie => c.mie = v,
            // Bit 1 of the mode field is reserved (riscv-privileged, mtvec MODE).
            CsrSlot::Mtvec => c.mtvec = v & !2,
            CsrSlot::Mscratch => c.mscratch = v,
            // IALIGN = 32: mepc[1:0] are always zero.
            CsrSlot::Mepc => c.mepc = v & !3,
            CsrSlot::Mcause => c.mcause = v,
            CsrSlot::Mtval => c.mtval = v,
            CsrSlot::Mcountinhibit => c.mcountinhibit = v,
            CsrSlot::Mhpmevent(i) => {
                if let Some(e) = c.mhpmevent.get_mut(i) {
                    *e = v;
                }
            }
            CsrSlot::Counter(i, high) => {
                let old = self.counter(i);
                let new = if high {
                    (old & 0xffff_ffff) | (u64::from(v) << 32)
                } else {
                    (old & !0xffff_ffff) | u64::from(v)
                };
                match i {
                    // The write wins over this instruction's own increment, which follows.
                    0 => self.cycles = new.wrapping_sub(1),
                    1 => self.instret = new.wrapping_sub(1),
                    _ => {
                        if let Some(m) = self.csr.mhpmcounter.get_mut(i - 2) {
                            *m = new;
                        }
                    }
                }
            }
            CsrSlot::ReadOnlyZero | CsrSlot::Mhartid => return None,
            CsrSlot::Custom => return bus.write_custom_csr(csr, v),
        }
        Some(Access::Done(()))
    }
}
