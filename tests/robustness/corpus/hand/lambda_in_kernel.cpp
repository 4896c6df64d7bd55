// EXPECT: error lambda_in_kernel.cpp:6:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto twice = [](auto v) { return v + v; };
  tl::store(out + offs, twice(tl::load(out + offs, offs < n)), offs < n);
}
