//! The checks the docs assign to the verifier, run on the whole program of the selected profile
//! before any cycle is simulated: every page's "Exceptions" section opens with "The verifier
//! rejects illegal operand shapes, unsupported pipe or event identifiers, and attribute
//! combinations that are not valid for the selected instruction set or target profile".
//! Lines are checked in file order; the first violation is the error.
use crate::buffers::Pairing;
use crate::error::{ErrorKind, PtoError};
use crate::events::EventKey;
use crate::pipes::{self, CoreId, Pipe, PipeName};
use crate::profile::{Profile, BUFFER_IDS, MAX_EVENT_ID, MAX_OP_CYCLES};
use crate::trace::{Op, OpKind, Trace};

/// A checked op with concrete pipes and ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instr {
    Work {
        pipe: Pipe,
        cycles: u64,
        label: String,
    },
    SetFlag(EventKey),
    WaitFlag(EventKey),
    Barrier {
        pipe: Pipe,
    },
    BarrierAll,
    GetBuf {
        id: u8,
        pipe: Pipe,
    },
    RlsBuf {
        id: u8,
        pipe: Pipe,
    },
    MemBar,
    SetIntraBlock {
        pipe: Pipe,
        id: u8,
    },
    WaitIntraCore {
        pipe: Pipe,
        id: u8,
    },
    SetCrossCore {
        pipe: Pipe,
        id: u8,
    },
    WaitFlagDev {
        id: u8,
    },
}

/// One op of a core's program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub instr: Instr,
    pub line: usize,
    pub text: String,
}

/// The checked programs of the three cores.
#[derive(Debug, Clone, Default)]
pub struct Program {
    pub cores: [Vec<Entry>; 3],
}

/// Check `trace` for `profile` and resolve it into per-core programs.
pub fn verify(trace: &Trace, profile: Profile) -> Result<Program, PtoError> {
    let mut prog = Program::default();
    let mut pairing: [Pairing; 3] = Default::default();
    for op in trace.ops.iter().filter(|o| o.runs_on(profile)) {
        let fail =
            |kind: ErrorKind, m: String| PtoError::new(kind, Some(op.core), op.line, &op.text, m);
        profile
            .check_available(op.mnemonic())
            .map_err(|m| fail(ErrorKind::UnsupportedOnProfile, m))?;
        let instr = resolve(op, profile).map_err(|(k, m)| fail(k, m))?;
        let pair = &mut pairing[op.core.index()];
        match &instr {
            Instr::GetBuf { id, pipe } => pair
                .get(*pipe, *id)
                .map_err(|m| fail(ErrorKind::Invalid, m))?,
            Instr::RlsBuf { id, pipe } => pair
                .rls(*pipe, *id)
                .map_err(|m| fail(ErrorKind::Invalid, m))?,
            _ => {}
        }
        prog.cores[op.core.index()].push(Entry {
            instr,
            line: op.line,
            text: op.text.clone(),
        });
    }
    Ok(prog)
}

type Fail = (ErrorKind, String);

fn pipe(core: CoreId, p: PipeName) -> Result<Pipe, Fail> {
    pipes::resolve(core, p).map_err(|m| (ErrorKind::Invalid, m))
}

fn in_range(what: &str, v: u64, max: u64, why: &str) -> Result<u8, Fail> {
    if v > max {
        return Err((
            ErrorKind::OutOfRange,
            format!("{what} {v} is out of range 0–{max} ({why})"),
        ));
    }
    u8::try_from(v).map_err(|_| (ErrorKind::OutOfRange, format!("{what} {v} is out of range")))
}

/// set-cross-core.md: "core_id = 0 targets AIV0 subblock; core_id = 1 targets AIV1 subblock.
/// Other values are illegal." (In mode2 the cube's signal reaches both anyway.)
fn check_core_id(core_id: Option<u64>) -> Result<(), Fail> {
    match core_id {
        Some(c) if c > 1 => Err((
            ErrorKind::OutOfRange,
            format!("core_id {c} is out of range: 0 selects AIV0, 1 selects AIV1"),
        )),
        _ => Ok(()),
    }
}

