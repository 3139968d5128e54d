// kit-defines: -DKIT_IN_FORMAT=6 -DKIT_IN_TILE_SIZE=1088 -DKIT_OUT_FORMAT=5 -DKIT_OUT_TILE_SIZE=2048
// Broadcast mul_tiles_bcast_rows (api/compute/bcast.h): bfp8_b inputs, bf16 output, HiFi4, 16-bit destination; CB 1 supplies the
// broadcast row / column / scalar (see eltwise_binary.hpp).
#include "api/compute/bcast.h"
#define BINARY_INIT mul_bcast_rows_init
#define BINARY_TILES mul_tiles_bcast_rows
#include "eltwise_binary.hpp"
