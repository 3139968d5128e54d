#!/usr/bin/env bash
# ttnn from Python on bhemu (docs/ttnn.md): the pytest suite tests/ttnn/ runs ttnn operations on
# bhemu's libttsim.so, checks each against torch and, when the reference simulator is there, bit
# for bit against it (each simulator in worker processes of its own).
#
#   scripts/test-ttnn.sh [--sample] [--setup-only] [CASE ...] [-- PYTEST-ARGS]
#
#   --sample      only the cases marked sample in tests/ttnn/cases.py (what scripts/test.sh runs)
#   --setup-only  install everything and stop
#   CASE          case names of tests/ttnn/cases.py (default: all of them)
#
# Installs, idempotently, under .cache/ (git-ignored):
#   .cache/ttnn-venv/  CPython 3.10 venv (pyenv's 3.10 or python3.10 on PATH; $TTNN_PYTHON picks
#                      another): ttnn 0.81.1 (the wheel of scripts/fetch-ttnn.sh) with its
#                      requirements, torch from PyPI (its CUDA libraries in .cache/torch-cuda/,
#                      shared with the tt-llk venv: scripts/torch/install.sh), pytest. ttnn's
#                      runtime root is its package directory, site-packages/ttnn, prepared there:
#                      runtime/sfpi/compiler/bin/riscv-tt-elf-g++ -> scripts/metal/riscv-tt-elf-g++
#                      (Debian's riscv64-unknown-elf-g++ behind it) and riscv-tt-elf-{size,objcopy,
#                      objdump} -> Debian's binutils; the firmware build-key alias in
#                      tt_metal/pre-compiled/; runtime/hw/lib/blackhole/*.o rebuilt
#                      (scripts/metal/build-hw-lib.sh); GCC-12 adaptations of five device headers
#                      (scripts/ttnn/adapt-gcc12.py); runtime/sfpi/compiler/include ->
#                      scripts/ttnn/sfpi-include, bhemu's declaration-only sfpi stand-in.
#   .cache/bhemu-sim/  bhemu's release libttsim.so + soc_descriptor.yaml (bhemu install-sim).
#   .cache/ttnn-runs/  the workers' results and logs of the last run, the JIT cache.
# The reference simulator is used when BHEMU_REFERENCE_LIB names its libttsim.so, or when
# .cache/reference/sim/libttsim.so exists (scripts/build-reference.sh); otherwise its comparisons
# are skipped with a message. Honours CARGO_TARGET_DIR.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
log() { echo "test-ttnn: $*" >&2; }
die() { log "$*"; exit 2; }

TTNN_VERSION="0.81.1"
TORCH_VERSION="2.9.1"  # the version tt-llk's harness in the same wheel pins
FW_VARIANT="11660721212704224774"
JIT_KEY="2906205993819637780"  # docs/tt-metal-on-bhemu.md, "The runtime root and the JIT"

sample=0; setup_only=0; cases=(); pyargs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sample) sample=1; shift ;;
    --setup-only) setup_only=1; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    --) shift; pyargs=("$@"); break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) cases+=("$1"); shift ;;
  esac
done

cache="$repo/.cache"
mkdir -p "$cache"
t_start=$(date +%s)

# ---------------------------------------------------------------- 0. tools and the wheel
need=()
command -v riscv64-unknown-elf-g++ >/dev/null 2>&1 || need+=(gcc-riscv64-unknown-elf)
command -v riscv64-unknown-elf-objcopy >/dev/null 2>&1 || need+=(binutils-riscv64-unknown-elf)
[ -d /usr/lib/picolibc/riscv64-unknown-elf ] || need+=(picolibc-riscv64-unknown-elf)
[ -d /usr/include/c++/12 ] || need+=(libstdc++-12-dev)
bash "$repo/scripts/install-debian.sh" test-ttnn ${need[@]+"${need[@]}"}
bash scripts/fetch-ttnn.sh >"$cache/fetch-ttnn.log" 2>&1 || { cat "$cache/fetch-ttnn.log" >&2; die "scripts/fetch-ttnn.sh failed"; }
wheel="$(ls "$cache"/ttnn/ttnn-"$TTNN_VERSION"-*.whl | head -n1)"
soc="$cache/ttnn/soc/blackhole_140_arch.yaml"

# ---------------------------------------------------------------- 1. the venv
venv="$cache/ttnn-venv"
vpy="$venv/bin/python"
if [ ! -x "$vpy" ]; then
  base="${TTNN_PYTHON:-}"
  if [ -z "$base" ]; then
    # python3.10 on PATH may be a pyenv shim that refuses to run: each candidate is tried.
    for cand in python3.10 $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.10.*/bin/python3.10 2>/dev/null | sort -rV); do
      if "$cand" -c 'import sys, venv; sys.exit(sys.version_info[:2] != (3, 10))' >/dev/null 2>&1; then
        base="$cand"; break
      fi
    done
  fi
  if [ -z "$base" ]; then
    msg="no CPython 3.10 (the ttnn wheel is cp310): install it (pyenv install 3.10) or set TTNN_PYTHON"
    [ "${BHEMU_REQUIRE_TOOLS:-0}" = 1 ] && die "FAIL: $msg"
    log "SKIP: $msg"; exit 0
  fi
  log "creating venv $venv with $("$base" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
  "$base" -m venv "$venv"
