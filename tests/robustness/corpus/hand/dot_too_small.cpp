// EXPECT: error dot_too_small.cpp:[0-9]+:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(const tl::half *a, float *c) {
  auto r = tl::arange<0, 8>();
  auto x = tl::load(a + tl::expand_dims<1>(r) * 8 + tl::expand_dims<0>(r));
  tl::store(c + r, tl::sum<1>(tl::dot(x, x)));
}
