#!/usr/bin/env python3
"""Generate bhemu's Tensix instruction tables from tt-llk's assembly YAML.

Run once by hand; the output is committed, so building bhemu never needs the YAML:

    scripts/gen-tensix-tables.py [DATA_DIR] [--stallwait-doc DIR]

DATA_DIR is tt-llk as shipped in the ttnn 0.81.1 wheel (Apache-2.0), i.e. the directory holding
`tt_llk_blackhole/instructions/assembly.yaml` and `tt_llk_wormhole_b0/instructions/assembly.yaml`;
default `.cache/metal-runtime/root/tt_metal/tt-llk` (filled by scripts/setup-metal-runtime.sh).
A flat directory holding `blackhole_assembly.yaml` and `wormhole_b0_assembly.yaml` works too.
Only facts are carried over: instruction names, opcodes, field names and start bits, and
the backend unit (`ex_resource`). No description text from the YAML is emitted. The timing
and bank facts the YAML does not hold (latency, issue interval, load tail, SrcA/SrcB waits,
bank hand-back) come from TIMING / UNIT_TIMING / BANKS below, each citing its page, and are
emitted per opcode too, so every ISA fact of an instruction sits in one table entry
(docs/instruction-table.md).

With --stallwait-doc DIR (a checkout of jasondavies/tt-isa-documentation, or any directory
holding {BlackholeA0,WormholeB0}/TensixTile/TensixCoprocessor/STALLWAIT.md), the block-mask
category chosen for each instruction is checked against the per-instruction table on each
architecture's STALLWAIT.md page and the script stops on any disagreement. The committed
tables were generated with that check on (fork commit e739ac0).

Writes crates/isa/src/tensix/{blackhole,wormhole}.rs and runs rustfmt on them.
"""

import argparse
import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "crates", "isa", "src", "tensix")

ARCHES = [
    # (module, YAML file, expected instruction count per docs/blackhole-facts.md §11)
    ("blackhole", "blackhole_assembly.yaml", 137, "BlackholeA0"),
    ("wormhole", "wormhole_b0_assembly.yaml", 128, "WormholeB0"),
]

UNITS = {
    "CFG": "Cfg",
    "MATH": "Math",
    "NONE": "None",
    "PACK": "Pack",
    "SFPU": "Sfpu",
    "SYNC": "Sync",
    "TDMA": "Tdma",
    "THCON": "Thcon",
    "UNPACK": "Unpack",
    "XMOV": "Xmov",
}

# Block-mask bits B0..B8 (STALLWAIT.md "Block mask"; docs/wait-gate.md table).
B = {"TDMA": 0, "SYNC": 1, "PACK": 2, "UNPACK": 3, "XMOV": 4, "THCON": 5, "MATH": 6, "CFG": 7, "SFPU": 8}
ALL = "ALL"

# Default category by backend unit. STALLWAIT.md: B0 covers the Miscellaneous Unit, Mover,
# Scalar Unit (ThCon), Packer and Unpacker; B2..B8 each cover one unit.
UNIT_BLOCK = {
    "SYNC": ["SYNC"],
    "MATH": ["MATH"],
    "TDMA": ["TDMA"],  # Miscellaneous Unit (ADC setters, SETDVALID): B0 only
    "THCON": ["TDMA", "THCON"],
    "PACK": ["TDMA", "PACK"],
    "UNPACK": ["TDMA", "UNPACK"],
    "XMOV": ["TDMA", "XMOV"],
    "CFG": ["CFG"],
    "SFPU": ["SFPU"],
    "NONE": [],
}

# Where the documented per-instruction table differs from the unit default, or the unit
# default does not apply. Each entry: (bits, reason).
OVERRIDES = {
    "NOP": (ALL, "STALLWAIT.md: blocked only if all of B0-B8 are set"),
    "MOP": ([], "STALLWAIT.md: consumed by the MOP expander, never reaches the Wait Gate"),
    "MOP_CFG": ([], "STALLWAIT.md: consumed by the MOP expander, never reaches the Wait Gate"),
    "REPLAY": ([], "STALLWAIT.md: consumed by the replay expander, never reaches the Wait Gate"),
    "RESOURCEDECL": ([], "STALLWAIT.md: consumed by Auto TTSync, never reaches the Wait Gate"),
    "STALLWAIT": (ALL, "STALLWAIT.md: blocked by every bit B0-B8"),
    "STREAMWAIT": (ALL, "BlackholeA0 STALLWAIT.md: blocked by every bit B0-B8"),
    # ex_resource says TDMA, the table puts it with the ThCon instructions.
    "DMANOP": (["TDMA", "THCON"], "STALLWAIT.md table: B0 and B5"),
    # ex_resource says THCON, the table puts it with the Miscellaneous Unit.
    "RSTDMA": (["TDMA"], "STALLWAIT.md table: B0 only"),
}
ARCH_OVERRIDES = {
    "blackhole": {"SEMWAIT": (ALL, "BlackholeA0 STALLWAIT.md: blocked by every bit B0-B8")},
    "wormhole": {"SEMWAIT": (["SYNC"], "WormholeB0 STALLWAIT.md: SEMWAIT row has B1 only")},
}


