//! The per-core [`Bus`]: one hart's view of its tile, decoded with [`decode`] for that core.
//!
//! Accesses that cannot be honoured go through [`CoreBus::refuse`]: in strict mode the bus
//! records a typed [`ChipError`] (tile, core, pc, address, width, cycle) and answers
//! `Access::Fault`, which the hart turns into an exception that the tile reports with those
//! details; in permissive mode it records a warning once per (core, address), reads 0 / drops
//! the write, and continues (never silently).
use bhemu_noc::TileNoc;
use bhemu_rv::{Access, Bus, BusFault, MemRegion, Width};
use bhemu_tensix::{PushSource, Pushed};

use super::memory_map::{
    decode, Core, PcBufPort, Target, INSTRN_BUF_BASE, L1_SIZE, LOCAL_RAM_BASE,
};
use super::misc_regs::extract;
use super::pc_bufs::{ttsync_check, Override};
use super::stall::Wait;
use super::{MmioAccess, Parts, Strictness};
use crate::error::{ChipError, ErrorKind};

pub(crate) struct CoreBus<'a, 'n> {
    pub core: Core,
    /// pc of the instruction being executed (for error locations).
    pub pc: u32,
    pub now: u64,
    pub p: &'a mut Parts,
    /// This tile's own NIUs; issued requests go to `p.outbox`.
    pub noc: &'a mut TileNoc<'n>,
}

/// Why an MMIO access was refused.
type Refusal = (ErrorKind, String);

fn unmapped(why: &str) -> Refusal {
    (ErrorKind::Unmapped, why.to_string())
}

impl CoreBus<'_, '_> {
    /// The typed error for a refused access, located at this core, pc and cycle.
    fn error(&self, addr: u32, width: u32, write: bool, r: Refusal) -> ChipError {
        let (kind, why) = r;
        let what = if write { "store to" } else { "load from" };
        let mut e = ChipError::new(
            kind,
            format!("{} {what} 0x{addr:08x}: {why}", self.core.name()),
        );
        e.loc.tile = Some((self.p.node.x, self.p.node.y));
        e.loc.core = Some(self.core);
        e.loc.pc = Some(self.pc);
        e.loc.addr = Some(addr);
        e.loc.width = Some(width as u8);
        e.loc.cycle = Some(self.now);
        e
    }

    /// Answers `Access::Fault` and keeps the typed error for the tile to report.
    #[cold]
    fn fault<T>(&mut self, e: ChipError) -> Access<T> {
        let addr = e.loc.addr.unwrap_or(0);
        let reason = e.message.clone();
        self.p.fault = Some(e);
        Access::Fault(BusFault { addr, reason })
    }

    /// See the module documentation.
    #[cold]
    fn refuse<T: Default>(&mut self, addr: u32, width: u32, write: bool, r: Refusal) -> Access<T> {
        let e = self.error(addr, width, write, r);
        match self.p.strictness {
            Strictness::Strict => self.fault(e),
            Strictness::Permissive => self.warn_once(e),
        }
    }

    /// An access to a Tensix window this core is not connected to ([`Target::NotConnected`]):
    /// undefined behaviour, so the coprocessor's strictness decides (`BHEMU_STRICT`): strict
    /// faults; otherwise the access is reported once per (core, address) and has no effect.
    #[cold]
    fn not_connected<T: Default>(
        &mut self,
        addr: u32,
        width: u32,
        write: bool,
        why: &str,
    ) -> Access<T> {
        let e = self.error(addr, width, write, (ErrorKind::Undefined, why.to_string()));
        if self.p.cp.mode() == bhemu_tensix::Mode::Strict {
            return self.fault(e);
        }
        self.warn_once(e)
    }

    /// Keeps `e` as a warning once per (core, address) and answers the access with no effect
    /// (a load reads 0).
    fn warn_once<T: Default>(&mut self, e: ChipError) -> Access<T> {
        if self
            .p
            .warned
            .insert((self.core as u8, e.loc.addr.unwrap_or(0)))
        {
            self.p.warnings.push(e);
        }
        Access::Done(T::default())
    }

