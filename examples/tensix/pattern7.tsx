# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 7: block the unpacker until RISC-V config writes are visible (C10).
#   ttstallwait 8, 1024 = STALL_UNPACK, TRISC_CFG
# On the coprocessor alone no RISC-V core writes config, so C10 is clear and the UNPACR only
# pays the one-cycle lag; tests drive C10 through `set_trisc_cfg_pending`.
[t0]
ttstallwait 8, 1024
ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 32, 6               # STALL_THCON until both unpackers drain (C1|C2)
ttsetdmareg 0, 0, 0, 4
