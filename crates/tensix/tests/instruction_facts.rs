//! The facts the frontend and backend take from an instruction (unit, block-mask category,
//! latency, interval, load tail, bank waits and hand-back, the frontend's fields) come from the
//! generated tables (`scripts/gen-tensix-tables.py`). This test pins them, for every opcode of
//! both architectures and a spread of field values, to what the hand-written decode by name
//! (`predecode`) gave: `fixtures/instruction_facts.txt` was written by `predecode` in the commit
//! that added this test, where a second test checked the table-driven decode equal to it word
//! for word, and `predecode` was removed in the next. The fixture holds one line per opcode (its
//! facts with all fields zero) and a digest over every probed word.
//!
//! A deliberate change of a fact is made in the generator, then this fixture is rewritten with
//! `cargo test -p bhemu-tensix --test instruction_facts -- --ignored bless` and the diff
//! reviewed: each changed line names the instruction whose behaviour moved.
use bhemu_isa::tensix::{self as isa, Arch, ExUnit};
use bhemu_tensix::insn::{decode, Insn};

const FIXTURE: &str = "tests/fixtures/instruction_facts.txt";

/// The low 24 bits probed for each opcode: none, all, each bit alone, alternating patterns,
/// the STALLWAIT defaults' edges, and a few pseudo-random words.
fn patterns() -> Vec<u32> {
    let mut p = vec![
        0,
        0x00ff_ffff,
        0x00aa_aaaa,
        0x0055_5555,
        0x7fff,
        0x8007,
        0x00c0_0000,
    ];
    p.extend((0..24).map(|b| 1u32 << b));
    let mut x: u32 = 0x2545_f491;
    for _ in 0..16 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p.push(x & 0x00ff_ffff);
    }
    p
}

fn arch_tag(arch: Arch) -> &'static str {
    match arch {
        Arch::Blackhole => "bh",
        Arch::WormholeB0 => "wh",
    }
}

/// One line per opcode: the facts of the word with all fields zero.
fn line(arch: Arch, opcode: u32, i: &Insn) -> String {
    let name = isa::lookup(arch, opcode as u8).map_or("-", |d| d.name);
    format!(
        "{} {:02x} {} unit={:?} block={:03x} latency={} interval={} op={:?}",
        arch_tag(arch),
        opcode,
        name,
        i.unit,
        i.block_bits,
        i.latency,
        i.interval,
        i.op
    )
}

/// FNV-1a over the `Debug` form of every probed word's decode, all opcodes, both
/// architectures: catches a field-dependent change the per-opcode lines cannot show.
fn digest(decode: impl Fn(Arch, u32) -> Insn) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for arch in Arch::ALL {
        for opcode in 0..=255u32 {
            for p in patterns() {
                // `pc` (where a push came from) is no decode fact: decode leaves it `None`.
                let insn = decode(arch, opcode << 24 | p);
                assert_eq!(insn.pc, None);
                let text = format!("{insn:?}").replace(", pc: None", "");
                for b in text.bytes() {
                    h ^= b as u64;
                    h = h.wrapping_mul(0x0000_0100_0000_01b3);
                }
            }
        }
    }
    h
}

fn render(decode: impl Fn(Arch, u32) -> Insn + Copy) -> String {
    let mut s = String::new();
    for arch in Arch::ALL {
        for opcode in 0..=255u32 {
            s.push_str(&line(arch, opcode, &decode(arch, opcode << 24)));
            s.push('\n');
        }
    }
    s.push_str(&format!("digest {:016x}\n", digest(decode)));
    s
}

#[test]
fn generated_facts_equal_the_frozen_expectation() {
    let want = std::fs::read_to_string(FIXTURE).expect("fixture present");
    let got = render(decode);
    for (n, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        assert_eq!(g, w, "line {} of {FIXTURE}", n + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

/// The bit-level rules `decode` applies from the table's facts hold for every instruction:
/// an Unpacker instruction selects its unpacker with a 1-bit field at bit 23, and an
/// instruction that hands banks back has its 2-bit `clear_dvalid` field at bits 23:22.
#[test]
fn the_bit_rules_decode_relies_on_hold_for_every_instruction() {
    for arch in Arch::ALL {
        for def in isa::table(arch) {
            if def.unit == ExUnit::Unpack {
                assert!(
                    def.fields.iter().any(|f| f.start_bit == 23 && f.width == 1),
                    "{} has no unpacker select at bit 23",
                    def.name
                );
            }
            if def.hands_back {
                assert!(
                    def.fields.iter().any(|f| f.start_bit == 22 && f.width == 2),
                    "{} hands banks back but has no field at 23:22",
                    def.name
                );
            }
            if def.waits != 0 || def.hands_back {
                assert_eq!(
                    def.unit,
                    ExUnit::Math,
                    "{}: bank facts off the Matrix Unit",
                    def.name
                );
            }
        }
    }
}

/// Rewrites the fixture from today's decode (run by hand after a deliberate change).
#[test]
#[ignore]
fn bless() {
    std::fs::write(FIXTURE, render(decode)).expect("fixture written");
}
