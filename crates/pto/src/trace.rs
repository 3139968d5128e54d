//! The trace format: one section per core, one op per line in PTO assembly style.
//!
//! ```text
//! [aiv0]                                   # section: aic, aiv0 or aiv1
//! op PIPE_MTE2 20 load_a                   # work: pipe, cycles, label
//! pto.set_flag PIPE_MTE2, PIPE_V, EVENT_ID0
//! pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]   # the docs' bracket form also parses
//! pto.pipe_barrier PIPE_ALL
//! pto.get_buf 3, PIPE_V                    # also: get_buf "PIPE_V", 3, 0 (mode ignored)
//! pto.rls_buf 3, PIPE_V
//! pto.mem_bar VST_VLD                      # vector cores; orders nothing between pipes
//! @a5   pto.set_intra_block PIPE_V, 1      # a line guarded by a profile list
//! @a5   pto.wait_intra_core PIPE_V, 0
//! @a2a3 pto.set_cross_core PIPE_MTE2, 2
//! @a2a3 pto.wait_flag_dev 2                # also: wait_flag_dev PIPE_MTE2, 2 (pipe ignored)
//! ```
//!
//! Comments start with `#` or `//`. The `pto.` prefix is optional. Operands may be separated by
//! commas, spaces, brackets or quotes; a trailing `: i64, i64` type list is ignored; numbers may be
//! written `%c16_i64` as in the docs' SSA examples. A line starting with `@PROFILE[,PROFILE...]`
//! runs only on those profiles — the docs require a fallback path for profile-restricted ops
//! (set-cross-core.md: "Programs that use this operation MUST provide a fallback path for other
//! profiles"), and guards let one trace carry both paths.
//!
//! Parsing checks only the shape of a line. Ranges, pipes a core lacks and profile availability are
//! checked by `verifier` for the selected profile.
use crate::error::{ErrorKind, PtoError};
use crate::pipes::{CoreId, Pipe, PipeName};
use crate::profile::Profile;

/// A parsed trace: every op in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    pub ops: Vec<Op>,
}

/// One op line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    pub core: CoreId,
    /// 1-based line number in the trace.
    pub line: usize,
    /// The line without comment or guard, trimmed: used in error messages.
    pub text: String,
    /// `Some(list)` when the line is guarded by `@profile,...`.
    pub only: Option<Vec<Profile>>,
    pub kind: OpKind,
}

impl Op {
    /// Whether this line belongs to the program on `profile`.
    pub fn runs_on(&self, profile: Profile) -> bool {
        match &self.only {
            None => true,
            Some(ps) => ps.contains(&profile),
        }
    }

    /// The op mnemonic without `pto.`.
    pub fn mnemonic(&self) -> &'static str {
        self.kind.mnemonic()
    }
}

/// An op as written. Ids are kept as written; `verifier` checks their ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpKind {
    /// `op PIPE CYCLES [LABEL]`: work that occupies PIPE for CYCLES.
    Work {
        pipe: PipeName,
        cycles: u64,
        label: String,
    },
    SetFlag {
        src: PipeName,
        dst: PipeName,
        event: u64,
    },
    WaitFlag {
        src: PipeName,
        dst: PipeName,
        event: u64,
    },
    PipeBarrier {
        pipe: PipeName,
    },
    GetBuf {
        id: u64,
        pipe: PipeName,
    },
    RlsBuf {
        id: u64,
        pipe: PipeName,
    },
    MemBar {
        kind: String,
    },
    SetIntraBlock {
        pipe: PipeName,
        id: u64,
    },
    WaitIntraCore {
        pipe: PipeName,
        id: u64,
    },
    /// `core_id` is set when written in the scalar page's `%core_id, %event_id` form (the op
    /// then runs on PIPE_S).
    SetCrossCore {
        pipe: PipeName,
        id: u64,
        core_id: Option<u64>,
    },
    WaitFlagDev {
        id: u64,
        core_id: Option<u64>,
    },
}

impl OpKind {
    pub fn mnemonic(&self) -> &'static str {
        match self {
            OpKind::Work { .. } => "op",
            OpKind::SetFlag { .. } => "set_flag",
            OpKind::WaitFlag { .. } => "wait_flag",
            OpKind::PipeBarrier { .. } => "pipe_barrier",
            OpKind::GetBuf { .. } => "get_buf",
            OpKind::RlsBuf { .. } => "rls_buf",
            OpKind::MemBar { .. } => "mem_bar",
            OpKind::SetIntraBlock { .. } => "set_intra_block",
            OpKind::WaitIntraCore { .. } => "wait_intra_core",
            OpKind::SetCrossCore { .. } => "set_cross_core",
            OpKind::WaitFlagDev { .. } => "wait_flag_dev",
        }
    }
}

/// Barrier classes of `pto.mem_bar` (vector/pipeline-sync.md, "Barrier types").
const MEM_BAR_TYPES: [&str; 3] = ["VV_ALL", "VST_VLD", "VLD_VST"];

