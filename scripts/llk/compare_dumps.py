"""Compares the result bytes two simulators gave for the same tt-llk test ids (scripts/diff-llk.sh).

    compare_dumps.py BHEMU_DIR REFERENCE_DIR [--max-lines N]

Each directory holds what scripts/llk/llk_result_dump.py wrote: <test id>/<call>.<region>.bin
with <call>.json beside it. Prints, per test file, how many ids gave byte-identical results,
how many differ, and how many have a result on one side only (the test did not get as far as
reading its result there: the reference refused it, or it failed or was skipped before); then,
for each differing id, the region, its format, how many bytes differ and the first few elements
with both values. Exits 1 when any id differs.
"""
import json
import os
import struct
import sys
from collections import defaultdict

# Bytes per element of the formats that have whole-byte elements.
ELEMENT_BYTES = {
    "Float32": 4, "Tf32": 4, "Int32": 4, "UInt32": 4,
    "Float16": 2, "Float16_b": 2, "UInt16": 2, "Int16": 2,
    "Int8": 1, "UInt8": 1, "Fp8_e4m3": 1, "Lf8": 1,
}


def describe(fmt, raw):
    """A value's bits and, for float formats, its value."""
    if fmt in ("Float32", "Tf32") and len(raw) == 4:
        (v,) = struct.unpack("<f", raw)
        return f"0x{int.from_bytes(raw, 'little'):08x} ({v!r})"
    if fmt == "Float16_b" and len(raw) == 2:
        (v,) = struct.unpack("<f", b"\0\0" + raw)
        return f"0x{int.from_bytes(raw, 'little'):04x} ({v!r})"
    if fmt == "Float16" and len(raw) == 2:
        (v,) = struct.unpack("<e", raw)
        return f"0x{int.from_bytes(raw, 'little'):04x} ({v!r})"
    return "0x" + raw[::-1].hex()


def load(root):
    out = {}
    if not os.path.isdir(root):
        return out
    for d in sorted(os.listdir(root)):
        calls = {}
        for name in os.listdir(os.path.join(root, d)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(root, d, name)) as f:
                meta = json.load(f)
            regions = {}
            for region, info in meta["regions"].items():
                with open(os.path.join(root, d, f"{meta['call']}.{region}.bin"), "rb") as f:
                    regions[region] = (info, f.read())
            calls[meta["call"]] = regions
            out_id = meta["id"]
        if calls:
            out[out_id] = calls
    return out


def diff_region(info, a, b, max_lines):
    fmt = info.get("format") or "?"
    size = ELEMENT_BYTES.get(fmt, 1)
    lines = []
    if len(a) != len(b):
        return 1, [f"lengths differ: bhemu {len(a)} bytes, reference {len(b)}"]
    differing_bytes = sum(1 for x, y in zip(a, b) if x != y)
    if not differing_bytes:
        return 0, []
    tiles = info.get("tiles") or 1
    per_tile = len(a) // tiles if tiles else len(a)
    elements = 0
    for off in range(0, len(a), size):
        x, y = a[off:off + size], b[off:off + size]
        if x == y:
            continue
        elements += 1
        if len(lines) < max_lines:
            tile, within = divmod(off, per_tile) if per_tile else (0, off)
            where = f"tile {tile}, byte {within}"
            if fmt in ELEMENT_BYTES:
                e = within // size
                face, at = divmod(e, 256)
                where += f" (face {face}, row {at // 16}, col {at % 16})"
            lines.append(f"{where}: bhemu {describe(fmt, x)} != reference {describe(fmt, y)}")
    unit = "elements" if fmt in ELEMENT_BYTES else "bytes"
    lines.insert(0, f"{fmt}: {elements} {unit} of {len(a) // size} differ ({differing_bytes} bytes)")
    return elements, lines


def main():
    args = sys.argv[1:]
    max_lines = 4
    if "--max-lines" in args:
        i = args.index("--max-lines")
        max_lines = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    ours, theirs = load(args[0]), load(args[1])
    per_file = defaultdict(lambda: [0, 0, 0, 0])  # equal, differ, bhemu only, reference only
    reports = []
    elements = 0
    for tid in sorted(set(ours) | set(theirs)):
        f = tid.split("::")[0]
        if tid not in theirs:
            per_file[f][2] += 1
            continue
        if tid not in ours:
            per_file[f][3] += 1
            continue
        a, b = ours[tid], theirs[tid]
        lines = []
        for call in sorted(set(a) & set(b)):
            for region in sorted(set(a[call]) & set(b[call])):
                info, x = a[call][region]
                _, y = b[call][region]
                elements += len(x) // ELEMENT_BYTES.get(info.get("format"), 1)
                n, ls = diff_region(info, x, y, max_lines)
                if n:
                    lines.append(f"  call {call} {region}: " + ls[0])
                    lines += ["    " + l for l in ls[1:]]
        if lines:
            per_file[f][1] += 1
            reports.append((tid, lines))
        else:
            per_file[f][0] += 1
    print(f"{'file':<58} {'equal':>5} {'DIFFER':>6} {'bhemu only':>10} {'ref only':>8}")
    tot = [0, 0, 0, 0]
    for f in sorted(per_file):
        row = per_file[f]
        tot = [t + r for t, r in zip(tot, row)]
        print(f"{f:<58} {row[0]:>5} {row[1] or '':>6} {row[2] or '':>10} {row[3] or '':>8}")
    print(f"{'total':<58} {tot[0]:>5} {tot[1]:>6} {tot[2]:>10} {tot[3]:>8}")
    print(f"(ids with a result on both sides compared byte for byte: {tot[0] + tot[1]}, "
          f"about {elements} elements)")
    for tid, lines in reports:
        print(f"\nDIFFER {tid}")
        print("\n".join(lines))
    sys.exit(1 if tot[1] else 0)


if __name__ == "__main__":
    main()
