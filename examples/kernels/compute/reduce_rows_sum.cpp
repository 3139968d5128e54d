// Sum over rows of each tile (reduce.hpp), bf16.
#define REDUCE_DIM ReduceDim::REDUCE_ROW
#include "reduce.hpp"
