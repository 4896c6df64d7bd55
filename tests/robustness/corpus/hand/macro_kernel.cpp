// EXPECT: accepted
#include <tilec/tl.h>
#define UNARY_KERNEL(NAME, EXPR)                                                                \
  template <int BLOCK>                                                                          \
  TILEC_KERNEL void NAME(const float *x, float *out, int n) {                                   \
    auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();                             \
    auto v = tl::load(x + offs, offs < n);                                                      \
    tl::store(out + offs, EXPR, offs < n);                                                      \
  }
UNARY_KERNEL(negate, -v)
UNARY_KERNEL(square, v * v)
UNARY_KERNEL(shifted, v + 1.0f)
