#!/usr/bin/env bash
# Build the differential generator for bhemu's Vector Unit (SFPU) (tests/reference/sfpu_gen.cpp)
# against the Tensix model of Tenstorrent's reference simulator, compiled from its source in the
# ignored cache (never committed). Prints the generator's path;
# crates/tensix/tests/reference_sfpu.rs finds it there.
#
#   scripts/reference-sfpu.sh [--src DIR|TARBALL]    (default as scripts/build-reference.sh)
#
# Exits 3 with a message when no ttsim source is to be had (the test then skips).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/.cache/reference/sfpu"
log() { echo "reference-sfpu: $*" >&2; }

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

# The Tensix model (tensix.cpp) and the multiply-add (fma.cpp) as Blackhole (TT_ARCH_VERSION 1);
# the driver supplies the few symbols they take from the rest of the simulator.
flags=(-O2 -std=c++20 -DTT_ARCH_VERSION=1 -DNUM_CHIPS=1 -DNUM_MMIO_CHIPS=1 -I "$gen" -I "$tree/src")
g++ "${flags[@]}" -c "$tree/src/tensix.cpp" -o "$out/tensix.o"
g++ "${flags[@]}" -c "$tree/src/fma.cpp" -o "$out/fma.o"
g++ "${flags[@]}" -c "$repo/tests/reference/sfpu_gen.cpp" -o "$out/sfpu_gen.o"
g++ -o "$out/gen.tmp" "$out/sfpu_gen.o" "$out/tensix.o" "$out/fma.o"
mv "$out/gen.tmp" "$out/gen"
echo "$out/gen"
