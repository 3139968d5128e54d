#!/usr/bin/env bash
# Build the differential generators against Tenstorrent's reference simulator (ttsim,
# Apache-2.0), from its source in the ignored cache (never committed), and print their paths:
# - .cache/reference/datapath/gen: the Matrix Unit's arithmetic functions, extracted from
#   src/tensix.cpp, under tests/reference/datapath_gen.cpp (crates/tensix/tests/reference_datapath.rs,
#   docs/matrix-unit.md "Confirmed against the reference");
# - .cache/reference/{sfpu,conv,matrix}/gen: the reference's whole Tensix model, compiled once,
#   driven one instruction word at a time by tests/reference/sfpu_gen.cpp (the Vector Unit;
#   reference_sfpu.rs, docs/sfpu-reference.md), tests/reference/conv_gen.cpp (the unpacker and
#   packer conversions; reference_conv.rs, docs/datapath-reference.md) and
#   tests/reference/matrix_gen.cpp (the Matrix Unit's instructions; reference_matrix.rs,
#   docs/matrix-unit.md "Confirmed instruction by instruction"), which share
#   tests/reference/tensix_driver.h.
#
#   scripts/reference-tensix.sh [--src DIR|TARBALL]    (default as scripts/build-reference.sh)
#
# Exits 3 with a message when no ttsim source is to be had (the tests then skip).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/.cache/reference/tensix"
log() { echo "reference-tensix: $*" >&2; }

src="${BHEMU_TTSIM_SRC:-}"
if [ "${1:-}" = "--src" ]; then src="$2"; fi
if [ -z "$src" ]; then
  src="$(ls "$repo"/../shared/ttsim/ttsim-*.tar.gz 2>/dev/null | sort | tail -n1 || true)"
fi
if [ -z "$src" ] || [ ! -e "$src" ]; then
  log "no ttsim source (set BHEMU_TTSIM_SRC or pass --src)"
  exit 3
fi
for tool in g++ python3; do
  command -v "$tool" >/dev/null 2>&1 || { log "needs $tool"; exit 3; }
done
mkdir -p "$out"

# The source tree: src/ (the Tensix model, its headers and header generators) and data/bh/ (the
# Blackhole instruction and register tables the generators read).
if [ -d "$src" ]; then
  tree="$(cd "$src" && pwd)"
else
  rm -rf "$out/src" && mkdir -p "$out/src"
  tar xzf "$src" -C "$out/src" --wildcards '*/src/*' '*/data/bh/*'
  tree="$(ls -d "$out"/src/*/ | head -n1)"
fi
tree="${tree%/}"
[ -f "$tree/src/tensix.cpp" ] || { log "no src/tensix.cpp in $src"; exit 3; }

# Blackhole's generated headers (tensix_decode.h, tensix_regs.h, tile_regs.h), as ttsim's own
# build makes them, into the cache.
gen="$out/gen-bh"
mkdir -p "$gen"
for pair in tensix_gen_decode:tensix_decode.h tensix_gen_regs:tensix_regs.h tile_gen_regs:tile_regs.h; do
  (cd "$tree/src" && python3 "${pair%%:*}.py" --chip bh --out "$gen/${pair#*:}")
done

# The Tensix model (tensix.cpp) and the multiply-add (fma.cpp) as Blackhole (TT_ARCH_VERSION 1),
# once; each driver supplies, through tensix_driver.h, the few symbols they take from the rest
# of the simulator.
flags=(-O2 -std=c++20 -DTT_ARCH_VERSION=1 -DNUM_CHIPS=1 -DNUM_MMIO_CHIPS=1 -I "$gen" -I "$tree/src"
       -I "$repo/tests/reference")
g++ "${flags[@]}" -c "$tree/src/tensix.cpp" -o "$out/tensix.o"
g++ "${flags[@]}" -c "$tree/src/fma.cpp" -o "$out/fma.o"
# The five functions of the Matrix Unit's floating-point datapath, each from its signature to
# the closing brace in column 0, for the datapath generator.
dp="$repo/.cache/reference/datapath"
mkdir -p "$dp"
python3 - "$tree/src/tensix.cpp" "$dp/ttsim_fpu.inc" <<'PY'
import re, sys
text = open(sys.argv[1]).read().splitlines()
want = ["fpu_accum_normalize_encode", "fpu_exp_prod_adj", "elwmul", "elwadd", "mvmul"]
out = ["// Extracted from ttsim's src/tensix.cpp (Apache-2.0) by scripts/reference-tensix.sh.",
       "#define TT_ARCH_VERSION 1"]
for name in want:
    start = next((i for i, l in enumerate(text)
                  if re.match(r"static\s+(inline\s+)?\w+\s+" + name + r"\(", l)), None)
    if start is None:
        sys.exit(f"reference-tensix: {name} not found in {sys.argv[1]}")
    end = next(i for i in range(start, len(text)) if text[i] == "}")
    out += text[start:end + 1]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
g++ -O2 -std=c++20 -I "$dp" -o "$dp/gen.tmp" "$repo/tests/reference/datapath_gen.cpp"
mv "$dp/gen.tmp" "$dp/gen"
echo "$dp/gen"

for unit in sfpu conv matrix; do
  mkdir -p "$repo/.cache/reference/$unit"
  g++ "${flags[@]}" -c "$repo/tests/reference/${unit}_gen.cpp" -o "$out/${unit}_gen.o"
  g++ -o "$repo/.cache/reference/$unit/gen.tmp" "$out/${unit}_gen.o" "$out/tensix.o" "$out/fma.o"
  mv "$repo/.cache/reference/$unit/gen.tmp" "$repo/.cache/reference/$unit/gen"
  echo "$repo/.cache/reference/$unit/gen"
done
