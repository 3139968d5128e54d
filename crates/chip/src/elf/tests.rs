use super::*;

/// A minimal valid RV32 executable built by hand: ELF header, one PT_LOAD program header,
/// 8 bytes of code (`addi a0,zero,1; ebreak`) at 0x1000, memsz 0x20 (bss), no sections.
fn tiny_elf() -> Vec<u8> {
    let mut b = vec![0u8; 52 + 32 + 8];
    b[..4].copy_from_slice(&elf::ELFMAG);
    b[4] = elf::ELFCLASS32;
    b[5] = elf::ELFDATA2LSB;
    b[6] = elf::EV_CURRENT;
    let put16 = |b: &mut Vec<u8>, o: usize, v: u16| b[o..o + 2].copy_from_slice(&v.to_le_bytes());
    let put32 = |b: &mut Vec<u8>, o: usize, v: u32| b[o..o + 4].copy_from_slice(&v.to_le_bytes());
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
