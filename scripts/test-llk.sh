#!/usr/bin/env bash
# tt-llk's own python_tests (shipped in the ttnn 0.81.1 wheel) run against bhemu's libttsim.so,
# or with --reference against Tenstorrent's reference simulator (docs/llk.md).
#
#   scripts/test-llk.sh [OPTIONS] [FILE|ID ...]
#
# FILE is a test file of tt-llk/tests/python_tests (test_pack.py, python_tests/test_pack.py): it
# runs --per-file ids of what the regression marker expression selects there; ID is a pytest node id
# (test_pack.py::test_pack[...]). Without arguments a fixed sample runs: from each file of
# DEFAULT_FILES below, --per-file ids spread evenly over its collected ids.
#
# Options:
#   --reference       run on the reference simulator (.cache/reference/sim, scripts/build-reference.sh)
#   --per-file N      ids per file for a FILE argument or the default sample (default 3; 0 = all)
#   --timeout S       per-test timeout in seconds (pytest-timeout; default 60); the harness's own
#                     wait for the kernels to finish is set 10 s shorter (scripts/llk/llk_hang_timeout.py)
#                     so that a hang reports which TRISCs did not finish
#   --all-files       every Blackhole test file of python_tests (not quasar/, helpers/,
#                     accuracy/): the per-file table of docs/llk.md
#   --ids-from FILE   the pytest ids listed in FILE, one per line (scripts/llk/ci-sample.txt: the
#                     CI sample, one passing id of every file that passes on bhemu)
#   --dump DIR        keep the raw result bytes of every id under DIR (scripts/llk/llk_result_dump.py;
#                     scripts/diff-llk.sh compares two such directories)
#   --seed N          the harness's stimulus seed (LLK_TEST_SEED; the harness's default is 42)
#   --setup-only      set everything up and stop
#   -h, --help        this text
#
# Sets up, idempotently, under .cache/ (git-ignored):
#   .cache/llk-venv/   CPython 3.11 venv: torch (PyPI; its CUDA libraries in .cache/torch-cuda/,
#                      shared with the ttnn venv: scripts/torch/install.sh), tt-exalens 0.4.2
#                      (brings tt-umd 0.9.14) and the harness's tests/requirements.txt less
#                      tt-smi/pre-commit. $LLK_PYTHON picks the interpreter.
#   .cache/llk/root/   the wheel's ttnn/tt_metal/* (no pre-compiled/) and ttnn/ttnn/cpp as ttnn/cpp,
#                      laid out as siblings the way the harness's include paths expect; in
#                      tt_metal/tt-llk/tests/sfpi/compiler/bin/ the tools the harness calls:
#                      riscv-tt-elf-g++ -> scripts/metal/riscv-tt-elf-g++ (Debian's compiler behind
#                      it) and riscv-tt-elf-{size,objcopy,objdump,gcov,gcov-tool} -> Debian's
#                      riscv64-unknown-elf-* binutils.
#   .cache/bhemu-sim/  bhemu's release libttsim.so + soc_descriptor.yaml (bhemu install-sim).
#   .cache/llk/runs/<sim>/<file>/  ids, pytest log and JUnit XML of the last run; each file runs
#                      with its own TMPDIR (/tmp/llk-*, named in <file>/tmpdir: tt-umd binds a
#                      socket there and the path must stay short).
#
# Prints a per-file table (passed, failed, skipped by the test, cannot compile without sfpi,
# not run: collected but no result, e.g. the process died or timed out) and exits 1 when any id
# failed or did not run. Honours CARGO_TARGET_DIR.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
log() { echo "test-llk: $*" >&2; }
die() { log "$*"; exit 2; }

