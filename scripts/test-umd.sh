#!/usr/bin/env bash
# bhemu's libttsim.so driven by Tenstorrent's real host client, tt-umd 0.9.14
# from PyPI (tests/umd/README.md).
#
#   1. builds the release libttsim.so and bhemu (cargo build --release -p bhemu-ttsim-abi -p bhemu-cli);
#   2. creates .cache/umd-venv with tt-umd==0.9.14 (scripts/setup-umd-venv.sh);
#   3. fetches the ttnn 0.81.1 firmware and blackhole_140_arch.yaml (scripts/fetch-ttnn.sh);
#   4. installs the simulator with `bhemu install-sim DIR` (DIR = $BHEMU_SIM_DIR, default
#      .cache/bhemu-sim): DIR/libttsim.so + DIR/soc_descriptor.yaml;
#   5. builds the slow-dispatch BRISC kernel examples/kernels/noc_stamp.c (scripts/build-kernels.sh,
#      needs Debian's gcc-riscv64-unknown-elf, which scripts/test.sh installs);
#   6. runs tests/umd/acceptance.py with the venv's python; extra arguments are passed to it;
#   6b. runs tests/umd/multichip.py on a p300 and on a galaxy (BHEMU_SYSTEM; docs/multi-chip.md):
#      tt-umd's own topology discovery, round trips per chip, a transfer over an Ethernet link;
#   7. runs tests/umd/spin_bench.py on the spin kernel (examples/kernels/spin.c), 2000 iterations;
#   8. runs the same workload through the native client that calls the library as tt-umd does
#      (crates/ttsim-abi/examples/umd_poll.rs), 2000 iterations: bhemu's own share of a polled run.
#
# Exit status: 0 when both scripts passed every check, non-zero if one failed or a setup step did.
# Honours CARGO_TARGET_DIR.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
log() { echo "test-umd: $*" >&2; }

tdir="${CARGO_TARGET_DIR:-$repo/target}"
case "$tdir" in /*) ;; *) tdir="$repo/$tdir" ;; esac
sim="${BHEMU_SIM_DIR:-$repo/.cache/bhemu-sim}"
case "$sim" in /*) ;; *) sim="$repo/$sim" ;; esac

log "building libttsim.so and bhemu (release)"
cargo build --release -p bhemu-ttsim-abi -p bhemu-cli >&2
bhemu="$tdir/release/bhemu"
[ -f "$tdir/release/libttsim.so" ] || { log "$tdir/release/libttsim.so missing after the build"; exit 1; }

PY="$(bash scripts/setup-umd-venv.sh | tail -n1)"
bash scripts/fetch-ttnn.sh >/dev/null
fw="$repo/.cache/ttnn/firmware/blackhole-140"
soc="$repo/.cache/ttnn/soc/blackhole_140_arch.yaml"

"$bhemu" install-sim "$sim" --soc "$soc" >&2

kdir="$tdir/kernels-umd"
bash scripts/build-kernels.sh "$kdir" >/dev/null

log "running tests/umd/acceptance.py"
"$PY" tests/umd/acceptance.py "$sim/libttsim.so" "$fw" --kernel "$kdir/noc_stamp.elf" "$@"

log "running tests/umd/multichip.py (p300, galaxy)"
"$PY" tests/umd/multichip.py "$sim/libttsim.so" "$sim/soc_descriptor.yaml" --system p300
"$PY" tests/umd/multichip.py "$sim/libttsim.so" "$sim/soc_descriptor.yaml" --system galaxy

# A long kernel through tt-umd (one clock per read): the spin workload, kept short here; run
# tests/umd/spin_bench.py with the default 100000 iterations for the figure in docs/performance.md.
log "running tests/umd/spin_bench.py (2000 iterations)"
(cd tests/umd && BHEMU_STATS=1 "$PY" spin_bench.py "$sim/libttsim.so" "$fw" "$kdir/spin.elf" --iterations 2000)

log "running the umd_poll example (2000 iterations)"
cargo run --release -q -p bhemu-ttsim-abi --example umd_poll -- "$fw" "$kdir/spin.elf" 2000