    fn note(&mut self, addr: u32, width: u32, write: bool, value: u32, stalled: bool) {
        if !stalled {
            self.p.mmio_done[self.core.index()] = self.now + 1;
        }
        self.p.last_mmio[self.core.index()] = Some(MmioAccess {
            pc: self.pc,
            addr,
            width: width as u8,
            write,
            value,
            cycle: self.now,
            stalled,
        });
    }

    fn mmio_load(&mut self, t: Target, addr: u32, width: u32) -> Result<Access<u32>, Refusal> {
        let p = &mut *self.p;
        let word_only = |w: u32| -> Result<(), Refusal> {
            if w == 4 {
                Ok(())
            } else {
                Err((
                    ErrorKind::AccessRule,
                    format!("{w}-byte access to a word-only register"),
                ))
            }
        };
        Ok(match t {
            Target::Tdma(off) => Access::Done(p.tdma.read(off, width).unwrap_or(0)),
            // PushTensixInstruction.md "RISCV_DEBUG_REG_INSTRN_BUF_STATUS": bits 0-2 "not
            // full", bits 4-6 "empty", per thread; bhemu reports the TRISC-side FIFO.
            Target::DebugRegs(off) if off & !3 == super::debug_regs::INSTRN_BUF_STATUS => {
                let mut v = 0;
                for t in 0..3 {
                    let len = p.cp.fifo_len(t);
                    if len < bhemu_tensix::FIFO_SLOTS {
                        v |= 1 << t;
                    }
                    if len == 0 {
                        v |= 1 << (4 + t);
                    }
                }
                Access::Done(extract(v, off, width))
            }
            Target::DebugRegs(off) => {
                let v = p
                    .debug
                    .read(off & !3, self.now)
                    .map_err(|m| (ErrorKind::Unimplemented, m.to_string()))?;
                Access::Done(extract(v, off, width))
            }
            Target::Pic(off) => {
                word_only(width)?;
                Access::Done(p.pic.read(off).unwrap_or(0))
            }
            // A parked core shows the pc it has in the reference schedule: cores before this
            // one in the order have executed this cycle.
            Target::PcSnapshot(c) => Access::Done(match &p.parked[c.index()] {
                Some(park) if c.index() < self.core.index() => park.pc_at(self.now + 1),
                Some(park) => park.pc_at(self.now),
                None => p.pcs[c.index()],
            }),
            Target::Niu(a) => {
                let v = self
                    .noc
                    .tile_mmio_read(a & !3)
                    .map_err(|e| (ErrorKind::Noc, e.to_string()))?;
                Access::Done(extract(v, a, width))
            }
            Target::Overlay(off) => {
                word_only(width)?;
                Access::Done(
                    p.overlay
                        .read(off)
                        .map_err(|m| (ErrorKind::Unimplemented, m))?,
                )
            }
            Target::MopCfg { .. } => {
                return Err((
                    ErrorKind::AccessRule,
                    "MOP expander configuration is write-only".into(),
                ))
            }
            Target::Dst(off) => {
                let t = self.core.thread().unwrap_or(usize::MAX);
                Access::Done(
                    p.cp.dst_window_read(t, off, width)
                        .map_err(|m| (ErrorKind::AccessRule, m))?,
                )
            }
            Target::Gpr(w) => Access::Done(
                p.cp.gpr_window_read(0, (w as u32) * 4 + (addr & 3), width)
                    .map_err(|m| (ErrorKind::AccessRule, m))?,
            ),
            Target::InsnPush { .. } => {
                return Err((
                    ErrorKind::AccessRule,
                    "instruction-push addresses are write-only".into(),
                ))
            }
            Target::PcBuf(port) => {
                word_only(width)?;
                match port {
                    PcBufPort::BriscSide(i) => {
                        let ov = Override::of(p.debug.pc_buf_override(), i);
                        p.pcbufs.brisc_read(i, ov, p.cp.thread_idle(i))
                    }
                    PcBufPort::TriscSide(i) => p
                        .pcbufs
                        .trisc_read(i, Override::of(p.debug.pc_buf_override(), i)),
                    PcBufPort::CoprocessorDone(i) => ttsync_check(
                        p.cp.thread_idle(i),
                        Override::of(p.debug.pc_buf_override(), i),
                    ),
                    PcBufPort::MopDone(i) => {
                        ttsync_check(p.cp.mop_idle(i), Override::of(p.debug.pc_buf_override(), i))
                    }
                    PcBufPort::Semaphore(i) => Access::Done(
                        p.cp.sem_window_read(i)
                            .map_err(|e| (ErrorKind::AccessRule, e.message))?,
                    ),
                }
            }
            Target::Mailbox { region, off } => {
                word_only(width)?;
                match self.core.mailbox_index() {
                    Some(me) => p.mailboxes.read(me, region, off),
                    None => return Err(unmapped("mailboxes are not mapped for NCRISC")),
                }
            }
            Target::TensixCfg(off) => Access::Done(
                p.cp.cfg_window_read(off, width)
                    .map_err(|m| (ErrorKind::AccessRule, m))?,
            ),
            Target::Unmapped(why) | Target::NotConnected(why) => return Err(unmapped(why)),
            Target::L1(_) | Target::LocalRam { .. } => {
                return Err(unmapped("internal: memory routed as MMIO"))
            }
        })
    }