DEFAULT_FILES=(
  test_eltwise_unary_datacopy.py
  test_eltwise_binary.py
  test_matmul.py
  test_pack.py
  test_unpack_tilize.py
  test_fast_tilize_full.py
  test_reduce.py
  test_transpose_dest.py
  test_pack_untilize.py
  test_tilize_calculate_untilize_L1.py
)
# Files that run with more than one device cycle per host clock on bhemu (BHEMU_CYCLES_PER_CLOCK,
# docs/libttsim-abi.md "Cycles per clock"): their kernels run for tens of millions of cycles
# behind one polling loop (the MOP drain test; the occupancy test's 4,096 trials per arm of
# mailbox round trips), which at one cycle per read outlasts the harness's wait on any
# simulator. 1000 is below silicon's ratio (about 1,350 cycles per microsecond-long PCIe read).
declare -A CYCLES_PER_CLOCK=(
  [test_tensix_sync_mop_drain.py]=1000
  [test_fp32_dest_acc_cfg_occupancy.py]=1000
)
# Files that run with the cores' pipeline timing on bhemu (BHEMU_CORE_TIMING=pipeline,
# docs/core-timing.md): the profiler's overhead test measures the cycles its own
# instrumentation costs (wall-clock reads, local and L1 stores, a loop exit) and expects
# silicon's 30 +- 5, which one instruction per cycle does not give (18 on either simulator).
declare -A CORE_TIMING=(
  [test_profiler_overhead.py]=pipeline
)
MARKER="not quasar and not nightly and not perf and not accuracy"
TTNN_VERSION="0.81.1"
EXALENS_VERSION="0.4.2"
UMD_VERSION="0.9.14"

reference=0; per_file=3; timeout=60; setup_only=0; all_files=0; args=(); dump=""; seed=""
while [ $# -gt 0 ]; do
  case "$1" in
    --reference) reference=1; shift ;;
    --per-file) per_file="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --setup-only) setup_only=1; shift ;;
    --dump) [ -n "${2:-}" ] || die "--dump wants a directory"; dump="$2"; shift 2 ;;
    --seed) seed="${2:-}"; shift 2 ;;
    --all-files) all_files=1; shift ;;
    --ids-from)
      [ -f "${2:-}" ] || die "--ids-from wants a file of test ids"
      mapfile -t from_file < <(grep -v '^\s*\(#\|$\)' "$2"); args+=("${from_file[@]}"); shift 2 ;;
    -h|--help) sed -n '2,45p' "$0"; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$per_file" in ''|*[!0-9]*) die "--per-file wants a number" ;; esac
case "$timeout" in ''|*[!0-9]*) die "--timeout wants seconds" ;; esac
case "$seed" in *[!0-9]*) die "--seed wants a number" ;; esac

cache="$repo/.cache"
mkdir -p "$cache"
t_start=$(date +%s)

# ---------------------------------------------------------------- 0. the ttnn wheel
wheel="$(ls "$cache"/ttnn/ttnn-"$TTNN_VERSION"-*.whl 2>/dev/null | head -n1 || true)"
if [ -z "$wheel" ]; then
  log "fetching the ttnn $TTNN_VERSION wheel (scripts/fetch-ttnn.sh)"
  bash scripts/fetch-ttnn.sh >/dev/null
  wheel="$(ls "$cache"/ttnn/ttnn-"$TTNN_VERSION"-*.whl | head -n1)"
fi
soc="$cache/ttnn/soc/blackhole_140_arch.yaml"
[ -f "$soc" ] || bash scripts/fetch-ttnn.sh >/dev/null

# ---------------------------------------------------------------- 1. the venv
venv="$cache/llk-venv"
vpy="$venv/bin/python"
if [ ! -x "$vpy" ]; then
  base="${LLK_PYTHON:-}"
  if [ -z "$base" ]; then
    for cand in python3.11 python3.10 python3.12; do
      if command -v "$cand" >/dev/null 2>&1; then base="$cand"; break; fi
    done
  fi
  [ -n "$base" ] || die "no python3.11 (or 3.10/3.12) found; set LLK_PYTHON"
  log "creating venv $venv with $("$base" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
  "$base" -m venv "$venv"
