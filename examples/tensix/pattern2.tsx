# Blackhole encoding (the default --arch); operand lists follow blackhole_assembly.yaml.
# docs/wait-gate.md, pattern 2: MOVD2A does not wait for SrcA by itself; software waits for C7
# (SrcA[MatrixUnit.SrcABank].AllowedClient == MatrixUnit) with ttstallwait 64, 128.
# T0 unpacks into SrcA bank 0 and flips it to the Matrix Unit (UNPACR SetDatValid = FlipSrc);
# T1's MOVD2A must leave the gate only after that flip.
[t0]
ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1     # Unpacker 0, FlipSrc: SrcA bank 0 -> MatrixUnit

[t1]
ttstallwait 64, 128             # STALL_MATH, SRCA_VLD (C7)
ttmovd2a 0, 0, 0, 0, 0
ttstallwait 64, 256             # STALL_MATH, SRCB_VLD (C8): SrcB bank 0 is given by T2 below
ttmovd2b 0, 0, 0, 0, 0

[t2]
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttnop
ttsetdvalid 2                   # SrcB bank 0 -> MatrixUnit (Misc unit)
