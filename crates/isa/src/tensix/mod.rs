//! Tensix instruction encodings (Blackhole, Wormhole B0).
//!
//! One generated table per architecture ([`blackhole::TABLE`], [`wormhole::TABLE`], from
//! tt-llk 0.81.1's assembly YAML by `scripts/gen-tensix-tables.py`) drives everything here:
//! decode, encode, disassembly, assembly, the backend unit and the Wait Gate block category.
//!
//! A Tensix word is `opcode << 24 | fields`. A field's width runs from its start bit to the
//! next field's start bit, or to bit 24 (docs/blackhole-facts.md §11). Bits below the lowest field, and
//! all 24 low bits of an instruction without fields, are *reserved*: decode keeps them in
//! [`Decoded::word`], disassembly shows them (as a `.word`), encode leaves them zero.
//!
//! Text syntax is the compiler's (docs/wait-gate.md examples, Tenstorrent binutils
//! `riscv-opc-sfpu-insns.h`): `tt` + lower-case name, operands in decimal separated by `", "`,
//! in *descending start-bit order* — the argument order of the `TT_OP_*` macros, e.g.
//! `ttstallwait 128, 1` is `TT_OP_STALLWAIT(stall_res = 128, wait_res = 1)`. SFPU instructions
//! use the same uniform form (`ttsfpload 3, 0, 0, 0`), not binutils' `sfpload L3,...` syntax.

use std::fmt::Write as _;

use thiserror::Error;

pub mod blackhole;
pub mod wormhole;

/// Which chip's instruction set a word belongs to; opcodes and field layouts differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    Blackhole,
    WormholeB0,
}

impl Arch {
    /// Both architectures, for tests and tools that cover each.
    pub const ALL: [Arch; 2] = [Arch::Blackhole, Arch::WormholeB0];

    /// Parses a command-line name: `blackhole`, `wormhole` or `wormhole_b0` (any case).
    pub fn from_name(s: &str) -> Option<Arch> {
        match s.to_ascii_lowercase().as_str() {
            "blackhole" | "bh" => Some(Arch::Blackhole),
            "wormhole" | "wormhole_b0" | "wormhole-b0" | "wh" => Some(Arch::WormholeB0),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Arch::Blackhole => "blackhole",
            Arch::WormholeB0 => "wormhole_b0",
        }
    }
}

/// The backend unit an instruction executes on, as the YAML's `ex_resource` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExUnit {
    Cfg,
    Math,
    None,
    Pack,
    Sfpu,
    Sync,
    Tdma,
    Thcon,
    Unpack,
    Xmov,
}

/// Wait Gate block-mask bits B0..B8 (the `stall_res` operand of STALLWAIT/SEMWAIT; docs/wait-gate.md,
/// STALLWAIT.md "Block mask"). [`InsnDef::block_bits`] says which bits block an instruction:
/// a latched wait with mask `m` holds it back iff `block_bits & m != 0`, except NOP (below).
pub mod block {
    /// B0: Miscellaneous Unit, Mover, Scalar Unit (ThCon), Packer and Unpacker.
    pub const TDMA: u16 = 1 << 0;
    /// B1: Sync Unit.
    pub const SYNC: u16 = 1 << 1;
    /// B2: Packer.
    pub const PACK: u16 = 1 << 2;
    /// B3: Unpacker.
    pub const UNPACK: u16 = 1 << 3;
    /// B4: Mover (XMOV).
    pub const XMOV: u16 = 1 << 4;
    /// B5: Scalar Unit (ThCon).
    pub const THCON: u16 = 1 << 5;
    /// B6: Matrix Unit (FPU).
    pub const MATH: u16 = 1 << 6;
    /// B7: Configuration Unit.
    pub const CFG: u16 = 1 << 7;
    /// B8: Vector Unit (SFPU).
    pub const SFPU: u16 = 1 << 8;
    /// B0..B8. NOP carries this value but is blocked only when *all* of these bits are set
    /// in the mask (STALLWAIT.md: "Special case"); every other instruction with `ALL`
    /// (STALLWAIT, Blackhole SEMWAIT and STREAMWAIT) is blocked by any one bit.
    pub const ALL: u16 = 0x1ff;

