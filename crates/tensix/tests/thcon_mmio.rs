//! `STOREREG` / `LOADREG` (tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/
//! {STOREREG,LOADREG}.md): a GPR to or from the 32-bit MMIO word at
//! `0xFFB00000 + (AddrLo << 2)`, through the memory the coprocessor is attached to. Expected
//! addresses and values are worked out here from the pages' functional models.
use std::collections::BTreeMap;

use bhemu_isa::tensix::assemble;
use bhemu_tensix::{Arch, Coprocessor, ErrorKind, PushSource, Pushed, TensixError, TensixMemory};

/// L1-less memory that records every register write and serves reads from the same map.
#[derive(Default)]
struct Regs {
    words: BTreeMap<u32, u32>,
    writes: Vec<(u32, u32)>,
}

impl TensixMemory for Regs {
    fn read(&mut self, addr: u32, _buf: &mut [u8]) -> Result<(), String> {
        Err(format!("no L1 in this test ({addr:#x})"))
    }
    fn write(&mut self, addr: u32, _data: &[u8]) -> Result<(), String> {
        Err(format!("no L1 in this test ({addr:#x})"))
    }
    fn write_reg(&mut self, addr: u32, value: u32) -> Result<(), String> {
        self.words.insert(addr, value);
        self.writes.push((addr, value));
        Ok(())
    }
    fn read_reg(&mut self, addr: u32) -> Result<u32, String> {
        self.words
            .get(&addr)
            .copied()
            .ok_or_else(|| format!("nothing at {addr:#x}"))
    }
}

fn w(line: &str) -> u32 {
    assemble(Arch::Blackhole, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Runs `lines` on thread `t` with `gprs` preset; returns the coprocessor.
fn run(
    t: usize,
    gprs: &[(usize, u32)],
    mem: &mut Regs,
    lines: &[&str],
) -> Result<Coprocessor, TensixError> {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    for &(i, v) in gprs {
        cp.state_mut().gprs[t][i] = v;
    }
    let words: Vec<u32> = lines.iter().map(|l| w(l)).collect();
    let mut next = 0;
    for cycle in 0..1_000u64 {
        if next < words.len() {
            if let Pushed::Accepted = cp.push(t, PushSource::Trisc, words[next])? {
                next += 1;
            }
        } else if cp.all_idle() {
            return Ok(cp);
        }
        cp.step_with(cycle, mem)?;
    }
    panic!("did not finish");
}

/// STOREREG.md: `*(0xFFB00000 + (AddrLo << 2)) = GPRs[CurrentThread][DataReg]` — the address
/// tt-llk uses for CB 0's "tiles acked" overlay counter (`0xFFB40020 >> 2 & 0x3ffff`).
#[test]
fn storereg_writes_the_threads_gpr_to_0xffb00000_plus_addrlo_times_4() {
    let mut mem = Regs::default();
    let addr_lo = (0xFFB4_0020u32 >> 2) & 0x3_FFFF;
    let r = run(
        2,
        &[(4, 0x1234_5678)],
        &mut mem,
        &[&format!("ttstorereg 4, {addr_lo}")],
    );
    if let Err(e) = r {
        panic!("{e}");
    }
    assert_eq!(
        mem.writes,
        vec![(0xFFB0_0000 + (addr_lo << 2), 0x1234_5678)]
    );
    assert_eq!(mem.writes[0].0, 0xFFB4_0020);
}

/// STOREREG.md: the GPR is the issuing thread's (`GPRs[CurrentThread]`), not thread 0's.
#[test]
fn storereg_reads_the_issuing_threads_gpr() {
    let mut mem = Regs::default();
    let r = run(1, &[(9, 77)], &mut mem, &["ttstorereg 9, 65544"]);
    if let Err(e) = r {
        panic!("{e}");
    }
    assert_eq!(mem.writes, vec![(0xFFB4_0020, 77)]);
}

/// LOADREG.md: `GPRs[CurrentThread][ResultReg] = *(0xFFB00000 + (AddrLo << 2))`.
#[test]
fn loadreg_reads_the_mmio_word_into_the_threads_gpr() {
    let mut mem = Regs::default();
    mem.words.insert(0xFFB4_1028, 0xCAFE_0003);
    let addr_lo = (0xFFB4_1028u32 >> 2) & 0x3_FFFF;
    let cp = match run(0, &[], &mut mem, &[&format!("ttloadreg 5, {addr_lo}")]) {
        Ok(cp) => cp,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(cp.state().gprs[0][5], 0xCAFE_0003);
    assert_eq!(cp.state().gprs[1][5], 0);
}

/// Both pages: an address below `0xFFB11000` is `UndefinedBehaviour()` — bhemu stops (strict
/// mode) naming the instruction, and writes nothing.
#[test]
fn storereg_and_loadreg_below_0xffb11000_are_undefined() {
    for line in ["ttstorereg 1, 4", "ttloadreg 1, 4"] {
        let mut mem = Regs::default();
        match run(0, &[(1, 5)], &mut mem, &[line]) {
            Ok(_) => panic!("{line}: expected undefined behaviour"),
            Err(e) => {
                assert_eq!(e.kind, ErrorKind::Undefined, "{e}");
                assert!(e.message.contains("below the MMIO window"), "{e}");
            }
        }
        assert!(mem.writes.is_empty());
    }
}

/// A register the attached memory does not have is an error naming the address, at the
/// instruction (thread and word), never a silent drop.
#[test]
fn loadreg_from_a_missing_register_is_an_error_naming_the_address() {
    let mut mem = Regs::default();
    let word = w("ttloadreg 3, 65546");
    match run(1, &[], &mut mem, &["ttloadreg 3, 65546"]) {
        Ok(_) => panic!("expected an error"),
        Err(e) => {
            assert!(e.message.contains("0xffb40028"), "{e}");
            assert_eq!(e.thread, Some(1));
            assert_eq!(e.word, Some(word));
        }
    }
}
