// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=7 -DKIT_OUT_TILE_SIZE=576
// Datacopy (copy.cpp) through the unpacker and packer conversions: bf16 inputs, bfp4_b output, HiFi4, 16-bit destination.
#include "copy.cpp"
