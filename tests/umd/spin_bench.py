#!/usr/bin/env python3
"""The spin workload through tt-umd: boot the firmware on all 140 tiles, slow-dispatch
examples/kernels/spin.c (a 7-instruction register-only loop per BRISC, the other cores in the
firmware's idle loops), and poll every tile's go signal until all are DONE. tt-umd gives the
simulator one clock per read (docs/tt-umd-sim-interface.md §6), so the poll is the clock.

Usage:
    spin_bench.py LIBTTSIM_SO FIRMWARE_DIR SPIN_ELF [--iterations N]

Prints the clocks (reads) and wall time of the spin phase; then, on the idle chip, the same count
of bare reads of one tile and of reads by the same polling loop (what tt-umd, Python and the
library cost per read on their own); and ns per tile-clock with and without each. Exit status 0 when every tile finished with the checksum the loop gives.
"""
import argparse
import os
import struct
import sys
import time

import acceptance as acc

L1_ARG = 0x30040
L1_OUT = 0x30000


def checksum(n):
    """The loop of examples/kernels/spin.c, restated."""
    a, b, c = 1, 2, 3
    m = 0xFFFFFFFF
    while True:
        n = (n - 1) & m
        a = (a + n) & m
        b ^= a
        c = (b << 1) & m
        c |= a
        b = (b + c) & m
        if n == 0:
            return a ^ b ^ c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("so")
    ap.add_argument("firmware")
    ap.add_argument("kernel")
    ap.add_argument("--iterations", type=int, default=100_000)
    ap.add_argument("--no-idle", action="store_true",
                    help="skip the idle-chip reads (so BHEMU_STATS covers only boot and spin)")
    a = ap.parse_args()
    # Seven instructions per iteration: allow the poll that many clocks (plus the boot's), and
    # tell the library's hang watchdog that a kernel this long is expected.
    acc.READ_BUDGET = 8 * a.iterations + 100_000
    os.environ.setdefault("BHEMU_HANG_CYCLES", str(acc.READ_BUDGET))
    ctx = acc.Ctx()
    acc.open_device(ctx, a.so)
    if ctx.dev is None:
        return 1
    acc.soc_descriptor(ctx)
    # No reset-PC check: the reference simulator refuses NCRISC's reset-PC register.
    if not acc.boot(ctx, a.firmware, check_reset_pcs=False):
        return 1
    dev = ctx.dev
    img, text_off = acc.kernel_image(a.kernel)
    msg = acc.launch_message(len(img), text_off, 1)
    for (x, y) in ctx.tiles:
        dev.noc_write(x, y, acc.KERNEL_BASE, img)
        dev.noc_write(x, y, acc.LAUNCH_BASE, msg)
        dev.noc_write32(x, y, L1_ARG, a.iterations)
    for (x, y) in ctx.tiles:
        dev.noc_write32(x, y, acc.GO_MSG, acc.RUN_MSG_GO << 24)
    reads, dt, left = acc.wait_done(dev, ctx.tiles, "spin", need_sync=False)
    want = checksum(a.iterations)
    bad = [(x, y) for (x, y) in ctx.tiles if acc.u32(dev.noc_read(x, y, L1_OUT, 4)) != want]
    acc.check("spin: 140 tiles back to DONE", not left, f"{reads} reads, {dt:.3f} s")
    acc.check("spin: checksum on every tile", not bad, f"{len(bad)} wrong, e.g. {bad[:3]}")
    n = len(ctx.tiles)
    tc = reads * n
    print(f"spin through tt-umd: {n} tiles, {reads} clocks (reads) in {dt:.3f} s wall: "
          f"{dt * 1e9 / tc:.2f} ns per tile-clock, {reads / dt / 1e6:.3f} MHz")
    if not a.no_idle:
        # As many reads of bare polling on one tile, then of the same polling loop as above
        # (acc.wait_done) over every tile, with every core idle: what the client and the
        # library cost per read on their own.
        x, y = ctx.tiles[0]
        t0 = time.perf_counter()
        for _ in range(reads):
            dev.noc_read(x, y, acc.POLL_LO, acc.POLL_HI - acc.POLL_LO)
        idle = time.perf_counter() - t0
        print(f"the same {reads} reads on the idle chip: {idle:.3f} s ({idle / reads * 1e6:.2f} us per read); "
              f"spin less that: {(dt - idle) * 1e9 / tc:.2f} ns per tile-clock")
        loop_reads, loop_dt, _ = acc.wait_done(dev, ctx.tiles, "idle", need_sync=False, min_reads=reads)
        per = loop_dt / loop_reads
        print(f"the same polling loop on the idle chip: {loop_reads} reads in {loop_dt:.3f} s "
              f"({per * 1e6:.2f} us per read, {per * 1e9 / n:.2f} ns per tile-clock); "
              f"spin less that: {(dt - per * reads) * 1e9 / tc:.2f} ns per tile-clock")
    acc.close(ctx)
    return acc.check.summary()


if __name__ == "__main__":
    sys.exit(main())
