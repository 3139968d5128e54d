# Vector Unit: int32 shift and add, ((x << 3) - 100) >> 1 (arithmetic shift).
dst 0 = u32 ramp 0 1 64

[t1]
ttsfpload 0, 4, 0, 0          # MOD0_FMT_INT32
ttsfpshft 3, 0, 0, 1          # LReg0 <<= 3 (Imm12)
ttsfpiadd 0xf9c, 0, 0, 5      # LReg0 += -100 (Imm12), lane flags untouched
ttsfpshft 0xfff, 0, 0, 3      # LReg0 >>= 1, arithmetic
ttsfpstore 0, 4, 0, 0
ttsfpload 0, 4, 0, 2
ttsfpshft 3, 0, 0, 1
ttsfpiadd 0xf9c, 0, 0, 5
ttsfpshft 0xfff, 0, 0, 3
ttsfpstore 0, 4, 0, 2

dump dst 0..3 u32
