"""Runs the selected cases once per simulator, each simulator in worker processes of its own.

Environment (scripts/test-ttnn.sh sets it):
  BHEMU_TTNN_SIM        bhemu's libttsim.so (soc_descriptor.yaml beside it); required
  BHEMU_TTNN_REFERENCE  the reference simulator's libttsim.so; else BHEMU_REFERENCE_LIB; when
                        neither names an existing file the reference comparisons are skipped
  BHEMU_TTNN_OUT        where the workers write (default: a temporary directory)
  BHEMU_TTNN_SEED       input seed (default 0)
  BHEMU_TTNN_REPS       timed calls after the compiling one (default 2)
  BHEMU_TTNN_CASE_TIMEOUT  seconds a case may run before its worker is stopped (default 300)
  BHEMU_TTNN_SAMPLE=1   only the cases marked sample (CI)
  BHEMU_TTNN_CASES      comma-separated case names (default: all)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402

SIMS = {}


def reference_lib():
    for var in ("BHEMU_TTNN_REFERENCE", "BHEMU_REFERENCE_LIB"):
        p = os.environ.get(var, "")
        if p and os.path.isfile(p):
            return p
    return None


def selected_names():
    names = list(C.CASES)
    if os.environ.get("BHEMU_TTNN_CASES"):
        names = [n.strip() for n in os.environ["BHEMU_TTNN_CASES"].split(",") if n.strip()]
        unknown = [n for n in names if n not in C.CASES]
        if unknown:
            raise pytest.UsageError(f"BHEMU_TTNN_CASES: unknown case(s) {unknown}")
    elif os.environ.get("BHEMU_TTNN_SAMPLE") == "1":
        names = [n for n in names if C.CASES[n].sample]
    return names


def pytest_generate_tests(metafunc):
    if "name" in metafunc.fixturenames:
        metafunc.parametrize("name", selected_names())


class SimRun:
    """One simulator's results: name -> record (worker.py), or a dict with "crash"."""

    def __init__(self, label, lib, names):
        self.label, self.lib = label, lib
        root = os.environ.get("BHEMU_TTNN_OUT") or tempfile.mkdtemp(prefix="bhemu-ttnn-")
        self.out = os.path.join(root, label)
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)
        self.cache = os.path.join(root, "tt-metal-cache")  # kernels are the same on every simulator
        self.records = {}
        self._run(names)

    def _env(self, tmp):
        env = dict(os.environ)
        env.update(TT_METAL_SIMULATOR=self.lib, TT_METAL_SLOW_DISPATCH_MODE="1", TT_METAL_CACHE=self.cache,
                   TMPDIR=tmp)
        return env

    def _run(self, names):
        import torch

        timeout = float(os.environ.get("BHEMU_TTNN_CASE_TIMEOUT", "300"))
        pending = list(names)
        attempt = 0
        while pending:
            attempt += 1
            log = os.path.join(self.out, f"worker-{attempt}.log")
            tmp = tempfile.mkdtemp(prefix="ttnn-", dir="/tmp")
            cmd = [sys.executable, os.path.join(HERE, "worker.py"), "--out", self.out,
                   "--seed", os.environ.get("BHEMU_TTNN_SEED", "0"),
                   "--reps", os.environ.get("BHEMU_TTNN_REPS", "2"), *pending]
            with open(log, "w") as lf:
                # tt-metal writes its inspector and watcher logs under ./generated: in the run's folder.
                p = subprocess.Popen(cmd, stdout=lf, stderr=subprocess.STDOUT, env=self._env(tmp), cwd=self.out,
                                     start_new_session=True)
                last, seen, timed_out = time.monotonic(), 0, False
                while p.poll() is None:
                    time.sleep(0.5)
                    n = sum(os.path.exists(os.path.join(self.out, x + ".pt")) for x in pending)
                    if n != seen:
                        seen, last = n, time.monotonic()
                    elif time.monotonic() - last > timeout:
                        timed_out = True
                        os.killpg(p.pid, signal.SIGKILL)
                        p.wait()
            shutil.rmtree(tmp, ignore_errors=True)
            tail = "".join(open(log, errors="replace").readlines()[-25:])
            rest = []
            for n in pending:
                pt = os.path.join(self.out, n + ".pt")
                if os.path.exists(pt):
                    self.records[n] = torch.load(pt)
                elif os.path.exists(os.path.join(self.out, n + ".started")):
                    why = f"timed out after {timeout:.0f} s" if timed_out else f"worker exited with {p.returncode}"
                    self.records[n] = {"crash": f"{why} during this case ({log}); its last lines:\n{tail}"}
                else:
                    rest.append(n)
            if rest and len(rest) == len(pending):  # nothing started: the device did not open
                for n in rest:
                    self.records[n] = {"crash": f"the worker ran no case (exit {p.returncode}, {log}):\n{tail}"}
                break
            pending = rest


def sim_run(label, lib, request):
    if label not in SIMS:
        names = []
        for item in request.session.items:
            n = getattr(item, "callspec", None) and item.callspec.params.get("name")
            if n and n not in names and not C.CASES[n].needs_sfpi:
                names.append(n)
        SIMS[label] = SimRun(label, lib, names)
    return SIMS[label]


@pytest.fixture(scope="session")
def bhemu(request):
    lib = os.environ.get("BHEMU_TTNN_SIM", "")
    if not os.path.isfile(lib):
        pytest.fail(f"BHEMU_TTNN_SIM={lib!r} is not bhemu's libttsim.so (run scripts/test-ttnn.sh)")
    return sim_run("bhemu", lib, request)


@pytest.fixture(scope="session")
def reference(request):
    lib = reference_lib()
    if lib is None:
        pytest.skip("no reference simulator (BHEMU_TTNN_REFERENCE / BHEMU_REFERENCE_LIB; scripts/build-reference.sh)")
    return sim_run("reference", lib, request)


def pytest_terminal_summary(terminalreporter):
    """ms per call after the compiling call, per case and simulator."""
    if not SIMS:
        return
    labels = [l for l in ("bhemu", "reference") if l in SIMS]
    rows = []
    for n in C.CASES:
        cells = []
        for l in labels:
            r = SIMS[l].records.get(n)
            cells.append(f"{min(r['ms']):.1f}" if r and r.get("ms") else "-")
        if any(c != "-" for c in cells):
            rows.append((n, cells))
    if not rows:
        return
    terminalreporter.section("ttnn: ms per call after compiling (fastest of the timed calls)")
    terminalreporter.write_line(f"{'case':32s}" + "".join(f"{l:>12s}" for l in labels))
    for n, cells in rows:
        terminalreporter.write_line(f"{n:32s}" + "".join(f"{c:>12s}" for c in cells))
