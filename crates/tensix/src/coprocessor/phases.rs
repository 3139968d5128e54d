//! One cycle's phases (see the parent module for their order): the backend (unpacker
//! starts, retirements), the Wait Gates (block checks, dispatch, same-cycle effects) and the
//! frontends; and `execute_data`, which applies an instruction's data effects through the
//! generated visitor at the point `crate::units` documents.
use super::*;

impl Coprocessor {
    pub(super) fn backend_phase(&mut self, cycle: u64) -> Result<(), TensixError> {
        let banks = &mut self.banks;
        let mut progressed = false;
        for (ui, pipe) in self.backend.pipes.iter_mut().enumerate() {
            let unit = crate::backend::UNITS[ui];
            // UNPACR waits inside its unpacker until its bank belongs to the Unpackers
            // (UNPACR_Regular.md: `while (SrcA[Bank].AllowedClient != Unpackers) wait;`).
            // In-order: only the oldest waiting entry may start.
            if let Some(e) = pipe.entries.iter_mut().find(|e| e.done_at.is_none()) {
                let src = if unit == Unit::Unpack1 {
                    Src::B
                } else {
                    Src::A
                };
                if !unpacker_waits(banks, &e.insn.op, src) {
                    e.done_at = Some(cycle + e.insn.latency.max(1) as u64);
                    progressed = true;
                    // A waiting UNPACR read its configuration, counters and L1 at dispatch;
                    // its datums land in the unpacker's bank now that it has it.
                    let k = usize::from(src == Src::B);
                    if let Some(d) = self.deferred_src[k].pop_front() {
                        let (data, bank) = if src == Src::B {
                            (&mut self.state.src_b, banks.unpack_b)
                        } else {
                            (&mut self.state.src_a, banks.unpack_a)
                        };
                        for (row, col, v) in d.cells {
                            data.write(bank, row, col, v);
                        }
                        if let Some(code) = d.format {
                            data.set_format(bank, code);
                        }
                    }
                }
            }
            let mut i = 0;
            while i < pipe.entries.len() {
                let e = pipe.entries[i];
                match e.done_at {
                    Some(d) if d <= cycle => {
                        pipe.entries.remove(i);
                        progressed = true;

                        match e.insn.op {
                            Op::Unpacr { flip: true }
                            | Op::UnpacrNop {
                                set_dvalid: true, ..
                            } => {
                                banks.give_to_math(if unit == Unit::Unpack1 {
                                    Src::B
                                } else {
                                    Src::A
                                });
                            }
                            Op::ThCon { mem_tail } if mem_tail > 0 => {
                                let slot =
                                    &mut self.backend.thcon_mem_until[e.thread as usize % THREADS];
                                *slot = (*slot).max(cycle + mem_tail as u64);
                            }
                            _ => {}
                        }
                    }
                    Some(_) => {
                        // Counting down: time alone will change the state.
                        progressed = true;
                        i += 1;
                    }
                    None => i += 1,
                }
            }
        }
        if self.backend.thcon_mem_until.iter().any(|&u| u > cycle) {
            progressed = true;
        }
        if progressed {
            self.progressed = true;
        }
        Ok(())
    }

