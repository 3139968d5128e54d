// Integer shift and add on the FP32 bit pattern of x: (bits >> 1) + 0x1fc00000, the square
// root estimate by halving the exponent. SFPSHFT shifts right logically by 1 (Imm12 = -1),
// SFPIADD adds LREG1 (register form, lane flags untouched).
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/SFPSHFT.md,
// SFPIADD.md.
#include "sfpu_unary.hpp"

#ifdef TRISC_MATH
inline void sfpu_setup() {
    TTI_SFPLOADI(p_sfpu::LREG1, 0, 0x1fc0);  // MOD0_FLOATB: LREG1 = 0x1fc00000
}
inline void sfpu_teardown() {}
inline void sfpu_face() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_SFPSHFT(0xfff, 0, p_sfpu::LREG0, 1);             // LREG0 >>= 1 (logical)
        TTI_SFPIADD(0, p_sfpu::LREG1, p_sfpu::LREG0, 4);     // LREG0 = LREG1 + LREG0
        TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_INCRWC(0, 2, 0, 0);
    }
}
#endif