# Cycles an instruction stays in its unit, by backend unit, where no per-instruction figure
# applies (names of `bhemu_isa::tensix::timing` constants; the pages are cited there).
UNIT_TIMING = {
    "SYNC": "SYNC",
    "MATH": "MATH_SIMPLE",
    "SFPU": "SFPU_SIMPLE",
    "CFG": "CFG_SETC16",
    "PACK": "PACR",
    "TDMA": "MISC",
    "THCON": "THCON_3",
    "UNPACK": "UNDOCUMENTED",
    "XMOV": "UNDOCUMENTED",
    "NONE": "UNDOCUMENTED",
}

# Per-instruction timing: name -> (latency constant, issue interval, ThCon load tail constant).
# An instruction not listed takes its unit's UNIT_TIMING figure, interval 1, no tail.
TIMING = {
    # MatrixUnit.md
    "MVMUL": ("MATH_MAC", 1, None),
    "DOTPV": ("MATH_MAC", 1, None),
    "GAPOOL": ("MATH_MAC", 1, None),
    "GMPOOL": ("MATH_MAC", 1, None),
    "ELWADD": ("MATH_MAC", 1, None),
    "ELWSUB": ("MATH_MAC", 1, None),
    "ELWMUL": ("MATH_MAC", 1, None),
    "MOVA2D": ("MATH_MOV4", 1, None),
    "MOVDBGA2D": ("MATH_MOV4", 1, None),
    "MOVB2A": ("MATH_MOV4", 1, None),
    "MOVB2D": ("MATH_MOV4", 1, None),
    "MOVD2A": ("MATH_MOVD2A", 1, None),
    "MOVD2B": ("MATH_MOVD2A", 1, None),
    "SHIFTXB": ("MATH_SHIFTXB", 2, None),
    # BlackholeA0 VectorUnit.md: the MAD sub-unit's instructions
    "SFPADD": ("SFPU_MAD", 1, None),
    "SFPMAD": ("SFPU_MAD", 1, None),
    "SFPMUL": ("SFPU_MAD", 1, None),
    "SFPADDI": ("SFPU_MAD", 1, None),
    "SFPMULI": ("SFPU_MAD", 1, None),
    "SFPLUT": ("SFPU_MAD", 1, None),
    "SFPLUTFP32": ("SFPU_MAD", 1, None),
    "SFPSWAP": ("SFPU_MAD", 1, None),
    "SFPMUL24": ("SFPU_MAD", 1, None),
    # BlackholeA0 ConfigurationUnit.md
    "WRCFG": ("CFG_WRCFG", 1, None),
    "CFGSHIFTMASK": ("CFG_WRCFG", 2, None),
    "RDCFG": ("CFG_RDCFG", 1, None),
    "STREAMWRCFG": ("CFG_STREAMWRCFG", 1, None),
    # ScalarUnit.md (lower bounds)
    "DMANOP": ("THCON_1", 1, None),
    "SETDMAREG": ("THCON_1", 1, None),
    "RSTDMA": ("THCON_1", 1, None),
    "REG2FLOP": ("THCON_2", 1, None),
    "FLUSHDMA": ("THCON_2", 1, None),
    "LOADIND": ("THCON_3", 1, "THCON_LOAD_TAIL"),
    "LOADREG": ("THCON_3", 1, "THCON_LOAD_TAIL"),
    "ATINCGET": ("THCON_3", 1, "THCON_LOAD_TAIL"),
    "ATCAS": ("THCON_15", 1, None),
    "ATINCGETPTR": ("THCON_15", 1, None),
    # Unpacker, Packer, Mover (placeholders, see `timing`)
    "UNPACR": ("UNPACR", 1, None),
    "UNPACR_NOP": ("UNPACR_NOP", 1, None),
    "PACR_SETREG": ("PACR_SETREG", 1, None),
    "XMOV": ("XMOV", 1, None),
}

