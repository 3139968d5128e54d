#!/usr/bin/env bash
# Kernel kit: builds tt-metal kernels from the sources and headers in the `ttnn` 0.81.1 wheel with
# Debian's riscv64-unknown-elf-g++ and the compatibility layer in compat/ (see docs/kernel-kit.md).
#
#   scripts/kernel-kit/build.sh [OUT_DIR]      (default target/kernel-kit)
#
# For every compute kernel examples/kernels/compute/NAME.cpp it writes OUT/NAME/trisc{0,1,2}.elf
# (one source compiled as unpack, math and pack), and for every dataflow kernel
# examples/kernels/dataflow/NAME.cpp OUT/NAME/{brisc,ncrisc}.elf. Each is linked against the
# weakened ELF of the pre-compiled firmware variant bhemu boots (.cache/ttnn/firmware/*/VARIANT).
# The wheel's files are extracted into .cache/kit-wheel/ (ignored); nothing built here is committed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
kit="$repo/scripts/kernel-kit"
out="${1:-$repo/target/kernel-kit}"
CXX=${RISCV_CXX:-riscv64-unknown-elf-g++}
command -v "$CXX" >/dev/null || { echo "kernel-kit: $CXX not found (apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf)" >&2; exit 1; }

[ -d /usr/include/c++/12 ] || { echo "kernel-kit: no /usr/include/c++/12 (apt-get install libstdc++-12-dev)" >&2; exit 1; }
[ -d /usr/lib/picolibc/riscv64-unknown-elf ] || { echo "kernel-kit: no picolibc (apt-get install picolibc-riscv64-unknown-elf)" >&2; exit 1; }

fw="$repo/.cache/ttnn/firmware/blackhole-140"
[ -f "$fw/VARIANT" ] || "$repo/scripts/fetch-ttnn.sh" >/dev/null
variant="$(cat "$fw/VARIANT")"
wheel="$(ls "$repo"/.cache/ttnn/ttnn-0.81.1-*.whl | head -n1)"
root="$repo/.cache/kit-wheel/root"
if [ ! -f "$root/.complete" ]; then
  rm -rf "$root.tmp" "$root"
  python3 "$kit/extract.py" "$wheel" "$root.tmp"
  touch "$root.tmp/.complete"
  mv "$root.tmp" "$root"
fi
pre="$root/tt_metal/pre-compiled/$variant"
[ -f "$pre/brisc/brisc_weakened.elf" ] || { echo "kernel-kit: no weakened firmware in $pre" >&2; exit 1; }

m="$root/tt_metal"
gccver="$("$CXX" -dumpversion)"
picolibc=/usr/lib/picolibc/riscv64-unknown-elf
libgcc="$(dirname "$("$CXX" -march=rv32im_zicsr -mabi=ilp32 -print-libgcc-file-name)")"
[ -f "$libgcc/libgcc.a" ] || libgcc="$(dirname "$("$CXX" -print-libgcc-file-name)")/rv32im/ilp32"
INC=(
  -I"$kit/compat" -I"$m" -I"$m/include" -I"$m/api" -I"$m/hostdevcommon/api" -I"$m/hw/inc"
  -I"$m/hw/inc/internal/tt-1xx" -I"$m/hw/inc/internal/tt-1xx/blackhole"
  -I"$m/hw/inc/internal/tt-1xx/blackhole/blackhole_defines" -I"$m/hw/inc/internal/tt-1xx/blackhole/noc"
  -I"$m/hw/ckernels/blackhole/metal/common" -I"$m/hw/ckernels/blackhole/metal/llk_io"
  -I"$m/hw/ckernels/blackhole/metal/llk_api" -I"$m/hw/ckernels/blackhole/metal/llk_api/llk_sfpu"
  -I"$m/tt-llk/tt_llk_blackhole/common/inc" -I"$m/tt-llk/tt_llk_blackhole/common/inc/sfpu"
  -I"$m/tt-llk/tt_llk_blackhole/llk_lib" -I"$m/tt-llk/common" -I"$m/tt-llk/tools/include" -I"$m/hw/firmware/src/tt-1xx"
  -nostdinc++ -isystem /usr/include/c++/12 -isystem /usr/include/x86_64-linux-gnu/c++/12
  -isystem "$picolibc/include"
)
CFLAGS=(
  -march=rv32im_zicsr -mabi=ilp32 -std=c++17 -O3 -g -fno-exceptions -fno-rtti -fno-use-cxa-atexit
  -fno-threadsafe-statics -ffunction-sections -fdata-sections -Wno-attributes -Wno-psabi
  -include "$kit/compat/ttinsn.h"
  -DTENSIX_FIRMWARE -DARCH_BLACKHOLE -DKERNEL_BUILD -DNUM_DRAM_BANKS=8 -DNUM_L1_BANKS=140
  -DLOG_BASE_2_OF_NUM_DRAM_BANKS=3 -DIS_NOT_POW2_NUM_L1_BANKS=1 -DLOG_BASE_2_OF_NUM_L1_BANKS=8 -DDISPATCH_MESSAGE_ADDR=0 -DPCIE_NOC_X=19 -DPCIE_NOC_Y=24 -D__riscv_xtttensixbh=1
)
LINK=(-nostartfiles -nostdlib -Wl,--gc-sections -Wl,--no-warn-rwx-segments -L"$picolibc/lib/release/rv32im/ilp32")