    /// The Wait Gate's rule, in one place: does a latched wait with block mask `mask` hold an
    /// instruction of `opcode` whose categories are `block_bits`? Any shared bit blocks, except
    /// for NOP, which only the full mask B0–B8 blocks (STALLWAIT.md "Special case"). MOP,
    /// MOP_CFG, REPLAY and RESOURCEDECL carry no bits, so they are never held.
    pub fn blocks(opcode: u8, block_bits: u16, mask: u16) -> bool {
        if opcode == super::opcodes::NOP {
            mask & ALL == ALL
        } else {
            block_bits & mask != 0
        }
    }
}

/// Opcodes the frontend treats specially; each is checked against both generated tables
/// by `tests/tensix_tables.rs` (RESOURCEDECL and STREAMWAIT exist on Blackhole only).
pub mod opcodes {
    pub const MOP: u8 = 0x01;
    /// Plain NOP; the only opcode the MOP expander's IsNop accepts (docs/mop-replay.md).
    pub const NOP: u8 = 0x02;
    pub const MOP_CFG: u8 = 0x03;
    pub const REPLAY: u8 = 0x04;
    /// Blackhole only.
    pub const RESOURCEDECL: u8 = 0x05;
    /// The Matrix Unit move whose Dst read the frontend tracks (`Op::Math::movd2a`).
    pub const MOVD2A: u8 = 0x08;
    pub const PACR: u8 = 0x41;
    pub const UNPACR: u8 = 0x42;
    pub const SETDMAREG: u8 = 0x45;
    /// Not a NOP for the MOP expander (docs/mop-replay.md).
    pub const DMANOP: u8 = 0x60;
    /// Not a NOP for the MOP expander (docs/mop-replay.md).
    pub const SFPNOP: u8 = 0x8f;
    pub const ATGETM: u8 = 0xa0;
    pub const ATRELM: u8 = 0xa1;
    pub const STALLWAIT: u8 = 0xa2;
    pub const SEMINIT: u8 = 0xa3;
    pub const SEMPOST: u8 = 0xa4;
    pub const SEMGET: u8 = 0xa5;
    pub const SEMWAIT: u8 = 0xa6;
    /// Blackhole only.
    pub const STREAMWAIT: u8 = 0xa7;
    pub const WRCFG: u8 = 0xb0;
    pub const SETC16: u8 = 0xb2;
}

/// Which source banks a Matrix Unit instruction waits for at the Wait Gate
/// ([`InsnDef::waits`]; MVMUL.md, MOVA2D.md, MOVB2D.md, ...): it passes only once the bank is
/// owned by the Matrix Unit (`dvalid`).
pub mod bank {
    /// Waits for the SrcA bank.
    pub const SRCA: u8 = 1 << 0;
    /// Waits for the SrcB bank.
    pub const SRCB: u8 = 1 << 1;
}