    pub(super) fn gate_phase(
        &mut self,
        cycle: u64,
        mem: &mut dyn TensixMemory,
    ) -> Result<(), TensixError> {
        let active: [u16; THREADS] = std::array::from_fn(|t| self.conditions(t));
        let mut candidate = [false; THREADS];
        let mut release = [false; THREADS];
        for t in 0..THREADS {
            let th = &self.threads[t];
            let blocked = match (th.gate.latch, th.gate.slot) {
                (Some(l), Some(i)) => l.blocks(&i),
                _ => false,
            };
            if let Some(l) = th.gate.latch {
                // Re-evaluated after the block check: the release is seen next cycle.
                if !l.keep_waiting(active[t], &self.sync.sems) {
                    release[t] = true;
                }
            }
            candidate[t] = th.gate.slot.is_some()
                && !blocked
                && !th.hung
                && !self.backend.thcon_holds(t as u8);
        }

        // Mutex arbitration among threads presenting ATGETM for a free mutex.
        let mut atgetm_ok = [false; THREADS];
        for t in 0..THREADS {
            if let (
                true,
                Some(Insn {
                    op: Op::AtGetM { index },
                    ..
                }),
            ) = (candidate[t], self.threads[t].gate.slot)
            {
                if !self.sync.mutexes.valid(index) {
                    continue;
                }
                match self.sync.mutexes.holder(index) {
                    Some(h) if h == t as u8 => atgetm_ok[t] = true,
                    Some(_) => {}
                    None => {
                        let contenders: Vec<u8> = (0..THREADS)
                            .filter(|&u| candidate[u] && matches!(self.threads[u].gate.slot, Some(Insn { op: Op::AtGetM { index: j }, .. }) if j == index))
                            .map(|u| u as u8)
                            .collect();
                        atgetm_ok[t] =
                            self.sync.mutexes.pick_winner(index, &contenders) == Some(t as u8);
                    }
                }
            }
        }

        self.effects.clear();
        for k in 0..THREADS as u64 {
            let t = ((cycle + k) % THREADS as u64) as usize;
            if !candidate[t] {
                continue;
            }
            let Some(insn) = self.threads[t].gate.slot else {
                continue;
            };
            if self.try_dispatch(t, insn, cycle, atgetm_ok[t], mem)? {
                self.threads[t].gate.slot = None;
                self.progressed = true;
                self.dispatched[t] += 1;
                if let Some(log) = self.log.as_mut() {
                    log.push(Dispatch {
                        cycle,
                        thread: t as u8,
                        word: insn.word,
                    });
                }
            }
        }

        for (t, r) in release.iter().enumerate() {
            if *r {
                self.threads[t].gate.latch = None;
                self.progressed = true;
            }
        }
        let effects = std::mem::take(&mut self.effects);
        for e in &effects {
            match *e {
                Effect::Latch(t, l) => self.threads[t as usize].gate.latch = Some(l),
                Effect::SemInit(m, v, x) => self.sync.sems.init(m, v, x),
                Effect::SemPost(m) => self.sync.sems.post(m),
                Effect::SemGet(m) => self.sync.sems.get(m),
                Effect::Acquire(i, t) => self.sync.mutexes.acquire(i, t),
                Effect::Release(i, t) => self.sync.mutexes.release(i, t),
                Effect::GiveToMath(s) => self.banks.give_to_math(s),
                Effect::GiveToUnpackers(s, keep) => self.banks.give_to_unpackers(s, keep),
                Effect::ResetBanks => self.banks.reset(),
            }
        }
        self.effects = effects;
        Ok(())
    }

