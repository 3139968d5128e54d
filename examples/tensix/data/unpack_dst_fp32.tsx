# LLK idiom "unpack to Dst" of fp32: unpacker 0 with Unpack_If_Sel writes a tile of FP32
# straight into Dst32b (no SrcA, no Matrix Unit), and the packer reads Dst in 32-bit mode and
# writes FP32 to L1 unchanged (identity early and late conversions).
sem 1 init 0 max 1
l1 0x10000 = fp32 ramp 0.1 0.37 512
l1 0x10800 = fp32 ramp -3.3 -1.77 512

cfg 64 = 0x04000010                                # FP32, uncompressed, XDim 1024
cfg 65 = 1
cfg THCON_SEC0_REG2_Out_data_format = 0            # FP32
cfg THCON_SEC0_REG2_Unpack_If_Sel = 1              # to Dst
cfg THCON_SEC0_REG3_Base_address = 0xfff
cfg UNP0_ADDR_BASE_REG_1_Base = 256                # Dst row 0 is output row 4 (FP32: 4 B)
cfg ALU_FORMAT_SPEC_REG2_Dstacc = 0                # FP32
cfg PCK_DEST_RD_CTRL_Read_32b_data = 1
cfg THCON_SEC0_REG1_In_data_format = 0
cfg THCON_SEC0_REG1_Out_data_format = 0
cfg THCON_SEC0_REG1_Disable_zero_compress = 1
cfg PCK_EDGE_OFFSET_SEC0_mask = 0xffff
cfg THCON_SEC0_REG1_L1_Dest_addr = 0x1fff

[t0]
ttsetadcxx 1, 1023, 0
ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
ttstallwait 2, 2                                   # SEMPOST waits for Unpacker 0 (C1)
ttsempost 2

[t2]
ttsemwait 5, 2, 1
ttsetadcxx 4, 1023, 0
ttpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1
ttsemget 2

dump l1 0x10000 fp32 1024
dump dst 0..63 fp32
dump l1 0x20000 fp32 1024
