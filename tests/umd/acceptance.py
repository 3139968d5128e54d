#!/usr/bin/env python3
"""Acceptance test of bhemu's libttsim.so through Tenstorrent's own host client, tt-umd 0.9.14.

Everything goes through ``tt_umd.create_simulation_tt_device(path)`` and the device it returns
(tests/umd/README.md lists the steps; docs/tt-umd-sim-interface.md has the facts, cited as §n;
the boot and slow-dispatch protocols are docs/blackhole-facts.md §9).

Usage:
    acceptance.py LIBTTSIM_SO FIRMWARE_DIR [--kernel noc_stamp.elf]

FIRMWARE_DIR holds brisc.elf, ncrisc.elf, trisc0.elf, trisc1.elf, trisc2.elf of the ttnn 0.81.1
wheel (scripts/fetch-ttnn.sh). The kernel is examples/kernels/noc_stamp.c built by
scripts/build-kernels.sh; without --kernel the launch step fails.

Prints one ``ok``/``FAIL`` line per check, the wall time of the 140-tile boot, and ends with the
line ``N passed, M failed``. Exit status 0 only when nothing failed.
"""
import argparse
import gc
import os
import struct
import sys
import time
import traceback

import tt_umd
from tt_umd import CoordSystem, CoreCoord, CoreType, RiscType

# ---- facts ------------------------------------------------------------------------------------

SOFT_RESET = 0xFFB121B0  # §5
RESET_ALL = 0x47800  # BRISC bit 11, TRISC0-2 bits 12-14, NCRISC bit 18
RESET_BRISC_RUN = 0x47000
L1_SIZE = 0x180000  # worker_l1_size, §7
DRAM_BANK_SIZE = 0xFF000000  # dram_bank_size, §7
WINDOW = 2 << 20  # 2 MiB TLB windows, §3

# docs/blackhole-facts.md §9: firmware layout of ttnn 0.81.1, dev_msgs.h offsets.
FIRMWARE = [  # (file, text link address, L1 staging of the 0xFFB00000 local-RAM segment)
    ("brisc.elf", 0x3AE0, 0xA080),
    ("ncrisc.elf", 0x5CE0, 0xC080),
    ("trisc0.elf", 0x66E0, 0xE080),
    ("trisc1.elf", 0x70E0, 0xF080),
    ("trisc2.elf", 0x7AE0, 0x10080),
]
LOCAL_RAM_LINK = 0xFFB00000
SUBORDINATE_SYNC = 0x68
LAUNCH_RD_PTR = 0x6C
LAUNCH_BASE = 0x70
LAUNCH_SIZE = 144
LAUNCH_ENTRIES = 8
GO_MSG = 0x4F0  # signal byte at 0x4F3
GO_INDEX = 0x520
RUN_MSG_INIT = 0x40
RUN_MSG_GO = 0x80
RUN_MSG_DONE = 0x00
KERNEL_BASE = 0xA080  # kernel config base; kernels may use up to NCRISC's staging at 0xC080
KERNEL_MAX = 0xC080 - KERNEL_BASE

# One poll read gives both the sync word (0x68) and the go signal (0x4F3).
POLL_LO, POLL_HI = SUBORDINATE_SYNC, GO_MSG + 4
READ_BUDGET = 100_000  # host reads (= clocks, §6) allowed per wait
WALL_BUDGET = 600.0  # seconds per wait

# ---- reporting --------------------------------------------------------------------------------

from checks import check


def describe(got, want):
    """A mismatch message; all-ones where data was expected means the device faulted (§8)."""
    if isinstance(got, int):
        s = f"got {got:#x}, want {want:#x}"
        if got == 0xFFFFFFFF:
            s += " — device faulted (all-ones)"
        return s
    first = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), None)
    s = f"{len(got)} bytes differ from {len(want)} expected, first at +{first:#x}" if first is not None \
        else f"length {len(got)} != {len(want)}"
    if got and all(b == 0xFF for b in got[: min(len(got), 64)]):
        s += " — device faulted (all-ones)"
    return s


