#!/usr/bin/env bash
# Prepare a tt-metal runtime for bhemu from the `ttnn` 0.81.1 wheel (PyPI), so that tt-metal's own
# host library (libtt_metal.so) opens bhemu's libttsim.so and JIT-compiles kernels itself
# (docs/tt-metal-on-bhemu.md).
#
#   OUT/lib/      libtt_metal.so, libtt-umd.so, libtt_stl.so, libtracy.so and the wheel's bundled
#                 ttnn.libs/ (MPI, hwloc, numa): put OUT/lib on LD_LIBRARY_PATH (or link with
#                 -rpath). They need glibc ≥ 2.34 and GLIBCXX_3.4.29, which Debian 12 provides.
#   OUT/root/     TT_METAL_RUNTIME_ROOT: tt_metal/{hw,api,tt-llk,hostdevcommon,soc_descriptors,
#                 core_descriptors,fabric,impl,...} and runtime/ (linker scripts) from the wheel;
#                 of tt_metal/pre-compiled/ only the firmware variant tt-metal boots on an
#                 unharvested 140-tile Blackhole, plus the key our compiler driver's --version makes
#                 tt-metal compute, as a symlink to it (see below);
#                 runtime/sfpi/compiler/bin/riscv-tt-elf-g++ → scripts/metal/riscv-tt-elf-g++,
#                 the project's compiler driver (the only tool tt-metal's JIT invokes).
#   OUT/READY     written last; its presence means OUT is complete.
#
# The firmware build key: tt-metal hashes the compiler's `--version` text (and the SoC) into the
# name of the pre-compiled firmware directory it looks for. Our driver answers as the sfpi 7.89.0
# compiler does, which gives key 2906205993819637780 for the 140-tile SoC descriptor; the wheel has
# no such directory, but variant 11660721212704224774 was built for the same chip (8 DRAM banks,
# 130 L1 banks) and is used in its place. On a system of several chips (BHEMU_SYSTEM=p300,
# docs/multi-chip.md) tt-metal computes key 16188023681421878846, which the wheel does not ship
# either: the same variant stands in for it (the Tensix and Ethernet firmware do not depend on
# the number of chips), all but the active-Ethernet firmware, which tt-metal runs in a build the
# wheel lacks (scripts/metal/build-active-erisc.sh makes it).
#
# Usage: scripts/setup-metal-runtime.sh [OUT]    (default .cache/metal-runtime)
# Idempotent; fetches the wheel with scripts/fetch-ttnn.sh when missing. Prints OUT at the end.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$repo/.cache/metal-runtime}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
log() { echo "setup-metal-runtime: $*" >&2; }

FW_VARIANT="11660721212704224774"
JIT_KEY="2906205993819637780"
SYSTEM_KEY="16188023681421878846"

bash "$repo/scripts/fetch-ttnn.sh" >/dev/null
wheel="$(ls "$repo"/.cache/ttnn/ttnn-0.81.1-*.whl | head -n1)"

driver_src="$repo/scripts/metal/riscv-tt-elf-g++"
driver_dst="$out/root/runtime/sfpi/compiler/bin/riscv-tt-elf-g++"

if [ -f "$out/READY" ] && [ "$(cat "$out/READY")" = "$wheel" ]; then
  log "using $out"
else
  log "extracting the tt-metal runtime from $(basename "$wheel") into $out"
  rm -rf "$out/root" "$out/lib" "$out/READY"
  python3 - "$wheel" "$out" "$FW_VARIANT" <<'PY'
import os, shutil, sys, zipfile

wheel, out, variant = sys.argv[1], sys.argv[2], sys.argv[3]
z = zipfile.ZipFile(wheel)
LIBS = ("libtt_metal.so", "libtt-umd.so", "libtt_stl.so", "libtracy.so")
n_root = n_lib = 0
for info in z.infolist():
    name = info.filename
    if name.endswith("/"):
        continue
    dest = None
    if name.startswith("ttnn.libs/"):
        dest = os.path.join(out, "lib", os.path.basename(name))
    elif name.startswith("ttnn/build/lib/"):
        base = os.path.basename(name)
        if base.startswith(LIBS):
            dest = os.path.join(out, "lib", base)
    elif name.startswith("ttnn/tt_metal/pre-compiled/"):
        parts = name.split("/")
        if parts[3] == variant:
            dest = os.path.join(out, "root", *parts[1:])
    elif name.startswith(("ttnn/tt_metal/", "ttnn/runtime/")):
        dest = os.path.join(out, "root", *name.split("/")[1:])
    if dest is None:
        continue
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with z.open(info) as src, open(dest, "wb") as dst:
        shutil.copyfileobj(src, dst)
    if dest.startswith(os.path.join(out, "lib")):
        n_lib += 1
    else:
        n_root += 1
print(f"setup-metal-runtime: {n_root} runtime files, {n_lib} libraries", file=sys.stderr)
PY
  pre="$out/root/tt_metal/pre-compiled"
  [ -d "$pre/$FW_VARIANT" ] || { log "firmware variant $FW_VARIANT missing from the wheel"; exit 1; }
  ln -sfn "$FW_VARIANT" "$pre/$JIT_KEY"
  echo "$wheel" >"$out/READY"
fi
# The system key's directory: the variant's firmware, but for the active-Ethernet firmware, which
# tt-metal runs in its one-ERISC build under a simulator and the wheel ships only in the two-ERISC
# one; scripts/metal/build-active-erisc.sh builds it into active_erisc/ with tt-metal's own JIT.
sys_dir="$out/root/tt_metal/pre-compiled/$SYSTEM_KEY"
[ -L "$sys_dir" ] && rm -f "$sys_dir"
mkdir -p "$sys_dir"
for fw in "$out/root/tt_metal/pre-compiled/$FW_VARIANT"/*/; do
  name="$(basename "$fw")"
  [ "$name" = active_erisc ] || ln -sfn "../$FW_VARIANT/$name" "$sys_dir/$name"
done

# The compiler driver is the project's own file: link it (not copy) so edits take effect.
mkdir -p "$(dirname "$driver_dst")"
ln -sfn "$driver_src" "$driver_dst"

# The wheel's runtime/hw/lib/blackhole/{substitutes,noc,tdma_xmov}.o hold sfpi LTO bytecode only,
# which stock GCC cannot link: rebuilt in place from the wheel's sources with the driver.
bash "$repo/scripts/metal/build-hw-lib.sh" "$out/root"
echo "$out"
