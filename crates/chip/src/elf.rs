//! ELF loading: turns a 32-bit little-endian RISC-V executable into plain data (load segments,
//! entry point, symbols, code sections) that a memory model and a disassembler can consume.
//!
//! Parsing goes through the `object` crate's low-level ELF reader, which bounds-checks every
//! read; on top of it this module checks what a loader needs (class, byte order, machine, type,
//! segment sizes, overlaps, the entry point) so that any file, however broken, ends in a typed
//! [`ElfError`] whose `Display` is one line naming the file and the reason. Nothing here panics.
//!
//! Field meanings: System V gABI "ELF Header", "Program Header", "Symbol Table"
//! (<https://www.sco.com/developers/gabi/latest/contents.html>); `EM_RISCV` = 243 from the
//! RISC-V ELF psABI (<https://github.com/riscv-non-isa/riscv-elf-psabi-doc>).
use std::path::Path;

use object::elf::{self, FileHeader32};
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::LittleEndian as LE;

/// `e_machine` of RISC-V (psABI, "ELF Object Files").
pub const EM_RISCV: u16 = 243;
/// `e_flags` bit: the program uses compressed (RVC) instructions, which the baby cores lack
/// (psABI "e_flags"). The loader reports it; the CLI may warn.
pub const EF_RISCV_RVC: u32 = 0x1;
/// Offsets in `e_ident` (gABI "ELF Identification").
const EI_CLASS: usize = 4;
const EI_DATA: usize = 5;

/// Why a file could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ElfErrorKind {
    #[error("cannot read file: {0}")]
    Io(String),
    #[error("empty file (0 bytes), not an ELF executable")]
    Empty,
    #[error("not an ELF file (no \\x7fELF magic)")]
    NotElf,
    #[error("truncated or malformed ELF: {0}")]
    Malformed(String),
    #[error("64-bit ELF (ELFCLASS64); bhemu runs 32-bit RISC-V (RV32) programs")]
    Class64,
    #[error("big-endian ELF (ELFDATA2MSB); RISC-V programs are little-endian")]
    BigEndian,
    #[error("machine {machine} ({name}) is not RISC-V (EM_RISCV = 243)")]
    WrongMachine { machine: u16, name: &'static str },
    #[error("ELF type {e_type} ({name}) is not an executable (ET_EXEC); link the program first")]
    NotExecutable { e_type: u16, name: &'static str },
    #[error("no loadable (PT_LOAD) segment with a non-zero size")]
    NoLoadableSegments,
    #[error(
        "load segment at 0x{addr:08x} (0x{size:x} bytes) runs past the end of the 32-bit address space"
    )]
    SegmentWraps { addr: u64, size: u64 },
    #[error(
        "load segments overlap: 0x{a_start:08x}..0x{a_end:08x} and 0x{b_start:08x}..0x{b_end:08x}"
    )]
    Overlap {
        a_start: u32,
        a_end: u64,
        b_start: u32,
        b_end: u64,
    },
    #[error("entry point 0x{entry:08x} lies outside every load segment")]
    EntryOutside { entry: u32 },
    #[error(
        "load segment 0x{seg_start:08x}..0x{seg_end:08x} lies outside RAM 0x{ram_start:08x}..0x{ram_end:08x}"
    )]
    OutsideMemory {
        seg_start: u32,
        seg_end: u64,
        ram_start: u32,
        ram_end: u64,
    },
}

/// A load failure: the file (as the user named it) and the reason. Displays as one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {kind}")]
pub struct ElfError {
    pub file: String,
    pub kind: ElfErrorKind,
}

/// One PT_LOAD segment: `data` goes at `addr`, followed by zeros up to `mem_size` (the bss).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Load (physical) address, `p_paddr`: where a bare-metal loader puts the bytes, as Spike's
    /// and QEMU's ELF loaders do. For the programs we build it equals `p_vaddr`.
    pub addr: u32,
    /// `p_vaddr`, kept for display.
    pub vaddr: u32,
    /// The file bytes (`p_filesz` of them).
    pub data: Vec<u8>,
    /// Bytes the segment occupies in memory (`p_memsz` ≥ `data.len()`).
    pub mem_size: u32,
    /// `p_flags` (PF_X = 1, PF_W = 2, PF_R = 4).
    pub flags: u32,
}

impl Segment {
    /// One past the last byte, as u64 so that a segment ending at 4 GiB is representable.
    pub fn end(&self) -> u64 {
        u64::from(self.addr) + u64::from(self.mem_size)
    }
}

/// What a symbol names (`STT_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    NoType,
    Object,
    Func,
    Other,
}

/// A defined, named symbol of `.symtab`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub addr: u32,
    pub size: u32,
    pub kind: SymbolKind,
    /// STB_GLOBAL or STB_WEAK (not STB_LOCAL).
    pub global: bool,
    /// Index of the section the symbol is defined in; `None` for absolute symbols.
    pub section: Option<usize>,
}

