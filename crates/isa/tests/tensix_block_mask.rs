//! Wait Gate block categories B0–B8: docs/wait-gate.md table, cross-checked against the
//! STALLWAIT.md pages of tt-isa-documentation (jasondavies fork, BlackholeA0/WormholeB0).
use bhemu_isa::tensix::{block, lookup_name, opcodes, table, Arch, ExUnit};

const THCON_B0_B5: &[&str] = &[
    "ATCAS",
    "ATINCGET",
    "ATINCGETPTR",
    "ATSWAP",
    "DMANOP",
    "LOADIND",
    "LOADREG",
    "REG2FLOP",
    "SETDMAREG",
    "STOREIND",
    "STOREREG",
    "ADDDMAREG",
    "SUBDMAREG",
    "MULDMAREG",
    "BITWOPDMAREG",
    "SHIFTDMAREG",
    "CMPDMAREG",
];

/// docs/wait-gate.md "stall_res — Block Mask": the instructions each bit names ("arithmetic DMA ops"
/// spelled out; RMWCIB is RMWCIB0..3; SFP* is every SFPU instruction).
fn wait_gate_doc_rows() -> Vec<(u16, Vec<&'static str>)> {
    let mut b0 = vec![
        "ADDRCRXY",
        "ADDRCRZW",
        "INCADCXY",
        "INCADCZW",
        "RSTDMA",
        "SETADC",
        "SETADCXX",
        "SETADCXY",
        "SETADCZW",
        "SETDVALID",
        "XMOV",
        "PACR",
        "PACR_SETREG",
    ];
    b0.extend_from_slice(THCON_B0_B5);
    vec![
        (block::TDMA, b0),
        (
            block::SYNC,
            vec![
                "ATGETM",
                "ATRELM",
                "SEMGET",
                "SEMINIT",
                "SEMPOST",
                "SEMWAIT",
                "STALLWAIT",
                "STREAMWAIT",
            ],
        ),
        (block::PACK, vec!["PACR", "PACR_SETREG"]),
        (block::UNPACK, vec!["UNPACR", "UNPACR_NOP"]),
        (block::XMOV, vec!["XMOV"]),
        (
            block::THCON,
            vec![
                "ADDDMAREG",
                "ATCAS",
                "ATINCGET",
                "ATINCGETPTR",
                "ATSWAP",
                "BITWOPDMAREG",
                "CMPDMAREG",
                "DMANOP",
                "FLUSHDMA",
                "LOADIND",
                "LOADREG",
                "MULDMAREG",
                "REG2FLOP",
                "SETDMAREG",
                "SHIFTDMAREG",
                "STOREIND",
                "STOREREG",
                "SUBDMAREG",
            ],
        ),
        (
            block::MATH,
            vec![
                "APOOL3S1",
                "APOOL3S2",
                "CLEARDVALID",
                "CLREXPHIST",
                "CONV3S1",
                "CONV3S2",
                "DOTPV",
                "ELWADD",
                "ELWMUL",
                "ELWSUB",
                "GAPOOL",
                "GATESRCRST",
                "GMPOOL",
                "INCRWC",
                "MFCONV3S1",
                "MOVA2D",
                "MOVB2A",
                "MOVB2D",
                "MOVD2A",
                "MOVDBGA2D",
                "MPOOL3S1",
                "MPOOL3S2",
                "MVMUL",
                "SETRWC",
                "SHIFTXA",
                "SHIFTXB",
                "TRNSPSRCB",
                "ZEROACC",
                "ZEROSRC",
            ],
        ),
        (
            block::CFG,
            vec![
                "CFGSHIFTMASK",
                "RDCFG",
                "RMWCIB0",
                "RMWCIB1",
                "RMWCIB2",
                "RMWCIB3",
                "SETC16",
                "WRCFG",
                "STREAMWRCFG",
            ],
        ),
    ]
}

fn bits(arch: Arch, name: &str) -> Option<u16> {
    lookup_name(arch, name).map(|d| d.block_bits)
}

