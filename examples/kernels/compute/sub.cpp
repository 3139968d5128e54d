// Element-wise sub: CB 16 = CB 0 sub CB 1, tile by tile (see eltwise_binary.hpp).
#define BINARY_INIT sub_init
#define BINARY_TILES sub_tiles
#include "eltwise_binary.hpp"