def step(name):
    """Decorator: run a step, turning an exception into one failure."""
    def wrap(fn):
        def run(*a, **k):
            print(f"== {name}", flush=True)
            try:
                return fn(*a, **k)
            except Exception as e:  # noqa: BLE001 - a failed step is reported, not raised
                traceback.print_exc()
                check(f"{name}: no exception", False, f"{type(e).__name__}: {e}")
                return None
        return run
    return wrap


def u32(b, off=0):
    return struct.unpack_from("<I", b, off)[0]


# ---- ELF32 (no extra packages) -----------------------------------------------------------------


def elf32_segments(path):
    """(entry, [(vaddr, filesz bytes, memsz, flags)]) of the PT_LOAD segments of an ELF32 LE file."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError(f"{path}: not a little-endian ELF32 file")
    e_entry, e_phoff = struct.unpack_from("<II", data, 0x18)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 0x2A)
    segs = []
    for i in range(e_phnum):
        p_type, p_offset, p_vaddr, _p_paddr, p_filesz, p_memsz, p_flags, _ = struct.unpack_from(
            "<IIIIIIII", data, e_phoff + i * e_phentsize)
        if p_type == 1 and p_memsz > 0:  # PT_LOAD
            segs.append((p_vaddr, data[p_offset:p_offset + p_filesz], p_memsz, p_flags))
    return e_entry, segs


def firmware_writes(fw_dir):
    """Per core: (text address, [(L1 address, bytes)]), as docs/blackhole-facts.md §9 step 2 says."""
    cores = []
    for name, text, staging in FIRMWARE:
        entry, segs = elf32_segments(os.path.join(fw_dir, name))
        exe = [s for s in segs if s[3] & 1]
        if len(exe) != 1 or exe[0][0] != text or entry != text:
            raise ValueError(f"{name}: text at {[hex(s[0]) for s in exe]}, entry {entry:#x}; "
                             f"the 0.81.1 layout has {text:#x}")
        writes = []
        for vaddr, filedata, memsz, _flags in segs:
            if vaddr == LOCAL_RAM_LINK:
                # The firmware's start-up code copies this from L1 to local RAM and zeroes .bss.
                if filedata:
                    writes.append((staging, filedata))
            elif vaddr + memsz <= L1_SIZE:
                writes.append((vaddr, filedata + bytes(memsz - len(filedata))))
            else:
                raise ValueError(f"{name}: segment at {vaddr:#x} is neither in L1 nor local RAM")
        cores.append((text, writes))
    return cores


def jal_x0(target):
    """``jal x0, target`` from address 0 (RISC-V J-type immediate)."""
    return (((target >> 20) & 1) << 31) | (((target >> 1) & 0x3FF) << 21) | \
        (((target >> 11) & 1) << 20) | (((target >> 12) & 0xFF) << 12) | 0x6F


# ---- the steps ---------------------------------------------------------------------------------


class Ctx:
    dev = None
    sd = None
    tiles = []  # NOC0 = translated (x, y) of the 140 Tensix tiles
    dram = []  # per channel: NOC0 (x, y) of its three ports


@step("open")
def open_device(ctx, so):
    t0 = time.perf_counter()
    ctx.dev = tt_umd.create_simulation_tt_device(so)
    dev = ctx.dev
    check("create_simulation_tt_device", dev is not None, f"{time.perf_counter() - t0:.3f} s")
    check("device type is TTSimTTDevice", type(dev).__name__ == "TTSimTTDevice", type(dev).__name__)
    check("arch is BLACKHOLE", dev.get_arch() == tt_umd.ARCH.BLACKHOLE, str(dev.get_arch()))
    for name in ("bar0_base", "bar4_base"):
        v = getattr(dev, name)
        check(f"{name} non-zero with low 4 bits clear", v != 0 and v & 0xF == 0, f"{v:#x}")
    # bhemu routes with coordinate translation on (NIU_CFG_0 bit 14 = 1, docs/libttsim-abi.md).
    check("NoC translation reported enabled (NIU_CFG_0 bit 14)", dev.get_noc_translation_enabled())


@step("SoC descriptor")
def soc_descriptor(ctx):
    sd = ctx.dev.get_soc_descriptor()
    ctx.sd = sd
    tensix = sd.get_cores(CoreType.TENSIX, CoordSystem.NOC0)
    ctx.tiles = sorted((c.x, c.y) for c in tensix)
    want = sorted((x, y) for y in range(2, 12) for x in list(range(1, 8)) + list(range(10, 17)))
    check("140 Tensix cores at x 1-7, 10-16, y 2-11", ctx.tiles == want, f"{len(ctx.tiles)} cores")
    tr = sorted((c.x, c.y) for c in sd.get_cores(CoreType.TENSIX, CoordSystem.TRANSLATED))
    check("Tensix translated == NOC0", tr == ctx.tiles)
    dram = sd.get_cores(CoreType.DRAM, CoordSystem.NOC0)
    check("24 DRAM cores", len(dram) == 24, str(len(dram)))
    # In 0.9.14, get_cores(DRAM, NOC0, p) lists NoC port p of each of the 8 channels, in
    # channel order (observed); regroup into channel -> its three ports.
    by_port = [[(c.x, c.y) for c in sd.get_cores(CoreType.DRAM, CoordSystem.NOC0, p)] for p in range(3)]
    ctx.dram = [[by_port[p][c] for p in range(3)] for c in range(8)] if all(len(b) == 8 for b in by_port) else []
    # blackhole_140_arch.yaml: channel c's ports are at x 0 (c < 4) or 9 (c >= 4).
    check("8 DRAM channels of 3 ports (x 0 for channels 0-3, 9 for 4-7)",
          len(ctx.dram) == 8 and all(x == (0 if c < 4 else 9) for c, ports in enumerate(ctx.dram) for x, _ in ports)
          and len({xy for ports in ctx.dram for xy in ports}) == 24,
          str(ctx.dram[:2]) + " ...")
    check("2 PCIe cores", len(sd.get_cores(CoreType.PCIE)) == 2)
    check("1 ARC core", len(sd.get_cores(CoreType.ARC)) == 1)
    eth = sd.get_cores(CoreType.ETH)
    check("12 active ETH cores (UMD's harvesting mask 0x120)", len(eth) == 12, str(len(eth)))


def tile_pattern(i, n, salt):
    base = bytes((k * 7 + salt) & 0xFF for k in range(256))
    rot = (i * 37 + salt) % 256
    one = base[rot:] + base[:rot]
    return (one * (n // 256 + 1))[:n]


@step("L1 round trips on every Tensix tile")
def l1_round_trips(ctx):
    dev = ctx.dev
    bad = []
    block = 64 << 10
    for i, (x, y) in enumerate(ctx.tiles):
        w0 = 0xA5000000 | (y << 8) | x
        dev.noc_write32(x, y, 0x0, w0)
        dev.noc_write32(x, y, 0x1001, w0 ^ 0xFFFF)  # unaligned
        dev.noc_write(x, y, 0x20000, tile_pattern(i, block, 1))
        dev.noc_write(x, y, L1_SIZE - 4096, tile_pattern(i, 4096, 2))  # ends at the last L1 byte
    for rnd in ("first read", "second read, after all tiles were written"):
        for i, (x, y) in enumerate(ctx.tiles):
            w0 = 0xA5000000 | (y << 8) | x
            for addr, want in ((0x0, w0), (0x1001, w0 ^ 0xFFFF)):
                got = dev.noc_read32(x, y, addr)
                if got != want:
                    bad.append(f"({x},{y}) @{addr:#x}: {describe(got, want)}")
            for addr, want in ((0x20000, tile_pattern(i, block, 1)),
                               (L1_SIZE - 4096, tile_pattern(i, 4096, 2))):
                got = dev.noc_read(x, y, addr, len(want))
                if got != want:
                    bad.append(f"({x},{y}) @{addr:#x}: {describe(got, want)}")
        check(f"L1 of {len(ctx.tiles)} tiles: 32-bit (aligned, unaligned), 64 KiB, last 4 KiB ({rnd})",
              not bad, "; ".join(bad[:4]))
        bad = []


def dram_translated(c, p):
    """Translated coordinates of channel c's port p (docs/blackhole-facts.md §4; tt-umd fills bank by bank)."""
    return (17 + c // 4, 12 + 3 * (c % 4) + p)


@step("DRAM round trips on every channel")
def dram_round_trips(ctx):
    dev = ctx.dev
    ok_ports, ok_cross, ok_big, ok_top, ok_sep = [], [], [], [], []
    big = bytes(tile_pattern(9, 3 << 20, 3))
    for c, ports in enumerate(ctx.dram):
        (x0, y0) = ports[0]
        data = tile_pattern(c, 4096, 4)
        dev.noc_write(x0, y0, 0x1000, data)
        readers = ports[1:] + [dram_translated(c, p) for p in range(3)]
        for (x, y) in readers:
            got = dev.noc_read(x, y, 0x1000, len(data))
            if got != data:
                ok_ports.append(f"ch{c} ({x},{y}): {describe(got, data)}")
        # 512 B across the 2 MiB window end at 0x200000: two chunks, TLB 0 reprogrammed (§3.4).
        cross = tile_pattern(c, 512, 5)
        tx, ty = dram_translated(c, 1)
        dev.noc_write(tx, ty, WINDOW - 256, cross)
        got = dev.noc_read(*ports[2], WINDOW - 256, 512)
        if got != cross:
            ok_cross.append(f"ch{c}: {describe(got, cross)}")
        # 3 MiB: chunks of 2 MiB - 16 and 1 MiB + 16.
        dev.noc_write(x0, y0, 0x400010, big)
        got = dev.noc_read(*dram_translated(c, 2), 0x400010, len(big))
        if got != big:
            ok_big.append(f"ch{c}: {describe(got, big)}")
        top = tile_pattern(c, 4096, 6)
        dev.noc_write(x0, y0, DRAM_BANK_SIZE - 4096, top)
        got = dev.noc_read(x0, y0, DRAM_BANK_SIZE - 4096, 4096)
        if got != top:
            ok_top.append(f"ch{c}: {describe(got, top)}")
    for c, ports in enumerate(ctx.dram):  # each channel kept its own data
        got = dev.noc_read(*ports[0], 0x1000, 4096)
        if got != tile_pattern(c, 4096, 4):
            ok_sep.append(f"ch{c}")
    check("8 channels: write via port 0, read via ports 1-2 and translated x 17-18, y 12-23",
          not ok_ports, "; ".join(ok_ports[:4]))
    check("512 B crossing a 2 MiB TLB window end (0x1FFF00)", not ok_cross, "; ".join(ok_cross[:4]))
    check("3 MiB transfer (two TLB chunks)", not ok_big, "; ".join(ok_big[:4]))
    check("4 KiB ending at dram_bank_size (0xFF000000)", not ok_top, "; ".join(ok_top[:4]))
    check("channels are separate memories", not ok_sep, ", ".join(ok_sep))


@step("RISC soft resets")
def risc_resets(ctx):
    dev = ctx.dev
    bad = []
    # BRISC starts at L1 0 when released: park it on `jal x0, 0` (a one-instruction loop) so
    # the reads below, which clock the chip (§6), run something harmless.
    for (x, y) in ctx.tiles:
        dev.noc_write32(x, y, 0x0, jal_x0(0))
    power_on = [dev.get_risc_reset_state(x, y) for (x, y) in ctx.tiles[:1]]
    for (x, y) in ctx.tiles:
        dev.set_risc_reset_state(x, y, RESET_ALL)
        v1 = dev.get_risc_reset_state(x, y)
        core = CoreCoord(x, y, CoreType.TENSIX, CoordSystem.TRANSLATED)
        dev.deassert_risc_reset(core, RiscType.BRISC)
        v2 = dev.get_risc_reset_state(x, y)
        dev.assert_risc_reset(core, RiscType.ALL)
        v3 = dev.get_risc_reset_state(x, y)
        if (v1, v2, v3) != (RESET_ALL, RESET_BRISC_RUN, RESET_ALL):
            bad.append(f"({x},{y}): {v1:#x} {v2:#x} {v3:#x}")
    check("power-on soft reset reads 0x47800 (all held)", power_on == [RESET_ALL],
          ", ".join(hex(v) for v in power_on))
    check(f"{len(ctx.tiles)} tiles: set 0x47800, deassert BRISC -> 0x47000, assert ALL -> 0x47800",
          not bad, "; ".join(bad[:4]))
    # LOGICAL (0,0) is NOC0 (1,2); NOC0 CoreCoords; staggered start is ignored by TTSim (§5).
    dev.deassert_risc_reset(CoreCoord(0, 0, CoreType.TENSIX, CoordSystem.LOGICAL), RiscType.BRISC)
    v = dev.get_risc_reset_state(1, 2)
    check("LOGICAL (0,0) deassert BRISC reaches NOC0 (1,2)", v == RESET_BRISC_RUN, describe(v, RESET_BRISC_RUN))
    dev.assert_risc_reset(CoreCoord(0, 0, CoreType.TENSIX, CoordSystem.LOGICAL), RiscType.ALL)
    dev.deassert_risc_reset(CoreCoord(16, 11, CoreType.TENSIX, CoordSystem.NOC0), RiscType.BRISC,
                            staggered_start=True)
    v = dev.get_risc_reset_state(16, 11)
    check("NOC0 (16,11) deassert BRISC with staggered_start: no bit 31", v == RESET_BRISC_RUN,
          describe(v, RESET_BRISC_RUN))
    dev.assert_risc_reset(CoreCoord(16, 11, CoreType.TENSIX, CoordSystem.NOC0), RiscType.ALL)
    held = [(x, y) for (x, y) in ctx.tiles if dev.get_risc_reset_state(x, y) != RESET_ALL]
    check("all tiles end held (0x47800)", not held, str(held[:4]))


def wait_done(dev, tiles, what, need_sync, min_reads=0):
    """Poll every unfinished tile per round, one read of 0x68..0x4F3 each (one clock each, §6),
    until the go signal reads DONE (and the sync word 0). Returns (reads, seconds, unfinished).
    With `min_reads`, rounds over every tile go on until that many reads were made (the cost of
    this polling on a chip that is already done)."""
    left = list(tiles)
    reads = 0
    t0 = time.perf_counter()
    last = {}
    while (left or reads < min_reads) and reads < READ_BUDGET and time.perf_counter() - t0 < WALL_BUDGET:
        still = []
        for (x, y) in left or tiles:
            b = dev.noc_read(x, y, POLL_LO, POLL_HI - POLL_LO)
            reads += 1
            go = b[GO_MSG + 3 - POLL_LO]
            sync = u32(b, 0)
            last[(x, y)] = (go, sync)
            if not (go == RUN_MSG_DONE and (sync == 0 or not need_sync)):
                still.append((x, y))
        left = still
    dt = time.perf_counter() - t0
    return reads, dt, [(xy, last.get(xy)) for xy in left]


@step("boot the firmware on all 140 tiles")
def boot(ctx, fw_dir, check_reset_pcs=True):
    dev = ctx.dev
    cores = firmware_writes(fw_dir)
    brisc_text = cores[0][0]
    check("firmware ELFs parsed (5 cores, text at the 0.81.1 link addresses)", len(cores) == 5,
          ", ".join(f"{t:#x}" for t, _ in cores))
    check("jal x0, 0x3AE0 encodes as 0x2E10306F", jal_x0(0x3AE0) == 0x2E10306F)
    launch_ring = bytearray(LAUNCH_SIZE * LAUNCH_ENTRIES)
    for i in range(LAUNCH_ENTRIES):
        launch_ring[i * LAUNCH_SIZE + 48] = 1  # mode = host dispatch
    t_load = time.perf_counter()
    for (x, y) in ctx.tiles:
        dev.set_risc_reset_state(x, y, RESET_ALL)  # 1. hold all five cores
        for _text, writes in cores:  # 2. text at its link address, local RAM at its staging
            for addr, data in writes:
                dev.noc_write(x, y, addr, data)
        dev.noc_write32(x, y, GO_MSG, RUN_MSG_INIT << 24)  # 3. go message, launch ring
        dev.noc_write32(x, y, LAUNCH_RD_PTR, 0)
        dev.noc_write32(x, y, GO_INDEX, 0)
        dev.noc_write(x, y, LAUNCH_BASE, bytes(launch_ring))
        dev.noc_write32(x, y, 0x0, jal_x0(brisc_text))  # 4. BRISC's reset pc is 0
    # Spot-check the load on one tile before releasing anything.
    x, y = ctx.tiles[0]
    ok = all(dev.noc_read(x, y, a, len(d)) == d for _t, w in cores for a, d in w)
    check("firmware segments read back (tile (1,2))", ok)
    for (x, y) in ctx.tiles:
        dev.set_risc_reset_state(x, y, RESET_BRISC_RUN)  # 5. release BRISC
    t_load = time.perf_counter() - t_load
    reads, dt, left = wait_done(dev, ctx.tiles, "boot", need_sync=True)
    ctx.boot_wall = dt
    ctx.boot_reads = reads
    print(f"boot: load+release {t_load:.3f} s; poll {reads} reads (= clocks) in {dt:.3f} s "
          f"({dt / max(reads, 1) * 1e6:.1f} us/read)", flush=True)
    check("all 140 tiles reach DONE with sync word 0", not left,
          f"{reads} reads, {dt:.2f} s" if not left else
          f"{len(left)} unfinished after {reads} reads, e.g. " +
          ", ".join(f"({x},{y}) go {v[0]:#x} sync {v[1]:#x}" for (x, y), v in left[:4] if v))
    # BRISC's firmware released the others and programmed their reset PCs (docs/blackhole-facts.md §9).
    states = {dev.get_risc_reset_state(x, y) for (x, y) in ctx.tiles}
    check("soft reset cleared by the firmware on every tile", all(s & RESET_ALL == 0 for s in states),
          ", ".join(hex(s) for s in sorted(states)))
    # TRISC0-2 reset PCs at 0xFFB12228/22C/230, NCRISC's at 0xFFB12238 (4-byte registers).
    # (The reference simulator refuses a read of NCRISC's: benchmarks that run on it skip this.)
    if not check_reset_pcs:
        return not left
    x, y = ctx.tiles[-1]
    pcs = tuple(dev.noc_read32(x, y, a) for a in (0xFFB12228, 0xFFB1222C, 0xFFB12230, 0xFFB12238))
    check("BRISC firmware programmed TRISC0-2 / NCRISC reset PCs",
          pcs == (0x66E0, 0x70E0, 0x7AE0, 0x5CE0), " ".join(hex(v) for v in pcs))
    return not left


def kernel_image(path):
    entry, segs = elf32_segments(path)
    lo = min(s[0] for s in segs)
    hi = max(s[0] + s[2] for s in segs)
    if lo < KERNEL_BASE or hi > KERNEL_BASE + KERNEL_MAX or not lo <= entry < hi:
        raise ValueError(f"{path}: kernel at {lo:#x}..{hi:#x} entry {entry:#x}; "
                         f"slow dispatch needs it in {KERNEL_BASE:#x}..{KERNEL_BASE + KERNEL_MAX:#x}")
    img = bytearray(hi - KERNEL_BASE)
    for vaddr, data, _memsz, _f in segs:
        img[vaddr - KERNEL_BASE:vaddr - KERNEL_BASE + len(data)] = data
    return bytes(img), entry - KERNEL_BASE


def launch_message(size, text_offset, host_id):
    """launch_msg_t for host dispatch, BRISC only (docs/blackhole-facts.md §9 "Slow-dispatch")."""
    m = bytearray(LAUNCH_SIZE)
    struct.pack_into("<I", m, 0, KERNEL_BASE)  # kernel_config_base[TENSIX]
    m[48] = 1  # mode: host dispatch
    struct.pack_into("<H", m, 50, 0xFF)  # cross_node_dfb_offset: none
    struct.pack_into("<I", m, 52, text_offset)  # kernel_text_offset[BRISC]
    struct.pack_into("<I", m, 72, size)  # kernel_text_size
    m[104] = 0  # brisc_noc_id
    m[105] = 0  # brisc_noc_mode: dedicated
    m[106] = 64  # first remote CB index: none
    struct.pack_into("<I", m, 108, host_id)
    struct.pack_into("<I", m, 112, 1)  # enables: BRISC
    return bytes(m)


def stamp(x, y, host_id):
    """What examples/kernels/noc_stamp.c writes for tile (x, y), launch host_id."""
    v = 0xB0000000 | ((host_id & 0xFF) << 16) | (y << 8) | x
    return struct.pack("<IIII", v, ~v & 0xFFFFFFFF, x, y)


@step("slow-dispatch the BRISC kernel three times")
def launches(ctx, kernel):
    dev = ctx.dev
    img, text_off = kernel_image(kernel)
    check("kernel ELF parsed", True, f"{len(img)} bytes at {KERNEL_BASE:#x}, entry +{text_off:#x}")
    for host_id in (1, 2, 3):
        msg = launch_message(len(img), text_off, host_id)
        busy = []
        for (x, y) in ctx.tiles:
            go = dev.noc_read32(x, y, GO_MSG) >> 24
            if go != RUN_MSG_DONE:
                busy.append((x, y, go))
            dev.noc_write(x, y, KERNEL_BASE, img)
            dev.noc_write(x, y, LAUNCH_BASE, msg)
        check(f"launch {host_id}: every tile idle (DONE) before", not busy, str(busy[:4]))
        for (x, y) in ctx.tiles:
            dev.noc_write32(x, y, GO_MSG, RUN_MSG_GO << 24)
        reads, dt, left = wait_done(dev, ctx.tiles, "launch", need_sync=False)
        check(f"launch {host_id}: 140 tiles back to DONE", not left,
              f"{reads} reads, {dt:.3f} s" if not left else f"{len(left)} unfinished: {left[:4]}")
        bad = []
        for (x, y) in ctx.tiles:
            want = stamp(x, y, host_id)
            out = dev.noc_read(x, y, 0x30000, 36)
            idx = y * 17 + x
            bank = idx % 8
            dram = dev.noc_read(*ctx.dram[bank][0], 0x100000 + idx * 64, 16)
            if out[0:16] != want:
                bad.append(f"({x},{y}) L1 stamp {out[0:16].hex()}")
            elif out[16:32] != want:
                bad.append(f"({x},{y}) DRAM read-back {out[16:32].hex()}")
            elif u32(out, 32) != 0x600DF00D ^ host_id:
                bad.append(f"({x},{y}) finished word {u32(out, 32):#x}")
            elif dram != want:
                bad.append(f"({x},{y}) DRAM bank {bank} {dram.hex()}")
        check(f"launch {host_id}: kernel results in L1 and DRAM on 140 tiles", not bad, "; ".join(bad[:4]))


@step("close")
def close(ctx):
    ctx.sd = None  # the descriptor holds a reference to the device (§1.5)
    ctx.dev = None
    gc.collect()
    check("device closed, process alive", True)
    trace = os.environ.get("BHEMU_TRACE_FILE")
    if trace:
        lines = open(trace, errors="replace").read().splitlines() if os.path.exists(trace) else []
        check("BHEMU_TRACE_FILE shows libttsim_exit", any(" exit" in l for l in lines[-20:]),
              f"{len(lines)} lines in {trace}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("so", help="path to libttsim.so (soc_descriptor.yaml beside it)")
    ap.add_argument("firmware", help="directory with the five ttnn 0.81.1 Blackhole firmware ELFs")
    ap.add_argument("--kernel", help="noc_stamp.elf from scripts/build-kernels.sh")
    a = ap.parse_args()
    t_all = time.perf_counter()
    ctx = Ctx()
    ctx.boot_wall = None
    open_device(ctx, a.so)
    if ctx.dev is not None:
        soc_descriptor(ctx)
        l1_round_trips(ctx)
        dram_round_trips(ctx)
        risc_resets(ctx)
        booted = boot(ctx, a.firmware)
        if not a.kernel:
            check("kernel given (--kernel)", False, "run scripts/build-kernels.sh")
        elif booted:
            launches(ctx, a.kernel)
        else:
            check("slow dispatch (needs a booted chip)", False, "skipped: boot failed")
        close(ctx)
    if ctx.boot_wall is not None:
        print(f"140-tile boot through tt-umd: {ctx.boot_wall:.3f} s wall, {ctx.boot_reads} reads (= clocks)")
    print(f"total wall time {time.perf_counter() - t_all:.1f} s")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
