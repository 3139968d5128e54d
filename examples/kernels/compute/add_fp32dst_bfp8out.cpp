// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=6 -DKIT_OUT_TILE_SIZE=1088 -DKIT_DST_ACCUM=true
// Element-wise add: bf16 inputs, bfp8_b output, HiFi4, FP32 destination (see eltwise_binary.hpp).
#define BINARY_INIT add_init
#define BINARY_TILES add_tiles
#include "eltwise_binary.hpp"
