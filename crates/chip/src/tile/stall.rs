//! Exact stall sleeping for the fast schedule.
//!
//! A core whose bus access answers "stall, retry next cycle" (docs/execution-model.md EM-3:
//! a full Tensix instruction FIFO, a blocking PC-buffer, TTSync or mailbox access, `mop_sync`)
//! retries the same instruction every cycle in the reference schedule. Each retry decodes the
//! same address for the same core, asks the same device the same question and, while the
//! answer stays "stall", changes nothing but the hart's `cycle` (and its count of out-of-line
//! cycles) and the cycle of the core's last MMIO access ([`super::MmioAccess`]): a stalled
//! TRISC PC-buffer read sets "T_i waits", which its first stall already set.
//!
//! So after a stall the fast schedule puts the core to *sleep* on what it waits for
//! ([`Wait`]): at the core's place in the cycle order (tiles in slot order, cores BRISC …
//! TRISC2, then coprocessors, the NoC, the host) it evaluates [`Wait::blocked`], the device's
//! own stall rule as a pure function of the tile's state, instead of stepping the hart. While
//! it holds, the cycle counts as stalled; the first time it does not, the sleep's cycles are
//! accounted at once ([`bhemu_rv::Hart::skip_stalled`], the last MMIO access brought to the
//! last stalled cycle) and the core steps normally in that same cycle — exactly where the
//! reference schedule's retry succeeds, whatever freed it (the coprocessor's frontend taking
//! an instruction, another core's PC-buffer or mailbox access, an override written by a core
//! or the host, a thread's soft reset). Because the check runs at the core's own slot, an
//! event earlier in the order is seen in the same cycle and a later one in the next, as in
//! the reference schedule, with no per-event bookkeeping. A write to code also ends the sleep
//! (the retry would run the new instruction): the core steps and, if it stalls again, sleeps
//! again.
//!
//! The core is not slept when the stalled step made another MMIO access before the one that
//! stalled (an AMO whose load went through: each retry would repeat that load), or when its
//! hart is traced. Anything that reads a sleeping core's hart or last MMIO access first
//! brings it to the cycle ([`super::Tile::sync_parked`], [`super::Tile::last_mmio_at`]), as
//! for parked cores (see `park`). The saving is the hart's step (fetch, execute, bus decode),
//! not the tile's visit: a stall ends through the coprocessor or another core of the tile (or
//! the host), which keep the tile busy anyway, so the sleeping core stays among those the
//! tile visits every cycle and is asked at its slot.
//!
//! docs/execution-model.md EM-16 states this as a clause; its tests are `em16_…` in
//! `crates/chip/tests/stall_sleep.rs`.
use bhemu_rv::Access;
use bhemu_tensix::PushSource;

use super::memory_map::{Core, PcBufPort, Target};
use super::pc_bufs::{ttsync_check, Override};
use super::{MmioAccess, Parts, Tile};

/// What a stalled access waits for: the device and question of the access, from which its
/// stall rule can be asked again without side effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// A Tensix instruction push into `thread`'s FIFO (TRISC) or BRISC's queue for it.
    Push { thread: usize, source: PushSource },
    /// RISCV B's read of PCBuf `i`: T_i waits on an empty buffer and Tensix T_i is idle.
    BriscRead(usize),
    /// RISCV B's write of PCBuf `i`: a free slot.
    BriscWrite(usize),
    /// T_i's read of its PCBuf: a value, or the override enabled.
    TriscRead(usize),
    /// T_i's `CoprocessorDoneCheck`: Tensix T_i idle.
    ThreadIdle(usize),
    /// T_i's `MOPExpanderDoneCheck` (`mop_sync`), load or store: its MOP expander idle.
    MopIdle(usize),
    /// A blocking pop of mailbox region `m` by mailbox core `me`.
    MailboxRead { me: usize, m: usize },
    /// A write of mailbox region `m` by mailbox core `me`.
    MailboxWrite { me: usize, m: usize },
}

