#!/usr/bin/env bash
# Create a Python virtual environment holding Tenstorrent's host client, tt-umd, from PyPI.
# bhemu's libttsim.so is driven through it (docs/tt-umd-sim-interface.md, tests/umd/README.md).
#
# Usage: scripts/setup-umd-venv.sh [VENV_DIR]      (default: .cache/umd-venv in the repository)
#
# - tt-umd 0.9.14 ships only CPython wheels (cp39..cp313, manylinux_2_28 x86_64); there is no
#   source distribution, so the interpreter must be one of those versions on x86_64 Linux.
#   The interpreter is $UMD_PYTHON if set (an error if it is not CPython 3.9..3.13), else the
#   first of python3.11, python3.12, python3.10, python3.13, python3.9, python3 that qualifies.
# - Idempotent: if the venv already imports tt_umd at the pinned version, nothing is installed.
# - Checks that `import tt_umd` works and that `tt_umd.create_simulation_tt_device` exists.
# - Prints the venv's python path on stdout as its last line (progress goes to stderr), so
#   callers can do:  PY="$(scripts/setup-umd-venv.sh)"
set -euo pipefail

UMD_VERSION="0.9.14"
repo="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$repo/.cache/umd-venv}"
case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac

log() { echo "setup-umd-venv: $*" >&2; }

py_ok() {  # is "$1" a CPython 3.9..3.13 interpreter?
  "$1" -c 'import sys, platform
ok = platform.python_implementation() == "CPython" and (3, 9) <= sys.version_info[:2] <= (3, 13)
sys.exit(0 if ok else 1)' 2>/dev/null
}

check() {  # does the venv's python import tt_umd at the pinned version with the simulator entry?
  "$1" - "$UMD_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
import tt_umd
want = sys.argv[1]
have = version("tt-umd")
if have != want:
    sys.exit(f"tt-umd {have} installed, want {want}")
if not callable(getattr(tt_umd, "create_simulation_tt_device", None)):
    sys.exit("tt_umd.create_simulation_tt_device missing")
PY
}

vpy="$venv/bin/python"
if [ -x "$vpy" ] && check "$vpy"; then
  log "tt-umd $UMD_VERSION already importable in $venv"
  echo "$vpy"
  exit 0
fi

if [ ! -x "$vpy" ]; then
  base=""
  if [ -n "${UMD_PYTHON:-}" ]; then
    if ! command -v "$UMD_PYTHON" >/dev/null 2>&1 || ! py_ok "$UMD_PYTHON"; then
      log "UMD_PYTHON=$UMD_PYTHON does not run as a CPython 3.9..3.13 interpreter (tt-umd $UMD_VERSION has only cp39..cp313 wheels)"
      exit 1
    fi
    base="$UMD_PYTHON"
  else
    for cand in python3.11 python3.12 python3.10 python3.13 python3.9 python3; do
      if command -v "$cand" >/dev/null 2>&1 && py_ok "$cand"; then base="$cand"; break; fi
    done
  fi
  if [ -z "$base" ]; then
    log "no CPython 3.9..3.13 found (tt-umd $UMD_VERSION has only cp39..cp313 wheels); set UMD_PYTHON"
    exit 1
  fi
  log "creating venv $venv with $("$base" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
  mkdir -p "$(dirname "$venv")"
  "$base" -m venv "$venv"
fi

if ! py_ok "$vpy"; then
  log "$vpy is not CPython 3.9..3.13; remove $venv or set UMD_PYTHON and retry"
  exit 1
fi

log "installing tt-umd==$UMD_VERSION"
"$vpy" -m pip install --quiet --disable-pip-version-check --only-binary=:all: \
  "tt-umd==$UMD_VERSION" >&2

if ! err="$(check "$vpy" 2>&1)"; then
  # Re-run without hiding stderr so the reason is visible.
  "$vpy" -c 'import tt_umd; print(tt_umd.create_simulation_tt_device)' >&2 || true
  log "tt-umd check failed${err:+: $err}"
  exit 1
fi
log "ok: tt-umd $UMD_VERSION in $venv"
echo "$vpy"
