// Stand-in for sfpi's <sfpi.h>. sfpi's vector types (vFloat, dst_reg, __builtin_rvtt_*) need
// Tenstorrent's compiler; stock GCC cannot build them, so SFPU kernels built by the kit are written
// with the raw TTI_SFP* instruction macros instead. tt-llk's FPU paths include this header only
// for the declarations below.
#pragma once

namespace sfpi {
// SFPLOADI's Mod0 values (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/SFPLOADI.md).
constexpr unsigned SFPLOADI_MOD0_FLOATB = 0;  // immediate is BF16
constexpr unsigned SFPLOADI_MOD0_FLOATA = 1;  // immediate is FP16 (ish)
constexpr unsigned SFPLOADI_MOD0_USHORT = 2;  // immediate is UINT16
constexpr unsigned SFPLOADI_MOD0_SHORT = 4;   // immediate is INT16
constexpr unsigned SFPLOADI_MOD0_UPPER = 8;   // immediate overwrites the upper 16 bits
constexpr unsigned SFPLOADI_MOD0_LOWER = 10;  // immediate overwrites the lower 16 bits
}  // namespace sfpi
