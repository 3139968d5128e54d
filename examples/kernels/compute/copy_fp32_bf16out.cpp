// kit-defines: -DKIT_IN_FORMAT=0 -DKIT_IN_TILE_SIZE=4096 -DKIT_OUT_FORMAT=5 -DKIT_OUT_TILE_SIZE=2048
// Datacopy (copy.cpp) through the unpacker and packer conversions: fp32 inputs, bf16 output, HiFi4, 16-bit destination.
#include "copy.cpp"
