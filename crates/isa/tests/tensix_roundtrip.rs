//! Property tests over every instruction of both architectures, with a fixed-seed xorshift
//! generator so failures reproduce (decode(encode(x)) == x and
//! disassembly → assembly round trips).
use bhemu_isa::tensix::{
    assemble, blackhole, decode, disassemble, encode, lookup, table, wormhole, Arch, ExUnit,
};

/// xorshift64* (Vigna): tiny, deterministic, good enough to pick field values.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn word(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// Mostly uniform, sometimes 0 or the maximum, to hit the edges.
    fn field(&mut self, max: u32) -> u32 {
        match self.next() % 8 {
            0 => 0,
            1 => max,
            _ => self.word() & max,
        }
    }
}

const ROUNDS: usize = 200;

#[test]
fn decode_of_encode_is_identity_for_every_instruction() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for arch in Arch::ALL {
        for def in table(arch) {
            for _ in 0..ROUNDS {
                let values: Vec<u32> = def.fields.iter().map(|f| rng.field(f.max())).collect();
                let word = encode(def, &values).expect("values fit");
                let d = decode(arch, word);
                assert_eq!(d.def, Some(def));
                assert_eq!(d.opcode(), def.opcode);
                assert_eq!(d.reserved_bits(), 0);
                let got: Vec<u32> = d.fields().into_iter().map(|(_, v)| v).collect();
                assert_eq!(got, values, "{} {word:#010x}", def.name);
                for (f, v) in def.fields.iter().zip(&values) {
                    assert_eq!(d.field(f.name), Some(*v));
                }
            }
        }
    }
}

#[test]
fn disassembly_assembles_back_for_every_instruction() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for arch in Arch::ALL {
        for def in table(arch) {
            for _ in 0..ROUNDS {
                let values: Vec<u32> = def.fields.iter().map(|f| rng.field(f.max())).collect();
                let word = encode(def, &values).expect("values fit");
                let text = disassemble(arch, word);
                assert!(text.starts_with(&def.mnemonic()), "{text}");
                assert_eq!(assemble(arch, &text), Ok(word), "{text}");
            }
        }
    }
}

/// Any 32-bit word at all — unknown opcodes and reserved bits included — survives
/// disassembly and assembly unchanged.
#[test]
fn any_word_round_trips_through_text() {
    let mut rng = Rng(42);
    for arch in Arch::ALL {
        for _ in 0..20_000 {
            let word = rng.word();
            let text = disassemble(arch, word);
            assert!(!text.contains('\n'));
            assert_eq!(assemble(arch, &text), Ok(word), "{text}");
        }
    }
}

/// an unknown opcode decodes to an explicit unknown with its word, never a panic.
#[test]
fn unknown_opcodes_decode_to_unknown_for_all_256_opcodes() {
    for arch in Arch::ALL {
        let mut unknown = 0;
        for op in 0..=255u32 {
            for low in [0, 0x00ff_ffff, 0x0012_3456] {
                let word = (op << 24) | low;
                let d = decode(arch, word);
                assert_eq!(d.word, word);
                assert_eq!(d.opcode() as u32, op);
                assert_eq!(d.is_unknown(), lookup(arch, op as u8).is_none());
                let text = disassemble(arch, word);
                if d.is_unknown() {
                    assert_eq!(
                        text,
                        format!(".word {word:#010x}  # unknown opcode {op:#04x}")
                    );
                    assert_eq!(d.unit(), ExUnit::None);
                    assert_eq!(d.block_bits(), 0);
                    assert!(d.fields().is_empty());
                    assert_eq!(d.field("stall_res"), None);
                }
                assert_eq!(assemble(arch, &text), Ok(word));
            }
            unknown += usize::from(lookup(arch, op as u8).is_none());
        }
        assert_eq!(unknown, 256 - table(arch).len());
    }
}

/// Reserved bits set: shown as `.word`, with the instruction in the comment.
#[test]
fn reserved_bits_disassemble_as_word() {
    // SEMPOST's sem_sel starts at bit 2; bits 0..2 are reserved.
    let text = disassemble(Arch::Blackhole, 0xa400_000b);
    assert_eq!(
        text,
        ".word 0xa400000b  # ttsempost 2, reserved bits 0x000003"
    );
    assert_eq!(
        disassemble(Arch::Blackhole, 0x0200_0001),
        ".word 0x02000001  # ttnop, reserved bits 0x000001"
    );
    assert_eq!(disassemble(Arch::Blackhole, 0x0200_0000), "ttnop");
}

/// The typed view agrees with the generic one: same words back, reserved bits dropped.
#[test]
fn typed_view_round_trips() {
    let mut rng = Rng(7);
    for _ in 0..50_000 {
        let word = rng.word();
        let bh = decode(Arch::Blackhole, word);
        let t = blackhole::Insn::decode(word);
        let reserved = bh.def.map_or(0, |d| d.reserved_mask());
        assert_eq!(t.encode(), word & !reserved);
        assert_eq!(t.def(), bh.def);
        assert_eq!(matches!(t, blackhole::Insn::Unknown(_)), bh.is_unknown());

        let wh = decode(Arch::WormholeB0, word);
        let t = wormhole::Insn::decode(word);
        let reserved = wh.def.map_or(0, |d| d.reserved_mask());
        assert_eq!(t.encode(), word & !reserved);
        assert_eq!(t.def(), wh.def);
    }
}

#[test]
fn typed_view_names_fields() {
    match blackhole::Insn::decode(0xa6a1_000a) {
        blackhole::Insn::Semwait {
            stall_res,
            sem_sel,
            wait_sem_cond,
        } => {
            assert_eq!((stall_res, sem_sel, wait_sem_cond), (322, 2, 2));
        }
        other => panic!("{other:?}"),
    }
    let w = blackhole::Insn::Stallwait {
        stall_res: 128,
        wait_res: 1,
    }
    .encode();
    assert_eq!(w, 0xa240_0001);
    assert_eq!(wormhole::Insn::decode(0x0200_0000), wormhole::Insn::Nop);
    assert_eq!(
        wormhole::Insn::decode(0x0700_0000),
        wormhole::Insn::Unknown(0x0700_0000)
    );
}
