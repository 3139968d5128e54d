//! Tile tests of the debug side: RISCV NC's accesses to Tensix windows, and the Config
//! read-back port tt-exalens uses.
use super::*;

/// README.md "Memory map": RISCV NC is not connected to the Tensix windows ("RISCV NC cannot
/// push instructions"); what the hardware does with such an access is not documented. A strict
/// tile stops at NC's push with an undefined-behaviour error at NC's pc; a permissive one reports
/// it once, drops the word (no thread receives it) and NC goes on to its next store.
#[test]
fn ncrisc_tensix_window_access_is_undefined_and_dropped_when_permissive() {
    let start = |t: &mut Tile| {
        let mut nc = store(0xFFE4_0000, 0x0200_0000); // a NOP word to INSTRN_BUF_BASE
        nc.extend(store(0xFFE4_0000, 0x0200_0000));
        nc.extend(store(0x3000, 0x1234)); // then an L1 store: NC went on
        nc.push(spin());
        load_prog(t, 0x12000, &nc);
        // Only NC out of reset (bit 18 clear): as after firmware writes 0 to SOFT_RESET_0.
        assert!(t.write_reg(0xFFB1_21B0, 0x7800, 0).is_ok());
    };

    let (mut t, mut noc) = tile();
    start(&mut t);
    let e = run(&mut t, &mut noc, 0, 40).err();
    assert_eq!(
        e.as_ref().map(|e| e.kind),
        Some(ErrorKind::Undefined),
        "{e:?}"
    );
    assert_eq!(e.as_ref().and_then(|e| e.loc.core), Some(Core::Ncrisc));
    assert_eq!(e.as_ref().and_then(|e| e.loc.addr), Some(0xFFE4_0000));
    assert_eq!(
        t.read_l1_u32(0x3000).ok(),
        Some(0),
        "strict: stopped at the push"
    );

    let (mut t, mut noc) = tile();
    t.set_strictness(Strictness::Permissive);
    start(&mut t);
    assert!(run(&mut t, &mut noc, 0, 40).is_ok());
    assert_eq!(t.read_l1_u32(0x3000).ok(), Some(0x1234), "NC went on");
    assert_eq!(
        t.coprocessor().dispatched(),
        [0, 0, 0],
        "no thread got the word"
    );
    assert_eq!(t.warnings().len(), 1, "reported once: {:?}", t.warnings());
    assert_eq!(t.warnings()[0].kind, ErrorKind::Undefined);
    assert_eq!(t.warnings()[0].loc.core, Some(Core::Ncrisc));
    assert_eq!(t.warnings()[0].loc.pc, Some(0x12010), "the first push");
}

/// tt-metal's Blackhole `tensix.h` `RISCV_DEBUG_REG_CFGREG_RD_CNTL` / `CFGREG_RDDATA` (how
/// tt-exalens reads Config): writing a word index latches that Config word (bank 0 first, as
/// the RISC-V Config window orders them) into RDDATA; a later change of the word does not show
/// until the next request. An index past Config is a typed error, not a read of zeros.
#[test]
fn cfgreg_rd_cntl_latches_the_config_word_into_rddata() {
    let (mut t, _noc) = tile();
    let cfg = &mut t.coprocessor_mut().state_mut().cfg;
    assert!(cfg.write_word_plain(0, 17, 0xCAFE_0017).is_some());
    assert!(cfg.write_word_plain(0, 60, 0x1234_5678).is_some());
    assert!(t.write_reg(0xFFB1_2058, 17, 0).is_ok());
    assert_eq!(t.read_reg(0xFFB1_2078, 0).ok(), Some(0xCAFE_0017));
    let cfg = &mut t.coprocessor_mut().state_mut().cfg;
    assert!(cfg.write_word_plain(0, 17, 0).is_some());
    assert_eq!(
        t.read_reg(0xFFB1_2078, 0).ok(),
        Some(0xCAFE_0017),
        "latched"
    );
    assert!(t.write_reg(0xFFB1_2058, 60, 0).is_ok());
    assert_eq!(t.read_reg(0xFFB1_2078, 0).ok(), Some(0x1234_5678));
    let e = t.write_reg(0xFFB1_2058, 0x4000_0000, 0).err();
    assert!(
        e.as_ref()
            .is_some_and(|e| e.message.contains("CFGREG_RD_CNTL")),
        "{e:?}"
    );
}
