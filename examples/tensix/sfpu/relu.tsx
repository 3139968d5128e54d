# Vector Unit: ReLU by lane predication. SFPSETCC keeps only the lanes holding a negative
# value enabled, SFPLOADI writes 0.0 there, SFPENCC enables every lane again.
dst 0 = fp32 ramp -8 0.25 64

[t1]
ttsfpload 0, 3, 0, 0
ttsfpencc 1, 0, 0, 2          # UseLaneFlagsForLaneEnable = 1, LaneFlags = 1
ttsfpsetcc 0, 0, 0, 0         # LaneFlags = LReg0 < 0
ttsfploadi 0, 0, 0            # LReg0 = 0.0 in the enabled (negative) lanes
ttsfpencc 0, 0, 0, 2          # UseLaneFlagsForLaneEnable = 0: all lanes
ttsfpstore 0, 3, 0, 0
ttsfpload 0, 3, 0, 2
ttsfpencc 1, 0, 0, 2
ttsfpsetcc 0, 0, 0, 0
ttsfploadi 0, 0, 0
ttsfpencc 0, 0, 0, 2
ttsfpstore 0, 3, 0, 2

dump dst 0..3 fp32
