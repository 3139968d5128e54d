// kit-defines: -DKIT_IN_FORMAT=7 -DKIT_IN_TILE_SIZE=576 -DKIT_OUT_FORMAT=5 -DKIT_OUT_TILE_SIZE=2048
// Datacopy (copy.cpp) through the unpacker and packer conversions: bfp4_b inputs, bf16 output, HiFi4, 16-bit destination.
#include "copy.cpp"
