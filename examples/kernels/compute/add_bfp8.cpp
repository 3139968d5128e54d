// kit-defines: -DKIT_IN_FORMAT=6 -DKIT_IN_TILE_SIZE=1088 -DKIT_OUT_FORMAT=6 -DKIT_OUT_TILE_SIZE=1088
// Element-wise add: bfp8_b inputs, bfp8_b output, HiFi4, 16-bit destination (see eltwise_binary.hpp).
#define BINARY_INIT add_init
#define BINARY_TILES add_tiles
#include "eltwise_binary.hpp"