impl Trace {
    /// Parse a whole trace; the first malformed line is an `invalid` (or `out_of_range`) error.
    pub fn parse(src: &str) -> Result<Trace, PtoError> {
        let mut ops = Vec::new();
        let mut core: Option<CoreId> = None;
        for (i, raw) in src.lines().enumerate() {
            let line = i + 1;
            let text = strip_comment(raw).trim();
            if text.is_empty() {
                continue;
            }
            if let Some(rest) = text.strip_prefix('[') {
                if let Some(name) = rest.strip_suffix(']') {
                    match CoreId::from_name(name.trim()) {
                        Some(c) => {
                            core = Some(c);
                            continue;
                        }
                        None => {
                            return Err(PtoError::new(
                                ErrorKind::Invalid,
                                None,
                                line,
                                text,
                                format!(
                                    "unknown core section [{}]: the cores are aic, aiv0 and aiv1",
                                    name.trim()
                                ),
                            ))
                        }
                    }
                }
            }
            let (only, body) = split_guard(text)
                .map_err(|m| PtoError::new(ErrorKind::Invalid, core, line, text, m))?;
            let Some(c) = core else {
                return Err(PtoError::new(
                    ErrorKind::Invalid,
                    None,
                    line,
                    body,
                    "op outside a core section: start the trace with [aic], [aiv0] or [aiv1]",
                ));
            };
            let kind = parse_op(body).map_err(|(k, m)| PtoError::new(k, Some(c), line, body, m))?;
            ops.push(Op {
                core: c,
                line,
                text: body.to_string(),
                only,
                kind,
            });
        }
        Ok(Trace { ops })
    }

    /// The program of `core` on `profile`, in program (= file) order.
    pub fn program(&self, core: CoreId, profile: Profile) -> impl Iterator<Item = &Op> {
        self.ops
            .iter()
            .filter(move |o| o.core == core && o.runs_on(profile))
    }
}

fn strip_comment(s: &str) -> &str {
    let cut = [s.find('#'), s.find("//")].into_iter().flatten().min();
    match cut {
        Some(i) => &s[..i],
        None => s,
    }
}

/// `@a5,cpu rest` → (Some([A5, Cpu]), "rest").
fn split_guard(text: &str) -> Result<(Option<Vec<Profile>>, &str), String> {
    let Some(rest) = text.strip_prefix('@') else {
        return Ok((None, text));
    };
    let (guard, body) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim_start()),
        None => (rest, ""),
    };
    let mut ps = Vec::new();
    for name in guard.split(',').filter(|s| !s.is_empty()) {
        match Profile::from_name(name) {
            Some(p) => ps.push(p),
            None => {
                return Err(format!(
                    "unknown profile `{name}` in guard: the profiles are a2a3, a5 and cpu"
                ))
            }
        }
    }
    if ps.is_empty() {
        return Err(
            "empty profile guard: write e.g. `@a5 pto.wait_intra_core PIPE_V, 0`".to_string(),
        );
    }
    if body.is_empty() {
        return Err("profile guard without an op".to_string());
    }
    Ok((Some(ps), body))
}

type ParseErr = (ErrorKind, String);

fn invalid(m: impl Into<String>) -> ParseErr {
    (ErrorKind::Invalid, m.into())
}

