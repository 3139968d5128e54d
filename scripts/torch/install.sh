#!/usr/bin/env bash
# Puts torch==VERSION (PyPI's Linux build, which runs on the CPU) into the venv of PYTHON, with
# the CUDA libraries it pulls in shared by every venv of the project.
#
#   scripts/torch/install.sh PYTHON VERSION
#
# PyPI's Linux torch needs fifteen nvidia-*-cu12 wheels (4.3 GB installed) only to import. They
# hold shared libraries and no Python code, so they do not depend on the Python version: they are
# installed once, into .cache/torch-cuda/ (pip --target), and each venv finds them through a .pth
# file (bhemu-torch-cuda.pth) — torch looks its CUDA libraries up on sys.path
# (`nvidia/<lib>/lib/`), and pip sees them there as installed, so `pip install torch` adds
# torch, triton and the small pure-Python requirements only. The tt-llk venv (CPython 3.11) and
# the ttnn venv (CPython 3.10) thereby hold one copy, not two. Nothing is kept in pip's cache.
# scripts/torch/cuda-libs-VERSION.txt lists the pins, as torch VERSION's metadata requires them.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
log() { echo "torch: $*" >&2; }
die() { log "$*"; exit 2; }
[ $# -eq 2 ] || die "usage: scripts/torch/install.sh PYTHON VERSION"
py="$1"; version="$2"
pins="$repo/scripts/torch/cuda-libs-$version.txt"
[ -f "$pins" ] || die "no $pins: list torch $version's nvidia-* requirements there"
shared="$repo/.cache/torch-cuda"
pip_q=(-m pip install -q --disable-pip-version-check --progress-bar off --no-cache-dir)

# 1. The shared CUDA libraries, once (a stamp holding the pins marks a complete install).
if [ ! -f "$shared/.pins" ] || ! cmp -s "$pins" "$shared/.pins"; then
  log "installing torch $version's CUDA libraries (about 3 GB download, 4.3 GB installed) into $shared, shared by the project's venvs"
  rm -rf "$shared" "$shared.partial"
  "$py" "${pip_q[@]}" --no-deps --target "$shared.partial" -r "$pins" >&2 \
    || { rm -rf "$shared.partial"; die "pip could not install $pins"; }
  cp "$pins" "$shared.partial/.pins"
  mv "$shared.partial" "$shared"
fi

# 2. The venv finds them; copies of its own from an older layout go.
site="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$shared" > "$site/bhemu-torch-cuda.pth"
if [ -d "$site/nvidia" ]; then
  log "removing the venv's own copy of the CUDA libraries ($site/nvidia): the shared one serves"
  rm -rf "$site/nvidia" "$site"/nvidia_*_cu12-*.dist-info
fi

# 3. torch itself.
if "$py" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$version')" 2>/dev/null; then
  exit 0
fi
log "installing torch==$version from PyPI (about 2.3 GB installed with triton)"
"$py" "${pip_q[@]}" "torch==$version" >&2
"$py" -c 'import torch; torch.zeros(2) + 1' || die "torch $version does not import in $site"