/// An executable (SHF_EXECINSTR) section with file contents, for disassembly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeSection {
    pub name: String,
    /// Section header index, to match [`Symbol::section`].
    pub index: usize,
    pub addr: u32,
    pub data: Vec<u8>,
}

/// A parsed executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElfImage {
    /// The file name as given, for messages.
    pub file: String,
    pub entry: u32,
    /// `e_flags` (see [`EF_RISCV_RVC`]).
    pub flags: u32,
    /// Non-empty PT_LOAD segments, sorted by address, non-overlapping.
    pub segments: Vec<Segment>,
    /// Defined named symbols, in symbol-table order (RISC-V mapping symbols `$x`/`$d` dropped).
    pub symbols: Vec<Symbol>,
    /// Executable sections in section-header order.
    pub code_sections: Vec<CodeSection>,
}

impl ElfImage {
    /// Read and parse `path`.
    pub fn read(path: &Path) -> Result<ElfImage, ElfError> {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| ElfError {
            file: file.clone(),
            kind: ElfErrorKind::Io(e.to_string()),
        })?;
        ElfImage::parse(&bytes, &file)
    }

    /// Parse an ELF held in memory; `file` names it in errors.
    pub fn parse(bytes: &[u8], file: &str) -> Result<ElfImage, ElfError> {
        parse_inner(bytes, file).map_err(|kind| ElfError {
            file: file.to_string(),
            kind,
        })
    }

    /// The symbol called `name`, preferring a global definition over local ones.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        let mut found = None;
        for s in self.symbols.iter().filter(|s| s.name == name) {
            if s.global {
                return Some(s);
            }
            found.get_or_insert(s);
        }
        found
    }

    /// Lowest load address of any segment.
    pub fn lowest_addr(&self) -> u32 {
        self.segments.iter().map(|s| s.addr).min().unwrap_or(0)
    }

    /// Check that every segment lies in RAM `[base, base + size)`; the error names the first
    /// segment that does not.
    pub fn check_fits(&self, base: u32, size: u64) -> Result<(), ElfError> {
        let ram_end = u64::from(base) + size;
        for s in &self.segments {
            if s.addr < base || s.end() > ram_end {
                return Err(ElfError {
                    file: self.file.clone(),
                    kind: ElfErrorKind::OutsideMemory {
                        seg_start: s.addr,
                        seg_end: s.end(),
                        ram_start: base,
                        ram_end,
                    },
                });
            }
        }
        Ok(())
    }
}

fn malformed(what: impl Into<String>) -> ElfErrorKind {
    ElfErrorKind::Malformed(what.into())
}

/// Common `e_machine` values, so that "machine 62 (x86-64)" tells the user what they passed.
fn machine_name(m: u16) -> &'static str {
    match m {
        elf::EM_386 => "x86",
        elf::EM_X86_64 => "x86-64",
        elf::EM_ARM => "ARM",
        elf::EM_AARCH64 => "AArch64",
        elf::EM_MIPS => "MIPS",
        elf::EM_PPC => "PowerPC",
        elf::EM_PPC64 => "PowerPC64",
        elf::EM_XTENSA => "Xtensa",
        elf::EM_NONE => "none",
        _ => "unknown",
    }
}

fn type_name(t: u16) -> &'static str {
    match t {
        elf::ET_NONE => "ET_NONE",
        elf::ET_REL => "ET_REL, a relocatable object",
        elf::ET_DYN => "ET_DYN, a shared object or PIE",
        elf::ET_CORE => "ET_CORE, a core dump",
        _ => "unknown",
    }
}

