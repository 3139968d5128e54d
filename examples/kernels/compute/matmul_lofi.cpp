// kit-defines: -DKIT_MATH_FIDELITY=LoFi
// Tile matmul at LoFi: one fidelity phase per MVMUL.
#include "matmul.cpp"
