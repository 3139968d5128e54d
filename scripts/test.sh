#!/usr/bin/env bash
# The project's test command (README "Quick start"). Installs what the tests need, then runs
# every test of the workspace in release mode (the integration tests run real programs).
#
# Needs: the Rust toolchain. Installs (Debian, as root) the RISC-V cross toolchain used to build
# test programs, and a host gcc for their native reference runs; fetches the ttnn wheel (PyPI) for
# the real firmware. Set BHEMU_NO_INSTALL=1 to skip installing; tests needing a missing tool then fail
# with a message naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Free disk before each tier that installs something large (the Python tiers' venvs need about
# 9 GB in all, torch's CUDA libraries shared between them: scripts/torch/install.sh).
disk() { echo "test.sh: $(df -Ph . | awk 'NR == 2 { print $4 }') free on this disk before $1"; }

need_pkgs=()
# The program tests compare each RISC-V run with the same C source built natively.
command -v gcc >/dev/null 2>&1 || need_pkgs+=(gcc)
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || need_pkgs+=(gcc-riscv64-unknown-elf)
command -v riscv64-unknown-elf-objdump >/dev/null 2>&1 || need_pkgs+=(binutils-riscv64-unknown-elf)
[ -d /usr/lib/picolibc/riscv64-unknown-elf ] || need_pkgs+=(picolibc-riscv64-unknown-elf)
# The kernel kit (scripts/kernel-kit/build.sh) compiles tt-metal's C++ kernels with the host's libstdc++ headers.
# Debian ships the C++ driver (riscv64-unknown-elf-g++) inside gcc-riscv64-unknown-elf.
command -v riscv64-unknown-elf-g++ >/dev/null 2>&1 || need_pkgs+=(gcc-riscv64-unknown-elf)
[ -d /usr/include/c++/12 ] || need_pkgs+=(libstdc++-12-dev)
# The gdb session test (crates/cli/tests/gdb_session.rs) drives `bhemu boot --gdb` with a real gdb.
command -v gdb-multiarch >/dev/null 2>&1 || need_pkgs+=(gdb-multiarch)
# A system as several MPI processes (crates/mpi): Open MPI, and libclang for the binding's build.
command -v mpirun >/dev/null 2>&1 || need_pkgs+=(openmpi-bin)
[ -e /usr/include/x86_64-linux-gnu/openmpi/mpi.h ] || [ -e /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h ] ||
  need_pkgs+=(libopenmpi-dev)
compgen -G '/usr/lib/llvm-*/lib/libclang.so' >/dev/null || need_pkgs+=(libclang-dev)
if [ ${#need_pkgs[@]} -gt 0 ] && [ "${BHEMU_NO_INSTALL:-0}" != 1 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    mapfile -t need_pkgs < <(printf '%s\n' "${need_pkgs[@]}" | sort -u)
    echo "test.sh: installing ${need_pkgs[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
  else
    echo "test.sh: please install ${need_pkgs[*]} (Debian packages), or set BHEMU_NO_INSTALL=1" >&2
    exit 1
  fi
fi

# The real tt-metal firmware (ttnn 0.81.1 wheel from PyPI) for the boot tests, into .cache/ttnn.
if [ "${BHEMU_NO_INSTALL:-0}" != 1 ]; then
  bash scripts/fetch-ttnn.sh >/dev/null
fi

# Tenstorrent's reference simulator for the differential tier (docs/reference.md), built from
# ../shared/ttsim (about 4 minutes on 2 cores, reused when already built). Without a source the
# tier skips with a message; BHEMU_NO_REFERENCE=1 skips it on purpose.
reference=""
if [ "${BHEMU_NO_REFERENCE:-0}" != 1 ]; then
  if sim="$(bash scripts/build-reference.sh)"; then
    reference="$sim/libttsim.so"
    export BHEMU_REFERENCE_LIB="$reference"
  else
    echo "test.sh: the reference simulator is not available; the differential tier is skipped"
  fi
  # The reference's Matrix Unit arithmetic, and its Tensix model driven one instruction word at
  # a time, as vector generators (reference_datapath.rs, reference_sfpu.rs, reference_conv.rs).
  bash scripts/reference-tensix.sh >/dev/null ||
    echo "test.sh: no ttsim source; the datapath, SFPU and conversion cells are skipped"
fi

# Every file the Markdown pages name exists (README, docs/, examples' and crates' READMEs).
python3 scripts/check-links.py

# Tests that build programs with the cross toolchain must not skip silently here.
export BHEMU_REQUIRE_TOOLS=1
cargo test --workspace --release "$@"

# The same system as one process and as several under mpirun (docs/multi-chip.md MC-12).
BHEMU_REQUIRE_MPI=1 cargo test --release -p bhemu-mpi --features mpi

# Every kit program through the real firmware on bhemu and on the reference, byte for byte:
# seed 0 on one tile and on all 140 (scripts/diff-kit.sh runs more seeds by hand).
if [ -n "$reference" ]; then
  bash scripts/diff-kit.sh --seeds 0 --tiles "1 all"
fi

# libttsim.so driven by the real tt-umd 0.9.14 client from PyPI (tests/umd/README.md).
if [ "${BHEMU_NO_UMD:-0}" != 1 ]; then
  disk tt-umd
  bash scripts/test-umd.sh
fi

# tt-metal's own host library (libtt_metal.so, ttnn 0.81.1 wheel) opening bhemu and running the
# programs its JIT compiles (docs/tt-metal-on-bhemu.md).
if [ "${BHEMU_NO_METAL:-0}" != 1 ]; then
  disk tt-metal
  bash scripts/test-metal.sh
fi

# tt-llk's own python_tests from the ttnn wheel (docs/llk.md): one passing id of every test file
# that passes on bhemu (scripts/llk/ci-sample.txt, about 8 minutes). The venv (torch, tt-exalens)
# lands in .cache/llk-venv. The full per-file table: scripts/test-llk.sh --all-files --per-file 8.
# Then, when the reference was built above, the same ids on it (about 6 minutes) and every
# result byte compared (docs/reference.md, "tt-llk's tests side by side"; scripts/diff-llk.sh
# does both for any selection and seeds).
if [ "${BHEMU_NO_LLK:-0}" != 1 ]; then
  disk tt-llk
  llk_dump=.cache/llk/ci-dump
  rm -rf "$llk_dump"
  bash scripts/test-llk.sh --timeout 60 --ids-from scripts/llk/ci-sample.txt --dump "$llk_dump/bhemu"
  if [ -n "$reference" ]; then
    bash scripts/test-llk.sh --reference --timeout 60 --ids-from scripts/llk/ci-sample.txt \
      --dump "$llk_dump/reference" >"$llk_dump/reference.log" 2>&1 || true
    python3 scripts/llk/compare_dumps.py "$llk_dump/bhemu" "$llk_dump/reference"
  fi
fi

# ttnn from Python (docs/ttnn.md): a sample of tests/ttnn, each op against torch and, when the
# reference was built above, bit for bit against it. The whole suite: scripts/test-ttnn.sh.
# The venv (CPython 3.10, ttnn 0.81.1, torch) lands in .cache/ttnn-venv.
if [ "${BHEMU_NO_TTNN:-0}" != 1 ]; then
  disk ttnn
  bash scripts/test-ttnn.sh --sample
fi
