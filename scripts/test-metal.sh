#!/usr/bin/env bash
# tt-metal's own host library (libtt_metal.so, ttnn 0.81.1 wheel) driving bhemu's libttsim.so in
# slow dispatch (docs/tt-metal-on-bhemu.md):
#
#   1. builds the release libttsim.so and bhemu;
#   2. prepares the tt-metal runtime from the wheel (scripts/setup-metal-runtime.sh → .cache/metal-runtime)
#      with the project's compiler driver for tt-metal's JIT;
#   3. installs the simulator with `bhemu install-sim` into .cache/metal-sim;
#   4. builds the C++ host tests tests/metal/*.cpp against libtt_metal.so (host g++, C++20); each
#      gets the kernel directory tests/metal/kernels as its argument;
#   5. runs each in a scratch directory with TT_METAL_SIMULATOR, TT_METAL_RUNTIME_ROOT,
#      TT_METAL_SLOW_DISPATCH_MODE=1 and a fresh TT_METAL_CACHE; a test named p300_* on a P300
#      (BHEMU_SYSTEM=p300), after scripts/metal/build-active-erisc.sh has built the
#      active-Ethernet firmware tt-metal runs there (others on the default one-chip p150). A test passes when it exits 0 and
#      bhemu printed no device-fault line on stderr. A test named hang_* launches a kernel that never
#      finishes: it passes when bhemu's hang report naming a stuck BRISC appears on stderr within
#      BHEMU_METAL_HANG_WAIT seconds (default 60) of its start; the program is then stopped.
#
# Usage: scripts/test-metal.sh [TEST...]   (default: every tests/metal/*.cpp but the bench_*
# benchmarks; names without .cpp)
# Environment: BHEMU_METAL_TIMEOUT (seconds per test, default 300); BHEMU_NO_INSTALL=1 skips
# installing host packages. Exit status: 0 when every test passed. Honours CARGO_TARGET_DIR.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
log() { echo "test-metal: $*" >&2; }

need=()
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v riscv64-unknown-elf-g++ >/dev/null 2>&1 || need+=(gcc-riscv64-unknown-elf)
[ -d /usr/lib/picolibc/riscv64-unknown-elf ] || need+=(picolibc-riscv64-unknown-elf)
[ -d /usr/include/c++ ] || need+=(libstdc++-12-dev)
bash "$repo/scripts/install-debian.sh" test-metal ${need[@]+"${need[@]}"}

tdir="${CARGO_TARGET_DIR:-$repo/target}"
case "$tdir" in /*) ;; *) tdir="$repo/$tdir" ;; esac

log "building libttsim.so and bhemu (release)"
cargo build --release -p bhemu-ttsim-abi -p bhemu-cli >&2
rt="$(bash scripts/setup-metal-runtime.sh | tail -n1)"
sim="$repo/.cache/metal-sim"
"$tdir/release/bhemu" install-sim "$sim" >&2

bin="$tdir/metal"
mkdir -p "$bin"
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  for f in tests/metal/*.cpp; do
    t="$(basename "$f" .cpp)"
    # bench_* are benchmarks (scripts/bench-metal.sh), not tests.
    [[ "$t" == bench_* ]] || tests+=("$t")
  done
fi

# Every test but open_close needs tt-metal's JIT, hence the kernel kit's compatibility layer that
# the compiler driver uses. Without it those tests fail under BHEMU_REQUIRE_TOOLS=1 (CI) and are
# skipped with a message otherwise.
compat="${BHEMU_JIT_COMPAT:-$repo/scripts/kernel-kit/compat}"
if [ ! -d "$compat" ]; then
  jit_tests=()
  for t in "${tests[@]}"; do [ "$t" = open_close ] || jit_tests+=("$t"); done
  if [ ${#jit_tests[@]} -gt 0 ]; then
    if [ "${BHEMU_REQUIRE_TOOLS:-0}" = 1 ]; then
      log "FAIL: ${jit_tests[*]} need the kernel kit's compatibility layer $compat, which is missing"
      exit 1
    fi
    log "SKIP ${jit_tests[*]}: no kernel-kit compatibility layer at $compat (tt-metal's JIT needs it)"
    tests=(open_close)
  fi
fi

# A hang_* test passes when the report appears within this many seconds of the program's start.
HANG_WAIT="${BHEMU_METAL_HANG_WAIT:-60}"
fail=0
for t in "${tests[@]}"; do
  src="tests/metal/$t.cpp"
  [ -f "$src" ] || { log "no test $src"; fail=1; continue; }
  g++ -std=c++20 -O1 -Wall -Wno-invalid-offsetof -o "$bin/$t" "$src" -Itests/metal \
    -L"$rt/lib" -l:libtt_metal.so -Wl,-rpath,"$rt/lib"
  # A p300_* test runs on a P300 (two chips), with the one-ERISC active-Ethernet firmware.
  system=p150
  if [[ "$t" == p300_* ]]; then
    system=p300
    if ! bash scripts/metal/build-active-erisc.sh "$rt" "$sim"; then
      log "FAIL $t: no active-Ethernet firmware"
      fail=1
      continue
    fi
  fi
  work="$(mktemp -d "${TMPDIR:-/tmp}/bhemu-metal-$t.XXXXXX")"
  start=$EPOCHREALTIME
  set +e
  (cd "$work" &&
    exec env BHEMU_SYSTEM="$system" TT_METAL_RUNTIME_ROOT="$rt/root" TT_METAL_SIMULATOR="$sim/libttsim.so" \
      TT_METAL_SLOW_DISPATCH_MODE=1 TT_METAL_CACHE="$work/cache" \
      timeout "${BHEMU_METAL_TIMEOUT:-300}" "$bin/$t" "$repo/tests/metal/kernels") >"$work/stdout" 2>"$work/stderr" &
  pid=$!
  hang_ok=0
  if [[ "$t" == hang_* ]]; then
    # The kernel never finishes: pass once bhemu's hang report names a stuck BRISC, then stop it.
    for _ in $(seq 1 "$((10 * HANG_WAIT))"); do
      if grep -q "kernel hang suspected" "$work/stderr" && grep -q "BRISC" "$work/stderr"; then
        hang_ok=1
        break
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill "$pid" 2>/dev/null
  fi
  wait "$pid"
  rc=$?
  set -e
  secs=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$EPOCHREALTIME")
  faults=$(grep -c "device fault" "$work/stderr" || true)
  cat "$work/stdout"
  if [[ "$t" == hang_* ]]; then
    [ "$hang_ok" = 1 ] && rc=0 && grep -A12 "kernel hang suspected" "$work/stderr" >&2
    [ "$hang_ok" = 1 ] || log "no hang report within ${HANG_WAIT}s"
  fi
  if [ "$rc" = 0 ] && [ "$faults" = 0 ]; then
    log "PASS $t (${secs}s wall)"
    rm -rf "$work"
  else
    log "FAIL $t: exit $rc, $faults device-fault line(s), ${secs}s wall; last stderr lines ($work/stderr):"
    grep -v "^\s*$" "$work/stderr" | tail -n 25 >&2
    fail=1
  fi
done
exit $fail
