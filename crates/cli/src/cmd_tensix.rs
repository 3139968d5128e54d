//! `bhemu tensix run PROGRAM.tsx [--json] [--arch blackhole|wormhole] [--max-cycles N]`:
//! run a text program on the Tensix coprocessor alone. The parser and the
//! runner live in `bhemu_tensix::{program, runner}`; this file only handles the command line.
use std::io::Write as _;
use std::process::ExitCode;

use bhemu_tensix::runner::{self, error_sentence, RunOptions};
use bhemu_tensix::{program, Arch, ErrorKind, Mode, TensixError};

use crate::CliError;

#[derive(clap::Subcommand)]
pub enum TensixCommand {
    /// Run a .tsx program on the coprocessor alone.
    Run {
        /// The program (see `bhemu_tensix::program` for the format).
        program: std::path::PathBuf,
        /// Print exactly one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Tensix architecture: blackhole or wormhole.
        #[arg(long, default_value = "blackhole")]
        arch: String,
        /// Stop with a max_cycles error after this many cycles.
        #[arg(long, default_value_t = 1_000_000)]
        max_cycles: u64,
        /// Report undefined behaviour once and carry on as the hardware would, instead of
        /// stopping at it.
        #[arg(long)]
        permissive: bool,
        #[command(flatten)]
        trace: crate::trace_args::TraceArgs,
        /// Report Dst reads inside a write's 4-cycle shadow (a missing STALLWAIT; Dst.md):
        /// `hazard:` lines, or the `hazards` field with `--json`.
        #[arg(long)]
        check_hazards: bool,
    },
}

/// Write to stdout; a closed pipe (e.g. `| head`) is not an error worth a panic.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

fn fail(json: bool, e: &TensixError) -> ExitCode {
    if json {
        let threads: Vec<serde_json::Value> = e
            .threads
            .iter()
            .map(|w| serde_json::json!({"thread": w.thread, "waiting_on": w.waiting_on}))
            .collect();
        let v = serde_json::json!({
            "cycles": 0, "threads": [], "semaphores": [], "mutexes": {},
            "error": {"kind": e.kind.name(), "message": error_sentence(e), "threads": threads}
        });
        emit(&format!("{v}\n"));
    } else {
        let _ = writeln!(std::io::stderr(), "bhemu: {e}");
    }
    ExitCode::from(1)
}

pub fn run(c: TensixCommand) -> Result<ExitCode, CliError> {
    let TensixCommand::Run {
        program: path,
        json,
        arch,
        max_cycles,
        permissive,
        trace,
        check_hazards,
    } = c;
    let trace_opts = trace.options()?;
    let Some(arch) = Arch::from_name(&arch) else {
        return Err(CliError::new(format!(
            "unknown --arch `{arch}` (blackhole or wormhole)"
        )));
    };
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            return Ok(fail(
                json,
                &TensixError::new(ErrorKind::Invalid, 0, format!("{name}: cannot read: {e}")),
            ))
        }
    };
    let prog = match program::parse(arch, &name, &text) {
        Ok(p) => p,
        Err(e) => return Ok(fail(json, &e)),
    };
    let mode = if permissive {
        Mode::Permissive
    } else {
        Mode::Strict
    };
    let opts = RunOptions {
        arch,
        max_cycles,
        mode,
        check_hazards,
    };
    let r = match &trace_opts {
        Some(o) => {
            let (r, t) = bhemu_tensix::trace::run_traced(&prog, opts, o);
            trace.write(&t)?;
            r
        }
        None => runner::run(&prog, opts),
    };
    if json {
        emit(&format!("{}\n", r.to_json()));
    } else {
        emit(&r.to_text());
        if let Some(e) = &r.error {
            let _ = writeln!(std::io::stderr(), "bhemu: {e}");
        }
    }
    Ok(if r.error.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
