# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 4: MATH_PACK (semaphore 1), math -> pack through Dst double buffering.
# Max = 2 Dst halves: math may run at most two tiles ahead of pack.
sem 1 init 0 max 2

[t1]
# tile 0
ttsemwait 322, 2, 2             # STALL_MATH|STALL_SFPU|STALL_SYNC until sem1 < max
ttsetdvalid 3                   # (stand-in for the unpacker) SrcA/SrcB -> Matrix Unit
ttmvmul 3, 0, 0, 0              # 5 cycles; clear_dvalid gives both banks back
ttstallwait 2, 2064             # t6_semaphore_post<MATH|WAIT_SFPU>
ttsempost 2                     # post sem 1: a Dst half is full
# tile 1
ttsemwait 322, 2, 2
ttsetdvalid 3
ttmvmul 3, 0, 0, 0
ttstallwait 2, 2064
ttsempost 2
# tile 2
ttsemwait 322, 2, 2
ttsetdvalid 3
ttmvmul 3, 0, 0, 0
ttstallwait 2, 2064
ttsempost 2
# tile 3
ttsemwait 322, 2, 2
ttsetdvalid 3
ttmvmul 3, 0, 0, 0
ttstallwait 2, 2064
ttsempost 2

[t2]
# tile 0
ttsemwait 1, 2, 1               # STALL_TDMA until sem1 > 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 2, 8                # t6_semaphore_get<PACK>: STALL_SYNC until packer idle
ttsemget 2                      # free the Dst half
# tile 1
ttsemwait 1, 2, 1
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 2, 8
ttsemget 2
# tile 2
ttsemwait 1, 2, 1
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 2, 8
ttsemget 2
# tile 3
ttsemwait 1, 2, 1
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 2, 8
ttsemget 2
