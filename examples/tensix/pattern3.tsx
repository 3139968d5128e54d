# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 3: UNPACK_TO_DEST (semaphore 2), unpack -> math handshake.
sem 2 init 0 max 1
[t0]
ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1     # unpack (to Dst)
ttstallwait 2, 2                # t6_semaphore_post<UNPACK0>: STALL_SYNC until Unpacker 0 idle
ttsempost 4                     # post semaphore 2

[t1]
ttsemwait 2, 4, 1               # STALL_SYNC, sem 2, STALL_ON_ZERO
ttstallwait 2, 2064             # t6_semaphore_get<MATH|WAIT_SFPU>
ttsemget 4                      # consume semaphore 2
