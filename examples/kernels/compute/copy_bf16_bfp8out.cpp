// kit-defines: -DKIT_IN_FORMAT=5 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=6 -DKIT_OUT_TILE_SIZE=1088
// Datacopy (copy.cpp) through the unpacker and packer conversions: bf16 inputs, bfp8_b output, HiFi4, 16-bit destination.
#include "copy.cpp"
