//! `bhemu sim-worker --lib PATH` (hidden): runs one [`Job`] on the `libttsim.so` at PATH,
//! loaded with `dlopen`, through the tt-umd-style host client (`ttsim::umd_client`), and prints
//! the [`Answer`] as one line after [`ANSWER_MARK`].
//!
//! It exists because the reference simulator is a process-wide singleton that ends its process
//! (`_Exit(1)`) on anything it refuses: each simulator run gets a child process of its own, and
//! the parent (`super`) reads what the child printed and how it exited.
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use bhemu_chip::host::{Firmware, GO_MSG, RUN_MSG_DONE, RUN_MSG_GO};
use ttsim::dynlib::DynSim;
use ttsim::sim_calls::SimCalls;
use ttsim::umd_client::UmdClient;

use super::job::{hex, unhex, Answer, Job, Op, Place, ReadBack};
use crate::CliError;

/// Starts the answer line, so that the parent finds it among whatever the library itself
/// prints on stdout.
pub const ANSWER_MARK: &str = "bhemu-sim-worker-answer: ";

/// Most bytes one read may ask for (256 MiB): a larger length is a broken job.
const MAX_READ: usize = 256 << 20;

#[derive(clap::Args)]
pub struct SimWorkerArgs {
    /// The simulator library to load (bhemu's or the reference's libttsim.so).
    #[arg(long, value_name = "PATH")]
    pub lib: PathBuf,
}

pub fn run(a: SimWorkerArgs) -> Result<ExitCode, CliError> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| CliError::new(format!("sim-worker: reading the job on stdin: {e}")))?;
    let job: Job = serde_json::from_str(&text)
        .map_err(|e| CliError::new(format!("sim-worker: the job is not valid JSON: {e}")))?;
    let sim = DynSim::load(&a.lib).map_err(|e| CliError::new(format!("sim-worker: {e}")))?;
    let answer = execute(sim, &job).map_err(|e| CliError::new(format!("sim-worker: {e}")))?;
    let line = serde_json::to_string(&answer)
        .map_err(|e| CliError::new(format!("sim-worker: encoding the answer: {e}")))?;
    // A newline first: the library's own output may have left a line unfinished.
    println!("\n{ANSWER_MARK}{line}");
    Ok(ExitCode::SUCCESS)
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Write { .. } => "write",
        Op::Boot { .. } => "boot",
        Op::Launch { .. } => "launch",
        Op::Wait { .. } => "wait",
        Op::Read { .. } => "read",
    }
}

/// NoC coordinates that fit a TLB entry (6 bits each).
fn check_xy(x: u32, y: u32) -> Result<(), String> {
    if x >= 64 || y >= 64 {
        return Err(format!(
            "NoC coordinates ({x},{y}) are outside the 64x64 grid"
        ));
    }
    Ok(())
}

/// A byte range that does not wrap around the 64-bit address space.
fn check_range(addr: u64, len: usize) -> Result<(), String> {
    addr.checked_add(len as u64)
        .map(|_| ())
        .ok_or_else(|| format!("0x{addr:x} + {len} bytes wraps around the address space"))
}

fn coords(at: Place) -> Result<(u32, u32), String> {
    if let Place::Dram { bank } = at {
        if bank >= 8 {
            return Err(format!("DRAM bank {bank}: Blackhole has banks 0-7"));
        }
    }
    let (x, y) = at.coords();
    check_xy(x, y)?;
    Ok((x, y))
}

/// Runs `job` on a freshly initialised simulator behind `sim`. The error names the operation
/// (by its index in the job) that failed.
pub fn execute<S: SimCalls>(sim: S, job: &Job) -> Result<Answer, String> {
    let mut u = UmdClient::open_with(sim).ok_or(
        "the library does not identify as a Blackhole (config space word 0 is not 0xB1401E52)",
    )?;
    let mut ans = Answer::default();
    for (i, op) in job.ops.iter().enumerate() {
        let at = |e: String| format!("op {i} ({}): {e}", op_name(op));
        let start = std::time::Instant::now();
        run_op(&mut u, op, &mut ans).map_err(at)?;
        let us = start.elapsed().as_micros() as u64;
        match op {
            Op::Boot { .. } => ans.boot_us += us,
            Op::Launch { .. } | Op::Wait { .. } => ans.run_us += us,
            _ => {}
        }
    }
    ans.clocks = u.reads;
    Ok(ans)
}

fn run_op<S: SimCalls>(u: &mut UmdClient<S>, op: &Op, ans: &mut Answer) -> Result<(), String> {
    match op {
        Op::Write { at, addr, hex: h } => {
            let (x, y) = coords(*at)?;
            let data = unhex(h)?;
            check_range(*addr, data.len())?;
            u.write(x, y, *addr, &data);
        }
        Op::Boot {
            firmware,
            tiles,
            budget,
        } => {
            let fw = Firmware::load(std::path::Path::new(firmware))
                .map_err(|e| format!("firmware {firmware}: {e}"))?;
            for &(x, y) in tiles {
                check_xy(x, y)?;
            }
            ans.boot_clocks += u.boot(&fw, tiles, *budget)?;
        }
        Op::Launch { tiles } => {
            for t in tiles {
                check_xy(t.x, t.y)?;
                let go = (u.read32(t.x, t.y, GO_MSG) >> 24) as u8;
                if go != RUN_MSG_DONE {
                    return Err(format!(
                        "tile ({},{}) is not idle (go signal 0x{go:02x}); boot it first",
                        t.x, t.y
                    ));
                }
                for w in &t.writes {
                    let data = unhex(&w.hex)?;
                    check_range(u64::from(w.addr), data.len())?;
                    u.write(t.x, t.y, u64::from(w.addr), &data);
                }
            }
            for t in tiles {
                u.write32(t.x, t.y, GO_MSG, u32::from(RUN_MSG_GO) << 24);
            }
        }
        Op::Wait { tiles, budget } => {
            for &(x, y) in tiles {
                check_xy(x, y)?;
            }
            ans.run_clocks += u.wait_done(tiles, false, *budget)?;
        }
        Op::Read {
            name,
            at,
            addr,
            len,
        } => {
            let (x, y) = coords(*at)?;
            if *len > MAX_READ {
                return Err(format!("{name}: {len} bytes, at most {MAX_READ} per read"));
            }
            check_range(*addr, *len)?;
            let bytes = u.read(x, y, *addr, *len);
            ans.reads.push(ReadBack {
                name: name.clone(),
                hex: hex(&bytes),
            });
        }
    }
    Ok(())
}
