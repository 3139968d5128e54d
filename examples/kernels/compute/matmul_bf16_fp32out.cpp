// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=0 -DKIT_OUT_TILE_SIZE=4096 -DKIT_DST_ACCUM=true
// Matmul of single tiles (matmul.cpp): bf16 inputs, fp32 output, HiFi4, FP32 destination.
#include "matmul.cpp"
