// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=5 -DKIT_OUT_TILE_SIZE=2048 -DKIT_MATH_FIDELITY=HiFi2
// Matmul of single tiles (matmul.cpp): bf16 inputs, bf16 output, HiFi2, 16-bit destination.
#include "matmul.cpp"
