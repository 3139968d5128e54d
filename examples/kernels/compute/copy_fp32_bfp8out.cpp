// kit-defines: -DKIT_IN_FORMAT=0 -DKIT_IN_TILE_SIZE=4096 -DKIT_OUT_FORMAT=6 -DKIT_OUT_TILE_SIZE=1088 -DKIT_DST_ACCUM=true
// Datacopy (copy.cpp) through the unpacker and packer conversions: fp32 inputs, bfp8_b output, HiFi4, FP32 destination.
#include "copy.cpp"
