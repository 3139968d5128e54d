//! Target profiles: which pipeline-sync ops exist on each and how the machine runs.
//!
//! Source: the "Target-Profile Restrictions" tables of each page under
//! `docs/isa/scalar/ops/pipeline-sync/`, and `docs/isa/machine-model/execution-agents.md`
//! ("Target Profiles": CPU simulator, A2A3, A5).
use std::fmt;

/// A PTO target profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Profile {
    /// Ascend 910B/910C: `set_cross_core` / `wait_flag_dev` (SU-level blocking).
    A2A3,
    /// Ascend 950: `set_intra_block` / `wait_intra_core` (per-pipe blocking).
    A5,
    /// The CPU simulator: no cross-core ops; ops run synchronously.
    Cpu,
}

impl Profile {
    pub const ALL: [Profile; 3] = [Profile::A2A3, Profile::A5, Profile::Cpu];

    pub fn name(self) -> &'static str {
        match self {
            Profile::A2A3 => "a2a3",
            Profile::A5 => "a5",
            Profile::Cpu => "cpu",
        }
    }

    pub fn from_name(s: &str) -> Option<Profile> {
        match s.to_ascii_lowercase().as_str() {
            "a2a3" | "a2" | "a3" => Some(Profile::A2A3),
            "a5" => Some(Profile::A5),
            "cpu" => Some(Profile::Cpu),
            _ => None,
        }
    }

    /// Ops run one at a time in program order, with no overlap between pipes: the CPU simulator
    /// emulates every instruction in software (execution-agents.md, "CPU Simulator";
    /// §8: "sync ops are no-ops because ops run synchronously").
    pub fn is_synchronous(self) -> bool {
        self == Profile::Cpu
    }

    /// Whether `op` (its mnemonic without `pto.`) is available on this profile; `Err` carries the
    /// sentence for an `unsupported_on_profile` error.
    pub fn check_available(self, op: &str) -> Result<(), String> {
        let (only, instead) = match op {
            // set-cross-core.md / wait-flag-dev.md: "A2A3 only"; table: CPU "Not available",
            // A5 "Use set_intra_block" / "Use wait_intra_core".
            "set_cross_core" => (Profile::A2A3, Some("set_intra_block")),
            "wait_flag_dev" => (Profile::A2A3, Some("wait_intra_core")),
            // set-intra-block.md / wait-intra-core.md: "A5 only"; table: CPU "Not available",
            // A2/A3 "Use set_cross_core" / "Use wait_flag_dev".
            "set_intra_block" => (Profile::A5, Some("set_cross_core")),
            "wait_intra_core" => (Profile::A5, Some("wait_flag_dev")),
            _ => return Ok(()),
        };
        if self == only {
            return Ok(());
        }
        let hint = match (self, instead) {
            (Profile::Cpu, _) => "the CPU simulator has no cross-core ops".to_string(),
            (_, Some(i)) => format!("use pto.{i} on {self}"),
            (_, None) => String::new(),
        };
        Err(format!(
            "pto.{op} is available on the {only} profile only, not on {self}: {hint}"
        ))
    }

    /// Largest cross-core semaphore id this profile addresses: A2/A3 has 16 ids per cluster
    /// (set-cross-core.md: "Illegal if %event_id is outside the valid range (0–15)"); A5 has 16
    /// physical ids in a 32-id address space (set-intra-block.md: "IDs outside 0–31 are illegal").
    pub fn max_semaphore_id(self) -> u64 {
        match self {
            Profile::A5 => 31,
            Profile::A2A3 | Profile::Cpu => 15,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Event ids usable by `set_flag`/`wait_flag`: `EVENT_ID0`–`EVENT_ID7` (crates/pto/README.md:
/// "Event ids used by kernels: 0–7").
pub const MAX_EVENT_ID: u64 = 7;

/// Buffer-token ids: `[0, 32)` — get-buf.md / rls-buf.md tables: "Maximum buffer IDs: 32 (global
/// pool)" on A2/A3 and A5; the CPU simulator's limit is implementation-defined and bhemu uses the
/// same 32.
pub const BUFFER_IDS: u64 = 32;

/// Every counter (event, semaphore) is 4 bits wide: set-cross-core.md "The hardware implements a
/// 4-bit counter (0–15)" and "Illegal if the hardware counter would overflow". bhemu applies the
/// same width to `set_flag` events ("counter overflow past 15").
pub const COUNTER_MAX: u8 = 15;

/// Largest cycle count one work op may take (keeps all cycle arithmetic far from `u64::MAX`).
pub const MAX_OP_CYCLES: u64 = 1_000_000_000;
