"""ttnn operations on bhemu, checked against torch and bit for bit against the reference simulator
(docs/ttnn.md). The cases are in cases.py; conftest.py runs them on each simulator."""
import pytest
import torch

import cases as C

# Cases where bhemu is known to differ from the chip (and so from torch and the reference
# simulator), with the cause and what was last measured (seed 0). Their tests are expected failures
# carrying this note and the numbers measured now; once bhemu is fixed they pass (XPASS) and the entry
# goes. docs/ttnn.md, "Differences".
KNOWN_DIFFS: dict = {}

BITS = {torch.bfloat16: torch.int16, torch.float32: torch.int32, torch.int32: torch.int32}


def show(t, idx):
    """Elements at flat indices idx as value and bits."""
    flat = t.contiguous().view(-1)
    it = BITS.get(t.dtype)
    width = 4 if t.dtype == torch.bfloat16 else 8
    out = []
    for i in idx:
        v = flat[i].item()
        bits = f"0x{flat.view(it)[i].item() & ((1 << (4 * width)) - 1):0{width}x}" if it else ""
        out.append(f"{v!r} ({bits})" if bits else repr(v))
    return out


def pcc(a, b):
    a, b = a.double().flatten(), b.double().flatten()
    if torch.equal(a, b):
        return 1.0
    a, b = a - a.mean(), b - b.mean()
    d = a.norm() * b.norm()
    return float((a * b).sum() / d) if d > 0 else 0.0


def mismatch_report(got, want, limit=6):
    """Where two same-shaped tensors differ: count and the first few elements."""
    g = got.contiguous().view(-1)
    w = want.contiguous().view(-1)
    if got.dtype in BITS and want.dtype == got.dtype:
        diff = g.view(BITS[got.dtype]) != w.view(BITS[got.dtype])
    else:
        diff = ~((g == w) | (g.isnan() & w.isnan()))
    idx = diff.nonzero().flatten().tolist()
    lines = [f"{len(idx)} of {g.numel()} elements differ"]
    shape = tuple(got.shape)
    for i, gv, wv in zip(idx[:limit], show(got, idx[:limit]), show(want, idx[:limit])):
        pos = tuple(int(x) for x in torch.unravel_index(torch.tensor(i), shape))
        lines.append(f"  at {pos}: {gv} vs {wv}")
    return len(idx), "\n".join(lines)


def record(run, name):
    r = run.records.get(name)
    assert r is not None, f"{name}: no result from {run.label}"
    assert "crash" not in r, f"{name} on {run.label}: {r['crash']}"
    assert "error" not in r, f"{name} on {run.label} raised:\n{r['error']}"
    return r


def test_vs_torch(bhemu, name):
    case = C.CASES[name]
    if case.needs_sfpi:
        pytest.skip("needs sfpi's vector types (docs/ttnn.md)")
    r = record(bhemu, name)
    out, golden = r["out"], r["golden"]
    assert tuple(out.shape) == tuple(golden.shape), f"shape {tuple(out.shape)}, torch {tuple(golden.shape)}"
    assert r["same_each_call"], "a later call gave other bytes than the first"
    if case.check[0] == "equal":
        n, report = mismatch_report(out.to(golden.dtype), golden)
        ok, msg = n == 0, f"{name}: not equal to torch: {report}"
    else:
        got = pcc(out.float(), golden.float())
        maxerr = (out.float() - golden.float()).abs().max().item()
        ok, msg = got >= case.check[1], f"{name}: pcc {got:.6f} (needs {case.check[1]}), max |error| {maxerr:.4g}"
    print(msg)
    if not ok and name in KNOWN_DIFFS:
        pytest.xfail(f"known: {KNOWN_DIFFS[name]}; measured now: {msg}")
    assert ok, msg


def test_vs_reference(bhemu, reference, name):
    case = C.CASES[name]
    if case.needs_sfpi:
        pytest.skip("needs sfpi's vector types (docs/ttnn.md)")
    ref = record(reference, name)
    r = record(bhemu, name)
    out, want = r["out"], ref["out"]
    assert out.dtype == want.dtype and out.shape == want.shape
    n, report = mismatch_report(out, want)
    print(f"{name}: bhemu vs reference: {report}")
    if n and name in KNOWN_DIFFS:
        pytest.xfail(f"known difference ({KNOWN_DIFFS[name]}); measured now: {report}")
    assert n == 0, f"{name}: bhemu differs from the reference simulator: {report}"
