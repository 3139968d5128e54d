//! `--trace FILE` and its options, shared by `bhemu run`, `bhemu boot` and `bhemu tensix run`
//! (the trace format: `bhemu_trace`).
use bhemu_trace::{parse_tiles, parse_window, Include, TraceOptions};

use crate::CliError;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct TraceArgs {
    /// Record a timeline trace (Chrome/Perfetto trace-event JSON; open it in ui.perfetto.dev).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<std::path::PathBuf>,
    /// Tiles to trace, `X,Y;X,Y...` (default: every tile a program runs on).
    #[arg(long, value_name = "X,Y;...", requires = "trace")]
    pub trace_tiles: Option<String>,
    /// Only cycles `A..B` (either end may be left out).
    #[arg(long, value_name = "A..B", requires = "trace")]
    pub trace_cycles: Option<String>,
    /// Track kinds: a comma-separated subset of cores,tensix,units,noc,counters (default all).
    #[arg(long, value_name = "KINDS", requires = "trace")]
    pub trace_include: Option<String>,
}

impl TraceArgs {
    /// The options, or None when no trace was asked for.
    pub fn options(&self) -> Result<Option<TraceOptions>, CliError> {
        if self.trace.is_none() {
            return Ok(None);
        }
        let e = |m: String| CliError::new(m);
        Ok(Some(TraceOptions {
            tiles: self
                .trace_tiles
                .as_deref()
                .map(parse_tiles)
                .transpose()
                .map_err(e)?,
            window: self
                .trace_cycles
                .as_deref()
                .map(parse_window)
                .transpose()
                .map_err(e)?,
            include: match &self.trace_include {
                Some(s) => Include::parse(s).map_err(e)?,
                None => Include::ALL,
            },
        }))
    }

    /// Writes `trace` to the `--trace` file and says where it went.
    pub fn write(&self, trace: &bhemu_trace::Trace) -> Result<(), CliError> {
        if let Some(p) = &self.trace {
            trace.write(p).map_err(CliError::new)?;
            eprintln!(
                "bhemu: trace of {} events written to {} (open it in ui.perfetto.dev)",
                trace.events().len(),
                p.display()
            );
        }
        Ok(())
    }
}

impl TraceArgs {
    /// Installs a chip tracer when `--trace` was given.
    pub fn install(&self, chip: &mut bhemu_chip::Chip) -> Result<(), CliError> {
        if let Some(o) = self.options()? {
            bhemu_chip::trace::ChipTracer::install(chip, o)
                .map_err(|e| CliError::new(format!("trace: {e}")))?;
        }
        Ok(())
    }

    /// Finishes the chip's trace (if any) and writes it to the `--trace` file.
    pub fn finish(&self, chip: &mut bhemu_chip::Chip) -> Result<(), CliError> {
        match chip.finish_trace() {
            Some(t) => self.write(&t),
            None => Ok(()),
        }
    }
}
