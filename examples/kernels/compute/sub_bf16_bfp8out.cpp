// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=6 -DKIT_OUT_TILE_SIZE=1088
// Element-wise sub: bf16 inputs, bfp8_b output, HiFi4, 16-bit destination (see eltwise_binary.hpp).
#define BINARY_INIT sub_init
#define BINARY_TILES sub_tiles
#include "eltwise_binary.hpp"
