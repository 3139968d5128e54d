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
mod tests {
    use super::*;

    /// A minimal valid RV32 executable built by hand: ELF header, one PT_LOAD program header,
    /// 8 bytes of code (`addi a0,zero,1; ebreak`) at 0x1000, memsz 0x20 (bss), no sections.
    fn tiny_elf() -> Vec<u8> {
        let mut b = vec![0u8; 52 + 32 + 8];
        b[..4].copy_from_slice(&elf::ELFMAG);
        b[4] = elf::ELFCLASS32;
        b[5] = elf::ELFDATA2LSB;
        b[6] = elf::EV_CURRENT;
        let put16 =
            |b: &mut Vec<u8>, o: usize, v: u16| b[o..o + 2].copy_from_slice(&v.to_le_bytes());
        let put32 =
            |b: &mut Vec<u8>, o: usize, v: u32| b[o..o + 4].copy_from_slice(&v.to_le_bytes());
        put16(&mut b, 16, elf::ET_EXEC);
        put16(&mut b, 18, EM_RISCV);
        put32(&mut b, 20, 1); // e_version
        put32(&mut b, 24, 0x1000); // e_entry
        put32(&mut b, 28, 52); // e_phoff
        put16(&mut b, 40, 52); // e_ehsize
        put16(&mut b, 42, 32); // e_phentsize
        put16(&mut b, 44, 1); // e_phnum
        put16(&mut b, 46, 40); // e_shentsize
                               // program header at 52
        put32(&mut b, 52, elf::PT_LOAD);
        put32(&mut b, 56, 84); // p_offset
        put32(&mut b, 60, 0x1000); // p_vaddr
        put32(&mut b, 64, 0x1000); // p_paddr
        put32(&mut b, 68, 8); // p_filesz
        put32(&mut b, 72, 0x20); // p_memsz
        put32(&mut b, 76, 5); // p_flags R+X
        put32(&mut b, 84, 0x0010_0513); // addi a0, zero, 1
        put32(&mut b, 88, 0x0010_0073); // ebreak
        b
    }

    fn kind(bytes: &[u8]) -> ElfErrorKind {
        match ElfImage::parse(bytes, "t.elf") {
            Ok(_) => panic!("expected an error"),
            Err(e) => e.kind,
        }
    }

    #[test]
    fn parses_hand_built_executable() {
        let img = ElfImage::parse(&tiny_elf(), "t.elf").unwrap();
        assert_eq!(img.entry, 0x1000);
        assert_eq!(img.segments.len(), 1);
        assert_eq!(img.segments[0].data.len(), 8);
        assert_eq!(img.segments[0].mem_size, 0x20);
        assert!(img.check_fits(0, 1 << 20).is_ok());
        assert!(img.check_fits(0x1010, 1 << 20).is_err());
        assert!(img.check_fits(0, 0x1010).is_err());
    }

    #[test]
    fn empty_file_is_refused() {
        assert_eq!(kind(&[]), ElfErrorKind::Empty);
    }

    #[test]
    fn garbage_is_refused() {
        assert_eq!(
            kind(b"hello, world, this is not an ELF file at all"),
            ElfErrorKind::NotElf
        );
        assert_eq!(kind(&[0x7f]), ElfErrorKind::NotElf);
    }

    #[test]
    fn every_truncation_is_an_error_never_a_panic() {
        let full = tiny_elf();
        for len in 0..full.len() {
            let r = ElfImage::parse(&full[..len], "t.elf");
            assert!(r.is_err(), "truncated to {len} bytes was accepted");
            let msg = r.unwrap_err().to_string();
            assert!(msg.starts_with("t.elf: ") && !msg.contains('\n'), "{msg}");
        }
    }

    #[test]
    fn every_single_byte_corruption_is_handled() {
        // Flip each byte of the headers to several values: must return Ok or Err, never panic.
        let full = tiny_elf();
        for i in 0..84 {
            for v in [0u8, 1, 0x7f, 0x80, 0xff] {
                let mut b = full.clone();
                b[i] = v;
                let _ = ElfImage::parse(&b, "t.elf");
            }
        }
    }

