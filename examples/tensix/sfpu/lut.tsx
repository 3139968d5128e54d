# Vector Unit: a piecewise-linear function by SFPLUT. LReg0/1/2 hold the (slope, offset)
# pairs, two Lut8 bytes each, for |x| < 1, < 2 and the rest; the sign of x is kept.
dst 0 = fp32 ramp -4 0.125 64

[t1]
ttsfploadi 0, 2, 0x1020       # |x| < 1: slope Lut8 0x10 (0.5), offset 0x20 (0.25)
ttsfploadi 1, 2, 0x2131       # |x| < 2: 0x21 (0.265625), 0x31 (0.1328125)
ttsfploadi 2, 2, 0x3342       # else:    0x33 (0.1484375), 0x42 (0.0703125)
ttsfpload 3, 3, 0, 0
ttsfplut 4, 4, 0              # LReg4 = copysign(a * |LReg3| + c, LReg3)
ttsfpstore 4, 3, 0, 0
ttsfpload 3, 3, 0, 2
ttsfplut 4, 4, 0
ttsfpstore 4, 3, 0, 2

dump dst 0..3 fp32
