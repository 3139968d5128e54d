//! The stub inside `libttsim.so` (`BHEMU_GDB=PORT`, `BHEMU_GDB_TILES=x,y;...`; docs/gdb.md).
//!
//! There the host owns the clock: time passes only in `libttsim_clock(n)`. So the session is
//! served from within those calls, with gdbstub's state machine kept between them:
//! - the listener is bound when the stub is made (`libttsim_init`), so gdb may connect early;
//! - at the first clock call that finds a hart of the debugged tiles out of reset — before
//!   that call runs a single cycle, so the hart still sits on its first instruction — the call
//!   waits for gdb to connect and attaches the debugger: breakpoints set now (`break
//!   kernel_main` after `add-symbol-file`) catch the first kernel the host launches;
//! - while gdb has the chip stopped, a clock call blocks serving gdb's packets and runs no
//!   cycle; after `continue` / `step` it runs (at most the `n` cycles it was asked for) under
//!   the debugger, watching the connection for Ctrl-C, and a stop (breakpoint, watchpoint,
//!   step, Ctrl-C) blocks it again;
//! - when gdb detaches (`detach`, `kill`, or the connection drops) the debugger lets go and
//!   the remaining cycles, and every later call, run freely.
//!
//! No error reaches the host as a panic: a failure to listen, accept or talk is printed on
//! stderr and the stub turns itself off (the chip then runs as if `BHEMU_GDB` were unset).
use std::net::{TcpListener, TcpStream};

use bhemu_chip::debug::Debugger;
use bhemu_chip::{Chip, ChipConfig, ChipError, CoreState};
use bhemu_noc::NodeId;
use gdbstub::common::Signal;
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::state_machine::GdbStubStateMachine;
use gdbstub::stub::{GdbStub, MultiThreadStopReason};

use crate::{harts_of, ChipTarget, GdbError, CHUNK};

type Machine = GdbStubStateMachine<'static, ChipTarget<Chip>, TcpStream>;

/// A gdb session served from `libttsim_clock` calls.
pub struct ClockedStub {
    tiles: Vec<(u8, u8)>,
    phase: Phase,
}

enum Phase {
    /// Listening; waiting for a hart of the debugged tiles to leave reset.
    Armed(TcpListener),
    Serving(Box<Session>),
    /// Ended (gdb detached, or an error): the chip runs freely.
    Off,
}

struct Session {
    /// Holds the chip during a clock call and a one-tile stand-in between calls, when the
    /// host's chip is back in its owner's hands (gdbstub's state machine is typed by its
    /// target, so the target cannot borrow the host's chip across calls).
    target: ChipTarget<Chip>,
    machine: Option<Machine>,
}

