// x + 0.5 on the SFPU: SFPLOAD (Dst format), SFPADDI with a BF16 immediate, SFPSTORE.
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/SFPADDI.md.
#include "sfpu_unary.hpp"

#ifdef TRISC_MATH
inline void sfpu_setup() {}
inline void sfpu_teardown() {}
inline void sfpu_face() {
    for (int d = 0; d < 8; d++) {
        TTI_SFPLOAD(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_SFPADDI(0x3f00, p_sfpu::LREG0, 0);  // LREG0 += 0.5
        TTI_SFPSTORE(p_sfpu::LREG0, 0, ADDR_MOD_7, 0);
        TTI_INCRWC(0, 2, 0, 0);
    }
}
#endif