    /// Decide whether `insn` passes thread `t`'s gate this cycle; if so, send it on and queue
    /// its effects. Ok(false) = it waits.
    fn try_dispatch(
        &mut self,
        t: usize,
        insn: Insn,
        cycle: u64,
        atgetm_ok: bool,
        mem: &mut dyn TensixMemory,
    ) -> Result<bool, TensixError> {
        let tt = t as u8;
        match insn.op {
            Op::Unknown => {
                return Err(TensixError::new(
                    ErrorKind::Invalid,
                    cycle,
                    format!(
                        "unknown {} opcode {:#04x} reached the Wait Gate",
                        self.arch.name(),
                        insn.opcode
                    ),
                )
                .at(tt, Some(insn.word)));
            }
            Op::Mop { .. } | Op::MopCfg { .. } | Op::Replay { .. } => {
                // Only possible via BRISC pushes or replayed words: these instructions "should
                // never reach Tensix itself" (YAML; MOP.md: RISCV B cannot use MOP).
                self.undefined(cycle, tt, insn.word, format!("{} reached the Wait Gate without its expander (pushed by BRISC, or recorded into the replay buffer); dropped", disasm(self.arch, insn.word)))?;
                return Ok(true);
            }
            Op::AtGetM { index } | Op::AtRelM { index } if !self.sync.mutexes.valid(index) => {
                let name = if matches!(insn.op, Op::AtGetM { .. }) {
                    "ATGETM"
                } else {
                    "ATRELM"
                };
                let e = TensixError::new(
                    ErrorKind::Hang,
                    cycle,
                    format!("{name} with invalid mutex index {index} ({} has {}): thread T{t} waits forever ({name}.md)", self.arch.name(), valid_mutex_text(self.arch)),
                )
                .at(tt, Some(insn.word));
                self.threads[t].hung = true;
                match self.mode {
                    Mode::Strict => {
                        let mut e = e;
                        e.threads = vec![ThreadWait {
                            thread: tt,
                            word: Some(insn.word),
                            waiting_on: format!(
                                "{} — invalid mutex index {index}",
                                disasm(self.arch, insn.word)
                            ),
                        }];
                        return Err(e);
                    }
                    Mode::Permissive => {
                        if !self.warnings.contains(&e) {
                            self.warnings.push(e);
                        }
                        return Ok(false);
                    }
                }
            }
            Op::AtGetM { .. } | Op::AtRelM { .. } if insn.from_brisc => {
                // docs/mutexes.md MX-9 (per-core access): BRISC cannot push ATGETM/ATRELM.
                self.undefined(
                    cycle,
                    tt,
                    insn.word,
                    format!(
                        "{} pushed by BRISC: only TRISCs can use mutexes; dropped",
                        disasm(self.arch, insn.word)
                    ),
                )?;
                return Ok(true);
            }
            Op::AtGetM { .. } if !atgetm_ok => return Ok(false),
            _ => {}
        }
        // The Sync Unit's one-per-cycle group (SyncUnit.md).
        let sync_group = matches!(
            insn.op,
            Op::StallWait { .. }
                | Op::SemWait { .. }
                | Op::SemInit { .. }
                | Op::SemPost { .. }
                | Op::SemGet { .. }
        ) || (insn.unit == Unit::Sync && matches!(insn.op, Op::Other));
        if sync_group && !self.sync.group_free(cycle) {
            return Ok(false);
        }
        // Matrix Unit instructions that read SrcA/SrcB wait at the gate for their bank
        // (MVMUL.md etc.; not MOVD2A/MOVD2B, MOVD2A.md).
        if let Op::Math { wait_a, wait_b, .. } = insn.op {
            if (wait_a && self.banks.math_blocked(Src::A))
                || (wait_b && self.banks.math_blocked(Src::B))
            {
                return Ok(false);
            }
        }
        if !self.backend.can_accept(insn.unit, &insn, cycle) {
            return Ok(false);
        }
        // The Vector Unit's automatic stalling (SFPMAD.md, SFPSWAP.md, SFPSHFT2.md
        // "Instruction scheduling") holds the instruction at the gate for the cycle.
        if insn.unit == Unit::Vector
            && self.arch == Arch::Blackhole
            && self.state.sfpu.stalls(insn.word)
        {
            return Ok(false);
        }
        if matches!(insn.op, Op::SemWait { cond: 0, .. }) {
            // docs/wait-gate.md WG-3: wait_sem_cond == 0 is undefined behaviour. Permissive: SEMWAIT.md's
            // functional model latches a STALLWAIT with condition mask 0x0F.
            self.undefined(
                cycle,
                tt,
                insn.word,
                "SEMWAIT with wait_sem_cond == 0 is undefined behaviour (SEMWAIT.md)".to_string(),
            )?;
        }
        // It passes.
        if sync_group {
            self.sync.take_group(cycle);
        }
        match insn.op {
            Op::StallWait { block, conds } => self
                .effects
                .push(Effect::Latch(tt, Latch::StallWait { block, conds })),
            Op::SemWait { block, sems, cond } => {
                let l = if cond == 0 {
                    Latch::StallWait { block, conds: 0x0f }
                } else {
                    Latch::SemWait { block, sems, cond }
                };
                self.effects.push(Effect::Latch(tt, l));
            }
            Op::SemInit { sems, value, max } => {
                self.effects.push(Effect::SemInit(sems, value, max))
            }
            Op::SemPost { sems } => self.effects.push(Effect::SemPost(sems)),
            Op::SemGet { sems } => self.effects.push(Effect::SemGet(sems)),
            Op::AtGetM { index } => self.effects.push(Effect::Acquire(index, tt)),
            Op::AtRelM { index } => self.effects.push(Effect::Release(index, tt)),
            Op::SetDvalid { a, b } => {
                if a {
                    self.effects.push(Effect::GiveToMath(Src::A));
                }
                if b {
                    self.effects.push(Effect::GiveToMath(Src::B));
                }
            }
            Op::ClearDvalid { a, b, keep, reset } => {
                if reset {
                    self.effects.push(Effect::ResetBanks);
                } else {
                    if a {
                        self.effects.push(Effect::GiveToUnpackers(Src::A, keep));
                    }
                    if b {
                        self.effects.push(Effect::GiveToUnpackers(Src::B, keep));
                    }
                }
            }
            Op::Math { flip_a, flip_b, .. } => {
                // Applied at the end of the dispatch cycle, so that the next Matrix Unit
                // instruction's automatic wait sees the new MatrixUnit.SrcXBank.
                if flip_a {
                    self.effects.push(Effect::GiveToUnpackers(Src::A, false));
                }
                if flip_b {
                    self.effects.push(Effect::GiveToUnpackers(Src::B, false));
                }
            }
            _ => {}
        }
        // UNPACR enters its unpacker even if the bank is not yet the Unpackers' and waits
        // there (WaitGate.md †).
        let waits = matches!(insn.unit, Unit::Unpack0 | Unit::Unpack1)
            && unpacker_waits(
                &self.banks,
                &insn.op,
                if insn.unit == Unit::Unpack1 {
                    Src::B
                } else {
                    Src::A
                },
            );
        if insn.unit != Unit::None {
            self.backend.accept(insn.unit, tt, insn, cycle, waits);
        }
        if insn.unit == Unit::Vector {
            self.sfpu_issued_at = Some(cycle);
        }
        // Data effects at dispatch. An UNPACR that must wait inside its unpacker for its bank
        // computes its addresses, updates its counters and reads L1 now (a later WRCFG of its
        // base address, as tt-llk's matmul unpack issues right behind it, must not affect it);
        // the Src datums it produces are held back and written when it starts.
        if waits {
            let src = if insn.unit == Unit::Unpack1 {
                Src::B
            } else {
                Src::A
            };
            let data = match src {
                Src::A => &mut self.state.src_a,
                Src::B => &mut self.state.src_b,
            };
            let before = data.clone();
            data.mark_unwritten();
            execute_data(
                DataCtx {
                    arch: self.arch,
                    mode: self.mode,
                    state: &mut self.state,
                    banks: &self.banks,
                    warnings: &mut self.warnings,
                },
                t,
                insn.word,
                cycle,
                mem,
            )?;
            let live = match src {
                Src::A => &mut self.state.src_a,
                Src::B => &mut self.state.src_b,
            };
            let cells = live.written_cells();
            let format = live.format(0).or(live.format(1));
            *live = before;
            self.deferred_src[usize::from(src == Src::B)].push_back(DeferredSrc { cells, format });
        } else {
            execute_data(
                DataCtx {
                    arch: self.arch,
                    mode: self.mode,
                    state: &mut self.state,
                    banks: &self.banks,
                    warnings: &mut self.warnings,
                },
                t,
                insn.word,
                cycle,
                mem,
            )?;
        }
        Ok(true)
    }

