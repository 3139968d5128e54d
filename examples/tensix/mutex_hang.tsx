# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# ATGETM with an invalid mutex index: Blackhole has mutexes 0, 2, 3, 4 only; index 1 makes
# the thread wait forever (docs/mutexes.md). bhemu reports it as a `hang`.
[t1]
ttatgetm 0
ttatgetm 1
ttnop
