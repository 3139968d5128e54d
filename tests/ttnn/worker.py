#!/usr/bin/env python3
"""Run named ttnn cases (cases.py) on the simulator that TT_METAL_SIMULATOR names, one process.

    worker.py --out DIR [--seed N] [--reps N] CASE [CASE ...]

A simulator library is a process-wide singleton (Tenstorrent's reference simulator keeps global
state), so each simulator gets a worker process of its own; the pytest suite starts one per
simulator and compares what they wrote. The device is opened once; for each case, in order:

* ``DIR/CASE.started`` is written first (a case that kills the process is known by it);
* the inputs are drawn from the seed and quantised to their device types, moved to the device,
  and the operation runs once (JIT-compiling its kernels) and then ``--reps`` more times, timed
  (ms per call, the device synchronised after each);
* ``DIR/CASE.pt`` (torch.save) holds ``out`` (the first call's result, back on the host),
  ``golden`` (torch's result from the same inputs), ``same_each_call`` (every timed call gave the
  first call's bytes), ``compile_ms``, ``ms`` (a list) and, when the operation raised, ``error``
  (the exception's text) instead of ``out``.
"""
import argparse
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as C  # noqa: E402


def error_text(e):
    """The exception's text, with the first compiler or linker error line moved to the front."""
    text = f"{type(e).__name__}: {e}"
    lines = text.splitlines()
    first = next((l for l in lines if "undefined reference" in l), None) or next(
        (l for l in lines if " error: " in l or l.startswith("error:")), None)
    if first and "undefined reference" in first:
        first = first[first.index("undefined reference"):]
    head = lines[0] if lines else text
    return (first.strip() + "\n" if first else "") + head + ("\n" + "\n".join(lines[1:40]) if len(lines) > 1 else "")


def raw(t):
    """A host tensor's bytes (dtype and shape aside)."""
    import torch

    return t.dtype, tuple(t.shape), bytes(t.contiguous().view(-1).view(torch.uint8).numpy())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()
    unknown = [n for n in args.names if n not in C.CASES]
    if unknown:
        sys.exit(f"worker: unknown case(s) {unknown}")
    os.makedirs(args.out, exist_ok=True)

    import torch
    import ttnn

    device = ttnn.open_device(device_id=0)
    try:
        for name in args.names:
            case = C.CASES[name]
            open(os.path.join(args.out, name + ".started"), "w").close()
            rec = {"name": name, "seed": args.seed}
            try:
                host = C.make_inputs(ttnn, case, args.seed)
                golden = case.golden(*host)
                if case.out_dtype:
                    golden = C.quantise(ttnn, golden, case.out_dtype)
                rec["golden"] = golden
                tts = [C.to_device(ttnn, device, x, spec) for x, spec in zip(host, case.inputs)]
                t0 = time.perf_counter()
                y = case.op(ttnn, device, *tts)
                ttnn.synchronize_device(device)
                rec["compile_ms"] = (time.perf_counter() - t0) * 1e3
                out = ttnn.to_torch(y)
                rec["out"] = out
                same, ms = True, []
                for _ in range(args.reps):
                    t0 = time.perf_counter()
                    y2 = case.op(ttnn, device, *tts)
                    ttnn.synchronize_device(device)
                    ms.append((time.perf_counter() - t0) * 1e3)
                    same = same and raw(ttnn.to_torch(y2)) == raw(out)
                rec["ms"] = ms
                rec["same_each_call"] = same
                print(f"worker: {name}: ok, compile {rec['compile_ms']:.0f} ms, "
                      f"{', '.join(f'{m:.1f}' for m in ms)} ms per call", file=sys.stderr, flush=True)
            except Exception as e:  # the op failed (JIT compile error, unsupported case): record it
                rec["error"] = error_text(e)
                rec.pop("out", None)
                print(f"worker: {name}: FAILED: {rec['error'].splitlines()[0]}", file=sys.stderr, flush=True)
                traceback.print_exc(limit=3)
            torch.save(rec, os.path.join(args.out, name + ".pt"))
    finally:
        ttnn.close_device(device)


if __name__ == "__main__":
    main()
