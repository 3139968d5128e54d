#!/usr/bin/env bash
# Every kit program (examples/kernels/programs/*.toml) on bhemu and on the reference simulator
# through the real firmware, every output byte compared (docs/reference.md), for each seed and
# tile selection asked. Prints one line per run and a summary table; exits 1 if any run differs
# or bhemu fails. Programs the reference refuses are listed with its message, not failures.
#
#   scripts/diff-kit.sh [--seeds "0 1 2"] [--tiles "1 all"] [--programs "add matmul"]
#
# Needs the reference (scripts/build-reference.sh; exits 0 with a message when it cannot be
# had), the kit (scripts/kernel-kit/build.sh target/kernel-kit) and the firmware
# (scripts/fetch-ttnn.sh).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
seeds="0 1 2"
tile_sets="1 all"
programs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --tiles) tile_sets="$2"; shift 2 ;;
    --programs) programs="$2"; shift 2 ;;
    *) echo "diff-kit: unknown argument $1" >&2; exit 2 ;;
  esac
done

set +e
sim="$(bash scripts/build-reference.sh)"
rc=$?
set -e
if [ $rc -ne 0 ] || [ ! -f "$sim/libttsim.so" ]; then
  echo "diff-kit: skipped: the reference simulator could not be built or found"
  exit 0
fi
ref="$sim/libttsim.so"
bash scripts/fetch-ttnn.sh >/dev/null
# Rebuilt every time (about 40 s) so that the kernels always match their sources.
BHEMU_REQUIRE_TOOLS=1 bash scripts/kernel-kit/build.sh target/kernel-kit >/dev/null
cargo build --release -q -p bhemu-cli -p bhemu-ttsim-abi
bhemu="$repo/target/release/bhemu"

if [ -z "$programs" ]; then
  programs="$(cd examples/kernels/programs && ls *.toml | sed 's/\.toml$//' | grep -v '^cb_deadlock$')"
fi
equal=0; differ=0; refused=0; failed=0
refusals=""
for p in $programs; do
  for t in $tile_sets; do
    for s in $seeds; do
      set +e
      out="$("$bhemu" run "examples/kernels/programs/$p.toml" --reference "$ref" --tiles "$t" --seed "$s" 2>&1)"
      rc=$?
      set -e
      summary="$(echo "$out" | grep '^total:' | tail -n1 || true)"
      case $rc in
        0) equal=$((equal + 1)); echo "equal    $p tiles=$t seed=$s: ${summary#total: }" ;;
        1) differ=$((differ + 1)); echo "DIFFER   $p tiles=$t seed=$s: ${summary#total: }"
           echo "$out" | grep -m3 ' != ' | sed 's/^/           /' ;;
        4) refused=$((refused + 1))
           msg="$(echo "$out" | grep -m1 'refuses' || echo "$out" | tail -n1)"
           echo "refused  $p tiles=$t seed=$s: $msg"
           refusals="$refusals\n  $p: $msg" ;;
        *) failed=$((failed + 1)); echo "FAILED   $p tiles=$t seed=$s (exit $rc)"
           echo "$out" | tail -n5 | sed 's/^/           /' ;;
      esac
    done
  done
done
echo
echo "diff-kit: $equal equal, $differ differ, $refused refused by the reference, $failed failed"
[ -n "$refusals" ] && printf "refused by the reference:%b\n" "$refusals"
[ $differ -eq 0 ] && [ $failed -eq 0 ]
