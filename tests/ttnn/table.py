#!/usr/bin/env python3
"""The op table of docs/ttnn.md from the workers' results of the last scripts/test-ttnn.sh run.

    .cache/ttnn-venv/bin/python tests/ttnn/table.py [RUNS]    (default .cache/ttnn-runs)

One row per case: device data type, the check against torch and its outcome, bit-for-bit against
the reference simulator (differing elements), and ms per call after compiling (fastest timed call)
on each simulator. Cases that did not run (needs sfpi) are listed with their error's first line.
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
from test_ttnn import mismatch_report, pcc  # noqa: E402


def load(runs, sim, name):
    p = os.path.join(runs, sim, name + ".pt")
    return torch.load(p) if os.path.exists(p) else None


def main():
    runs = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", ".cache", "ttnn-runs")
    print("| case | dtype | vs torch | vs reference | bhemu ms | reference ms |")
    print("| --- | --- | --- | --- | ---: | ---: |")
    for name, case in C.CASES.items():
        b, r = load(runs, "bhemu", name), load(runs, "reference", name)
        dtype = "/".join(sorted({i.dtype for i in case.inputs})) or "bfloat16"
        if case.out_dtype:
            dtype += " → " + case.out_dtype
        if b is None or "out" not in b:
            continue
        if case.check[0] == "equal":
            n, _ = mismatch_report(b["out"].to(b["golden"].dtype), b["golden"])
            vt = "equal" if n == 0 else f"**{n} differ**"
        else:
            p = pcc(b["out"].float(), b["golden"].float())
            vt = f"pcc {p:.6f}" + ("" if p >= case.check[1] else f" **< {case.check[1]}**")
        if r is not None and "out" in r:
            n, _ = mismatch_report(b["out"], r["out"])
            vr = "identical" if n == 0 else f"**{n} of {b['out'].numel()} differ**"
            rms = f"{min(r['ms']):.1f}"
        else:
            vr, rms = "-", "-"
        print(f"| `{name}` | {dtype} | {vt} | {vr} | {min(b['ms']):.1f} | {rms} |")


if __name__ == "__main__":
    main()