    #[test]
    fn pseudo_random_garbage_after_a_valid_ident() {
        // xorshift32 (Marsaglia 2003) so the test is deterministic without a crate.
        let mut x = 0x1234_5678u32;
        for _ in 0..2000 {
            let mut b = tiny_elf();
            for byte in b.iter_mut().skip(16) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                if x & 7 == 0 {
                    *byte = x as u8;
                }
            }
            let _ = ElfImage::parse(&b, "t.elf");
        }
    }

    #[test]
    fn class64_big_endian_and_wrong_machine() {
        let mut b = tiny_elf();
        b[4] = elf::ELFCLASS64;
        assert_eq!(kind(&b), ElfErrorKind::Class64);
        let mut b = tiny_elf();
        b[5] = elf::ELFDATA2MSB;
        assert_eq!(kind(&b), ElfErrorKind::BigEndian);
        let mut b = tiny_elf();
        b[18..20].copy_from_slice(&elf::EM_X86_64.to_le_bytes());
        assert!(matches!(
            kind(&b),
            ElfErrorKind::WrongMachine { machine: 62, .. }
        ));
        let mut b = tiny_elf();
        b[16..18].copy_from_slice(&elf::ET_REL.to_le_bytes());
        assert!(matches!(kind(&b), ElfErrorKind::NotExecutable { .. }));
    }

    #[test]
    fn segment_sanity() {
        // filesz > memsz
        let mut b = tiny_elf();
        b[72..76].copy_from_slice(&4u32.to_le_bytes());
        assert!(matches!(kind(&b), ElfErrorKind::Malformed(_)));
        // wraps past 4 GiB
        let mut b = tiny_elf();
        b[64..68].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        assert!(matches!(kind(&b), ElfErrorKind::SegmentWraps { .. }));
        // file bytes beyond end of file
        let mut b = tiny_elf();
        b[56..60].copy_from_slice(&0x1000u32.to_le_bytes());
        assert!(matches!(kind(&b), ElfErrorKind::Malformed(_)));
        // entry outside
        let mut b = tiny_elf();
        b[24..28].copy_from_slice(&0x5000u32.to_le_bytes());
        assert_eq!(kind(&b), ElfErrorKind::EntryOutside { entry: 0x5000 });
        // no PT_LOAD
        let mut b = tiny_elf();
        b[52..56].copy_from_slice(&elf::PT_NOTE.to_le_bytes());
        assert_eq!(kind(&b), ElfErrorKind::NoLoadableSegments);
    }

    #[test]
    fn overlapping_segments_are_refused() {
        // Two program headers describing the same bytes.
        let mut b = tiny_elf();
        let ph: Vec<u8> = b[52..84].to_vec();
        b.truncate(84);
        b.extend_from_slice(&ph);
        b.extend_from_slice(&0x0010_0513u32.to_le_bytes());
        b.extend_from_slice(&0x0010_0073u32.to_le_bytes());
        b[44..46].copy_from_slice(&2u16.to_le_bytes());
        for o in [56usize, 88] {
            b[o..o + 4].copy_from_slice(&116u32.to_le_bytes());
        }
        assert!(matches!(kind(&b), ElfErrorKind::Overlap { .. }));
    }

    #[test]
    fn host_binary_is_refused_as_wrong_machine() {
        // An x86 (or other non-RISC-V) ELF from the host, when there is one.
        let Ok(bytes) = std::fs::read("/bin/true") else {
            return;
        };
        match kind(&bytes) {
            ElfErrorKind::WrongMachine { .. } | ElfErrorKind::Class64 => {}
            other => panic!("unexpected: {other}"),
        }
    }

    #[test]
    fn toolchain_built_files() {
        // 64-bit RISC-V and a real RV32 executable, when the cross compiler is installed.
        let dir = std::env::temp_dir().join(format!("bhemu-elf-test-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let src = dir.join("t.c");
        if std::fs::write(&src, "void _start(void){ for(;;); }\nint tohost[2];\n").is_err() {
            return;
        }
        let build = |march: &str, abi: &str, out: &str| {
            std::process::Command::new("riscv64-unknown-elf-gcc")
                .arg(format!("-march={march}"))
                .arg(format!("-mabi={abi}"))
                .args(["-nostdlib", "-O2", "-o"])
                .arg(dir.join(out))
                .arg(&src)
                .status()
                .map(|s| s.success())
                .unwrap_or(false)
        };
        if !build("rv64imac", "lp64", "t64.elf") || !build("rv32im", "ilp32", "t32.elf") {
            let _ = std::fs::remove_dir_all(&dir);
            // CI sets BHEMU_REQUIRE_TOOLS=1 (scripts/test.sh): a missing toolchain must fail there.
            assert!(
                std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() != Ok("1"),
                "BHEMU_REQUIRE_TOOLS=1 but riscv64-unknown-elf-gcc could not build a test program"
            );
            eprintln!("skipped: riscv64-unknown-elf-gcc not found");
            return;
        }
        let e64 = ElfImage::read(&dir.join("t64.elf")).unwrap_err();
        assert_eq!(e64.kind, ElfErrorKind::Class64);
        assert!(e64.to_string().contains("t64.elf: 64-bit ELF"), "{e64}");
        let img = ElfImage::read(&dir.join("t32.elf")).unwrap();
        let start = img.symbol("_start").unwrap();
        assert_eq!(start.addr, img.entry);
        assert_eq!(img.symbol("tohost").map(|s| s.size), Some(8));
        assert!(img.code_sections.iter().any(|s| s.name == ".text"));
        let missing = ElfImage::read(&dir.join("nope.elf")).unwrap_err();
        assert!(matches!(missing.kind, ElfErrorKind::Io(_)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