/// Documented timing figures, one place, named by [`InsnDef::latency`] /
/// [`InsnDef::mem_tail`] in the generated tables. Each figure names its page; "placeholder"
/// marks a number the documentation does not give.
pub mod timing {
    /// No figure documented and none needed yet: one cycle (NOP, frontend instructions, the
    /// Unpacker's and Mover's other instructions).
    pub const UNDOCUMENTED: u16 = 1;
    /// Sync Unit: every instruction 1 cycle (SyncUnit.md table).
    pub const SYNC: u16 = 1;
    /// MVMUL, DOTPV, GAPOOL, ELWMUL, GMPOOL, ELWADD, ELWSUB: 5 cycles (MatrixUnit.md).
    pub const MATH_MAC: u16 = 5;
    /// MOVA2D, MOVDBGA2D, MOVB2D, MOVB2A: 4 cycles (MatrixUnit.md).
    pub const MATH_MOV4: u16 = 4;
    /// MOVD2A: 2 cycles (MatrixUnit.md); bhemu uses the same for MOVD2B.
    pub const MATH_MOVD2A: u16 = 2;
    /// SHIFTXB: latency 2, throughput 0.5 (MatrixUnit.md).
    pub const MATH_SHIFTXB: u16 = 2;
    /// SETRWC, INCRWC, CLEARDVALID, CLREXPHIST, GATESRCRST, SHIFTXA, ZEROACC, ZEROSRC,
    /// TRNSPSRCB: 1 cycle (MatrixUnit.md); other Matrix Unit instructions assumed 1.
    pub const MATH_SIMPLE: u16 = 1;
    /// Vector Unit: SFPADD/SFPMAD/SFPMUL/SFPADDI/SFPMULI/SFPLUT/SFPLUTFP32/SFPSWAP/SFPMUL24 2
    /// cycles, the rest 1 (BlackholeA0 VectorUnit.md tables).
    pub const SFPU_MAD: u16 = 2;
    pub const SFPU_SIMPLE: u16 = 1;
    /// Configuration Unit (BlackholeA0 ConfigurationUnit.md): SETC16 1, WRCFG 2, CFGSHIFTMASK 2
    /// (IPC 1/2), RMWCIB 1, RDCFG >= 2, STREAMWRCFG >= 5.
    pub const CFG_SETC16: u16 = 1;
    pub const CFG_WRCFG: u16 = 2;
    pub const CFG_RDCFG: u16 = 2;
    pub const CFG_STREAMWRCFG: u16 = 5;
    /// Miscellaneous Unit: single cycle, one per thread per cycle (MiscellaneousUnit.md).
    pub const MISC: u16 = 1;
    /// ThCon (ScalarUnit.md): DMANOP/SETDMAREG 1; REG2FLOP/FLUSHDMA >= 2; ADD/SUB/MUL/CMP/
    /// BITWOP/SHIFTDMAREG "3 or 4" (bhemu: 3); STOREIND/STOREREG/ATSWAP >= 3; LOADIND/LOADREG/
    /// ATINCGET >= 3; ATCAS/ATINCGETPTR >= 15. bhemu uses the lower bounds.
    pub const THCON_1: u16 = 1;
    pub const THCON_2: u16 = 2;
    pub const THCON_3: u16 = 3;
    pub const THCON_15: u16 = 15;
    /// Placeholder: cycles a load's result stays outstanding after it leaves ThCon
    /// (ScalarUnit.md: "the load result isn't delivered until some time later").
    pub const THCON_LOAD_TAIL: u8 = 4;
    /// Placeholder: UNPACR occupancy of its unpacker once its bank is available (depends on
    /// tile size and format; not documented as a figure). UNPACR_NOP: 1 ("Occupy Unpacker for
    /// one cycle", UNPACR_NOP_Nop.md).
    pub const UNPACR: u16 = 4;
    pub const UNPACR_NOP: u16 = 1;
    /// Placeholder: PACR's time in the packer pipeline; PACR_SETREG 1.
    pub const PACR: u16 = 4;
    pub const PACR_SETREG: u16 = 1;
    /// Placeholder: how long the Mover stays busy after accepting an XMOV (XMOV.md: XMOV
    /// executes in one cycle, "the mover proceeds with the task in the background").
    pub const XMOV: u16 = 4;
}

/// One operand field: bits `start_bit .. start_bit + width` of the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldDef {
    /// As spelled in the YAML (may contain spaces, e.g. `Mov block selection`).
    pub name: &'static str,
    pub start_bit: u8,
    pub width: u8,
}

impl FieldDef {
    /// The field's bits in place within a word.
    pub const fn mask(&self) -> u32 {
        (((1u64 << self.width) - 1) as u32) << self.start_bit
    }

    /// Largest value the field holds.
    pub const fn max(&self) -> u32 {
        ((1u64 << self.width) - 1) as u32
    }

    pub const fn get(&self, word: u32) -> u32 {
        (word >> self.start_bit) & self.max()
    }
}

