# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 8: end of compute in T1 - wait for FPU+SFPU, post MATH_PACK, then wait again
# before changing CFG (Dst flip).
sem 1 init 0 max 2
[t1]
ttmovd2a 0, 0, 0, 0, 0
ttsfpmad 0, 0, 0, 0, 0
ttstallwait 2, 2064             # STALL_SYNC, MATH|WAIT_SFPU
ttsempost 2                     # post sem 1 only once math and SFPU are done
ttsfpmad 0, 0, 0, 0, 0
ttstallwait 128, 2064           # STALL_CFG, MATH|WAIT_SFPU
ttsetc16 0, 0
