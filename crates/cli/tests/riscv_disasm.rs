//! "Disassembly of those programs matches `riscv64-unknown-elf-objdump -d`
//! for every instruction the hart supports (mnemonics and operands, modulo whitespace and
//! pseudo-instruction spelling you document)".
//!
//! For every program of examples/riscv, and for examples/riscv/isa_coverage.S (every instruction
//! form of the baby cores that binutils can assemble: CSRs, fences, `mret`, all AMOs, Zba, Zbb,
//! `pack`/`brev8`), `bhemu disasm --riscv` and `objdump -d` (Debian binutils 2.40) are compared
//! line by line: the same section headers, the same `<symbol>:` labels at the
//! same addresses, and for every instruction the same address, word, mnemonic and operands,
//! including objdump's `<sym+0xoff>` annotation of branch and jump targets.
//!
//! Normalisation, all of it:
//!   1. Whitespace is ignored (objdump pads the word column; operand separators may differ).
//!   2. objdump's trailing comments `# 80000dc0 <__global_pointer$>` are dropped: they show
//!      addresses objdump computes by tracking `auipc`/`lui` pairs, which is not disassembly of
//!      the instruction itself.
//!
//! Nothing else: immediates must be spelled as objdump spells them (`sll a0,a0,0x2`, `add
//! sp,sp,-16`, `lui a5,0x80002`), and branch targets as bare hex followed by `<sym+0xoff>`.
//! Pseudo-instruction spelling is *not* normalised either. In these programs objdump 2.40 prints
//! `li`, `mv`, `not`, `neg`, `seqz`, `snez`, `beqz`/`bnez`/`blez`/`bgez`/`bltz`, `j`,
//! `jal <target>` (rd = ra), `ret`, `zext.b` and `fence` without operands for `fence iorw,iorw`,
//! and spells register-immediate ALU instructions without the `i` (`add a0,a0,-1`,
//! `sll a0,a0,0x2`, `and`, `or`, `xor`, `srl`, `sra`; but `sltiu`). bhemu prints the same: as of
//! this writing every instruction of every program matches exactly.
#[path = "common/riscv.rs"]
mod common;

use std::collections::BTreeMap;

use common::*;

/// One line of a listing, normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Line {
    Section(String),
    Label(u32, String),
    /// `operands` without whitespace and without objdump's `# …` comment.
    Insn {
        addr: u32,
        word: u32,
        mnemonic: String,
        operands: String,
    },
}

fn parse_hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s, 16).ok()
}

