// kit-defines: -DKIT_IN_FORMAT=1 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=1 -DKIT_OUT_TILE_SIZE=2048
// Element-wise add: fp16 inputs, fp16 output, HiFi4, 16-bit destination (see eltwise_binary.hpp).
#define BINARY_INIT add_init
#define BINARY_TILES add_tiles
#include "eltwise_binary.hpp"