# tt-metal links every kernel with substitutes.o (wzerorange, l1_to_local_mem_copy used by the
# kernel's crt); the wheel ships it only as sfpi LTO bytecode, so build it from its source.
subst="$out/substitutes.o"
mkdir -p "$out"
"$CXX" "${CFLAGS[@]}" "${INC[@]}" -c "$m/hw/toolchain/substitutes.cpp" -o "$subst"

# Where each core's kernel text is linked and loaded: tt-metal links kernels right after the
# firmware text (__fw_export_text_end) and relocates them into its kernel-config ring buffer when
# it loads them; bhemu instead links them where its launch path puts them
# (bhemu_chip::launch::TEXT_BASE, docs/kernel-kit.md), 16 KiB per core, so no relocation is needed.
declare -A TEXT=([brisc]=0x21000 [ncrisc]=0x25000 [trisc0]=0x29000 [trisc1]=0x2D000 [trisc2]=0x31000)
mkdir -p "$out/ld"
for core in "${!TEXT[@]}"; do
  sed "s/^\(\s*\.text\) __fw_export_text_end :/\1 ${TEXT[$core]} :/" \
    "$root/runtime/hw/toolchain/blackhole/kernel_$core.ld" >"$out/ld/kernel_$core.ld"
  grep -q "\.text ${TEXT[$core]} :" "$out/ld/kernel_$core.ld" || { echo "kernel-kit: kernel_$core.ld has no .text at __fw_export_text_end" >&2; exit 1; }
done

link_core() { # core elf obj...
  local core="$1" elf="$2"; shift 2
  "$CXX" "${CFLAGS[@]}" "${LINK[@]}" -T"$out/ld/kernel_$core.ld" \
    -Wl,--just-symbols="$pre/$core/${core}_weakened.elf" -o "$elf" "$@" "$subst" -lc "$libgcc/libgcc.a"
}

build_compute() { # src name
  local src="$1" dir="$out/$2"
  # Math settings of this kernel (chlkc_descriptors.h): a `// kit-defines: -DNAME=VALUE ...` line.
  local kdefs
  kdefs="$(sed -n 's|^// kit-defines:||p' "$src" | head -1)"
  mkdir -p "$dir/gen"
  cat >"$dir/gen/defines_generated.h" <<G
#pragma once
G
  for t in unpack math pack; do
    local T; T="$(echo $t | tr a-z A-Z)"
    printf '#define TRISC_%s\n#include "%s"\n' "$T" "$src" >"$dir/gen/chlkc_$t.cpp"
  done
  local i=0
  for t in unpack math pack; do
    local T; T="$(echo $t | tr a-z A-Z)"
    "$CXX" "${CFLAGS[@]}" -I"$dir/gen" "${INC[@]}" -DCOMPILE_FOR_TRISC=$i -DPROCESSOR_INDEX=$((i + 2)) \
      -DUCK_CHLKC_$T -DNAMESPACE=chlkc_$t -DPROGRAMMABLE_CORE_TYPE=0 $kdefs \
      -c "$m/hw/firmware/src/tt-1xx/trisck.cc" -o "$dir/trisc$i.o"
    link_core "trisc$i" "$dir/trisc$i.elf" "$dir/trisc$i.o"
    echo "$dir/trisc$i.elf"
    i=$((i + 1))
  done
}

build_dataflow() { # src name
  local src="$1" dir="$out/$2"
  mkdir -p "$dir/gen"
  printf '#pragma once\n' >"$dir/gen/defines_generated.h"
  printf '#include "%s"\n' "$src" >"$dir/gen/kernel_includes.hpp"
  local core idx
  for core in brisc ncrisc; do
    if [ $core = brisc ]; then idx=0; def=-DCOMPILE_FOR_BRISC; else idx=1; def=-DCOMPILE_FOR_NCRISC; fi
    "$CXX" "${CFLAGS[@]}" -I"$dir/gen" "${INC[@]}" $def -DPROCESSOR_INDEX=$idx -DNOC_INDEX=$idx -DNOC_MODE=0 -DPROGRAMMABLE_CORE_TYPE=0 \
      -c "$m/hw/firmware/src/tt-1xx/${core}k.cc" -o "$dir/$core.o"
    link_core "$core" "$dir/$core.elf" "$dir/$core.o"
    echo "$dir/$core.elf"
  done
}

only="${KIT_ONLY:-}"
for src in "$repo"/examples/kernels/compute/*.cpp; do
  n="$(basename "$src" .cpp)"; [ -z "$only" ] || [ "$only" = "$n" ] || continue
  build_compute "$src" "$n"
done
for src in "$repo"/examples/kernels/dataflow/*.cpp; do
  n="$(basename "$src" .cpp)"; [ -z "$only" ] || [ "$only" = "$n" ] || continue
  build_dataflow "$src" "$n"
done
