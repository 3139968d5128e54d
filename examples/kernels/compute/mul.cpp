// Element-wise mul: CB 16 = CB 0 mul CB 1, tile by tile (see eltwise_binary.hpp).
#define BINARY_INIT mul_init
#define BINARY_TILES mul_tiles
#include "eltwise_binary.hpp"
