//! The MOP expander of one thread, exactly as docs/mop-replay.md and MOPExpander.md describe it.
//!
//! Timing (MOPExpander.md "Performance", docs/mop-replay.md table): outside MOP/MOP_CFG it ingests and
//! emits one instruction per cycle; MOP_CFG is ingested and emits nothing; a MOP is ingested
//! and its expansion emitted one per cycle (bhemu: the first expanded instruction leaves in the
//! same cycle the MOP is ingested, as the REPLAY expander does for playback, REPLAY.md), with
//! ingestion blocked meanwhile; after an expansion, if the next instruction is not a MOP, one
//! transition cycle neither ingests nor emits.
//!
//! Snapshot: MopCfg is copied when an expansion starts (the functional model's reading; the
//! page notes hardware "mostly samples values as required", and software must not change
//! MopCfg mid-expansion, docs/mop-replay.md MR-10). `write_cfg` during an expansion therefore
//! affects only the next MOP.
use bhemu_isa::tensix::Arch;

use crate::fifo::Fifo;
use crate::insn::{decode, Insn, Op};

/// IsNop (docs/mop-replay.md MR-8): only opcode 0x02, never DMANOP (0x60) nor SFPNOP (0x8F).
pub fn is_nop(word: u32) -> bool {
    word >> 24 == 0x02
}

