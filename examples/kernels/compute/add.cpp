// Element-wise add: CB 16 = CB 0 add CB 1, tile by tile (see eltwise_binary.hpp).
#define BINARY_INIT add_init
#define BINARY_TILES add_tiles
#include "eltwise_binary.hpp"
