#!/usr/bin/env bash
# Side by side (docs/performance.md "Side by side, every workload"): the workloads of the
# performance issue, each run on bhemu and on Tenstorrent's reference simulator in one go, with
# one host thread for bhemu (BHEMU_THREADS=1; the reference is single-threaded), printing both
# host times and their ratio:
#
#   spin        tt-umd's Python client on 140 tiles, one clock per read (tests/umd/spin_bench.py,
#               examples/kernels/spin.c without its mcycle read, which the reference refuses)
#   boot        the firmware boot on 140 tiles through the client (`bhemu run --reference`)
#   add stream  128 bf16 tiles per core streamed from DRAM, added, streamed back, 140 tiles
#               (examples/kernels/programs/add_stream.toml, launch + wait)
#   matmul grid 16 blocks of 2x2x2 tiles per core, 140 tiles (matmul_grid.toml, launch + wait)
#   metal add   tt-metal's eltwise add on 130 cores, 128 tiles each, second launch
#               (tests/metal/bench_eltwise.cpp through scripts/bench-metal.sh)
#   metal open  tt-metal opening the device, a DRAM and an L1 round trip, closing it
#               (tests/metal/open_close.cpp)
#
# Usage: scripts/bench-side-by-side.sh [REFERENCE_LIBTTSIM_SO]
# Environment: BHEMU_BENCH_SPIN (spin iterations, default 100000), BHEMU_THREADS (default 1).
# The reference defaults to .cache/reference/sim/libttsim.so (scripts/build-reference.sh); without
# it only bhemu's figures are printed. The tt-metal rows need what scripts/test-metal.sh needs and
# are left out with a message when it is missing. Exit status: 0 when every run gave right results.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
log() { echo "bench-side-by-side: $*" >&2; }

export BHEMU_THREADS="${BHEMU_THREADS:-1}"
spin_iterations="${BHEMU_BENCH_SPIN:-100000}"
tdir="${CARGO_TARGET_DIR:-$repo/target}"
case "$tdir" in /*) ;; *) tdir="$repo/$tdir" ;; esac
reference="${1:-${BHEMU_REFERENCE_LIB:-$repo/.cache/reference/sim/libttsim.so}}"
have_ref=0
[ -f "$reference" ] && have_ref=1
[ "$have_ref" = 1 ] || log "no reference simulator at $reference (scripts/build-reference.sh): bhemu's figures only"

cargo build --release -p bhemu-ttsim-abi -p bhemu-cli >&2
bhemu="$tdir/release/bhemu"
bash scripts/fetch-ttnn.sh >/dev/null
fw="$repo/.cache/ttnn/firmware/blackhole-140"
sim="$repo/.cache/bench-sim"
"$bhemu" install-sim "$sim" --soc "$repo/.cache/ttnn/soc/blackhole_140_arch.yaml" >&2
work="$(mktemp -d "${TMPDIR:-/tmp}/bhemu-side-by-side.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail=0
rows=()
# row NAME BHEMU_SECONDS REFERENCE_SECONDS (either may be "-")
row() {
  local ratio="-"
  if [ "$2" != - ] && [ "$3" != - ]; then
    ratio="$(python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.2f}")' "$2" "$3")"
  fi
  rows+=("$(printf '%-12s %12s %12s %8s' "$1" "$2" "$3" "$ratio")")
}

# -- spin through tt-umd's Python client ------------------------------------------------------
PY="$(bash scripts/setup-umd-venv.sh | tail -n1)"
kdir="$tdir/kernels-umd"
bash scripts/build-kernels.sh "$kdir" >/dev/null
spin() {  # LIB -> seconds of the spin phase
  local out
  if ! out="$(cd tests/umd && "$PY" spin_bench.py "$1" "$fw" "$kdir/spin_no_mcycle.elf" \
      --iterations "$spin_iterations" --no-idle 2>"$work/spin.err")"; then
    log "spin FAILED on $1:"; tail -n 5 "$work/spin.err" >&2; fail=1; echo -; return
  fi
  echo "$out" | sed -n 's/^spin through tt-umd: .* in \([0-9.]*\) s wall.*/\1/p'
}
log "spin ($spin_iterations iterations)"
s_mine="$(spin "$sim/libttsim.so")"
s_ref=-
[ "$have_ref" = 1 ] && s_ref="$(spin "$reference")"
row spin "$s_mine" "$s_ref"