fn parse_inner(bytes: &[u8], file: &str) -> Result<ElfImage, ElfErrorKind> {
    // Look at e_ident ourselves first: it lets the message say *why* a file is refused
    // (gABI "ELF Identification": magic, EI_CLASS at 4, EI_DATA at 5).
    if bytes.is_empty() {
        return Err(ElfErrorKind::Empty);
    }
    if bytes.len() < 4 || bytes[..4] != elf::ELFMAG {
        return Err(ElfErrorKind::NotElf);
    }
    match bytes.get(EI_CLASS) {
        None => return Err(malformed("file ends inside e_ident")),
        Some(&elf::ELFCLASS32) => {}
        Some(&elf::ELFCLASS64) => return Err(ElfErrorKind::Class64),
        Some(c) => return Err(malformed(format!("unknown ELF class {c}"))),
    }
    match bytes.get(EI_DATA) {
        None => return Err(malformed("file ends inside e_ident")),
        Some(&elf::ELFDATA2LSB) => {}
        Some(&elf::ELFDATA2MSB) => return Err(ElfErrorKind::BigEndian),
        Some(d) => return Err(malformed(format!("unknown ELF data encoding {d}"))),
    }
    let header = FileHeader32::<LE>::parse(bytes).map_err(|e| malformed(e.to_string()))?;
    let endian = LE;
    let machine = header.e_machine(endian);
    if machine != EM_RISCV {
        return Err(ElfErrorKind::WrongMachine {
            machine,
            name: machine_name(machine),
        });
    }
    let e_type = header.e_type(endian);
    if e_type != elf::ET_EXEC {
        return Err(ElfErrorKind::NotExecutable {
            e_type,
            name: type_name(e_type),
        });
    }

    let segments = load_segments(header, bytes)?;
    let entry = header.e_entry(endian);
    if !segments
        .iter()
        .any(|s| s.addr <= entry && u64::from(entry) < s.end())
    {
        return Err(ElfErrorKind::EntryOutside { entry });
    }

    let sections = header
        .sections(endian, bytes)
        .map_err(|e| malformed(e.to_string()))?;
    let mut code_sections = Vec::new();
    for (index, sh) in sections.iter().enumerate() {
        let flags = sh.sh_flags(endian);
        let want = sh.sh_type(endian) == elf::SHT_PROGBITS
            && flags & elf::SHF_EXECINSTR != 0
            && flags & elf::SHF_ALLOC != 0;
        if !want {
            continue;
        }
        let name = sections
            .section_name(endian, sh)
            .map_err(|e| malformed(e.to_string()))?;
        let data = sh.data(endian, bytes).map_err(|_| {
            malformed(format!(
                "section {} extends beyond the end of the file",
                String::from_utf8_lossy(name)
            ))
        })?;
        code_sections.push(CodeSection {
            name: String::from_utf8_lossy(name).into_owned(),
            index,
            addr: sh.sh_addr(endian),
            data: data.to_vec(),
        });
    }

    let symtab = sections
        .symbols(endian, bytes, elf::SHT_SYMTAB)
        .map_err(|e| malformed(e.to_string()))?;
    let mut symbols = Vec::new();
    for sym in symtab.iter() {
        let shndx = sym.st_shndx(endian);
        let st_type = sym.st_type();
        if shndx == elf::SHN_UNDEF || st_type == elf::STT_SECTION || st_type == elf::STT_FILE {
            continue;
        }
        let name = symtab
            .symbol_name(endian, sym)
            .map_err(|e| malformed(e.to_string()))?;
        // `$x`/`$d` (optionally `$x.<n>`, `$xrv32i…`) are mapping symbols marking code and data,
        // not names (psABI "Mapping Symbol"); objdump does not print them as labels either.
        if name.is_empty() || name.starts_with(b"$") {
            continue;
        }
        let kind = match st_type {
            elf::STT_NOTYPE => SymbolKind::NoType,
            elf::STT_OBJECT => SymbolKind::Object,
            elf::STT_FUNC => SymbolKind::Func,
            _ => SymbolKind::Other,
        };
        let section = if shndx == elf::SHN_ABS || shndx >= elf::SHN_LORESERVE {
            None
        } else {
            Some(usize::from(shndx))
        };
        symbols.push(Symbol {
            name: String::from_utf8_lossy(name).into_owned(),
            addr: sym.st_value(endian),
            size: sym.st_size(endian),
            kind,
            global: sym.st_bind() != elf::STB_LOCAL,
            section,
        });
    }

    Ok(ElfImage {
        file: file.to_string(),
        entry,
        flags: header.e_flags(endian),
        segments,
        symbols,
        code_sections,
    })
}

fn load_segments(header: &FileHeader32<LE>, bytes: &[u8]) -> Result<Vec<Segment>, ElfErrorKind> {
    let endian = LE;
    let phdrs = header
        .program_headers(endian, bytes)
        .map_err(|e| malformed(e.to_string()))?;
    let mut segments = Vec::new();
    for (i, ph) in phdrs.iter().enumerate() {
        if ph.p_type(endian) != elf::PT_LOAD {
            continue;
        }
        let filesz = ph.p_filesz(endian);
        let memsz = ph.p_memsz(endian);
        if filesz > memsz {
            return Err(malformed(format!(
                "segment {i}: file size 0x{filesz:x} exceeds memory size 0x{memsz:x}"
            )));
        }
        if memsz == 0 {
            continue;
        }
        let addr = ph.p_paddr(endian);
        if u64::from(addr) + u64::from(memsz) > 1u64 << 32 {
            return Err(ElfErrorKind::SegmentWraps {
                addr: addr.into(),
                size: memsz.into(),
            });
        }
        let data = ph.data(endian, bytes).map_err(|()| {
            malformed(format!(
                "segment {i}'s bytes extend beyond the end of the file"
            ))
        })?;
        segments.push(Segment {
            addr,
            vaddr: ph.p_vaddr(endian),
            data: data.to_vec(),
            mem_size: memsz,
            flags: ph.p_flags(endian),
        });
    }
    if segments.is_empty() {
        return Err(ElfErrorKind::NoLoadableSegments);
    }
    segments.sort_by_key(|s| s.addr);
    for pair in segments.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.end() > u64::from(b.addr) {
            return Err(ElfErrorKind::Overlap {
                a_start: a.addr,
                a_end: a.end(),
                b_start: b.addr,
                b_end: b.end(),
            });
        }
    }
    Ok(segments)
}

#[cfg(test)]
mod tests;
