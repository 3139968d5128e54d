//! A GDB remote stub over the chip's harts (docs/gdb.md). Each hart of the selected tiles is
//! one GDB thread; the chip runs under [`bhemu_chip::debug::Debugger`], so stops are all-stop
//! (one hart stops, the whole chip stops).
//!
//! Two ways to serve a session, one target ([`ChipTarget`]):
//! - [`serve`]: `bhemu boot --gdb` / `bhemu run --gdb` own the chip and its clock, so the
//!   session runs the chip itself until the program finishes or gdb detaches;
//! - [`clocked::ClockedStub`]: in `libttsim.so` the host owns the clock (`libttsim_clock`), so
//!   the session is served from within the clock calls (`BHEMU_GDB`).
pub mod arch;
pub mod clocked;
pub mod target;

use std::net::{TcpListener, TcpStream};

use bhemu_chip::debug::{Debugger, HartRef};
use bhemu_chip::{Chip, Core};
use gdbstub::common::Signal;
use gdbstub::conn::ConnectionExt;
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub, MultiThreadStopReason};

pub use target::ChipTarget;

/// Cycles run between two looks at the connection for a Ctrl-C.
pub const CHUNK: u64 = 20_000;

/// What went wrong setting up or serving a session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GdbError(pub String);

/// Every core of each `(x, y)` tile, in thread order.
pub fn harts_of(tiles: &[(u8, u8)]) -> Vec<HartRef> {
    tiles
        .iter()
        .flat_map(|&(x, y)| Core::ALL.map(|core| HartRef { x, y, core }))
        .collect()
}

/// Parses a tile list (`--gdb-tiles`, `BHEMU_GDB_TILES`) as `--tiles` does
/// ([`bhemu_chip::grid::parse_tiles`]: `x,y;x,y...`, `all`, `p100`, N; every coordinate a
/// Tensix tile); `what` names the option in the error.
pub fn parse_tiles(what: &str, s: &str) -> Result<Vec<(u8, u8)>, GdbError> {
    bhemu_chip::grid::parse_tiles(s)
        .map(|v| v.into_iter().map(|n| (n.x, n.y)).collect())
        .map_err(|e| GdbError(format!("{what}: {}", e.message)))
}

/// How a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// `done` held: the program finished under the debugger.
    Finished,
    /// gdb detached or killed the session before the end.
    Detached,
}

/// Listens on `127.0.0.1:port` (`what` names the option in errors).
pub fn listen(what: &str, port: u16) -> Result<TcpListener, GdbError> {
    TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| GdbError(format!("{what} {port}: cannot listen: {e}")))
}

/// Waits on `127.0.0.1:port` for gdb, then serves it until the program finishes (`done`)
/// or gdb goes away. `max_cycles` bounds each resume (reported to gdb as SIGXCPU).
pub fn serve(
    chip: &mut Chip,
    harts: Vec<HartRef>,
    port: u16,
    max_cycles: u64,
    done: fn(&Chip) -> bool,
) -> Result<SessionEnd, GdbError> {
    let listener = listen("--gdb", port)?;
    eprintln!("bhemu: waiting for gdb on 127.0.0.1:{port} (target remote :{port})");
    let (conn, peer) = listener
        .accept()
        .map_err(|e| GdbError(format!("--gdb {port}: accept failed: {e}")))?;
    eprintln!("bhemu: gdb connected from {peer}");
    let dbg = Debugger::attach(chip, harts).map_err(|e| GdbError(e.to_string()))?;
    let mut target = ChipTarget::new(chip, dbg, max_cycles, done);
    let stub = GdbStub::new(conn);
    let r = stub.run_blocking::<EventLoop<'_>>(&mut target);
    let finished = target.finished;
    let (chip, dbg) = target.into_parts();
    dbg.detach(chip).map_err(|e| GdbError(e.to_string()))?;
    match r {
        Ok(DisconnectReason::TargetExited(_)) => Ok(SessionEnd::Finished),
        Ok(_) if finished => Ok(SessionEnd::Finished),
        Ok(_) => Ok(SessionEnd::Detached),
        Err(e) => Err(GdbError(format!("gdb session: {e}"))),
    }
}

struct EventLoop<'a>(std::marker::PhantomData<&'a ()>);

impl<'a> BlockingEventLoop for EventLoop<'a> {
    type Target = ChipTarget<&'a mut Chip>;
    type Connection = TcpStream;
    type StopReason = MultiThreadStopReason<u32>;

    fn wait_for_stop_reason(
        target: &mut ChipTarget<&'a mut Chip>,
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
        target: &mut ChipTarget<&'a mut Chip>,
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
        assert_eq!(
            parse_tiles("--gdb-tiles", "1,2;3,4").ok(),
            Some(vec![(1, 2), (3, 4)])
        );
        let e = parse_tiles("--gdb-tiles", "1-2").err().map(|e| e.0);
        assert_eq!(e.as_deref(), Some("--gdb-tiles: tile '1-2': expected x,y"));
        let e = parse_tiles("--gdb-tiles", "8,2").err().map(|e| e.0);
        assert_eq!(
            e.as_deref(),
            Some(
                "--gdb-tiles: tile (8,2) is not a Tensix tile (translated x 1-7 or 10-16, y 2-11)"
            )
        );
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
