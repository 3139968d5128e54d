// kit-defines: -DKIT_IN_FORMAT=7 -DKIT_IN_TILE_SIZE=576 -DKIT_OUT_FORMAT=7 -DKIT_OUT_TILE_SIZE=576
// Element-wise sub: bfp4_b inputs, bfp4_b output, HiFi4, 16-bit destination (see eltwise_binary.hpp).
#define BINARY_INIT sub_init
#define BINARY_TILES sub_tiles
#include "eltwise_binary.hpp"
