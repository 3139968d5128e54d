// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=5 -DKIT_OUT_TILE_SIZE=2048
// Broadcast sub_tiles_bcast_cols (api/compute/bcast.h): bf16 inputs, bf16 output, HiFi4, 16-bit destination; CB 1 supplies the
// broadcast row / column / scalar (see eltwise_binary.hpp).
#include "api/compute/bcast.h"
#define BINARY_INIT sub_bcast_cols_init
#define BINARY_TILES sub_tiles_bcast_cols
#include "eltwise_binary.hpp"
