#!/usr/bin/env bash
# Build the active-Ethernet firmware tt-metal runs on a system of several chips under a simulator
# (BHEMU_SYSTEM=p300 or galaxy; docs/multi-chip.md MC-14) with tt-metal's own JIT, and put it in
# the runtime's pre-compiled directory for that system's build key.
#
# Why: with a simulator tt-metal turns its two-ERISC mode off and runs the active-Ethernet
# firmware on ERISC1 alone, built without ENABLE_2_ERISC_MODE and with PHYSICAL_AERISC_ID=1. The
# ttnn 0.81.1 wheel ships only two-ERISC builds (ERISC0 runs the firmware, then parks itself until
# ERISC1 resets it), which on ERISC1 alone never finish starting. Everything else the wheel ships
# serves as it is (scripts/setup-metal-runtime.sh links it into the key's directory).
#
# How: one tt-metal run on bhemu with TT_METAL_DISABLE_PRECOMPILED_FW=1 makes tt-metal JIT-build all
# of its firmware with the project's compiler driver, with the flags and defines it chooses
# itself. With Debian's GCC the BRISC firmware does not fit its 0x2200-byte region, so that run
# stops after building (its failure is expected); the active-Ethernet firmware it built —
# active_erisc.elf and the active_erisc_weakened.elf kernels link against — is kept.
#
# Usage: scripts/metal/build-active-erisc.sh RUNTIME SIM_DIR
#   RUNTIME: from scripts/setup-metal-runtime.sh; SIM_DIR: from `bhemu install-sim`.
# Does nothing when the firmware is already there. Needs a host g++ (it builds
# tests/metal/open_close.cpp as the program that opens the device). Exit status 0 when the
# firmware is in place.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
rt="$(cd "$1" && pwd)"
sim="$(cd "$2" && pwd)"
log() { echo "build-active-erisc: $*" >&2; }
SYSTEM_KEY="16188023681421878846"
dest="$rt/root/tt_metal/pre-compiled/$SYSTEM_KEY/active_erisc"
if [ -f "$dest/active_erisc.elf" ] && [ -f "$dest/active_erisc_weakened.elf" ]; then
  exit 0
fi
[ -d "$(dirname "$dest")" ] || { log "no $(dirname "$dest"): run scripts/setup-metal-runtime.sh first"; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/bhemu-active-erisc.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "building the one-ERISC active-Ethernet firmware with tt-metal's JIT (build key $SYSTEM_KEY)"
g++ -std=c++20 -O1 -Wno-invalid-offsetof -o "$work/open_close" "$repo/tests/metal/open_close.cpp" -I"$repo/tests/metal" \
  -L"$rt/lib" -l:libtt_metal.so -Wl,-rpath,"$rt/lib"
# The run is expected to abort once the firmware is built (see the top): its output, and the
# shell's note of the abort, go to the log.
set +e
{ (cd "$work" &&
  exec env BHEMU_SYSTEM=p300 TT_METAL_DISABLE_PRECOMPILED_FW=1 TT_METAL_RUNTIME_ROOT="$rt/root" \
    TT_METAL_SIMULATOR="$sim/libttsim.so" TT_METAL_SLOW_DISPATCH_MODE=1 TT_METAL_CACHE="$work/cache" \
    timeout 120 ./open_close) >"$work/log" 2>&1; } 2>>"$work/log"
set -e
built="$work/cache/tt-metal-cache$SYSTEM_KEY/firmware/active_erisc"
if [ ! -f "$built/active_erisc.elf" ] || [ ! -f "$built/active_erisc_weakened.elf" ]; then
  log "FAIL: tt-metal's JIT left no active_erisc.elf in $built; the run's last lines:"
  grep -v "^\s*$" "$work/log" | grep -v "^ ---" | tail -n 15 >&2
  exit 1
fi
mkdir -p "$dest"
cp "$built/active_erisc.elf" "$built/active_erisc_weakened.elf" "$dest/"
log "installed $dest/{active_erisc,active_erisc_weakened}.elf"
