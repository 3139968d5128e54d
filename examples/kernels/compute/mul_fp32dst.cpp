// kit-defines: -DKIT_DST_ACCUM=true
// Element-wise mul at HiFi4 accumulating its fidelity phases in an FP32 destination register.
#define BINARY_INIT mul_init
#define BINARY_TILES mul_tiles
#include "eltwise_binary.hpp"
