# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 5: wait for the packer before reconfiguring it.
#   TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::PACK) = ttstallwait 128, 8
[t2]
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 128, 8              # block CFG until the packer has drained (C3)
ttwrcfg 28, 0, 12
ttsetdmareg 0, 0, 0, 8          # ThCon, not blocked by B7 ... but behind WRCFG in order
ttstallwait 128, 9              # PACK | THCON
ttwrcfg 28, 0, 12