    /// A cycle in which no thread issued to the Vector Unit: the unit still runs what
    /// SFPLOADMACRO scheduled for it and lets its automatic-stall hazard expire
    /// (`VectorUnit::cycle(None, ..)`, crate::sfpu's contract of one call per cycle).
    pub(super) fn vector_unit_idle_cycle(&mut self, cycle: u64) -> Result<(), TensixError> {
        if self.arch != Arch::Blackhole
            || self.sfpu_issued_at == Some(cycle)
            || self.state.sfpu.quiescent()
        {
            return Ok(());
        }
        let result = crate::sfpu::VectorUnit::cycle_in_state(None, &mut self.state);
        self.progressed = true;
        match result {
            Ok(_) => Ok(()),
            // Scheduled instructions have no issuing thread; the error names T0 as
            // `cycle_on_state` resolves their configuration with thread 0's.
            Err(e) => {
                let e = e.into_tensix(0, cycle);
                if e.kind == ErrorKind::Undefined && self.mode == Mode::Permissive {
                    if !self.warnings.contains(&e) {
                        self.warnings.push(e);
                    }
                    Ok(())
                } else {
                    Err(e)
                }
            }
        }
    }

    pub(super) fn frontend_phase(&mut self, t: usize, cycle: u64) {
        let th = &mut self.threads[t];
        let mut moved = false;
        if th.gate.slot.is_none() || th.replay.record_only() {
            if th.replay.playing() {
                if th.gate.slot.is_none() {
                    th.gate.slot = th.replay.play();
                    moved = true;
                }
            } else {
                let incoming = if let Some(i) = th.brisc.pop() {
                    moved = true;
                    Some(i)
                } else {
                    let (o, changed) = th.mop.pull(cycle, &mut th.fifo);
                    moved |= changed;
                    o
                };
                if let Some(i) = incoming {
                    moved = true;
                    if let Some(out) = th.replay.ingest(i) {
                        th.gate.slot = Some(out);
                    }
                }
            }
            // RESOURCEDECL is consumed before the Wait Gate (STALLWAIT.md: never blocked; the YAML
            // table notes it is for Auto TTSync), so it never reaches the gate or the log.
            if matches!(
                th.gate.slot,
                Some(Insn {
                    op: Op::ResourceDecl,
                    ..
                })
            ) {
                th.gate.slot = None;
            }
        }
        if moved {
            self.progressed = true;
        }
    }
}