/// docs/wait-gate.md: every instruction a bit names is blocked by that bit (on each architecture
/// that has the instruction; STREAMWAIT, CFGSHIFTMASK, STREAMWRCFG are Blackhole-only).
#[test]
fn wait_gate_block_mask_table_holds() {
    for arch in Arch::ALL {
        for (bit, names) in wait_gate_doc_rows() {
            for name in names {
                let Some(b) = bits(arch, name) else {
                    assert!(arch == Arch::WormholeB0, "{name} missing on {arch:?}");
                    continue;
                };
                // Wormhole's SEMWAIT: see wormhole_semwait_is_blocked_by_b1_only.
                if arch == Arch::WormholeB0 && name == "SEMWAIT" && bit == block::TDMA {
                    continue;
                }
                assert_ne!(b & bit, 0, "{arch:?} {name} should be blocked by {bit:#x}");
            }
        }
    }
}

/// docs/wait-gate.md: B8 blocks all SFP* instructions, and only those have it (with the
/// everything-blocked STALLWAIT/SEMWAIT/STREAMWAIT/NOP).
#[test]
fn wait_gate_b8_is_every_sfp_instruction() {
    for arch in Arch::ALL {
        for d in table(arch) {
            let sfp = d.name.starts_with("SFP");
            assert_eq!(sfp, d.unit == ExUnit::Sfpu, "{}", d.name);
            if sfp {
                assert_eq!(d.block_bits, block::SFPU, "{}", d.name);
            } else if d.block_bits != block::ALL {
                assert_eq!(d.block_bits & block::SFPU, 0, "{}", d.name);
            }
        }
    }
}

/// Instructions docs/wait-gate.md names get exactly the bits it gives them, except where
/// STALLWAIT.md's per-instruction table adds B0: its B0 row reads "Miscellaneous Unit,
/// Mover, Scalar Unit, Packer, or Unpacker", and it marks UNPACR, UNPACR_NOP and FLUSHDMA
/// with B0 as well.
#[test]
fn wait_gate_named_instructions_have_no_other_bits() {
    let rows = wait_gate_doc_rows();
    for d in table(Arch::Blackhole) {
        let mut expected: u16 = rows
            .iter()
            .filter(|(_, n)| n.contains(&d.name))
            .map(|(b, _)| b)
            .sum();
        if expected == 0 {
            continue;
        }
        use bhemu_isa::tensix::blackhole::Insn as I;
        let insn = I::decode(u32::from(d.opcode) << 24);
        if matches!(
            insn,
            I::Unpacr { .. } | I::UnpacrNop { .. } | I::Flushdma { .. }
        ) {
            expected |= block::TDMA;
        }
        if matches!(
            insn,
            I::Stallwait { .. } | I::Semwait { .. } | I::Streamwait { .. }
        ) {
            expected = block::ALL;
        }
        assert_eq!(d.block_bits, expected, "{}", d.name);
    }
}

/// docs/wait-gate.md "Special cases": NOP is blocked only if all of B0–B8 are set (it carries
/// `block::ALL`, which the gate must compare for equality, not overlap).
#[test]
fn nop_carries_all_bits() {
    for arch in Arch::ALL {
        assert_eq!(bits(arch, "NOP"), Some(block::ALL));
        // Not NOPs for this purpose: their own units' bits.
        assert_eq!(bits(arch, "DMANOP"), Some(block::TDMA | block::THCON));
        assert_eq!(bits(arch, "SFPNOP"), Some(block::SFPU));
    }
}

/// docs/wait-gate.md "Special cases": MOP, MOP_CFG, REPLAY, RESOURCEDECL are never blocked.
#[test]
fn mop_mop_cfg_replay_resourcedecl_are_never_blocked() {
    for arch in Arch::ALL {
        for name in ["MOP", "MOP_CFG", "REPLAY", "RESOURCEDECL"] {
            if let Some(b) = bits(arch, name) {
                assert_eq!(b, 0, "{arch:?} {name}");
            }
        }
    }
}