#[derive(Clone, Debug)]
enum Expansion {
    /// Template 0 (unpack z-mask loop).
    T0 {
        mask: u32,
        iters_left: u32,
        pending: [u8; 5],
        pending_len: u8,
        pending_pos: u8,
    },
    /// Template 1 (double loop); `alt` selects LoopOp1 (MopCfg[6]) instead of LoopOp ([5]).
    T1 {
        outer: u32,
        inner: u32,
        j: u32,
        phase: T1Phase,
        alt: bool,
        flip: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum T1Phase {
    Start,
    Inner(u32),
    End0,
    End1,
    Next,
}

/// One thread's MOP expander.
#[derive(Clone, Debug)]
pub struct MopExpander {
    arch: Arch,
    cfg: [u32; 9],
    /// Boxed, as the snapshot: the frontend asks every idle thread's expander for work every
    /// cycle, and these tables inline would spread its small fields over more cache lines.
    cfg_dec: Box<[Insn; 9]>,
    /// The snapshot used by the running expansion.
    snap: Box<[Insn; 9]>,
    mask_hi: u16,
    exp: Option<Expansion>,
    /// Lookahead: the next instruction the running expansion will emit (cfg index).
    next: Option<u8>,
    /// The cycle in which the transition penalty applies, if one is pending.
    penalty_at: Option<u64>,
}

/// Template 1's OuterCount / InnerCount from `MopCfg[0]` / `MopCfg[1]` (docs/mop-replay.md MR-5):
/// Wormhole keeps the low seven bits (MOPExpander.md); Blackhole's expander is "similar, but not
/// identical" and takes wider counts: tt-llk's Blackhole test of `tensix_sync` programs a
/// 1000 x 1000 expansion and expects all 10^6 instructions. How wide Blackhole's counters are is
/// not documented; bhemu takes the whole word.
fn loop_count(arch: Arch, word: u32) -> u32 {
    match arch {
        Arch::WormholeB0 => word & 127,
        Arch::Blackhole => word,
    }
}

impl MopExpander {
    pub fn new(arch: Arch) -> Self {
        let nop = Insn::nop(arch);
        MopExpander {
            arch,
            cfg: [0; 9],
            cfg_dec: Box::new([decode(arch, 0); 9]),
            snap: Box::new([nop; 9]),
            mask_hi: 0,
            exp: None,
            next: None,
            penalty_at: None,
        }
    }

    /// Write `MopCfg[i]` (docs/mop-replay.md: nine write-only registers per thread at 0xFFB80000 + 4i).
    /// Returns false for an index beyond 8 (the caller decides what an out-of-range write is).
    pub fn write_cfg(&mut self, i: usize, value: u32) -> bool {
        if i >= 9 {
            return false;
        }
        self.cfg[i] = value;
        self.cfg_dec[i] = decode(self.arch, value);
        true
    }

    /// Last value written to `MopCfg[i]` (for tests and debuggers; the hardware cannot read it).
    pub fn cfg(&self, i: usize) -> Option<u32> {
        self.cfg.get(i).copied()
    }

    pub fn mask_hi(&self) -> u16 {
        self.mask_hi
    }

    /// Abandons the running expansion, if any (a TRISC entering soft reset discards the
    /// instructions in its MOP expander, SoftReset.md "RISCV soft reset"). `MopCfg` and the
    /// `MOP_CFG` mask are configuration, not instructions, so they are kept.
    pub fn abort(&mut self) {
        self.exp = None;
        self.next = None;
        self.penalty_at = None;
    }

    /// True while an expansion is in progress (qstatus bit 1 / mop_sync).
    pub fn expanding(&self) -> bool {
        self.exp.is_some()
    }

    /// Not expanding and no penalty cycle pending: with an empty FIFO, `pull` changes nothing.
    pub fn at_rest(&self) -> bool {
        self.exp.is_none() && self.penalty_at.is_none()
    }

    /// Produce at most one instruction for the replay expander this cycle, taking at most one
    /// instruction from `fifo`. Returns (instruction emitted, whether anything changed).
    pub fn pull(&mut self, cycle: u64, fifo: &mut Fifo) -> (Option<Insn>, bool) {
        if self.exp.is_some() {
            return (self.emit(cycle), true);
        }
        if self.penalty_at == Some(cycle) {
            self.penalty_at = None;
            let head_is_mop = matches!(fifo.peek().map(|i| i.op), Some(Op::Mop { .. }));
            if !head_is_mop {
                // MOPExpander.md: one cycle during which it neither ingests nor emits.
                return (None, true);
            }
        }
        self.penalty_at = None;
        let Some(insn) = fifo.pop() else {
            return (None, false);
        };
        match insn.op {
            Op::MopCfg { mask_hi } => {
                self.mask_hi = mask_hi;
                (None, true)
            }
            Op::Mop {
                template,
                count1,
                mask_lo,
            } => {
                *self.snap = *self.cfg_dec;
                // The expansion's instructions are reported at the MOP's pc.
                for s in self.snap.iter_mut() {
                    s.pc = insn.pc;
                }
                self.start(template, count1, mask_lo);
                if self.next.is_none() {
                    // An empty expansion ends at once; the penalty follows.
                    self.exp = None;
                    self.penalty_at = Some(cycle + 1);
                    return (None, true);
                }
                (self.emit(cycle), true)
            }
            _ => (Some(insn), true),
        }
    }

    fn emit(&mut self, cycle: u64) -> Option<Insn> {
        let idx = self.next?;
        let out = self.snap[idx as usize];
        self.next = self.advance();
        if self.next.is_none() {
            self.exp = None;
            self.penalty_at = Some(cycle + 1);
        }
        Some(out)
    }

    fn start(&mut self, template: u8, count1: u8, mask_lo: u16) {
        let w = |i: usize| self.snap[i].word;
        if template == 0 {
            let mask = ((self.mask_hi as u32) << 16) | mask_lo as u32;
            self.exp = Some(Expansion::T0 {
                mask,
                iters_left: count1 as u32 + 1,
                pending: [0; 5],
                pending_len: 0,
                pending_pos: 0,
            });
        } else {
            // ExpandTemplate1 (docs/mop-replay.md / MOPExpander.md).
            let mut outer = loop_count(self.arch, w(0));
            let mut inner = loop_count(self.arch, w(1));
            let flip = !is_nop(w(6));
            if flip {
                // Beyond 2^31 inner iterations the count saturates (an expansion of that
                // length never ends in any run).
                inner = inner.saturating_mul(2);
            }
            // The hardware bug, replicated exactly (docs/mop-replay.md MR-6).
            if outer == 1 && is_nop(w(2)) && inner == 0 && !is_nop(w(3)) {
                outer += 128;
            }
            self.exp = Some(Expansion::T1 {
                outer,
                inner,
                j: 0,
                phase: T1Phase::Start,
                alt: false,
                flip,
            });
        }
        self.next = self.advance();
    }

    /// Run the generator to its next `yield`; None when the expansion is finished.
    fn advance(&mut self) -> Option<u8> {
        let snap_words: [u32; 9] = std::array::from_fn(|i| self.snap[i].word);
        match self.exp.as_mut()? {
            Expansion::T0 {
                mask,
                iters_left,
                pending,
                pending_len,
                pending_pos,
            } => {
                if *pending_pos < *pending_len {
                    let v = pending[*pending_pos as usize];
                    *pending_pos += 1;
                    return Some(v);
                }
                if *iters_left == 0 {
                    return None;
                }
                *iters_left -= 1;
                let flags = snap_words[1];
                let has_b = flags & 1 == 1;
                let has_a123 = flags & 2 == 2;
                let mut seq = [0u8; 5];
                let mut n = 0;
                let mut add = |i: u8| {
                    seq[n] = i;
                    n += 1;
                };
                if *mask & 1 == 0 {
                    add(3); // InsnA0
                    if has_a123 {
                        add(4);
                        add(5);
                        add(6);
                    }
                    if has_b {
                        add(2); // InsnB
                    }
                } else {
                    add(7); // SkipA0
                    if has_b {
                        add(8); // SkipB
                    }
                }
                *mask >>= 1;
                *pending = seq;
                *pending_len = n as u8;
                *pending_pos = 1;
                Some(seq[0])
            }
            Expansion::T1 {
                outer,
                inner,
                j,
                phase,
                alt,
                flip,
            } => loop {
                match *phase {
                    T1Phase::Start => {
                        if *j >= *outer {
                            return None;
                        }
                        *phase = T1Phase::Inner(0);
                        if !is_nop(snap_words[2]) {
                            return Some(2);
                        }
                    }
                    T1Phase::Inner(i) => {
                        if i < *inner {
                            let idx = if i != *inner - 1 {
                                if *alt {
                                    6
                                } else {
                                    5
                                }
                            } else if *j != *outer - 1 {
                                8 // Loop1Last
                            } else {
                                7 // Loop0Last
                            };
                            // LoopOp ^= LoopOpFlip: alternation between MopCfg[5] and [6].
                            if *flip {
                                *alt = !*alt;
                            }
                            *phase = T1Phase::Inner(i + 1);
                            return Some(idx);
                        }
                        *phase = T1Phase::End0;
                    }
                    T1Phase::End0 => {
                        if is_nop(snap_words[3]) {
                            *phase = T1Phase::Next;
                        } else {
                            *phase = T1Phase::End1;
                            return Some(3);
                        }
                    }
                    T1Phase::End1 => {
                        *phase = T1Phase::Next;
                        if !is_nop(snap_words[4]) {
                            return Some(4);
                        }
                    }
                    T1Phase::Next => {
                        // LoopOp is not reset between outer iterations (the functional
                        // model keeps XOR-ing); with InnerCount doubled it is back in phase.
                        *j += 1;
                        *phase = T1Phase::Start;
                    }
                }
            },
        }
    }
}
