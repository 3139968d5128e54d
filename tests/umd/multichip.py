#!/usr/bin/env python3
"""Multi-chip systems of bhemu's libttsim.so through tt-umd 0.9.14's own topology discovery
(docs/multi-chip.md; each check names the rule it exercises).

Usage:
    multichip.py LIBTTSIM_SO SOC_DESCRIPTOR [--system p300|galaxy]

The system is chosen with BHEMU_SYSTEM, set here before the library is loaded. On a p300:
2 chips of board type P300, both MMIO-capable, with the links {0: {2: (1, 9), 3: (1, 8)}};
4 KiB L1 and DRAM round trips on each chip with chip-distinct data; 64 bytes sent from
chip 0 channel 2 by the host through the TX queue (command 2) arrive in chip 1 channel 9's L1;
64 bytes sent from chip 0 channel 3 by a kernel on that tile's second Ethernet core (ERISC1,
released from soft reset at its reset PC) arrive in chip 1 channel 8's L1.
On a galaxy: 32 chips and every link of the 8 x 4 mesh, two channels per neighbour.

Prints one ``ok``/``FAIL`` line per check and ends with ``N passed, M failed``; exit status 0
only when nothing failed.
"""
import argparse
import os
import sys
import time

from checks import check


# docs/multi-chip.md MC-4: the p300's two links, both directions.
P300_LINKS = {0: {2: (1, 9), 3: (1, 8)}, 1: {9: (0, 2), 8: (0, 3)}}

# Ethernet TX queue 0 of a tile (tt-metal tt_eth_ss_regs.h), and where the data goes.
TXQ = 0xFFB90000
TXQ_CMD, TXQ_START, TXQ_SIZE, TXQ_DEST = 0x4, 0x14, 0x18, 0x1C
SRC, DST = 0x40000, 0x50000
L1_ADDR = 0x30000
DRAM_ADDR = 0x100000


# docs/multi-chip.md MC-13: the Ethernet cores' soft reset and ERISC1's reset PC.
SOFT_RESET, ERISC1_RESET_PC = 0xFFB121B0, 0xFFB14008
KERNEL = 0x20000


def rv(*words):
    return b"".join(w.to_bytes(4, "little") for w in words)


def li(rd, v):
    """lui rd, hi; addi rd, rd, lo (RV32I encodings)."""
    lo = v & 0xFFF
    lo = lo - 0x1000 if lo & 0x800 else lo
    hi = (v - lo) & 0xFFFFF000
    return [hi | rd << 7 | 0x37, (lo & 0xFFF) << 20 | rd << 15 | rd << 7 | 0x13]


def sw(rs2, rs1):
    """sw rs2, 0(rs1)"""
    return rs2 << 20 | rs1 << 15 | 2 << 12 | 0x23


def txq_kernel(src, size, dest):
    """Programs TX queue 0 to send size bytes from src to dest of the peer, then spins."""
    words = []
    for reg, v in ((TXQ_START, src), (TXQ_SIZE, size), (TXQ_DEST, dest), (TXQ_CMD, 2)):
        words += li(6, v) + li(7, TXQ + reg) + [sw(6, 7)]
    return rv(*words, 0x6F)  # jal x0, 0


def eth_translated(channel):
    return (20 + channel, 25)


def galaxy_links():
    """The 8 x 4 mesh of docs/multi-chip.md MC-8, written out independently of bhemu."""
    links = {c: {} for c in range(32)}
    for r in range(8):
        for c in range(4):
            me = r * 4 + c
            for k in range(2):
                if c < 3:  # east (2, 3) to the west (4, 5) of the next column
                    links[me][2 + k] = (me + 1, 4 + k)
                    links[me + 1][4 + k] = (me, 2 + k)
                if r < 7:  # south (6, 7) to the north (0, 1) of the next row
                    links[me][6 + k] = (me + 4, k)
                    links[me + 4][k] = (me, 6 + k)
    return {c: l for c, l in links.items() if l}


def conns(cd):
    return {c: dict(m) for c, m in cd.get_ethernet_connections().items()}


