/*
 * TRISC0, unpack: tile A -> SrcA (unpacker 0), tile B -> SrcB (unpacker 1). Each UNPACR
 * hands its bank to the Matrix Unit (FlipSrc), which is what lets TRISC1's ELWADD/MVMUL
 * through the Wait Gate (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/
 * UNPACR_Regular.md, WormholeB0/TensixTile/TensixCoprocessor/SrcASrcB.md).
 */
#include "demo.h"

DEMO_ENTRY(0x9000)

int main(void) {
    TTI(0xb2050004); /* ttsetc16 5, 4: SRCA_SET_SetOvrdWithAddr = 1 */
    TTI(0x5e6ffc00); /* ttsetadcxx 3, 1023, 0: both unpackers X 0..1023 */
    TTI(0x42000041); /* ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1: tile A -> SrcA */
    TTI(0x42800041); /* ttunpacr 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1: tile B -> SrcB */
    for (;;) {
    }
}
