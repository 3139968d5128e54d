//! Table facts: counts, opcodes, field layout, lookups (docs/blackhole-facts.md §11, tt-llk YAML).
use bhemu_isa::tensix::{self, lookup, lookup_name, opcodes, table, Arch, ExUnit};

#[test]
fn blackhole_has_137_instructions() {
    assert_eq!(table(Arch::Blackhole).len(), 137);
}

#[test]
fn wormhole_has_128_instructions() {
    assert_eq!(table(Arch::WormholeB0).len(), 128);
}

/// docs/blackhole-facts.md §11: nine instructions are Blackhole-only; Wormhole has none of its own.
#[test]
fn nine_instructions_are_blackhole_only() {
    let wh: Vec<&str> = table(Arch::WormholeB0).iter().map(|d| d.name).collect();
    let mut only: Vec<&str> = table(Arch::Blackhole)
        .iter()
        .map(|d| d.name)
        .filter(|n| !wh.contains(n))
        .collect();
    only.sort_unstable();
    assert_eq!(
        only,
        [
            "CFGSHIFTMASK",
            "MOVDBGB2D",
            "RESOURCEDECL",
            "SFPARECIP",
            "SFPGT",
            "SFPLE",
            "SFPMUL24",
            "STREAMWAIT",
            "STREAMWRCFG"
        ]
    );
    for d in table(Arch::WormholeB0) {
        assert!(lookup_name(Arch::Blackhole, d.name).is_some(), "{}", d.name);
    }
}

#[test]
fn opcode_constants_match_both_tables() {
    let named = [
        ("MOP", opcodes::MOP),
        ("NOP", opcodes::NOP),
        ("MOP_CFG", opcodes::MOP_CFG),
        ("REPLAY", opcodes::REPLAY),
        ("RESOURCEDECL", opcodes::RESOURCEDECL),
        ("MOVD2A", opcodes::MOVD2A),
        ("PACR", opcodes::PACR),
        ("UNPACR", opcodes::UNPACR),
        ("SETDMAREG", opcodes::SETDMAREG),
        ("DMANOP", opcodes::DMANOP),
        ("SFPNOP", opcodes::SFPNOP),
        ("ATGETM", opcodes::ATGETM),
        ("ATRELM", opcodes::ATRELM),
        ("STALLWAIT", opcodes::STALLWAIT),
        ("SEMINIT", opcodes::SEMINIT),
        ("SEMPOST", opcodes::SEMPOST),
        ("SEMGET", opcodes::SEMGET),
        ("SEMWAIT", opcodes::SEMWAIT),
        ("STREAMWAIT", opcodes::STREAMWAIT),
        ("WRCFG", opcodes::WRCFG),
        ("SETC16", opcodes::SETC16),
    ];
    for arch in Arch::ALL {
        for (name, op) in named {
            let blackhole_only = matches!(op, opcodes::RESOURCEDECL | opcodes::STREAMWAIT);
            match lookup_name(arch, name) {
                Some(d) => assert_eq!(d.opcode, op, "{arch:?} {name}"),
                None => assert!(
                    arch == Arch::WormholeB0 && blackhole_only,
                    "{arch:?} {name}"
                ),
            }
            if !(arch == Arch::WormholeB0 && blackhole_only) {
                assert_eq!(lookup(arch, op).map(|d| d.name), Some(name));
            }
        }
    }
}

/// docs/wait-gate.md "Instruction Encodings": STALLWAIT stall_res [23:15], wait_res [14:0] by the
/// width rule; SEMWAIT stall_res [23:15], sem_sel [14:2], wait_sem_cond [1:0].
#[test]
fn stallwait_and_semwait_field_layout() {
    for arch in Arch::ALL {
        let sw = lookup(arch, opcodes::STALLWAIT).unwrap();
        let f: Vec<_> = sw
            .fields
            .iter()
            .map(|f| (f.name, f.start_bit, f.width))
            .collect();
        assert_eq!(f, [("stall_res", 15, 9), ("wait_res", 0, 15)]);
        let sem = lookup(arch, opcodes::SEMWAIT).unwrap();
        let f: Vec<_> = sem
            .fields
            .iter()
            .map(|f| (f.name, f.start_bit, f.width))
            .collect();
        assert_eq!(
            f,
            [
                ("stall_res", 15, 9),
                ("sem_sel", 2, 13),
                ("wait_sem_cond", 0, 2)
            ]
        );
        assert_eq!(sem.unit, ExUnit::Sync);
    }
}

/// docs/blackhole-facts.md §11: MVMUL's addr_mode moved between architectures.
#[test]
fn mvmul_addr_mode_differs_between_architectures() {
    let bh = lookup_name(Arch::Blackhole, "MVMUL")
        .unwrap()
        .field("addr_mode")
        .unwrap();
    let wh = lookup_name(Arch::WormholeB0, "MVMUL")
        .unwrap()
        .field("addr_mode")
        .unwrap();
    assert_eq!((bh.start_bit, bh.width), (14, 5));
    assert_eq!((wh.start_bit, wh.width), (15, 4));
}

