//! bhemu-pto: the pipeline-synchronisation skeleton of an Ascend PTO kernel, run on the A2/A3, A5
//! or CPU-simulator profile (crates/pto/README.md).
//!
//! A trace (see [`trace`]) lists per core the work ops and the `pto.*` sync ops. The engine
//! ([`engine`]) runs the cluster — one cube core and two vector subblocks — cycle by cycle and
//! returns a [`Report`]: the total cycles, each pipe's timeline, anything left unbalanced, and the
//! error if the trace breaks a rule of the PTO docs or hangs. Standalone: it shares no code with
//! the Tensix model.
//!
//! ```
//! let src = "[aiv0]\nop PIPE_MTE2 20 load\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n\
//!            pto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\nop PIPE_V 12 vadd\n";
//! let r = bhemu_pto::run_source(src, bhemu_pto::Profile::A5);
//! assert!(r.ok());
//! assert_eq!(r.cycles, 32);
//! ```
pub mod buffers;
pub mod cross_core;
pub mod engine;
pub mod error;
pub mod events;
pub mod pipes;
pub mod profile;
pub mod timeline;
pub mod trace;
pub mod verifier;

pub use engine::run;
pub use error::{ErrorKind, PtoError, Stuck};
pub use pipes::{CoreId, Pipe};
pub use profile::Profile;
pub use timeline::{Report, Span, Timeline, Unbalanced};
pub use trace::Trace;

/// Parse `src` and run it on `profile`. A malformed trace gives a report with the parse error.
pub fn run_source(src: &str, profile: Profile) -> Report {
    match Trace::parse(src) {
        Ok(t) => run(&t, profile),
        Err(e) => Report {
            profile,
            cycles: 0,
            timeline: Timeline::default(),
            unbalanced: Vec::new(),
            error: Some(e),
        },
    }
}
