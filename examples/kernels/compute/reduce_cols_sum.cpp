// Sum over cols of each tile (reduce.hpp), bf16.
#define REDUCE_DIM ReduceDim::REDUCE_COL
#include "reduce.hpp"
