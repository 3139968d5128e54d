//! The Wait Gate's dispatch decision for one thread's instruction (WaitGate.md): what the gate
//! decides by itself (unknown opcodes, misplaced expander or mutex instructions), what holds
//! an instruction (the Sync Unit's group slot, Src banks, the unit's queue, the Vector Unit's
//! automatic stall), and what a dispatched instruction does at once: its synchronisation
//! effects, queued for the end of the cycle, and its data effects.
use super::phases::{execute_data, unpacker_src, unpacker_waits, DataCtx};
use super::*;

impl Coprocessor {
    /// Decide whether `insn` passes thread `t`'s gate this cycle; if so, send it on and queue
    /// its effects. Ok(false) = it waits.
    pub(super) fn try_dispatch(
        &mut self,
        t: usize,
        insn: Insn,
        cycle: u64,
        atgetm_ok: bool,
        mem: &mut dyn TensixMemory,
    ) -> Result<bool, TensixError> {
        if let Some(passed) = self.gate_verdict(t, insn, cycle, atgetm_ok)? {
            return Ok(passed);
        }
        let sync_group = in_sync_group(&insn);
        if self.gate_holds(&insn, sync_group, cycle) {
            return Ok(false);
        }
        if matches!(insn.op, Op::SemWait { cond: 0, .. }) {
            // docs/wait-gate.md WG-3: wait_sem_cond == 0 is undefined behaviour. Permissive: SEMWAIT.md's
            // functional model latches a STALLWAIT with condition mask 0x0F.
            self.undefined(
                cycle,
                t as u8,
                insn.word,
                "SEMWAIT with wait_sem_cond == 0 is undefined behaviour (SEMWAIT.md)".to_string(),
            )?;
        }
        // It passes.
        if sync_group {
            self.sync.take_group(cycle);
        }
        self.queue_sync_effects(t as u8, &insn);
        // UNPACR enters its unpacker even if the bank is not yet the Unpackers' and waits
        // there (WaitGate.md †).
        let waits = matches!(insn.unit, Unit::Unpack0 | Unit::Unpack1)
            && unpacker_waits(&self.banks, &insn.op, unpacker_src(insn.unit));
        if insn.unit != Unit::None {
            self.backend.accept(insn.unit, t as u8, insn, cycle, waits);
        }
        if insn.unit == Unit::Vector {
            self.sfpu_issued_at = Some(cycle);
        }
        self.execute_at_dispatch(t, &insn, cycle, waits, mem)?;
        Ok(true)
    }

    /// The instructions the gate decides on by themselves, before any resource check: an
    /// unknown opcode (an error), expander instructions that reached it without their
    /// expander, invalid or misplaced mutex instructions, and ATGETM while its mutex is held.
    /// `Some(passed)` ends the dispatch attempt; `None` goes on to the resource checks.
    fn gate_verdict(
        &mut self,
        t: usize,
        insn: Insn,
        cycle: u64,
        atgetm_ok: bool,
    ) -> Result<Option<bool>, TensixError> {
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
                return Ok(Some(true));
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
                        return Ok(Some(false));
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
                return Ok(Some(true));
            }
            Op::AtGetM { .. } if !atgetm_ok => return Ok(Some(false)),
            _ => {}
        }
        Ok(None)
    }

    /// Whether a resource holds `insn` at the gate this cycle: the Sync Unit's group slot, the
    /// Matrix Unit's Src banks, the unit's own queue, the Vector Unit's automatic stall.
    fn gate_holds(&self, insn: &Insn, sync_group: bool, cycle: u64) -> bool {
        if sync_group && !self.sync.group_free(cycle) {
            return true;
        }
        // Matrix Unit instructions that read SrcA/SrcB wait at the gate for their bank
        // (MVMUL.md etc.; not MOVD2A/MOVD2B, MOVD2A.md).
        if let Op::Math { wait_a, wait_b, .. } = insn.op {
            if (wait_a && self.banks.math_blocked(Src::A))
                || (wait_b && self.banks.math_blocked(Src::B))
            {
                return true;
            }
        }
        if !self.backend.can_accept(insn.unit, insn, cycle) {
            return true;
        }
        // The Vector Unit's automatic stalling (SFPMAD.md, SFPSWAP.md, SFPSHFT2.md
        // "Instruction scheduling") holds the instruction at the gate for the cycle.
        if insn.unit == Unit::Vector
            && self.arch == Arch::Blackhole
            && self.state.sfpu.stalls(insn.word)
        {
            return true;
        }
        false
    }

    /// The synchronisation effects of a dispatched instruction (semaphores, mutexes, Src bank
    /// hand-overs, STALLWAIT/SEMWAIT latches), queued to apply at the end of the cycle.
    fn queue_sync_effects(&mut self, tt: u8, insn: &Insn) {
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
    }

    /// The data effects of a dispatched instruction (crate::units).
    fn execute_at_dispatch(
        &mut self,
        t: usize,
        insn: &Insn,
        cycle: u64,
        waits: bool,
        mem: &mut dyn TensixMemory,
    ) -> Result<(), TensixError> {
        // An UNPACR that must wait inside its unpacker for its bank computes its addresses,
        // updates its counters and reads L1 now (a later WRCFG of its base address, as tt-llk's
        // matmul unpack issues right behind it, must not affect it); the Src datums it produces
        // are held back and written when it starts.
        let held_back = waits.then_some(unpacker_src(insn.unit));
        // Its writes go to the unwritten canvas in place of the live Src (swapped, not
        // copied: an UNPACR writes Src and never reads it), and from there to the queue.
        if let Some(src) = held_back {
            std::mem::swap(src_data(&mut self.state, src), &mut self.held_src);
        }
        let typed = crate::insn::blackhole_memoized(self.arch, insn.word);
        let ctx = DataCtx {
            mode: self.mode,
            state: &mut self.state,
            banks: &self.banks,
            warnings: &mut self.warnings,
        };
        let r = execute_data(ctx, t, typed.as_ref(), insn.word, cycle, mem);
        if let Some(src) = held_back {
            std::mem::swap(src_data(&mut self.state, src), &mut self.held_src);
            let canvas = &mut self.held_src;
            let format = canvas.format(0).or(canvas.format(1));
            let cells = canvas.take_written();
            if r.is_ok() {
                let queue = &mut self.deferred_src[usize::from(src == Src::B)];
                queue.push_back(DeferredSrc { cells, format });
            }
        }
        r
    }
}

/// The data of `SrcA` or `SrcB`.
fn src_data(state: &mut TensixState, src: Src) -> &mut crate::state::SrcData {
    match src {
        Src::A => &mut state.src_a,
        Src::B => &mut state.src_b,
    }
}

/// The Sync Unit's one-per-cycle group (SyncUnit.md): STALLWAIT, the semaphore instructions
/// and the Sync Unit's other instructions share one dispatch slot per cycle.
fn in_sync_group(insn: &Insn) -> bool {
    matches!(
        insn.op,
        Op::StallWait { .. }
            | Op::SemWait { .. }
            | Op::SemInit { .. }
            | Op::SemPost { .. }
            | Op::SemGet { .. }
    ) || (insn.unit == Unit::Sync && matches!(insn.op, Op::Other))
}