    fn mmio_store(
        &mut self,
        t: Target,
        addr: u32,
        width: u32,
        value: u32,
    ) -> Result<Access<()>, Refusal> {
        let now = self.now;
        let core = self.core;
        let pc = self.pc;
        let p = &mut *self.p;
        let word_only = |w: u32| -> Result<(), Refusal> {
            if w == 4 {
                Ok(())
            } else {
                Err((
                    ErrorKind::AccessRule,
                    format!("{w}-byte store to a word-only register"),
                ))
            }
        };
        Ok(match t {
            Target::Tdma(off) => {
                p.tdma.write(off, width, value);
                Self::note_cfg_write(p, core);
                Access::Done(())
            }
            Target::DebugRegs(off) => {
                word_only(width)?;
                Self::debug_store(p, off, value, now)?;
                Access::Done(())
            }
            Target::Pic(off) => {
                word_only(width)?;
                p.pic
                    .write(off, value)
                    .map_err(|m| (ErrorKind::AccessRule, m.to_string()))?;
                Access::Done(())
            }
            Target::PcSnapshot(_) => {
                return Err((ErrorKind::AccessRule, "pc snapshots are read-only".into()))
            }
            Target::Niu(a) => {
                word_only(width)?;
                self.noc
                    .tile_mmio_write(a, value, &mut p.outbox)
                    .map_err(|e| (ErrorKind::Noc, e.to_string()))?;
                Access::Done(())
            }
            Target::Overlay(off) => {
                word_only(width)?;
                p.overlay
                    .write(off, value)
                    .map_err(|m| (ErrorKind::Unimplemented, m))?;
                // Cores parked on a poll of the overlay see the change (see `park`).
                p.wake_overlay_pollers();
                Access::Done(())
            }
            Target::MopCfg { thread, index } => {
                word_only(width)?;
                p.cp.write_mop_cfg(thread, index, value)
                    .map_err(|e| (ErrorKind::AccessRule, e.message))?;
                Access::Done(())
            }
            Target::Dst(off) => {
                let t = core.thread().unwrap_or(usize::MAX);
                p.cp.dst_window_write(t, off, width, value)
                    .map_err(|m| (ErrorKind::AccessRule, m))?;
                Access::Done(())
            }
            Target::Gpr(w) => {
                p.cp.gpr_window_write(0, (w as u32) * 4 + (addr & 3), width, value)
                    .map_err(|m| (ErrorKind::AccessRule, m))?;
                Self::note_cfg_write(p, core);
                Access::Done(())
            }
            Target::InsnPush { thread, after_mop } => {
                // PushTensixInstruction.md: instructions are pushed with `sw`.
                word_only(width)?;
                let src = if after_mop {
                    PushSource::Brisc
                } else {
                    PushSource::Trisc
                };
                match p
                    .cp
                    .push_from(thread, src, value, Some(pc))
                    .map_err(|e| (ErrorKind::Tensix, e.to_string()))?
                {
                    Pushed::Accepted => {
                        p.cp_active = true;
                        Access::Done(())
                    }
                    Pushed::Full => Access::Stall,
                }
            }
            Target::PcBuf(port) => {
                word_only(width)?;
                Self::pcbuf_store(p, port, value)?
            }
            Target::Mailbox { region, .. } => {
                word_only(width)?;
                match core.mailbox_index() {
                    Some(me) => p.mailboxes.write(me, region, value),
                    None => return Err(unmapped("mailboxes are not mapped for NCRISC")),
                }
            }
            Target::TensixCfg(off) => {
                // BackendConfiguration.md: RISC-V writes to Config are `sw` only.
                word_only(width)?;
                p.cp.cfg_window_write(off, 4, value)
                    .map_err(|m| (ErrorKind::AccessRule, m))?;
                Self::note_cfg_write(p, core);
                Access::Done(())
            }
            Target::Unmapped(why) | Target::NotConnected(why) => return Err(unmapped(why)),
            Target::L1(_) | Target::LocalRam { .. } => {
                return Err(unmapped("internal: memory routed as MMIO"))
            }
        })
    }