# Matrix Unit bank facts: name -> (banks waited for at the Wait Gate, whether bits 23:22
# (`clear_dvalid` / `clear_ab_vld`) hand banks back to the Unpackers). Not listed: no wait, no
# hand-back. MVMUL.md, ELWADD.md, ...: wait for both; MOVA2D.md / SHIFTXA.md: SrcA;
# MOVB2A.md / MOVB2D.md / SHIFTXB.md / TRNSPSRCB.md: SrcB; MOVD2A.md: no wait
# (docs/wait-gate.md, LLK pattern 2); SETRWC.md: clear_ab_vld flips banks like CLR_A/CLR_B.
BANKS = {
    "MVMUL": ("AB", True),
    "DOTPV": ("AB", True),
    "GAPOOL": ("AB", True),
    "GMPOOL": ("AB", True),
    "ELWADD": ("AB", True),
    "ELWSUB": ("AB", True),
    "ELWMUL": ("AB", True),
    "MOVA2D": ("A", False),
    "SHIFTXA": ("A", False),
    "MOVB2A": ("B", False),
    "MOVB2D": ("B", False),
    "SHIFTXB": ("B", False),
    "TRNSPSRCB": ("B", False),
    "SETRWC": ("", True),
}


def timing_of(name, unit):
    lat, interval, tail = TIMING.get(name, (UNIT_TIMING[unit], 1, None))
    waits, hands_back = BANKS.get(name, ("", False)) if unit == "MATH" else ("", False)
    return {
        "latency": "timing::" + lat,
        "interval": interval,
        "mem_tail": ("timing::" + tail) if tail else "0",
        "waits": " | ".join("bank::SRC" + b for b in waits) or "0",
        "hands_back": "true" if hands_back else "false",
    }


def block_of(arch, name, unit):
    ov = ARCH_OVERRIDES[arch].get(name) or OVERRIDES.get(name)
    if ov:
        return ov
    return (UNIT_BLOCK[unit], "unit %s" % unit)


def block_mask(bits):
    if bits == ALL:
        return 0x1FF
    m = 0
    for b in bits:
        m |= 1 << B[b]
    return m


def block_expr(bits):
    if bits == ALL:
        return "block::ALL"
    if not bits:
        return "0"
    return " | ".join("block::" + b for b in bits)


def load(path, expected):
    with open(path) as f:
        text = f.read()
    data = yaml.safe_load(text)
    # Count top-level keys textually too, so a duplicated key (which PyYAML would silently
    # merge) cannot go unnoticed. Some keys carry a trailing comment, e.g. `RSTDMA: # ...`.
    keys = re.findall(r"^([A-Z][A-Z0-9_]*):", text, re.M)
    if len(keys) != len(set(keys)) or len(keys) != len(data) or len(data) != expected:
        sys.exit("%s: %d keys, %d distinct, %d loaded, expected %d" % (path, len(keys), len(set(keys)), len(data), expected))
    insns = []
    for name, body in data.items():
        args = body.get("arguments")
        if not isinstance(args, list):
            args = []  # `arguments: 0` or empty: no operands
        fields = sorted(((a["name"], int(a["start_bit"])) for a in args), key=lambda f: f[1])
        starts = [s for _, s in fields]
        if len(set(starts)) != len(starts) or any(not 0 <= s < 24 for s in starts):
            sys.exit("%s: bad start bits %r" % (name, fields))
        # A field runs to the next field's start bit, or to bit 24 (docs/blackhole-facts.md §11).
        ends = starts[1:] + [24]
        widths = [e - s for s, e in zip(starts, ends)]
        # Assembly operand order: descending start bit, as the TT_OP_* macros and the
        # Tenstorrent binutils opcode table (riscv-opc-sfpu-insns.h) list them.
        ordered = list(reversed([(n, s, w) for (n, s), w in zip(fields, widths)]))
        insns.append(
            {
                "name": name,
                "opcode": int(body["op_binary"]),
                "unit": body["ex_resource"],
                "fields": ordered,
            }
        )
    ops = [i["opcode"] for i in insns]
    if len(set(ops)) != len(ops) or any(not 0 <= o < 256 for o in ops):
        sys.exit("%s: duplicate or bad opcode" % path)
    insns.sort(key=lambda i: i["opcode"])
    return insns


