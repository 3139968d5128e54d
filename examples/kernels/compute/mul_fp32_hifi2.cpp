// kit-defines: -DKIT_IN_FORMAT=0 -DKIT_IN_TILE_SIZE=4096 -DKIT_OUT_FORMAT=0 -DKIT_OUT_TILE_SIZE=4096 -DKIT_MATH_FIDELITY=HiFi2
// Element-wise mul: fp32 inputs, fp32 output, HiFi2, 16-bit destination (see eltwise_binary.hpp).
#define BINARY_INIT mul_init
#define BINARY_TILES mul_tiles
#include "eltwise_binary.hpp"