/// docs/wait-gate.md "Special cases": STALLWAIT and SEMWAIT are blocked by any set bit
/// (BlackholeA0 STALLWAIT.md: all of B0–B8; also STREAMWAIT).
#[test]
fn stallwait_semwait_blocked_by_any_bit() {
    assert_eq!(bits(Arch::Blackhole, "STALLWAIT"), Some(block::ALL));
    assert_eq!(bits(Arch::Blackhole, "SEMWAIT"), Some(block::ALL));
    assert_eq!(bits(Arch::Blackhole, "STREAMWAIT"), Some(block::ALL));
    assert_eq!(bits(Arch::WormholeB0, "STALLWAIT"), Some(block::ALL));
}

/// WormholeB0 STALLWAIT.md differs from Blackhole: its SEMWAIT row marks B1 only.
#[test]
fn wormhole_semwait_is_blocked_by_b1_only() {
    assert_eq!(bits(Arch::WormholeB0, "SEMWAIT"), Some(block::SYNC));
}

/// Instructions absent from both docs/wait-gate.md and STALLWAIT.md take their unit's bits
/// (`ex_resource`): Matrix Unit → B6, Packer (TBUFCMD) → B0|B2.
#[test]
fn undocumented_instructions_follow_their_unit() {
    for arch in Arch::ALL {
        for name in [
            "SETASHRMH0",
            "SETASHRMH1",
            "SETASHRMV",
            "SETASHRMH",
            "SETPKEDGOF",
            "TRNSPSRCA",
            "RAREB",
            "SETIBRWC",
            "MOVDBGB2D",
        ] {
            if let Some(b) = bits(arch, name) {
                assert_eq!(b, block::MATH, "{name}");
            }
        }
        assert_eq!(bits(arch, "TBUFCMD"), Some(block::TDMA | block::PACK));
    }
}

/// Every instruction with a category is blocked by at least one bit, and bits stay in B0–B8.
#[test]
fn every_category_is_within_b0_to_b8() {
    for arch in Arch::ALL {
        for d in table(arch) {
            assert_eq!(d.block_bits & !block::ALL, 0, "{}", d.name);
            let never = matches!(
                d.opcode,
                opcodes::MOP | opcodes::MOP_CFG | opcodes::REPLAY | opcodes::RESOURCEDECL
            );
            assert_eq!(d.block_bits == 0, never, "{}", d.name);
        }
    }
}

/// `blocked_by` applies the NOP special case; everything else blocks on any shared bit.
#[test]
fn blocked_by_applies_the_nop_special_case() {
    use bhemu_isa::tensix::decode;
    for arch in Arch::ALL {
        let nop = lookup_name(arch, "NOP").unwrap();
        assert!(nop.blocked_by(block::ALL));
        assert!(!nop.blocked_by(block::ALL & !block::SFPU));
        assert!(!nop.blocked_by(block::MATH));
        let sw = lookup_name(arch, "STALLWAIT").unwrap();
        for bit in 0..9 {
            assert!(sw.blocked_by(1 << bit));
        }
        let wrcfg = lookup_name(arch, "WRCFG").unwrap();
        assert!(wrcfg.blocked_by(block::CFG));
        assert!(!wrcfg.blocked_by(block::MATH | block::SFPU | block::SYNC));
        let pacr = lookup_name(arch, "PACR").unwrap();
        assert!(pacr.blocked_by(block::TDMA) && pacr.blocked_by(block::PACK));
        let replay = lookup_name(arch, "REPLAY").unwrap();
        assert!(!replay.blocked_by(block::ALL));
        // ttsemwait 322, 2, 2 (B1|B6|B8) holds MVMUL and SFP*, not WRCFG.
        assert!(decode(arch, 0x2600_0000).blocked_by(0x142));
        assert!(decode(arch, 0x7000_0000).blocked_by(0x142));
        assert!(!decode(arch, 0xb000_0000).blocked_by(0x142));
        assert!(!decode(arch, 0x0700_0000).blocked_by(block::ALL));
    }
}