def snake(name):
    s = re.sub(r"[^A-Za-z0-9]+", "_", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    s = s.lower().strip("_")
    if s in ("where", "type", "loop", "match", "mod", "move", "ref", "in", "fn", "use"):
        s += "_"
    return s


def camel(name):
    return "".join(p.capitalize() for p in name.lower().split("_"))


def visit_name(name):
    """The visitor method of an instruction: its name in lower case (`MOVD2A` -> `movd2a`)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def rust_ty(width):
    return "u8" if width <= 8 else "u16" if width <= 16 else "u32"


def check_doc(arch, insns, doc_dir, dirname):
    """Compare our categories against the STALLWAIT.md table of this architecture."""
    path = os.path.join(doc_dir, dirname, "TensixTile", "TensixCoprocessor", "STALLWAIT.md")
    with open(path) as f:
        text = f.read()
    rows = re.findall(r'<tr><th align="left"><code>(\w+)</code></th>(.*?)</tr>', text)
    doc = {}
    for n, r in rows:
        if "colspan" in r:
            doc[n] = "special"
            continue
        cells = re.findall(r"<td[^>]*>(.*?)</td>", r)
        doc[n] = sum(1 << i for i, c in enumerate(cells) if c.strip())
    bad = []
    undocumented = []
    for i in insns:
        key = i["name"]
        if key.startswith("RMWCIB"):
            key = "RMWCIB"
        key = key.replace("SFP_STOCH_RND", "SFPSTOCHRND")
        if key not in doc:
            undocumented.append(i["name"])
            continue
        if doc[key] == "special":
            continue
        if doc[key] != i["block"]:
            bad.append((i["name"], hex(doc[key]), hex(i["block"])))
    if bad:
        sys.exit("%s: block mask disagrees with STALLWAIT.md: %r" % (arch, bad))
    print("%s: STALLWAIT.md agrees; not in its table (unit default used): %s" % (arch, " ".join(undocumented)))


def emit(arch, yaml_name, insns):
    label = "Blackhole" if arch == "blackhole" else "Wormhole B0"
    out = []
    w = out.append
    w("// @generated by scripts/gen-tensix-tables.py from tt-llk 0.81.1 `%s`" % yaml_name)
    w("// (Apache-2.0, as shipped in the ttnn 0.81.1 wheel). Do not edit: change the script and rerun it.")
    w("//! %s Tensix instructions: the table (%d entries, by opcode), the opcode index, and the" % (label, len(insns)))
    w("//! typed view [`Insn`], all generated from the same facts.")
    w("#![allow(clippy::unreadable_literal, clippy::identity_op, clippy::unnecessary_cast)]")
    w("use super::{bank, block, timing, ExUnit, FieldDef, InsnDef};")
    w("")
    w("/// Every instruction of this architecture, sorted by opcode. Fields are in assembly operand")
    w("/// order (descending start bit).")
    w("#[rustfmt::skip]")
    w("pub static TABLE: [InsnDef; %d] = [" % len(insns))
    for i in insns:
        w("    // %s" % i["why"])
        fields = ", ".join(
            'FieldDef { name: "%s", start_bit: %d, width: %d }' % (n, s, wd) for n, s, wd in i["fields"]
        )
        w(
            '    InsnDef { name: "%s", opcode: 0x%02x, unit: ExUnit::%s, block_bits: %s, latency: %s, interval: %d, mem_tail: %s, waits: %s, hands_back: %s, fields: &[%s] },'
            % (i["name"], i["opcode"], UNITS[i["unit"]], block_expr(i["bits"]), i["t"]["latency"], i["t"]["interval"],
               i["t"]["mem_tail"], i["t"]["waits"], i["t"]["hands_back"], fields)
        )
    w("];")
    w("")
    idx = [0xFF] * 256
    for k, i in enumerate(insns):
        idx[i["opcode"]] = k
    w("/// Opcode → position in [`TABLE`]; `0xff` marks an opcode this architecture does not define.")
    w("#[rustfmt::skip]")
    w("pub static INDEX: [u8; 256] = [")
    for row in range(16):
        w("    " + ", ".join("0x%02x" % v for v in idx[row * 16 : row * 16 + 16]) + ",")
    w("];")
    w("")
    # The Vector Unit's opcodes alone, so its dispatch matches exhaustively: an SFPU
    # instruction added to the table is a compile error there until it is given semantics.
    sfpu = [i for i in insns if i["unit"] == "SFPU"]
    w("/// The %s Vector Unit (SFPU) opcodes: the table's instructions whose unit is" % label)
    w("/// [`ExUnit::Sfpu`]. The SFPU matches these exhaustively, so a Vector Unit instruction added")
    w("/// to the table does not compile until the unit gives it a meaning.")
    w("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]")
    w("#[repr(u8)]")
    w("pub enum SfpuOpcode {")
    for i in sfpu:
        w("    %s = 0x%02x," % (camel(i["name"]), i["opcode"]))
    w("}")
    w("")
    w("impl SfpuOpcode {")
    w("    /// The Vector Unit instruction with this opcode, `None` for any other opcode.")
    w("    pub fn from_u8(opcode: u8) -> Option<SfpuOpcode> {")
    w("        match opcode {")
    for i in sfpu:
        w("            0x%02x => Some(SfpuOpcode::%s)," % (i["opcode"], camel(i["name"])))
    w("            _ => None,")
    w("        }")
    w("    }")
    w("")
    w("    /// The table entry: every fact of the instruction.")
    w("    pub fn def(self) -> &'static InsnDef {")
    w("        match self {")
    for i in sfpu:
        w("            SfpuOpcode::%s => &TABLE[%d]," % (camel(i["name"]), insns.index(i)))
    w("        }")
    w("    }")
    w("")
    w("    /// The name as the table spells it (`SFPMAD`, `SFP_STOCH_RND`).")
    w("    pub fn name(self) -> &'static str {")
    w("        self.def().name")
    w("    }")
    w("}")
    w("")
    # Typed view.
    w("/// One decoded %s instruction with its operands as named fields. Bits outside every" % label)
    w("/// field (reserved bits) are not kept; [`super::Decoded`] keeps the whole word.")
    w("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]")
    w("pub enum Insn {")
    for i in insns:
        if i["fields"]:
            fs = ", ".join("%s: %s" % (snake(n), rust_ty(wd)) for n, _, wd in i["fields"])
            w("    %s { %s }," % (camel(i["name"]), fs))
        else:
            w("    %s," % camel(i["name"]))
    w("    /// An opcode this architecture does not define, with its whole word.")
    w("    Unknown(u32),")
    w("}")
    w("")
    w("impl Insn {")
    w("    /// Splits a 32-bit Tensix word into its opcode's fields; never fails.")
    w("    pub fn decode(word: u32) -> Insn {")
    w("        match word >> 24 {")
    for i in insns:
        v = camel(i["name"])
        if i["fields"]:
            parts = ", ".join(
                "%s: ((word >> %d) & 0x%x) as %s" % (snake(n), s, (1 << wd) - 1, rust_ty(wd))
                for n, s, wd in i["fields"]
            )
            w("            0x%02x => Insn::%s { %s }," % (i["opcode"], v, parts))
        else:
            w("            0x%02x => Insn::%s," % (i["opcode"], v))
    w("            _ => Insn::Unknown(word),")
    w("        }")
    w("    }")
    w("")
    w("    /// The 32-bit word; each field is masked to its width, reserved bits are zero.")
    w("    pub fn encode(&self) -> u32 {")
    w("        match *self {")
    for i in insns:
        v = camel(i["name"])
        if i["fields"]:
            names = ", ".join(snake(n) for n, _, _ in i["fields"])
            parts = " | ".join(
                "((%s as u32 & 0x%x) << %d)" % (snake(n), (1 << wd) - 1, s) for n, s, wd in i["fields"]
            )
            w("            Insn::%s { %s } => (0x%02x << 24) | %s," % (v, names, i["opcode"], parts))
        else:
            w("            Insn::%s => 0x%02x << 24," % (v, i["opcode"]))
    w("            Insn::Unknown(word) => word,")
    w("        }")
    w("    }")
    w("")
    w("    /// The table entry, or `None` for [`Insn::Unknown`].")
    w("    pub fn def(&self) -> Option<&'static InsnDef> {")
    w("        match *self {")
    w("            Insn::Unknown(_) => None,")
    w("            _ => TABLE.get(usize::from(INDEX[(self.encode() >> 24) as usize])),")
    w("        }")
    w("    }")
    w("}")
    # Operand structs: an instruction's fields as one value, for unit functions that take many.
    w("")
    w("/// Each instruction's operands as one struct (same names and types as the [`Visit`] method's")
    w("/// parameters), for unit functions that take many: the visitor builds it from its typed")
    w("/// fields, so no unit re-matches the instruction.")
    w("pub mod operands {")
    for i in insns:
        if not i["fields"]:
            continue
        w("    /// `%s` operands." % i["name"])
        w("    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]")
        w("    pub struct %s {" % camel(i["name"]))
        for n, _, wd in i["fields"]:
            w("        pub %s: %s," % (snake(n), rust_ty(wd)))
        w("    }")
    w("}")
    # Visitor: one method per opcode, so an implementor that forgets one does not compile.
    w("")
    w("/// One method per %s instruction, called by [`visit`] with the decoded fields. Adding an" % label)
    w("/// instruction to the table adds a method here, so every implementor must decide what it")
    w("/// does: a missing opcode is a compile error, never a silent fallthrough.")
    w("#[allow(clippy::too_many_arguments)]")
    w("pub trait Visit {")
    w("    /// What each method returns.")
    w("    type Out;")
    for i in insns:
        params = "".join(", %s: %s" % (snake(n), rust_ty(wd)) for n, _, wd in i["fields"])
        w("    /// `%s` (opcode 0x%02x)." % (i["name"], i["opcode"]))
        w("    fn %s(&mut self%s) -> Self::Out;" % (visit_name(i["name"]), params))
    w("    /// A word whose opcode this architecture does not define.")
    w("    fn unknown(&mut self, word: u32) -> Self::Out;")
    w("}")
    w("")
    w("/// Calls the [`Visit`] method of `insn`'s opcode with its fields.")
    w("pub fn visit<V: Visit + ?Sized>(insn: &Insn, v: &mut V) -> V::Out {")
    w("    match *insn {")
    for i in insns:
        vname = camel(i["name"])
        if i["fields"]:
            names = ", ".join(snake(n) for n, _, _ in i["fields"])
            w("        Insn::%s { %s } => v.%s(%s)," % (vname, names, visit_name(i["name"]), names))
        else:
            w("        Insn::%s => v.%s()," % (vname, visit_name(i["name"])))
    w("        Insn::Unknown(word) => v.unknown(word),")
    w("    }")
    w("}")
    path = os.path.join(OUT_DIR, arch + ".rs")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


def check_facts(arch, insns):
    """Every name in TIMING / BANKS must be an instruction of some architecture, so a typo
    cannot silently give an instruction its unit's default."""
    return {i["name"] for i in insns}


def main():
    ap = argparse.ArgumentParser()
    default_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".cache",
                               "metal-runtime", "root", "tt_metal", "tt-llk")
    ap.add_argument("data_dir", nargs="?", default=default_dir)
    ap.add_argument("--stallwait-doc", help="tt-isa-documentation checkout to cross-check block masks")
    args = ap.parse_args()
    written = []
    seen = set()
    for arch, yname, expected, docdir in ARCHES:
        flat = os.path.join(args.data_dir, yname)
        wheel = os.path.join(args.data_dir, "tt_llk_" + yname.replace("_assembly.yaml", ""),
                             "instructions", "assembly.yaml")
        insns = load(flat if os.path.exists(flat) else wheel, expected)
        for i in insns:
            bits, why = block_of(arch, i["name"], i["unit"])
            i["bits"] = bits
            i["block"] = block_mask(bits)
            i["why"] = "%s: %s (%s)" % (i["name"], block_expr(bits), why)
            i["t"] = timing_of(i["name"], i["unit"])
            names = [snake(n) for n, _, _ in i["fields"]]
            if len(set(names)) != len(names):
                sys.exit("%s: field names collide after snake_case: %r" % (i["name"], names))
        if args.stallwait_doc:
            check_doc(arch, insns, args.stallwait_doc, docdir)
        seen |= check_facts(arch, insns)
        written.append(emit(arch, yname, insns))
        print("%s: %d instructions" % (arch, len(insns)))
    unknown = sorted((set(TIMING) | set(BANKS)) - seen)
    if unknown:
        sys.exit("TIMING/BANKS name instructions no table has: %r" % unknown)
    subprocess.call(["rustfmt", "--edition", "2021"] + written)


if __name__ == "__main__":
    main()
