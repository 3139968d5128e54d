// kit-defines: -DKIT_IN_FORMAT=0 -DKIT_IN_TILE_SIZE=4096 -DKIT_OUT_FORMAT=5 -DKIT_OUT_TILE_SIZE=2048
// Element-wise sub: fp32 inputs, bf16 output, HiFi4, 16-bit destination (see eltwise_binary.hpp).
#define BINARY_INIT sub_init
#define BINARY_TILES sub_tiles
#include "eltwise_binary.hpp"
