// A piecewise-linear function by SFPLUT: (slope, offset) pairs of Lut8 bytes in LREG0/1/2 for
// |x| < 1, < 2 and the rest; the sign of x is kept (SFPLUT_MOD0_SGN_RETAIN).
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/SFPLUT.md.
#include "sfpu_unary.hpp"

#ifdef TRISC_MATH
inline void sfpu_setup() {
    TTI_SFPLOADI(p_sfpu::LREG0, 2, 0x1020);  // MOD0_USHORT: 0.5, 0.25
    TTI_SFPLOADI(p_sfpu::LREG1, 2, 0x2131);  // 0.265625, 0.1328125
    TTI_SFPLOADI(p_sfpu::LREG2, 2, 0x3342);  // 0.1484375, 0.0703125
}
inline void sfpu_teardown() {}
inline void sfpu_face() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG3, 0, ADDR_MOD_7, 0);
        TTI_SFPLUT(p_sfpu::LREG4, 4, 0);
        TTI_SFPSTORE(p_sfpu::LREG4, 0, ADDR_MOD_7, 0);
        TTI_INCRWC(0, 2, 0, 0);
    }
}
#endif
