#!/usr/bin/env bash
# Build the slow-dispatch BRISC kernels of examples/kernels into OUT_DIR (default
# target/kernels). Needs Debian's gcc-riscv64-unknown-elf (docs/blackhole-facts.md §12).
# -n (nmagic) keeps the ELF headers out of the loaded segment; --no-relax keeps the code free of gp-relative accesses: the kernel runs with the firmware's gp.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/examples/kernels"
out="${1:-$root/target/kernels}"
CC=${RISCV_CC:-riscv64-unknown-elf-gcc}
command -v "$CC" >/dev/null || { echo "build-kernels.sh: $CC not found (apt-get install gcc-riscv64-unknown-elf)" >&2; exit 1; }
mkdir -p "$out"
build() {  # SOURCE NAME [CFLAGS...]
  local c="$1" name="$2"; shift 2
  "$CC" -march=rv32im_zicsr -mabi=ilp32 -O2 -ffreestanding -fno-pic -nostdlib -nostartfiles \
    -Wl,--no-relax -Wl,-n -Wl,--build-id=none -Wl,--no-warn-rwx-segments -T "$src/link.ld" \
    "$@" -o "$out/$name.elf" "$c"
  echo "$out/$name.elf"
}
for c in "$src"/*.c; do
  build "$c" "$(basename "$c" .c)"
done
# The spin kernel without its closing mcycle read, which the reference simulator refuses
# (scripts/bench-side-by-side.sh runs it on both).
build "$src/spin.c" spin_no_mcycle -DSPIN_NO_MCYCLE
