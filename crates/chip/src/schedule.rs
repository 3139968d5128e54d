//! How the chip orders work inside a cycle.
//!
//! [`Schedule::Reference`] is the plain loop the chip's semantics are defined by: every tick,
//! every runnable hart of every tile executes at most one instruction (tiles in slot order,
//! cores BRISC, NCRISC, TRISC0-2), then every busy coprocessor advances one cycle, then the
//! NoC delivers. [`Schedule::Fast`] computes the same thing with less host work; it must give
//! bit-identical results and cycle counts, which `Chip::digest` lets tests check
//! (docs/execution-model.md: EM-2 the reference, EM-9 to EM-26 the fast schedule).
use crate::error::{ChipError, ErrorKind};

/// The environment variable that picks the schedule when the caller does not.
pub const SCHEDULE_ENV: &str = "BHEMU_SCHEDULE";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    /// One instruction per runnable core per tick, every core visited every tick.
    Reference,
    /// The same results through cheaper steps (the default).
    #[default]
    Fast,
}

impl Schedule {
    /// `reference` or `fast`.
    pub fn parse(s: &str) -> Result<Schedule, ChipError> {
        match s {
            "reference" => Ok(Schedule::Reference),
            "fast" => Ok(Schedule::Fast),
            other => Err(ChipError::new(
                ErrorKind::InvalidInput,
                format!("unknown schedule `{other}` (expected `reference` or `fast`)"),
            )),
        }
    }

    /// [`SCHEDULE_ENV`] when set (an unknown value is an error), else the default.
    pub fn from_env() -> Result<Schedule, ChipError> {
        match std::env::var(SCHEDULE_ENV) {
            Ok(v) => Schedule::parse(v.trim()).map_err(|e| {
                ChipError::new(
                    ErrorKind::InvalidInput,
                    format!("{SCHEDULE_ENV}: {}", e.message),
                )
            }),
            Err(_) => Ok(Schedule::default()),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Schedule::Reference => "reference",
            Schedule::Fast => "fast",
        }
    }
}

/// The environment variable that picks how the cores' instructions are timed
/// (docs/core-timing.md): `instruction` (one per cycle, the default) or `pipeline`.
pub const CORE_TIMING_ENV: &str = "BHEMU_CORE_TIMING";

/// [`CORE_TIMING_ENV`] when set (an unknown value is an error), else one instruction per cycle.
pub fn core_timing_from_env() -> Result<bhemu_rv::CoreTiming, ChipError> {
    match std::env::var(CORE_TIMING_ENV) {
        Ok(v) if !v.trim().is_empty() => bhemu_rv::CoreTiming::parse(v.trim()).ok_or_else(|| {
            ChipError::new(
                ErrorKind::InvalidInput,
                format!(
                    "{CORE_TIMING_ENV}={v:?}: unknown core timing (expected `instruction` or `pipeline`)"
                ),
            )
        }),
        _ => Ok(bhemu_rv::CoreTiming::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_names_parse_back() {
        for s in [Schedule::Reference, Schedule::Fast] {
            assert_eq!(Schedule::parse(s.name()).ok(), Some(s));
        }
        let e = Schedule::parse("quick").expect_err("unknown name");
        assert_eq!(e.kind, ErrorKind::InvalidInput);
        assert!(e.message.contains("quick"), "{}", e.message);
    }
}
