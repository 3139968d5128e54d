# LLK idiom "block untilize" (tt-llk llk_pack_untilize.h, block_ct_dim = 2): the two bf16 tiles
# of copy_bf16.tsx, unpacked and moved to Dst rows 0..63 (tile A) and 64..127 (tile B) the same
# way, are packed to L1 as one row-major 32x64 matrix (rows of 128 bytes): row r is row r of
# tile A then row r of tile B. tt-llk's MOP (template 1) walks the 16 rows of a face pair in
# its outer loop and the tiles in its inner loop: the start op ADDRCRZW sets W back to W_Cr,
# each tile is INCADCZW (W += 1: the next tile, W stride 64 rows) then a strided PACR of
# interfaces 0 and 1 (32 datums of one tile row); the row's last PACR has Last and Y += 1
# (ADDR_MOD_PACK 1); the end op replays CFGSHIFTMASK, which adds SCRATCH_SEC2 to
# THCON_SEC0_REG1_L1_Dest_addr: the next row's L1 address. The MOP runs once for the top face
# pair and once, after Z += 1 and Y = 0, for the bottom one. W starts at 15 (tt-llk: W_Cr =
# (15 + tile offset) & 0xF); 15 + 1 tiles of 64 rows wrap the 1024-row Dst address to row 0.
#
# L1: tile A at 0x10000, tile B at 0x10800, output at 0x20000.
sem 1 init 0 max 1
l1 0x10000 = bf16 ramp 0 1 256
l1 0x10200 = bf16 ramp -1 -1 256
l1 0x10400 = bf16 ramp 0.5 0.5 256
l1 0x10600 = bf16 ramp -0.5 -0.5 256
l1 0x10800 = bf16 ramp 1000 -8 256
l1 0x10a00 = bf16 ramp 0.0078125 0.0078125 256
l1 0x10c00 = bf16 ramp -256 2 256
l1 0x10e00 = bf16 ramp 0.125 0.125 256

# Unpacker 0: TileDescriptor word 0 = BF16 (5) | IsUncompressed | XDim 1024 << 16; YDim 1.
cfg 64 = 0x04000015
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 5
cfg THCON_SEC0_REG3_Base_address = 0xfff           # (0x10000 >> 4) - 1: a 16-byte header
cfg UNP0_ADDR_BASE_REG_1_Base = 128                # SrcA row 0 is output row 4 (BF16: 2 B)
# Unpacker 1: same shape, tile B.
cfg 112 = 0x04000015
cfg 113 = 1
cfg THCON_SEC1_REG2_Out_data_format = 5
cfg THCON_SEC1_REG3_Base_address = 0x107f
# Matrix Unit: SrcA holds BF16; packer: BF16 in, BF16 out, identity early conversion.
cfg ALU_FORMAT_SPEC_REG0_SrcA = 5
cfg ALU_FORMAT_SPEC_REG2_Dstacc = 5
cfg PCK_DEST_RD_CTRL_Read_int8 = 1
cfg THCON_SEC0_REG1_In_data_format = 5
cfg THCON_SEC0_REG1_Out_data_format = 5
cfg THCON_SEC0_REG1_Disable_zero_compress = 1
cfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff
cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff          # (0x20000 >> 4) - 1
# Packer input strides (tt-llk's untilize configuration): Y = one Dst row of 16 BF16 datums
# (32 bytes), Z = two faces (32 rows), W = one tile (64 rows).
cfg PCK0_ADDR_CTRL_XY_REG_0_Ystride = 32
cfg PCK0_ADDR_CTRL_ZW_REG_0_Zstride = 1024
cfg PCK0_ADDR_CTRL_ZW_REG_0_Wstride = 2048
# tt-llk _llk_pack_untilize_init_ keeps the L1 distance between two output rows, in 16-byte
# units, in SCRATCH_SEC2 (the pack thread's): 2 tiles x 32 BF16 datums = 128 bytes.
cfg SCRATCH_SEC2_val = 8

[t0]                                               # unpack
cfg SRCA_SET_SetOvrdWithAddr = 1                   # SrcA rows 0..63 addressed directly
ttsetadcxx 3, 1023, 0                              # both unpackers: X 0..1023
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # unpacker 0, FlipSrc
ttunpacr 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # unpacker 1, FlipSrc

[t1]                                               # math
cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8                  # ADDR_MOD 0: SrcA += 8, Dst += 8
cfg ADDR_MOD_DST_SEC0_DestIncr = 8
cfg ADDR_MOD_AB_SEC1_SrcBIncr = 4                  # ADDR_MOD 1: SrcB += 4, Dst += 4
cfg ADDR_MOD_DST_SEC1_DestIncr = 4
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttmovb2d 0, 0, 1, 4, 0
ttsetrwc 3, 0, 0, 0, 0, 15                         # both banks back to the unpackers
ttstallwait 2, 2064                                # wait for the Matrix Unit, then
ttsempost 2                                        # post semaphore 1: Dst is full

[t2]                                               # pack
cfg ADDR_MOD_PACK_SEC1_YsrcIncr = 1                # ADDR_MOD_PACK 1: next row (0: stay)
# MOP template 1: MopCfg[0] outer count, [1] inner count, [2] start op, [3]/[4] end ops,
# [5]/[6] loop ops (a non-NOP [6] alternates with [5]), [7]/[8] the last inner op of the last
# / of the other outer iterations.
mopcfg 0 = 16                                      # rows of a face
mopcfg 1 = 2                                       # tiles in the block
mopcfg 2 = 0x56800002                              # ADDRCRZW PAC, CH0_W: W = W_Cr
mopcfg 3 = 0x04040020                              # REPLAY 16, 2: the CFGSHIFTMASK below
mopcfg 4 = 0x02000000
mopcfg 5 = 0x55800200                              # INCADCZW PAC, Ch0 W += 1
mopcfg 6 = 0x41020300                              # PACR strided, ADDR_MOD 0, interfaces 0|1
mopcfg 7 = 0x41028301                              # PACR strided, ADDR_MOD 1, 0|1, Last
mopcfg 8 = 0x41028301
ttreplay 16, 2, 0, 1                               # record the next two instructions
ttcfgshiftmask 1, 3, 31, 0, 3, 69                  # L1_Dest_addr (word 69) += SCRATCH_SEC2
ttnop
ttsemwait 5, 2, 1                                  # TDMA|PACK wait while semaphore 1 is zero
ttsetadcxx 4, 15, 0                                # packers: X 0..15 (a face row)
ttsetadczw 4, 0, 0, 0, 0, 1                        # Z = 0
ttsetadc 4, 0, 3, 15                               # W = W_Cr = 15
ttsetadcxy 4, 0, 0, 0, 0, 3                        # X = Y = 0
ttmop 1, 0, 0                                      # top face pair
ttincadczw 4, 0, 0, 0, 1                           # Z += 1: the bottom face pair
ttsetadcxy 4, 0, 0, 0, 0, 2                        # Y = 0
ttmop 1, 0, 0
ttsemget 2

dump l1 0x20000 bf16 2048
