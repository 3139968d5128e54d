// kit-defines: -DKIT_IN_FORMAT=1 -DKIT_IN_TILE_SIZE=2048 -DKIT_OUT_FORMAT=1 -DKIT_OUT_TILE_SIZE=2048
// Datacopy (copy.cpp) through the unpacker and packer conversions: fp16 inputs, fp16 output, HiFi4, 16-bit destination.
#include "copy.cpp"