fn parse_op(body: &str) -> Result<OpKind, ParseErr> {
    let split = body
        .find(|c: char| c.is_whitespace() || c == '[' || c == '"' || c == '(')
        .unwrap_or(body.len());
    let (head, rest) = body.split_at(split);
    let name = head.strip_prefix("pto.").unwrap_or(head);
    // Drop a trailing MLIR type list (`: i64, i64`).
    let rest = match rest.find(':') {
        Some(i) => &rest[..i],
        None => rest,
    };
    let cleaned: String = rest
        .chars()
        .map(|c| {
            if matches!(c, '[' | ']' | '"' | ',' | '(' | ')') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let args: Vec<&str> = cleaned.split_whitespace().collect();
    let usage = |u: &str| invalid(format!("`{name}` takes {u}, got {} operand(s)", args.len()));
    match name {
        "op" => {
            if args.len() < 2 {
                return Err(usage("PIPE CYCLES [LABEL]"));
            }
            let pipe = pipe(args[0])?;
            let cycles = number(args[1])?;
            let label = if args.len() > 2 { args[2..].join(" ") } else { "work".to_string() };
            Ok(OpKind::Work { pipe, cycles, label })
        }
        "set_flag" | "wait_flag" => {
            if args.len() != 3 {
                return Err(usage("SRC_PIPE, DST_PIPE, EVENT_ID"));
            }
            let (src, dst, event) = (pipe(args[0])?, pipe(args[1])?, event_id(args[2])?);
            Ok(if name == "set_flag" { OpKind::SetFlag { src, dst, event } } else { OpKind::WaitFlag { src, dst, event } })
        }
        "pipe_barrier" => {
            if args.len() != 1 {
                return Err(usage("one pipe"));
            }
            Ok(OpKind::PipeBarrier { pipe: pipe(args[0])? })
        }
        "get_buf" | "rls_buf" => {
            // scalar page: `get_buf %buf_id, "PIPE_*", %mode`; vector page: `get_buf "PIPE_*",
            // %buf_id, %mode`. Accept both orders; the mode is optional and has no effect here.
            if !(2..=3).contains(&args.len()) {
                return Err(usage("BUF_ID, PIPE[, MODE]"));
            }
            let (p, id) = if PipeName::parse(args[0]).is_some() { (args[0], args[1]) } else { (args[1], args[0]) };
            let (id, pipe) = (number(id)?, pipe(p)?);
            if let Some(m) = args.get(2) {
                number(m)?;
            }
            Ok(if name == "get_buf" { OpKind::GetBuf { id, pipe } } else { OpKind::RlsBuf { id, pipe } })
        }
        "mem_bar" => {
            if args.len() != 1 {
                return Err(usage("one barrier type"));
            }
            if !MEM_BAR_TYPES.contains(&args[0]) {
                return Err(invalid(format!("unknown mem_bar type `{}`: one of VV_ALL, VST_VLD, VLD_VST", args[0])));
            }
            Ok(OpKind::MemBar { kind: args[0].to_string() })
        }
        // set-cross-core.md syntax: `set_cross_core %core_id, %event_id`; the vector page and the
        // issue: `set_cross_core PIPE, id` (the C++ helper takes the triggering pipe).
        "set_cross_core" if args.len() == 2 && PipeName::parse(args[0]).is_none() => {
            let (core_id, id) = (number(args[0])?, number(args[1])?);
            Ok(OpKind::SetCrossCore { pipe: PipeName::One(Pipe::S), id, core_id: Some(core_id) })
        }
        "set_intra_block" | "wait_intra_core" | "wait_intra_block" | "set_cross_core" => {
            if args.len() != 2 {
                return Err(usage("PIPE, ID"));
            }
            let (pipe, id) = (pipe(args[0])?, number(args[1])?);
            Ok(match name {
                "set_intra_block" => OpKind::SetIntraBlock { pipe, id },
                "set_cross_core" => OpKind::SetCrossCore { pipe, id, core_id: None },
                // wait-intra-core.md: the shipped C++ spelling is `wait_intra_block`.
                _ => OpKind::WaitIntraCore { pipe, id },
            })
        }
        "wait_flag_dev" => match args.as_slice() {
            [id] => Ok(OpKind::WaitFlagDev { id: number(id)?, core_id: None }),
            // wait-flag-dev.md C++ intrinsic: wait_flag_dev(pipe, flagId) — the whole SU blocks
            // whatever the pipe; vector/pipeline-sync.md: `wait_flag_dev %core_id, %event_id`.
            [first, id] => {
                let core_id = if PipeName::parse(first).is_some() { None } else { Some(number(first)?) };
                Ok(OpKind::WaitFlagDev { id: number(id)?, core_id })
            }
            _ => Err(usage("ID (or PIPE, ID, or CORE_ID, ID)")),
        },
        "" => Err(invalid("empty op")),
        other => Err(invalid(format!(
            "unknown op `{other}`: expected op, set_flag, wait_flag, pipe_barrier, get_buf, rls_buf, mem_bar, \
             set_intra_block, wait_intra_core, set_cross_core or wait_flag_dev"
        ))),
    }
}

fn pipe(s: &str) -> Result<PipeName, ParseErr> {
    PipeName::parse(s).ok_or_else(|| {
        invalid(format!(
            "invalid pipe `{s}`: expected PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX or PIPE_ALL"
        ))
    })
}

/// `EVENT_ID3` or `3`.
fn event_id(s: &str) -> Result<u64, ParseErr> {
    match s.strip_prefix("EVENT_ID") {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => number(n),
        Some(_) => Err(invalid(format!(
            "invalid event id `{s}`: expected EVENT_ID0 … EVENT_ID7"
        ))),
        None => number(s).map_err(|_| {
            invalid(format!(
                "invalid event id `{s}`: expected EVENT_ID0 … EVENT_ID7"
            ))
        }),
    }
}

/// A non-negative decimal number, also in the docs' SSA spelling `%c16_i64`.
fn number(s: &str) -> Result<u64, ParseErr> {
    let mut t = s.strip_prefix("%c").unwrap_or(s);
    for suffix in ["_i64", "_i32", "_i16", "_i8"] {
        if let Some(x) = t.strip_suffix(suffix) {
            t = x;
        }
    }
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(format!("`{s}` is not a non-negative number")));
    }
    t.parse::<u64>()
        .map_err(|_| (ErrorKind::OutOfRange, format!("`{s}` is too large")))
}
