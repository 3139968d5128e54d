# Vector Unit: add a constant. Dst rows 0..3 (FP32) += 0.5, four rows a pass: SFPLOAD at
# Addr 0 takes the even columns of rows 0..3 into the 32 lanes, Addr 2 the odd ones.
dst 0 = fp32 ramp -8 0.25 64

[t1]
ttsfpload 0, 3, 0, 0          # LReg0 <- Dst (MOD0_FMT_FP32), even columns
ttsfpaddi 0x3f00, 0, 0        # LReg0 += 0.5 (BF16 immediate)
ttsfpstore 0, 3, 0, 0
ttsfpload 0, 3, 0, 2          # odd columns
ttsfpaddi 0x3f00, 0, 0
ttsfpstore 0, 3, 0, 2

dump dst 0..3 fp32
