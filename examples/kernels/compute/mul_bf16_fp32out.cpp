// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=0 -DKIT_OUT_TILE_SIZE=4096 -DKIT_DST_ACCUM=true
// Element-wise mul: bf16 inputs, fp32 output, HiFi4, FP32 destination (see eltwise_binary.hpp).
#define BINARY_INIT mul_init
#define BINARY_TILES mul_tiles
#include "eltwise_binary.hpp"
