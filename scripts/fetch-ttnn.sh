#!/usr/bin/env bash
# Fetch the `ttnn` 0.81.1 wheel from PyPI into an ignored cache and extract what bhemu needs:
#   CACHE/firmware/blackhole-140/{brisc,ncrisc,trisc0,trisc1,trisc2}.elf
#       the pre-compiled Blackhole firmware built for an unharvested chip (140 Tensix tiles,
#       8 DRAM banks), chosen by the sizes of `bank_to_l1_offset` / `bank_to_dram_offset`
#       in brisc.elf (docs/blackhole-facts.md §9);
#   CACHE/soc/blackhole_140_arch.yaml   the SoC descriptor tt-metal uses;
#   CACHE/hw/...                        a few firmware headers (paths as under tt_metal/hw/),
#                                       for reading facts only.
# Nothing from the cache may be committed; only facts drawn from it (docs/blackhole-facts.md).
#
# Usage: scripts/fetch-ttnn.sh [CACHE_DIR]     (default: .cache/ttnn in the repository)
# Idempotent: an already downloaded wheel is reused. Prints the firmware directory at the end.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${1:-$repo/.cache/ttnn}"
version="0.81.1"
mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"

wheel="$(ls "$cache"/ttnn-"$version"-*.whl 2>/dev/null | head -n1 || true)"
if [ -z "$wheel" ]; then
  echo "fetch-ttnn: downloading ttnn==$version (about 100 MB) into $cache" >&2
  python3 -m pip download --no-deps --only-binary=:all: --python-version 3.10 \
    "ttnn==$version" -d "$cache" >&2
  wheel="$(ls "$cache"/ttnn-"$version"-*.whl | head -n1)"
else
  echo "fetch-ttnn: using $wheel" >&2
fi

python3 - "$wheel" "$cache" <<'PY'
import os, struct, sys, zipfile

wheel, cache = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(wheel)
names = set(z.namelist())
PRE = "ttnn/tt_metal/pre-compiled/"
CORES = ["brisc", "ncrisc", "trisc0", "trisc1", "trisc2"]
WANT_L1_BANKS, WANT_DRAM_BANKS = 140, 8
PREFERRED = "18372378255250710900"


def elf32_symbol_sizes(data, wanted):
    """Sizes of the named symbols in a little-endian ELF32 file (None when absent)."""
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a little-endian ELF32 file")
    e_shoff, = struct.unpack_from("<I", data, 0x20)
    e_shentsize, e_shnum = struct.unpack_from("<HH", data, 0x2E)
    sections = []
    for i in range(e_shnum):
        sections.append(struct.unpack_from("<IIIIIIIIII", data, e_shoff + i * e_shentsize))
    out = {w: None for w in wanted}
    for sh in sections:
        sh_type, sh_offset, sh_size, sh_link, sh_entsize = sh[1], sh[4], sh[5], sh[6], sh[9]
        if sh_type != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh_link]
        str_off = strtab[4]
        for off in range(sh_offset, sh_offset + sh_size, sh_entsize or 16):
            st_name, _value, st_size = struct.unpack_from("<III", data, off)
            end = data.index(b"\0", str_off + st_name)
            name = data[str_off + st_name:end].decode("ascii", "replace")
            if name in out:
                out[name] = st_size
    return out


# Blackhole variants are the pre-compiled directories that also hold drisc/ and active_erisc/.
variants = sorted({n[len(PRE):].split("/")[0] for n in names if n.startswith(PRE) and n.count("/") > 3})
chosen = None
for v in variants:
    base = PRE + v + "/"
    if base + "drisc/" not in names and not any(n.startswith(base + "drisc/") for n in names):
        continue
    if not any(n.startswith(base + "active_erisc/") for n in names):
        continue
    brisc = base + "brisc/brisc.elf"
    if brisc not in names:
        continue
    sizes = elf32_symbol_sizes(z.read(brisc), ["bank_to_l1_offset", "bank_to_dram_offset"])
    l1 = (sizes["bank_to_l1_offset"] or 0) // 4
    dram = (sizes["bank_to_dram_offset"] or 0) // 4
    if l1 == WANT_L1_BANKS and dram == WANT_DRAM_BANKS:
        print(f"fetch-ttnn: Blackhole variant {v}: {l1} L1 banks, {dram} DRAM banks", file=sys.stderr)
        # Several variants can match (they differ only in other build constants); prefer the one
        # docs/blackhole-facts.md §9 names, else the first in sorted order.
        if chosen is None or v == PREFERRED:
            chosen = v
if chosen is None:
    sys.exit("fetch-ttnn: no Blackhole firmware variant with 140 L1 banks and 8 DRAM banks")
print(f"fetch-ttnn: chose {chosen}", file=sys.stderr)


def extract(member, dest):
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    data = z.read(member)
    tmp = dest + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, dest)


fw = os.path.join(cache, "firmware", "blackhole-140")
# Link addresses of the 0.81.1 firmware text (docs/blackhole-facts.md §9); checked, not assumed.
EXPECTED_ENTRY = {"brisc": 0x3AE0, "ncrisc": 0x5CE0, "trisc0": 0x66E0, "trisc1": 0x70E0, "trisc2": 0x7AE0}
for core in CORES:
    member = f"{PRE}{chosen}/{core}/{core}.elf"
    extract(member, os.path.join(fw, f"{core}.elf"))
    entry, = struct.unpack_from("<I", z.read(member), 0x18)
    note = "" if entry == EXPECTED_ENTRY[core] else f" (docs/blackhole-facts.md says {EXPECTED_ENTRY[core]:#x})"
    print(f"fetch-ttnn: {core}.elf entry {entry:#x}{note}", file=sys.stderr)
with open(os.path.join(fw, "VARIANT"), "w") as f:
    f.write(chosen + "\n")

extract("ttnn/tt_metal/soc_descriptors/blackhole_140_arch.yaml",
        os.path.join(cache, "soc", "blackhole_140_arch.yaml"))

HW = "ttnn/tt_metal/hw/"
headers = [
    "inc/hostdev/dev_msgs.h",
    "inc/internal/tt-1xx/blackhole/dev_mem_map.h",
    "inc/internal/tt-1xx/blackhole/tensix.h",
    "inc/internal/tt-1xx/blackhole/noc/noc_parameters.h",
    "inc/internal/tt-1xx/blackhole/noc/noc.h",
    "inc/internal/tt-1xx/blackhole/noc_nonblocking_api.h",
    "inc/internal/tt-1xx/risc_common.h",
    "inc/api/dataflow/dataflow_api.h",
]
for h in headers:
    extract(HW + h, os.path.join(cache, "hw", h))
PY

echo "$cache/firmware/blackhole-140"
