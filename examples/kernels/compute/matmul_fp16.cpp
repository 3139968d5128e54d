// kit-defines: -DKIT_IN_FORMAT=1 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=1 -DKIT_OUT_TILE_SIZE=2048
// Matmul of single tiles (matmul.cpp): fp16 inputs, fp16 output, HiFi4, 16-bit destination.
#include "matmul.cpp"