fi
want="ttnn $TTNN_VERSION $(basename "$wheel"), torch $TORCH_VERSION, pytest"
stamp="$venv/.bhemu-ttnn"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && "$vpy" -c 'import torch, ttnn, pytest' 2>/dev/null; then
  log "venv ready: $want"
else
  bash scripts/torch/install.sh "$vpy" "$TORCH_VERSION"
  log "installing $(basename "$wheel") with its requirements (numpy<2, loguru, networkx, graphviz, pyyaml, click, pandas, seaborn, ml_dtypes) and pytest"
  # --force-reinstall of the wheel alone: the patches below are made to the installed files.
  "$vpy" -m pip install -q --disable-pip-version-check --progress-bar off --no-cache-dir "$wheel" pytest >&2
  "$vpy" -m pip install -q --disable-pip-version-check --progress-bar off --no-cache-dir --no-deps --force-reinstall "$wheel" >&2
  "$vpy" -c 'import torch, ttnn, pytest' >/dev/null 2>&1 || die "venv check failed: import torch, ttnn, pytest"
  echo "$want" > "$stamp"
  log "venv ready"
fi

# ---------------------------------------------------------------- 2. ttnn's runtime root
root="$("$vpy" -c 'import os, importlib.util as u; print(os.path.dirname(u.find_spec("ttnn").origin))')"
[ -d "$root/tt_metal/pre-compiled/$FW_VARIANT" ] || die "$root has no firmware variant $FW_VARIANT"
ln -sfn "$FW_VARIANT" "$root/tt_metal/pre-compiled/$JIT_KEY"
bin="$root/runtime/sfpi/compiler/bin"
mkdir -p "$bin"
ln -sfn "$repo/scripts/metal/riscv-tt-elf-g++" "$bin/riscv-tt-elf-g++"
# bhemu's declaration-only sfpi stand-in where the compiler's own headers go (runtime/sfpi/compiler/
# include: the driver puts it first on the include path).
ln -sfn "$repo/scripts/ttnn/sfpi-include" "$root/runtime/sfpi/compiler/include"
for tool in size objcopy objdump; do
  ln -sfn "$(command -v "riscv64-unknown-elf-$tool")" "$bin/riscv-tt-elf-$tool"
done
"$vpy" scripts/ttnn/adapt-gcc12.py "$root" || die "the GCC-12 adaptations do not apply to this ttnn"
bash scripts/metal/build-hw-lib.sh "$root"

# ---------------------------------------------------------------- 3. the simulators
tdir="${CARGO_TARGET_DIR:-$repo/target}"
case "$tdir" in /*) ;; *) tdir="$repo/$tdir" ;; esac
log "building libttsim.so and bhemu (cargo build --release -p bhemu-ttsim-abi -p bhemu-cli)"
cargo build --release -q -p bhemu-ttsim-abi -p bhemu-cli >&2
simdir="$cache/bhemu-sim"
"$tdir/release/bhemu" install-sim "$simdir" --soc "$soc" >/dev/null
export BHEMU_TTNN_SIM="$simdir/libttsim.so"
ref="${BHEMU_REFERENCE_LIB:-}"
if [ -z "$ref" ] && [ -f "$cache/reference/sim/libttsim.so" ]; then ref="$cache/reference/sim/libttsim.so"; fi
if [ -n "$ref" ] && [ -f "$ref" ] && [ -f "$(dirname "$ref")/soc_descriptor.yaml" ]; then
  export BHEMU_TTNN_REFERENCE="$ref"
  log "reference simulator: $ref"
else
  export BHEMU_TTNN_REFERENCE=""
  log "no reference simulator (scripts/build-reference.sh, or BHEMU_REFERENCE_LIB): bit-for-bit comparisons skipped"
fi
log "setup took $(( $(date +%s) - t_start )) s"
[ "$setup_only" = 1 ] && exit 0

# ---------------------------------------------------------------- 4. the suite
runs="$cache/ttnn-runs"
mkdir -p "$runs"
# tt-metal's JIT cache is kept between runs; its keys do not cover the compiler driver or the
# compatibility layer, so it is dropped when either changed since.
jc="$runs/tt-metal-cache"
if [ -d "$jc" ] && [ -n "$(find scripts/metal/riscv-tt-elf-g++ scripts/kernel-kit/compat scripts/ttnn -newer "$jc" -print -quit)" ]; then
  rm -rf "$jc"
fi
export BHEMU_TTNN_OUT="$runs"
export TT_METAL_RUNTIME_ROOT="$root"
[ "$sample" = 1 ] && export BHEMU_TTNN_SAMPLE=1
if [ ${#cases[@]} -gt 0 ]; then BHEMU_TTNN_CASES="$(IFS=,; echo "${cases[*]}")"; export BHEMU_TTNN_CASES; fi
cd tests/ttnn
"$vpy" -m pytest -p no:cacheprovider -q -rfEsxX "${pyargs[@]}" test_ttnn.py
