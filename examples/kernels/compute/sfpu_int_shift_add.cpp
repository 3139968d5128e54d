// kit-defines: -DKIT_DST_ACCUM=true -DKIT_DATA_FORMAT=8 -DKIT_TILE_SIZE=4096
// Integer shift and add on Int32 tiles: y = (x << 3) + (x >> 2) + 1234, two's complement with
// wrap-around, the right shift arithmetic. The CBs hold Int32 (tt-metal DataFormat 8), so tt-llk
// unpacks each tile straight into a 32-bit Dst and packs it back unchanged; SFPLOAD / SFPSTORE
// move the 32 bits as they are (Mod0 INT32).
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/SFPLOAD.md,
// SFPSHFT.md, SFPIADD.md, SFPSTORE.md.
#include "sfpu_unary.hpp"

#ifdef TRISC_MATH
inline void sfpu_setup() {}
inline void sfpu_teardown() {}
inline void sfpu_face() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, 4, ADDR_MOD_7, 0);      // Mod0 INT32: LREG0 = x
        TTI_SFPSHFT(3, p_sfpu::LREG0, p_sfpu::LREG1, 5);    // ARG_IMM | USE_VC: LREG1 = x << 3
        TTI_SFPSHFT(0xffe, 0, p_sfpu::LREG0, 3);            // ARG_IMM | ARITHMETIC: LREG0 = x >> 2
        TTI_SFPIADD(0, p_sfpu::LREG1, p_sfpu::LREG0, 4);    // LREG0 = LREG1 + LREG0, flags kept
        TTI_SFPIADD(1234, p_sfpu::LREG0, p_sfpu::LREG0, 5); // ARG_IMM | CC_NONE: LREG0 += 1234
        TTI_SFPSTORE(p_sfpu::LREG0, 4, ADDR_MOD_7, 0);      // Mod0 INT32
        TTI_INCRWC(0, 2, 0, 0);
    }
}
#endif
