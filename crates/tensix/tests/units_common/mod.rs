//! Shared harness of the unit tests (`units*.rs`): assembling lines, running them on a
//! coprocessor thread until idle, and the Src / Dst datum layouts the expected values use.
#![allow(dead_code)]
use bhemu_isa::tensix::assemble;
use bhemu_tensix::state::cfg_fields as f;
use bhemu_tensix::state::{DestAccessCfg, TensixState};
use bhemu_tensix::{Arch, Coprocessor, ErrorKind, FlatL1, PushSource, Pushed, TensixError};

pub const PLAIN: DestAccessCfg = DestAccessCfg {
    remap_addrs: false,
    swizzle_32b: false,
};

pub fn w(line: &str) -> u32 {
    assemble(Arch::Blackhole, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Runs `lines` on thread `t` (in order) after `setup`, until everything is idle.
pub fn run_on(
    t: usize,
    setup: impl FnOnce(&mut TensixState),
    lines: &[&str],
) -> Result<Coprocessor, TensixError> {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    setup(cp.state_mut());
    let mut l1 = FlatL1::blackhole();
    let words: Vec<u32> = lines.iter().map(|l| w(l)).collect();
    let mut next = 0;
    for cycle in 0..10_000u64 {
        if next < words.len() {
            if let Pushed::Accepted = cp.push(t, PushSource::Trisc, words[next])? {
                next += 1;
            }
        } else if cp.all_idle() {
            return Ok(cp);
        }
        cp.step_with(cycle, &mut l1)?;
    }
    panic!("did not finish");
}

pub fn ok(t: usize, setup: impl FnOnce(&mut TensixState), lines: &[&str]) -> TensixState {
    match run_on(t, setup, lines) {
        Ok(cp) => cp.state().clone(),
        Err(e) => panic!("{e}"),
    }
}

pub fn undefined(t: usize, setup: impl FnOnce(&mut TensixState), lines: &[&str]) -> TensixError {
    match run_on(t, setup, lines) {
        Ok(_) => panic!("expected undefined behaviour"),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::Undefined, "{e}");
            e
        }
    }
}

// ---- Moves and clears (MOVA2D.md, MOVB2D.md, MOVD2A.md, MOVD2B.md, ZEROSRC.md, ZEROACC.md)

/// A Src BF16 datum (Sign 18, Man 17..11, Exp 7..0) for the BF16 bits `b`.
pub fn src_bf16(b: u16) -> u32 {
    (((b >> 15) as u32) << 18) | (((b & 0x7f) as u32) << 11) | ((b >> 7) & 0xff) as u32
}

/// A Dst16b BF16 datum (Sign 15, Man 14..8, Exp 7..0).
pub fn dst_bf16(b: u16) -> u16 {
    (b & 0x8000) | ((b & 0x7f) << 8) | ((b >> 7) & 0xff)
}

pub fn math_banks(s: &mut TensixState) {
    s.cfg.set(0, f::ALU_FORMAT_SPEC_REG0_SrcA, 5); // BF16
}

pub fn run_math(setup: impl FnOnce(&mut TensixState), lines: &[&str]) -> TensixState {
    let mut cp = Coprocessor::new(Arch::Blackhole);
    setup(cp.state_mut());
    let mut l1 = FlatL1::blackhole();
    let mut words: Vec<u32> = vec![w("ttsetdvalid 3")];
    words.extend(lines.iter().map(|l| w(l)));
    let mut next = 0;
    for c in 0..200 {
        if next < words.len() {
            if let Ok(Pushed::Accepted) = cp.push(1, PushSource::Trisc, words[next]) {
                next += 1;
            }
        }
        if let Err(e) = cp.step_with(c, &mut l1) {
            panic!("{e}");
        }
    }
    cp.state().clone()
}