fi
req_src="$(unzip -p "$wheel" ttnn/tt_metal/tt-llk/tests/requirements.txt)"
# The harness's pins less tt-smi/pre-commit (not needed on a simulator) and its index lines (the
# extra index is not reachable here; torch comes from PyPI), tt-exalens moved to 0.4.2.
req="$(printf '%s\n' "$req_src" | sed -e 's/#.*//' -e 's/[[:space:]]*$//' | grep -v '^$' \
  | grep -v -e '^--' -e '^tt-smi' -e '^pre-commit' -e '^tt-exalens' -e '^torch==')"
req="$req
tt-exalens==$EXALENS_VERSION"
stamp="$venv/.llk-requirements"
want_stamp="$(printf '%s\n' "$req" | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] \
   && "$vpy" -c 'import torch, ttexalens, tt_umd, pytest' 2>/dev/null; then
  log "venv ready: $("$vpy" -c 'import torch; from importlib.metadata import version as v; print("torch", torch.__version__, "tt-exalens", v("tt-exalens"), "tt-umd", v("tt-umd"))')"
else
  # torch at the harness's pin, its CUDA libraries shared with the ttnn venv (scripts/torch/install.sh).
  torch_version="$(printf '%s\n' "$req_src" | sed -n 's/^torch==\([0-9.]*\).*/\1/p' | head -n1)"
  [ -n "$torch_version" ] || die "tt-llk's tests/requirements.txt pins no torch version"
  bash scripts/torch/install.sh "$vpy" "$torch_version"
  log "installing the harness's requirements (less tt-smi, pre-commit) with tt-exalens==$EXALENS_VERSION:"
  printf '%s\n' "$req" | tr '\n' ' ' | fold -s -w 100 | sed 's/^/    /' >&2; echo >&2
  printf '%s\n' "$req" > "$venv/llk-requirements.txt"
  "$vpy" -m pip install --disable-pip-version-check --progress-bar off --prefer-binary --no-cache-dir \
    -r "$venv/llk-requirements.txt" >&2
  have_umd="$("$vpy" -c 'from importlib.metadata import version; print(version("tt-umd"))')"
  [ "$have_umd" = "$UMD_VERSION" ] || log "warning: tt-umd $have_umd installed, bhemu is checked against $UMD_VERSION"
  "$vpy" -c 'import torch, ttexalens, tt_umd, pytest' || die "venv check failed"
  echo "$want_stamp" > "$stamp"
  log "venv ready"
fi

# ---------------------------------------------------------------- 2. the harness from the wheel
root="$cache/llk/root"
llk="$root/tt_metal/tt-llk"
tests="$llk/tests"
wheel_id="$(basename "$wheel") $(stat -c %s "$wheel")"
if [ ! -f "$root/.wheel" ] || [ "$(cat "$root/.wheel")" != "$wheel_id" ]; then
  log "laying out the harness from $(basename "$wheel") in $root"
  rm -rf "$root.tmp"
  mkdir -p "$root.tmp"
  "$vpy" - "$wheel" "$root.tmp" <<'PY'
import os, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(wheel)
n = 0
for info in z.infolist():
    name = info.filename
    if name.startswith("ttnn/tt_metal/") and not name.startswith("ttnn/tt_metal/pre-compiled/"):
        rel = name[len("ttnn/"):]                 # tt_metal/...
    elif name.startswith("ttnn/ttnn/cpp/"):
        rel = "ttnn/cpp/" + name[len("ttnn/ttnn/cpp/"):]
    else:
        continue
    if name.endswith("/"):
        continue
    out = os.path.join(dest, rel)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "wb") as f:
        f.write(z.read(info))
    mode = (info.external_attr >> 16) & 0o777
    if mode:
        os.chmod(out, mode)
    n += 1
print(f"test-llk: {n} files extracted", file=sys.stderr)
PY
  echo "$wheel_id" > "$root.tmp/.wheel"
  rm -rf "$root"
  mv "$root.tmp" "$root"