/// The pieces of the coprocessor a data effect touches (borrowed field by field, so the
/// backend loop can call it while it holds its pipes).
struct DataCtx<'a> {
    arch: Arch,
    mode: Mode,
    state: &'a mut TensixState,
    banks: &'a SrcBanks,
    warnings: &'a mut Vec<TensixError>,
}

/// Applies one instruction's data effects through the generated visitor (Blackhole only;
/// Wormhole B0 stays frontend-only).
/// Whether an unpacker instruction must (still) wait inside its unpacker before it starts:
/// UNPACR until its bank is the Unpackers' (UNPACR_Regular.md); Blackhole's clearing
/// UNPACR_NOP until its chosen bank is not the Matrix Unit's (docs/tensix-datapath.md,
/// "UNPACR_NOP waits").
fn unpacker_waits(banks: &SrcBanks, op: &Op, src: Src) -> bool {
    match op {
        Op::Unpacr { .. }
        | Op::UnpacrNop {
            wait: NopWait::UnpackBank,
            ..
        } => banks.unpack_blocked(src),
        Op::UnpacrNop {
            wait: NopWait::MatrixBank,
            ..
        } => banks.math_bank_valid(src),
        _ => false,
    }
}

fn execute_data(
    d: DataCtx,
    thread: usize,
    word: u32,
    cycle: u64,
    mem: &mut dyn TensixMemory,
) -> Result<(), TensixError> {
    if d.arch != Arch::Blackhole {
        return Ok(());
    }
    if trace_enabled() {
        eprintln!(
            "tensix t{thread} @{cycle}: {word:#010x} {}",
            bhemu_isa::tensix::disassemble(bhemu_isa::tensix::Arch::Blackhole, word)
        );
    }
    let insn = bhemu_isa::tensix::blackhole::Insn::decode(word);
    let mut ctx = Ctx {
        state: d.state,
        banks: d.banks,
        mem,
        thread,
        cycle,
        word,
        mode: d.mode,
        warnings: d.warnings,
    };
    let mut ex = Exec { ctx: &mut ctx };
    bhemu_isa::tensix::blackhole::visit(&insn, &mut ex)
}

/// `BHEMU_TENSIX_TRACE=1`: every instruction whose data effect is applied is printed to stderr
/// (thread, cycle, word, disassembly), for diagnosing real kernels; read once per process.
pub const TRACE_ENV: &str = "BHEMU_TENSIX_TRACE";

fn trace_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var(TRACE_ENV).as_deref() == Ok("1"))
}
