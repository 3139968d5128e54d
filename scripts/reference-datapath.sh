#!/usr/bin/env bash
# Build the differential vector generator for bhemu's Matrix Unit datapath
# (tests/reference/datapath_gen.cpp) against the arithmetic functions of Tenstorrent's reference
# simulator, taken from its source into the ignored cache (never committed). Prints the
# generator's path; crates/tensix/tests/reference_datapath.rs finds it there.
#
#   scripts/reference-datapath.sh [--src DIR|TARBALL]    (default as scripts/build-reference.sh)
#
# Exits 3 with a message when no ttsim source is to be had (the test then skips).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/.cache/reference/datapath"
log() { echo "reference-datapath: $*" >&2; }

src="${BHEMU_TTSIM_SRC:-}"
if [ "${1:-}" = "--src" ]; then src="$2"; fi
if [ -z "$src" ]; then
  src="$(ls "$repo"/../shared/ttsim/ttsim-*.tar.gz 2>/dev/null | sort | tail -n1 || true)"
fi
if [ -z "$src" ] || [ ! -e "$src" ]; then
  log "no ttsim source (set BHEMU_TTSIM_SRC or pass --src)"
  exit 3
fi
command -v g++ >/dev/null 2>&1 || { log "needs g++"; exit 3; }
mkdir -p "$out"
if [ -d "$src" ]; then
  tensix="$src/src/tensix.cpp"
else
  rm -rf "$out/src" && mkdir -p "$out/src"
  tar xzf "$src" -C "$out/src" --wildcards '*/src/tensix.cpp'
  tensix="$(ls "$out"/src/*/src/tensix.cpp | head -n1)"
fi
[ -f "$tensix" ] || { log "no src/tensix.cpp in $src"; exit 3; }

# The five functions of the Matrix Unit's floating-point datapath, each from its signature to
# the closing brace in column 0.
python3 - "$tensix" "$out/ttsim_fpu.inc" <<'PY'
import re, sys
text = open(sys.argv[1]).read().splitlines()
want = ["fpu_accum_normalize_encode", "fpu_exp_prod_adj", "elwmul", "elwadd", "mvmul"]
out = ["// Extracted from ttsim's src/tensix.cpp (Apache-2.0) by scripts/reference-datapath.sh.",
       "#define TT_ARCH_VERSION 1"]
for name in want:
    start = next((i for i, l in enumerate(text)
                  if re.match(r"static\s+(inline\s+)?\w+\s+" + name + r"\(", l)), None)
    if start is None:
        sys.exit(f"reference-datapath: {name} not found in {sys.argv[1]}")
    end = next(i for i in range(start, len(text)) if text[i] == "}")
    out += text[start:end + 1]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
g++ -O2 -std=c++20 -I "$out" -o "$out/gen.tmp" "$repo/tests/reference/datapath_gen.cpp"
mv "$out/gen.tmp" "$out/gen"
echo "$out/gen"
