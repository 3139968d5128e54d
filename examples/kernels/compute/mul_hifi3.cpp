// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=5 -DKIT_OUT_TILE_SIZE=2048 -DKIT_MATH_FIDELITY=HiFi3
// Element-wise mul: bf16 inputs, bf16 output, HiFi3, 16-bit destination (see eltwise_binary.hpp).
#define BINARY_INIT mul_init
#define BINARY_TILES mul_tiles
#include "eltwise_binary.hpp"