fi
[ -d "$tests/python_tests" ] || die "$tests/python_tests missing after the layout"

bin="$tests/sfpi/compiler/bin"
mkdir -p "$bin"
command -v riscv64-unknown-elf-g++ >/dev/null \
  || die "riscv64-unknown-elf-g++ missing: apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf"
[ -d /usr/lib/picolibc/riscv64-unknown-elf ] || die "picolibc missing: apt-get install picolibc-riscv64-unknown-elf"
ln -sfn "$repo/scripts/metal/riscv-tt-elf-g++" "$bin/riscv-tt-elf-g++"
for tool in size objcopy objdump gcov gcov-tool; do
  real="$(command -v "riscv64-unknown-elf-$tool" || true)"
  if [ -n "$real" ]; then
    ln -sfn "$real" "$bin/riscv-tt-elf-$tool"
  elif [ "$tool" != gcov-tool ] && [ "$tool" != gcov ]; then
    die "riscv64-unknown-elf-$tool missing (Debian's binutils-riscv64-unknown-elf)"
  fi
done
# The compile-and-link-from-stdin form the harness uses for every kernel part: checked once.
probe="$cache/llk/probe"
mkdir -p "$probe"
if ! echo 'int main() { return 0; }' | "$bin/riscv-tt-elf-g++" -mcpu=tt-bh -O2 -nostartfiles \
      -x c++ - -lc -lgcc -o "$probe/probe.elf" 2>"$probe/err"; then
  cat "$probe/err" >&2; die "the toolchain cannot compile and link from standard input"
fi
"$bin/riscv-tt-elf-size" "$probe/probe.elf" >/dev/null

# ---------------------------------------------------------------- 3. the simulator
if [ "$reference" = 1 ]; then
  simname=reference
  simdir="$cache/reference/sim"
  if [ ! -f "$simdir/libttsim.so" ]; then
    log "building the reference simulator (scripts/build-reference.sh)"
    simdir="$(bash scripts/build-reference.sh | tail -n1)"
  fi
  export TT_METAL_DISABLE_SFPLOADMACRO=1
