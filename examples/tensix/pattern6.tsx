# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 6: wait for FPU and SFPU to drain before flipping Dst (SETC16).
#   ttstallwait 128, 0x810 = STALL_CFG, MATH(C4)|SFPU1(C11)
[t1]
ttmovd2a 0, 0, 0, 0, 0          # Matrix Unit, 2 cycles, no bank wait
ttsfpmad 0, 0, 0, 0, 0          # Vector Unit, 2 cycles
ttstallwait 128, 2064
ttsetc16 0, 0                   # must wait for both