# -- kit programs: boot, streaming add, matmul grid -------------------------------------------
kit_times() {  # PROGRAM -> "boot_bhemu run_bhemu boot_ref run_ref"
  local prog="$1" out
  if [ "$have_ref" = 1 ]; then
    if ! out="$("$bhemu" run "$prog" --tiles all --threads "$BHEMU_THREADS" --reference "$reference" 2>&1)"; then
      log "$prog FAILED:"; echo "$out" | tail -n 5 >&2; fail=1; echo "- - - -"; return
    fi
    python3 - "$out" <<'EOF'
import re, sys
t = {}
for who in ("bhemu", "reference"):
    m = re.search(who + r": boot \d+ clocks in ([0-9.]+) s, run \d+ clocks in ([0-9.]+) s", sys.argv[1])
    t[who] = m.groups() if m else ("-", "-")
print(t["bhemu"][0], t["bhemu"][1], t["reference"][0], t["reference"][1])
EOF
  else
    echo "- - - -"
    log "$prog: needs the reference for host times through the client (bhemu run's own figures: bhemu run $prog --tiles all)"
  fi
}
log "kit programs (boot, add stream, matmul grid)"
read -r b1 r1 b2 r2 <<<"$(kit_times examples/kernels/programs/add_stream.toml)"
row boot "$b1" "$b2"
row "add stream" "$r1" "$r2"
read -r _ r1 _ r2 <<<"$(kit_times examples/kernels/programs/matmul_grid.toml)"
row "matmul grid" "$r1" "$r2"

# -- tt-metal ---------------------------------------------------------------------------------
if rt="$(bash scripts/setup-metal-runtime.sh 2>"$work/rt.err" | tail -n1)" && [ -d "$rt/lib" ]; then
  log "tt-metal eltwise add (scripts/bench-metal.sh)"
  if out="$(bash scripts/bench-metal.sh "$reference" 2>"$work/metal.err")"; then
    m_mine="$(echo "$out" | sed -n 's/^bhemu.*launch 2 \([0-9.]*\) s.*/\1/p')"
    m_ref="$(echo "$out" | sed -n 's/^reference.*launch 2 \([0-9.]*\) s.*/\1/p')"
    row "metal add" "${m_mine:--}" "${m_ref:--}"
  else
    log "metal add FAILED:"; tail -n 5 "$work/metal.err" >&2; fail=1
  fi
  g++ -std=c++20 -O1 -Wall -Wno-invalid-offsetof -o "$work/open_close" tests/metal/open_close.cpp \
    -Itests/metal -L"$rt/lib" -l:libtt_metal.so -Wl,-rpath,"$rt/lib"
  open_close() {  # LIB -> seconds of open + round trips + close
    local w out; w="$(mktemp -d "$work/oc.XXXXXX")"
    if ! out="$(cd "$w" && env TT_METAL_RUNTIME_ROOT="$rt/root" TT_METAL_SIMULATOR="$1" \
        TT_METAL_SLOW_DISPATCH_MODE=1 TT_METAL_CACHE="$w/cache" timeout 600 "$work/open_close" 2>"$w/err")"; then
      log "open_close FAILED on $1:"; grep -v '^\s*$' "$w/err" | tail -n 5 >&2; fail=1; echo -; return
    fi
    echo "$out" | sed -n 's/.*total \([0-9.]*\) ms.*/\1/p' | python3 -c 'import sys; print(f"{float(sys.stdin.read()) / 1000:.3f}")'
  }
  log "tt-metal open, round trips, close"
  o_mine="$(open_close "$sim/libttsim.so")"
  o_ref=-
  [ "$have_ref" = 1 ] && o_ref="$(open_close "$reference")"
  row "metal open" "$o_mine" "$o_ref"
else
  log "tt-metal rows left out: scripts/setup-metal-runtime.sh failed ($(tail -n1 "$work/rt.err"))"
fi

echo
echo "host seconds, BHEMU_THREADS=$BHEMU_THREADS, $(nproc) cores, $(date -u +%F)"
printf '%-12s %12s %12s %8s\n' workload bhemu reference ratio
printf '%s\n' "${rows[@]}"
exit "$fail"