else
  simname=bhemu
  tdir="${CARGO_TARGET_DIR:-$repo/target}"
  case "$tdir" in /*) ;; *) tdir="$repo/$tdir" ;; esac
  log "building libttsim.so and bhemu (cargo build --release -p bhemu-ttsim-abi -p bhemu-cli)"
  cargo build --release -q -p bhemu-ttsim-abi -p bhemu-cli >&2
  simdir="$cache/bhemu-sim"
  "$tdir/release/bhemu" install-sim "$simdir" --soc "$soc" >&2
fi
[ -f "$simdir/libttsim.so" ] && [ -f "$simdir/soc_descriptor.yaml" ] || die "no simulator in $simdir"
export TT_METAL_SIMULATOR="$simdir/libttsim.so"
export CHIP_ARCH=blackhole
log "simulator: $TT_METAL_SIMULATOR ($simname)"
t_setup=$(date +%s)
log "setup took $((t_setup - t_start)) s"
[ "$setup_only" = 1 ] && exit 0

# ---------------------------------------------------------------- 4. what to run
# Group the arguments by file: "file.py" alone means "sample (or all) of that file".
declare -A ids_of=()
order=()
if [ "$all_files" = 1 ]; then
  mapfile -t args < <(cd "$tests/python_tests" && find . -name 'test_*.py' \
      -not -path './quasar/*' -not -path './helpers/*' -not -path './accuracy/*' | sed 's|^\./||' | sort)
fi
if [ ${#args[@]} -eq 0 ]; then args=("${DEFAULT_FILES[@]}"); fi
for a in "${args[@]}"; do
  a="${a#python_tests/}"
  f="${a%%::*}"
  [ -f "$tests/python_tests/$f" ] || die "no test file python_tests/$f"
  [ -n "${ids_of[$f]+x}" ] || { order+=("$f"); ids_of[$f]=""; }
  if [ "$a" != "$f" ]; then ids_of[$f]+="$a"$'\n'; fi
done

runs="$cache/llk/runs/$simname"
mkdir -p "$runs"
export PYTHONPATH="$repo/scripts/llk${PYTHONPATH:+:$PYTHONPATH}"
export LLK_HANG_TIMEOUT=$(( timeout > 20 ? timeout - 10 : timeout / 2 + 1 ))
if [ -n "$dump" ]; then
  mkdir -p "$dump"; dump="$(cd "$dump" && pwd)"
  export BHEMU_LLK_DUMP="$dump"
fi
[ -z "$seed" ] || export LLK_TEST_SEED="$seed"
pyargs=(-p llk_hang_timeout -p llk_result_dump -p no:sugar -p no:cacheprovider -o log_cli=false -o console_output_style=classic --run-simulator)

run_file() {  # $1 = file; ids on stdin
  local f="$1" d="$runs/${1%.py}" sel tmp
  # TMPDIR per file, short: tt-umd puts a Unix socket under it (path limit 108 bytes).
  [ -f "$d/tmpdir" ] && rm -rf "$(cat "$d/tmpdir")"
  rm -rf "$d"; mkdir -p "$d"
  tmp="$(mktemp -d /tmp/llk-XXXXXX)"; echo "$tmp" > "$d/tmpdir"
  sel="$(cat)"
  if [ -z "$sel" ]; then
    # Collect (the same mode as the run) and take $per_file ids spread evenly.
    (cd "$tests/python_tests" && TMPDIR="$tmp" timeout 600 "$vpy" -m pytest --collect-only -q \
        "${pyargs[@]}" -m "$MARKER" "$f") >"$d/collect.log" 2>&1 || true
    sel="$( (grep -E "^$f::" "$d/collect.log" || true) | "$vpy" -c '
import sys
ids = [l.rstrip("\n") for l in sys.stdin if l.strip()]
n = int(sys.argv[1])
if n and len(ids) > n:
    ids = [ids[(i * (len(ids) - 1)) // max(n - 1, 1)] for i in range(n)] if n > 1 else ids[:1]
print("\n".join(ids))' "$per_file")"
    if [ -z "$sel" ]; then
      log "$f: nothing collected (see $d/collect.log)"
      : > "$d/ids"; return
    fi
  fi
  printf '%s\n' "$sel" > "$d/ids"
  local n; n="$(grep -c . "$d/ids")"
  log "$f: $n id(s) on $simname"
  local t0; t0=$(date +%s)
  mapfile -t idarr < "$d/ids"
  local k=1
  if [ "$simname" = bhemu ] && [ -n "${CYCLES_PER_CLOCK[$f]+x}" ]; then
    k="${CYCLES_PER_CLOCK[$f]}"; log "$f: $k device cycles per host clock"
  fi
  local timing="${BHEMU_CORE_TIMING:-instruction}"
  if [ "$simname" = bhemu ] && [ -n "${CORE_TIMING[$f]+x}" ]; then
    timing="${CORE_TIMING[$f]}"; log "$f: $timing core timing"
  fi
  (cd "$tests/python_tests" && BHEMU_CYCLES_PER_CLOCK="$k" BHEMU_CORE_TIMING="$timing" TMPDIR="$tmp" timeout $((n * timeout + 300)) "$vpy" -m pytest \
      "${pyargs[@]}" --timeout="$timeout" --junit-xml="$d/junit.xml" -o junit_logging=system-out \
      "${idarr[@]}") >"$d/pytest.log" 2>&1 || true
  echo $(( $(date +%s) - t0 )) > "$d/seconds"
}

for f in "${order[@]}"; do
  printf '%s' "${ids_of[$f]}" | run_file "$f"
done

# ---------------------------------------------------------------- 5. the table
t_end=$(date +%s)
"$vpy" "$repo/scripts/llk/summarize.py" "$runs" "$simname" $((t_end - t_start)) $((t_end - t_setup)) "${order[@]}"
