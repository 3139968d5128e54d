#!/usr/bin/env python3
"""Per-file table and failure details for scripts/test-llk.sh.

    summarize.py RUNS_DIR SIM_NAME TOTAL_S TESTS_S FILE...

RUNS_DIR/<file without .py>/ holds `ids` (what was asked), `junit.xml` and `pytest.log` (pytest
with -s, so the harness's tile printouts are in it), `seconds`. Counts per file: passed, failed,
skipped by the test itself, cannot compile without sfpi (a compile error naming sfpi's vector
types), cannot compile here (another compile error with Debian's GCC 12: listed with its first
error line), not run (asked for but no result: the process died or was killed). For each failure it
prints the harness's message and, when the harness printed Result/Golden tiles, how many elements
differ and the first few (tile, row, column: got vs expected). Exit status 1 when anything failed
or did not run.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

# Debian's GCC cannot build code that uses sfpi's vector types (docs/llk.md).
SFPI = re.compile(r"'sfpi'|sfpi::|vFloat|vInt|vUInt|\bv_if\b|\bv_endif\b|sfpi_inline|__builtin_rvtt|dst_reg")
# Any other compile error (GCC 12 without Tenstorrent's -ftt-* extensions, a header the wheel lacks).
COMPILE_ERR = re.compile(r"^(\S+:\d+:\d+: (?:fatal )?error: .*)$", re.M)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
ERR_BG = "\x1b[48;2;160;0;0m"  # helpers/utils.py TILE_BG_ERROR
CELL = re.compile(r"(\x1b\[48;2;\d+;\d+;\d+m)\s*(\S+?)\x1b\[0m")


def blocks(log_text):
    """{test name (as in the junit `name`): failure block text} from a pytest log."""
    out, name, buf = {}, None, []
    for line in log_text.splitlines():
        m = re.match(r"^_{1,} (test\S*\[.*\]|test\S*) _{1,}$", line)
        if m or line.startswith("- generated xml") or line.startswith("=" * 10):
            if name:
                out[name] = "\n".join(buf)
            name, buf = (m.group(1), []) if m else (None, [])
            continue
        if name:
            buf.append(line)
    if name:
        out[name] = "\n".join(buf)
    return out


def grids(block):
    """[(kind, tile, rows)] where rows are lists of (value text, is_error)."""
    out, cur = [], None
    for line in block.splitlines():
        m = re.search(r"=== (Result|Golden) tile (\d+) ===", line)
        if m:
            cur = (m.group(1), int(m.group(2)), [])
            out.append(cur)
            continue
        if cur and re.match(r"^\d\d\. ", line):
            cur[2].append([(v, bg == ERR_BG) for bg, v in CELL.findall(line)])
        elif cur and line.strip() and not line.startswith("Row"):
            cur = None
    return out


def warnings_by_test(log_text, fname):
    """{index of the test in run order: [bhemu warning lines printed while it ran]}.

    With -s, stderr lands between pytest's progress characters; a warning belongs to the test
    whose result character follows it. bhemu reports each kind of undefined behaviour once per
    process, so only the first test that hits a kind shows it.
    """
    out, n, started = {}, 0, False
    for line in log_text.splitlines():
        if not started:
            started = bool(re.match(r"^collected \d+ item", line))
            continue
        if re.match(r"^(=+ |_+ test)", line):
            break
        if line.startswith(fname + " "):
            line = line[len(fname) + 1:]
        while True:
            m = re.match(r"^([.FsExX]+)(?=bhemu: |$)", line)
            if m:
                n += len(m.group(1))
                line = line[m.end():]
                continue
            i = line.find("bhemu: ")
            if i < 0:
                break
            j = line.find("bhemu: ", i + 7)
            w = line[i:j if j > 0 else None].strip()
            m = re.match(r"bhemu: warning: tensix at tile \((\d+,\d+)\), thread (T\d), insn (0x[0-9a-f]+), "
                         r"cycle \d+: undefined at cycle \d+, thread T\d, word 0x[0-9a-f]+: (.*)", w)
            if m:
                w = f"bhemu: {m.group(2)} {m.group(3)}: {m.group(4)}"
            out.setdefault(n, []).append(w)
            if j < 0:
                break
            line = line[j:]
    return out


def first_message(block, fail_msg):
    plain = ANSI.sub("", block)
    for pat in (r"(TimeoutError: .*)", r"Timeout reached: .*", r"(Timeout \(>[\d.]+s\) from pytest-timeout)",
                r"^E\s+(.+)$", r"(RuntimeError: .*)", r"(AssertionError: .*)", r"^(assert .*)$"):
        m = re.search(pat, plain, re.M)
        if m:
            return (m.group(1) if m.groups() else m.group(0)).strip()[:300]
    m = re.search(r"^⨯ \S+\[.*\] (.*)$", plain, re.M)  # the harness's one-line failure summary
    if m:
        return m.group(1).strip()[:300]
    return (fail_msg or "").strip().splitlines()[0][:300] if fail_msg else "(no message)"


def tile_diff(block, limit=4):
    gs = grids(block)
    res = {t: rows for k, t, rows in gs if k == "Result"}
    gold = {t: rows for k, t, rows in gs if k == "Golden"}
    if not res:
        return None
    total = bad = 0
    zeros = True
    samples = []
    for t in sorted(res):
        for r, row in enumerate(res[t]):
            grow = gold.get(t, [])[r] if r < len(gold.get(t, [])) else []
            for c, (v, err) in enumerate(row):
                total += 1
                if err:
                    bad += 1
                    if v not in ("0.00", "0", "-0.00"):
                        zeros = False
                    if len(samples) < limit:
                        want = grow[c][0] if c < len(grow) else "?"
                        samples.append(f"t{t} r{r} c{c}: got {v} want {want}")
    if not bad:
        return f"{total} elements printed, none marked wrong (PCC or ULP gate failed)"
    note = " (every wrong element reads 0)" if zeros else ""
    return f"{bad}/{total} elements differ{note}; " + "; ".join(samples)


def main():
    runs, simname, total, run_s, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    rows, details, compile_errs, bad_any = [], [], [], 0
    for f in files:
        d = os.path.join(runs, f[:-3])
        idp = os.path.join(d, "ids")
        ids = [l.strip() for l in open(idp) if l.strip()] if os.path.exists(idp) else []
        logp = os.path.join(d, "pytest.log")
        log = open(logp, errors="replace").read() if os.path.exists(logp) else ""
        blk = blocks(log)
        warns = warnings_by_test(log, f)
        p = fl = sk = sf = ce = seen = 0
        xmlp = os.path.join(d, "junit.xml")
        if os.path.exists(xmlp):
            for k, tc in enumerate(ET.parse(xmlp).getroot().iter("testcase")):
                seen += 1
                fail = tc.find("failure")
                if fail is None:
                    fail = tc.find("error")
                if tc.find("skipped") is not None:
                    sk += 1
                elif fail is not None:
                    text = (fail.get("message") or "") + "\n" + (fail.text or "")
                    if "Command's stderr" in text and SFPI.search(text):
                        sf += 1
                        continue
                    cm = COMPILE_ERR.search(ANSI.sub("", blk.get(tc.get("name"), "") + "\n" + text))
                    if cm:
                        ce += 1
                        compile_errs.append((f, tc.get("name"), cm.group(1)[:300]))
                        continue
                    fl += 1
                    name = tc.get("name")
                    b = blk.get(name, "") or text
                    diff = tile_diff(b)
                    w = warns.get(k, [])
                    if w:
                        diff = ((diff + "\n      ") if diff else "") + "\n      ".join(sorted(set(w)))
                    details.append((f, name, first_message(b, fail.get("message")), diff))
                else:
                    p += 1
        notrun = max(len(ids) - seen, 0)
        sp = os.path.join(d, "seconds")
        secs = open(sp).read().strip() if os.path.exists(sp) else "-"
        rows.append((f, len(ids), p, fl, sk, sf, ce, notrun, secs))
        bad_any += fl + notrun
        if notrun:
            details.append((f, "-", f"{notrun} id(s) without a result: see {logp}", None))

    hdr = ("file", "ids", "passed", "failed", "skipped", "needs sfpi", "GCC 12", "not run", "s")
    w = max([len(hdr[0])] + [len(r[0]) for r in rows])
    fmt = f"{{:<{w}}} {{:>4}} {{:>6}} {{:>6}} {{:>7}} {{:>10}} {{:>6}} {{:>7}} {{:>5}}"
    print()
    print(f"tt-llk python_tests on {simname}")
    print(fmt.format(*hdr))
    for r in rows:
        print(fmt.format(*r))
    tot = [sum(r[i] for r in rows) for i in range(1, 8)]
    print(fmt.format("total", *tot, run_s))
    print(f"wall time {total} s (tests {run_s} s); logs: {runs}/<file>/pytest.log")
    if compile_errs:
        print("\ncannot compile here (not bhemu's):")
        for f, name, msg in compile_errs:
            print(f"  {f}::{name}\n      {msg}")
    if details:
        print("\nfailures:")
        for f, name, msg, diff in details:
            print(f"  {f}::{name}\n      {msg}")
            if diff:
                print(f"      {diff}")
    return 1 if bad_any else 0


if __name__ == "__main__":
    sys.exit(main())
