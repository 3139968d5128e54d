# LLK idiom "untilize" (tt-llk llk_pack.h, PackMode::Untilize): one bf16 tile of four 16x16
# faces (top-left, top-right, bottom-left, bottom-right) is unpacked to SrcA and moved to Dst
# rows 0..63 as in copy_bf16.tsx; the packer then writes it to L1 as a row-major 32x32
# matrix (rows of 64 bytes). Each PACR is in strided mode (DstAccessMode 1: read interface k
# starts 16 rows after interface k-1) with interfaces 0 and 1, so it packs row y of the left
# face and row y of the right face: one 32-datum row of the matrix. A MOP runs the 32 PACRs:
# 2 face pairs (outer loop) x 16 rows (inner loop), Y += 1 per row, Z += 1 (32 Dst rows) and Y
# cleared after the top pair, Last on the final row.
#
# L1: the tile at 0x10000, output at 0x20000.
sem 1 init 0 max 1
l1 0x10000 = bf16 ramp 0 1 256
l1 0x10200 = bf16 ramp -1 -1 256
l1 0x10400 = bf16 ramp 0.5 0.5 256
l1 0x10600 = bf16 ramp -0.5 -0.5 256

# Unpacker 0: TileDescriptor word 0 = BF16 (5) | IsUncompressed | XDim 1024 << 16; YDim 1.
cfg 64 = 0x04000015
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 5
cfg THCON_SEC0_REG3_Base_address = 0xfff           # (0x10000 >> 4) - 1: a 16-byte header
cfg UNP0_ADDR_BASE_REG_1_Base = 128                # SrcA row 0 is output row 4 (BF16: 2 B)
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
# (32 bytes), Z = two faces (32 rows, 1024 bytes).
cfg PCK0_ADDR_CTRL_XY_REG_0_Ystride = 32
cfg PCK0_ADDR_CTRL_ZW_REG_0_Zstride = 1024

[t0]                                               # unpack
cfg SRCA_SET_SetOvrdWithAddr = 1                   # SrcA rows 0..63 addressed directly
ttsetadcxx 1, 1023, 0                              # unpacker 0: X 0..1023
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # FlipSrc

[t1]                                               # math
cfg ADDR_MOD_AB_SEC0_SrcAIncr = 8                  # ADDR_MOD 0: SrcA += 8, Dst += 8
cfg ADDR_MOD_DST_SEC0_DestIncr = 8
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttmova2d 0, 0, 0, 2, 0
ttsetrwc 1, 0, 0, 0, 0, 15                         # SrcA back to the unpackers
ttstallwait 2, 2064                                # wait for the Matrix Unit, then
ttsempost 2                                        # post semaphore 1: Dst is full

[t2]                                               # pack
cfg ADDR_MOD_PACK_SEC0_YsrcIncr = 1                # ADDR_MOD_PACK 0: next row
cfg ADDR_MOD_PACK_SEC1_YsrcClear = 1               # ADDR_MOD_PACK 1: row 0 of the next
cfg ADDR_MOD_PACK_SEC1_ZsrcIncr = 1                #   face pair
cfg ADDR_MOD_PACK_SEC2_YsrcClear = 1               # ADDR_MOD_PACK 2: back to the start
cfg ADDR_MOD_PACK_SEC2_ZsrcClear = 1
# MOP template 1 (tt-llk ckernel_template): MopCfg[0] outer count, [1] inner count, [2] start
# op, [3]/[4] end ops, [5]/[6] loop ops, [7] the last inner op of the last outer iteration,
# [8] the last inner op of the other outer iterations. NOP = 0x02000000.
# PACR words (opcode 0x41): DstAccessMode << 17 | AddrMode << 15 | ReadIntfSel << 8 |
# Concat << 4 | Last.
mopcfg 0 = 2                                       # face pairs: top, bottom
mopcfg 1 = 16                                      # rows of a face
mopcfg 2 = 0x02000000
mopcfg 3 = 0x02000000
mopcfg 4 = 0x02000000
mopcfg 5 = 0x41020310                              # strided, ADDR_MOD 0, interfaces 0|1
mopcfg 6 = 0x02000000
mopcfg 7 = 0x41030301                              # strided, ADDR_MOD 2, interfaces 0|1, Last
mopcfg 8 = 0x41028310                              # strided, ADDR_MOD 1, interfaces 0|1
ttsemwait 5, 2, 1                                  # TDMA|PACK wait while semaphore 1 is zero
ttsetadcxx 4, 15, 0                                # packers: X 0..15 (a face row)
ttmop 1, 0, 0
ttsemget 2

dump l1 0x20000 bf16 1024
dump dst 0..63 bf16
