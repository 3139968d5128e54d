#!/usr/bin/env bash
# Build bhemu's self-checking C programs for bare-metal RV32 (and optionally natively).
#
#   examples/riscv/build.sh [-o OUTDIR] [--native] [PROG.c ...]     (default: every *.c here)
#
# Writes OUTDIR/NAME.elf (default OUTDIR: target/riscv-examples). A program picks its ISA with a
# comment line "bhemu-march: <isa>" (default rv32im). GCC has no multilib for most such strings,
# so libgcc always comes from the rv32im/ilp32 multilib(docs/blackhole-facts.md §12).
# crates/cli/tests/riscv_programs.rs does the same in Rust; keep the flags in step.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../target/riscv-examples"
native=0
progs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    --native) native=1; shift ;;
    *) progs+=("$1"); shift ;;
  esac
done
[ ${#progs[@]} -gt 0 ] || progs=("$here"/*.c)
CC=${RISCV_CC:-riscv64-unknown-elf-gcc}
command -v "$CC" >/dev/null || { echo "build.sh: $CC not found (apt-get install gcc-riscv64-unknown-elf)" >&2; exit 1; }
libgcc="$("$CC" -march=rv32im -mabi=ilp32 -print-libgcc-file-name)"
mkdir -p "$out"
for src in "${progs[@]}"; do
  name="$(basename "$src" .c)"
  march="$(sed -n 's/.*bhemu-march: *\([a-z0-9_]*\).*/\1/p' "$src" | head -n1)"
  march="${march:-rv32im}"
  "$CC" -march="$march" -mabi=ilp32 -O2 -nostdlib -nostartfiles -ffreestanding -Wl,--no-warn-rwx-segments \
    -I"$here" -T "$here/link.ld" -o "$out/$name.elf" "$here/start.S" "$src" "$libgcc"
  if [ "$native" = 1 ]; then
    gcc -O2 -I"$here" -o "$out/$name.native" "$src"
  fi
  echo "built $out/$name.elf ($march)"
done
