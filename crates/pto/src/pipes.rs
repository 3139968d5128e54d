//! The machine: one cube core (`aic`) and two vector subblocks (`aiv0`, `aiv1`) of a cluster, the
//! pipes each one has, and the in-order queue in front of each pipe.
//!
//! Sources: crates/pto/README.md and `docs/isa/vector/pipeline-sync.md` ("Inter-Core Sync": a cluster is
//! 1 Cube : 2 Vector subblocks, each with its own SU); `docs/isa/machine-model/execution-agents.md`
//! (scalar unit, vector pipe V, cube M, DMA engines MTE1/2/3).
use std::collections::VecDeque;
use std::fmt;

/// A core of the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CoreId {
    Aic,
    Aiv0,
    Aiv1,
}

impl CoreId {
    pub const ALL: [CoreId; 3] = [CoreId::Aic, CoreId::Aiv0, CoreId::Aiv1];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            CoreId::Aic => "aic",
            CoreId::Aiv0 => "aiv0",
            CoreId::Aiv1 => "aiv1",
        }
    }

    pub fn from_name(s: &str) -> Option<CoreId> {
        match s.to_ascii_lowercase().as_str() {
            "aic" => Some(CoreId::Aic),
            "aiv0" => Some(CoreId::Aiv0),
            "aiv1" => Some(CoreId::Aiv1),
            _ => None,
        }
    }

    /// The pipes of this core, in display order. The cube has S, MTE1, MTE2, M and FIX; a vector
    /// subblock has S, MTE2, V and MTE3 (crates/pto/README.md).
    pub fn pipes(self) -> &'static [Pipe] {
        match self {
            CoreId::Aic => &[Pipe::S, Pipe::Mte1, Pipe::Mte2, Pipe::M, Pipe::Fix],
            CoreId::Aiv0 | CoreId::Aiv1 => &[Pipe::S, Pipe::Mte2, Pipe::V, Pipe::Mte3],
        }
    }

    pub fn has_pipe(self, p: Pipe) -> bool {
        self.pipes().contains(&p)
    }

    /// The subblock number of a vector core (0 or 1); `None` for the cube.
    pub fn subblock(self) -> Option<u8> {
        match self {
            CoreId::Aic => None,
            CoreId::Aiv0 => Some(0),
            CoreId::Aiv1 => Some(1),
        }
    }
}

impl fmt::Display for CoreId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A real pipe (not `PIPE_ALL`). The declaration order is the display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pipe {
    /// The scalar pipe. The scalar unit (SU) itself: it issues the core's ops, so work or a wait
    /// placed on `PIPE_S` holds issue (see `engine.rs`).
    S,
    Mte1,
    Mte2,
    M,
    Fix,
    V,
    Mte3,
}

/// Number of `Pipe` values, for per-pipe arrays.
pub const PIPE_COUNT: usize = 7;

impl Pipe {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Pipe::S => "PIPE_S",
            Pipe::Mte1 => "PIPE_MTE1",
            Pipe::Mte2 => "PIPE_MTE2",
            Pipe::M => "PIPE_M",
            Pipe::Fix => "PIPE_FIX",
            Pipe::V => "PIPE_V",
            Pipe::Mte3 => "PIPE_MTE3",
        }
    }
}

impl fmt::Display for Pipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pipe operand as written in a trace: a pipe or `PIPE_ALL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PipeName {
    One(Pipe),
    All,
}

impl PipeName {
    /// Pipe names as in the PTO docs (`PIPE_S`, `PIPE_V`, `PIPE_M`, `PIPE_MTE1`, `PIPE_MTE2`,
    /// `PIPE_MTE3`, `PIPE_FIX`, `PIPE_ALL`).
    pub fn parse(s: &str) -> Option<PipeName> {
        Some(match s {
            "PIPE_S" => PipeName::One(Pipe::S),
            "PIPE_V" => PipeName::One(Pipe::V),
            "PIPE_M" => PipeName::One(Pipe::M),
            "PIPE_MTE1" => PipeName::One(Pipe::Mte1),
            "PIPE_MTE2" => PipeName::One(Pipe::Mte2),
            "PIPE_MTE3" => PipeName::One(Pipe::Mte3),
            "PIPE_FIX" => PipeName::One(Pipe::Fix),
            "PIPE_ALL" => PipeName::All,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            PipeName::One(p) => p.name(),
            PipeName::All => "PIPE_ALL",
        }
    }
}

/// The pipe of `core` named by `name`, or a sentence saying why it is not one. `PIPE_ALL` is
/// accepted only where the caller allows it (`pipe_barrier`).
pub fn resolve(core: CoreId, name: PipeName) -> Result<Pipe, String> {
    match name {
        PipeName::All => {
            Err("PIPE_ALL names no single pipe; only pto.pipe_barrier accepts it".to_string())
        }
        PipeName::One(p) if core.has_pipe(p) => Ok(p),
        PipeName::One(p) => Err(format!(
            "{core} has no {p} (its pipes: {})",
            core.pipes()
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// An op occupying a pipe: index into the core's program, start and end cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Running {
    pub idx: usize,
    pub end: u64,
}

/// The in-order queue in front of one pipe and the op it is running. Ops leave the queue in the
/// order the scalar unit issued them; a blocked head (a `wait_flag`, a `get_buf`, ...) holds
/// everything behind it.
#[derive(Debug, Clone, Default)]
pub struct PipeQueue {
    pub queue: VecDeque<usize>,
    pub running: Option<Running>,
}

impl PipeQueue {
    /// Nothing queued and nothing running.
    pub fn is_drained(&self) -> bool {
        self.queue.is_empty() && self.running.is_none()
    }
}