/// One instruction of one architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InsnDef {
    /// As in the YAML, e.g. `STALLWAIT`, `MOP_CFG`, `SFP_STOCH_RND`.
    pub name: &'static str,
    pub opcode: u8,
    pub unit: ExUnit,
    /// Block-mask category, see [`block`]. 0 = never reaches the Wait Gate (MOP, MOP_CFG,
    /// REPLAY, RESOURCEDECL).
    pub block_bits: u16,
    /// Cycles the instruction stays in its unit (occupancy/latency), a [`timing`] figure.
    pub latency: u16,
    /// Minimum cycles before the same unit accepts another instruction (1 = fully pipelined;
    /// SHIFTXB and CFGSHIFTMASK issue every other cycle).
    pub interval: u8,
    /// Cycles a Scalar Unit load stays outstanding after it leaves the unit (condition C0);
    /// 0 for every other instruction.
    pub mem_tail: u8,
    /// Source banks a Matrix Unit instruction waits for at the Wait Gate, [`bank`] bits.
    pub waits: u8,
    /// Whether bits 23:22 (`clear_dvalid` / `clear_ab_vld`) hand the SrcA / SrcB banks back
    /// to the Unpackers when the instruction completes.
    pub hands_back: bool,
    /// In assembly operand order: descending start bit.
    pub fields: &'static [FieldDef],
}

impl InsnDef {
    /// `tt` + lower-case name: `ttstallwait`, `ttmop_cfg`, `ttsfpload`.
    pub fn mnemonic(&self) -> String {
        let mut s = String::with_capacity(2 + self.name.len());
        s.push_str("tt");
        s.push_str(&self.name.to_ascii_lowercase());
        s
    }

    pub fn field(&self, name: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Whether a latched wait with block mask `mask` (already defaulted: `stall_res` 0 means
    /// B6, STALLWAIT.md) holds this instruction at the Wait Gate. Any shared bit blocks,
    /// except NOP, which only the full mask B0–B8 blocks (STALLWAIT.md "Special case").
    pub fn blocked_by(&self, mask: u16) -> bool {
        block::blocks(self.opcode, self.block_bits, mask)
    }

    /// Bits of the low 24 that belong to no field.
    pub fn reserved_mask(&self) -> u32 {
        self.fields.iter().fold(0x00ff_ffff, |m, f| m & !f.mask())
    }
}

/// The generated table of `arch`, sorted by opcode.
pub fn table(arch: Arch) -> &'static [InsnDef] {
    match arch {
        Arch::Blackhole => &blackhole::TABLE,
        Arch::WormholeB0 => &wormhole::TABLE,
    }
}

/// O(1): through the generated 256-entry opcode index.
pub fn lookup(arch: Arch, opcode: u8) -> Option<&'static InsnDef> {
    let (index, table): (&[u8; 256], &'static [InsnDef]) = match arch {
        Arch::Blackhole => (&blackhole::INDEX, &blackhole::TABLE),
        Arch::WormholeB0 => (&wormhole::INDEX, &wormhole::TABLE),
    };
    table.get(usize::from(index[usize::from(opcode)]))
}

/// Finds an instruction by YAML name (`STALLWAIT`) or mnemonic (`ttstallwait`), ignoring case.
/// Underscores are also ignored, so binutils' spellings `ttmopcfg` and `ttpacrsetreg` (and
/// the doc's `SFPSTOCHRND`) find `MOP_CFG`, `PACR_SETREG` and `SFP_STOCH_RND`.
pub fn lookup_name(arch: Arch, name: &str) -> Option<&'static InsnDef> {
    let t = table(arch);
    let eq = |a: &str, b: &str| {
        let mut x = a.bytes().filter(|&c| c != b'_');
        let mut y = b.bytes().filter(|&c| c != b'_');
        loop {
            match (x.next(), y.next()) {
                (None, None) => return true,
                (Some(p), Some(q)) if p.eq_ignore_ascii_case(&q) => {}
                _ => return false,
            }
        }
    };
    if let Some(d) = t.iter().find(|d| eq(d.name, name)) {
        return Some(d);
    }
    let stripped = name
        .get(..2)
        .filter(|p| p.eq_ignore_ascii_case("tt"))
        .map(|_| &name[2..])?;
    t.iter().find(|d| eq(d.name, stripped))
}

