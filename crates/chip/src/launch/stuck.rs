//! What a program that did not finish is waiting for: each stuck core, its pc and the circular
//! buffer it polls ([`stuck_report`]).
use super::*;

/// `STREAM_REG_ADDR(stream, reg)` of the NoC overlay (`noc_overlay_parameters.h`).
const OVERLAY_BASE: u32 = 0xFFB4_0000;
/// `STREAM_REMOTE_DEST_BUF_SIZE_REG_INDEX`: a CB's "tiles received" counter.
const TILES_RECEIVED_REG: u32 = 10;
/// `STREAM_REMOTE_DEST_BUF_START_REG_INDEX`: a CB's "tiles acked" counter.
const TILES_ACKED_REG: u32 = 8;

/// What a stuck core polls: a CB's counters (`stream_io_map.h`: "tiles received" and "tiles
/// acked" of the CB's overlay stream; their low 16 bits count pushes and pops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CbWait {
    pub cb: u8,
    /// The core read "tiles received" (it waits for tiles) rather than "tiles acked" (space).
    pub for_tiles: bool,
    pub received: u32,
    pub acked: u32,
}

/// One core stuck inside its kernel when the cycle limit hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StuckCore {
    pub x: u8,
    pub y: u8,
    pub core: Core,
    pub pc: u32,
    pub wait: Option<CbWait>,
    /// For a TRISC: what its Tensix thread waits on ([`crate::hang::tensix_thread_line`]).
    pub tensix: Option<String>,
    /// The kernel function holding the pc (from the kernel ELF's symbols).
    pub function: Option<String>,
    /// The culprit where the state shows it: cores that finished while this one waits for
    /// tiles, the NoC counters a barrier polls, a loop that touches no register.
    pub note: Option<String>,
}

impl std::fmt::Display for StuckCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tile ({},{}) {} at pc 0x{:08x}",
            self.x,
            self.y,
            self.core.name().to_uppercase(),
            self.pc
        )?;
        if let Some(func) = &self.function {
            write!(f, " in `{func}`")?;
        }
        match self.wait {
            Some(w) => {
                let pushed = w.received & 0xFFFF;
                let popped = w.acked & 0xFFFF;
                let held = pushed.wrapping_sub(popped) & 0xFFFF;
                let what = match (w.for_tiles, pushed) {
                    (true, 0) => "no tiles pushed".to_string(),
                    (true, _) => format!("waits for tiles; {pushed} pushed, {popped} popped"),
                    (false, _) => format!("waits for space; {pushed} pushed, {popped} popped"),
                };
                write!(f, " waits on CB {}: {what} ({held} in the CB)", w.cb)
            }
            None if self.tensix.is_some() || self.note.is_some() => Ok(()),
            None => write!(f, " (not polling a circular buffer)"),
        }?;
        if let Some(n) = &self.note {
            write!(f, "; {n}")?;
        }
        match &self.tensix {
            Some(t) => write!(f, "; {t}"),
            None => Ok(()),
        }
    }
}

/// The Tensix thread a TRISC feeds.
fn tensix_thread(core: Core) -> Option<usize> {
    match core {
        Core::Trisc0 => Some(0),
        Core::Trisc1 => Some(1),
        Core::Trisc2 => Some(2),
        _ => None,
    }
}

/// CB `cb`'s (tiles received, tiles acked) overlay counters on tile `t`.
pub fn cb_counters(t: &crate::tile::Tile, cb: u8) -> (u32, u32) {
    let reg = |r: u32| (u32::from(cb) << 12) + 4 * r;
    let o = t.overlay();
    (
        o.read(reg(TILES_RECEIVED_REG)).unwrap_or(0),
        o.read(reg(TILES_ACKED_REG)).unwrap_or(0),
    )
}

/// Every core of an unfinished tile whose pc is inside its kernel window, with the CB it polls
/// (its last MMIO access read a CB counter in the overlay).
pub fn stuck_report(chip: &Chip, report: &RunReport) -> Vec<StuckCore> {
    stuck_report_for(chip, report, &[])
}

/// [`stuck_report`] knowing the `programs` launched: kernel function names from their ELF
/// symbols, and which kernels already finished (named when a core waits for tiles).
pub fn stuck_report_for(
    chip: &Chip,
    report: &RunReport,
    programs: &[TileProgram],
) -> Vec<StuckCore> {
    let mut out = Vec::new();
    let unfinished: Vec<(u8, u8)> = report.unfinished().map(|t| (t.x, t.y)).collect();
    for (x, y) in unfinished {
        let Some(t) = chip.tile(x, y) else { continue };
        let program = programs.iter().find(|p| (p.x, p.y) == (x, y));
        let kernels: Vec<(Core, String)> = program
            .map(|p| p.kernels.iter().map(|k| (k.core, k.file.clone())).collect())
            .unwrap_or_default();
        let mut cores = Vec::new();
        for (core, base) in TEXT_BASE {
            let pc = t.pc(core);
            let tensix = tensix_thread(core)
                .and_then(|th| crate::hang::tensix_thread_line(t.coprocessor(), th));
            if (pc < base || pc >= base + TEXT_SIZE) && tensix.is_none() {
                continue;
            }
            let cb = t.last_mmio_at(core, chip.cycle()).and_then(|m| {
                let off = m.addr.checked_sub(OVERLAY_BASE)?;
                let (stream, reg) = (off >> 12, (off & 0xFFF) >> 2);
                (stream < u32::from(NUM_CBS)
                    && !m.write
                    && (reg == TILES_RECEIVED_REG || reg == TILES_ACKED_REG))
                    .then_some((stream as u8, reg == TILES_RECEIVED_REG))
            });
            cores.push((core, pc, cb, tensix));
        }
        for (core, pc, cb, tensix) in cores {
            let wait = cb.map(|(cb, for_tiles)| {
                let (received, acked) = cb_counters(t, cb);
                CbWait {
                    cb,
                    for_tiles,
                    received,
                    acked,
                }
            });
            let function = program
                .and_then(|p| p.kernels.iter().find(|k| k.core == core))
                .and_then(|k| k.function_at(pc))
                .map(crate::hang::plain_name);
            let last = t.last_mmio_at(core, chip.cycle());
            let note = match wait {
                Some(w) if w.for_tiles => {
                    let done = crate::hang::finished_kernels(t, &kernels);
                    (!done.is_empty()).then(|| {
                        format!(
                            "finished their kernel without pushing more: {}",
                            done.join(", ")
                        )
                    })
                }
                Some(_) => None,
                None => last
                    .as_ref()
                    .and_then(|m| crate::hang::noc_poll_note(chip, t, m))
                    .or_else(|| {
                        let running = t.core_state(core) == crate::tile::CoreState::Running;
                        running
                            .then(|| crate::hang::spin_note(last.as_ref(), chip.cycle()))
                            .flatten()
                    }),
            };
            out.push(StuckCore {
                x,
                y,
                core,
                pc,
                wait,
                tensix,
                function,
                note,
            });
        }
    }
    out
}
