#!/usr/bin/env bash
# Side by side (docs/performance.md): tt-metal's own host library (libtt_metal.so, ttnn 0.81.1
# wheel) runs tests/metal/bench_eltwise.cpp — eltwise add streamed through 130 cores, 128 tiles
# each from DRAM and back, slow dispatch — on bhemu and, when it is built, on Tenstorrent's
# reference simulator (scripts/build-reference.sh), and prints both programs' figures and the ratio
# of their second launches (the first one compiles the kernels).
#
# Usage: scripts/bench-metal.sh [REFERENCE_LIBTTSIM_SO]
# Environment: BHEMU_THREADS (bhemu's host threads, default 1 here), BHEMU_BENCH_CORES,
# BHEMU_BENCH_TILES (see the program). Needs what scripts/test-metal.sh needs (it prepares the same
# runtime); exit status 0 when every run gave right results.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
log() { echo "bench-metal: $*" >&2; }

tdir="${CARGO_TARGET_DIR:-$repo/target}"
case "$tdir" in /*) ;; *) tdir="$repo/$tdir" ;; esac
cargo build --release -p bhemu-ttsim-abi -p bhemu-cli >&2
rt="$(bash scripts/setup-metal-runtime.sh | tail -n1)"
sim="$repo/.cache/metal-sim"
"$tdir/release/bhemu" install-sim "$sim" >&2
reference="${1:-${BHEMU_REFERENCE_LIB:-$repo/.cache/reference/sim/libttsim.so}}"

mkdir -p "$tdir/metal"
bin="$tdir/metal/bench_eltwise"
g++ -std=c++20 -O1 -Wall -Wno-invalid-offsetof -o "$bin" tests/metal/bench_eltwise.cpp -Itests/metal \
  -L"$rt/lib" -l:libtt_metal.so -Wl,-rpath,"$rt/lib"

# One run on the simulator at $1 (a libttsim.so); prints the program's line.
run() {
  local lib="$1" work
  work="$(mktemp -d "${TMPDIR:-/tmp}/bhemu-bench-metal.XXXXXX")"
  if ! (cd "$work" && env BHEMU_THREADS="${BHEMU_THREADS:-1}" TT_METAL_RUNTIME_ROOT="$rt/root" \
      TT_METAL_SIMULATOR="$lib" TT_METAL_SLOW_DISPATCH_MODE=1 TT_METAL_CACHE="$work/cache" \
      timeout 1200 "$bin" "$repo/tests/metal/kernels" >"$work/stdout" 2>"$work/stderr"); then
    log "FAIL on $lib; last stderr lines ($work/stderr):"
    grep -v "^\s*$" "$work/stderr" | grep -v "| info" | tail -n 15 >&2
    return 1
  fi
  grep "^eltwise add" "$work/stdout"
  rm -rf "$work"
}

second() { sed -n 's/.*launch 2 \([0-9.]*\) s.*/\1/p'; }

mine="$(run "$sim/libttsim.so")"
echo "bhemu (${BHEMU_THREADS:-1} thread(s)): $mine"
if [ -f "$reference" ]; then
  theirs="$(run "$reference")"
  echo "reference:           $theirs"
  python3 -c 'import sys; print(f"second launch, bhemu / reference: {float(sys.argv[1]) / float(sys.argv[2]):.2f}")' \
    "$(echo "$mine" | second)" "$(echo "$theirs" | second)"
else
  log "no reference simulator at $reference (scripts/build-reference.sh builds one): bhemu's figure only"
fi