/// A word with its table entry; `def == None` means the opcode is unknown to the architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub word: u32,
    pub def: Option<&'static InsnDef>,
}

/// Never fails: an unknown opcode gives `def: None`.
pub fn decode(arch: Arch, word: u32) -> Decoded {
    Decoded {
        word,
        def: lookup(arch, (word >> 24) as u8),
    }
}

impl Decoded {
    pub fn opcode(&self) -> u8 {
        (self.word >> 24) as u8
    }

    pub fn is_unknown(&self) -> bool {
        self.def.is_none()
    }

    pub fn field(&self, name: &str) -> Option<u32> {
        self.def?.field(name).map(|f| f.get(self.word))
    }

    /// Operand values in assembly order; empty for an unknown opcode.
    pub fn fields(&self) -> Vec<(&'static str, u32)> {
        self.def
            .map(|d| {
                d.fields
                    .iter()
                    .map(|f| (f.name, f.get(self.word)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `ExUnit::None` for an unknown opcode.
    pub fn unit(&self) -> ExUnit {
        self.def.map_or(ExUnit::None, |d| d.unit)
    }

    /// 0 for an unknown opcode: no documented category; the frontend is expected to reject
    /// unknown opcodes itself rather than let them through the gate.
    pub fn block_bits(&self) -> u16 {
        self.def.map_or(0, |d| d.block_bits)
    }

    /// See [`InsnDef::blocked_by`]; an unknown opcode is never blocked.
    pub fn blocked_by(&self, mask: u16) -> bool {
        self.def.is_some_and(|d| d.blocked_by(mask))
    }

    /// Reserved bits that are set (0 for an unknown opcode).
    pub fn reserved_bits(&self) -> u32 {
        self.def.map_or(0, |d| self.word & d.reserved_mask())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EncodeError {
    #[error("{insn} takes {expected} operand(s), got {found}")]
    OperandCount {
        insn: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("{insn}: value {value:#x} does not fit field {field} ({width} bits)")]
    TooWide {
        insn: &'static str,
        field: &'static str,
        value: u32,
        width: u8,
    },
}

/// Builds a word from operand values in `def.fields` order; reserved bits are zero.
pub fn encode(def: &InsnDef, values: &[u32]) -> Result<u32, EncodeError> {
    if values.len() != def.fields.len() {
        return Err(EncodeError::OperandCount {
            insn: def.name,
            expected: def.fields.len(),
            found: values.len(),
        });
    }
    let mut word = u32::from(def.opcode) << 24;
    for (f, &v) in def.fields.iter().zip(values) {
        if v > f.max() {
            return Err(EncodeError::TooWide {
                insn: def.name,
                field: f.name,
                value: v,
                width: f.width,
            });
        }
        word |= v << f.start_bit;
    }
    Ok(word)
}

/// Text for one word, one line:
/// - a known opcode with no reserved bits set: `ttsemwait 322, 2, 2` (`ttnop` without operands);
/// - an unknown opcode: `.word 0x12345678  # unknown opcode 0x12`;
/// - a known opcode with reserved bits set: `.word 0xa4000007  # ttsempost 1, reserved bits 0x000003`,
///   so that [`assemble`] gives back exactly the same word.
pub fn disassemble(arch: Arch, word: u32) -> String {
    let d = decode(arch, word);
    let Some(def) = d.def else {
        return format!(".word {word:#010x}  # unknown opcode {:#04x}", d.opcode());
    };
    let mut text = def.mnemonic();
    for (i, f) in def.fields.iter().enumerate() {
        let _ = write!(text, "{}{}", if i == 0 { " " } else { ", " }, f.get(word));
    }
    match d.reserved_bits() {
        0 => text,
        r => format!(".word {word:#010x}  # {text}, reserved bits {r:#08x}"),
    }
}

/// Why a line did not assemble; `Display` is one line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AsmError {
    #[error("empty line")]
    Empty,
    #[error("unknown instruction `{mnemonic}` for {arch}")]
    UnknownMnemonic {
        mnemonic: String,
        arch: &'static str,
    },
    #[error("`{mnemonic}` needs the `tt` prefix (write `tt{}`)", mnemonic.to_ascii_lowercase())]
    MissingPrefix { mnemonic: String },
    #[error("{mnemonic} takes {expected} operand(s), got {found}")]
    OperandCount {
        mnemonic: String,
        expected: usize,
        found: usize,
    },
    #[error("operand {index} of {mnemonic}: `{text}` is not a number (decimal or 0x hex)")]
    BadOperand {
        mnemonic: String,
        index: usize,
        text: String,
    },
    #[error("operand {index} of {mnemonic}: {value} does not fit field {field} ({width} bits, max {max})")]
    TooWide {
        mnemonic: String,
        index: usize,
        field: &'static str,
        value: u64,
        width: u8,
        max: u32,
    },
    #[error("`.word` needs one 32-bit value, got `{text}`")]
    BadWord { text: String },
}

fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, radix) = match s.get(..2) {
        Some(p) if p.eq_ignore_ascii_case("0x") => (&s[2..], 16),
        _ => (s, 10),
    };
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(&digits, radix).ok()
}

/// Assembles one line: the output of [`disassemble`] (so `.word 0x…` too), with operands in
/// decimal or `0x` hex, separated by commas with any spacing (`ttmop 1,0,0`). A `#` or `;`
/// starts a comment. The mnemonic must carry the `tt` prefix — a bare `sfpload` would be
/// ambiguous with binutils' SFPU syntax, whose operand order differs.
pub fn assemble(arch: Arch, line: &str) -> Result<u32, AsmError> {
    let code = line.split(['#', ';']).next().unwrap_or("").trim();
    if code.is_empty() {
        return Err(AsmError::Empty);
    }
    let (mnemonic, rest) = match code.find(char::is_whitespace) {
        Some(i) => (&code[..i], code[i..].trim()),
        None => (code, ""),
    };
    if mnemonic.eq_ignore_ascii_case(".word") {
        return match parse_number(rest) {
            Some(v) if v <= u64::from(u32::MAX) => Ok(v as u32),
            _ => Err(AsmError::BadWord {
                text: rest.to_string(),
            }),
        };
    }
    let has_prefix = mnemonic
        .get(..2)
        .is_some_and(|p| p.eq_ignore_ascii_case("tt"));
    let def = match lookup_name(arch, mnemonic) {
        Some(d) if has_prefix => d,
        Some(_) => {
            return Err(AsmError::MissingPrefix {
                mnemonic: mnemonic.to_string(),
            })
        }
        None => {
            return Err(AsmError::UnknownMnemonic {
                mnemonic: mnemonic.to_string(),
                arch: arch.name(),
            })
        }
    };
    let operands: Vec<&str> = if rest.is_empty() {
        Vec::new()
    } else {
        rest.split(',').map(str::trim).collect()
    };
    if operands.len() != def.fields.len() {
        return Err(AsmError::OperandCount {
            mnemonic: def.mnemonic(),
            expected: def.fields.len(),
            found: operands.len(),
        });
    }
    let mut word = u32::from(def.opcode) << 24;
    for (index, (f, text)) in def.fields.iter().zip(&operands).enumerate() {
        let value = parse_number(text).ok_or_else(|| AsmError::BadOperand {
            mnemonic: def.mnemonic(),
            index,
            text: (*text).to_string(),
        })?;
        if value > u64::from(f.max()) {
            return Err(AsmError::TooWide {
                mnemonic: def.mnemonic(),
                index,
                field: f.name,
                value,
                width: f.width,
                max: f.max(),
            });
        }
        word |= (value as u32) << f.start_bit;
    }
    Ok(word)
}

/// The `.ttinsn` form a RISC-V core executes: the Tensix word rotated left by 2 (docs/mop-replay.md).
pub fn to_ttinsn(word: u32) -> u32 {
    word.rotate_left(2)
}

/// Inverse of [`to_ttinsn`]: `rotr(x, 2)` (docs/mop-replay.md "Assembly Encoding").
pub fn from_ttinsn(encoded: u32) -> u32 {
    encoded.rotate_right(2)
}