    /// A store to a PCBuf window port (PCBufs.md).
    fn pcbuf_store(p: &mut Parts, port: PcBufPort, value: u32) -> Result<Access<()>, Refusal> {
        Ok(match port {
            PcBufPort::BriscSide(i) => p.pcbufs.brisc_write(i, value),
            // PCBufs.md: "Write is discarded"; ManualTTSync.md: stores to
            // CoprocessorDoneCheck are discarded.
            PcBufPort::TriscSide(_) | PcBufPort::CoprocessorDone(_) => Access::Done(()),
            // docs/mop-replay.md MR-11: a store to mop_sync completes only once the MOP
            // expander has nothing queued or in progress.
            PcBufPort::MopDone(i) => {
                match ttsync_check(p.cp.mop_idle(i), Override::of(p.debug.pc_buf_override(), i)) {
                    Access::Done(_) => Access::Done(()),
                    _ => Access::Stall,
                }
            }
            PcBufPort::Semaphore(i) => {
                p.cp.sem_window_write(i, value)
                    .map_err(|e| (ErrorKind::AccessRule, e.message))?;
                p.cp_active = true;
                Access::Done(())
            }
        })
    }

    /// A store to the RISC-V debug registers: soft reset, Config read-back latch, the rest plain.
    fn debug_store(p: &mut Parts, off: u32, value: u32, now: u64) -> Result<(), Refusal> {
        match p
            .debug
            .write(off, value, now)
            .map_err(|m| (ErrorKind::Unimplemented, m.to_string()))?
        {
            super::DebugWrite::SoftReset { old } => {
                p.soft_reset_old.get_or_insert(old);
            }
            super::DebugWrite::CfgRead { index } => p
                .latch_cfg_read(index)
                .map_err(|m| (ErrorKind::AccessRule, m))?,
            super::DebugWrite::Done => {}
        }
        Ok(())
    }

    /// STALLWAIT C10 (STALLWAIT.md, "TRISC has a config / GPR / TDMA-RISC request that has
    /// not yet been processed"): raised by a TRISC's write for the coprocessor cycle that
    /// follows, cleared by [`super::Tile::step_coprocessor`].
    fn note_cfg_write(p: &mut Parts, core: Core) {
        if let Some(t) = core.thread() {
            p.cp.set_trisc_cfg_pending(t, true);
            p.cfg_pending |= 1 << t;
            p.cp_active = true;
        }
    }

    fn csr_slot(csr: u16) -> Option<usize> {
        match csr {
            0x7C0..=0x7C6 => Some(usize::from(csr - 0x7C0)),
            0xBC2..=0xBC9 => Some(7 + usize::from(csr - 0xBC2)),
            _ => None,
        }
    }

    /// `tt_cfg_qstatus` (CSRs.md): T_i sees its own thread's bits plus the OR over threads at
    /// bit 13; the other cores see the OR in both places.
    fn qstatus(&self) -> u32 {
        let cp = &self.p.cp;
        match self.core.thread() {
            Some(t) => cp.qstatus(t),
            None => {
                let all = (cp.qstatus(0) >> 13) & 0x7FF;
                all | (all << 13)
            }
        }
    }
}

impl Bus for CoreBus<'_, '_> {
    /// The latency class of `addr` in this core's view (docs/core-timing.md CT-2).
    fn region(&self, addr: u32) -> MemRegion {
        memory_region(self.core, addr)
    }

