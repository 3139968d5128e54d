//! The differential runner: the same host operations ([`job::Job`]) on bhemu's `libttsim.so`
//! and on Tenstorrent's reference simulator, each in a `bhemu sim-worker` child process of its
//! own ([`worker`]), and every byte read back compared ([`compare`]). docs/reference.md.
//!
//! A reference child that exits non-zero is the reference refusing something (it ends its
//! process on anything outside its contract): that is reported as such, never as a bhemu
//! failure and never as a pass.
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub mod compare;
pub mod job;
pub mod worker;

use job::{Answer, Job};
use worker::ANSWER_MARK;

/// How one child ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    Answered(Answer),
    /// Non-zero exit (or no answer line): its exit status and the line that says why.
    Failed {
        status: String,
        message: String,
    },
}

/// The two runs, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runs {
    Both {
        bhemu: Answer,
        reference: Answer,
    },
    /// The reference refused; `bhemu` says how bhemu's own run went.
    ReferenceRefuses {
        message: String,
        bhemu: Result<Answer, String>,
    },
    /// bhemu's run failed while the reference's finished.
    BhemuFailed(String),
}

/// The line of a failed child's output that says why: the reference's error categories
/// (`UnimplementedFunctionality`, `UndefinedBehavior`, ...) first, then any `ERROR:` line,
/// else the last non-empty line of stderr, else of stdout.
pub fn failure_line(stdout: &str, stderr: &str) -> String {
    let lines = || stdout.lines().chain(stderr.lines()).map(str::trim);
    lines()
        .find(|l| l.contains("Functionality") || l.contains("Behavior"))
        .or_else(|| lines().find(|l| l.contains("ERROR")))
        .or_else(|| stderr.lines().map(str::trim).rfind(|l| !l.is_empty()))
        .or_else(|| stdout.lines().map(str::trim).rfind(|l| !l.is_empty()))
        .unwrap_or("no output")
        .to_string()
}

/// Runs `program args...` with `job` on its stdin, and `envs` added to its environment, and
/// reads its answer. `Err` only when the child could not be started at all.
pub fn run_child(
    program: &Path,
    args: &[OsString],
    job: &str,
    envs: &[(&str, &str)],
) -> Result<Side, String> {
    let mut child = Command::new(program)
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: cannot start: {e}", program.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A child that dies early closes the pipe; its exit status says why, not this write.
        let _ = stdin.write_all(job.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let status = match out.status.code() {
        Some(c) => format!("exit status {c}"),
        None => "killed by a signal".to_string(),
    };
    if !out.status.success() {
        return Ok(Side::Failed {
            status,
            message: failure_line(&stdout, &stderr),
        });
    }
    let answer = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(ANSWER_MARK))
        .ok_or_else(|| "exited 0 without an answer line".to_string())
        .and_then(|l| serde_json::from_str::<Answer>(l).map_err(|e| format!("bad answer: {e}")));
    Ok(match answer {
        Ok(a) => Side::Answered(a),
        Err(message) => Side::Failed { status, message },
    })
}

/// Sorts the two children's ends into [`Runs`].
pub fn classify(bhemu: Side, reference: Side) -> Runs {
    let bhemu = match bhemu {
        Side::Answered(a) => Ok(a),
        Side::Failed { status, message } => Err(format!("{message} ({status})")),
    };
    match (bhemu, reference) {
        (bhemu, Side::Failed { message, .. }) => Runs::ReferenceRefuses { message, bhemu },
        (Ok(b), Side::Answered(r)) => Runs::Both {
            bhemu: b,
            reference: r,
        },
        (Err(e), Side::Answered(_)) => Runs::BhemuFailed(e),
    }
}

/// bhemu's own `libttsim.so`: `BHEMU_LIB`, else the newest of the ones cargo leaves beside the
/// running `bhemu` — `target/<profile>/libttsim.so` (built by `-p bhemu-ttsim-abi`) and
/// `target/<profile>/deps/libttsim.so` (built with bhemu itself, since bhemu links the same
/// crate) — so that a rebuilt bhemu is never compared through a stale library.
pub fn own_library() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("BHEMU_LIB") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find bhemu itself: {e}"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    [
        dir.join("libttsim.so"),
        dir.join("deps/libttsim.so"),
        dir.join("../libttsim.so"),
    ]
    .into_iter()
    .filter_map(|p| {
        let t = std::fs::metadata(&p).and_then(|m| m.modified()).ok()?;
        p.is_file().then_some((t, p))
    })
    .max_by_key(|(t, _)| *t)
    .map(|(_, p)| p)
    .ok_or_else(|| {
        format!(
            "no libttsim.so beside {} (build it: cargo build --release -p bhemu-ttsim-abi, or set BHEMU_LIB)",
            exe.display()
        )
    })
}

/// `job` on both libraries at once, each through `current_exe() sim-worker --lib L`; bhemu's
/// child gets `bhemu_env` added to its environment (its host threads: `BHEMU_THREADS`).
pub fn run_both(
    job: &Job,
    bhemu_lib: &Path,
    reference_lib: &Path,
    bhemu_env: &[(&str, &str)],
) -> Result<Runs, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find bhemu itself: {e}"))?;
    let text = serde_json::to_string(job).map_err(|e| format!("encoding the job: {e}"))?;
    let args = |lib: &Path| -> Vec<OsString> {
        vec!["sim-worker".into(), "--lib".into(), lib.as_os_str().into()]
    };
    let (b, r) = std::thread::scope(|s| {
        let b = s.spawn(|| run_child(&exe, &args(bhemu_lib), &text, bhemu_env));
        let r = run_child(&exe, &args(reference_lib), &text, &[]);
        (b.join(), r)
    });
    let b = b.map_err(|_| "the thread running bhemu's child failed".to_string())??;
    Ok(classify(b, r?))
}

#[cfg(test)]
mod tests;
