// Sum over scalars of each tile (reduce.hpp), bf16.
#define REDUCE_DIM ReduceDim::REDUCE_SCALAR
#include "reduce.hpp"
