//! Typed errors of the ABI layer and of its backend: a kind, a place, a cycle and one sentence
//! (docs/execution-model.md EM-7). The C ABI never returns them to the caller; it turns each into the
//! documented answer (docs/libttsim-abi.md "Misuse").
use std::fmt;

/// What went wrong, coarse enough to choose an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The address is not decoded by anything (outside every BAR, a hole inside a BAR, a NoC
    /// node that does not exist).
    Unmapped,
    /// The address is decoded by the hardware but bhemu does not model it yet.
    Unimplemented,
    /// The access breaks a rule of the interface (a size crossing the end of a decoded region,
    /// an unaligned config offset, a null buffer).
    AccessRule,
    /// A call came while the library is not running (before `libttsim_init`, after `libttsim_exit`).
    NotRunning,
    /// The chip model reported an error (undefined behaviour, hang, exception, ...).
    Chip,
    /// Host memory could not be reached (no enabled iATU region, no DMA callback).
    HostMemory,
    /// A bug in bhemu: a panic caught at the ABI boundary.
    Internal,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Unmapped => "unmapped address",
            ErrorKind::Unimplemented => "unimplemented",
            ErrorKind::AccessRule => "access rule",
            ErrorKind::NotRunning => "not running",
            ErrorKind::Chip => "chip error",
            ErrorKind::HostMemory => "host memory",
            ErrorKind::Internal => "internal error",
        }
    }
}

/// Where an error happened. Every part is optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Where {
    /// The ABI entry point (`"pci_mem_rd_bytes"`, ...).
    pub call: Option<&'static str>,
    /// Host physical address of a `pci_mem_*` access.
    pub paddr: Option<u64>,
    /// NoC (0 or 1) and node coordinates.
    pub noc: Option<u8>,
    pub node: Option<(u32, u32)>,
    /// Address at the node (NoC address), or the config offset.
    pub addr: Option<u64>,
    pub size: Option<u32>,
}

impl Where {
    pub fn call(call: &'static str) -> Where {
        Where {
            call: Some(call),
            ..Where::default()
        }
    }
    pub fn node(noc: u8, x: u32, y: u32, addr: u64, size: usize) -> Where {
        Where {
            noc: Some(noc),
            node: Some((x, y)),
            addr: Some(addr),
            size: Some(size as u32),
            ..Where::default()
        }
    }
}

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(c) = self.call {
            parts.push(c.to_string());
        }
        if let Some(p) = self.paddr {
            parts.push(format!("paddr {p:#x}"));
        }
        if let (Some(n), Some((x, y))) = (self.noc, self.node) {
            parts.push(format!("noc{n} ({x},{y})"));
        } else if let Some((x, y)) = self.node {
            parts.push(format!("({x},{y})"));
        }
        if let Some(a) = self.addr {
            parts.push(format!("addr {a:#x}"));
        }
        if let Some(s) = self.size {
            parts.push(format!("size {s}"));
        }
        if parts.is_empty() {
            f.write_str("?")
        } else {
            f.write_str(&parts.join(" "))
        }
    }
}

/// The one error type: kind + place + cycle + sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message} at {at}{}", kind.name(), cycle.map(|c| format!(" (cycle {c})")).unwrap_or_default())]
pub struct BackendError {
    pub kind: ErrorKind,
    pub at: Where,
    pub cycle: Option<u64>,
    pub message: String,
}

impl BackendError {
    pub fn new(kind: ErrorKind, at: Where, message: impl Into<String>) -> BackendError {
        BackendError {
            kind,
            at,
            cycle: None,
            message: message.into(),
        }
    }
    pub fn at_cycle(mut self, cycle: u64) -> BackendError {
        self.cycle.get_or_insert(cycle);
        self
    }
    /// Names chip `chip` of a system of several (docs/multi-chip.md MC-7) at the head of the
    /// sentence, once.
    pub fn on_chip(mut self, chip: u32) -> BackendError {
        let tag = format!("chip {chip}: ");
        if !self.message.starts_with(&tag) {
            self.message.insert_str(0, &tag);
        }
        self
    }
    pub fn in_call(mut self, call: &'static str) -> BackendError {
        self.at.call.get_or_insert(call);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_line_names_kind_place_and_cycle() {
        let e = BackendError::new(
            ErrorKind::Unmapped,
            Where::node(0, 1, 2, 0x40, 4),
            "no such node",
        )
        .at_cycle(7);
        assert_eq!(
            e.to_string(),
            "unmapped address: no such node at noc0 (1,2) addr 0x40 size 4 (cycle 7)"
        );
    }
}
