#!/usr/bin/env bash
# Build the `bhemu demo` chip kernels (crates/cli/demo/src) into OUT_DIR (default
# crates/cli/demo: the committed ELFs that `bhemu demo` embeds). The output is bit-identical
# for the same sources and Debian's gcc-riscv64-unknown-elf 12.2 (no build id, no debug
# info, relative file names); the test `demo_kernels_match_sources` rebuilds and compares.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/crates/cli/demo/src"
out="${1:-$root/crates/cli/demo}"
CC=${RISCV_CC:-riscv64-unknown-elf-gcc}
command -v "$CC" >/dev/null || { echo "build-demo-kernels.sh: $CC not found (apt-get install gcc-riscv64-unknown-elf)" >&2; exit 1; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$src"
for core in brisc:0x0 trisc0:0x6000 trisc1:0xA000 trisc2:0xE000; do
  name="${core%%:*}"
  base="${core##*:}"
  "$CC" -march=rv32im_zicsr -mabi=ilp32 -O2 -ffreestanding -fno-pic -nostdlib -nostartfiles \
    -include "$root/scripts/kernel-kit/compat/ttinsn.h" \
    -Wl,--no-relax -Wl,-n -Wl,--build-id=none -Wl,--no-warn-rwx-segments \
    -Wl,--defsym=KERNEL_BASE="$base" -T link.ld -o "$out/$name.elf" "$name.c"
  echo "$out/$name.elf"
done
