//! `bhemu disasm --riscv FILE.elf`: an objdump-like listing of every executable section of a
//! RV32 ELF, with branch and jump targets labelled by the nearest symbol as objdump does.
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use bhemu_chip::elf::{CodeSection, ElfImage, Symbol, SymbolKind};

use crate::CliError;

/// Rank of a symbol when several share an address: objdump prefers (binutils objdump.c,
/// `compare_symbols`) global over local, and functions and objects over untyped labels.
fn symbol_rank(s: &Symbol) -> (u8, u8) {
    let kind = match s.kind {
        SymbolKind::Func => 2,
        SymbolKind::Object => 1,
        _ => 0,
    };
    (u8::from(s.global), kind)
}

/// Symbols sorted by address, one (the best-ranked) per address.
struct SymbolIndex<'a> {
    by_addr: Vec<&'a Symbol>,
}

impl<'a> SymbolIndex<'a> {
    fn new(image: &'a ElfImage, filter: impl Fn(&Symbol) -> bool) -> Self {
        let mut all: Vec<&Symbol> = image.symbols.iter().filter(|s| filter(s)).collect();
        // Best first within an address, so dedup keeps it.
        all.sort_by(|a, b| {
            a.addr
                .cmp(&b.addr)
                .then(symbol_rank(b).cmp(&symbol_rank(a)))
        });
        all.dedup_by_key(|s| s.addr);
        SymbolIndex { by_addr: all }
    }

    fn at(&self, addr: u32) -> Option<&'a Symbol> {
        self.by_addr
            .binary_search_by_key(&addr, |s| s.addr)
            .ok()
            .map(|i| self.by_addr[i])
    }

    /// The nearest symbol at or below `addr`.
    fn below(&self, addr: u32) -> Option<&'a Symbol> {
        let i = self.by_addr.partition_point(|s| s.addr <= addr);
        i.checked_sub(1).map(|i| self.by_addr[i])
    }
}

/// `<sym>` or `<sym+0x1c>` for a branch or jump target, as objdump prints it: the nearest
/// symbol at or below the target, taken from the section holding the target when it has one.
fn target_label(in_section: &SymbolIndex, all: &SymbolIndex, target: u32) -> Option<String> {
    let sym = in_section.below(target).or_else(|| all.below(target))?;
    let off = target - sym.addr;
    Some(if off == 0 {
        format!("<{}>", sym.name)
    } else {
        format!("<{}+0x{off:x}>", sym.name)
    })
}

fn disasm_section(image: &ElfImage, sec: &CodeSection, all: &SymbolIndex, out: &mut String) {
    let labels = SymbolIndex::new(image, |s| s.section == Some(sec.index));
    let _ = writeln!(out, "\nDisassembly of section {}:", sec.name);
    let sec_end = u64::from(sec.addr) + sec.data.len() as u64;
    let mut first = true;
    for (i, chunk) in sec.data.chunks(4).enumerate() {
        let pc = sec.addr.wrapping_add(4 * i as u32);
        if let Some(sym) = labels.at(pc) {
            let _ = writeln!(out, "\n{pc:08x} <{}>:", sym.name);
            first = false;
        } else if first {
            // objdump opens a section without a symbol with a label of the section name.
            let _ = writeln!(out, "\n{pc:08x} <{}>:", sec.name);
            first = false;
        }
        if chunk.len() < 4 {
            let hex: String = chunk.iter().rev().map(|b| format!("{b:02x}")).collect();
            let _ = writeln!(
                out,
                "{pc:08x}:\t{hex}\t.byte\t{}",
                chunk
                    .iter()
                    .map(|b| format!("0x{b:02x}"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            continue;
        }
        let word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        let d = bhemu_isa::riscv::disassemble(word, pc);
        let mut operands = d.operands.clone();
        if let Some(t) = d.target {
            // Label targets inside this image's symbols, like objdump's `8000002c <_start+0x2c>`.
            let sec_labels = if u64::from(t) >= u64::from(sec.addr) && u64::from(t) < sec_end {
                &labels
            } else {
                all
            };
            if let Some(l) = target_label(sec_labels, all, t) {
                operands.push(' ');
                operands.push_str(&l);
            }
        }
        let line = format!("{pc:08x}:\t{word:08x}\t{}\t{operands}", d.mnemonic);
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// `bhemu disasm --riscv FILE.elf`: objdump-like listing of every executable section.
pub fn disasm(path: &Path) -> Result<ExitCode, CliError> {
    let image = ElfImage::read(path).map_err(|e| CliError::new(e.to_string()))?;
    let all = SymbolIndex::new(&image, |_| true);
    let mut out = format!("\n{}:     file format elf32-littleriscv\n\n", image.file);
    for sec in &image.code_sections {
        disasm_section(&image, sec, &all, &mut out);
    }
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    Ok(ExitCode::SUCCESS)
}
