// kit-defines: -DKIT_DST_ACCUM=true
// Tile matmul at HiFi4 accumulating in an FP32 destination register.
#include "matmul.cpp"
