//! One cycle's phases (see the parent module for their order): the backend (unpacker
//! starts, retirements), the Wait Gates (block checks, dispatch — the decision itself in
//! `dispatch` — and same-cycle effects) and the frontends; and `execute_data`, which applies an instruction's data effects through the
//! generated visitor at the point `crate::units` documents.
use super::*;

impl Coprocessor {
    pub(super) fn backend_phase(&mut self, cycle: u64) -> Result<(), TensixError> {
        let banks = &mut self.banks;
        let mut progressed = false;
        let mut ticking = false;
        for ui in crate::backend::bits(self.backend.occupied_mask()) {
            let (Some(&unit), Some(entries)) =
                (crate::backend::UNITS.get(ui), self.backend.entries_mut(ui))
            else {
                continue;
            };
            // UNPACR waits inside its unpacker until its bank belongs to the Unpackers
            // (UNPACR_Regular.md: `while (SrcA[Bank].AllowedClient != Unpackers) wait;`).
            // In-order: only the oldest waiting entry may start.
            if let Some(e) = entries.iter_mut().find(|e| e.done_at.is_none()) {
                let src = unpacker_src(unit);
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
            while let Some(e) = self.backend.entry(ui, i) {
                match e.done_at {
                    Some(d) if d <= cycle => {
                        self.backend.retire(ui, i);
                        progressed = true;

                        match e.insn.op {
                            Op::Unpacr { flip: true }
                            | Op::UnpacrNop {
                                set_dvalid: true, ..
                            } => {
                                banks.give_to_math(unpacker_src(unit));
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
                        // Counting down: time alone will change the state, at `done_at`.
                        ticking = true;
                        i += 1;
                    }
                    None => i += 1,
                }
            }
        }
        if self.backend.thcon_mem_until.iter().any(|&u| u > cycle) {
            ticking = true;
        }
        if progressed {
            self.progressed = true;
        }
        self.ticking |= ticking;
        Ok(())
    }

    pub(super) fn gate_phase(
        &mut self,
        cycle: u64,
        mem: &mut dyn TensixMemory,
    ) -> Result<(), TensixError> {
        if self
            .threads
            .iter()
            .all(|th| th.gate.slot.is_none() && th.gate.latch.is_none())
        {
            // No instruction at any gate and no latch to re-evaluate.
            return Ok(());
        }
        let mut candidate = [false; THREADS];
        let mut release = [false; THREADS];
        for t in 0..THREADS {
            let th = &self.threads[t];
            let blocked = match (th.gate.latch, th.gate.slot) {
                (Some(l), Some(i)) => l.blocks(&i),
                _ => false,
            };
            if let Some(l) = th.gate.latch {
                // Re-evaluated after the block check: the release is seen next cycle. Only a
                // STALLWAIT latch reads the conditions, so only it pays for them (they are
                // read before any dispatch of this cycle either way).
                let active = match l {
                    Latch::StallWait { .. } => self.conditions(t),
                    Latch::SemWait { .. } => 0,
                };
                if !l.keep_waiting(active, &self.sync.sems) {
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
            let warned = self.warnings.len();
            let passed = self.try_dispatch(t, insn, cycle, atgetm_ok[t], mem);
            // What the dispatch reported about this instruction names the pc that pushed it.
            let name_pc = |e: &mut TensixError| {
                if e.pc.is_none() && e.thread == Some(t as u8) && e.word == Some(insn.word) {
                    e.pc = insn.pc;
                }
            };
            self.warnings[warned..].iter_mut().for_each(name_pc);
            if passed.map_err(|mut e| {
                name_pc(&mut e);
                e
            })? {
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
        if th.gate.slot.is_none()
            && th.brisc.is_empty()
            && th.fifo.is_empty()
            && th.mop.at_rest()
            && th.replay.idle()
        {
            // Nothing to move towards the gate.
            return;
        }
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
pub(super) struct DataCtx<'a> {
    pub(super) mode: Mode,
    pub(super) state: &'a mut TensixState,
    pub(super) banks: &'a SrcBanks,
    pub(super) warnings: &'a mut Vec<TensixError>,
}

/// The Src register unpacker `unit` writes: Unpacker 1 SrcB, Unpacker 0 SrcA.
pub(super) fn unpacker_src(unit: Unit) -> Src {
    if unit == Unit::Unpack1 {
        Src::B
    } else {
        Src::A
    }
}

/// Whether an unpacker instruction must (still) wait inside its unpacker before it starts:
/// UNPACR until its bank is the Unpackers' (UNPACR_Regular.md); Blackhole's clearing
/// UNPACR_NOP until its chosen bank is not the Matrix Unit's (docs/tensix-datapath.md,
/// "UNPACR_NOP waits").
pub(super) fn unpacker_waits(banks: &SrcBanks, op: &Op, src: Src) -> bool {
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

/// Applies one instruction's data effects through the generated visitor: `insn` is `word`'s
/// typed Blackhole decode, `None` on Wormhole B0, which stays frontend-only.
pub(super) fn execute_data(
    d: DataCtx,
    thread: usize,
    insn: Option<&bhemu_isa::tensix::blackhole::Insn>,
    word: u32,
    cycle: u64,
    mem: &mut dyn TensixMemory,
) -> Result<(), TensixError> {
    let Some(insn) = insn else {
        return Ok(());
    };
    if trace_enabled() {
        eprintln!(
            "tensix t{thread} @{cycle}: {word:#010x} {}",
            bhemu_isa::tensix::disassemble(bhemu_isa::tensix::Arch::Blackhole, word)
        );
    }
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
    bhemu_isa::tensix::blackhole::visit(insn, &mut ex)
}

/// `BHEMU_TENSIX_TRACE=1`: every instruction whose data effect is applied is printed to stderr
/// (thread, cycle, word, disassembly), for diagnosing real kernels; read once per process.
pub const TRACE_ENV: &str = "BHEMU_TENSIX_TRACE";

fn trace_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var(TRACE_ENV).as_deref() == Ok("1"))
}
