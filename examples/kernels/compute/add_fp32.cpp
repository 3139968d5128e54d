// kit-defines: -DKIT_IN_FORMAT=0 -DKIT_IN_TILE_SIZE=4096 -DKIT_OUT_FORMAT=0 -DKIT_OUT_TILE_SIZE=4096 -DKIT_DST_ACCUM=true
// Element-wise add: fp32 inputs, fp32 output, HiFi4, FP32 destination (see eltwise_binary.hpp).
#define BINARY_INIT add_init
#define BINARY_TILES add_tiles
#include "eltwise_binary.hpp"
