// kit-defines: -DKIT_MATH_FIDELITY=LoFi
// Element-wise mul at LoFi: one fidelity phase (SrcA's top 4 and SrcB's top 6 mantissa bits).
#define BINARY_INIT mul_init
#define BINARY_TILES mul_tiles
#include "eltwise_binary.hpp"
