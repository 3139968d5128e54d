#!/usr/bin/env bash
# Build Tenstorrent's reference simulator (ttsim, Apache-2.0) into an ignored cache and install it
# as a simulator directory — libttsim.so with tt-metal's SoC descriptor beside it — for bhemu's
# differential tier (docs/reference.md).
#
#   scripts/build-reference.sh                       from $BHEMU_TTSIM_SRC, else ../shared/ttsim/ttsim-*.tar.gz
#   scripts/build-reference.sh --src DIR|TARBALL     from a source tree or archive the user names
#   scripts/build-reference.sh --lib FILE            install a prebuilt libttsim.so the user names
#
# Installs into .cache/reference/sim/ (libttsim.so, soc_descriptor.yaml) and prints that directory
# on stdout. Reuses an earlier build of the same source (its sha256 in .cache/reference/SOURCE).
# Exits 3 with a message on stderr when no source is to be had: callers skip their tier then.
# About 4 minutes on 2 cores; needs g++ (C++20) and python3.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="$repo/.cache/reference"
sim="$cache/sim"
log() { echo "build-reference: $*" >&2; }

src="${BHEMU_TTSIM_SRC:-}"
lib=""
while [ $# -gt 0 ]; do
  case "$1" in
    --src) src="$2"; shift 2 ;;
    --lib) lib="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) log "unknown argument $1"; exit 2 ;;
  esac
done

# The SoC descriptor comes from the ttnn wheel (PyPI), as for bhemu's own install.
soc="$repo/.cache/ttnn/soc/blackhole_140_arch.yaml"
if [ ! -f "$soc" ]; then
  bash "$repo/scripts/fetch-ttnn.sh" >/dev/null
fi
mkdir -p "$sim"

if [ -n "$lib" ]; then
  [ -f "$lib" ] || { log "no such library: $lib"; exit 2; }
  cp "$lib" "$sim/libttsim.so.tmp" && mv "$sim/libttsim.so.tmp" "$sim/libttsim.so"
  cp "$soc" "$sim/soc_descriptor.yaml"
  echo "prebuilt $(sha256sum "$lib" | cut -c1-16)" > "$cache/SOURCE"
  echo "$sim"
  exit 0
fi

if [ -z "$src" ]; then
  src="$(ls "$repo"/../shared/ttsim/ttsim-*.tar.gz 2>/dev/null | sort | tail -n1 || true)"
fi
if [ -z "$src" ] || [ ! -e "$src" ]; then
  log "no ttsim source (set BHEMU_TTSIM_SRC, pass --src or --lib, or lay ../shared/ttsim/ttsim-*.tar.gz)"
  exit 3
fi

if [ -d "$src" ]; then
  stamp="dir $(cd "$src" && find src -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.py' \) -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)"
else
  stamp="tar $(sha256sum "$src" | cut -c1-16)"
fi
if [ -f "$sim/libttsim.so" ] && [ "$(cat "$cache/SOURCE" 2>/dev/null)" = "$stamp" ]; then
  cp "$soc" "$sim/soc_descriptor.yaml"
  log "using $sim/libttsim.so ($stamp)"
  echo "$sim"
  exit 0
fi

for tool in g++ python3; do
  command -v "$tool" >/dev/null 2>&1 || { log "needs $tool"; exit 3; }
done

if [ -d "$src" ]; then
  tree="$(cd "$src" && pwd)"
else
  rm -rf "$cache/src" && mkdir -p "$cache/src"
  tar xzf "$src" -C "$cache/src"
  tree="$(ls -d "$cache"/src/ttsim-* | head -n1)"
fi
log "building $tree (about 4 minutes on 2 cores)"
jobs="$(nproc 2>/dev/null || echo 2)"
(cd "$tree" && python3 ./make.py -j"$jobs" src/_out/release_bh/libttsim.so >&2)
cp "$tree/src/_out/release_bh/libttsim.so" "$sim/libttsim.so.tmp"
mv "$sim/libttsim.so.tmp" "$sim/libttsim.so"
cp "$soc" "$sim/soc_descriptor.yaml"
echo "$stamp" > "$cache/SOURCE"
log "installed $sim"
echo "$sim"