impl Wait {
    /// The wait of `core`'s access to `t` that just stalled (`write` for a store); `None` for
    /// one whose stall rule this module does not know (the core then steps every cycle).
    pub fn of(t: Target, core: Core, write: bool) -> Option<Wait> {
        Some(match (t, write) {
            (Target::InsnPush { thread, after_mop }, true) => Wait::Push {
                thread,
                source: if after_mop {
                    PushSource::Brisc
                } else {
                    PushSource::Trisc
                },
            },
            (Target::PcBuf(PcBufPort::BriscSide(i)), false) => Wait::BriscRead(i),
            (Target::PcBuf(PcBufPort::BriscSide(i)), true) => Wait::BriscWrite(i),
            (Target::PcBuf(PcBufPort::TriscSide(i)), false) => Wait::TriscRead(i),
            (Target::PcBuf(PcBufPort::CoprocessorDone(i)), false) => Wait::ThreadIdle(i),
            (Target::PcBuf(PcBufPort::MopDone(i)), _) => Wait::MopIdle(i),
            (Target::Mailbox { region, .. }, w) => {
                let me = core.mailbox_index()?;
                if w {
                    Wait::MailboxWrite { me, m: region }
                } else {
                    Wait::MailboxRead { me, m: region }
                }
            }
            _ => return None,
        })
    }

    /// The access would stall again now: the same rule the bus applies
    /// (`CoreBus::mmio_load` / `mmio_store`), read without side effects.
    #[inline]
    pub fn blocked(&self, p: &Parts) -> bool {
        let ov = |i: usize| Override::of(p.debug.pc_buf_override(), i);
        let stalls = |a: Access<u32>| matches!(a, Access::Stall);
        match *self {
            Wait::Push { thread, source } => p.cp.push_blocked(thread, source),
            Wait::BriscRead(i) => stalls(p.pcbufs.brisc_read(i, ov(i), p.cp.thread_idle(i))),
            Wait::BriscWrite(i) => p.pcbufs.brisc_write_blocked(i),
            Wait::TriscRead(i) => p.pcbufs.trisc_read_blocked(i, ov(i)),
            Wait::ThreadIdle(i) => stalls(ttsync_check(p.cp.thread_idle(i), ov(i))),
            Wait::MopIdle(i) => stalls(ttsync_check(p.cp.mop_idle(i), ov(i))),
            Wait::MailboxRead { me, m } => p.mailboxes.read_blocked(me, m),
            Wait::MailboxWrite { me, m } => p.mailboxes.write_blocked(me, m),
        }
    }
}

/// A sleeping core: what it waits for and the cycles it has not yet accounted.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sleep {
    pub wait: Wait,
    /// First cycle not yet accounted as stalled.
    pub from: u64,
    /// The tile's count of writes to code when the core fell asleep (see the module doc).
    pub code_writes: u64,
}

impl Sleep {
    /// The core's last MMIO access once it has executed every cycle before `next`: the
    /// stalled access, repeated in each cycle slept.
    pub fn last_mmio_at(&self, m: Option<MmioAccess>, next: u64) -> Option<MmioAccess> {
        m.map(|mut m| {
            if next > self.from {
                m.cycle = m.cycle.max(next - 1);
            }
            m
        })
    }
}

impl Tile {
    /// How many times the fast schedule put a core of this tile to sleep on a stalled access,
    /// and how many stalled cycles the sleeping cores were not stepped (accounted so far).
    pub fn sleep_counts(&self) -> (u64, u64) {
        (self.sleeps, self.slept)
    }

    /// Ends core `i`'s sleep, if it sleeps: accounts the cycles before `next` as stalled, as
    /// the reference schedule's retries would have. The core steps again at its next visit.
    pub(super) fn end_sleep(&mut self, i: usize, next: u64) {
        self.sleepers &= !(1 << i);
        let Some(s) = self.cores[i].sleep.take() else {
            return;
        };
        let n = next.saturating_sub(s.from);
        self.cores[i].hart.skip_stalled(n);
        self.p.last_mmio[i] = s.last_mmio_at(self.p.last_mmio[i], next);
        self.slept += n;
    }
}
