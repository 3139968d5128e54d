# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 1: before WRCFG, wait for ThCon (a GPR written by SETDMAREG/ADDDMAREG must
# be visible before WRCFG commits it to configuration).
#   TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::THCON)  = ttstallwait 128, 1
# ADDDMAREG keeps ThCon busy 3 cycles (ScalarUnit.md); the WRCFG (blocked by B7) may leave
# the Wait Gate only once C0 has cleared, one cycle after (the release lag).
[t0]
ttsetdmareg 0, 0, 0, 4          # GPR 4 (low half) = 0, ThCon 1 cycle
ttadddmareg 0, 4, 4, 4          # GPR4 += GPR4, ThCon 3 cycles
ttstallwait 128, 1              # block CFG (B7) while ThCon busy (C0)
ttwrcfg 4, 0, 124               # Configuration Unit: must wait
ttnop                           # not CFG, but behind the blocked WRCFG: waits too

[t2]
# The packer variant: ttstallwait 128, 9 = STALL_CFG, THCON|PACK0.
ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 128, 9
ttwrcfg 28, 0, 12
