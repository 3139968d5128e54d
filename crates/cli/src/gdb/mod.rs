//! `--gdb PORT`: a GDB remote stub over the chip's harts (docs/gdb.md). Each hart of the
//! selected tiles is one GDB thread; the chip runs under [`bhemu_chip::debug::Debugger`], so
//! stops are all-stop (one hart stops, the whole chip stops).
mod arch;
mod target;

use std::net::{TcpListener, TcpStream};

use bhemu_chip::debug::{Debugger, HartRef};
use bhemu_chip::{Chip, Core};
use gdbstub::common::Signal;
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub, MultiThreadStopReason};

use crate::CliError;
pub use target::ChipTarget;

/// Cycles run between two looks at the connection for a Ctrl-C.
const CHUNK: u64 = 20_000;

/// Every core of each `(x, y)` tile, in thread order.
pub fn harts_of(tiles: &[(u8, u8)]) -> Vec<HartRef> {
    tiles
        .iter()
        .flat_map(|&(x, y)| Core::ALL.map(|core| HartRef { x, y, core }))
        .collect()
}

/// Parses `--gdb-tiles`: `x,y;x,y...`.
pub fn parse_tiles(s: &str) -> Result<Vec<(u8, u8)>, CliError> {
    s.split(';')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (x, y) = p
                .split_once(',')
                .ok_or_else(|| CliError::new(format!("--gdb-tiles: `{p}` is not x,y")))?;
            let n = |v: &str| {
                v.trim()
                    .parse::<u8>()
                    .map_err(|_| CliError::new(format!("--gdb-tiles: `{p}` is not x,y")))
            };
            Ok((n(x)?, n(y)?))
        })
        .collect()
}

/// A launch under gdb: `start` loads the program and sets GO, then gdb drives the chip until
/// every tile is DONE or gdb detaches; the launch then runs on to DONE freely. `tiles` are the
/// tiles whose harts gdb sees.
pub fn launch(
    chip: &mut Chip,
    tiles: &[(u8, u8)],
    port: u16,
    max_cycles: u64,
    start: impl FnOnce(&mut Chip) -> Result<(), bhemu_chip::ChipError>,
    progress: &mut dyn FnMut(u64),
) -> Result<bhemu_chip::host::RunReport, CliError> {
    let err = |e: bhemu_chip::ChipError| CliError::new(e.to_string());
    let first = chip.cycle();
    start(chip).map_err(err)?;
    let end = serve(
        chip,
        harts_of(tiles),
        port,
        max_cycles,
        bhemu_chip::host::all_done,
    )?;
    eprintln!("bhemu: gdb session ended ({end:?})");
    let left = max_cycles.saturating_sub(chip.cycle() - first);
    let mut r = bhemu_chip::host::run_to_done(chip, left, progress).map_err(err)?;
    r.cycles = chip.cycle() - first;
    Ok(r)
}

/// How a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// `done` held: the program finished under the debugger.
    Finished,
    /// gdb detached or killed the session before the end.
    Detached,
}

/// Waits on `127.0.0.1:port` for gdb, then serves it until the program finishes (`done`)
/// or gdb goes away. `max_cycles` bounds each resume (reported to gdb as SIGXCPU).
pub fn serve(
    chip: &mut Chip,
    harts: Vec<HartRef>,
    port: u16,
    max_cycles: u64,
    done: fn(&Chip) -> bool,
) -> Result<SessionEnd, CliError> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| CliError::new(format!("--gdb {port}: cannot listen: {e}")))?;
    eprintln!("bhemu: waiting for gdb on 127.0.0.1:{port} (target remote :{port})");
    let (conn, peer) = listener
        .accept()
        .map_err(|e| CliError::new(format!("--gdb {port}: accept failed: {e}")))?;
    eprintln!("bhemu: gdb connected from {peer}");
    let dbg = Debugger::attach(chip, harts).map_err(|e| CliError::new(e.to_string()))?;
    let mut target = ChipTarget::new(chip, dbg, max_cycles, done);
    let stub = GdbStub::new(conn);
    let r = stub.run_blocking::<EventLoop<'_>>(&mut target);
    let finished = target.finished;
    let (chip, dbg) = target.into_parts();
    dbg.detach(chip).map_err(|e| CliError::new(e.to_string()))?;
    match r {
        Ok(DisconnectReason::TargetExited(_)) => Ok(SessionEnd::Finished),
        Ok(_) if finished => Ok(SessionEnd::Finished),
        Ok(_) => Ok(SessionEnd::Detached),
        Err(e) => Err(CliError::new(format!("gdb session: {e}"))),
    }
}

struct EventLoop<'a>(std::marker::PhantomData<&'a ()>);

impl<'a> BlockingEventLoop for EventLoop<'a> {
    type Target = ChipTarget<'a>;
    type Connection = TcpStream;
    type StopReason = MultiThreadStopReason<u32>;

    fn wait_for_stop_reason(
        target: &mut ChipTarget<'a>,
        conn: &mut TcpStream,
    ) -> Result<Event<MultiThreadStopReason<u32>>, WaitForStopReasonError<String, std::io::Error>>
    {
        loop {
            if let Some(stop) = target.run_chunk(CHUNK) {
                return Ok(Event::TargetStopped(stop));
            }
            if conn
                .peek()
                .map_err(WaitForStopReasonError::Connection)?
                .is_some()
            {
                let b = conn.read().map_err(WaitForStopReasonError::Connection)?;
                return Ok(Event::IncomingData(b));
            }
        }
    }

    fn on_interrupt(
        target: &mut ChipTarget<'a>,
    ) -> Result<Option<MultiThreadStopReason<u32>>, String> {
        Ok(Some(MultiThreadStopReason::SignalWithThread {
            tid: target.current_tid(),
            signal: Signal::SIGINT,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gdb_tiles_parse_as_x_comma_y_list() {
        assert_eq!(parse_tiles("1,2;3,4").ok(), Some(vec![(1, 2), (3, 4)]));
        let e = parse_tiles("1-2").err().map(|e| e.0).unwrap_or_default();
        assert_eq!(e, "--gdb-tiles: `1-2` is not x,y");
    }

    /// Thread ids follow the tile order, then BRISC, NCRISC, TRISC0-2.
    #[test]
    fn threads_are_harts_in_tile_then_core_order() {
        let h = harts_of(&[(1, 2), (2, 2)]);
        assert_eq!(h.len(), 10);
        assert_eq!(
            h[0],
            HartRef {
                x: 1,
                y: 2,
                core: Core::Brisc
            }
        );
        assert_eq!(
            h[4],
            HartRef {
                x: 1,
                y: 2,
                core: Core::Trisc2
            }
        );
        assert_eq!(
            h[5],
            HartRef {
                x: 2,
                y: 2,
                core: Core::Brisc
            }
        );
    }
}
