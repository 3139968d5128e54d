//! `bhemu pto run TRACE.pto [--profile a2a3|a5|cpu] [--json]`: run the synchronisation skeleton
//! of a PTO kernel on one profile. The engine lives in `bhemu_pto`; this file only reads
//! the file, picks the profile and prints the report.
//!
//! Exit status: 0 when the run is clean, 1 when the trace breaks a rule or hangs (the report,
//! or the JSON object, says which), 2 when the command itself fails (unreadable file).
use std::process::ExitCode;

use bhemu_pto::{Profile, Report};
use serde_json::{json, Map, Value};

use crate::CliError;

#[derive(clap::Subcommand)]
pub enum PtoCommand {
    /// Run a PTO synchronisation trace.
    Run {
        /// The trace (one `[aic]`/`[aiv0]`/`[aiv1]` section per core, one op per line).
        trace: std::path::PathBuf,
        /// Target profile.
        #[arg(long, default_value = "a5", value_parser = clap::builder::PossibleValuesParser::new(["a2a3", "a5", "cpu"]))]
        profile: String,
        /// Print exactly one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(c: PtoCommand) -> Result<ExitCode, CliError> {
    let PtoCommand::Run {
        trace,
        profile,
        json,
    } = c;
    let profile = Profile::from_name(&profile)
        .ok_or_else(|| CliError::new(format!("pto run: unknown profile `{profile}`")))?;
    let src = std::fs::read_to_string(&trace)
        .map_err(|e| CliError::new(format!("pto run: cannot read {}: {e}", trace.display())))?;
    let report = bhemu_pto::run_source(&src, profile);
    if json {
        println!("{}", report_json(&report));
    } else {
        print!("{}", report.render_text());
    }
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The report as the one JSON object of `bhemu pto run --json`.
pub fn report_json(r: &Report) -> Value {
    let mut timeline = Map::new();
    for (core, pipe, spans) in r.timeline.lanes() {
        let ops: Vec<Value> = spans
            .iter()
            .map(|s| json!({"label": s.label, "start": s.start, "end": s.end, "line": s.line}))
            .collect();
        timeline.insert(
            bhemu_pto::Timeline::lane_name(core, pipe),
            Value::Array(ops),
        );
    }
    let unbalanced: Vec<Value> = r
        .unbalanced
        .iter()
        .map(|u| json!({"core": u.core.name(), "line": u.line, "message": u.message}))
        .collect();
    let error = match &r.error {
        None => Value::Null,
        Some(e) => json!({
            "kind": e.kind.as_str(),
            "core": e.core.map(|c| c.name()),
            "line": e.line,
            "op": e.op,
            "message": e.message,
            "stuck": e.stuck.iter().map(|s| json!({"pipe": s.pipe, "waiting_on": s.waiting_on})).collect::<Vec<_>>(),
        }),
    };
    json!({
        "ok": r.ok(),
        "profile": r.profile.name(),
        "cycles": r.cycles,
        "timeline": timeline,
        "unbalanced": unbalanced,
        "error": error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_of_a_clean_run_has_the_issue_shape() {
        let src = "[aiv0]\nop PIPE_MTE2 20 load\npto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0\n\
                   pto.wait_flag PIPE_MTE2, PIPE_V, EVENT_ID0\nop PIPE_V 12 vadd\n";
        let v = report_json(&bhemu_pto::run_source(src, Profile::A5));
        assert_eq!(v["ok"], true);
        assert_eq!(v["profile"], "a5");
        assert_eq!(v["cycles"], 32);
        assert_eq!(v["timeline"]["aiv0.PIPE_V"][0]["label"], "vadd");
        assert_eq!(v["timeline"]["aiv0.PIPE_V"][0]["start"], 20);
        assert_eq!(v["timeline"]["aiv0.PIPE_V"][0]["end"], 32);
        assert_eq!(v["unbalanced"], json!([]));
        assert_eq!(v["error"], Value::Null);
    }

    #[test]
    fn json_of_a_deadlock_lists_the_stuck_pipes() {
        let v = report_json(&bhemu_pto::run_source(
            include_str!("../../../examples/pto/handoff_deadlock.pto"),
            Profile::A2A3,
        ));
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["kind"], "deadlock");
        assert_eq!(v["error"]["core"], "aic");
        assert_eq!(v["error"]["line"], 16);
        assert_eq!(v["error"]["stuck"].as_array().map(Vec::len), Some(3));
        assert_eq!(v["error"]["stuck"][1]["pipe"], "aiv0.PIPE_S");
    }

    #[test]
    fn json_of_an_unbalanced_run_fails_and_lists_what_is_left() {
        let v = report_json(&bhemu_pto::run_source(
            "[aiv0]\npto.set_flag PIPE_V, PIPE_MTE3, EVENT_ID1\n",
            Profile::Cpu,
        ));
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["kind"], "unbalanced");
        assert_eq!(v["unbalanced"][0]["line"], 2);
        assert_eq!(v["error"]["stuck"], json!([]));
    }

    #[test]
    fn json_of_a_file_level_error_has_no_core() {
        let v = report_json(&bhemu_pto::run_source("op PIPE_V 1 x\n", Profile::A5));
        assert_eq!(v["error"]["kind"], "invalid");
        assert_eq!(v["error"]["core"], Value::Null);
        assert_eq!(v["error"]["line"], 1);
    }
}
