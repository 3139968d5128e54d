// Stand-in for sfpi's <sfpi.h>. sfpi's vector types (vFloat, dst_reg, __builtin_rvtt_*) need
// Tenstorrent's compiler; stock GCC cannot build them, so SFPU kernels built by the kit are written
// with the raw TTI_SFP* instruction macros instead. tt-llk's FPU paths include this header only
// for the declarations below.
#pragma once
