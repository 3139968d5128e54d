// One compare-exchange step of a sort by SFPSWAP (min/max in every lane): in each row of a
// face, column 2k gets min and column 2k+1 max of the pair (sign-magnitude order).
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/SFPSWAP.md.
#include "sfpu_unary.hpp"

#ifdef TRISC_MATH
inline void sfpu_setup() {}
inline void sfpu_teardown() {}
inline void sfpu_face() {
    for (int d = 0; d < 4; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);  // even columns of four rows
        TTI_SFPLOAD(p_sfpu::LREG1, 0, ADDR_MOD_7, 2);  // odd columns
        TTI_SFPSWAP(0, p_sfpu::LREG1, p_sfpu::LREG0, 1);  // LREG0 = min, LREG1 = max
        TTI_SFPNOP;  // only SFPNOP may follow SFPSWAP on the next cycle
        TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_SFPSTORE(p_sfpu::LREG1, 0, ADDR_MOD_7, 2);
        TTI_INCRWC(0, 4, 0, 0);
    }
}
#endif