def p300_checks(tt_umd, cd, devs):
    chips = cd.get_all_chips()
    check("MC-2 two chips discovered", set(chips) == {0, 1}, f"{sorted(chips)}")
    check("MC-2 both chips MMIO-capable", set(cd.get_chips_with_mmio()) == {0, 1})
    types = {c: str(cd.get_board_type(c)).lower() for c in chips}
    check("MC-3 board type P300", all("p300" in t for t in types.values()), f"{types}")
    locs = {c: cd.get_asic_location(c) for c in chips}
    check("MC-3 ASIC locations 0 and 1", locs == {0: 0, 1: 1}, f"{locs}")
    got = conns(cd)
    check("MC-4 Ethernet connections as on the P300", got == P300_LINKS, f"{got}")
    for c in (0, 1):
        dev = devs[c]
        data = bytes((i * 7 + 31 * c + 1) & 0xFF for i in range(4096))
        dev.noc_write(1, 2, L1_ADDR, data)
        dev.noc_write(17, 12, DRAM_ADDR, bytes(b ^ 0xFF for b in data))
    for c in (0, 1):
        dev = devs[c]
        want = bytes((i * 7 + 31 * c + 1) & 0xFF for i in range(4096))
        check(f"MC-2 chip {c} L1 round trip, chip-distinct", bytes(dev.noc_read(1, 2, L1_ADDR, 4096)) == want)
        got = bytes(dev.noc_read(17, 12, DRAM_ADDR, 4096))
        check(f"MC-2 chip {c} DRAM round trip, chip-distinct", got == bytes(b ^ 0xFF for b in want))
    # MC-6: host-driven TX queue transfer over the first link.
    sx, sy = eth_translated(2)
    dx, dy = eth_translated(9)
    payload = bytes((i ^ 0xA5) for i in range(64))
    d0, d1 = devs[0], devs[1]
    d0.noc_write(sx, sy, SRC, payload)
    d0.noc_write32(sx, sy, TXQ + TXQ_START, SRC)
    d0.noc_write32(sx, sy, TXQ + TXQ_SIZE, len(payload))
    d0.noc_write32(sx, sy, TXQ + TXQ_DEST, DST)
    d0.noc_write32(sx, sy, TXQ + TXQ_CMD, 2)
    got = b""
    for _ in range(5000):  # each read clocks the system (docs/tt-umd-sim-interface.md §6)
        got = bytes(d1.noc_read(dx, dy, DST, len(payload)))
        if got == payload:
            break
    check("MC-6 TX queue data from chip 0 ch 2 lands in chip 1 ch 9 L1", got == payload, got[:8].hex())
    # MC-13: a kernel on chip 0 channel 3's ERISC1 sends over the second link.
    sx, sy = eth_translated(3)
    dx, dy = eth_translated(8)
    payload = bytes((i * 3 ^ 0x3C) & 0xFF for i in range(64))
    d0.noc_write(sx, sy, SRC, payload)
    d0.noc_write(sx, sy, KERNEL, txq_kernel(SRC, len(payload), DST))
    d0.noc_write32(sx, sy, ERISC1_RESET_PC, KERNEL)
    d0.noc_write32(sx, sy, SOFT_RESET, 0)  # ERISC1 out of reset; ERISC0 stays with the base firmware
    got = b""
    for _ in range(5000):
        got = bytes(d1.noc_read(dx, dy, DST, len(payload)))
        if got == payload:
            break
    check("MC-13 a kernel on chip 0 ch 3's ERISC1 sends to chip 1 ch 8 L1", got == payload, got[:8].hex())


def galaxy_checks(cd):
    chips = cd.get_all_chips()
    check("MC-8 32 chips discovered", set(chips) == set(range(32)), f"{len(chips)} chips")
    check("MC-8 every chip MMIO-capable", set(cd.get_chips_with_mmio()) == set(range(32)))
    got = conns(cd)
    want = galaxy_links()
    n = sum(len(v) for v in got.values())
    check("MC-8 every link of the 8x4 mesh", got == want, f"{n} channel ends")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("so")
    ap.add_argument("soc")
    ap.add_argument("--system", default="p300", choices=["p300", "galaxy"])
    a = ap.parse_args()
    os.environ["BHEMU_SYSTEM"] = a.system
    try:
        import tt_umd
    except ImportError as e:
        print(f"skip: tt_umd is not importable ({e}); create the venv with scripts/setup-umd-venv.sh")
        return 0

    opts = tt_umd.TopologyDiscoveryOptions()
    sim = tt_umd.SimulationDiscoveryOptions()
    sim.simulator_path = a.so
    opts.simulation = sim
    t0 = time.perf_counter()
    cd, devs = tt_umd.TopologyDiscovery.discover(opts, tt_umd.IODeviceType.PCIe, a.soc)
    check(f"discovery on {a.system}", cd is not None, f"{time.perf_counter() - t0:.2f} s")
    if a.system == "p300":
        p300_checks(tt_umd, cd, devs)
    else:
        galaxy_checks(cd)
    del devs
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
