// x + 0.5 by SFPLOADMACRO: macro 1 loads x, its MAD sub-unit runs instruction template 0
// (SFPADDI 0.5) the next cycle, its store sub-unit stores three cycles after the
// SFPLOADMACRO, at the SFPLOADMACRO's address. Two LRegs alternate so that one group's store
// is done before its LReg is loaded again.
// SFPU semantics: tt-isa-documentation BlackholeA0/TensixTile/TensixCoprocessor/
// SFPLOADMACRO.md, SFPCONFIG.md.
#include "sfpu_unary.hpp"

#ifdef TRISC_MATH
inline void sfpu_setup() {
    TTI_SFPADDI(0x3f00, 12, 0);        // VD = 12: the backdoor load makes this template 0
    TTI_SFPLOADI(p_sfpu::LREG0, 8, 0x1300);   // MOD0_UPPER: store byte = SFPSTORE, delay 2
    TTI_SFPLOADI(p_sfpu::LREG0, 10, 0x0400);  // MOD0_LOWER: MAD byte = template 0, delay 0
    TTI_SFPCONFIG(0, 5, 0);            // LoadMacroConfig.Sequence[1] = LREG0
    TTI_SFPCONFIG(0, 8, 1);            // Misc = 0: stores use MOD0_FMT_SRCB, delays in cycles
}
inline void sfpu_teardown() {}
inline void sfpu_face() {
    for (int d = 0; d < 4; d++) {
        TTI_SFPLOADMACRO((1 << 2) | 0, 0, ADDR_MOD_7, 0);  // macro 1, LREG0
        TTI_INCRWC(0, 2, 0, 0);
        TTI_SFPLOADMACRO((1 << 2) | 1, 0, ADDR_MOD_7, 0);  // macro 1, LREG1
        TTI_INCRWC(0, 2, 0, 0);
    }
}
#endif