fn resolve(op: &Op, profile: Profile) -> Result<Instr, Fail> {
    let core = op.core;
    Ok(match &op.kind {
        OpKind::Work {
            pipe: p,
            cycles,
            label,
        } => {
            let pipe = pipe(core, *p)?;
            if *cycles == 0 || *cycles > MAX_OP_CYCLES {
                return Err((
                    ErrorKind::OutOfRange,
                    format!("cycle count {cycles} is out of range 1–{MAX_OP_CYCLES}"),
                ));
            }
            Instr::Work {
                pipe,
                cycles: *cycles,
                label: label.clone(),
            }
        }
        OpKind::SetFlag { src, dst, event } | OpKind::WaitFlag { src, dst, event } => {
            let (src, dst) = (pipe(core, *src)?, pipe(core, *dst)?);
            // set-flag.md: "The event protocol is directional: the producer and consumer pipe
            // roles matter"; crates/pto/README.md: "src == dst is illegal" (use pipe_barrier instead).
            if src == dst {
                return Err((
                    ErrorKind::Invalid,
                    format!("source and destination are both {src}: an event connects two different pipes (order work on one pipe with pto.pipe_barrier)"),
                ));
            }
            // set-flag.md / wait-flag.md: "unsupported … event identifiers" are rejected.
            let id = in_range("event id", *event, MAX_EVENT_ID, "EVENT_ID0–EVENT_ID7")?;
            let key = EventKey { src, dst, id };
            if matches!(op.kind, OpKind::SetFlag { .. }) {
                Instr::SetFlag(key)
            } else {
                Instr::WaitFlag(key)
            }
        }
        // pipe-barrier.md: "The selected pipe identifier MUST be valid"; PIPE_ALL drains all.
        OpKind::PipeBarrier {
            pipe: PipeName::All,
        } => Instr::BarrierAll,
        OpKind::PipeBarrier { pipe: p } => Instr::Barrier {
            pipe: pipe(core, *p)?,
        },
        OpKind::GetBuf { id, pipe: p } | OpKind::RlsBuf { id, pipe: p } => {
            let pipe = pipe(core, *p)?;
            // get-buf.md: "Buffer IDs MUST be in the range [0, B)"; B = 32 (table).
            let id = in_range("buffer id", *id, BUFFER_IDS - 1, "32 buffer tokens")?;
            if matches!(op.kind, OpKind::GetBuf { .. }) {
                Instr::GetBuf { id, pipe }
            } else {
                Instr::RlsBuf { id, pipe }
            }
        }
        OpKind::MemBar { .. } => {
            // mem-bar.md: "meaningful only for UB aliasing hazards inside a vector-visible
            // execution scope".
            if core == CoreId::Aic {
                return Err((
                    ErrorKind::Invalid,
                    "pto.mem_bar orders vector UB accesses; aic has no vector pipe".to_string(),
                ));
            }
            Instr::MemBar
        }
        OpKind::SetIntraBlock { pipe: p, id } => {
            let pipe = pipe(core, *p)?;
            let id = if core == CoreId::Aic {
                // set-intra-block.md: "IDs outside 0–31 are illegal".
                in_range(
                    "semaphore id",
                    *id,
                    profile.max_semaphore_id(),
                    "0–15 target aiv0, 16–31 aiv1",
                )?
            } else {
                // A subblock signals the cube with its own id; the hardware adds 16 for AIV1.
                in_range(
                    "semaphore id",
                    *id,
                    15,
                    "a vector subblock signals the cube with its own id 0–15; the hardware adds 16 for aiv1",
                )?
            };
            Instr::SetIntraBlock { pipe, id }
        }
        OpKind::WaitIntraCore { pipe: p, id } => {
            let pipe = pipe(core, *p)?;
            // wait-intra-core.md: "Illegal if %sem_id is outside the range 0–31".
            let id = in_range(
                "semaphore id",
                *id,
                profile.max_semaphore_id(),
                "0–15 address aiv0, 16–31 aiv1",
            )?;
            // wait-intra-core.md: "IDs 0–15 target AIV0; IDs 16–31 target AIV1": a subblock can
            // only wait on its own half.
            if let Some(k) = core.subblock() {
                if id / 16 != k {
                    let (lo, hi) = (16 * u16::from(k), 16 * u16::from(k) + 15);
                    return Err((
                        ErrorKind::Invalid,
                        format!("semaphore id {id} addresses aiv{}; {core} waits on its own ids {lo}–{hi}", id / 16),
                    ));
                }
            }
            Instr::WaitIntraCore { pipe, id }
        }
        OpKind::SetCrossCore {
            pipe: p,
            id,
            core_id,
        } => {
            check_core_id(*core_id)?;
            let pipe = pipe(core, *p)?;
            // set-cross-core.md: "Illegal if %event_id is outside the valid range (0–15)".
            let id = in_range(
                "semaphore id",
                *id,
                15,
                "16 cross-core semaphores per cluster",
            )?;
            Instr::SetCrossCore { pipe, id }
        }
        OpKind::WaitFlagDev { id, core_id } => {
            check_core_id(*core_id)?;
            // wait-flag-dev.md: "Illegal if %event_id is outside the valid range (0–15)".
            let id = in_range(
                "semaphore id",
                *id,
                15,
                "16 cross-core semaphores per cluster",
            )?;
            Instr::WaitFlagDev { id }
        }
    })
}