    #[inline]
    fn fetch(&mut self, addr: u32) -> Access<u32> {
        // A pass that had to fetch (a decode-cache miss, e.g. after `fence.i`) does not prove
        // an idle loop: its replay must run from the decode cache alone (see `park`).
        self.p.probes[self.core.index()].impure = true;
        // BabyRISCV/README.md "Frontend": instructions can only be fetched from L1.
        if addr < L1_SIZE {
            if let Some(w) = self.p.l1.fetch(addr) {
                return Access::Done(w);
            }
        }
        // A fetch has no value to make up, so it faults even in permissive mode.
        let why = "instruction fetch outside L1 (cores execute only from L1)";
        let e = self.error(addr, 4, false, (ErrorKind::AccessRule, why.into()));
        self.fault(e)
    }

    fn fetch_block(&mut self, addr: u32, out: &mut [u32]) -> bool {
        // As `fetch`, word for word: from L1 only, each line marked as code, the pass impure.
        if !self.p.l1.fetch_block(addr, out) {
            return false;
        }
        self.p.probes[self.core.index()].impure = true;
        true
    }

    #[inline]
    fn load(&mut self, addr: u32, width: Width) -> Access<u32> {
        let w = width.bytes();
        if addr < L1_SIZE {
            if let Some(v) = self.p.l1.read(addr, w) {
                self.p.probes[self.core.index()].load(addr, w, v);
                return Access::Done(v);
            }
        }
        let i = self.core.index();
        let t = decode(self.core, addr);
        // The overlay registers change only by writes the tile sees (its cores' stores, the
        // coprocessor's STOREREG), so a loop polling them can be parked like an L1 poll.
        let pollable = matches!(t, Target::Overlay(_));
        if !pollable {
            self.p.probes[i].impure = true;
        }
        if let Target::LocalRam { owner, off } = t {
            return match self.p.local[owner.index()].read(off, w) {
                Some(v) => Access::Done(v),
                None => self.refuse(addr, w, false, unmapped("beyond the end of local data RAM")),
            };
        }
        if let Target::NotConnected(why) = t {
            self.p.probes[i].impure = true;
            return self.not_connected(addr, w, false, why);
        }
        match self.mmio_load(t, addr, w) {
            Ok(a) => {
                let (v, stalled) = match &a {
                    Access::Done(v) => (*v, false),
                    _ => (0, true),
                };
                self.note(addr, w, false, v, stalled);
                if stalled {
                    self.p.stall_on[i] = Wait::of(t, self.core, false).map(|w| (w, self.now));
                }
                let probe = &mut self.p.probes[i];
                match self.p.last_mmio[i] {
                    Some(m) if pollable && !stalled => probe.poll(m),
                    _ => probe.impure = true,
                }
                a
            }
            Err(r) => {
                self.p.probes[i].impure = true;
                self.note(addr, w, false, 0, false);
                self.refuse(addr, w, false, r)
            }
        }
    }

    #[inline]
    fn store(&mut self, addr: u32, width: Width, value: u32) -> Access<()> {
        let w = width.bytes();
        self.p.probes[self.core.index()].impure = true;
        if addr < L1_SIZE && self.p.l1.write(addr, w, value) {
            return Access::Done(());
        }
        let t = decode(self.core, addr);
        if let Target::LocalRam { owner, off } = t {
            return if self.p.local[owner.index()].write(off, w, value) {
                Access::Done(())
            } else {
                self.refuse(addr, w, true, unmapped("beyond the end of local data RAM"))
            };
        }
        if let Target::NotConnected(why) = t {
            return self.not_connected(addr, w, true, why);
        }
        let r = self.mmio_store(t, addr, w, value);
        let stalled = matches!(r, Ok(Access::Stall));
        self.note(addr, w, true, value, stalled);
        if stalled {
            let i = self.core.index();
            self.p.stall_on[i] = Wait::of(t, self.core, true).map(|w| (w, self.now));
        }
        match r {
            Ok(a) => a,
            Err(r) => self.refuse(addr, w, true, r),
        }
    }

    fn push_tensix(&mut self, word: u32) -> Access<()> {
        // PushTensixInstruction.md: `.ttinsn` is exactly `sw` of the word to INSTRN_BUF_BASE.
        self.store(INSTRN_BUF_BASE, Width::Word, word)
    }

