#!/usr/bin/env bash
# Rebuild a tt-metal runtime root's runtime/hw/lib/blackhole/{substitutes,noc,tdma_xmov}.o with the
# project's compiler driver (docs/tt-metal-on-bhemu.md). The ttnn 0.81.1 wheel ships them as LTO
# bytecode of Tenstorrent's compiler only, which stock GCC cannot link; tt-metal links them by
# these paths, so they are rebuilt in place from the wheel's own sources.
#
# Usage: scripts/metal/build-hw-lib.sh ROOT
#   ROOT: a runtime root holding tt_metal/ and runtime/ (TT_METAL_RUNTIME_ROOT; for the ttnn
#   Python package, its site-packages/ttnn directory), whose
#   runtime/sfpi/compiler/bin/riscv-tt-elf-g++ is the project's driver.
# Redone whenever the driver or the kernel kit's compatibility layer (scripts/kernel-kit/compat/,
# or BHEMU_JIT_COMPAT) changed since the last build; otherwise does nothing.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
root="$1"
log() { echo "build-hw-lib: $*" >&2; }
driver_src="$repo/scripts/metal/riscv-tt-elf-g++"
driver="$root/runtime/sfpi/compiler/bin/riscv-tt-elf-g++"
lib="$root/runtime/hw/lib/blackhole"
stamp="$lib/.bhemu-built"
compat="${BHEMU_JIT_COMPAT:-$repo/scripts/kernel-kit/compat}"
if [ ! -d "$compat" ]; then
  log "no kernel-kit compatibility layer at $compat: tt-metal can open the device, but its JIT cannot build kernels"
  exit 0
fi
if [ -f "$stamp" ] && [ ! "$driver_src" -nt "$stamp" ] && [ -z "$(find "$compat" -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
log "building $lib/{substitutes,noc,tdma_xmov}.o with the compiler driver"
inc=()
for d in tt_metal/hw/inc tt_metal/hw/inc/internal/tt-1xx tt_metal/hw/inc/internal/tt-1xx/blackhole \
  tt_metal/hw/inc/internal/tt-1xx/blackhole/blackhole_defines tt_metal/hw/inc/internal/tt-1xx/blackhole/noc \
  tt_metal/hostdevcommon/api tt_metal/tt-llk/tt_llk_blackhole/common/inc tt_metal/hw/firmware/src/tt-1xx; do
  inc+=("-I$root/$d")
done
for pair in substitutes:tt_metal/hw/toolchain/substitutes.cpp noc:tt_metal/hw/firmware/src/tt-1xx/blackhole/noc.c \
  tdma_xmov:tt_metal/hw/firmware/src/tt-1xx/tdma_xmov.c; do
  name="${pair%%:*}"
  src="${pair#*:}"
  "$driver" -mcpu=tt-bh -O2 -std=c++17 -fno-exceptions -fno-rtti -DARCH_BLACKHOLE -DTENSIX_FIRMWARE \
    -DKERNEL_BUILD "${inc[@]}" -c "$root/$src" -o "$lib/$name.o"
done
touch "$stamp"
