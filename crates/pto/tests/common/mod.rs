//! Helpers shared by the integration tests.
#![allow(dead_code)]
use bhemu_pto::{run_source, CoreId, ErrorKind, Pipe, Profile, PtoError, Report, Span};

pub use bhemu_pto::CoreId::{Aic, Aiv0, Aiv1};
pub use bhemu_pto::Profile::{Cpu, A2A3, A5};

pub fn run(src: &str, p: Profile) -> Report {
    run_source(src, p)
}

/// Run and require a clean result.
pub fn ok(src: &str, p: Profile) -> Report {
    let r = run_source(src, p);
    assert!(
        r.ok(),
        "expected a clean run on {p}, got: {}",
        r.render_text()
    );
    r
}

/// Run and require an error of `kind`.
pub fn err(src: &str, p: Profile, kind: ErrorKind) -> PtoError {
    let r = run_source(src, p);
    match r.error {
        Some(e) if e.kind == kind => e,
        _ => panic!("expected a {kind} error on {p}, got: {}", r.render_text()),
    }
}

/// The span labelled `label` on `core`.
pub fn span(r: &Report, core: CoreId, label: &str) -> Span {
    match r.timeline.find(core, label) {
        Some((_, s)) => s.clone(),
        None => panic!("no span `{label}` on {core}: {}", r.render_text()),
    }
}

/// The pipe the span labelled `label` ran on.
pub fn pipe_of(r: &Report, core: CoreId, label: &str) -> Pipe {
    match r.timeline.find(core, label) {
        Some((p, _)) => p,
        None => panic!("no span `{label}` on {core}"),
    }
}

pub fn example(name: &str) -> String {
    let path = format!("{}/../../examples/pto/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}
