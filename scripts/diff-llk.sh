#!/usr/bin/env bash
# tt-llk's python_tests on bhemu and on Tenstorrent's reference simulator, the bytes every test's
# kernels wrote compared bit for bit (docs/reference.md, "tt-llk's tests side by side"). The tests
# themselves compare with torch goldens at a tolerance; this compares the two simulators exactly,
# with the harness's seeded stimuli (the same inputs on both).
#
#   scripts/diff-llk.sh [--seeds "42 1"] [--timeout S] [--per-file N] [--all-files]
#                       [--ids-from FILE] [FILE|ID ...]
#
# The test selection is scripts/test-llk.sh's (default: its sample). For each seed it runs the
# selection with `scripts/test-llk.sh --dump` on bhemu, then with `--reference`, and prints
# scripts/llk/compare_dumps.py's per-file table (ids equal, differing, with a result on one side
# only) and each difference. Dumps and the two runs' tables: .cache/llk/diff/<seed>/. Exits 1 when any
# id's bytes differ, 0 with a message when the reference cannot be built or found.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
seeds="42"
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    --reference|--dump|--seed) echo "diff-llk: $1 is chosen by this script" >&2; exit 2 ;;
    --timeout|--per-file|--ids-from) pass+=("$1" "$2"); shift 2 ;;
    *) pass+=("$1"); shift ;;
  esac
done

set +e
sim="$(bash scripts/build-reference.sh 2>/dev/null | tail -n1)"
rc=$?
set -e
if [ $rc -ne 0 ] || [ ! -f "$sim/libttsim.so" ]; then
  echo "diff-llk: skipped: the reference simulator could not be built or found (scripts/build-reference.sh)"
  exit 0
fi

status=0
for seed in $seeds; do
  out="$repo/.cache/llk/diff/$seed"
  rm -rf "$out"; mkdir -p "$out"
  for side in bhemu reference; do
    flag=(); [ "$side" = reference ] && flag=(--reference)
    echo "diff-llk: seed $seed on $side" >&2
    bash scripts/test-llk.sh "${flag[@]}" --seed "$seed" --dump "$out/$side" "${pass[@]}" \
      > "$out/$side.table" 2>&1 || true
  done
  echo "== seed $seed"
  python3 scripts/llk/compare_dumps.py "$out/bhemu" "$out/reference" || status=1
done
exit $status
