// x * x - 1.5 on the SFPU by one SFPMAD (a single rounding).
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/SFPMAD.md.
#include "sfpu_unary.hpp"

#ifdef TRISC_MATH
inline void sfpu_setup() {
    TTI_SFPLOADI(p_sfpu::LREG1, 0, 0xbfc0);  // MOD0_FLOATB: LREG1 = -1.5
}
inline void sfpu_teardown() {}
inline void sfpu_face() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_SFPMAD(p_sfpu::LREG0, p_sfpu::LREG0, p_sfpu::LREG1, p_sfpu::LREG2, 0);
        TTI_SFPSTORE(p_sfpu::LREG2, 0, ADDR_MOD_7, 0);
        TTI_INCRWC(0, 2, 0, 0);
    }
}
#endif
