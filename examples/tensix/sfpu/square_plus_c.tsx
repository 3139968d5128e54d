# Vector Unit: x * x + c by SFPMAD, c = -1.5. The SFPSTORE right after the SFPMAD reads
# its result: the automatic stall holds it one cycle at the Wait Gate.
dst 0 = fp32 ramp -8 0.25 64

[t1]
ttsfploadi 1, 0, 0xbfc0       # LReg1 = -1.5 (BF16)
ttsfpload 0, 3, 0, 0
ttsfpmad 0, 0, 1, 2, 0        # LReg2 = LReg0 * LReg0 + LReg1
ttsfpstore 2, 3, 0, 0
ttsfpload 0, 3, 0, 2
ttsfpmad 0, 0, 1, 2, 0
ttsfpstore 2, 3, 0, 2

dump dst 0..3 fp32