/// Rules 1 and 2: drop the comment, then all whitespace (including the space before `<sym>`).
fn operands(raw: &str) -> String {
    raw.split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

fn parse_listing(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    for l in text.lines() {
        if let Some(name) = l.strip_prefix("Disassembly of section ") {
            lines.push(Line::Section(name.trim_end_matches(':').to_string()));
            continue;
        }
        // "80000048 <report>:"
        if let Some((addr, rest)) = l.split_once(" <") {
            if let (Some(a), Some(name)) = (parse_hex(addr.trim()), rest.strip_suffix(">:")) {
                lines.push(Line::Label(a, name.to_string()));
                continue;
            }
        }
        // "80000000:\t00001197          \tauipc\tgp,0x1"
        let Some((addr, rest)) = l.split_once(':') else {
            continue;
        };
        let Some(addr) = parse_hex(addr.trim()) else {
            continue;
        };
        let mut fields = rest.trim_start().splitn(2, char::is_whitespace);
        let Some(word) = fields.next().and_then(parse_hex) else {
            continue;
        };
        let rest = fields.next().unwrap_or("").trim_start();
        let mut parts = rest.splitn(2, char::is_whitespace);
        let mnemonic = parts.next().unwrap_or("").to_string();
        let ops = operands(parts.next().unwrap_or(""));
        lines.push(Line::Insn {
            addr,
            word,
            mnemonic,
            operands: ops,
        });
    }
    lines
}

fn show(l: &Line) -> String {
    match l {
        Line::Section(s) => format!("section {s}"),
        Line::Label(a, n) => format!("{a:08x} <{n}>:"),
        Line::Insn {
            addr,
            word,
            mnemonic,
            operands,
        } => format!("{addr:08x}: {word:08x} {mnemonic} {operands}"),
    }
}

/// Compare one program; returns human-readable mismatches.
fn compare(name: &str) -> Vec<String> {
    let dir = scratch("riscv-disasm");
    compare_elf(name, &build_riscv(name, &dir))
}

fn compare_elf(name: &str, elf: &std::path::Path) -> Vec<String> {
    let ours = bhemu()
        .args(["disasm", "--riscv"])
        .arg(elf)
        .output()
        .expect("run bhemu disasm");
    assert!(
        ours.status.success(),
        "{name}: bhemu disasm failed: {}",
        String::from_utf8_lossy(&ours.stderr)
    );
    let theirs = std::process::Command::new(CROSS_OBJDUMP)
        .arg("-d")
        .arg(elf)
        .output()
        .expect("run objdump");
    assert!(theirs.status.success());
    let ours = parse_listing(&String::from_utf8_lossy(&ours.stdout));
    let theirs = parse_listing(&String::from_utf8_lossy(&theirs.stdout));
    let insns = |v: &[Line]| v.iter().filter(|l| matches!(l, Line::Insn { .. })).count();
    assert!(insns(&theirs) > 20, "{name}: objdump listing looks empty");
    let mut bad = Vec::new();
    if insns(&ours) != insns(&theirs) {
        bad.push(format!(
            "{name}: {} instructions listed by bhemu, {} by objdump",
            insns(&ours),
            insns(&theirs)
        ));
    }
    for (o, t) in ours.iter().zip(theirs.iter()) {
        if o != t {
            bad.push(format!(
                "{name}:\n    bhemu:   {}\n    objdump: {}",
                show(o),
                show(t)
            ));
        }
    }
    bad
}

#[test]
fn disassembly_matches_objdump() {
    if !have_tools() {
        return;
    }
    let mut all = Vec::new();
    for name in program_names() {
        all.extend(compare(&name));
    }
    all.extend(compare_elf("isa_coverage", &build_isa_coverage()));
    if !all.is_empty() {
        // Group by objdump's mnemonic so the report reads as a list of distinct problems.
        let mut by_kind: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for m in &all {
            let key = m
                .lines()
                .nth(2)
                .and_then(|l| l.split_whitespace().nth(3))
                .unwrap_or("(structure)")
                .to_string();
            let e = by_kind.entry(key).or_insert((0, m.clone()));
            e.0 += 1;
        }
        let mut report = format!(
            "{} mismatching lines; first example of each objdump mnemonic:\n",
            all.len()
        );
        for (k, (n, ex)) in &by_kind {
            report.push_str(&format!("[{k}] x{n}\n{ex}\n"));
        }
        panic!("{report}");
    }
}

/// examples/riscv/isa_coverage.S: every instruction form of the baby cores that binutils knows,
/// so that CSRs, fences, `mret`, every AMO and Zbkb are compared too, not only what GCC emits.
fn build_isa_coverage() -> std::path::PathBuf {
    let ex = examples_dir();
    let out = scratch("riscv-disasm").join("isa_coverage.elf");
    let status = std::process::Command::new(CROSS_CC)
        .args(["-march=rv32ima_zicsr_zifencei_zba_zbb_zbkb", "-mabi=ilp32"])
        .args([
            "-nostdlib",
            "-nostartfiles",
            "-Wl,--no-warn-rwx-segments",
            "-T",
        ])
        .arg(ex.join("link.ld"))
        .arg("-o")
        .arg(&out)
        .arg(ex.join("isa_coverage.S"))
        .status()
        .expect("run the cross assembler");
    assert!(status.success(), "assembling isa_coverage.S");
    out
}

#[test]
fn normalisation_rules() {
    // The two rules documented at the top, on objdump's own spelling.
    let a = parse_listing(
        "80000004:\tdc018193          \tadd\tgp,gp,-576 # 80000dc0 <__global_pointer$>",
    );
    let b = parse_listing("80000004:\tdc018193\tadd\tgp, gp, -576");
    assert_eq!(a, b);
    let a = parse_listing("8000001c:\t0062f863\tbgeu\tt0,t1,8000002c <_start+0x2c>");
    let b = parse_listing("8000001c:\t0062f863\tbgeu\tt0, t1, 8000002c<_start+0x2c>");
    assert_eq!(a, b);
    // Everything else must match.
    assert_ne!(
        a,
        parse_listing("8000001c:\t0062f863\tbgeu\tt0,t1,8000002c <main+0x2c>")
    );
    assert_ne!(
        parse_listing("80000030:\t00151513\tsll\ta0,a0,0x1"),
        parse_listing("80000030:\t00151513\tslli\ta0,a0,1")
    );
    assert_ne!(
        parse_listing("1:\t0\tlw\ta0,8(sp)"),
        parse_listing("1:\t0\tlw\ta0,8,sp")
    );
    assert_eq!(
        parse_listing("\n80000048 <report>:"),
        vec![Line::Label(0x8000_0048, "report".into())]
    );
    assert_eq!(
        parse_listing("Disassembly of section .text:"),
        vec![Line::Section(".text".into())]
    );
}
