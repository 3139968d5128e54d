// kit-defines: -DKIT_IN_FORMAT=6 -DKIT_IN_TILE_SIZE=1088 -DKIT_OUT_FORMAT=6 -DKIT_OUT_TILE_SIZE=1088
// Datacopy (copy.cpp) through the unpacker and packer conversions: bfp8_b inputs, bfp8_b output, HiFi4, 16-bit destination.
#include "copy.cpp"