impl ClockedStub {
    /// Listens on `127.0.0.1:port` for a session over the harts of `tiles`.
    pub fn listen(port: u16, tiles: Vec<(u8, u8)>) -> Result<ClockedStub, GdbError> {
        let l = crate::listen("BHEMU_GDB", port)?;
        eprintln!(
            "bhemu: gdb stub listening on 127.0.0.1:{port}; it waits for gdb when a hart of tile(s) {} leaves reset",
            tiles
                .iter()
                .map(|(x, y)| format!("({x},{y})"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        Ok(ClockedStub {
            tiles,
            phase: Phase::Armed(l),
        })
    }

    /// From the values of `BHEMU_GDB` (a port) and `BHEMU_GDB_TILES` (default `1,2`).
    pub fn from_env_values(port: &str, tiles: Option<&str>) -> Result<ClockedStub, GdbError> {
        let port: u16 = port
            .trim()
            .parse()
            .map_err(|_| GdbError(format!("BHEMU_GDB={port:?} is not a TCP port")))?;
        let tiles = match tiles.filter(|t| !t.trim().is_empty()) {
            Some(t) => crate::parse_tiles("BHEMU_GDB_TILES", t)?,
            None => vec![(1, 2)],
        };
        ClockedStub::listen(port, tiles)
    }

    /// The port the stub listens on while it waits for the harts (tests bind port 0).
    pub fn local_port(&self) -> Option<u16> {
        match &self.phase {
            Phase::Armed(l) => l.local_addr().ok().map(|a| a.port()),
            _ => None,
        }
    }

    /// True while a gdb session is attached.
    pub fn serving(&self) -> bool {
        matches!(self.phase, Phase::Serving(_))
    }

    /// Runs `cycles` cycles of the host's `chip` (one `libttsim_clock` call) under the stub; see
    /// the module doc. Returns the cycles run (`cycles`, unless the chip failed under gdb and
    /// gdb still holds it).
    pub fn clock(&mut self, chip: &mut Chip, cycles: u64) -> Result<u64, ChipError> {
        if let Phase::Armed(l) = &self.phase {
            if self.harts_out_of_reset(chip) {
                self.phase = match start(l, chip, &self.tiles) {
                    Ok(s) => Phase::Serving(Box::new(s)),
                    Err(e) => {
                        eprintln!("bhemu: {e}; the gdb stub is off");
                        Phase::Off
                    }
                };
            }
        }
        let Phase::Serving(s) = &mut self.phase else {
            chip.clock(cycles)?;
            return Ok(cycles);
        };
        s.target.swap_chip(chip);
        let (left, ended) = s.serve(cycles);
        s.target.swap_chip(chip);
        if let Some(why) = ended {
            eprintln!("bhemu: gdb session ended ({why}); the chip runs on");
            if let Phase::Serving(s) = std::mem::replace(&mut self.phase, Phase::Off) {
                let (_, dbg) = s.target.into_parts();
                dbg.detach(chip)?;
            }
            chip.clock(left)?;
            return Ok(cycles);
        }
        Ok(cycles - left)
    }

    fn harts_out_of_reset(&self, chip: &Chip) -> bool {
        harts_of(&self.tiles).iter().any(|h| {
            chip.tile(h.x, h.y)
                .is_some_and(|t| t.core_state(h.core) != CoreState::Reset)
        })
    }
}

/// Accepts gdb's connection and attaches the debugger to the harts of `tiles`.
fn start(l: &TcpListener, chip: &mut Chip, tiles: &[(u8, u8)]) -> Result<Session, GdbError> {
    let port = l.local_addr().map(|a| a.port()).unwrap_or(0);
    eprintln!(
        "bhemu: a hart left reset at cycle {}: waiting for gdb on 127.0.0.1:{port} (target remote :{port})",
        chip.cycle()
    );
    let (conn, peer) = l
        .accept()
        .map_err(|e| GdbError(format!("BHEMU_GDB {port}: accept failed: {e}")))?;
    eprintln!("bhemu: gdb connected from {peer}");
    let dbg = Debugger::attach(chip, harts_of(tiles)).map_err(|e| GdbError(e.to_string()))?;
    let stand_in = Chip::new(&ChipConfig {
        tiles: vec![NodeId::new(1, 2)],
        ..ChipConfig::default()
    })
    .map_err(|e| GdbError(e.to_string()))?;
    let mut target = ChipTarget::new(stand_in, dbg, u64::MAX, |_| false);
    let machine = GdbStub::new(conn)
        .run_state_machine(&mut target)
        .map_err(|e| GdbError(format!("gdb session: {e}")))?;
    Ok(Session {
        target,
        machine: Some(machine),
    })
}

impl Session {
    /// Serves gdb while running at most `cycles` cycles. Returns the cycles not run and, when
    /// the session ended, why.
    fn serve(&mut self, cycles: u64) -> (u64, Option<String>) {
        let mut left = cycles;
        loop {
            let Some(m) = self.machine.take() else {
                return (left, Some("no session".into()));
            };
            let t = &mut self.target;
            let next = match m {
                GdbStubStateMachine::Idle(mut g) => match g.borrow_conn().read() {
                    Ok(b) => g.incoming_data(t, b).map_err(|e| e.to_string()),
                    Err(e) => Err(format!("connection lost: {e}")),
                },
                GdbStubStateMachine::Running(mut g) => match g.borrow_conn().peek() {
                    Ok(Some(_)) => match g.borrow_conn().read() {
                        Ok(b) => g.incoming_data(t, b).map_err(|e| e.to_string()),
                        Err(e) => Err(format!("connection lost: {e}")),
                    },
                    Ok(None) if left == 0 => {
                        self.machine = Some(GdbStubStateMachine::Running(g));
                        return (0, None);
                    }
                    Ok(None) => {
                        let before = t.chip_mut().cycle();
                        let stop = t.run_chunk(left.min(CHUNK));
                        let ran = t.chip_mut().cycle() - before;
                        left = left.saturating_sub(ran);
                        match stop {
                            Some(r) => g.report_stop(t, r).map_err(|e| e.to_string()),
                            None => Ok(GdbStubStateMachine::Running(g)),
                        }
                    }
                    Err(e) => Err(format!("connection lost: {e}")),
                },
                GdbStubStateMachine::CtrlCInterrupt(g) => {
                    let reason = MultiThreadStopReason::SignalWithThread {
                        tid: t.current_tid(),
                        signal: Signal::SIGINT,
                    };
                    g.interrupt_handled(t, Some(reason))
                        .map_err(|e| e.to_string())
                }
                GdbStubStateMachine::Disconnected(g) => {
                    return (left, Some(format!("{:?}", g.get_reason())));
                }
            };
            match next {
                Ok(m) => self.machine = Some(m),
                Err(e) => return (left, Some(e)),
            }
        }
    }
}
