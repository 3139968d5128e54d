# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# A deadlock: each thread waits for a semaphore only the other would post, after its wait.
sem 3 init 0 max 1
sem 4 init 0 max 1
[t0]
ttsemwait 2, 8, 1               # STALL_SYNC until sem 3 > 0
ttsempost 16                    # would post sem 4
[t2]
ttsemwait 2, 16, 1              # STALL_SYNC until sem 4 > 0
ttsempost 8                     # would post sem 3