/// A field runs to the next field's start bit, or to bit 24: fields tile the bits from the
/// lowest start bit up to 23, without overlap, listed in descending start-bit order.
#[test]
fn fields_tile_the_word_in_descending_order() {
    for arch in Arch::ALL {
        for d in table(arch) {
            let mut top = 24u8;
            for f in d.fields {
                assert!(f.width > 0, "{}", d.name);
                assert_eq!(f.start_bit + f.width, top, "{} {}", d.name, f.name);
                top = f.start_bit;
            }
            let covered: u32 = d.fields.iter().map(|f| f.mask()).sum();
            assert_eq!(covered | d.reserved_mask(), 0x00ff_ffff, "{}", d.name);
            assert_eq!(covered & d.reserved_mask(), 0, "{}", d.name);
        }
    }
}

#[test]
fn table_is_sorted_by_opcode_and_lookup_agrees() {
    for arch in Arch::ALL {
        let t = table(arch);
        assert!(t.windows(2).all(|w| w[0].opcode < w[1].opcode));
        for op in 0..=255u8 {
            assert_eq!(lookup(arch, op), t.iter().find(|d| d.opcode == op));
        }
    }
}

#[test]
fn lookup_name_accepts_names_and_mnemonics_in_any_case() {
    for arch in Arch::ALL {
        for d in table(arch) {
            assert_eq!(lookup_name(arch, d.name), Some(d));
            assert_eq!(lookup_name(arch, &d.mnemonic()), Some(d));
            assert_eq!(lookup_name(arch, &d.mnemonic().to_uppercase()), Some(d));
            assert_eq!(lookup_name(arch, &d.name.to_lowercase()), Some(d));
        }
        assert_eq!(
            lookup_name(arch, "ttstallwait").map(|d| d.opcode),
            Some(0xa2)
        );
        assert_eq!(lookup_name(arch, "StallWait").map(|d| d.opcode), Some(0xa2));
        assert_eq!(
            lookup_name(arch, "ttpacrsetreg").map(|d| d.name),
            Some("PACR_SETREG")
        );
        assert_eq!(
            lookup_name(arch, "ttsfpstochrnd").map(|d| d.name),
            Some("SFP_STOCH_RND")
        );
        assert_eq!(lookup_name(arch, "ttbogus"), None);
        assert_eq!(lookup_name(arch, ""), None);
        assert_eq!(lookup_name(arch, "tt"), None);
        assert_eq!(lookup_name(arch, "t"), None);
        assert_eq!(lookup_name(arch, "tté"), None);
    }
}

#[test]
fn mnemonic_is_tt_plus_lower_case_name() {
    let d = lookup(Arch::Blackhole, opcodes::STALLWAIT).unwrap();
    assert_eq!(d.mnemonic(), "ttstallwait");
    assert_eq!(
        lookup(Arch::Blackhole, opcodes::MOP_CFG)
            .unwrap()
            .mnemonic(),
        "ttmop_cfg"
    );
}

#[test]
fn arch_names() {
    assert_eq!(Arch::from_name("blackhole"), Some(Arch::Blackhole));
    assert_eq!(Arch::from_name("wormhole"), Some(Arch::WormholeB0));
    assert_eq!(Arch::from_name("wormhole_b0"), Some(Arch::WormholeB0));
    assert_eq!(Arch::from_name("Blackhole"), Some(Arch::Blackhole));
    assert_eq!(Arch::from_name("grayskull"), None);
    for a in Arch::ALL {
        assert_eq!(Arch::from_name(a.name()), Some(a));
    }
}

/// `ex_resource` carries over: the backend unit each instruction occupies.
#[test]
fn units_from_ex_resource() {
    let unit = |n: &str| tensix::lookup_name(Arch::Blackhole, n).unwrap().unit;
    assert_eq!(unit("STALLWAIT"), ExUnit::Sync);
    assert_eq!(unit("MVMUL"), ExUnit::Math);
    assert_eq!(unit("PACR"), ExUnit::Pack);
    assert_eq!(unit("UNPACR"), ExUnit::Unpack);
    assert_eq!(unit("XMOV"), ExUnit::Xmov);
    assert_eq!(unit("SETDMAREG"), ExUnit::Thcon);
    assert_eq!(unit("SETADCXY"), ExUnit::Tdma);
    assert_eq!(unit("WRCFG"), ExUnit::Cfg);
    assert_eq!(unit("SFPLOAD"), ExUnit::Sfpu);
    assert_eq!(unit("NOP"), ExUnit::None);
    assert_eq!(unit("REPLAY"), ExUnit::None);
}
