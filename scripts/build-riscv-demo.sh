#!/usr/bin/env bash
# Rebuild crates/cli/assets/riscv-demo.elf, the program `bhemu demo` runs (embedded with
# include_bytes! in crates/cli/src/cmd_riscv.rs), from examples/riscv/demo.c.
#
# The ELF is committed so that `bhemu demo` works on a machine without the cross compiler.
# Needs Debian's gcc-riscv64-unknown-elf. Flags follow examples/riscv/build.sh; each file is
# compiled separately under a fixed name so that no temporary file name ends up in the symbol
# table and the output is byte-for-byte reproducible with the same compiler.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ex="$root/examples/riscv"
CC=${RISCV_CC:-riscv64-unknown-elf-gcc}
command -v "$CC" >/dev/null || { echo "build-riscv-demo.sh: $CC not found (apt-get install gcc-riscv64-unknown-elf)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
flags=(-march=rv32im -mabi=ilp32 -O2 -ffreestanding -I"$ex")
cp "$ex/start.S" "$ex/demo.c" "$ex/bhtest.h" "$tmp/"
cd "$tmp"
"$CC" "${flags[@]}" -c start.S -o start.o
"$CC" "${flags[@]}" -c demo.c -o demo.o
libgcc="$("$CC" -march=rv32im -mabi=ilp32 -print-libgcc-file-name)"
"$CC" "${flags[@]}" -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments -Wl,--build-id=none \
  -T "$ex/link.ld" -o riscv-demo.elf start.o demo.o "$libgcc"
cp riscv-demo.elf "$root/crates/cli/assets/riscv-demo.elf"
echo "wrote crates/cli/assets/riscv-demo.elf ($(wc -c < riscv-demo.elf) bytes, $("$CC" --version | head -n1))"