    fn read_custom_csr(&mut self, csr: u16) -> Option<Access<u32>> {
        let i = self.core.index();
        self.p.probes[i].impure = true;
        match csr {
            0xBC0 => Some(Access::Done(self.qstatus())),
            // tt_cfg_bstatus: bhemu approximates "busy" by "queued" (same 11-bit masks, the OR
            // at bit 11 instead of 13).
            0xBC1 => {
                let q = self.qstatus();
                Some(Access::Done((q & 0x7FF) | (((q >> 13) & 0x7FF) << 11)))
            }
            c => Self::csr_slot(c).map(|s| Access::Done(self.p.csrs[i][s])),
        }
    }

    fn write_custom_csr(&mut self, csr: u16, value: u32) -> Option<Access<()>> {
        let i = self.core.index();
        self.p.probes[i].impure = true;
        match csr {
            0xBC0 | 0xBC1 => Some(Access::Done(())),
            c => Self::csr_slot(c).map(|s| {
                self.p.csrs[i][s] = value;
                Access::Done(())
            }),
        }
    }
}

/// Which latency class of BabyRISCV/README.md's load table `addr` falls in for `core`
/// (docs/core-timing.md CT-2). Addresses with no documented latency (Dst, the MOP expander's
/// configuration, instruction pushes, unmapped ones) count as tile registers.
pub(crate) fn memory_region(core: Core, addr: u32) -> MemRegion {
    match decode(core, addr) {
        Target::L1(_) => MemRegion::L1,
        Target::LocalRam { .. } if addr < LOCAL_RAM_BASE + 0x2000 => MemRegion::LocalRam,
        Target::LocalRam { .. } => MemRegion::SlowLocalRam,
        Target::Mailbox { .. } | Target::PcBuf(_) => MemRegion::Fifo,
        Target::Gpr(_) | Target::TensixCfg(_) | Target::Tdma(_) => MemRegion::TensixRegs,
        _ => MemRegion::TileRegs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/core-timing.md CT-2: the load table of BabyRISCV/README.md, address by address.
    #[test]
    fn ct2_tile_addresses_fall_in_their_documented_latency_class() {
        for (core, addr, want) in [
            (Core::Trisc0, 0x0000_0000, MemRegion::L1),
            (Core::Brisc, 0x0017_FFFC, MemRegion::L1),
            (Core::Trisc0, 0xFFB0_0000, MemRegion::LocalRam),
            (Core::Brisc, 0xFFB0_1FFC, MemRegion::LocalRam),
            (Core::Brisc, 0xFFB1_8000, MemRegion::SlowLocalRam),
            (Core::Trisc2, 0xFFB1_4000, MemRegion::SlowLocalRam),
            (Core::Trisc0, 0xFFEC_0000, MemRegion::Fifo),
            (Core::Brisc, 0xFFE8_0000, MemRegion::Fifo),
            (Core::Trisc1, 0xFFE8_0004, MemRegion::Fifo),
            (Core::Trisc1, 0xFFE8_0020, MemRegion::Fifo),
            (Core::Trisc0, 0xFFE0_0000, MemRegion::TensixRegs),
            (Core::Brisc, 0xFFEF_0000, MemRegion::TensixRegs),
            (Core::Trisc2, 0xFFB1_1000, MemRegion::TensixRegs),
            (Core::Trisc0, 0xFFB1_21F0, MemRegion::TileRegs),
            (Core::Brisc, 0xFFB1_3000, MemRegion::TileRegs),
            (Core::Ncrisc, 0xFFB2_0000, MemRegion::TileRegs),
            (Core::Brisc, 0xFFB3_0000, MemRegion::TileRegs),
            (Core::Brisc, 0xFFB4_0000, MemRegion::TileRegs),
        ] {
            assert_eq!(memory_region(core, addr), want, "{core} {addr:#010x}");
            assert_eq!(
                want.load_latency(),
                match want {
                    MemRegion::LocalRam => 2,
                    MemRegion::Fifo => 3,
                    MemRegion::TensixRegs => 4,
                    MemRegion::TileRegs => 7,
                    MemRegion::L1 | MemRegion::SlowLocalRam => 8,
                }
            );
        }
    }
}
